import { expect } from 'chai';
import { accessibilityViolations, expectNoPageProblems } from '../support/browser';
import { PAGE_GROUPS, settled, sweepPages, useConsolePages } from '../support/console-pages';

/** The operations and first people pages of the console, as a person meets them, and pages by address (see test/support/console-pages.ts). */
describe('console in the browser: every page (operations), its heading, its navigation and its accessibility', () => {
  const f = useConsolePages('console-pages-operations');
  const signedIn = () => f.signedIn();

  it(`the pages ${PAGE_GROUPS.operations.join(', ')}: each has one level-one heading (its name), nothing moderate or worse for axe and nothing running off the side; at 390 px "Menu" folds the navigation`, async function () {
    this.timeout(600_000);
    const page = await signedIn();
    await sweepPages(page, 'operations');
    expectNoPageProblems(page);
  });

  it('pages by address (a device, an employee) have their heading too', async () => {
    const page = await signedIn();
    for (const [path, heading] of [
      [`devices/${f.controllers[0]!.device.id}`, 'Devices'],
      [`employees/${f.ada.id}`, 'Employees'],
    ]) {
      await page.goto(`${f.t.url}/console#/${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled(page);
      expect(await page.getByRole('heading', { level: 1 }).count()).to.equal(1);
      expect(await accessibilityViolations(page), path).to.deep.equal([]);
    }
  });
});

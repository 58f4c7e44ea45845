import { expect } from 'chai';
import { accessibilityViolations, expectNoPageProblems, screenshot } from '../support/browser';
import { PAGE_GROUPS, sweepPages, useConsolePages } from '../support/console-pages';
import { waitUntil } from '../support/wait-until';

/** The doors and administration pages of the console as a person meets them, the lockdown form and the door board (see test/support/console-pages.ts). */
describe('console in the browser: every page (doors), its heading, its navigation and its accessibility', () => {
  const f = useConsolePages('console-pages-doors');
  const signedIn = () => f.signedIn();

  it(`the pages ${PAGE_GROUPS.doors.join(', ')}: each has one level-one heading (its name), nothing moderate or worse for axe and nothing running off the side; at 390 px "Menu" folds the navigation`, async function () {
    this.timeout(600_000);
    const page = await signedIn();
    await sweepPages(page, 'doors');
    expectNoPageProblems(page);
  });

  it('the lockdown form lists the doors by area and finds them by name', async () => {
    const page = await signedIn();
    await page.goto(`${f.t.url}/console#/lockdowns`);
    const form = page.getByRole('region', { name: 'Lock down or evacuate' });
    await form.getByRole('radio', { name: 'Chosen doors' }).check();
    const north = form.getByRole('group', { name: 'North wing' });
    const south = form.getByRole('group', { name: 'South wing' });
    expect(await north.getByRole('checkbox').count()).to.equal(8);
    expect(await south.getByRole('checkbox').count()).to.equal(8);
    await form.getByLabel('Find doors by name, controller or area').fill('South side');
    await form.getByText('0 chosen; 4 of 16 listed').waitFor();
    expect(await north.count()).to.equal(0);
    await south.getByRole('button', { name: 'Tick the 4 listed in South wing' }).click();
    await form.getByText('4 chosen; 4 of 16 listed').waitFor();
    await form.getByLabel('Find doors by name, controller or area').fill('');
    // The ticks stay while the search changes; the count says what the lockdown would take.
    expect(await form.getByRole('checkbox', { checked: true }).count()).to.equal(4);
    await form.getByLabel('Reason').fill('Drill');
    await form.getByText('4 doors on 1 controller(s).').waitFor();
    await screenshot(page, 'lockdown-doors-by-area');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).to.equal(true);
    await screenshot(page, 'lockdown-doors-by-area-phone');
    expectNoPageProblems(page);
  });

  it('the door board reads its door events without asking for their count', async () => {
    const page = await signedIn();
    const documents: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (body.includes('doorEvents')) documents.push(body);
    });
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Door board' }).click();
    await page.getByRole('region', { name: 'Last door events' }).waitFor();
    await waitUntil(
      'the door board read its events',
      () => documents.length,
      (n) => n > 0,
    );
    for (const body of documents.filter((b) => b.includes('query DoorBoard'))) {
      expect((JSON.parse(body) as { query: string }).query).to.not.include('totalCount');
    }
    expect(documents.some((b) => b.includes('query DoorBoard'))).to.equal(true);
  });
});

import { expect } from 'chai';
import { addDays } from '../../src/kernel/calendar-date';
import { accessibilityViolations, expectNoPageProblems, screenshot } from '../support/browser';
import { PAGE_GROUPS, sweepPages, useConsolePages } from '../support/console-pages';

/** The time and leave pages of the console as a person meets them, the folded menu on a phone, and the month timesheet (see test/support/console-pages.ts). */
describe('console in the browser: every page (time), its heading, its navigation and its accessibility', () => {
  const f = useConsolePages('console-pages-time');
  const signedIn = () => f.signedIn();

  it(`the pages ${PAGE_GROUPS.time.join(', ')}: each has one level-one heading (its name), nothing moderate or worse for axe and nothing running off the side; at 390 px "Menu" folds the navigation; unfolded on a phone the links are there, choosing one folds them again, and the keyboard opens it`, async function () {
    this.timeout(600_000);
    const page = await signedIn();
    await sweepPages(page, 'time');

    // Unfolded, the links are there; choosing one folds the list again.
    const nav = page.getByRole('navigation', { name: 'Pages' });
    const menu = nav.getByRole('button', { name: /^Menu/ });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await nav.getByRole('link', { name: 'Holidays' }).waitFor();
    await screenshot(page, 'page-menu-open-phone');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await nav.getByRole('link', { name: 'Holidays' }).click();
    await page.getByRole('heading', { level: 1, name: 'Holidays' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');
    expect(await nav.getByRole('link').count()).to.equal(0);
    // With the keyboard: Enter on "Menu" opens it and focus reaches the links.
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('Overview');
    expectNoPageProblems(page);
  });

  it('the month timesheet: leave days coloured and in the legend, the whole month in view at 1366 px, Month → Week keeps the month shown, people found by name', async () => {
    const { day, month } = f;
    const page = await signedIn();
    await page.goto(`${f.t.url}/console#/timesheets/${month}`);
    const grid = page.getByRole('table', { name: new RegExp(`^Timesheet ${month}-01 to `) });
    const leave = page.getByRole('button', { name: `Lee Onleave, ${day}: leave, 0.0 h` });
    await leave.waitFor();
    // Leave has its colour, and the legend names it.
    const colour = await leave.evaluate((b) => (globalThis as any).getComputedStyle(b.parentElement).backgroundColor as string);
    expect(colour).to.not.equal('rgba(0, 0, 0, 0)');
    expect(colour).to.not.equal('rgb(255, 255, 255)');
    const legend = page.getByRole('list', { name: 'Legend' });
    await legend.getByText('leave (approved absence)').waitFor();
    expect(await legend.locator('.cell-leave').evaluate((swatch) => (globalThis as any).getComputedStyle(swatch).backgroundColor as string)).to.equal(colour);

    // At 1366 px the 31 days and the totals are in view: nothing scrolls sideways.
    const box = page.locator('.sheet-scroll');
    expect(await box.evaluate((b) => b.scrollWidth <= b.clientWidth), 'no sideways scroll at 1366 px').to.equal(true);
    const lastColumn = await page.getByRole('columnheader', { name: 'Late' }).evaluate((th) => th.getBoundingClientRect().right);
    expect(lastColumn).to.be.at.most(1366);
    await screenshot(page, 'timesheet-month-1366');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    // On a phone the grid scrolls sideways inside its box, whose scroll bar is in view.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await box.evaluate((b) => b.scrollWidth > b.clientWidth)).to.equal(true);
    await page.getByText('scroll the grid sideways for the other days and the totals').waitFor();
    // The box is shorter than the screen: scrolled to, its rows and its scroll bar are in view at once.
    await box.evaluate((b) => b.scrollIntoView({ block: 'center' }));
    const { top, bottom } = await box.evaluate((b) => ({ top: b.getBoundingClientRect().top, bottom: b.getBoundingClientRect().bottom }));
    expect(top, 'the top of the box in view').to.be.at.least(0);
    expect(bottom, 'the bottom of the box (its scroll bar) in view').to.be.at.most(844);
    await screenshot(page, 'timesheet-month-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Rows: every person counted, each drawn row numbered.
    expect(await grid.getAttribute('aria-rowcount')).to.equal('13');
    expect(await grid.locator('tbody tr[aria-rowindex]').count()).to.equal(12);

    // Find a person by name.
    await page.getByLabel('Find a person').fill('onleave');
    await page.getByText('1 of 12 people match').waitFor();
    expect(await grid.getAttribute('aria-rowcount')).to.equal('2');
    expect(await grid.getByRole('rowheader').allTextContents()).to.deep.equal(['Lee Onleave']);
    await page.getByLabel('Find a person').fill('');

    // Month → Week: the week shown is one of the month shown, not this week.
    const other = addDays(`${month}-01`, -40).slice(0, 7);
    await page.getByLabel('Month', { exact: true }).fill(other);
    await page.getByRole('table', { name: new RegExp(`^Timesheet ${other}-01 to `) }).waitFor();
    await page.getByLabel('View').selectOption('Week');
    const weekOf = await page.getByLabel('Week of').inputValue();
    expect(weekOf).to.equal(`${other}-01`);
    // The table is the week holding that day.
    const label = (await page.getByRole('table', { name: /^Timesheet / }).getAttribute('aria-label'))!;
    const [, from, until] = /^Timesheet (\S+) to (\S+)$/.exec(label)!;
    expect(from! <= weekOf && weekOf <= until! && addDays(from!, 6) === until).to.equal(true);
    // And back: the week's month.
    await page.getByLabel('View').selectOption('Month');
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).to.equal(weekOf.slice(0, 7));
    expectNoPageProblems(page);
  });
});

// A real Chromium (Debian's `chromium` package, or CHROMIUM_PATH) driven by playwright-core, for
// tests that look at pages as a person does. Screenshots go to test-results/screenshots (not committed).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'chai';

export const SCREENSHOTS = path.resolve(__dirname, '..', '..', '..', 'test-results', 'screenshots');

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error("Chromium not found: install Debian's `chromium` package (.ci/run does) or set CHROMIUM_PATH.");
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's moderate, serious and critical violations on the page (run through DevTools, so the page's CSP does not apply). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }
    ).axe.run();
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')}`,
    );
}

const problemsOf = new WeakMap<Page, string[]>();

/** Starts recording what the page throws and what its Content Security Policy refuses (see expectNoPageProblems). */
export function recordPageProblems(page: Page): void {
  const seen: string[] = [];
  problemsOf.set(page, seen);
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
}

/** The page threw nothing and had nothing refused by the CSP since recordPageProblems. */
export function expectNoPageProblems(page: Page): void {
  const seen = problemsOf.get(page);
  if (!seen) throw new Error('recordPageProblems was not called for this page');
  expect(seen).to.deep.equal([]);
}

/** axe-core finds nothing moderate, serious or critical, and the page threw nothing and had nothing refused by the CSP. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityViolations(page)).to.deep.equal([]);
  expectNoPageProblems(page);
}

/** Nothing runs off the side at 1366 px nor at 390 px (a phone); saves the phone's screenshot. */
export async function expectNoHorizontalCutOff(page: Page, name: string): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `${name} at ${width} px`).to.equal(true);
  }
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

// A real Chromium (Debian's `chromium` package, or CHROMIUM_PATH) driven by playwright-core, for
// tests that look at pages as a person does. Screenshots go to test-results/screenshots (not committed):
// of a failure always, of the pages the tests walk through when TIMEGATE_TEST_SCREENSHOTS=1.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'chai';
import { onProcessCleanup } from './process-cleanup';

export const SCREENSHOTS = path.resolve(__dirname, '..', '..', '..', 'test-results', 'screenshots');

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error("Chromium not found: install Debian's `chromium` package (.ci/run does) or set CHROMIUM_PATH.");
  return found;
}

/**
 * What a test file gets from launchBrowser: the process's one Chromium, seen through the browser
 * contexts (and their pages) this file opened. `newPage` opens a page in a context of its own, as
 * playwright's Browser does; `close` closes this file's contexts, not the Chromium.
 */
export type TestBrowser = Pick<Browser, 'newPage' | 'newContext' | 'contexts' | 'close'>;

let sharedChromium: Promise<Browser> | null = null;

/** The Chromium of this process, launched on first use (and again if it went away). */
function processChromium(): Promise<Browser> {
  if (!sharedChromium) {
    const launching = chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    sharedChromium = launching;
    launching.then(
      (browser) => browser.on('disconnected', () => sharedChromium === launching && (sharedChromium = null)),
      () => sharedChromium === launching && (sharedChromium = null),
    );
  }
  return sharedChromium;
}

/** Closes the Chromium of this process, if one was launched (the root hook does, at the end of a run in one process). */
export async function closeProcessChromium(): Promise<void> {
  const launched = sharedChromium;
  sharedChromium = null;
  const browser = await launched?.catch(() => null);
  await browser?.close();
}
onProcessCleanup(closeProcessChromium);

/**
 * A browser for one test file. Every file of a mocha process (a parallel run's worker runs many)
 * shares one Chromium: launching it costs seconds, a browser context (its own cookies, storage and
 * cache, as a fresh browser has) a few milliseconds. `close()` in the file's `after` closes the
 * contexts the file opened.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await processChromium();
  const mine = new Set<BrowserContext>();
  const own = (context: BrowserContext) => {
    mine.add(context);
    context.on('close', () => mine.delete(context));
    return context;
  };
  return {
    newContext: async (options) => own(await browser.newContext(options)),
    newPage: async (options) => {
      const context = own(await browser.newContext(options));
      const page = await context.newPage();
      // As Browser.newPage: the page owns its context, which closes with it.
      page.on('close', () => void context.close().catch(() => undefined));
      return page;
    },
    contexts: () => [...mine],
    close: async () => {
      await Promise.all([...mine].map((context) => context.close().catch(() => undefined)));
    },
  };
}

/** Whether the tests save screenshots of the pages they walk through (TIMEGATE_TEST_SCREENSHOTS=1); they are for people to look at, nothing compares them. */
const SAVE_SCREENSHOTS = process.env.TIMEGATE_TEST_SCREENSHOTS === '1';

/** Saves a full-page screenshot as `name`.png when TIMEGATE_TEST_SCREENSHOTS=1 (each costs a few hundred ms of a busy machine). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (SAVE_SCREENSHOTS) await saveScreenshot(page, name);
}

/** Saves a full-page screenshot of a page a test failed on, always. */
export async function screenshotOfFailure(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, name);
}

async function saveScreenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's moderate, serious and critical violations on the page (run through DevTools, so the
 * page's CSP does not apply). axe is put into the page once (the console changes pages without
 * loading a document, so one copy serves the whole visit) and asked for violations only: it checks
 * every rule as before, but does not describe each element that passed (its slowest part on a long
 * page).
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof globalThis.axe?.run === "function"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: { run(options: { resultTypes: string[] }): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe.run({ resultTypes: ['violations'] });
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

/**
 * Starts recording what the page throws and what its Content Security Policy refuses (see
 * expectNoPageProblems); called again on the same page (a tab handed to the next test), it starts a
 * new record: what came before is forgotten.
 */
export function recordPageProblems(page: Page): void {
  const listening = problemsOf.has(page);
  problemsOf.set(page, []);
  if (listening) return;
  page.on('pageerror', (error) => problemsOf.get(page)!.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problemsOf.get(page)!.push(message.text());
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

/** Nothing runs off the side at 1366 px nor at 390 px (a phone); saves the phone's screenshot (see screenshot). */
export async function expectNoHorizontalCutOff(page: Page, name: string): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `${name} at ${width} px`).to.equal(true);
  }
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

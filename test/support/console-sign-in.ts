// Signing in to the console as a person does, in a new page of a real Chromium (see browser.ts).
import type { BrowserContext, Page } from 'playwright-core';
import { recordPageProblems, type TestBrowser } from './browser';

export interface SignInOptions {
  /** Viewport width in px (default 1366, the desktop the console is drawn for; height 900). */
  width?: number;
  /** Let the page save files (payroll exports). */
  acceptDownloads?: boolean;
  /** The address opened first (default `/console`; `/` sends a person there). */
  openAt?: string;
}

/**
 * A new page of `browser` signed in to the console at `baseUrl` with an API key, once the
 * navigation is drawn; what the page throws or has refused by the CSP is recorded from the start
 * (expectAccessible / expectNoPageProblems check it).
 */
export async function signInWithKey(browser: TestBrowser, baseUrl: string, key: string, options: SignInOptions = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1366, height: 900 }, acceptDownloads: options.acceptDownloads });
  recordPageProblems(page);
  await page.goto(`${baseUrl}${options.openAt ?? '/console'}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  return page;
}

/**
 * A new page of `context` (a fresh one has no cookies) signed in to the console at `baseUrl` as
 * `login` through the OpenID provider's own login page (oidc-provider.ts); the page's problems are
 * recorded from the start. Waits for the console's navigation unless `expectSignedIn` is false (a
 * person the console turns away).
 */
export async function signInThroughProvider(context: BrowserContext, baseUrl: string, login: string, expectSignedIn = true): Promise<Page> {
  // The provider's development login page imports a web font; there is no internet here.
  await context.route(/^https:\/\/fonts\./, (route) => route.abort());
  const page = await context.newPage();
  recordPageProblems(page);
  await page.goto(`${baseUrl}/console`);
  await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
  // The provider's page (another origin).
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.origin === baseUrl && url.pathname === '/console');
  if (expectSignedIn) await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  return page;
}

/** The file's console tab, signed in with `key` (see consoleTab). */
export type ConsoleTab = (key: string, options?: Omit<SignInOptions, 'acceptDownloads'>) => Promise<Page>;

/** Where the console keeps the key it is signed in with (src/console/session.ts). */
const CONSOLE_KEY_ITEM = 'timegate.apiKey';

/**
 * One console tab of a test file, signed in through the sign-in form once and handed to each test
 * of the file afresh, signed in with the key it asks for: the tab's new page and the console's first
 * load cost a busy machine about 2 s a sign-in, a new document in a tab that has the console
 * already about 0.3 s.
 *
 * Afresh means as a new browser signed in with that key would be: the tab leaves the previous
 * test's document for another of the service's addresses (`/healthz`, which runs no script), the
 * browser context's cookies and the origin's local and session storage are cleared, the key is put
 * where the sign-in form puts it (sessionStorage), the page's problems are recorded anew, the
 * viewport is set to the width asked for, and the console is loaded from its address as a new
 * document. Only the HTTP cache stays (the console's own assets). A tab the test closed is signed
 * in again through the form.
 *
 * For tests that are not about signing in; those that are use signInWithKey (a new browser context).
 */
export function consoleTab(browser: TestBrowser, baseUrl: string, contextOptions: Pick<SignInOptions, 'acceptDownloads'> = {}): ConsoleTab {
  let tab: Page | null = null;
  return async (key, options = {}) => {
    if (!tab || tab.isClosed()) {
      tab = await signInWithKey(browser, baseUrl, key, { ...options, ...contextOptions });
      return tab;
    }
    await tab.goto(`${baseUrl}/healthz`);
    await tab.context().clearCookies();
    await tab.evaluate(
      ([item, value]) => {
        // In the page (the test's TypeScript has no DOM types).
        const storage = globalThis as unknown as Record<'localStorage' | 'sessionStorage', { clear(): void; setItem(name: string, value: string): void }>;
        storage.localStorage.clear();
        storage.sessionStorage.clear();
        storage.sessionStorage.setItem(item, value);
      },
      [CONSOLE_KEY_ITEM, key] as const,
    );
    recordPageProblems(tab);
    await tab.setViewportSize({ width: options.width ?? 1366, height: 900 });
    await tab.goto(`${baseUrl}${options.openAt ?? '/console'}`);
    await tab.getByRole('navigation', { name: 'Pages' }).waitFor();
    return tab;
  };
}

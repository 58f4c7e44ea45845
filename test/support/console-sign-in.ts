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

import type { Locator, Page } from 'playwright-core';

export const ACCOUNTS_KEY = 'accounts';
export type StoredAccount = { user: string; token: string };

/** The global toast region: `toastWith(page, text)` resolves when a toast with that text shows. */
export function toast(page: Page, text: string): Locator {
  return page.locator('.toast', { hasText: text });
}

export async function storedAccounts(page: Page): Promise<StoredAccount[]> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]') as StoredAccount[], ACCOUNTS_KEY);
}

export async function setStoredAccounts(page: Page, accounts: StoredAccount[]): Promise<void> {
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [ACCOUNTS_KEY, JSON.stringify(accounts)]);
}

export async function pathOf(page: Page): Promise<string> {
  return new URL(page.url()).pathname;
}

/** Resolves once the URL path equals `path` (client-side navigations included). */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

/**
 * Resolves once the service worker controls the page, so every chunk and catalog part a screen
 * loads later comes from its precache offline. Installing precaches about 180 files (4 MB); on a
 * loaded 2-core CI machine that has taken over 20 s, so up to 60 s.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  for (const until = Date.now() + 60_000; Date.now() < until; await page.waitForTimeout(250)) {
    if (await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null).catch(() => null)) return;
  }
  throw new Error('The service worker did not take control of the page within 60 s');
}

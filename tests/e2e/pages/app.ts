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

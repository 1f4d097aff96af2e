import type { Page } from 'playwright-core';

export class Header {
  constructor(private readonly page: Page) {}

  accountButton() {
    return this.page.locator('header .account-btn');
  }

  /** The e-mail of the active account as the header shows it. */
  async activeAccount(): Promise<string> {
    return (await this.accountButton().locator('.account-btn__email').textContent()) ?? '';
  }

  async openAccountMenu(): Promise<void> {
    if ((await this.accountButton().getAttribute('aria-expanded')) !== 'true') await this.accountButton().click();
    await this.page.getByRole('region', { name: 'Accounts' }).waitFor();
  }

  async switchTo(email: string): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByRole('region', { name: 'Accounts' }).getByRole('button', { name: email }).click();
  }

  async addAccount(): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByRole('button', { name: 'Add Account' }).click();
  }

  async manageAccount(): Promise<void> {
    await this.openAccountMenu();
    await this.page.getByRole('link', { name: 'Manage Account' }).click();
  }

  signInButton() {
    return this.page.locator('header').getByRole('link', { name: 'Sign in' });
  }
}

import type { Page } from 'playwright-core';

export class ManageAccountPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/manage-account`);
    await this.page.getByRole('heading', { name: 'Your Sessions' }).waitFor();
    return this;
  }

  sessions() {
    return this.page.locator('.session');
  }

  async signOut(email: string): Promise<void> {
    await this.page.getByRole('button', { name: `Sign Out ${email}` }).click();
  }

  async changePassword(oldPassword: string, newPassword: string, confirm = newPassword): Promise<void> {
    await this.page.getByLabel('Old password').fill(oldPassword);
    await this.page.getByLabel('New password', { exact: true }).fill(newPassword);
    await this.page.getByLabel('Confirm new password').fill(confirm);
    await this.page.getByRole('button', { name: 'Change password' }).click();
  }
}

import type { Page } from 'playwright-core';

/** /register opened from an invitation link; /confirm-email/{id} from the verification mail. */
export class RegisterPage {
  constructor(private readonly page: Page) {}

  async registerFrom(link: string, password: string): Promise<void> {
    await this.page.goto(link);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByLabel('Confirm password').fill(password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
    await this.page.waitForURL((url) => url.pathname === '/login');
  }

  async confirm(link: string): Promise<void> {
    await this.page.goto(link);
    await this.page.waitForURL((url) => url.pathname === '/login');
  }
}

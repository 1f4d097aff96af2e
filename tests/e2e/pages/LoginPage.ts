import type { Page } from 'playwright-core';

export class LoginPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(search = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/login${search}`);
    await this.page.getByRole('heading', { name: 'Sign In' }).waitFor();
    return this;
  }

  email() {
    return this.page.getByLabel('Email', { exact: true });
  }

  password() {
    return this.page.getByLabel('Password', { exact: true });
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email().fill(email);
    await this.password().fill(password);
  }

  async submit(): Promise<void> {
    await this.page.getByRole('button', { name: 'Login' }).click();
  }

  /** Signs in and waits until the app has left the login screen (the password hash takes seconds on a loaded machine). */
  async signIn(email: string, password: string): Promise<void> {
    await this.open();
    await this.fill(email, password);
    await this.submit();
    await this.page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
  }
}

import type { Locator, Page } from 'playwright-core';

/** The field user's survey form (/survey-bird/field-user) and responses list (/survey-bird/field-user/response). */
export class FieldUserFormPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(title: string): Promise<this> {
    await this.page.goto(`${this.baseUrl}/survey-bird/field-user`);
    await this.title(title).waitFor();
    return this;
  }

  title(text: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: text });
  }

  question(text: string): Locator {
    return this.page.getByRole('group', { name: text });
  }

  async fillText(question: string, value: string): Promise<void> {
    await this.question(question).getByRole('textbox').fill(value);
  }

  async choose(question: string, option: string): Promise<void> {
    await this.question(question).locator('select').selectOption(option);
  }

  /** A 'select (> 50 dataset)' question: type, then pick the option from the listbox. */
  async search(question: string, typed: string, option: string): Promise<void> {
    const box = this.question(question).getByRole('combobox');
    await box.fill(typed);
    await this.question(question).getByRole('option', { name: option, exact: true }).click();
  }

  async tick(question: string, option: string): Promise<void> {
    await this.question(question).getByRole('checkbox', { name: option }).check();
  }

  async captureLocation(question: string): Promise<string> {
    const q = this.question(question);
    await q.getByRole('button', { name: /Capture/ }).click();
    await q.locator('.location--set').waitFor();
    return (await q.locator('output').textContent()) ?? '';
  }

  /** Opens the (fake) camera, waits for frames and takes the picture. */
  async takePicture(question: string): Promise<void> {
    const q = this.question(question);
    await q.getByRole('button', { name: /Open camera|Retake picture/ }).click();
    await q.getByRole('button', { name: 'Take picture' }).and(this.page.locator(':enabled')).waitFor();
    await q.getByRole('button', { name: 'Take picture' }).click();
    await q.locator('img.photo__img').waitFor();
  }

  submitButton(): Locator {
    return this.page.locator('.fu-submit button');
  }

  async submit(): Promise<void> {
    await this.submitButton().click();
  }

  /** The sync strip's headline: '3 saved on this phone' or 'Nothing waiting to send'. */
  waiting(): Locator {
    return this.page.getByTestId('waiting');
  }

  async syncNow(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sync now' }).click();
  }

  async openResponses(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/survey-bird/field-user/response`);
    await this.page.getByRole('heading', { name: 'Responses' }).waitFor();
  }

  records(): Locator {
    return this.page.getByRole('list', { name: 'Responses on this phone' }).getByRole('listitem');
  }

  recordsWith(chip: 'saved on this phone' | 'received by the server' | 'awaiting review' | 'approved' | 'returned for fixing' | 'rejected' | 'paid' | 'failed'): Locator {
    return this.records().filter({ has: this.page.locator('.chip', { hasText: chip }) });
  }
}

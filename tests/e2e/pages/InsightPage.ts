import type { Download, Page } from 'playwright-core';

/** The organization (or supervisor) dashboard: cards, charts and the responses table. */
export class InsightPage {
  constructor(private readonly page: Page, private readonly baseUrl: string) {}

  async open(path = '/survey-bird/organization/insight'): Promise<this> {
    await this.page.goto(`${this.baseUrl}${path}`);
    await this.page.getByRole('heading', { name: 'Insight' }).first().waitFor();
    return this;
  }

  /** The value shown on the card titled `title`, once it has loaded. */
  async card(title: string): Promise<string> {
    const card = this.page.locator('.stat-card', { has: this.page.getByRole('heading', { name: title, exact: true }) });
    await card.locator('.stat-card__value .insight-skeleton').waitFor({ state: 'detached' });
    return (await card.locator('.stat-card__value').innerText()).trim();
  }

  canvases() {
    return this.page.locator('.chart-box canvas');
  }

  /** Whether each chart canvas has any painted pixel. */
  async paintedCanvases(): Promise<boolean[]> {
    return this.canvases().evaluateAll((list) =>
      (list as HTMLCanvasElement[]).map((c) => {
        const ctx = c.getContext('2d');
        if (!ctx || c.width === 0 || c.height === 0) return false;
        const { data } = ctx.getImageData(0, 0, c.width, c.height);
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
        return false;
      }),
    );
  }

  /** The loaded rows of the responses table (skeleton rows excluded). */
  rows() {
    return this.page.locator('.responses__table tbody tr:not(.responses__skeleton)');
  }

  async waitForRows(count: number): Promise<void> {
    await this.page.locator('.responses__table[aria-busy="false"]').waitFor();
    await this.page.waitForFunction((n) => document.querySelectorAll('.responses__table[aria-busy="false"] tbody tr').length === n, count);
  }

  async search(text: string): Promise<void> {
    await this.page.getByPlaceholder('Search anything...').fill(text);
  }

  async export(): Promise<Download> {
    // The workbook is written in a worker thread that loads exceljs first: give a busy CI machine time.
    const [download] = await Promise.all([this.page.waitForEvent('download', { timeout: 60_000 }), this.page.getByRole('button', { name: 'Export' }).click()]);
    return download;
  }
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { QuestionType } from '@survey-bird/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const post = <T>(path: string, body: unknown, token: string) => apiPost<T>(env, path, body, token);
async function get<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** A pay-after-review survey: four pending responses, three by the supervised field user (₦500 each), one by another. */
async function seed(org: TestUser) {
  const token = await apiLogin(env, org);
  const { survey } = await post<{ survey: { _id: string; organization_id: string } }>('/survey/create', {
    title: 'Kiosk census', description: 'Every kiosk in the ward.', payAfterReview: true,
    questions: [{ text: 'Kiosk name', type: QuestionType.text, compulsory: true, options: [] }],
  }, token);
  const [mine, other, supervisor] = await Promise.all([
    createTeamMember(env, org, survey._id, 'field-user'),
    createTeamMember(env, org, survey._id, 'field-user'),
    createTeamMember(env, org, survey._id, 'supervisor'),
  ]);
  const fieldUsers = (await get<{ fieldUsers: { _id: string; email: string }[] }>(`/field-user/${survey._id}`, token)).fieldUsers;
  const sups = (await get<{ supervisors: { _id: string }[] }>(`/supervisor/${survey._id}`, token)).supervisors;
  await post('/supervisor/assign', { survey_id: survey._id, supervisorId: sups[0]!._id, fieldUserId: fieldUsers.find((f) => f.email === mine.email)!._id }, token);
  for (const [user, name] of [[mine, 'Kiosk Alpha'], [mine, 'Kiosk Bravo'], [mine, 'Kiosk Charlie'], [other, 'Kiosk Delta']] as const) {
    await post('/survey/respond', { survey_id: survey._id, organization_id: survey.organization_id, answers: { 'Kiosk name': name } }, await apiLogin(env, user));
  }
  return { supervisor: supervisor };
}

const row = (p: Page, text: string) => p.locator('.responses__table tbody tr', { hasText: text });
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

describe('review and payouts', () => {
  let b: Browser;
  let org: TestUser;
  let supervisor: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'review');
    ({ supervisor } = await seed(org));
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(() => b?.close());

  it('filters pending, returns one with a comment, approves the selection and then every pending one', async () => {
    const p = b.page;
    const insight = await new InsightPage(p, env.baseUrl).open();
    await insight.waitForRows(4);
    await p.getByLabel('Status', { exact: true }).selectOption('pending');
    await insight.waitForRows(4);
    expect(await row(p, 'Kiosk Alpha').locator('.status-chip').innerText()).toBe('Pending');
    await shot(p, 'review-table-1280');
    expect(await seriousViolations(p)).toEqual([]);

    await row(p, 'Kiosk Alpha').locator('td').last().click();
    const detail = p.getByRole('dialog', { name: 'Response' });
    await detail.getByText('Kiosk Alpha').waitFor();
    await shot(p, 'review-detail-1280');
    expect(await seriousViolations(p)).toEqual([]);
    await detail.getByRole('button', { name: 'Return' }).click();
    await p.getByLabel('What needs fixing?').fill('The kiosk name is misspelt');
    await p.getByRole('dialog', { name: 'Return for fixing' }).getByRole('button', { name: 'Return' }).click();
    await detail.locator('.status-chip', { hasText: 'Returned' }).waitFor();
    await detail.getByText('The kiosk name is misspelt').first().waitFor();
    expect(await detail.locator('.response-detail__audit li').innerText()).toMatch(/Pending → Returned by/);
    await detail.getByRole('button', { name: 'Close' }).click();
    await insight.waitForRows(3);

    await row(p, 'Kiosk Bravo').getByRole('checkbox').check();
    await p.getByRole('region', { name: 'Review' }).getByText('1 selected').waitFor();
    await p.getByRole('region', { name: 'Review' }).getByRole('button', { name: 'Approve' }).click();
    await insight.waitForRows(2);
    await p.getByRole('region', { name: 'Review' }).getByText('Every pending response').waitFor();
    await p.getByRole('region', { name: 'Review' }).getByRole('button', { name: 'Approve' }).click();
    await p.getByText('No pending response.').waitFor();

    await p.getByLabel('Status', { exact: true }).selectOption('');
    await insight.waitForRows(4);
    expect(await row(p, 'Kiosk Alpha').locator('.status-chip').innerText()).toBe('Returned');
    expect(await row(p, 'Kiosk Bravo').locator('.status-chip').innerText()).toBe('Approved');
  });

  it('creates a payout, downloads it and marks it paid', async () => {
    const p = b.page;
    await p.getByRole('link', { name: 'Payouts' }).first().click();
    await p.getByRole('heading', { name: 'Kiosk census Payouts' }).waitFor();
    await p.getByRole('button', { name: 'Create payout' }).click();
    const check = p.getByRole('dialog', { name: 'Check this payout' });
    await check.getByText('₦1,500').first().waitFor();
    expect(await check.locator('.payout-lines tbody tr').count()).toBe(2);
    await check.getByRole('button', { name: 'Confirm' }).click();
    await p.locator('.dt tbody tr', { hasText: 'Draft' }).waitFor();
    await shot(p, 'review-payouts-1280');
    expect(await seriousViolations(p)).toEqual([]);

    await p.getByRole('button', { name: /^Open payout of/ }).click();
    const dialog = p.getByRole('dialog', { name: 'Payout' });
    const [download] = await Promise.all([p.waitForEvent('download'), dialog.getByRole('button', { name: 'Download Excel' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Kiosk census payout \d{4}-\d\d-\d\d\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()));
    expect(book.getWorksheet('Transfers')!.getCell('G2').value).toBeTypeOf('number');
    await shot(p, 'review-payout-dialog-1280');
    expect(await seriousViolations(p)).toEqual([]);

    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await p.getByLabel('Transfer reference').fill('TRF-E2E-1');
    await p.getByRole('dialog', { name: 'Mark paid' }).getByRole('button', { name: 'Mark paid' }).click();
    await dialog.locator('.payout-chip', { hasText: 'Paid' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await p.locator('.dt tbody tr', { hasText: 'TRF-E2E-1' }).waitFor();
    expect(await p.locator('.payout-totals').innerText()).toMatch(/Paid\s*₦1,500/);
  });

  it("shows a supervisor their field user's share of the payouts, read-only", async () => {
    const s = await openBrowser();
    try {
      await new LoginPage(s.page, env.baseUrl).signIn(supervisor.email, supervisor.password);
      await s.page.getByRole('link', { name: 'Payouts' }).first().click();
      await s.page.locator('.dt tbody tr', { hasText: 'TRF-E2E-1' }).waitFor();
      expect(await s.page.locator('.dt tbody tr').innerText()).toContain('₦1,000');
      expect(await s.page.getByRole('button', { name: 'Create payout' }).count()).toBe(0);
      await s.page.getByRole('button', { name: /^Open payout/ }).click();
      const dialog = s.page.getByRole('dialog', { name: 'Payout' });
      await dialog.locator('.payout-lines tbody tr').first().waitFor();
      expect(await dialog.getByRole('button', { name: /Mark paid|Download|Cancel payout/ }).count()).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('fits a phone: table, detail and payouts at 390 px', async () => {
    const phone = await openBrowser(PHONE);
    try {
      const p = phone.page;
      await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
      const insight = await new InsightPage(p, env.baseUrl).open();
      await insight.waitForRows(4);
      await shot(p, 'review-table-390');
      await row(p, 'Kiosk Alpha').getByRole('button', { name: /./ }).first().click();
      await p.getByRole('dialog', { name: 'Response' }).getByText('Review history').waitFor();
      await shot(p, 'review-detail-390');
      await p.getByRole('dialog', { name: 'Response' }).getByRole('button', { name: 'Close' }).click();
      await p.goto(`${env.baseUrl}/survey-bird/organization/payouts`);
      await p.locator('.dt tbody tr', { hasText: 'TRF-E2E-1' }).waitFor();
      await shot(p, 'review-payouts-390');
      // Nothing wider than the screen but the tables' own scrolling frames.
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});

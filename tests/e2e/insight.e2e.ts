import { readFile } from 'node:fs/promises';
import { QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');

const post = <T>(path: string, body: unknown, token: string) => apiPost<T>(env, path, body, token);

/** An outlet-audit survey with a target of 10 responses and three answered by two field users. */
async function seedSurvey(org: TestUser) {
  const token = await apiLogin(env, org);
  const { survey } = await post<{ survey: { _id: string; organization_id: string } }>('/survey/create', {
    title: 'Outlet audit',
    description: 'Stock on the shelves of each outlet.',
    expectedResponseCount: 10,
    questions: [
      { text: 'Outlet name', type: QuestionType.text, compulsory: true, options: [] },
      { text: 'Products in stock', type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Beans', 'Garri'] },
      { text: 'Website', type: QuestionType.text, compulsory: false, options: [] },
    ],
  }, token);
  const [first, second] = await Promise.all([createTeamMember(env, org, survey._id, 'field-user'), createTeamMember(env, org, survey._id, 'field-user')]);
  const answers = [
    [first, { 'Outlet name': 'Mama Nkechi Provisions', 'Products in stock': ['Rice', 'Beans'], Website: 'https://example.com/mama' }],
    [first, { 'Outlet name': 'Grace Supermart', 'Products in stock': ['Garri'] }],
    [second, { 'Outlet name': 'Unity Pharmacy' }],
  ] as const;
  for (const [user, a] of answers) {
    await post('/survey/respond', { survey_id: survey._id, organization_id: survey.organization_id, answers: a }, await apiLogin(env, user));
  }
  return survey;
}

describe('organization insight', () => {
  let b: Browser;
  let insight: InsightPage;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'insight');
    await seedSurvey(org);
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
    insight = await new InsightPage(b.page, env.baseUrl).open();
  });
  afterAll(() => b?.close());

  it('shows the cards', async () => {
    expect(await insight.card('Total responses')).toBe('3');
    expect(await insight.card('Flagged')).toBe('0');
    expect(await insight.card('Active field users')).toBe('2');
    expect(await insight.card('Top performer')).toBe('Amina Bello');
  });

  it('draws both weekly bar charts and the coverage doughnut', async () => {
    await b.page.getByText('Responses per day').waitFor();
    await b.page.getByText('Amount earned per day (₦)').waitFor();
    await b.page.getByRole('heading', { name: 'Covered vs Not covered' }).waitFor();
    await expect.poll(() => insight.canvases().count()).toBe(3);
    await expect.poll(() => insight.paintedCanvases(), { timeout: 10_000 }).toEqual([true, true, true]);
    expect(await b.page.locator('.coverage__percent').innerText()).toBe('30%');
  });

  it('lists the responses and filters them by search', async () => {
    await insight.waitForRows(3);
    const header = await b.page.locator('.responses__table thead th').allInnerTexts();
    // 'Received' (the server's receipt time) has its own column at 1200 px and wider.
    expect(header.map((h) => h.toLowerCase())).toEqual(['', 's/n', 'field user', 'field user email', 'date', 'received', 'status', 'flags', 'outlet name', 'products in stock', 'website']);
    const mama = insight.rows().filter({ hasText: 'Mama Nkechi Provisions' });
    expect(await mama.innerText()).toContain('Rice, Beans');
    expect(await mama.getByRole('link').getAttribute('href')).toBe('https://example.com/mama');
    expect(await insight.rows().filter({ hasText: 'Unity Pharmacy' }).innerText()).toContain('N/A');

    await insight.search('grace');
    await insight.waitForRows(1);
    expect(await insight.rows().first().innerText()).toContain('Grace Supermart');
    await insight.search('no such outlet');
    await b.page.getByText('No response matches "no such outlet".').waitFor();
    await insight.search('');
    await insight.waitForRows(3);
  });

  it('exports the responses as an xlsx file', { timeout: 120_000 }, async () => {
    const download = await insight.export();
    expect(download.suggestedFilename()).toBe('Outlet audit_responses.xlsx');
    expect(download.suggestedFilename().endsWith('_responses.xlsx')).toBe(true);
    const bytes = await readFile((await download.path()));
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await b.page.getByRole('button', { name: 'Export' }).and(b.page.locator(':enabled')).waitFor();
  });
});

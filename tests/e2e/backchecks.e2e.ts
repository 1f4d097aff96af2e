import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { QuestionType } from '@survey-bird/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot, startServer, type RunningServer } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type Env, type TestUser } from './harness/users';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';
import { waitForServiceWorker } from './pages/app';

const shots = join(repoRoot, '.e2e/screenshots');
mkdirSync(shots, { recursive: true });
const shot = (p: Page, name: string, fullPage = true) => p.screenshot({ path: join(shots, `${name}.png`), fullPage });

// A server of its own whose sampler runs every second and a half, so a response is drawn within seconds.
let server: RunningServer;
let env: Env;
let org: TestUser;
let orgToken = '';
let surveyId = '';
let organizationId = '';
let collector: TestUser;
let checker: TestUser;
let responseId = '';
const browsers: Browser[] = [];
const CHECKS_TAB = 'nav[aria-label="Main"] a[href$="/field-user/backchecks"]';

async function send<T>(method: string, path: string, body: unknown, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  server = await startServer({ BACKCHECK_SAMPLE_MS: '1500' });
  env = { baseUrl: server.baseUrl, dataDir: server.dataDir, adminEmail: server.adminEmail, adminPassword: server.adminPassword };
  org = await createOrganizationUser(env, 'bc-org');
  orgToken = await apiLogin(env, org);
  const created = await apiPost<{ survey: { _id: string; organization_id: string } }>(env, '/survey/create', {
    title: 'Household listing',
    description: 'One visit per household.',
    questions: [
      { id: 'name', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [] },
      { id: 'hh', text: 'Household size', type: QuestionType.number, compulsory: true, options: [] },
      { id: 'roof', text: 'Roof material', type: QuestionType.select, compulsory: true, options: ['Zinc', 'Thatch', 'Concrete'] },
    ],
  }, orgToken);
  surveyId = created.survey._id;
  organizationId = created.survey.organization_id;
  await send('PATCH', `/survey/${surveyId}/settings`, { backcheck: { percent: 100, threshold: 20, autoReturn: true, stableQuestionIds: ['hh', 'roof'] } }, orgToken);
  await send('PUT', `/survey/${surveyId}/backcheck-form`, { questions: [{ text: 'Did an enumerator visit you?', type: QuestionType.select, options: ['Yes', 'No'] }], tolerances: { hh: 0 }, respondentQuestionId: 'name' }, orgToken);
  collector = await createTeamMember(env, org, surveyId, 'field-user');
  checker = await createTeamMember(env, org, surveyId, 'field-user', { fullName: 'Bisi Checker', backchecker: true });
  const collectorToken = await apiLogin(env, collector);
  responseId = (await apiPost<{ _id: string }>(env, '/survey/respond', { survey_id: surveyId, organization_id: organizationId, answers: { 'Respondent name': 'Mrs Adebayo', 'Household size': '5', 'Roof material': 'Zinc' } }, collectorToken))._id;
}, 120_000);
afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.stop();
});

describe('back-checks: a back-checker revisits offline, the office sees the comparison and the automatic return', () => {
  it('gives the back-checker the assignment on the phone, filled offline and sent at sync', async () => {
    const checkerToken = await apiLogin(env, checker);
    // Drawn within the settle time and a sampler period of the response's arrival.
    await expect.poll(async () => (await send<{ assignments: unknown[] }>('GET', '/me/backchecks', undefined, checkerToken)).assignments.length, { timeout: 40_000, interval: 1000 }).toBe(1);

    const b = await openBrowser(PHONE);
    browsers.push(b);
    const { page, context } = b;
    await new LoginPage(page, env.baseUrl).signIn(checker.email, checker.password);
    // A back-checker's phone has the Checks tab (the field user who only collects has none: below).
    await page.locator(CHECKS_TAB).click();
    await page.getByRole('heading', { name: 'Back-checks' }).waitFor();
    const card = page.getByRole('list', { name: 'Back-checks to do' }).getByRole('listitem');
    await card.getByText('Mrs Adebayo').waitFor();
    // Who and when, never the original's answers.
    expect(await card.textContent()).not.toMatch(/Zinc|Household size/);
    await shot(page, 'backchecks-phone-list-390');

    // The back-check form's code comes from the precache once offline.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await expect.poll(() => page.getByTestId('backchecks-as-of').textContent()).toMatch(/offline/);
    await card.getByRole('button', { name: 'Start back-check' }).click();
    const dialog = page.getByRole('dialog', { name: /Back-check/ });
    await dialog.getByRole('group', { name: 'Household size' }).getByRole('textbox').fill('8');
    await dialog.getByRole('group', { name: 'Roof material' }).locator('select').selectOption('Thatch');
    await dialog.getByRole('group', { name: 'Did an enumerator visit you?' }).locator('select').selectOption('Yes');
    await shot(page, 'backchecks-phone-form-390');
    await dialog.getByRole('button', { name: 'Send back-check' }).click();
    await card.getByText('Waiting to send').waitFor();
    // Nothing reached the server while offline.
    const before = await send<{ totals: { completed: number } }>('GET', `/survey/${surveyId}/backchecks`, undefined, orgToken);
    expect(before.totals.completed).toBe(0);

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(async () => (await send<{ totals: { completed: number } }>('GET', `/survey/${surveyId}/backchecks`, undefined, orgToken)).totals.completed, { timeout: 30_000 }).toBe(1);
  }, 120_000);

  it('shows no Checks tab to a field user who back-checks nowhere', async () => {
    const b = await openBrowser(PHONE);
    browsers.push(b);
    const { page } = b;
    await new LoginPage(page, env.baseUrl).signIn(collector.email, collector.password);
    await page.getByText('Household listing').first().waitFor();
    await page.locator('nav[aria-label="Main"] a[href$="/field-user/earnings"]').waitFor();
    expect(await page.locator(CHECKS_TAB).count()).toBe(0);
    await shot(page, 'backchecks-collector-tabs-390', false);
  }, 60_000);

  it('shows the office the discrepancy, the automatic return and both answers side by side', async () => {
    const b = await openBrowser(DESKTOP);
    browsers.push(b);
    const p = b.page;
    await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
    await p.goto(`${env.baseUrl}/survey-bird/organization/backchecks`);
    const totals = p.getByLabel('Back-check totals');
    await totals.waitFor();
    await expect.poll(() => totals.textContent()).toMatch(/Completed1/);
    expect(await totals.textContent()).toMatch(/Returned automatically1/);
    expect(await totals.textContent()).toMatch(/Discrepancy100%/);
    await shot(p, 'backchecks-office-1280');
    await p.setViewportSize(PHONE);
    await shot(p, 'backchecks-office-390');
    await p.setViewportSize(DESKTOP);

    const insight = await new InsightPage(p, env.baseUrl).open();
    await insight.waitForRows(1);
    const row = p.locator('.responses__table tbody tr', { hasText: 'Mrs Adebayo' });
    await row.locator('.status-chip', { hasText: 'Returned' }).waitFor();
    await row.locator('td').last().click();
    const detail = p.getByRole('dialog', { name: 'Response' });
    const compare = detail.getByRole('region', { name: 'Back-check' });
    await compare.getByRole('table').waitFor();
    const roof = compare.getByRole('row', { name: /Roof material/ });
    expect(await roof.textContent()).toMatch(/Roof material.*Zinc.*Thatch.*No/);
    expect(await compare.getByRole('row', { name: /Household size/ }).textContent()).toMatch(/5.*8/);
    await detail.getByText('Returned automatically: a back-check found different answers to').first().waitFor();
    await shot(p, 'backchecks-detail-1280', false);
    expect((await send<{ status: string }>('GET', `/responses/${responseId}`, undefined, orgToken)).status).toBe('returned');
  }, 120_000);
});

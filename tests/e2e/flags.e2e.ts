import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { QuestionType } from '@survey-bird/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { openBrowser, PHONE } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const PHOTO = 'Shop photo';

/** A small photo-like JPEG: sky over ground with a shop front (its colour set by `variant`). */
function shopPhoto(variant: number): Buffer {
  const width = 320;
  const height = 240;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const shop = x > 90 && x < 230 && y > 70 && y < 200;
      const sky = y < 140;
      data[i] = shop ? 200 - variant * 80 : sky ? 120 + y / 3 : 90;
      data[i + 1] = shop ? 60 : sky ? 170 + y / 4 : 130 - y / 8;
      data[i + 2] = shop ? 40 + variant * 100 : sky ? 230 : 60;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 85).data;
}

async function get<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** Two responses by one field user carrying the same JPEG: the second gets duplicate_photo. */
async function seed(org: TestUser, variant: number) {
  const orgToken = await apiLogin(env, org);
  const { survey } = await apiPost<{ survey: { _id: string; organization_id: string } }>(env, '/survey/create', {
    title: 'Shop audit', description: 'Every shop on the street.',
    questions: [
      { text: 'Shop name', type: QuestionType.text, compulsory: true, options: [] },
      { text: PHOTO, type: QuestionType.image, compulsory: false, options: [] },
    ],
  }, orgToken);
  const fieldUser = await createTeamMember(env, org, survey._id, 'field-user');
  const token = await apiLogin(env, fieldUser);
  const bytes = shopPhoto(variant);
  const ids: string[] = [];
  for (const name of ['Mama Nkechi Provisions', 'Bode Stores']) {
    const clientId = crypto.randomUUID();
    const form = new FormData();
    for (const [k, v] of Object.entries({ question: PHOTO, survey_name: survey._id, organization_name: survey.organization_id, clientId })) form.set(k, v);
    form.set(PHOTO, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'shop.jpg');
    const up = await fetch(`${env.baseUrl}/api/v1/files/image`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (!up.ok) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const url = ((await up.json()) as Record<string, string>)[PHOTO]!;
    ids.push((await apiPost<{ _id: string }>(env, '/survey/respond', { survey_id: survey._id, organization_id: survey.organization_id, answers: { 'Shop name': name, [PHOTO]: url }, clientId }, token))._id);
  }
  // The flags are set just after the commit, by the API's worker.
  for (let i = 0; i < 100; i++) {
    const details = await Promise.all(ids.map((id) => get<{ checking: boolean }>(`/responses/${id}`, orgToken)));
    if (details.every((d) => !d.checking)) return { surveyId: survey._id, fieldUser, orgToken };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('flags not set after 10 s');
}

const row = (p: Page, text: string) => p.locator('.responses__table tbody tr', { hasText: text });
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

describe('quality flags in the office', () => {
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'flags');
    await seed(org, 0);
  });

  it('shows a photo used twice, filters Flagged, opens it with both photos and dismisses it with a note', async () => {
    const b = await openBrowser();
    try {
      const p = b.page;
      await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
      const insight = await new InsightPage(p, env.baseUrl).open();
      await insight.waitForRows(2);
      expect(await insight.card('Flagged')).toBe('1');
      expect(await p.locator('.stat-card', { hasText: 'Flagged' }).innerText()).toContain('50% of responses');
      expect(await row(p, 'Bode Stores').locator('.flag-chip').allInnerTexts()).toEqual(['Same photo']);
      expect(await row(p, 'Mama Nkechi').locator('.flag-chip').count()).toBe(0);

      await p.getByLabel('Flags', { exact: true }).selectOption({ label: 'Flagged' });
      await insight.waitForRows(1);
      await row(p, 'Bode Stores').waitFor();
      await shot(p, 'flags-table-1280');
      expect(await seriousViolations(p)).toEqual([]);

      await row(p, 'Bode Stores').locator('td.responses__sn').click();
      const detail = p.getByRole('dialog', { name: 'Response' });
      await detail.getByText(/^Same photo as response #[0-9a-f]{8} by Amina Bello on \d{1,2} [A-Z][a-z]{2}$/).waitFor();
      const photos = detail.locator('.response-flag__photos img');
      await expect.poll(() => photos.count()).toBe(2);
      await expect.poll(() => photos.evaluateAll((list) => (list as HTMLImageElement[]).every((img) => img.complete && img.naturalWidth === 320))).toBe(true);
      await shot(p, 'flags-detail-1280');
      expect(await seriousViolations(p)).toEqual([]);

      await detail.getByRole('button', { name: 'Dismiss Same photo' }).click();
      const dismiss = detail.getByRole('button', { name: 'Dismiss flag' });
      expect(await dismiss.isDisabled()).toBe(true);
      await detail.getByLabel('Why dismiss this flag?').fill('Same shop, photographed for both visits');
      await dismiss.click();
      await detail.locator('.response-detail__audit li', { hasText: 'Flag Same photo dismissed by' }).waitFor();
      expect(await detail.locator('.response-detail__audit').innerText()).toContain('Same shop, photographed for both visits');
      expect(await detail.getByRole('button', { name: 'Dismiss Same photo' }).count()).toBe(0);
      await detail.getByRole('button', { name: 'Close' }).click();
      await p.getByText('No flagged response.').waitFor();

      await p.getByLabel('Flags', { exact: true }).selectOption({ label: 'Any flags' });
      await insight.waitForRows(2);
      expect(await row(p, 'Bode Stores').innerText()).toContain('Dismissed');
    } finally {
      await b.close();
    }
  });

  it('fits a phone: chips, detail and the field-user Flags column at 390 px', async () => {
    // A fresh survey and flagged pair (the first test dismissed its flag), with another picture.
    await seed(org, 1);
    const phone = await openBrowser(PHONE);
    try {
      const p = phone.page;
      await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
      const insight = await new InsightPage(p, env.baseUrl).open();
      await insight.waitForRows(2);
      await row(p, 'Bode Stores').locator('.flag-chip', { hasText: 'Same photo' }).waitFor();
      await shot(p, 'flags-table-390');
      await row(p, 'Bode Stores').getByRole('button', { name: /./ }).first().click();
      const detail = p.getByRole('dialog', { name: 'Response' });
      await expect.poll(() => detail.locator('.response-flag__photos img').count()).toBe(2);
      await shot(p, 'flags-detail-390');
      await detail.getByRole('button', { name: 'Close' }).click();
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await p.goto(`${env.baseUrl}/survey-bird/organization/field-users`);
      await p.locator('.dt tbody tr').first().waitFor();
      const headers = await p.locator('.dt thead th').allInnerTexts();
      const flags = headers.findIndex((h) => h.trim().toLowerCase() === 'flags');
      expect(flags).toBeGreaterThan(0);
      // The row can paint before its figures arrive: wait for the cell rather than read it once.
      await expect.poll(async () => (await p.locator('.dt tbody tr').first().locator('td').nth(flags).innerText()).trim()).toBe('1');
    } finally {
      await phone.close();
    }
  });

  it("shows a supervisor their field user's flags: chips, card and the Flags column", async () => {
    const { surveyId, fieldUser, orgToken } = await seed(org, 2);
    const supervisor = await createTeamMember(env, org, surveyId, 'supervisor');
    const fieldUsers = (await get<{ fieldUsers: { _id: string; email: string }[] }>(`/field-user/${surveyId}`, orgToken)).fieldUsers;
    const sups = (await get<{ supervisors: { _id: string }[] }>(`/supervisor/${surveyId}`, orgToken)).supervisors;
    await apiPost(env, '/supervisor/assign', { survey_id: surveyId, supervisorId: sups[0]!._id, fieldUserId: fieldUsers.find((f) => f.email === fieldUser.email)!._id }, orgToken);
    const b = await openBrowser();
    try {
      const p = b.page;
      await new LoginPage(p, env.baseUrl).signIn(supervisor.email, supervisor.password);
      const insight = await new InsightPage(p, env.baseUrl).open('/survey-bird/supervisor/insight');
      await insight.waitForRows(2);
      expect(await insight.card('Flagged')).toBe('1');
      await row(p, 'Bode Stores').locator('.flag-chip', { hasText: 'Same photo' }).waitFor();
      await p.goto(`${env.baseUrl}/survey-bird/supervisor/field-user/manage`);
      await p.locator('.dt tbody tr').first().waitFor();
      const flags = (await p.locator('.dt thead th').allInnerTexts()).findIndex((h) => h.trim().toLowerCase() === 'flags');
      // The row can paint before its figures arrive: wait for the cell rather than read it once.
      await expect.poll(async () => (await p.locator('.dt tbody tr').first().locator('td').nth(flags).innerText()).trim()).toBe('1');
      await shot(p, 'flags-field-users-1280');
    } finally {
      await b.close();
    }
  });
});

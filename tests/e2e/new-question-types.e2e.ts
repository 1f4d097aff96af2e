import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

// A ranking, a line entered point by point, a document and a recording from Chromium's fake
// microphone, answered offline after one load and synced; then the office reads them in the detail
// view: the ranking as its labels in order, the line as its points and length with a map on
// request, the recording in a player and the document as a download, both through the session.
const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

const TITLE = 'Road and water visit';
/** A one-page PDF as the server's sniffer knows it (by its `%PDF-` head). */
const CONSENT = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function createSurvey(org: TestUser): Promise<string> {
  const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
    title: TITLE,
    description: 'Priorities, the road walked, the consent form and a voice note.',
    questions: [
      {
        id: 'priorities', text: 'Rank the priorities', type: QuestionType.rank, compulsory: true, options: ['Water', 'Roads', 'Schools'],
        choices: [{ name: 'water', label: 'Water' }, { name: 'roads', label: 'Roads' }, { name: 'schools', label: 'Schools' }],
      },
      { id: 'road', text: 'Road walked', type: QuestionType.geotrace, compulsory: true },
      { id: 'consent', text: 'Signed consent form', type: QuestionType.file, compulsory: true },
      { id: 'voice', text: 'Voice note', type: QuestionType.audio, compulsory: true },
    ],
  }, await apiLogin(env, org));
  return reply.survey._id;
}

function serverAnswers(surveyId: string): Record<string, unknown>[] {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select answers from responses where survey_id = ?').all(surveyId) as { answers: string }[]).map((r) => JSON.parse(r.answers) as Record<string, unknown>);
  } finally {
    db.close();
  }
}

const FILE_REF = expect.stringMatching(/\/api\/v1\/files\/image\/[\w-]+$/);

describe('rank, line, document and recording questions, offline then in the office', () => {
  let b: Browser;
  let form: FieldUserFormPage;
  let surveyId: string;
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'types-org');
    surveyId = await createSurvey(org);
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    b = await openBrowser(PHONE);
    await b.context.grantPermissions(['microphone'], { origin: env.baseUrl });
    form = new FieldUserFormPage(b.page, env.baseUrl);
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('ranks, traces a line by hand, attaches a document and records a note offline, then syncs them', async () => {
    const { page, context } = b;
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    await form.question('Rank the priorities').getByRole('button', { name: 'Move Schools up' }).waitFor();
    // Each input and its words come with the first form that asks it: loaded once, kept for offline.
    await form.question('Road walked').getByRole('button', { name: 'Add point' }).waitFor();
    await form.question('Voice note').getByRole('button', { name: 'Record', exact: true }).waitFor();

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();

    // Schools to the top: Schools, Water, Roads.
    const rank = form.question('Rank the priorities');
    await rank.getByRole('button', { name: 'Move Schools up' }).click();
    await rank.getByRole('button', { name: 'Move Schools up' }).click();
    expect(await rank.locator('.rank__label').allTextContents()).toEqual(['Schools', 'Water', 'Roads']);

    // Three points typed: about 111 m north, then about 110 m east.
    const road = form.question('Road walked');
    for (const [lat, lng] of [['9.0765', '7.3986'], ['9.0775', '7.3986'], ['9.0775', '7.3996']] as const) {
      await road.getByLabel('Latitude').fill(lat);
      await road.getByLabel('Longitude').fill(lng);
      await road.getByRole('button', { name: 'Add point' }).click();
    }
    await road.locator('output', { hasText: /^3 points · Length 2\d\d m$/ }).waitFor();

    await form.question('Signed consent form').locator('input[type=file]').setInputFiles({ name: 'consent.pdf', mimeType: 'application/pdf', buffer: CONSENT });
    await form.question('Signed consent form').getByText(/^consent\.pdf, /).waitFor();

    // Two seconds from the fake microphone (a beep), kept and playable on the phone.
    const voice = form.question('Voice note');
    await voice.getByRole('button', { name: 'Record', exact: true }).click();
    await voice.getByText(/^Recording 0:0[1-9]$/).waitFor({ timeout: 15_000 });
    await voice.getByRole('button', { name: 'Stop and keep' }).click();
    await voice.locator('audio.media__player').waitFor();
    await shot(page, 'new-types-form-390');

    await form.submit();
    await toast(page, Msg.expiredSaved).waitFor();
    await expect.poll(() => form.waiting().textContent()).toBe(`1 ${Msg.savedOnPhone}`);

    await context.setOffline(false);
    await form.syncNow();
    await expect.poll(() => serverAnswers(surveyId), { timeout: 30_000 }).toEqual([{
      'Rank the priorities': ['schools', 'water', 'roads'],
      'Road walked': '9.0765 7.3986 0 0;9.0775 7.3986 0 0;9.0775 7.3996 0 0',
      'Signed consent form': FILE_REF,
      'Voice note': FILE_REF,
    }]);
  });

  it('the office reads the ranking, the line, the recording and the document in the detail view', async () => {
    const office = await openBrowser(DESKTOP);
    try {
      const p = office.page;
      await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
      const insight = await new InsightPage(p, env.baseUrl).open();
      await insight.waitForRows(1);
      await p.locator('.responses__table tbody tr').first().locator('td').last().click();
      const detail = p.getByRole('dialog', { name: 'Response' });

      const ranking = detail.getByRole('list', { name: 'Ranking: Rank the priorities' });
      await ranking.waitFor();
      expect(await ranking.getByRole('listitem').allTextContents()).toEqual(['Schools', 'Water', 'Roads']);

      await detail.getByText(/^3 points, length 2\d\d m$/).waitFor();
      // The map library loads only when asked for.
      expect(await p.locator('.leaflet-container').count()).toBe(0);
      await detail.getByRole('button', { name: 'Show on map' }).click();
      await detail.locator('.answer-geo__map .leaflet-container').waitFor();
      expect(await detail.locator('.answer-geo__map .leaflet-interactive').count()).toBeGreaterThan(0);
      expect(await detail.getByRole('link', { name: 'Open in OpenStreetMap' }).getAttribute('href')).toMatch(/^https:\/\/www\.openstreetmap\.org\/\?mlat=9\.07/);

      // The recording plays from the stored file, fetched with the session by the service worker.
      const audio = detail.locator('audio.answer-media__player');
      await audio.waitFor();
      await expect.poll(() => audio.evaluate((el) => (el as HTMLAudioElement).readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      expect(await audio.evaluate((el) => (el as HTMLAudioElement).error)).toBeNull();

      // Bare, the stored document's address needs the session (the server answers 410).
      const stored = serverAnswers(surveyId)[0]!['Signed consent form'] as string;
      expect((await fetch(new URL(new URL(stored).pathname, env.baseUrl))).status).toBe(410);
      // Downloaded through the session, it is the document as sent, named after its question.
      const [download] = await Promise.all([p.waitForEvent('download'), detail.getByRole('button', { name: 'Download file' }).click()]);
      expect(download.suggestedFilename()).toBe('Signed consent form.pdf');
      expect(readFileSync((await download.path())!).equals(CONSENT)).toBe(true);

      await shot(p, 'new-types-detail-1280');
      await p.setViewportSize(PHONE);
      await shot(p, 'new-types-detail-390');
    } finally {
      await office.close();
    }
  });
});

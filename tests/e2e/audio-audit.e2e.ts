import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Msg } from '@survey-bird/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, createOrganizationUser, createSurvey, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const TITLE = 'Water point census';
const CONSENT = 'We record some interviews to check our work. Only our quality team listens. Do you agree?';
/** How long the interview records: enough for a bytes-per-minute figure from Chromium's Opus encoder. */
const RECORD_MS = 15_000;

const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The outbox's audio facts and the clip's bytes on the phone (IndexedDB), read in the page. */
function phoneAudio(page: Page) {
  return page.evaluate(async () => {
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('survey-bird');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = <T,>(store: string) => new Promise<T[]>((resolve) => {
      const req = idb.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => resolve(req.result as T[]);
    });
    const records = await all<{ id: string; audio?: { status: string; size?: number; durationMs?: number; mime?: string }; audioPending?: boolean }>('outbox');
    const clips = (await all<{ owner: string; size: number }>('photos')).filter((r) => r.owner.startsWith('audio:'));
    idb.close();
    return { records: records.map((r) => ({ id: r.id, audio: r.audio ?? null, audioPending: r.audioPending === true })), clips };
  });
}

describe('audio audit: recorded offline with consent, sent after the response, played and judged in the office', () => {
  let org: TestUser;
  let orgToken: string;
  let surveyId: string;
  let fieldUser: TestUser;
  let phone: Browser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'audio-org');
    orgToken = await apiLogin(env, org);
    surveyId = await createSurvey(env, org, TITLE);
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    // Every interview is selected (100%), so the test does not depend on the draw; the pay gate waits for the verdict.
    await api('PATCH', `/survey/${surveyId}/settings`, orgToken, { audioAudit: { percent: 100, consentText: CONSENT }, payGate: { audioReviewed: true } });
    phone = await openBrowser(PHONE);
    await phone.context.grantPermissions(['microphone'], { origin: env.baseUrl });
    await new LoginPage(phone.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await phone?.close();
  });

  it('asks for consent, records while the form is open, keeps the clip on the phone offline and sends it after the response', async () => {
    const { page, context } = phone;
    const form = new FieldUserFormPage(page, env.baseUrl);
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    // The consent asked online is for this interview; answer no, then go offline and start afresh.
    await page.getByRole('alertdialog', { name: 'This interview may be recorded' }).waitFor();
    await page.getByRole('button', { name: 'Respondent says no' }).click();

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();
    await page.locator('.sync-strip__net', { hasText: 'Offline' }).waitFor();
    // The draft kept its clientId, so the decision stands: the phone asks again for the same interview.
    const consent = page.getByRole('alertdialog', { name: 'This interview may be recorded' });
    await consent.waitFor();
    expect(await consent.innerText()).toContain(CONSENT);
    await shot(page, 'audio-consent-390');
    await page.getByRole('button', { name: 'Respondent agrees: record' }).click();
    await page.getByRole('status').filter({ hasText: 'Recording for the quality audit' }).waitFor();
    await shot(page, 'audio-recording-390');
    await form.choose('Is the pump working?', 'Yes');
    await page.waitForTimeout(RECORD_MS);
    await form.submit();
    await toast(page, Msg.expiredSaved).waitFor();

    // On the phone, offline: the response and its clip as an attachment of the outbox record.
    const held = await phoneAudio(page);
    const recorded = held.records.find((r) => r.audio?.status === 'recorded');
    expect(recorded, JSON.stringify(held)).toBeDefined();
    expect(recorded!.audioPending).toBe(true);
    expect(held.clips).toHaveLength(1);
    expect(held.clips[0]!.size).toBe(recorded!.audio!.size);
    expect(recorded!.audio!.mime).toMatch(/^audio\/webm;codecs=opus$/);
    const kbPerMinute = (recorded!.audio!.size! / 1024) / (recorded!.audio!.durationMs! / 60_000);
    console.log(`audio audit: ${recorded!.audio!.size} bytes in ${recorded!.audio!.durationMs} ms = ${kbPerMinute.toFixed(1)} KB a minute`);
    expect(kbPerMinute).toBeGreaterThan(60);
    expect(kbPerMinute).toBeLessThan(260);

    // The next interview asks again (100%): declined, so nothing more is recorded.
    await page.getByRole('button', { name: 'Respondent says no' }).click();

    await context.setOffline(false);
    await expect.poll(async () => (await phoneAudio(page)).clips.length, { timeout: 60_000 }).toBe(0);
    const after = await phoneAudio(page);
    expect(after.records.find((r) => r.id === recorded!.id)!.audioPending).toBe(false);
  });

  it('plays the clip in the response detail beside the answers; "matches" releases it for payout', async () => {
    const list = await api<{ responses: { _id: string }[] }>('GET', `/survey/organization/response/${surveyId}`, orgToken);
    expect(list.responses).toHaveLength(1);
    const id = list.responses[0]!._id;
    const detail = await api<{ audioAudit: { uploaded: boolean; status: string; consent: boolean }; held: string[] }>('GET', `/responses/${id}`, orgToken);
    expect(detail.audioAudit).toMatchObject({ status: 'recorded', consent: true, uploaded: true });
    expect(detail.held).toEqual(['audio_not_reviewed']);

    // Until the clip is judged the response is held: the field user's Earnings and the office's Payouts say so, with the same naira.
    await phone.page.goto(`${env.baseUrl}/survey-bird/field-user/earnings`);
    const heldNote = phone.page.getByTestId('earnings-held');
    await expect.poll(async () => (await heldNote.count()) > 0 && (await heldNote.innerText()), { timeout: 30_000 }).toContain('Held for verification: ₦500');
    expect(await heldNote.innerText()).toContain('audio audit not yet reviewed');
    await phone.page.locator('.earn-rec__held', { hasText: 'Held for verification: audio audit not yet reviewed' }).waitFor();
    await shot(phone.page, 'audio-earnings-held-390');
    const office = await openBrowser();
    try {
      await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
      await office.page.goto(`${env.baseUrl}/survey-bird/organization/payouts`);
      const summary = office.page.getByRole('region', { name: 'Held for verification now' });
      await summary.waitFor();
      expect(await summary.innerText()).toContain('1 response, ₦500');
      await shot(office.page, 'audio-payouts-held-1280');
    } finally {
      await office.close();
    }

    for (const [viewport, width] of [[undefined, 1280], [PHONE, 390]] as const) {
      const b = await openBrowser(viewport);
      try {
        const p = b.page;
        await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
        const insight = await new InsightPage(p, env.baseUrl).open();
        await insight.waitForRows(1);
        const row = p.locator('.responses__table tbody tr').first();
        if (width === 1280) await row.locator('td.responses__sn').click();
        else await row.getByRole('button', { name: /./ }).first().click();
        const dialog = p.getByRole('dialog', { name: 'Response' });
        const section = dialog.getByRole('region', { name: 'Audio audit' });
        await section.getByText("Recorded with the respondent's consent").waitFor();
        await section.getByRole('button', { name: '▶ Play recording' }).click();
        const audio = section.locator('audio');
        await audio.waitFor();
        // Chromium decodes the clip: it has a duration close to what was recorded.
        await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : a.readyState)), { timeout: 15_000 }).toBeGreaterThan(0);
        await shot(p, `audio-detail-${width}`);
        if (width === 390) expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        if (width === 1280) {
          await section.getByRole('button', { name: 'Matches', exact: true }).click();
          await section.getByText('Matches the answers').waitFor();
          await shot(p, 'audio-verdict-1280');
        }
      } finally {
        await b.close();
      }
    }
    expect((await api<{ held: string[] }>('GET', `/responses/${id}`, orgToken)).held).toEqual([]);
    const holds = await api<{ held: unknown[] }>('GET', `/payouts/held?survey_id=${surveyId}`, orgToken);
    expect(holds.held).toEqual([]);
  });
});

import { ApiMsg, Msg, PENDING_PHOTO_ANSWER, QuestionType, routes } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { startProxy, type Proxy } from './harness/proxy';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';
import { signedPhotoUrl } from './harness/photos';

const env = inject('env');

const TITLE = 'Borehole audit';
const Q = { name: 'Respondent name', pump: 'Is the pump working?', ward: 'Ward', problems: 'Problems seen', location: 'Pump location', photo: 'Pump photo' } as const;
const WARDS = Array.from({ length: 60 }, (_, i) => `Ward ${String(i + 1).padStart(2, '0')}`);

async function createSurvey(org: TestUser): Promise<string> {
  const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
    title: TITLE,
    description: 'One visit per borehole: is it working, where is it, and a photo of the pump.',
    questions: [
      { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
      { text: Q.pump, type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
      { text: Q.ward, type: QuestionType.largeSelect, compulsory: true, options: WARDS },
      { text: Q.problems, type: QuestionType.checkbox, compulsory: false, options: ['Leak', 'Rust', 'Low pressure'] },
      { text: Q.location, type: QuestionType.liveLocation, compulsory: false, options: [] },
      { text: Q.photo, type: QuestionType.liveImages, compulsory: false, options: [] },
    ],
  }, await apiLogin(env, org));
  return reply.survey._id;
}

/** What the server holds for the survey: one row per response (answers parsed) and per photo. */
function serverRows(surveyId: string) {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const responses = (db.prepare('select client_id, answers, meta from responses where survey_id = ?').all(surveyId) as { client_id: string; answers: string; meta: string | null }[])
      .map((r) => ({ clientId: r.client_id, answers: JSON.parse(r.answers) as Record<string, unknown>, meta: JSON.parse(r.meta ?? '{}') as Record<string, unknown> }));
    const files = db.prepare('select client_id, question, sha256, size from files where survey_id = ?').all(surveyId) as { client_id: string; question: string; sha256: string; size: number }[];
    return { responses, files };
  } finally {
    db.close();
  }
}

const namesOf = (rows: ReturnType<typeof serverRows>) => rows.responses.map((r) => r.answers[Q.name]).sort();

describe('field user: offline capture reaches the server exactly once', () => {
  let b: Browser;
  let proxy: Proxy;
  let form: FieldUserFormPage;
  let surveyId: string;
  let fieldUser: TestUser;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'fu-org');
    surveyId = await createSurvey(org);
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    proxy = await startProxy(env.baseUrl);
    b = await openBrowser(PHONE);
    await b.context.grantPermissions(['geolocation', 'camera'], { origin: proxy.baseUrl });
    await b.context.setGeolocation({ latitude: 9.0765, longitude: 7.3986, accuracy: 8 });
    form = new FieldUserFormPage(b.page, proxy.baseUrl);
    await new LoginPage(b.page, proxy.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await b?.close();
    await proxy?.close();
  });

  it('fills in 5 responses offline, keeps them over a reload, and delivers each once with its photo', async () => {
    const { page, context } = b;
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    // The large option list is on the phone before the signal goes.
    await expect.poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('survey-bird');
      open.onsuccess = () => {
        const req = open.result.transaction('datasets').objectStore('datasets').count();
        req.onsuccess = () => {
          open.result.close();
          resolve(req.result);
        };
      };
    })), { timeout: 15_000 }).toBe(WARDS.length);

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();
    await page.locator('.sync-strip__net', { hasText: 'Offline' }).waitFor();

    await form.submit();
    await toast(page, Msg.fillCompulsory).waitFor();

    for (let i = 1; i <= 5; i++) {
      await form.fillText(Q.name, `Offline ${i}`);
      await form.choose(Q.pump, i % 2 ? 'Yes' : 'No');
      await form.search(Q.ward, `Ward 1`, `Ward 1${i}`);
      await form.tick(Q.problems, 'Leak');
      await form.tick(Q.problems, 'Low pressure');
      expect(await form.captureLocation(Q.location)).toBe('9.076500, 7.398600 (±8 m)');
      await form.takePicture(Q.photo);
      await form.submit();
      await toast(page, Msg.expiredSaved).waitFor();
      await expect.poll(() => form.waiting().textContent()).toBe(`${i} ${Msg.savedOnPhone}`);
      // The form starts afresh: answers, checkboxes, location and photo are cleared.
      expect(await form.question(Q.name).getByRole('textbox').inputValue()).toBe('');
      expect(await form.question(Q.problems).getByRole('checkbox', { checked: true }).count()).toBe(0);
      expect(await form.question(Q.photo).locator('img').count()).toBe(0);
      await toast(page, Msg.expiredSaved).waitFor({ state: 'detached' });
    }

    // The exact photo bytes the phone holds, by response.
    const stored = await page.evaluate(async () => {
      const idb = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('survey-bird');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const all = <T,>(store: string) => new Promise<T[]>((resolve) => {
        const req = idb.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as T[]);
      });
      const rows = await all<{ owner: string; question: string; account?: string; sealed?: { iv: Uint8Array<ArrayBuffer>; data?: ArrayBuffer }; blob?: Blob; buffer?: ArrayBuffer }>('photos');
      // Photos are sealed under the account's key (offline/vault.ts), which page script may use.
      const keys = new Map((await all<{ account: string; key: CryptoKey }>('keys')).map((k) => [k.account, k.key]));
      idb.close();
      const out: Array<{ owner: string; question: string; sha256: string }> = [];
      for (const row of rows) {
        const bytes = row.sealed ? await crypto.subtle.decrypt({ name: 'AES-GCM', iv: row.sealed.iv }, keys.get(row.account!)!, row.sealed.data ?? (await row.blob!.arrayBuffer())) : row.blob ? await row.blob.arrayBuffer() : row.buffer!;
        const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
        out.push({ owner: row.owner, question: row.question, sha256: [...digest].map((x) => x.toString(16).padStart(2, '0')).join('') });
      }
      return out;
    });
    expect(stored).toHaveLength(5);
    expect(stored.every((p) => p.question === Q.photo && !p.owner.startsWith('draft:'))).toBe(true);

    // A reload without signal: all five are still there, on this phone.
    await page.reload();
    await form.title(TITLE).waitFor();
    // The strip reads the outbox once the page is idle, after the form has painted.
    await expect.poll(() => form.waiting().textContent()).toBe(`5 ${Msg.savedOnPhone}`);
    await form.openResponses();
    await expect.poll(() => form.recordsWith('saved on this phone').count()).toBe(5);
    expect(serverRows(surveyId).responses).toHaveLength(0);

    await context.setOffline(false);
    await expect.poll(() => form.recordsWith('received by the server').count(), { timeout: 30_000 }).toBe(5);
    expect(await form.records().count()).toBe(5);

    // Responses first, photos after (issue 19): the photos follow the text, each once.
    await expect.poll(() => serverRows(surveyId).files.length, { timeout: 30_000 }).toBe(5);
    await expect.poll(() => serverRows(surveyId).responses.filter((r) => r.answers[Q.photo] === PENDING_PHOTO_ANSWER).length, { timeout: 30_000 }).toBe(0);
    // Sent resumably (tus) by the page, or whole by the service worker's Background Sync: each once either way.
    expect(proxy.seen.filter((p) => p === `POST ${routes.resumableCreate.path}` || p === `POST ${routes.uploadImage.path}`).length).toBeGreaterThanOrEqual(5);
    const server = serverRows(surveyId);
    expect(namesOf(server)).toEqual(['Offline 1', 'Offline 2', 'Offline 3', 'Offline 4', 'Offline 5']);
    expect(new Set(server.responses.map((r) => r.clientId)).size).toBe(5);
    expect(server.files).toHaveLength(5);
    expect(server.files.map((f) => `${f.client_id}/${f.sha256}`).sort()).toEqual(stored.map((p) => `${p.owner}/${p.sha256}`).sort());
    for (const r of server.responses) {
      expect(r.answers).toMatchObject({ [Q.problems]: ['Leak', 'Low pressure'], [Q.location]: '9.076500, 7.398600 (±8 m)' });
      // The answer is the stored photo's reference, and its bytes are the phone's.
      const reference = String(r.answers[Q.photo]);
      const bytes = Buffer.from(await (await fetch(signedPhotoUrl(env, reference))).arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(stored.find((p) => p.owner === r.clientId)?.sha256);
      // What the phone recorded with it (issue 18): its start, time in the form, GPS fix, device, version and the photo's hash.
      expect(r.meta).toMatchObject({ openedAt: expect.any(Number), durationMs: expect.any(Number), locationAccuracy: 8, locationFixedAt: expect.any(Number), deviceId: expect.any(String), appVersion: expect.any(String), photoHashes: { [Q.photo]: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    }
    await expect.poll(() => form.waiting().textContent()).toBe('Nothing waiting to send');

    // Online, opening the form asks for the survey list once: the phone's offline copy reuses that reply.
    const from = proxy.seen.length;
    await form.open(TITLE);
    await page.waitForTimeout(3000);
    expect(proxy.seen.slice(from).filter((p) => p.startsWith(`GET ${routes.fieldUserSurveys.path}?`))).toHaveLength(1);
  });

  it('keeps responses queued while the server answers 503, then delivers them once', async () => {
    let down = true;
    let refused = 0;
    proxy.intercept = (req) => {
      if (down && req.method === 'POST' && req.path.startsWith('/api/v1/sync/responses')) {
        refused++;
        return { status: 503, headers: { 'retry-after': '1' }, body: JSON.stringify({ msg: ApiMsg.serviceUnavailable }) };
      }
      return undefined;
    };
    await form.open(TITLE);
    for (const name of ['Busy 1', 'Busy 2']) {
      await form.fillText(Q.name, name);
      await form.choose(Q.pump, 'Yes');
      await form.search(Q.ward, 'Ward 0', 'Ward 07');
      await form.submit();
      await toast(b.page, Msg.expiredSaved).waitFor({ timeout: 15_000 });
      await toast(b.page, Msg.expiredSaved).waitFor({ state: 'detached' });
    }
    await form.openResponses();
    // The list fills from IndexedDB after the heading paints.
    await expect.poll(() => form.recordsWith('saved on this phone').count(), { timeout: 15_000 }).toBe(2);
    expect(refused).toBeGreaterThanOrEqual(2);
    expect(serverRows(surveyId).responses).toHaveLength(5);

    down = false;
    await expect.poll(() => form.recordsWith('received by the server').count(), { timeout: 90_000 }).toBe(7);
    const server = serverRows(surveyId);
    expect(namesOf(server).filter((n) => String(n).startsWith('Busy'))).toEqual(['Busy 1', 'Busy 2']);
    expect(server.responses).toHaveLength(7);
    expect(new Set(server.responses.map((r) => r.clientId)).size).toBe(7);
    proxy.intercept = () => undefined;
  }, 150_000);

  it('puts a response the server refuses in failed with its message; the others arrive; Retry sends it once', async () => {
    const REFUSED = 'Refused one';
    // The server really refuses it: the proxy adds an answer to a question the survey does not have.
    proxy.intercept = (req) => {
      if (req.method !== 'POST' || !req.path.startsWith('/api/v1/sync/responses')) return undefined;
      const body = JSON.parse(req.body.toString()) as { responses: Array<{ answers: Record<string, unknown> }> };
      for (const item of body.responses) if (item.answers[Q.name] === REFUSED) item.answers['Not a question'] = 'x';
      return { body: Buffer.from(JSON.stringify(body)) };
    };
    await form.open(TITLE);
    for (const name of ['Kept A', REFUSED, 'Kept B']) {
      await form.fillText(Q.name, name);
      await form.choose(Q.pump, 'No');
      await form.search(Q.ward, 'ward 2', 'Ward 21');
      await form.submit();
      const expected = name === REFUSED ? '"Not a question" is not a question of this survey' : Msg.responseSent;
      await toast(b.page, expected).waitFor({ timeout: 15_000 });
      await toast(b.page, expected).waitFor({ state: 'detached' });
    }
    await form.openResponses();
    const failed = form.recordsWith('failed');
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('"Not a question" is not a question of this survey');
    expect(await form.recordsWith('received by the server').count()).toBe(9);
    let server = serverRows(surveyId);
    expect(server.responses).toHaveLength(9);
    expect(namesOf(server)).not.toContain(REFUSED);

    proxy.intercept = () => undefined;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => form.recordsWith('received by the server').count(), { timeout: 20_000 }).toBe(10);
    expect(await form.recordsWith('failed').count()).toBe(0);
    server = serverRows(surveyId);
    expect(server.responses).toHaveLength(10);
    expect(namesOf(server).filter((n) => n === REFUSED)).toHaveLength(1);
    expect(new Set(server.responses.map((r) => r.clientId)).size).toBe(10);
    expect(server.files).toHaveLength(5);
  });
});

import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

/**
 * Nothing lost from a phone: answers and photos are encrypted in IndexedDB; unsent work saved to a
 * passphrase-protected file survives "clear site data" and, loaded again, reaches the server once.
 */
const env = inject('env');
const TITLE = 'Shop census';
const Q = { name: 'Shop owner', phone: 'Owner phone', photo: 'Shop photo' } as const;
const SHOTS = join(repoRoot, '.e2e/screenshots/save-to-file');
const PASS = 'kano market 2026';

function serverRows(surveyId: string) {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const responses = db.prepare('select client_id, answers from responses where survey_id = ?').all(surveyId) as { client_id: string; answers: string }[];
    const files = db.prepare('select client_id from files where survey_id = ?').all(surveyId) as { client_id: string }[];
    return { responses: responses.map((r) => ({ clientId: r.client_id, answers: JSON.parse(r.answers) as Record<string, unknown> })), files };
  } finally {
    db.close();
  }
}

/** Every value of the app's IndexedDB as text: strings, and every byte of Blobs and ArrayBuffers. */
function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const idb = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('survey-bird');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const parts: string[] = [];
    const text = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');
    const walk = async (v: unknown): Promise<void> => {
      if (typeof v === 'string') parts.push(v);
      else if (v instanceof ArrayBuffer) parts.push(text(new Uint8Array(v)));
      else if (ArrayBuffer.isView(v)) parts.push(text(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
      else if (v instanceof Blob) parts.push(text(new Uint8Array(await v.arrayBuffer())));
      else if (Array.isArray(v)) for (const x of v) await walk(x);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) await walk(x);
    };
    for (const store of Array.from(idb.objectStoreNames)) {
      const rows = await new Promise<unknown[]>((resolve) => {
        const req = idb.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
      });
      await walk(rows);
    }
    idb.close();
    return parts.join('\n');
  });
}

const started = Date.now();
const step = (what: string) => console.log(`save-to-file: ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

const toastMatching = (page: Page, text: RegExp) => page.locator('.toast').filter({ hasText: text });

/** The drawer at its top and scrolled to the end (it scrolls on its own); nothing wider than it. */
async function shots(page: Page, width: string): Promise<void> {
  const drawer = page.getByRole('dialog', { name: 'Field user settings' });
  const wide = await drawer.evaluate((el) => [...el.querySelectorAll('*')].filter((c) => c.getBoundingClientRect().right > el.getBoundingClientRect().right + 1).map((c) => `${c.tagName}.${c.className}`).slice(0, 5));
  await page.screenshot({ path: join(SHOTS, `settings-${width}-top.png`) });
  await drawer.getByRole('button', { name: 'Remove my data from this phone' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `settings-${width}-end.png`) });
  expect(wide).toEqual([]);
}

describe('save to file, clear site data, load, sync', () => {
  let b: Browser;
  let fieldUser: TestUser;
  let surveyId: string;
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    org = await createOrganizationUser(env, 'save-org');
    surveyId = (await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.phone, type: QuestionType.text, compulsory: false, options: [] },
        { text: Q.photo, type: QuestionType.liveImages, compulsory: false, options: [] },
      ],
    }, await apiLogin(env, org))).survey._id;
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    b = await openBrowser(PHONE);
    b.context.setDefaultTimeout(30_000);
    await b.context.grantPermissions(['camera'], { origin: env.baseUrl });
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(() => b?.close());

  it('keeps answers and photos encrypted, saves them to a file, and after clearing the site data loads and sends each once', async () => {
    const { page, context } = b;
    const form = new FieldUserFormPage(page, env.baseUrl);
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    await context.setOffline(true);

    const owners = ['Hajiya Amina Bello', 'Chinedu Okafor'];
    for (const [i, owner] of owners.entries()) {
      await form.fillText(Q.name, owner);
      await form.fillText(Q.phone, `0803555010${i}`);
      if (i === 0) await form.takePicture(Q.photo);
      await form.submit();
      await expect.poll(() => form.waiting().textContent()).toBe(`${i + 1} ${Msg.savedOnPhone}`);
      await toast(page, Msg.expiredSaved).waitFor({ state: 'detached' });
    }
    // A draft in progress too.
    await form.fillText(Q.name, 'Draft: Mallam Sani');
    await page.waitForTimeout(600);

    step('queued offline');
    // Chromium's IndexedDB holds none of it in clear.
    const stored = await storedText(page);
    for (const secret of [...owners, '08035550100', 'Mallam Sani']) expect(stored).not.toContain(secret);
    expect(await page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open('survey-bird');
      open.onsuccess = () => {
        const req = open.result.transaction('photos').objectStore('photos').getAll();
        req.onsuccess = () => resolve((req.result as { sealed?: unknown }[]).filter((r) => r.sealed).length);
      };
    }))).toBe(1);

    // Settings: storage persistence is shown; save to file.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /settings/i }).click();
    const settings = page.getByRole('dialog', { name: 'Field user settings' });
    await settings.getByText('Persistent storage', { exact: true }).waitFor();
    await settings.getByLabel('Passphrase', { exact: true }).fill(PASS);
    await settings.getByLabel('Passphrase again').fill(PASS);
    await shots(page, '390');
    const [download] = await Promise.all([page.waitForEvent('download'), settings.getByRole('button', { name: 'Save to file' }).click()]);
    await toastMatching(page, /Saved 2 responses, 1 photo and 1 draft/).waitFor();
    const file = join(SHOTS, 'unsent.sbsave');
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/^survey-bird-unsent-.*\.sbsave$/);

    step('saved to file');
    // "Clear site data": IndexedDB (with the key), localStorage, caches and the service worker go.
    const cdp = await context.newCDPSession(page);
    await page.goto('about:blank');
    await cdp.send('Storage.clearDataForOrigin', { origin: env.baseUrl, storageTypes: 'all' });
    step('site data cleared');
    await context.setOffline(false);
    await new LoginPage(page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    step('signed in');
    await form.open(TITLE);
    await expect.poll(() => form.waiting().textContent()).toBe('Nothing waiting to send');
    expect(serverRows(surveyId).responses).toHaveLength(0);

    step('cleared and signed in again');
    // Load it (a wrong passphrase first), then it syncs.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /settings/i }).click();
    await settings.getByLabel('File saved by Survey Bird').setInputFiles(file);
    await settings.getByLabel('Passphrase of that file').fill('not the passphrase');
    await settings.getByRole('button', { name: 'Load file' }).click();
    await settings.getByText('Wrong passphrase, or the file is damaged').waitFor();
    await settings.getByLabel('Passphrase of that file').fill(PASS);
    await settings.getByRole('button', { name: 'Load file' }).click();
    await toastMatching(page, /Loaded 2 responses with 1 photo; 1 draft/).waitFor();
    await expect.poll(() => serverRows(surveyId).responses.length, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => serverRows(surveyId).files.length, { timeout: 30_000 }).toBe(1);

    step('loaded and synced');
    // Loading the same file again adds nothing; the server still holds each response once.
    await settings.getByLabel('File saved by Survey Bird').setInputFiles(file);
    // Choosing the same file again fires the input's cancel event, which bubbles: the dialog stays open.
    await settings.getByLabel('Passphrase of that file').fill(PASS);
    await settings.getByRole('button', { name: 'Load file' }).click();
    await toastMatching(page, /Loaded 0 responses with 0 photos; 2 already on this phone/).waitFor();
    await settings.getByRole('button', { name: 'Sync now' }).click();
    await page.waitForTimeout(1500);
    const rows = serverRows(surveyId);
    expect(rows.responses.map((r) => r.answers[Q.name]).sort()).toEqual([...owners].sort());
    expect(new Set(rows.responses.map((r) => r.clientId)).size).toBe(2);
    expect(rows.files).toHaveLength(1);
    await settings.getByRole('button', { name: 'Done' }).click();
    await form.open(TITLE);
    expect(await form.question(Q.name).getByRole('textbox').inputValue()).toBe('Draft: Mallam Sani');
  }, 300_000);

  it('Settings at 1280 px', async () => {
    const desk = await openBrowser(DESKTOP);
    try {
      await new LoginPage(desk.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
      await new FieldUserFormPage(desk.page, env.baseUrl).open(TITLE);
      await desk.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /settings/i }).click();
      await desk.page.getByRole('dialog', { name: 'Field user settings' }).getByRole('button', { name: 'Save to file' }).waitFor();
      await shots(desk.page, '1280');
    } finally {
      await desk.close();
    }
  });
});

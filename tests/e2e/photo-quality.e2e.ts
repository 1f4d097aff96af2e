import { Msg, PENDING_PHOTO_ANSWER, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import jpeg from 'jpeg-js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';
import { ManageSurveysPage } from './pages/Management';
import { signedPhotoUrl } from './harness/photos';

/**
 * Issue 19, section 3 through the screens: the organization sets a survey's photo quality in
 * Manage Survey; the phone keeps it with the survey (IndexedDB) and, with no signal, shrinks a
 * chosen photo to that size: 1600 px on the longer side at standard, 2000 px at high.
 */
const env = inject('env');
const TITLE = 'Shelf check';
const Q = { name: 'Outlet name', photo: 'Shelf photo' } as const;

/** A 2400 x 1800 photo-like JPEG: larger than either setting keeps. */
function cameraJpeg(): Buffer {
  const width = 2400;
  const height = 1800;
  const data = Buffer.alloc(width * height * 4);
  let s = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s = (s * 1103515245 + 12345) >>> 0;
      const n = (s >>> 24) % 24;
      const i = (y * width + x) * 4;
      data[i] = Math.min(255, (x * 230) / width + n);
      data[i + 1] = Math.min(255, (y * 230) / height + n);
      data[i + 2] = 120 + n;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 90).data;
}

/** Width and height from a JPEG's frame header. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  for (let i = 2; i + 9 < bytes.length; ) {
    const marker = bytes[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  throw new Error('no JPEG frame header');
}

/** The photos the server holds for the survey, by outlet name, once attached. */
async function storedPhotos(surveyId: string): Promise<Record<string, { width: number; height: number }>> {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  let rows: Record<string, unknown>[];
  try {
    rows = (db.prepare('select answers from responses where survey_id = ?').all(surveyId) as { answers: string }[]).map((r) => JSON.parse(r.answers) as Record<string, unknown>);
  } finally {
    db.close();
  }
  const out: Record<string, { width: number; height: number }> = {};
  for (const answers of rows) {
    const ref = answers[Q.photo];
    if (typeof ref !== 'string' || ref === PENDING_PHOTO_ANSWER) continue;
    const res = await fetch(signedPhotoUrl(env, ref));
    out[String(answers[Q.name])] = jpegSize(Buffer.from(await res.arrayBuffer()));
  }
  return out;
}

describe('photo quality, from Manage Survey to the phone (issue 19)', () => {
  let office: Browser;
  let phone: Browser;
  let form: FieldUserFormPage;
  let surveyId: string;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'photo-quality-org');
    surveyId = (await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'A photo of the shelves.',
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.photo, type: QuestionType.image, compulsory: true, options: [] },
      ],
    }, await apiLogin(env, org))).survey._id;
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    [office, phone] = await Promise.all([openBrowser(DESKTOP), openBrowser(PHONE)]);
    await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
    await new LoginPage(phone.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    form = new FieldUserFormPage(phone.page, env.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([office?.close(), phone?.close()]);
  });

  const photo = { name: 'shelf.jpg', mimeType: 'image/jpeg', buffer: cameraJpeg() };
  async function fill(name: string): Promise<void> {
    await form.fillText(Q.name, name);
    await form.question(Q.photo).locator('input[type=file]').setInputFiles(photo);
    await form.question(Q.photo).locator('img.photo__img').waitFor();
    await form.submit();
  }
  const cachedQuality = () => phone.page.evaluate((id) => new Promise<string | undefined>((resolve, reject) => {
    const open = indexedDB.open('survey-bird');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction('surveys').objectStore('surveys').getAll();
      req.onsuccess = () => {
        open.result.close();
        resolve((req.result as { survey: { _id: string; photoQuality?: string } }[]).find((r) => r.survey._id === id)?.survey.photoQuality);
      };
      req.onerror = () => reject(req.error);
    };
  }), surveyId);

  it('standard by default (1600 px); set to high, the phone shrinks to 2000 px offline', async () => {
    await form.open(TITLE);
    await expect.poll(() => phone.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    await fill('Standard outlet');
    await expect.poll(() => storedPhotos(surveyId), { timeout: 30_000 }).toEqual({ 'Standard outlet': { width: 1600, height: 1200 } });
    await expect.poll(cachedQuality, { timeout: 15_000 }).toBe('standard');

    const settings = await (await new ManageSurveysPage(office.page).openFromMenu()).openSettings(TITLE);
    const setting = settings.getByRole('combobox', { name: /Photo quality/ });
    expect(await setting.inputValue()).toBe('standard');
    expect(await seriousViolations(office.page)).toEqual([]);
    await setting.selectOption('high');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await toast(office.page, 'Settings saved').waitFor();

    // The phone takes the setting with its surveys when it next opens with signal, then loses it.
    await phone.page.reload();
    await form.title(TITLE).waitFor();
    await expect.poll(cachedQuality, { timeout: 15_000 }).toBe('high');
    await phone.context.setOffline(true);
    await phone.page.reload();
    await form.title(TITLE).waitFor();
    await fill('High outlet');
    await toast(phone.page, Msg.expiredSaved).waitFor();
    await phone.context.setOffline(false);
    await expect.poll(() => storedPhotos(surveyId), { timeout: 30_000 }).toEqual({ 'Standard outlet': { width: 1600, height: 1200 }, 'High outlet': { width: 2000, height: 1500 } });

    // Manage Survey shows the setting as saved.
    await office.page.reload();
    const again = await new ManageSurveysPage(office.page).openFromMenu().then((p) => p.openSettings(TITLE));
    expect(await again.getByRole('combobox', { name: /Photo quality/ }).inputValue()).toBe('high');
  });
});

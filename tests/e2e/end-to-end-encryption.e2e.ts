import { QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';
import { ManageSurveysPage } from './pages/Management';

/**
 * An end-to-end encrypted survey: the office makes the key in the browser and downloads it, a
 * field user submits, the server's database holds no answer in clear, and the office opens the
 * key file with its passphrase and reads the answer in the table.
 */
const env = inject('env');
const TITLE = 'Sealed clinic survey';
const Q = { name: 'Patient initials', visits: 'Visits this year' } as const;
const SECRET = 'Zainab Olamide-Bakare';
const PASS = 'ibadan clinic 2026 key';
const SHOTS = join(repoRoot, '.e2e/screenshots/end-to-end');

function storedRows(surveyId: string): unknown[] {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select * from responses where survey_id = ?').all(surveyId);
  } finally {
    db.close();
  }
}

describe('end-to-end encryption', () => {
  let office: Browser;
  let phone: Browser;
  let org: TestUser;
  let fieldUser: TestUser;
  let surveyId: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    org = await createOrganizationUser(env, 'sealed-org');
    surveyId = (await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.visits, type: QuestionType.number, compulsory: false, options: [] },
      ],
    }, await apiLogin(env, org))).survey._id;
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    office = await openBrowser(DESKTOP);
    office.context.setDefaultTimeout(30_000);
    await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(async () => {
    await office?.close();
    await phone?.close();
  });

  it('makes the key in the browser, stores only ciphertext, and opens it in the office', async () => {
    const manage = new ManageSurveysPage(office.page);
    const panel = await (await manage.openFromMenu()).openSettings(TITLE);
    await panel.getByRole('button', { name: 'Turn on…' }).click();
    await panel.getByLabel(/^Passphrase \(at least/).fill(PASS);
    await panel.getByLabel('Passphrase again').fill(PASS);
    await office.page.screenshot({ path: join(SHOTS, 'key-1280.png') });
    const [download] = await Promise.all([office.page.waitForEvent('download', { timeout: 60_000 }), panel.getByRole('button', { name: 'Create key and turn on' }).click()]);
    const keyFile = join(SHOTS, 'survey-key.json');
    await download.saveAs(keyFile);
    await toast(office.page, 'Encryption on').waitFor();
    await panel.getByRole('button', { name: 'Turn off' }).waitFor();
    await office.page.screenshot({ path: join(SHOTS, 'key-on-1280.png') });

    phone = await openBrowser(PHONE);
    phone.context.setDefaultTimeout(30_000);
    await new LoginPage(phone.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    const form = await new FieldUserFormPage(phone.page, env.baseUrl).open(TITLE);
    await form.fillText(Q.name, SECRET);
    await form.fillText(Q.visits, '3');
    await form.submit();
    await expect.poll(() => storedRows(surveyId).length, { timeout: 60_000 }).toBe(1);
    const stored = JSON.stringify(storedRows(surveyId));
    expect(stored).not.toContain('Zainab');
    expect(stored).toContain('RSA-OAEP-3072');

    const insight = await new InsightPage(office.page, env.baseUrl).open();
    await insight.waitForRows(1);
    await office.page.getByText('Answers are end-to-end encrypted.').waitFor();
    await office.page.getByLabel('Key file').setInputFiles(keyFile);
    await office.page.getByLabel('Passphrase', { exact: true }).fill('not the passphrase');
    await office.page.getByRole('button', { name: 'Open answers' }).click();
    await toast(office.page, 'The passphrase does not open this key file').waitFor();
    await office.page.getByLabel('Passphrase', { exact: true }).fill(PASS);
    await office.page.getByRole('button', { name: 'Open answers' }).click();
    await office.page.locator('.responses__table').getByText(SECRET).waitFor();
    await office.page.locator('.e2e-panel').scrollIntoViewIfNeeded();
    await office.page.screenshot({ path: join(SHOTS, 'decrypt-1280.png') });
    await office.page.setViewportSize({ width: 390, height: 844 });
    await office.page.locator('.e2e-panel').scrollIntoViewIfNeeded();
    await office.page.screenshot({ path: join(SHOTS, 'decrypt-390.png') });
    await office.page.setViewportSize({ width: 1280, height: 800 });

    const [csv] = await Promise.all([office.page.waitForEvent('download'), office.page.getByRole('button', { name: 'Export decrypted (CSV)' }).click()]);
    const text = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks as Buffer[]).toString('utf8'));
    expect(text).toContain(SECRET);
  });
});

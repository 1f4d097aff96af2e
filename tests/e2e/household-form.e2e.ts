import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import jpeg from 'jpeg-js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { repoRoot } from './harness/server';
import { InsightPage } from './pages/InsightPage';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

// XLSForm forms on the phone, offline after one load: a household roster (repeat) with a
// constraint and a photo inside it, a group hidden by an answer, a calculated total, English and
// Hausa; then the office sees the roster in the detail view and the repeat's sheet in the export.
const env = inject('env');
const shots = join(repoRoot, '.e2e/screenshots');
const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

/** A small camera-like JPEG (a gradient), which the phone shrinks and sends as it would a real one. */
function memberJpeg(): Buffer {
  const width = 320;
  const height = 240;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = 140;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 85).data;
}

const TITLE = 'Household roster';

async function createSurvey(org: TestUser): Promise<string> {
  const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
    title: TITLE,
    description: 'One visit per household.',
    languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }],
    defaultLanguage: 'en',
    questions: [
      { id: 'village', text: 'Village', type: QuestionType.text, compulsory: true, translations: { ha: { text: 'Kauye' } } },
      { id: 'household', text: 'Household', type: QuestionType.group, appearance: 'field-list', translations: { ha: { text: 'Gida' } } },
      { id: 'head', text: 'Head of household', type: QuestionType.text, compulsory: true, parent: 'household', translations: { ha: { text: 'Maigida' } } },
      {
        id: 'farms', text: 'Does the household farm?', type: QuestionType.select, compulsory: true, parent: 'household', options: ['Yes', 'No'],
        choices: [{ name: 'yes', label: 'Yes', labels: { ha: 'Ee' } }, { name: 'no', label: 'No', labels: { ha: "A'a" } }], translations: { ha: { text: 'Gidan yana noma?' } },
      },
      { id: 'members', text: 'Member', type: QuestionType.repeat, repeat: { min: 1, max: 10 }, translations: { ha: { text: 'Dan gida' } } },
      { id: 'name', text: 'Name', type: QuestionType.text, compulsory: true, parent: 'members', translations: { ha: { text: 'Suna' } } },
      {
        id: 'age', text: 'Age', type: QuestionType.number, compulsory: true, parent: 'members', constraintExpr: '. >= 0 and . <= 120',
        constraintMessage: 'An age is between 0 and 120', translations: { ha: { text: 'Shekaru', constraintMessage: 'Shekaru tsakanin 0 da 120' } },
      },
      { id: 'photo', text: 'Photo', type: QuestionType.image, compulsory: false, parent: 'members', translations: { ha: { text: 'Hoto' } } },
      { id: 'is_child', text: 'Is a child', type: QuestionType.calculate, parent: 'members', calculation: 'if(${age} < 18, 1, 0)' },
      { id: 'children', text: 'Children', type: QuestionType.calculate, calculation: 'sum(${is_child})' },
      { id: 'summary', text: '${children} of the members are children.', type: QuestionType.note, translations: { ha: { text: '${children} daga cikin yan gidan yara ne.' } } },
      { id: 'farming', text: 'Farming', type: QuestionType.group, relevantExpr: "${farms} = 'yes'", translations: { ha: { text: 'Noma' } } },
      { id: 'crop', text: 'Main crop', type: QuestionType.text, compulsory: true, parent: 'farming', translations: { ha: { text: 'Babban amfanin gona' } } },
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

describe('an XLSForm household form on the phone, offline', () => {
  let b: Browser;
  let form: FieldUserFormPage;
  let surveyId: string;
  let org: TestUser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    org = await createOrganizationUser(env, 'roster-org');
    surveyId = await createSurvey(org);
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    b = await openBrowser(PHONE);
    form = new FieldUserFormPage(b.page, env.baseUrl);
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('switches to Hausa mid-form, adds and removes members, blocks on an age in the roster, is not held by a hidden group, then syncs', async () => {
    const { page, context } = b;
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    await form.question('Village').waitFor();

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();
    const member = (n: number) => page.locator('.rpt__inst').nth(n);
    await member(0).waitFor();

    await form.fillText('Village', 'Kura');
    await form.fillText('Head of household', 'Amina Bello');
    // Farming: its group shows with a compulsory question.
    await form.question('Does the household farm?').locator('select').selectOption('yes');
    await form.question('Main crop').waitFor();

    // Mid-form, Hausa: the labels, the choices and the repeat's button change; the answers stay.
    await page.getByLabel('Language').selectOption('ha');
    await form.question('Kauye').waitFor();
    expect(await form.question('Kauye').getByRole('textbox').inputValue()).toBe('Kura');
    expect(await form.question('Gidan yana noma?').locator('select option:checked').textContent()).toBe('Ee');
    await page.getByRole('button', { name: 'Add another Dan gida' }).waitFor();

    // Three members, then the second removed after the confirmation.
    await member(0).getByRole('group', { name: 'Suna' }).getByRole('textbox').fill('Amina');
    await member(0).getByRole('group', { name: 'Shekaru' }).getByRole('textbox').fill('41');
    await page.getByRole('button', { name: 'Add another Dan gida' }).click();
    await member(1).getByRole('group', { name: 'Suna' }).getByRole('textbox').fill('Bala');
    await member(1).getByRole('group', { name: 'Shekaru' }).getByRole('textbox').fill('12');
    await page.getByRole('button', { name: 'Add another Dan gida' }).click();
    await member(2).getByRole('group', { name: 'Suna' }).getByRole('textbox').fill('Chidi');
    await member(2).getByRole('group', { name: 'Shekaru' }).getByRole('textbox').fill('150');
    await member(2).getByText('Shekaru tsakanin 0 da 120').waitFor();
    await page.getByText('1 daga cikin yan gidan yara ne.').waitFor();

    await member(1).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.locator('.rpt__inst').count()).toBe(2);
    expect(await member(1).getByRole('group', { name: 'Suna' }).getByRole('textbox').inputValue()).toBe('Chidi');

    // The age of 150 blocks the submit, at that member, in Hausa (with the main crop, still asked for).
    await form.submit();
    await toast(page, '2 answers need attention: 1 compulsory missing, 1 to correct').waitFor();
    await member(1).locator('.q--invalid', { hasText: 'Shekaru tsakanin 0 da 120' }).waitFor();
    await form.question('Babban amfanin gona').locator('.q__error').waitFor();
    expect(await form.waiting().textContent()).not.toMatch(/saved on this phone/);

    // A photo of the second member (Chidi): kept on the phone under that instance.
    await member(1).getByRole('group', { name: 'Hoto' }).locator('input[type=file]').setInputFiles({ name: 'chidi.jpg', mimeType: 'image/jpeg', buffer: memberJpeg() });
    await member(1).locator('img.photo__img').waitFor();

    // The household does not farm after all: the hidden group's compulsory question does not block.
    await member(1).getByRole('group', { name: 'Shekaru' }).getByRole('textbox').fill('15');
    await form.question('Gidan yana noma?').locator('select').selectOption('no');
    await form.question('Babban amfanin gona').waitFor({ state: 'detached' });
    await page.getByText('1 daga cikin yan gidan yara ne.').waitFor();
    await form.submit();
    await toast(page, Msg.expiredSaved).waitFor();
    await expect.poll(() => form.waiting().textContent()).toBe(`1 ${Msg.savedOnPhone}`);
    // The next response opens in Hausa again, with its first member ready.
    await form.question('Kauye').waitFor();
    expect(await page.locator('.rpt__inst').count()).toBe(1);

    await context.setOffline(false);
    await form.syncNow();
    // The response first, then the member's photo into its instance.
    await expect.poll(() => serverAnswers(surveyId), { timeout: 30_000 }).toEqual([{
      Village: 'Kura',
      'Head of household': 'Amina Bello',
      'Does the household farm?': 'no',
      Member: [{ Name: 'Amina', Age: '41', 'Is a child': '0' }, { Name: 'Chidi', Age: '15', 'Is a child': '1', Photo: expect.stringMatching(/\/api\/v1\/files\/image\/[\w-]+$/) }],
      Children: '1',
    }]);
  });

  it('the office sees each member with the photo in the detail view, and the export has the roster\'s sheet', async () => {
    const office = await openBrowser(DESKTOP);
    try {
      const p = office.page;
      await new LoginPage(p, env.baseUrl).signIn(org.email, org.password);
      const insight = await new InsightPage(p, env.baseUrl).open();
      await insight.waitForRows(1);
      // The table shows the roster as its count.
      await p.locator('.responses__table tbody tr', { hasText: '2 members' }).waitFor();
      await p.locator('.responses__table tbody tr').first().locator('td').last().click();
      const detail = p.getByRole('dialog', { name: 'Response' });
      const chidi = detail.getByRole('listitem', { name: 'Member 2' });
      await chidi.getByText('Chidi').waitFor();
      const img = chidi.locator('img.response-detail__photo');
      await img.waitFor();
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await detail.getByRole('listitem', { name: 'Member 1' }).innerText()).toMatch(/Amina[\s\S]*41/);
      await shot(p, 'household-detail-1280');
      await p.setViewportSize(PHONE);
      await chidi.scrollIntoViewIfNeeded();
      await shot(p, 'household-detail-390');
      await p.setViewportSize(DESKTOP);
      await detail.getByRole('button', { name: 'Close' }).first().click();

      const download = await insight.export();
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile((await download.path())!);
      expect(workbook.worksheets.map((s) => s.name)).toEqual(['Responses', 'Member']);
      const sheet = workbook.getWorksheet('Member')!;
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1, 8)));
      expect(rows[0]).toEqual(['S/N', 'Parent key', 'Key', 'Instance', 'Name', 'Age', 'Photo']);
      expect(rows.slice(1).map((r) => r.slice(0, 6))).toEqual([[1, '1', '1/members[1]', 1, 'Amina', 41], [1, '1', '1/members[2]', 2, 'Chidi', 15]]);
      // The member's photo is a signed link on the sheet.
      expect(JSON.stringify(rows[2]![6])).toMatch(/files\/image\/.+\?/);
    } finally {
      await office.close();
    }
  });
});

import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';
import { ManageSurveysPage, SurveyBuilderPage } from './pages/Management';

// Issue 17, section 3 and 4 through the screens: an organization edits, closes and reopens a
// published survey and imports an XLSForm; a field user's phone follows at its next sync.
const env = inject('env');

const TITLE = 'Outlet census';
const Q = { name: 'Name of outlet', fridges: 'Fridge count', type: 'Outlet type', phone: 'Owner phone' } as const;

function readDb<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

const serverResponses = (surveyId: string) =>
  readDb<{ version: number; answers: string }>('select version, answers from responses where survey_id = ? order by version', surveyId)
    .map((r) => ({ version: r.version, answers: JSON.parse(r.answers) as Record<string, unknown> }));


describe('editing and closing a published survey, seen on the phone (issue 17)', () => {
  let office: Browser;
  let phone: Browser;
  let form: FieldUserFormPage;
  let surveyId: string;

  beforeAll(async () => {
    const org: TestUser = await createOrganizationUser(env, 'versions-org');
    const created = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'One visit per outlet.',
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true },
        { text: Q.fridges, type: QuestionType.number, compulsory: true, constraint: { min: 0, max: 20 } },
        { text: Q.type, type: QuestionType.select, compulsory: false, options: ['Kiosk', 'Supermarket'] },
      ],
    }, await apiLogin(env, org));
    surveyId = created.survey._id;
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    [office, phone] = await Promise.all([openBrowser(), openBrowser(PHONE)]);
    await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
    await new LoginPage(phone.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    form = new FieldUserFormPage(phone.page, env.baseUrl);
  });
  afterAll(async () => {
    await Promise.all([office?.close(), phone?.close()]);
  });

  it('publishes version 2 from Manage Survey; the phone says "This survey was updated", finishes the draft on version 1, then fills version 2', async () => {
    // The field user starts a response on version 1.
    await form.title(TITLE).waitFor();
    await form.fillText(Q.name, 'Mama Put');
    await form.fillText(Q.fridges, '2');

    // The organization removes the fridge count and adds the owner's phone: version 2.
    const details = await (await new ManageSurveysPage(office.page).openFromMenu()).openSurvey(TITLE);
    await details.getByText('Version 1').first().waitFor();
    await details.getByRole('button', { name: 'Edit' }).click();
    await office.page.getByRole('heading', { name: 'Edit survey' }).waitFor();
    const builder = new SurveyBuilderPage(office.page, env.baseUrl);
    await expect.poll(() => builder.questions().count()).toBe(3);
    await office.page.getByRole('button', { name: 'Delete question 2' }).click();
    await builder.add({ text: Q.phone, type: QuestionType.phone, compulsory: false });
    await expect.poll(() => builder.questions().allTextContents()).toEqual([expect.stringContaining(Q.name), expect.stringContaining(Q.type), expect.stringContaining(Q.phone)]);
    await builder.publish();
    await toast(office.page, 'Version 2 published').waitFor();

    // The phone syncs: it hears of the new version, and the draft in progress stays on version 1.
    await form.syncNow();
    await toast(phone.page, Msg.surveyUpdated).waitFor({ timeout: 15_000 });
    expect(await form.question(Q.fridges).getByRole('textbox').inputValue()).toBe('2');
    expect(await form.question(Q.phone).count()).toBe(0);
    await form.submit();
    await expect.poll(() => serverResponses(surveyId), { timeout: 30_000 }).toEqual([{ version: 1, answers: { [Q.name]: 'Mama Put', [Q.fridges]: '2' } }]);

    // The next response is on version 2.
    await form.question(Q.phone).waitFor();
    expect(await form.question(Q.fridges).count()).toBe(0);
    await form.fillText(Q.name, 'Shoprite Ikeja');
    await form.choose(Q.type, 'Supermarket');
    await form.fillText(Q.phone, '0803 123 4567');
    await form.submit();
    await expect.poll(() => serverResponses(surveyId), { timeout: 30_000 }).toHaveLength(2);
    expect(serverResponses(surveyId)[1]).toEqual({ version: 2, answers: { [Q.name]: 'Shoprite Ikeja', [Q.type]: 'Supermarket', [Q.phone]: '+2348031234567' } });
  });

  it('closing the survey greys it out on the phone with the reason; reopening brings the form back', async () => {
    const details = await (await new ManageSurveysPage(office.page).openFromMenu()).openSettings(TITLE);
    await details.getByRole('button', { name: 'Close survey' }).click();
    await office.page.getByRole('alertdialog', { name: 'Close this survey?' }).getByRole('button', { name: 'Close survey' }).click();
    await toast(office.page, 'Survey closed').waitFor();
    await details.getByRole('button', { name: 'Reopen' }).waitFor();

    await form.syncNow();
    const closed = phone.page.locator('.fu-form--closed');
    await closed.waitFor({ timeout: 15_000 });
    expect(await closed.getByRole('status').textContent()).toContain(`${Msg.surveyClosed}.`);
    expect(await closed.evaluate((el) => getComputedStyle(el).filter)).toContain('grayscale');
    expect(await form.submitButton().count()).toBe(0);

    await details.getByRole('button', { name: 'Reopen' }).click();
    await toast(office.page, 'Survey reopened').waitFor();
    await form.syncNow();
    await form.submitButton().waitFor({ timeout: 15_000 });
    expect(await closed.count()).toBe(0);
    await form.question(Q.phone).waitFor();
  });
});

/** A Kobo-style XLSForm: English labels, a relevance, constraints with and without a message (one only approximated). */
async function marketVisitForm(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheets: Record<string, (string | number)[][]> = {
    survey: [
      ['type', 'name', 'label::English (en)', 'required', 'relevant', 'constraint', 'constraint_message::English (en)'],
      ['text', 'trader', 'Trader name', 'yes', '', 'string-length(.) <= 40', 'At most 40 letters'],
      ['select_one yes_no', 'sells_rice', 'Does the trader sell rice?', 'yes', '', '', ''],
      ['integer', 'bags', 'Bags of rice in stock', 'yes', "${sells_rice} = 'yes'", '. >= 0 and . <= 500', ''],
      ['decimal', 'price', 'Price of a bag (naira)', '', "${sells_rice} = 'yes'", '. > 0', ''],
      ['date', 'visit', 'Date of visit', 'yes', '', '', ''],
      ['note', 'thanks', 'Thank the trader', '', '', '', ''],
    ],
    choices: [['list_name', 'name', 'label::English (en)'], ['yes_no', 'yes', 'Yes'], ['yes_no', 'no', 'No']],
    settings: [['form_title', 'form_id'], ['Rice market visit', 'rice_2026']],
  };
  for (const [name, rows] of Object.entries(sheets)) book.addWorksheet(name).addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('XLSForm import through the builder (issue 17)', () => {
  let b: Browser;
  let org: TestUser;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'xlsform-org');
    b = await openBrowser();
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('imports an .xlsx into a draft the builder shows, and Publish creates the survey with its types and rules', async () => {
    const { page } = b;
    await (await new ManageSurveysPage(page).openFromMenu()).createNew();
    const builder = new SurveyBuilderPage(page, env.baseUrl);
    await builder.importXlsform('rice-market.xlsx', await marketVisitForm());
    // Everything came over exactly (the decimal's strict bound stays an expression): no report, a toast says so.
    await page.getByText('6 questions imported from rice-market.xlsx').waitFor();
    expect(await page.getByRole('button', { name: 'Show import report' }).count()).toBe(0);
    expect(await page.getByLabel('Survey title').inputValue()).toBe('Rice market visit');
    const texts = ['Trader name', 'Does the trader sell rice?', 'Bags of rice in stock', 'Price of a bag (naira)', 'Date of visit', 'Thank the trader'];
    expect(await builder.questions().allTextContents()).toEqual(texts.map((t) => expect.stringContaining(t)));
    // Nothing is published until Publish.
    expect(readDb('select id from surveys where title = ?', 'Rice market visit')).toEqual([]);

    await builder.publish();
    await page.getByRole('heading', { name: 'Manage Survey' }).waitFor();
    const [row] = readDb<{ questions: string }>('select questions from surveys where title = ?', 'Rice market visit');
    const questions = JSON.parse(row!.questions) as { id: string; text: string; type: string; compulsory: boolean; options?: string[]; showIf?: unknown; constraint?: unknown }[];
    expect(questions.map((q) => [q.text, q.type, q.compulsory])).toEqual([
      ['Trader name', QuestionType.text, true],
      ['Does the trader sell rice?', QuestionType.select, true],
      ['Bags of rice in stock', QuestionType.number, true],
      ['Price of a bag (naira)', QuestionType.decimal, false],
      ['Date of visit', QuestionType.date, true],
      ['Thank the trader', QuestionType.note, false],
    ]);
    const [trader, rice, bags, price] = questions;
    expect(rice!.options).toEqual(['Yes', 'No']);
    expect(trader!.constraint).toMatchObject({ maxLength: 40, message: 'At most 40 letters' });
    expect(bags!.constraint).toMatchObject({ min: 0, max: 500 });
    const relevantOf = (q: object) => (q as { relevantExpr?: string }).relevantExpr;
    if (bags!.showIf === undefined) expect(relevantOf(bags!), JSON.stringify(bags)).toMatch(/yes/i);
    else expect(bags!.showIf).toEqual({ combine: 'all', conditions: [{ question: rice!.id, op: 'equals', value: 'Yes' }] });
    expect(price!.constraint).toBeUndefined();
    expect((price as { constraintExpr?: string }).constraintExpr).toMatch(/^\.\s*>\s*0$/);
    // Its skip logic came over: as the builder's show-if where exact, else as the XLSForm expression.
    if (price!.showIf === undefined) expect(relevantOf(price!), JSON.stringify(price)).toBe(relevantOf(bags!));
    else expect(price!.showIf).toEqual(bags!.showIf);
  });
});

import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

// A survey closed while a phone has its form open: the phone learns of it at submit, the response
// made before the close is received once, and one made after it stays on the phone with the reason.
const env = inject('env');

const TITLE = 'Market price check';
const Q = { trader: 'Trader name', price: 'Price of a bag' } as const;

function serverResponses(surveyId: string): Record<string, unknown>[] {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select answers from responses where survey_id = ?').all(surveyId) as { answers: string }[]).map((r) => JSON.parse(r.answers) as Record<string, unknown>);
  } finally {
    db.close();
  }
}

describe('a survey closed while the form is open', () => {
  let org: TestUser;
  let orgToken: string;
  let fieldUser: TestUser;
  let surveyId: string;
  const phones: Browser[] = [];

  /** The organization's Survey settings -> Close survey (or Reopen), as the panel sends it. */
  async function setClosed(closed: boolean): Promise<void> {
    const res = await fetch(`${env.baseUrl}/api/v1/survey/${surveyId}/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${orgToken}` },
      body: JSON.stringify({ closed }),
    });
    expect(res.status).toBe(200);
  }

  /** A phone signed in as the field user with the form open; `clockAheadMs`: how far its clock runs ahead of the server's. */
  async function phoneWithForm(clockAheadMs = 0): Promise<{ phone: Browser; form: FieldUserFormPage }> {
    const phone = await openBrowser(PHONE);
    phones.push(phone);
    if (clockAheadMs) await phone.page.clock.install({ time: Date.now() + clockAheadMs });
    await new LoginPage(phone.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    const form = new FieldUserFormPage(phone.page, env.baseUrl);
    await form.title(TITLE).waitFor();
    return { phone, form };
  }

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'close-org');
    orgToken = await apiLogin(env, org);
    const created = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'One visit per trader.',
      questions: [
        { text: Q.trader, type: QuestionType.text, compulsory: true },
        { text: Q.price, type: QuestionType.number, compulsory: false },
      ],
    }, orgToken);
    surveyId = created.survey._id;
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
  });
  afterAll(async () => {
    await Promise.all(phones.map((p) => p.close()));
  });

  it('made before the close: the submit says it was received and that the survey is closed, shows the closed screen, and the server holds it once', async () => {
    const { phone, form } = await phoneWithForm();
    await form.fillText(Q.trader, 'Mama Nkechi');
    await form.fillText(Q.price, '42000');

    await setClosed(true);
    await form.submit();

    await toast(phone.page, `${Msg.responseSent} ${Msg.surveyClosed} now`).waitFor({ timeout: 15_000 });
    const closed = phone.page.locator('.fu-form--closed');
    await closed.waitFor();
    expect(await closed.getByRole('status').textContent()).toContain(`${Msg.surveyClosed}.`);
    expect(await form.submitButton().count()).toBe(0);
    expect(await closed.getByTestId('closed-refused').count()).toBe(0);
    await expect.poll(() => serverResponses(surveyId), { timeout: 15_000 }).toEqual([{ [Q.trader]: 'Mama Nkechi', [Q.price]: '42000' }]);

    // Further syncs send nothing more.
    await form.syncNow();
    await form.openResponses();
    await expect.poll(() => form.records().getByTestId('delivery').allTextContents()).toEqual([expect.stringMatching(/received|awaiting|sent/i)]);
    expect(serverResponses(surveyId)).toHaveLength(1);
  });

  it('made after the close (by the phone\'s clock): refused, kept on the phone with the reason, never dropped nor sent again', async () => {
    await setClosed(false);
    // Ten minutes ahead: what it makes now falls after the close by more than the five minutes of clock slack.
    const { phone, form } = await phoneWithForm(10 * 60_000);
    await setClosed(true);
    await form.fillText(Q.trader, 'Baba Sule');
    await form.submit();

    await toast(phone.page, `${Msg.surveyClosed}: the organization closed it before this response reached the server`).waitFor({ timeout: 15_000 });
    const refused = phone.page.getByTestId('closed-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('1 response you submitted reached the server after the close and was not accepted');

    await refused.getByRole('link', { name: 'Open responses' }).click();
    await phone.page.getByRole('heading', { name: 'Responses' }).waitFor();
    const row = form.records().filter({ hasText: 'Baba Sule' });
    expect(await row.getByRole('note').textContent()).toContain(Msg.surveyClosed);
    await row.getByTestId('closed-refusal').waitFor();
    expect(await row.getByRole('button', { name: 'Fix' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Discard' }).waitFor();

    await form.syncNow();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await row.getByTestId('delivery').textContent()).toBe('failed');
    expect(serverResponses(surveyId).map((a) => a[Q.trader])).toEqual(['Mama Nkechi']);
  });
});

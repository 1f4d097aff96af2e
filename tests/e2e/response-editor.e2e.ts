import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { startProxy, type Proxy } from './harness/proxy';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

// One response editor: the new form, Fix (refused by the server) and Fix and resubmit (returned by
// a reviewer) all hide what a show-if hides, never need it, and block a broken constraint with its
// message before anything is queued; once fixed, the server accepts what the phone sent.
const env = inject('env');

const TITLE = 'Household listing';
const Q = { married: 'Is the head married?', spouse: "Spouse's name", age: 'Age of the head' } as const;
const BROKEN = 'Must be between 0 and 120';
/** An age the proxy makes the server refuse (it adds an answer to a question the survey does not have). */
const REFUSED_AGE = '77';

function serverAnswers(surveyId: string): { id: string; answers: Record<string, unknown>; revision: number }[] {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select id, answers, revision from responses where survey_id = ? order by created_at').all(surveyId) as { id: string; answers: string; revision: number }[])
      .map((r) => ({ id: r.id, answers: JSON.parse(r.answers) as Record<string, unknown>, revision: r.revision }));
  } finally {
    db.close();
  }
}

describe('one response editor: the form, Fix, and Fix and resubmit', () => {
  let b: Browser;
  let proxy: Proxy;
  let form: FieldUserFormPage;
  let surveyId: string;
  let orgToken: string;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'editor-org');
    orgToken = await apiLogin(env, org);
    const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'One visit per household.',
      payAfterReview: true,
      questions: [
        { id: 'a', text: Q.married, type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
        { id: 'b', text: Q.spouse, type: QuestionType.text, compulsory: true, showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
        { id: 'c', text: Q.age, type: QuestionType.number, compulsory: true, constraint: { min: 0, max: 120 } },
      ],
    }, orgToken);
    surveyId = reply.survey._id;
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    proxy = await startProxy(env.baseUrl);
    b = await openBrowser(PHONE);
    form = new FieldUserFormPage(b.page, proxy.baseUrl);
    await new LoginPage(b.page, proxy.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await b?.close();
    await proxy?.close();
  });

  it('the form: the hidden question is not shown and does not block; 150 blocks with its message; 34 is sent and accepted', async () => {
    const { page } = b;
    await form.open(TITLE);
    await form.question(Q.age).waitFor();
    expect(await form.question(Q.spouse).count()).toBe(0);
    await form.choose(Q.married, 'No');
    await form.fillText(Q.age, '150');
    await form.question(Q.age).getByText(BROKEN).waitFor();
    await form.submit();
    await toast(page, BROKEN).waitFor();
    await form.fillText(Q.age, '34');
    await form.submit();
    await toast(page, Msg.responseSent).waitFor({ timeout: 15_000 });
    expect(serverAnswers(surveyId).map((r) => r.answers)).toEqual([{ [Q.married]: 'No', [Q.age]: '34' }]);
  });

  it('Fix: a refused response opens without the hidden question; 150 blocks with its message; 40 is sent again and accepted', async () => {
    const { page } = b;
    proxy.intercept = (req) => {
      if (req.method !== 'POST' || !req.path.startsWith('/api/v1/sync/responses')) return undefined;
      const body = JSON.parse(req.body.toString()) as { responses: Array<{ answers: Record<string, unknown> }> };
      for (const item of body.responses) if (item.answers[Q.age] === REFUSED_AGE) item.answers['Not a question'] = 'x';
      return { body: Buffer.from(JSON.stringify(body)) };
    };
    await form.choose(Q.married, 'No');
    await form.fillText(Q.age, REFUSED_AGE);
    await form.submit();
    await toast(page, '"Not a question" is not a question of this survey').waitFor({ timeout: 15_000 });
    proxy.intercept = () => undefined;

    await form.openResponses();
    await form.recordsWith('failed').first().getByRole('button', { name: 'Fix' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fix this response' });
    const age = dialog.getByRole('group', { name: Q.age });
    await age.waitFor();
    expect(await age.getByRole('textbox').inputValue()).toBe(REFUSED_AGE);
    expect(await dialog.getByRole('group', { name: Q.spouse }).count()).toBe(0);
    // The show-if is live in the dialog too: "Yes" shows the spouse's name, "No" hides it again.
    await dialog.getByRole('group', { name: Q.married }).locator('select').selectOption('Yes');
    await dialog.getByRole('group', { name: Q.spouse }).waitFor();
    await dialog.getByRole('group', { name: Q.married }).locator('select').selectOption('No');
    await dialog.getByRole('group', { name: Q.spouse }).waitFor({ state: 'detached' });

    await age.getByRole('textbox').fill('150');
    await age.getByText(BROKEN).waitFor();
    await dialog.getByRole('button', { name: 'Save and send again' }).click();
    await toast(page, BROKEN).waitFor();
    expect(await dialog.isVisible()).toBe(true);

    await age.getByRole('textbox').fill('40');
    await dialog.getByRole('button', { name: 'Save and send again' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => serverAnswers(surveyId).map((r) => r.answers), { timeout: 30_000 }).toEqual([{ [Q.married]: 'No', [Q.age]: '34' }, { [Q.married]: 'No', [Q.age]: '40' }]);
    expect(await form.recordsWith('failed').count()).toBe(0);
  });

  it('Fix and resubmit: the returned response opens without the hidden question; 150 blocks with its message; 50 is sent as revision 2 and accepted', async () => {
    const { page } = b;
    const first = serverAnswers(surveyId)[0]!;
    await apiPost(env, '/responses/review', { responseIds: [first.id], status: 'returned', comment: 'The age looks wrong: ask again' }, orgToken);
    await page.getByRole('link', { name: 'Earnings' }).first().click();
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();
    const fix = page.getByRole('button', { name: 'Fix and resubmit' });
    await expect.poll(() => fix.count(), { timeout: 30_000 }).toBe(1);
    await fix.click();
    const dialog = page.getByRole('dialog', { name: 'Fix and resubmit' });
    const age = dialog.getByRole('group', { name: Q.age });
    await age.waitFor();
    expect(await age.getByRole('textbox').inputValue()).toBe('34');
    expect(await dialog.getByRole('group', { name: Q.spouse }).count()).toBe(0);

    await age.getByRole('textbox').fill('150');
    await age.getByText(BROKEN).waitFor();
    await dialog.getByRole('button', { name: 'Send the fix' }).click();
    await toast(page, BROKEN).waitFor();
    expect(await dialog.isVisible()).toBe(true);

    await age.getByRole('textbox').fill('50');
    await dialog.getByRole('button', { name: 'Send the fix' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => serverAnswers(surveyId)[0], { timeout: 30_000 }).toMatchObject({ id: first.id, revision: 2, answers: { [Q.married]: 'No', [Q.age]: '50' } });
  });
});

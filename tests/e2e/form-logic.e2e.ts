import { Msg, QuestionType } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

// Issue 17: show-if and constraints live on the phone, offline after a reload.
const env = inject('env');

const TITLE = 'Household visit';
const Q = { a: 'Is the head of household married?', b: "Spouse's name", c: 'Age of the head of household', note: 'Thank the household before leaving.' } as const;

async function createSurvey(org: TestUser): Promise<string> {
  const reply = await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
    title: TITLE,
    description: 'One visit per household.',
    questions: [
      { id: 'a', text: Q.a, type: QuestionType.select, compulsory: true, options: ['Yes', 'No'] },
      { id: 'b', text: Q.b, type: QuestionType.text, compulsory: true, showIf: { combine: 'all', conditions: [{ question: 'a', op: 'equals', value: 'Yes' }] } },
      { id: 'c', text: Q.c, type: QuestionType.number, compulsory: true, constraint: { min: 0, max: 120 } },
      { id: 'n', text: Q.note, type: QuestionType.note },
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

describe('form logic on the phone (issue 17)', () => {
  let b: Browser;
  let form: FieldUserFormPage;
  let surveyId: string;

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'rules-org');
    surveyId = await createSurvey(org);
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    b = await openBrowser(PHONE);
    form = new FieldUserFormPage(b.page, env.baseUrl);
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('hides B unless A is "Yes", refuses 150 for C with its message, and does not need a hidden compulsory question, offline after a reload', async () => {
    const { page, context } = b;
    await form.open(TITLE);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
    // The form is ready once its rules have loaded: the question that depends on A is hidden.
    await form.question(Q.c).waitFor();
    expect(await form.question(Q.b).count()).toBe(0);

    await context.setOffline(true);
    await page.reload();
    await form.title(TITLE).waitFor();
    await form.question(Q.c).waitFor();
    await expect.poll(() => page.getByText(Q.note).count()).toBe(1);

    // B shows when A is "Yes", disappears with its answer when A is "No".
    expect(await form.question(Q.b).count()).toBe(0);
    await form.choose(Q.a, 'Yes');
    await form.question(Q.b).waitFor();
    await form.fillText(Q.b, 'Ada');
    await form.choose(Q.a, 'No');
    await form.question(Q.b).waitFor({ state: 'detached' });
    await form.choose(Q.a, 'Yes');
    expect(await form.question(Q.b).getByRole('textbox').inputValue()).toBe('');
    await form.choose(Q.a, 'No');
    await form.question(Q.b).waitFor({ state: 'detached' });

    // 150 for a 0-120 number: the message shows under C and the submit is refused.
    await form.fillText(Q.c, '150');
    await form.question(Q.c).getByText('Must be between 0 and 120').waitFor();
    await form.submit();
    await toast(page, 'Must be between 0 and 120').waitFor();
    expect(await form.waiting().textContent()).not.toMatch(/saved on this phone/);

    // 34: accepted, although B (compulsory) is unanswered: it is hidden.
    await form.fillText(Q.c, '34');
    await form.question(Q.c).getByText('Must be between 0 and 120').waitFor({ state: 'detached' });
    await form.submit();
    await toast(page, Msg.expiredSaved).waitFor();
    await expect.poll(() => form.waiting().textContent()).toBe(`1 ${Msg.savedOnPhone}`);
    expect(serverAnswers(surveyId)).toHaveLength(0);

    await context.setOffline(false);
    await form.syncNow();
    await expect.poll(() => serverAnswers(surveyId), { timeout: 30_000 }).toEqual([{ [Q.a]: 'No', [Q.c]: '34' }]);
  });
});

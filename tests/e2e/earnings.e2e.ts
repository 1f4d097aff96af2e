import { randomUUID } from 'node:crypto';
import { QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const Q = { outlet: 'Outlet name', type: 'Outlet type' } as const;

async function apiGet<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

describe('earnings: review, fix and resubmit, payout, seen on the phone', () => {
  let b: Browser;
  let org: TestUser;
  let orgToken: string;
  let fieldUser: TestUser;
  let surveyId: string;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'earn-org');
    orgToken = await apiLogin(env, org);
    const created = await apiPost<{ survey: { _id: string; organization_id: string } }>(env, '/survey/create', {
      title: 'Shop census',
      description: 'One visit per shop.',
      payAfterReview: true,
      questions: [
        { text: Q.outlet, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.type, type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket'] },
      ],
    }, orgToken);
    surveyId = created.survey._id;
    fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    b = await openBrowser(PHONE);
    await new LoginPage(b.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
    // The response to review, filled in on this phone.
    const form = await new FieldUserFormPage(b.page, env.baseUrl).open('Shop census');
    await form.fillText(Q.outlet, 'Mama Pt Stores');
    await form.choose(Q.type, 'Kiosk');
    await form.submit();
  });
  afterAll(async () => {
    await b?.close();
  });

  it('shows a returned response with the comment once the phone syncs, sends the fix, and shows it paid', async () => {
    const { page, context } = b;
    const earnings = () => page.getByRole('list', { name: 'Your responses and their status' }).getByRole('listitem');
    await expect.poll(async () => (await apiGet<{ responses: { _id: string }[] }>(`/survey/organization/response/${surveyId}`, orgToken)).responses.length, { timeout: 30_000 }).toBe(1);
    const responseId = (await apiGet<{ responses: { _id: string }[] }>(`/survey/organization/response/${surveyId}`, orgToken)).responses[0]!._id;
    await page.getByRole('link', { name: 'Earnings' }).first().click();
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();
    await expect.poll(() => earnings().first().textContent()).toContain('Awaiting review');

    // Offline while the organization returns it: the phone still shows what it last heard.
    await context.setOffline(true);
    await apiPost(env, '/responses/review', { responseIds: [responseId], status: 'returned', comment: 'The outlet name is misspelt: it is Mama Put Stores' }, orgToken);
    await expect.poll(() => page.getByTestId('earnings-as-of').textContent()).toMatch(/As of .*offline/);
    expect(await earnings().first().textContent()).toContain('Awaiting review');

    // Signal again: the sync brings the return and the reviewer's comment.
    await context.setOffline(false);
    await expect.poll(() => earnings().first().textContent(), { timeout: 30_000 }).toContain('Returned to fix');
    expect(await earnings().first().textContent()).toContain('The outlet name is misspelt');
    await expect.poll(() => page.getByText('1 response needs a fix').count()).toBe(1);

    // The home says so, with the way to the fix; the Responses screen says returned, not 'received'.
    const form = new FieldUserFormPage(page, env.baseUrl);
    await page.getByRole('link', { name: 'Questions' }).first().click();
    await form.title('Shop census').waitFor();
    await expect.poll(() => page.getByTestId('returned').textContent()).toBe('1 response returned for fixing. Fix it');
    await form.openResponses();
    await expect.poll(() => form.records().first().getByTestId('delivery').textContent()).toBe('returned for fixing');
    await page.goto(`${env.baseUrl}/survey-bird/field-user`);
    await form.title('Shop census').waitFor();
    await page.getByTestId('returned').getByRole('link', { name: 'Fix it' }).click();
    await page.getByRole('heading', { name: 'Earnings' }).waitFor();

    // Fix and resubmit: the form opens pre-filled with the reviewer's comment on top.
    await earnings().first().getByRole('button', { name: 'Fix and resubmit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fix and resubmit' });
    await expect.poll(() => dialog.getByRole('note').textContent()).toContain('The outlet name is misspelt');
    const name = dialog.getByRole('group', { name: Q.outlet }).getByRole('textbox');
    expect(await name.inputValue()).toBe('Mama Pt Stores');
    await name.fill('Mama Put Stores');
    await dialog.getByRole('button', { name: 'Send the fix' }).click();
    await expect.poll(() => earnings().first().textContent(), { timeout: 30_000 }).toMatch(/Awaiting review.*revision 2/);

    // The organization sees revision 2 pending, approves it, pays it.
    const detail = await apiGet<{ status: string; revision: number; answers: Record<string, string>; revisions: { revision: number; status: string }[] }>(`/responses/${responseId}`, orgToken);
    expect(detail).toMatchObject({ status: 'pending', revision: 2, answers: { [Q.outlet]: 'Mama Put Stores' } });
    expect(detail.revisions.map((r) => [r.revision, r.status])).toEqual([[1, 'returned'], [2, 'pending']]);
    await apiPost(env, '/responses/review', { responseIds: [responseId], status: 'approved' }, orgToken);
    const payout = await apiPost<{ payout: { _id: string } }>(env, '/payouts', { survey_id: surveyId, key: randomUUID() }, orgToken);
    await apiPost(env, `/payouts/${payout.payout._id}/paid`, { reference: 'TRF-2026-0001' }, orgToken);

    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => earnings().first().getAttribute('data-status'), { timeout: 30_000 }).toBe('paid');
    const paidCard = page.getByLabel('Your earnings').locator('.earn-card--paid');
    await expect.poll(() => paidCard.textContent()).toContain('₦500');
    expect(await paidCard.textContent()).toContain('1 response');
    // Each time says what it is: the review and the payment are never called "Submitted"; the amount is the card's.
    await expect.poll(() => earnings().first().getByTestId('times').textContent()).toMatch(/^Submitted .* · Approved .* · Paid .*revision 2$/);
    expect(await earnings().first().textContent()).toContain('₦500');

    // A new phone: the list comes from the server, so it shows the response the cards count.
    const other = await openBrowser(PHONE);
    try {
      await new LoginPage(other.page, env.baseUrl).signIn(fieldUser.email, fieldUser.password);
      await other.page.goto(`${env.baseUrl}/survey-bird/field-user/earnings`);
      const list = other.page.getByRole('list', { name: 'Your responses and their status' }).getByRole('listitem');
      await expect.poll(() => list.count(), { timeout: 30_000 }).toBe(1);
      expect(await list.first().getAttribute('data-status')).toBe('paid');
      await expect.poll(() => other.page.getByRole('heading', { name: 'Your responses (1)' }).count(), { timeout: 30_000 }).toBe(1);
      expect(await list.first().getByTestId('times').textContent()).toMatch(/^Submitted .* · Approved .* · Paid /);
      await expect.poll(() => other.page.getByLabel('Your earnings').locator('.earn-card--paid').textContent()).toContain('1 response');
    } finally {
      await other.close();
    }

    // The Responses screen lists it once: the fix is its revision, not another response; it says paid.
    await form.openResponses();
    await expect.poll(() => form.records().count()).toBe(1);
    expect(await form.records().first().getByTestId('fix').textContent()).toMatch(/^Fixed .*: paid$/);
    expect(await form.records().first().getByTestId('delivery').textContent()).toBe('paid');
    expect(await page.getByTestId('returned').count()).toBe(0);
    expect(await form.records().first().textContent()).toContain('Mama Put Stores');
  });
});

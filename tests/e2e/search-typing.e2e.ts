import { QuestionType } from '@survey-bird/contracts';
import type { Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember } from './harness/users';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');
const OUTLETS = ['Ngozi Stores', 'Mango Kiosk', 'Unity Pharmacy', 'Nnamdi Foods'];

const post = <T>(path: string, body: unknown, token: string) => apiPost<T>(env, path, body, token);

/** The searchQuery of a responses-table request, or null for any other request. */
function searchOf(req: Request): string | null {
  const url = new URL(req.url());
  return url.pathname.includes('/survey/organization/response/') && !url.pathname.includes('/download/') ? url.searchParams.get('searchQuery') ?? '' : null;
}

describe('typing in the responses search', () => {
  let b: Browser;
  let insight: InsightPage;
  const asked: string[] = [];

  beforeAll(async () => {
    const org = await createOrganizationUser(env, 'typing');
    const token = await apiLogin(env, org);
    const { survey } = await post<{ survey: { _id: string; organization_id: string } }>('/survey/create', {
      title: 'Typing audit',
      description: 'Outlets to search while typing.',
      expectedResponseCount: 10,
      questions: [{ text: 'Outlet name', type: QuestionType.text, compulsory: true, options: [] }],
    }, token);
    const fieldUser = await apiLogin(env, await createTeamMember(env, org, survey._id, 'field-user'));
    for (const name of OUTLETS) await post('/survey/respond', { survey_id: survey._id, organization_id: survey.organization_id, answers: { 'Outlet name': name } }, fieldUser);
    b = await openBrowser();
    b.page.on('request', (req) => {
      const q = searchOf(req);
      if (q !== null) asked.push(q);
    });
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
    insight = await new InsightPage(b.page, env.baseUrl).open();
    await insight.waitForRows(OUTLETS.length);
  });
  afterAll(() => b?.close());

  const outletsShown = async () => (await insight.rows().allInnerTexts()).map((t) => OUTLETS.find((o) => t.includes(o))).sort();

  it('sends one request for "n", "ng", "ngo" typed quickly, and shows only its rows', async () => {
    asked.length = 0;
    const box = b.page.getByPlaceholder('Search anything...');
    await box.click();
    for (const key of 'ngo') await b.page.keyboard.type(key, { delay: 60 });
    await insight.waitForRows(2);
    // Polled: the count can match while the table is still swapping its rows in.
    await expect.poll(outletsShown, { timeout: 10_000 }).toEqual(['Mango Kiosk', 'Ngozi Stores']);
    expect(asked).toEqual(['ngo']);
    await box.fill('');
    await insight.waitForRows(OUTLETS.length);
  });

  it("never lets an older query's late reply overwrite a newer one's rows", async () => {
    // Hold the reply to "n" until "ngo" has been answered and shown, then let it through.
    let releaseN: () => void = () => {};
    const nHeld = new Promise<void>((resolve) => (releaseN = resolve));
    let nAborted = false;
    b.page.on('requestfailed', (req) => {
      if (searchOf(req) === 'n') nAborted = true;
    });
    const hold = async (route: Route) => {
      if (searchOf(route.request()) !== 'n') return route.continue();
      await nHeld;
      await route.continue().catch(() => {}); // the page may have cancelled it meanwhile
    };
    await b.page.route('**/api/v1/survey/organization/response/**', hold);
    try {
      asked.length = 0;
      const box = b.page.getByPlaceholder('Search anything...');
      await box.fill('n');
      await expect.poll(() => asked.includes('n')).toBe(true); // the debounce let "n" go out
      await b.page.keyboard.type('go', { delay: 60 });
      await insight.waitForRows(2);
      expect(await outletsShown()).toEqual(['Mango Kiosk', 'Ngozi Stores']);
      releaseN();
      await expect.poll(() => nAborted).toBe(true); // superseded, so cancelled
      await b.page.waitForTimeout(500);
      expect(await outletsShown()).toEqual(['Mango Kiosk', 'Ngozi Stores']);
      expect(asked).toEqual(['n', 'ngo']);
    } finally {
      releaseN();
      await b.page.unroute('**/api/v1/survey/organization/response/**', hold);
    }
  });
});

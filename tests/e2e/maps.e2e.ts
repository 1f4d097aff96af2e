import { QuestionType } from '@survey-bird/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOfficeUser, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');

async function apiGet<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * The maps: the organization's responses map with a filter and a click through to the response's
 * detail, the supervisor's map with only their team, and an uploaded PMTiles basemap drawn from
 * the API by range requests (made by code in the test tree; nothing is fetched from the internet).
 */
describe('maps', () => {
  let b: Browser;
  let org: TestUser;
  let supervisor: TestUser;
  let surveyId: string;
  let lagosMember: string;
  let lagos: TestUser;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'map-org');
    const orgToken = await apiLogin(env, org);
    const { survey } = await apiPost<{ survey: { _id: string; organization_id: string } }>(env, '/survey/create', {
      title: 'Outlet map',
      description: 'Where the outlets are.',
      questions: [
        { text: 'Outlet name', type: QuestionType.text, compulsory: true, options: [] },
        { text: 'Outlet location', type: QuestionType.liveLocation, compulsory: true, options: [] },
      ],
    }, orgToken);
    surveyId = survey._id;
    supervisor = await createTeamMember(env, org, surveyId, 'supervisor');
    lagos = await createTeamMember(env, org, surveyId, 'field-user');
    const abuja = await createTeamMember(env, org, surveyId, 'field-user');
    const fieldUsers = (await apiGet<{ fieldUsers: { _id: string; email: string }[] }>(`/field-user/${surveyId}`, orgToken)).fieldUsers;
    lagosMember = fieldUsers.find((f) => f.email === lagos.email)!._id;
    const [sup] = (await apiGet<{ supervisors: { _id: string }[] }>(`/supervisor/${surveyId}`, orgToken)).supervisors;
    await apiPost(env, '/supervisor/assign', { supervisorId: sup!._id, fieldUserId: lagosMember, survey_id: surveyId }, orgToken);
    const respond = async (user: TestUser, name: string, location: string) =>
      apiPost(env, '/survey/respond', { survey_id: surveyId, organization_id: survey.organization_id, answers: { 'Outlet name': name, 'Outlet location': location } }, await apiLogin(env, user));
    await respond(lagos, 'Balogun market stall', '6.45410, 3.39480 (±6 m)');
    await respond(abuja, 'Wuse market kiosk', '9.07650, 7.47120 (±8 m)');
    // Positions reach the map once the flag worker has checked the responses.
    for (let i = 0; i < 150 && (await apiGet<{ total: number }>(`/survey/${surveyId}/map?zoom=16`, orgToken)).total < 2; i++) await new Promise((r) => setTimeout(r, 200));
    b = await openBrowser();
  });
  afterAll(() => b?.close());

  it('the organization sees every located response, filters by field user and opens a response from the map', async () => {
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/map`);
    const dots = b.page.locator('.map-dot');
    await expect.poll(() => dots.count(), { timeout: 20_000 }).toBe(2);
    await b.page.getByRole('status').filter({ hasText: 'with a location in view' }).waitFor();
    // Without a basemap the map is a plain grid of coordinates.
    await b.page.locator('.leaflet-tile-pane canvas').first().waitFor();

    await b.page.getByLabel('Field user').selectOption(lagosMember);
    await expect.poll(() => dots.count(), { timeout: 20_000 }).toBe(1);
    await dots.first().click();
    const detail = b.page.getByRole('dialog');
    await detail.getByText('Balogun market stall').waitFor();
    await detail.getByRole('button', { name: /close/i }).first().click();

    await b.page.getByLabel('Status', { exact: true }).selectOption('rejected');
    await expect.poll(() => dots.count(), { timeout: 20_000 }).toBe(0);
    await b.page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => dots.count(), { timeout: 20_000 }).toBe(2);
  });

  it('the supervisor sees only their own team', async () => {
    const sb = await openBrowser();
    try {
      await new LoginPage(sb.page, env.baseUrl).signIn(supervisor.email, supervisor.password);
      await sb.page.goto(`${env.baseUrl}/survey-bird/supervisor/map`);
      const dots = sb.page.locator('.map-dot');
      await expect.poll(() => dots.count(), { timeout: 20_000 }).toBe(1);
      await dots.first().click();
      await sb.page.getByRole('dialog').getByText('Balogun market stall').waitFor();
      await sb.page.goto(`${env.baseUrl}/survey-bird/supervisor/team-map`);
      await sb.page.getByRole('cell', { name: 'Amina Bello' }).waitFor();
      expect(await sb.page.locator('.map-team__table tbody tr').count()).toBe(1);
      await expect.poll(() => sb.page.locator('.map-dot').count(), { timeout: 20_000 }).toBe(1);
    } finally {
      await sb.close();
    }
  });

  it('draws the uploaded PMTiles basemap, read from the API by range requests', async () => {
    // The archive is written by code in the API's test tree (apps/api/test/pmtiles.ts).
    const { makePmtiles } = (await import(new URL('../../apps/api/test/pmtiles.ts', import.meta.url).href)) as { makePmtiles: (o?: { maxZoom?: number }) => Buffer };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(makePmtiles({ maxZoom: 5 }))]), 'area.pmtiles');
    const res = await fetch(`${env.baseUrl}/api/v1/organization/basemap`, { method: 'POST', headers: { authorization: `Bearer ${await apiLogin(env, org)}` }, body: form });
    expect(res.status).toBe(200);
    const ranges: number[] = [];
    b.page.on('response', (r) => {
      if (r.url().includes('/api/v1/basemap/')) ranges.push(r.status());
    });
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/map`);
    await expect.poll(() => b.page.locator('.leaflet-tile-pane img[src^="blob:"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((s) => s === 206)).toBe(true);
    expect(await b.page.locator('.leaflet-tile-pane canvas').count()).toBe(0);
  });

  it("the field user keeps the area's map on the phone: after a reload offline, their points and the basemap's tiles still show", async () => {
    // The organization's archive was uploaded by the test before.
    const phone = await openBrowser(PHONE);
    try {
      const { page, context } = phone;
      await new LoginPage(page, env.baseUrl).signIn(lagos.email, lagos.password);
      await page.goto(`${env.baseUrl}/survey-bird/field-user/map`);
      await expect.poll(() => page.locator('.map-dot').count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);
      await page.getByLabel('Keep the map of my area on this phone').click();
      await page.getByRole('status').filter({ hasText: 'Kept on this phone' }).waitFor();

      await context.setOffline(true);
      await page.reload();
      await page.getByRole('status').filter({ hasText: /^Offline: 1 response with a location, saved/ }).waitFor({ timeout: 20_000 });
      await expect.poll(() => page.locator('.map-dot').count(), { timeout: 20_000 }).toBe(1);
      // The tiles come from the kept archive (range requests answered by the service worker).
      await expect.poll(() => page.locator('.leaflet-tile-pane img[src^="blob:"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      expect(await page.getByLabel('Keep the map of my area on this phone').isChecked()).toBe(true);
      await context.setOffline(false);
    } finally {
      await phone.close();
    }
  });

  it("an analyst sees counts per area, never a response's place, and is told why", async () => {
    const analyst = await createOfficeUser(env, org, 'analyst');
    const ab = await openBrowser();
    try {
      await new LoginPage(ab.page, env.baseUrl).signIn(analyst.email, analyst.password);
      await ab.page.goto(`${env.baseUrl}/survey-bird/organization/map`);
      await ab.page.getByRole('note').filter({ hasText: "Respondents' locations are personal data, hidden for your office role" }).waitFor();
      await expect.poll(() => ab.page.locator('.map-cluster').count(), { timeout: 20_000 }).toBe(2);
      // Zoomed to the street, still areas: no point to open.
      await ab.page.locator('.map-cluster').first().click();
      await ab.page.locator('.map-cluster').first().click();
      await ab.page.getByRole('status').filter({ hasText: 'counted per area' }).waitFor();
      expect(await ab.page.locator('.map-dot').count()).toBe(0);
    } finally {
      await ab.close();
    }
  });
});

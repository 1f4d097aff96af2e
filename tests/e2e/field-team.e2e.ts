import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createSurvey, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { LoginPage } from './pages/LoginPage';
import { FieldUsersPage, SupervisorFieldUsersPage } from './pages/Management';

const env = inject('env');

async function apiGet<T>(path: string, token: string): Promise<T> {
  const res = await fetch(`${env.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Field-team monitoring settings (issue 18): the organization sets how many days without a sync
 * mark a field user holding work, both field-user pages follow it, and a supervisor turns the daily
 * sync e-mail off from their Settings.
 */
describe('field-team monitoring settings', () => {
  let b: Browser;
  let org: TestUser;
  let supervisor: TestUser;
  let surveyId: string;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'team-org');
    surveyId = await createSurvey(env, org, 'Sync watch');
    supervisor = await createTeamMember(env, org, surveyId, 'supervisor');
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    const orgToken = await apiLogin(env, org);
    const [fu] = (await apiGet<{ fieldUsers: { _id: string }[] }>(`/field-user/${surveyId}`, orgToken)).fieldUsers;
    const [sup] = (await apiGet<{ supervisors: { _id: string }[] }>(`/supervisor/${surveyId}`, orgToken)).supervisors;
    await apiPost(env, '/supervisor/assign', { supervisorId: sup!._id, fieldUserId: fu!._id, survey_id: surveyId }, orgToken);
    // The phone holds 2 responses and last synced 4 days ago.
    await apiPost(env, '/me/device', { deviceId: 'e2e-phone', appVersion: '1', waiting: 2, failed: 0, photosWaiting: 0, lastSyncAt: new Date(Date.now() - 4 * 86_400_000).toISOString() }, await apiLogin(env, fieldUser));
    b = await openBrowser();
  });
  afterAll(() => b?.close());

  it('the organization raises the threshold to 5 days and the field user is no longer highlighted', async () => {
    await new LoginPage(b.page, env.baseUrl).signIn(org.email, org.password);
    const page = await new FieldUsersPage(b.page, env.baseUrl).open();
    const row = await page.row('Amina Bello');
    await row.locator('.sync-overdue', { hasText: 'work waiting' }).waitFor();

    const days = b.page.getByRole('spinbutton', { name: /no sync for/ });
    expect(await days.inputValue()).toBe('3');
    await days.fill('5');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(b.page, 'no sync for 5 days are now highlighted').waitFor();
    await expect.poll(() => row.locator('.sync-overdue').count()).toBe(0);
    expect((await apiGet<{ organization: { staleSyncDays: number } }>('/organization', await apiLogin(env, org))).organization.staleSyncDays).toBe(5);
  });

  it("the supervisor's page follows it, and the supervisor turns the daily e-mail off in Settings", async () => {
    await new LoginPage(b.page, env.baseUrl).signIn(supervisor.email, supervisor.password);
    await new SupervisorFieldUsersPage(b.page, env.baseUrl).open();
    await b.page.getByText('no sync for 5 days (your organization\'s setting)').waitFor();
    expect(await b.page.locator('.sync-overdue').count()).toBe(0);

    const openSettings = () => b.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Settings/ }).click();
    await openSettings();
    const dialog = b.page.getByRole('dialog', { name: 'Supervisor settings' });
    const toggle = dialog.getByRole('switch', { name: 'Daily sync e-mail' });
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await toast(b.page, 'The daily sync e-mail is off').waitFor();
    expect(await apiGet<{ syncDigest: boolean }>('/me/supervisor-settings', await apiLogin(env, supervisor))).toEqual({ syncDigest: false });

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await openSettings();
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
  });
});

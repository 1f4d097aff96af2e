import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { openBrowser, type Browser } from './harness/browser';
import { createOrganizationUser, createSurvey, createTeamMember, createUninvitedUser } from './harness/users';
import { LoginPage } from './pages/LoginPage';

const env = inject('env');

describe('accessibility of the account screens', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(() => b?.close());

  const publicScreens = ['/', '/login', '/register?email=new%40e2e.test', '/reset-password?token=abc&email=new%40e2e.test'];
  it.each(publicScreens)('%s has no serious violations', async (path) => {
    await b.page.goto(`${env.baseUrl}${path}`);
    await b.page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('login with the Send Refresh Token dialog open has no serious violations', async () => {
    await new LoginPage(b.page, env.baseUrl).open();
    await b.page.getByRole('button', { name: 'Forgot Password?' }).click();
    await b.page.getByRole('dialog', { name: 'Send Refresh Token' }).waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('manage-account, the role screens and the welcome page have no serious violations', async () => {
    const [org, newcomer] = await Promise.all([createOrganizationUser(env, 'a11y'), createUninvitedUser(env)]);
    const login = new LoginPage(b.page, env.baseUrl);
    await login.signIn(org.email, org.password);
    await b.page.goto(`${env.baseUrl}/manage-account`);
    await b.page.getByRole('heading', { name: 'Your Sessions' }).waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);
    await b.page.goto(`${env.baseUrl}/survey-bird/organization/insight`);
    await b.page.getByRole('heading', { name: 'Insight' }).waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);

    await login.signIn(newcomer.email, newcomer.password);
    await b.page.goto(`${env.baseUrl}/welcome-page`);
    await b.page.getByRole('heading', { name: 'Welcome to Survey Bird' }).waitFor();
    expect(await seriousViolations(b.page)).toEqual([]);
  });

  it('the field user form and responses, the team screens and the master admin organizations have no serious violations', async () => {
    const org = await createOrganizationUser(env, 'a11y-team');
    const surveyId = await createSurvey(env, org, 'Accessible survey');
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    const { page } = b;
    const login = new LoginPage(page, env.baseUrl);

    await login.signIn(fieldUser.email, fieldUser.password);
    await page.getByRole('heading', { level: 1, name: 'Accessible survey' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A refused submit: the marks under each missing question must stay readable too.
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.q--invalid').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${env.baseUrl}/survey-bird/field-user/response`);
    await page.getByRole('heading', { name: 'Responses' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await login.signIn(org.email, org.password);
    for (const [link, heading] of [['Manage Field Users', /Field Users/], ['Manage Supervisors', /Supervisors/], ['Surveys', 'Manage Survey']] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
      expect(await seriousViolations(page)).toEqual([]);
    }

    await login.signIn(env.adminEmail, env.adminPassword);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.locator('table[aria-busy="false"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

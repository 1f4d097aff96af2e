#!/usr/bin/env node
// Saves every screen at 1280x800 and 390x844 into .e2e/screenshots/ (git-ignored), against the
// real server and the built PWA: `npm run build && node tests/e2e/screenshots.mjs [filter]`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { startServer, repoRoot } = await import('./harness/server.ts');
const { openBrowser, DESKTOP, PHONE } = await import('./harness/browser.ts');
const users = await import('./harness/users.ts');

const filter = process.argv[2];
const outDir = join(repoRoot, '.e2e/screenshots');
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const env = { baseUrl: server.baseUrl, dataDir: server.dataDir, adminEmail: server.adminEmail, adminPassword: server.adminPassword };
const admin = { email: env.adminEmail, password: env.adminPassword };

try {
  const org = await users.createOrganizationUser(env, 'ada');
  const surveyId = await users.createSurvey(env, org);
  const [fieldUser, supervisor, newcomer] = await Promise.all([
    users.createTeamMember(env, org, surveyId, 'field-user'),
    users.createTeamMember(env, org, surveyId, 'supervisor'),
    users.createUninvitedUser(env),
  ]);
  const tokens = {
    org: await users.apiLogin(env, org),
    fieldUser: await users.apiLogin(env, fieldUser),
    supervisor: await users.apiLogin(env, supervisor),
    admin: await users.apiLogin(env, admin),
    newcomer: await users.apiLogin(env, newcomer),
  };
  const as = (...list) => list.map(([user, token]) => ({ user: user.email, token }));

  // The field user's earnings: one response paid, one approved, one returned with a comment.
  const { organization_id: orgId } = (await (await fetch(`${env.baseUrl}/api/v1/survey/field-user`, { headers: { authorization: `Bearer ${tokens.fieldUser}` } })).json()).survey[0];
  const sent = [];
  for (const answer of ['Yes', 'No', 'Yes']) sent.push((await users.apiPost(env, '/survey/respond', { survey_id: surveyId, organization_id: orgId, answers: { 'Is the pump working?': answer }, clientId: crypto.randomUUID() }, tokens.fieldUser))._id);
  await users.apiPost(env, '/responses/review', { responseIds: [sent[1]], status: 'returned', comment: 'The pump in the photo is the one at the school, not this water point: answer for this pump.' }, tokens.org);
  const payout = await users.apiPost(env, '/payouts', { survey_id: surveyId, key: crypto.randomUUID() }, tokens.org);
  await users.apiPost(env, `/payouts/${payout.payout._id}/paid`, { reference: 'TRF-0001' }, tokens.org);
  await users.apiPost(env, '/survey/respond', { survey_id: surveyId, organization_id: orgId, answers: { 'Is the pump working?': 'No' }, clientId: crypto.randomUUID() }, tokens.fieldUser);
  const earningsLoaded = (p) => p.locator('.earn-status--returned').first().waitFor({ timeout: 15_000 });

  /** name, path, accounts to store (first is active), optional action before the shot. */
  const shots = [
    ['landing', '/', []],
    ['landing-products', '/?showMicroservices=true', as([org, tokens.org])],
    ['landing-demo-dialog', '/', [], (p) => p.getByRole('button', { name: 'Request Demo' }).first().click()],
    ['login', '/login', []],
    ['login-error-toast', '/login', [], (p) => p.getByRole('button', { name: 'Login' }).click()],
    ['login-forgot-dialog', '/login?email=ada%40example.com', [], (p) => p.getByRole('button', { name: 'Forgot Password?' }).click()],
    ['register', '/register?email=new.person%40example.com', []],
    ['reset-password', '/reset-password?token=abc&email=ada%40example.com', []],
    ['manage-account', '/manage-account', as([org, tokens.org], [fieldUser, tokens.fieldUser], [supervisor, tokens.supervisor])],
    ['manage-account-confirm', '/manage-account', as([org, tokens.org], [fieldUser, tokens.fieldUser]), (p) => p.getByRole('button', { name: 'Sign out from all accounts' }).click()],
    ['welcome-page', '/welcome-page', as([newcomer, tokens.newcomer])],
    ['org-insight', '/survey-bird/organization/insight', as([org, tokens.org])],
    ['org-account-menu', '/survey-bird/organization/insight', as([org, tokens.org], [supervisor, tokens.supervisor]), (p) => p.locator('header .account-btn').click()],
    ['org-surveys', '/survey-bird/organization/manage', as([org, tokens.org])],
    ['org-survey-details', '/survey-bird/organization/manage', as([org, tokens.org]), (p) => p.getByRole('button', { name: 'Water point census', exact: true }).click()],
    ['org-create', '/survey-bird/organization/create', as([org, tokens.org])],
    ['org-field-users', '/survey-bird/organization/field-users', as([org, tokens.org])],
    ['org-supervisors', '/survey-bird/organization/supervisors', as([org, tokens.org])],
    ['supervisor-insight', '/survey-bird/supervisor/insight', as([supervisor, tokens.supervisor])],
    ['supervisor-field-users', '/survey-bird/supervisor/field-user/manage', as([supervisor, tokens.supervisor])],
    ['field-user', '/survey-bird/field-user', as([fieldUser, tokens.fieldUser])],
    ['field-user-settings', '/survey-bird/field-user', as([fieldUser, tokens.fieldUser]), (p) => p.getByRole('button', { name: /Field user settings|Settings/ }).click()],
    ['field-user-response', '/survey-bird/field-user/response', as([fieldUser, tokens.fieldUser])],
    ['field-user-earnings', '/survey-bird/field-user/earnings', as([fieldUser, tokens.fieldUser]), earningsLoaded],
    ['field-user-fix', '/survey-bird/field-user/earnings', as([fieldUser, tokens.fieldUser]), async (p) => {
      await earningsLoaded(p);
      await p.getByRole('button', { name: 'Fix and resubmit' }).click();
    }],
    ['master-admin', '/survey-bird/master-admin', as([admin, tokens.admin])],
    ['master-admin-users', '/survey-bird/master-admin/users', as([admin, tokens.admin])],
    ['master-admin-field-users', '/survey-bird/master-admin/field-users', as([admin, tokens.admin])],
    ['master-admin-mail', '/survey-bird/master-admin/mail', as([admin, tokens.admin])],
    ['not-found', '/no-such-page', []],
  ].filter(([name]) => !filter || name.includes(filter));

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const b = await openBrowser(viewport);
    try {
      await b.page.goto(`${env.baseUrl}/login`);
      for (const [name, path, accounts, action] of shots) {
        await b.page.evaluate((value) => {
          if (value.length) localStorage.setItem('accounts', value === '[]' ? '[]' : JSON.stringify(value));
          else localStorage.removeItem('accounts');
        }, accounts);
        await b.page.goto(`${env.baseUrl}${path}`);
        await b.page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 10_000 }).catch(() => undefined);
        if (action) await action(b.page);
        await b.page.waitForTimeout(action || name.startsWith("landing") ? 1100 : 150);
        const file = join(outDir, `${name}-${label}.png`);
        await b.page.screenshot({ path: file, fullPage: name === 'landing' });
        console.log(`saved ${file}`);
        if (name === 'landing') {
          // The long page again in screen-sized slices, readable at full resolution.
          const height = await b.page.evaluate(() => document.documentElement.scrollHeight);
          for (let y = 0, i = 1; y < height; y += viewport.height, i++) {
            const clip = { x: 0, y, width: viewport.width, height: Math.min(viewport.height, height - y) };
            await b.page.screenshot({ path: join(outDir, `${name}-${label}-part${i}.png`), fullPage: true, clip });
          }
        }
      }
    } finally {
      await b.close();
    }
  }
} finally {
  await server.stop();
}

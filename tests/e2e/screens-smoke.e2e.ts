import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE } from './harness/browser';
import { startServer, type RunningServer } from './harness/server';
import { apiLogin, createUninvitedUser, createUnverifiedUser, mailedLink, type Env, type TestUser } from './harness/users';
import { pathOf } from './pages/app';
import { LoginPage } from './pages/LoginPage';
import { appPaths, ScreenWatch, SidePaneNav } from './pages/Screens';

// A server of its own with the demo seeded (DATA_DIR/demo-logins.json): the screens as `npm start` shows them, with data.
let server: RunningServer;
let env: Env;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: 'true' });
  env = { baseUrl: server.baseUrl, dataDir: server.dataDir, adminEmail: server.adminEmail, adminPassword: server.adminPassword };
});
afterAll(() => server?.stop());

/** Who opens each screen of the route table. A path missing here fails the run: a new screen cannot go unvisited. */
type Who = 'signed out' | 'nothing' | 'organization' | 'supervisor' | 'field_user' | 'master_admin';
const SIGNED_IN: readonly Who[] = ['organization', 'supervisor', 'field_user', 'master_admin', 'nothing'];
const SCREENS: Record<string, Who | 'every signed-in role'> = {
  landing: 'signed out', login: 'signed out', register: 'signed out', confirmEmail: 'signed out', resetPassword: 'signed out',
  manageAccount: 'every signed-in role', welcome: 'nothing',
  orgInsight: 'organization', orgSurveys: 'organization', orgCreateSurvey: 'organization', orgEditSurvey: 'organization',
  orgFieldUsers: 'organization', orgSupervisors: 'organization', orgPayouts: 'organization', orgWebhooks: 'organization', orgFieldUsersAlias: 'organization', orgSupervisorsAlias: 'organization', orgMap: 'organization', orgTeamMap: 'organization', orgOfficeUsers: 'organization', orgAudit: 'organization', orgBankChanges: 'organization', orgDeactivated: 'organization', orgBackchecks: 'organization', orgRespondents: 'organization', orgTokens: 'organization',
  supervisorInsight: 'supervisor', supervisorFieldUsers: 'supervisor', supervisorPayouts: 'supervisor', supervisorMap: 'supervisor', supervisorTeamMap: 'supervisor', supervisorBackchecks: 'supervisor',
  fieldUser: 'field_user', fieldUserResponse: 'field_user', fieldUserEarnings: 'field_user', fieldUserMap: 'field_user', fieldUserBank: 'field_user', fieldUserBackchecks: 'field_user',
  masterAdmin: 'master_admin', masterAdminUsers: 'master_admin', masterAdminFieldUsers: 'master_admin', masterAdminMail: 'master_admin',
};

const PATHS = appPaths();
const visited = new Set<string>();

/** The seeded demo users the server printed (DATA_DIR/demo-logins.json); the master admin is the harness's. */
function demoUser(role: Who): TestUser {
  if (role === 'master_admin') return { email: env.adminEmail, password: env.adminPassword };
  const logins = JSON.parse(readFileSync(join(env.dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
  const login = logins.find((l) => l.role === role);
  if (!login) throw new Error(`no demo ${role} in demo-logins.json`);
  return login;
}

async function firstSurveyId(e: Env): Promise<string> {
  const token = await apiLogin(e, demoUser('organization'));
  const res = await fetch(`${e.baseUrl}/api/v1/survey/organization`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { survey: { _id: string }[] }).survey[0]!._id;
}

/** The address to open for a route: its parameters filled with real ones, its expected query added. (A confirmed e-mail goes on to Sign In.) */
async function addressOf(key: string): Promise<{ url: string; path: string }> {
  const path = PATHS[key]!;
  if (key === 'confirmEmail') {
    const user = await createUnverifiedUser(env);
    const link = new URL(mailedLink(env, user.email, '/confirm-email/'));
    return { url: link.pathname, path: link.pathname };
  }
  if (key === 'orgEditSurvey') {
    const filled = path.replace('$surveyId', await firstSurveyId(env));
    return { url: filled, path: filled };
  }
  if (key === 'register') return { url: `${path}?email=new%40e2e.test`, path };
  if (key === 'resetPassword') return { url: `${path}?token=abc&email=new%40e2e.test`, path };
  return { url: path, path };
}

const keysFor = (who: Who) => Object.keys(PATHS).filter((k) => SCREENS[k] === who || (SCREENS[k] === 'every signed-in role' && who !== 'signed out'));

describe.each([['390 px', PHONE], ['1280 px', DESKTOP]] as const)('every screen of the built app at %s', (_label, viewport) => {
  it('the route table and this test name the same screens', () => {
    expect(Object.keys(PATHS).length).toBeGreaterThan(20);
    expect(Object.keys(PATHS).filter((k) => !(k in SCREENS))).toEqual([]);
  });

  it.each(['signed out', ...SIGNED_IN] as const)('%s: each screen renders, and each side-pane panel opens, with no error', async (who) => {
    const b = await openBrowser(viewport);
    try {
      const { page } = b;
      const watch = new ScreenWatch(page);
      const failures: string[] = [];
      if (who !== 'signed out') {
        const user = who === 'nothing' ? await createUninvitedUser(env) : demoUser(who);
        await new LoginPage(page, env.baseUrl).signIn(user.email, user.password);
        await watch.settle();
        failures.push(...(await watch.take()).map((p) => `sign-in: ${p}`));
      }
      for (const key of keysFor(who)) {
        const { url, path } = await addressOf(key);
        await watch.visit(env.baseUrl, url);
        if ((await pathOf(page)) !== (key === 'confirmEmail' ? PATHS.login : path)) failures.push(`${key}: sent on to ${await pathOf(page)}`);
        failures.push(...(await watch.take()).map((p) => `${key}: ${p}`));
        // Each panel straight after a fresh load: the panel's code is then the first of its chunk to run.
        const nav = new SidePaneNav(page);
        if (viewport === PHONE) failures.push(...(await nav.cutLabels()).map((l) => `${key}: tab label cut: ${l}`));
        const panels = who === 'signed out' || key === 'manageAccount' || key === 'welcome' ? [] : await nav.panelButtons();
        for (const label of panels) {
          await watch.visit(env.baseUrl, url);
          await nav.openPanel(label).catch((err: Error) => failures.push(`${key}, panel ${label}: ${err.message.split('\n')[0]}`));
          failures.push(...(await watch.take()).map((p) => `${key}, panel ${label}: ${p}`));
        }
        visited.add(key);
      }
      expect(failures).toEqual([]);
    } finally {
      await b.close();
    }
  });

  afterAll(() => {
    // Every path of the route table was opened (the per-role tests above ran).
    expect([...Object.keys(PATHS)].filter((k) => !visited.has(k))).toEqual([]);
  });
});

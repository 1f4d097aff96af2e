import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** What the tests know about the running server (provided by global-setup.ts). */
export interface Env {
  baseUrl: string;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
}

export interface TestUser {
  email: string;
  password: string;
}

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@e2e.test`;

/** A POST to the API with a token, for setting up what a test needs; a non-2xx reply throws. */
export async function apiPost<T>(env: Env, path: string, body: unknown, token: string): Promise<T> {
  const res = await post(env, path, body, token);
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function post(env: Env, path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${env.baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

export async function apiLogin(env: Env, user: TestUser): Promise<string> {
  const res = await post(env, '/user/login', user);
  if (!res.ok) throw new Error(`login ${user.email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** GET /user with a token: 200 while the session lives, 401 once it is revoked. */
export async function currentUserStatus(env: Env, token: string): Promise<number> {
  const res = await fetch(`${env.baseUrl}/api/v1/user`, { headers: { authorization: `Bearer ${token}` } });
  return res.status;
}

/** The newest link mailed to `email` that contains `part` (the outbox is the mail_outbox table). */
export function mailedLink(env: Env, email: string, part: string): string {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare('select link from mail_outbox where to_email = ? and link like ? order by created_at desc limit 1')
      .get(email, `%${part}%`) as { link: string } | undefined;
    if (!row) throw new Error(`no mail to ${email} with a link containing ${part}`);
    return row.link;
  } finally {
    db.close();
  }
}

/** A registered user who never opened the verification link. */
export async function createUnverifiedUser(env: Env): Promise<TestUser> {
  const user = { email: uniqueEmail('unverified'), password: 'unverified-password-1' };
  const reg = await post(env, '/user/register', user);
  if (!reg.ok) throw new Error(`register ${user.email}: ${reg.status} ${await reg.text()}`);
  return user;
}

/**
 * Registers as a real user would: an invited e-mail from its invitation link (the link's `invite`
 * token proves the mailbox, so the account is verified at once); anyone else, then the
 * confirmation link mailed to them.
 */
async function registerAndVerify(env: Env, user: TestUser): Promise<void> {
  const invite = invitationToken(env, user.email);
  const reg = await post(env, '/user/register', invite ? { ...user, invite } : user);
  if (!reg.ok) throw new Error(`register ${user.email}: ${reg.status} ${await reg.text()}`);
  if (invite) return;
  const link = mailedLink(env, user.email, '/confirm-email/');
  const verify = await fetch(`${env.baseUrl}/api/v1/user/${link.split('/confirm-email/')[1]}`);
  if (!verify.ok) throw new Error(`verify ${user.email}: ${verify.status} ${await verify.text()}`);
}

/** The `invite` token of the newest invitation mailed to `email`, or null when none was sent. */
function invitationToken(env: Env, email: string): string | null {
  try {
    return new URL(mailedLink(env, email, 'invite=')).searchParams.get('invite');
  } catch {
    return null;
  }
}

/** A verified organization owner: the master admin adds the organization, the owner registers and confirms. */
export async function createOrganizationUser(env: Env, prefix = 'org'): Promise<TestUser> {
  const user = { email: uniqueEmail(prefix), password: 'org-password-1' };
  const admin = await apiLogin(env, { email: env.adminEmail, password: env.adminPassword });
  const res = await post(env, '/organization', { organizationName: `Org ${user.email.slice(0, 12)}`, email: user.email }, admin);
  if (!res.ok) throw new Error(`create organization: ${res.status} ${await res.text()}`);
  await registerAndVerify(env, user);
  return user;
}

/** A verified user nobody invited: role `nothing` (the welcome page). */
export async function createUninvitedUser(env: Env): Promise<TestUser> {
  const user = { email: uniqueEmail('new'), password: 'new-password-1' };
  await registerAndVerify(env, user);
  return user;
}

/** A published one-question survey of the organization; returns its id. */
export async function createSurvey(env: Env, org: TestUser, title = 'Water point census'): Promise<string> {
  const token = await apiLogin(env, org);
  const res = await post(env, '/survey/create', { title, description: 'Condition of every public water point in the ward.', questions: [{ text: 'Is the pump working?', type: 'select', compulsory: true, options: ['Yes', 'No'] }] }, token);
  if (!res.ok) throw new Error(`create survey: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { survey: { _id: string } }).survey._id;
}

/** A verified office user of `org`'s organization with an office role (analyst, reviewer, ...). */
export async function createOfficeUser(env: Env, org: TestUser, role: 'admin' | 'analyst' | 'finance' | 'reviewer'): Promise<TestUser> {
  const user = { email: uniqueEmail(role), password: `${role}-password-1` };
  const res = await post(env, '/organization/office-users', { email: user.email, role }, await apiLogin(env, org));
  if (!res.ok) throw new Error(`invite ${role}: ${res.status} ${await res.text()}`);
  await registerAndVerify(env, user);
  return user;
}

/** A verified field user or supervisor invited by `org` to the survey. */
export async function createTeamMember(env: Env, org: TestUser, surveyId: string, role: 'field-user' | 'supervisor', extra: Record<string, unknown> = {}): Promise<TestUser> {
  const user = { email: uniqueEmail(role), password: `${role}-password-1` };
  const token = await apiLogin(env, org);
  const res = await post(env, `/${role}`, {
    survey_id: surveyId,
    fullName: role === 'supervisor' ? 'Chidi Okafor' : 'Amina Bello',
    email: user.email,
    phoneNumber: '08030000000',
    accountNumber: '0123456789',
    accountName: 'Test Account',
    bank: 'Access Bank',
    ...(role === 'field-user' ? { rate: 500 } : {}),
    ...extra,
  }, token);
  if (!res.ok) throw new Error(`invite ${role}: ${res.status} ${await res.text()}`);
  await registerAndVerify(env, user);
  return user;
}

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Database, UserRow } from '../../db/schema.js';
import { contains } from '../../db/sql.js';
import type { Page } from '../../http/paging.js';

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async hasMasterAdmin(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('role', '=', Role.masterAdmin).executeTakeFirst();
    return row !== undefined;
  }

  /** The role an e-mail was invited to: an office membership (or an organization's owner e-mail) first, else its latest survey invitation. */
  async invitedRole(email: string): Promise<string> {
    const office = await this.db.selectFrom('office_users').select('id').where('email', '=', email).executeTakeFirst();
    if (office) return Role.organization;
    const org = await this.db.selectFrom('organizations').select('id').where('email', '=', email).executeTakeFirst();
    if (org) return Role.organization;
    const member = await this.db.selectFrom('members').select('role').where('email', '=', email).where('withdrawn_at', 'is', null).orderBy('created_at', 'desc').executeTakeFirst();
    return member?.role ?? Role.nothing;
  }

  async createUser(user: { email: string; passwordHash: string; role: string; verified: boolean; fullName?: string | null; language?: string }): Promise<UserRow> {
    const row = {
      id: randomUUID(),
      email: user.email,
      password_hash: user.passwordHash,
      role: user.role,
      verified: user.verified ? 1 : 0,
      full_name: user.fullName ?? null,
      created_at: Date.now(),
      language: user.language ?? 'en',
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(row).execute();
      await trx.updateTable('members').set({ user_id: row.id }).where('email', '=', row.email).where('user_id', 'is', null).execute();
    });
    return row;
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  }

  async setVerified(userId: string): Promise<void> {
    await this.db.updateTable('users').set({ verified: 1 }).where('id', '=', userId).execute();
  }

  async setLanguage(userId: string, language: string): Promise<void> {
    await this.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
  }

  /** The app language of the account with this e-mail, for mails; English when there is no account yet (an invitation). */
  async languageOf(email: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select('language').where('email', '=', email).executeTakeFirst();
    return row?.language;
  }

  async setRole(userId: string, role: string): Promise<void> {
    await this.db.updateTable('users').set({ role }).where('id', '=', userId).execute();
  }

  /** An organization account's office membership: its organization and office role (the owner e-mail of an organization without memberships is its owner). */
  async officeOf(email: string): Promise<{ organizationId: string; officeRole: string } | undefined> {
    const member = await this.db.selectFrom('office_users').select(['organization_id', 'role']).where('email', '=', email).executeTakeFirst();
    if (member) return { organizationId: member.organization_id, officeRole: member.role };
    const owned = await this.db.selectFrom('organizations as o').select('o.id').where('o.email', '=', email)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('office_users as x').select('x.id').whereRef('x.organization_id', '=', 'o.id')))).executeTakeFirst();
    return owned && { organizationId: owned.id, officeRole: 'owner' };
  }

  async createSession(userId: string, userAgent: string, ttlMs: number): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await this.db.insertInto('sessions').values({ id, user_id: userId, user_agent: userAgent.slice(0, 300), created_at: now, expires_at: now + ttlMs, revoked_at: null }).execute();
    return id;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: Date.now() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  }

  async revokeSessions(userId: string, exceptSessionId?: string): Promise<void> {
    let q = this.db.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
  }

  async createLinkToken(id: string, userId: string, kind: 'verify' | 'reset', ttlMs: number): Promise<void> {
    const now = Date.now();
    await this.db.insertInto('auth_tokens').values({ id, user_id: userId, kind, created_at: now, expires_at: now + ttlMs, used_at: null }).execute();
  }

  findLinkToken(id: string, kind: 'verify' | 'reset') {
    return this.db.selectFrom('auth_tokens').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  }

  /** Marks the token used; false when another request used it first (single use under races). */
  async consumeLinkToken(id: string): Promise<boolean> {
    const result = await this.db.updateTable('auth_tokens').set({ used_at: Date.now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every unused link of this kind for the user becomes used: a new password ends all outstanding resets. */
  async consumeAllLinkTokens(userId: string, kind: 'verify' | 'reset'): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ used_at: Date.now() }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
  }

  async listUsers(page: Page, search: string) {
    let q = this.db.selectFrom('users').leftJoin('organizations', 'organizations.email', 'users.email');
    if (search) q = q.where((eb) => eb.or([contains('users.email', search), contains('users.full_name', search)]));
    const [rows, total] = await Promise.all([
      q.select(['users.id', 'users.email', 'users.role', 'users.verified', 'users.created_at', 'organizations.name as organization_name'])
        .orderBy('users.created_at', 'desc').orderBy('users.id').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const invitedTo = await this.invitingOrganizations(rows.filter((r) => r.organization_name === null).map((r) => r.email));
    return { rows: rows.map((r) => ({ ...r, organization_name: r.organization_name ?? invitedTo.get(r.email) ?? null })), total: Number(total.n) };
  }

  /** Per e-mail, the names of the organizations that invited it as field user or supervisor, joined by ', '. */
  private async invitingOrganizations(emails: string[]): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows = await this.db.selectFrom('members').innerJoin('organizations', 'organizations.id', 'members.organization_id')
      .select(['members.email', 'organizations.name']).distinct()
      .where('members.email', 'in', emails).orderBy('organizations.name').execute();
    const names = new Map<string, string[]>();
    for (const r of rows) names.set(r.email, [...(names.get(r.email) ?? []), r.name]);
    return new Map([...names].map(([email, list]) => [email, list.join(', ')]));
  }
}

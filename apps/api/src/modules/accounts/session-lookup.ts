import type { Statement } from 'better-sqlite3';
import { OFFICE_ROLES, OfficeRole } from '@survey-bird/contracts';
import type { Db } from '../../db/database.js';
import { RowCache } from '../../db/row-cache.js';
import type { UserRow } from '../../db/schema.js';
import type { Membership, SurveyScope } from '../../plugins/auth.js';

export interface SessionUser {
  user: UserRow;
  revokedAt: number | null;
  expiresAt: number;
  /** An organization account's office membership; null for every other account, and for one without. */
  membership: Membership | null;
}

type Row = UserRow & { revoked_at: number | null; expires_at: number; organization_id: string | null; office_role: string | null; survey_ids: string | null };

/**
 * The membership by e-mail; else, for an organization with no membership at all (created by an
 * older instance during a rolling deploy), its owner e-mail as owner. An organization that has
 * memberships never falls back: a removed owner whose e-mail is the organization's stays removed.
 */
const SQL = `select users.*, sessions.revoked_at, sessions.expires_at,
    coalesce(office_users.organization_id, organizations.id) as organization_id, office_users.role as office_role, office_users.survey_ids
  from sessions join users on users.id = sessions.user_id
  left join office_users on office_users.email = users.email and users.role = 'organization'
  left join organizations on office_users.id is null and organizations.email = users.email and users.role = 'organization'
    and not exists (select 1 from office_users x where x.organization_id = organizations.id)
  where sessions.id = ? and sessions.user_id = ?`;

/**
 * The one query every authenticated request needs. On SQLite it keeps a prepared statement on the
 * raw handle (Kysely re-prepares each time, which cost as much as the whole response insert), and
 * its answers are kept until this process writes a table it reads, for at most a second.
 */
export class SessionLookup {
  private readonly stmt: Statement<[string, string], Row> | undefined;
  /** Every table the query reads: a write to any of them (sign-out, role change...) applies at once. */
  private readonly cache: RowCache<SessionUser | undefined>;

  constructor(private readonly db: Db) {
    this.stmt = db.sqlite?.prepare<[string, string], Row>(SQL);
    this.cache = new RowCache(db.writes, ['sessions', 'users', 'organizations', 'office_users']);
  }

  find(sessionId: string, userId: string): Promise<SessionUser | undefined> {
    return this.cache.get(`${sessionId}\u0000${userId}`, () => this.read(sessionId, userId));
  }

  private async read(sessionId: string, userId: string): Promise<SessionUser | undefined> {
    const row = this.stmt
      ? this.stmt.get(sessionId, userId)
      : await this.db.kysely
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .leftJoin('office_users', (join) => join.onRef('office_users.email', '=', 'users.email').on('users.role', '=', 'organization'))
          .leftJoin('organizations', (join) =>
            join.on('office_users.id', 'is', null).onRef('organizations.email', '=', 'users.email').on('users.role', '=', 'organization')
              .on((eb) => eb.not(eb.exists(eb.selectFrom('office_users as x').select('x.id').whereRef('x.organization_id', '=', 'organizations.id')))))
          .selectAll('users')
          .select((eb) => ['sessions.revoked_at', 'sessions.expires_at', eb.fn.coalesce('office_users.organization_id', 'organizations.id').as('organization_id'), 'office_users.role as office_role', 'office_users.survey_ids'])
          .where('sessions.id', '=', sessionId)
          .where('sessions.user_id', '=', userId)
          .executeTakeFirst();
    if (!row) return undefined;
    const { revoked_at, expires_at, organization_id, office_role, survey_ids, ...user } = row;
    const membership = organization_id === null ? null : Object.freeze({ organizationId: organization_id, officeRole: officeRoleOf(office_role), surveys: surveysOf(survey_ids) });
    // Frozen: one cached object serves many requests, so none of them may change it.
    return Object.freeze({ user: Object.freeze(user), revokedAt: revoked_at, expiresAt: Number(expires_at), membership });
  }
}

/** No row (the owner e-mail fallback) is the owner; a role this code does not know reads nothing. */
export function officeRoleOf(role: string | null): OfficeRole {
  if (role === null) return OfficeRole.owner;
  return (OFFICE_ROLES as readonly string[]).includes(role) ? (role as OfficeRole) : OfficeRole.analyst;
}

/** The stored JSON list of survey ids; null is every survey. An unreadable list is no survey. */
export function surveysOf(json: string | null): SurveyScope {
  if (json === null) return 'all';
  try {
    const ids: unknown = JSON.parse(json);
    return Object.freeze(Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return Object.freeze([]);
  }
}

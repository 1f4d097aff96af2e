import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import { RowCache } from '../../db/row-cache.js';
import type { UserRow } from '../../db/schema.js';

export interface SessionUser {
  user: UserRow;
  revokedAt: number | null;
  expiresAt: number;
  organizationId: string | null;
}

type Row = UserRow & { revoked_at: number | null; expires_at: number; organization_id: string | null };

const SQL = `select users.*, sessions.revoked_at, sessions.expires_at, organizations.id as organization_id
  from sessions join users on users.id = sessions.user_id
  left join organizations on organizations.email = users.email and users.role = 'organization'
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
    this.cache = new RowCache(db.writes, ['sessions', 'users', 'organizations']);
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
          .leftJoin('organizations', (join) => join.onRef('organizations.email', '=', 'users.email').on('users.role', '=', 'organization'))
          .selectAll('users')
          .select(['sessions.revoked_at', 'sessions.expires_at', 'organizations.id as organization_id'])
          .where('sessions.id', '=', sessionId)
          .where('sessions.user_id', '=', userId)
          .executeTakeFirst();
    if (!row) return undefined;
    const { revoked_at, expires_at, organization_id, ...user } = row;
    // Frozen: one cached object serves many requests, so none of them may change it.
    return Object.freeze({ user: Object.freeze(user), revokedAt: revoked_at, expiresAt: Number(expires_at), organizationId: organization_id });
  }
}

import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX, AuditAction, Msg } from '@survey-bird/contracts';
import type { Db } from '../../db/database.js';
import type { ApiTokensTable, UserRow } from '../../db/schema.js';
import { HttpError } from '../../http/errors.js';
import { actorOf, type AuthContext, type Membership, type SurveyScope } from '../../plugins/auth.js';
import { officeRoleOf, surveysOf } from '../accounts/session-lookup.js';
import { auditActor, recordAudit } from '../audit/record.js';

/** The stored form of a token: its SHA-256, hex. 256 random bits need no slow hash. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** last_used_at is written at most this often per token and process: a script's 1,000 pages a minute cost one write. */
const TOUCH_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The credential of an Authorization header when it is an API token: `Bearer sb_...`, or with
 * `basic`, HTTP Basic whose password is `sb_...` (the user name is ignored: Power BI and Excel
 * ask for both). null for anything else (a session's JWT goes the session way).
 */
export function apiTokenOf(header: string | undefined, basic: boolean): string | null {
  if (header === undefined) return null;
  if (header.startsWith(`Bearer ${API_TOKEN_PREFIX}`)) return header.slice(7);
  if (basic && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    return password.startsWith(API_TOKEN_PREFIX) ? password : null;
  }
  return null;
}

/**
 * What a token may read: its creator's surveys as they are now, narrowed to the token's survey.
 * A token for a survey its creator no longer reads reads nothing.
 */
export function tokenScope(creator: SurveyScope, surveyId: string | null): SurveyScope {
  if (surveyId === null) return creator;
  return creator === 'all' || creator.includes(surveyId) ? Object.freeze([surveyId]) : Object.freeze([]);
}

type Row = ApiTokensTable & { user: UserRow; membership: Membership | null };

/** Finds a token by its hash and makes the caller it stands for; records its use (throttled, audited once a day). */
export class TokenLookup {
  /** Per token: when this process last wrote last_used_at, and the day whose use it audited. */
  private readonly touched = new Map<string, { at: number; day: number }>();

  constructor(private readonly db: Db) {}

  async authenticate(token: string, request: FastifyRequest, now = Date.now()): Promise<AuthContext> {
    const row = await this.find(tokenHash(token));
    if (!row || row.revoked_at !== null || Number(row.expires_at) <= now) throw new HttpError(401, Msg.invalidOrExpiredToken);
    // The creator's membership decides, at every use: a removed office user's tokens read nothing,
    // a role change applies at once, and a membership of another organization is none.
    const membership = row.membership && row.membership.organizationId === row.organization_id ? { ...row.membership, surveys: tokenScope(row.membership.surveys, row.survey_id) } : null;
    const auth: AuthContext = { user: row.user, sessionId: `api-token:${row.id}`, actor: actorOf(row.user, membership), apiToken: { id: row.id, name: row.name } };
    await this.touch(row, auth, request, now);
    return auth;
  }

  private async find(hash: string): Promise<Row | undefined> {
    const r = await this.db.kysely
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .leftJoin('office_users', (join) => join.onRef('office_users.email', '=', 'users.email').onRef('office_users.organization_id', '=', 'api_tokens.organization_id'))
      .selectAll('api_tokens')
      .select(['users.email', 'users.password_hash', 'users.role', 'users.verified', 'users.full_name', 'users.created_at as user_created_at', 'users.language', 'office_users.role as office_role', 'office_users.survey_ids', 'office_users.id as office_user_id'])
      .where('api_tokens.token_hash', '=', hash)
      .executeTakeFirst();
    if (!r) return undefined;
    const user: UserRow = { id: r.user_id, email: r.email, password_hash: r.password_hash, role: r.role, verified: r.verified, full_name: r.full_name, created_at: r.user_created_at, language: r.language };
    const membership = r.office_user_id === null ? null : { organizationId: r.organization_id, officeRole: officeRoleOf(r.office_role), surveys: surveysOf(r.survey_ids) };
    return { id: r.id, organization_id: r.organization_id, user_id: r.user_id, name: r.name, token_hash: r.token_hash, hint: r.hint, survey_id: r.survey_id, created_at: r.created_at, expires_at: r.expires_at, last_used_at: r.last_used_at, used_day: r.used_day, revoked_at: r.revoked_at, user, membership };
  }

  /**
   * Every use is audited as one row per token per day (UTC): the first use of each day, with the
   * route and address, claimed by a compare-and-set on used_day so instances never write two.
   * last_used_at moves at most once a minute per process. A script paging 1M rows writes 2 rows.
   */
  private async touch(row: Row, auth: AuthContext, request: FastifyRequest, now: number): Promise<void> {
    const day = Math.floor(now / DAY_MS);
    const seen = this.touched.get(row.id);
    if (seen && now - seen.at < TOUCH_MS && seen.day === day) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(row.id, { at: now, day });
    await this.db.kysely.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', row.id).execute();
    if (row.used_day !== null && Number(row.used_day) >= day) return;
    const claimed = await this.db.kysely
      .updateTable('api_tokens')
      .set({ used_day: day })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('used_day', 'is', null), eb('used_day', '<', day)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    await recordAudit(this.db.kysely, auditActor({ auth, ip: request.ip }), {
      organizationId: row.organization_id,
      action: AuditAction.useToken,
      surveyId: row.survey_id,
      target: { type: 'api_token', id: row.id, label: row.name },
      after: { firstUseOfDay: new Date(now).toISOString().slice(0, 10), route: `${request.method} ${request.routeOptions.url ?? ''}` },
    }, now);
  }
}

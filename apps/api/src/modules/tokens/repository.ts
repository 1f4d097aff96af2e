import type { Kysely, Selectable } from 'kysely';
import type { ApiTokensTable, Database } from '../../db/schema.js';

export type TokenRow = Selectable<ApiTokensTable> & { survey_title: string | null; creator_email: string };

/** API tokens, always through the caller's organization. */
export class TokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  surveyOf(surveyId: string, organizationId: string) {
    return this.db.selectFrom('surveys').select(['id', 'title']).where('id', '=', surveyId).where('organization_id', '=', organizationId).executeTakeFirst();
  }

  private listed(organizationId: string, userId: string | null) {
    let q = this.db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('surveys as s', 's.id', 't.survey_id')
      .selectAll('t')
      .select(['s.title as survey_title', 'u.email as creator_email'])
      .where('t.organization_id', '=', organizationId);
    if (userId !== null) q = q.where('t.user_id', '=', userId);
    return q;
  }

  /** Newest first; `userId` null lists every office user's (the owner's view). */
  list(organizationId: string, userId: string | null, offset: number, limit: number): Promise<TokenRow[]> {
    return this.listed(organizationId, userId).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').offset(offset).limit(limit).execute();
  }

  async count(organizationId: string, userId: string | null): Promise<number> {
    let q = this.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId);
    if (userId !== null) q = q.where('user_id', '=', userId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async activeOf(userId: string, now: number): Promise<number> {
    const r = await this.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  find(id: string, organizationId: string): Promise<TokenRow | undefined> {
    return this.listed(organizationId, null).where('t.id', '=', id).executeTakeFirst();
  }

  insert(row: Selectable<ApiTokensTable>, db: Kysely<Database> = this.db) {
    return db.insertInto('api_tokens').values(row).execute();
  }

  /** true when this call revoked it (a second revoke changes nothing). */
  async revoke(id: string, now: number, db: Kysely<Database> = this.db): Promise<boolean> {
    const r = await db.updateTable('api_tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}

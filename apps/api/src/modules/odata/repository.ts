import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { inOffice } from '../../db/actor-scope.js';
import { SQL_OP, type Condition } from './filter.js';
import type { ResponseRecord } from './model.js';

/** Reads of the OData feed: a survey's responses oldest received first, by (created_at, id) on the survey's covering index. */
export class ODataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  survey(actor: OfficeActor, surveyId: string) {
    return this.db.selectFrom('surveys').select(['id', 'title', 'questions']).where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
  }

  async versions(surveyId: string): Promise<{ version: number; questions: string }[]> {
    const rows = await this.db.selectFrom('survey_versions').select(['version', 'questions']).where('survey_id', '=', surveyId).orderBy('version').execute();
    return rows.map((r) => ({ version: Number(r.version), questions: r.questions }));
  }

  /** Up to `limit` rows after `after` (or after skipping `offset`), oldest received first. */
  async rows(surveyId: string, filter: Condition[], after: { at: number; id: string } | null, offset: number, limit: number): Promise<ResponseRecord[]> {
    let q = this.db.selectFrom('responses as r').innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.answers', 'r.created_at', 'r.captured_at', 'r.version', 'r.revision', 'r.status', 'm.full_name', 'm.email'])
      .where('r.survey_id', '=', surveyId);
    for (const c of filter) q = q.where('r.created_at', SQL_OP[c.op], c.at);
    if (after) q = q.where((eb) => eb.or([eb('r.created_at', '>', after.at), eb.and([eb('r.created_at', '=', after.at), eb('r.id', '>', after.id)])]));
    return q.orderBy('r.created_at').orderBy('r.id').offset(offset).limit(limit).execute();
  }

  async count(surveyId: string, filter: Condition[]): Promise<number> {
    let q = this.db.selectFrom('responses as r').select((eb) => eb.fn.countAll<number | string>().as('n')).where('r.survey_id', '=', surveyId);
    for (const c of filter) q = q.where('r.created_at', SQL_OP[c.op], c.at);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }
}

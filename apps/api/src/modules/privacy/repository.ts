import { sql, type Kysely } from 'kysely';
import { inOffice } from '../../db/actor-scope.js';
import type { Database, FileRow } from '../../db/schema.js';
import type { Page } from '../../http/paging.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { paidAtOf } from '../payouts/paid.js';

/** A response as erasure reads it, with its field user's name and e-mail (its search text starts with them). */
export interface ErasableResponse {
  id: string;
  survey_id: string;
  organization_id: string;
  client_id: string;
  answers: string;
  meta: string | null;
  pending_photos: string | null;
  full_name: string;
  email: string;
  survey_title: string;
  survey_questions: string;
}

/** What one erasure writes, in one transaction with its audit event. */
export interface ErasedRow {
  id: string;
  answers: string;
  searchText: string;
  meta: string | null;
  pendingPhotos: string | null;
  revisions: { revision: number; answers: string }[];
  /** Personal question texts: their photo fingerprints (response_photos) go. */
  personalKeys: string[];
  /** The location is personal: the flag checks' copy of the position goes. */
  dropPosition: boolean;
  fileIds: string[];
}

export class PrivacyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The response when it is in the office user's reach (their organization, their surveys). */
  findForOffice(actor: OfficeActor, id: string): Promise<ErasableResponse | undefined> {
    return this.erasable().where('r.id', '=', id).where(inOffice(actor, 'r.organization_id', 'r.survey_id')).executeTakeFirst();
  }

  /** A survey's responses not yet erased, for retention: `limit` at a time. */
  unerasedOfSurvey(surveyId: string, limit: number): Promise<ErasableResponse[]> {
    return this.erasable().where('r.survey_id', '=', surveyId).where('r.erased_at', 'is', null).orderBy('r.id').limit(limit).execute();
  }

  private erasable() {
    return this.db
      .selectFrom('responses as r')
      .innerJoin('members as m', 'm.id', 'r.member_id')
      .innerJoin('surveys as s', 's.id', 'r.survey_id')
      .select(['r.id', 'r.survey_id', 'r.organization_id', 'r.client_id', 'r.answers', 'r.meta', 'r.pending_photos', 'm.full_name', 'm.email', 's.title as survey_title', 's.questions as survey_questions']);
  }

  async versions(surveyId: string): Promise<{ version: number; questions: string }[]> {
    const rows = await this.db.selectFrom('survey_versions').select(['version', 'questions']).where('survey_id', '=', surveyId).execute();
    return rows.map((r) => ({ version: Number(r.version), questions: r.questions }));
  }

  revisions(responseId: string) {
    return this.db.selectFrom('response_revisions').select(['revision', 'client_id', 'answers']).where('response_id', '=', responseId).execute();
  }

  /** The stored files of the response: named by an answer, or uploaded for one of its personal questions under one of its clientIds. */
  async files(surveyId: string, ids: readonly string[], clientIds: readonly string[], questions: readonly string[]): Promise<FileRow[]> {
    if (ids.length === 0 && (clientIds.length === 0 || questions.length === 0)) return [];
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('survey_id', '=', surveyId)
      .where((eb) => eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(clientIds.length > 0 && questions.length > 0 ? [eb.and([eb('client_id', 'in', clientIds), eb('question', 'in', questions)])] : []),
      ]))
      .execute();
  }

  /**
   * Writes an erasure: the answers (and each revision's) without the personal ones, the search text
   * rebuilt from them, the photos' fingerprints and the flag checks' position gone, the files' rows
   * deleted, erased_at set. Money is not touched: rate, paid_at and payout items stay as they are.
   */
  async erase(row: ErasedRow, now: number, alsoInTransaction: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('responses').set({ answers: row.answers, search_text: row.searchText, meta: row.meta, pending_photos: row.pendingPhotos, erased_at: now }).where('id', '=', row.id).execute();
      for (const r of row.revisions) await trx.updateTable('response_revisions').set({ answers: r.answers }).where('response_id', '=', row.id).where('revision', '=', r.revision).execute();
      if (row.personalKeys.length > 0) await trx.deleteFrom('response_photos').where('response_id', '=', row.id).where('question', 'in', row.personalKeys).execute();
      // answers_hash is a fingerprint of every answer, personal ones included: it goes with them.
      await trx.updateTable('response_checks').set({ answers_hash: '', ...(row.dropPosition ? { lat: null, lng: null } : {}) }).where('response_id', '=', row.id).execute();
      if (row.fileIds.length > 0) {
        await trx.deleteFrom('file_blobs').where('file_id', 'in', row.fileIds).execute();
        await trx.deleteFrom('files').where('id', 'in', row.fileIds).execute();
      }
      await alsoInTransaction(trx);
    });
  }

  /**
   * The office user's responses whose answers hold any of `patterns` (LIKE patterns, lower case),
   * newest first, with their survey's title and field user.
   */
  async search(actor: OfficeActor, patterns: readonly string[], page: Page | null) {
    const base = this.db
      .selectFrom('responses as r')
      .innerJoin('surveys as s', 's.id', 'r.survey_id')
      .innerJoin('members as m', 'm.id', 'r.member_id')
      .where(inOffice(actor, 'r.organization_id', 'r.survey_id'))
      .where((eb) => eb.or(patterns.map((p) => sql<boolean>`lower(${sql.ref('r.answers')}) like ${p} escape '\\'`)).$castTo<boolean>());
    const rows = base
      .select(['r.id', 'r.survey_id', 's.title as survey_title', 'm.full_name', 'r.created_at', 'r.status', 'r.answers', 'r.revision', 'r.erased_at', paidAtOf('r.id', 'r.paid_at').as('paid_at')])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc');
    if (page === null) return { rows: await rows.limit(RESPONDENT_EXPORT_MAX).execute(), total: -1 };
    const [list, count] = await Promise.all([rows.limit(page.limit).offset(page.offset).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()]);
    return { rows: list, total: Number(count?.n ?? 0) };
  }

  /** Surveys closed with a retention set and not yet swept. */
  retentionDue() {
    return this.db
      .selectFrom('surveys as s')
      .innerJoin('organizations as o', 'o.id', 's.organization_id')
      .select(['s.id', 's.organization_id', 's.title', 's.closed_at', 's.retention_days', 's.retention_warned_at', 'o.email as organization_email'])
      .where('s.closed_at', 'is not', null)
      .where('s.retention_days', 'is not', null)
      .where('s.retention_done_at', 'is', null)
      .execute();
  }

  async markWarned(surveyId: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('surveys').set({ retention_warned_at: now }).where('id', '=', surveyId).where('retention_warned_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async markDone(surveyId: string, now: number): Promise<void> {
    await this.db.updateTable('surveys').set({ retention_done_at: now }).where('id', '=', surveyId).execute();
  }

  /** Everything the field user's account holds: the account, memberships with bank details, responses, payout lines. */
  async fieldUserData(userId: string) {
    const [account, memberships, responses, payouts] = await Promise.all([
      this.db.selectFrom('users').select(['email', 'full_name', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow(),
      this.db
        .selectFrom('members as m')
        .innerJoin('surveys as s', 's.id', 'm.survey_id')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select(['m.survey_id', 's.title', 'o.name as organization', 'm.full_name', 'm.phone_number', 'm.bank', 'm.account_number', 'm.account_name', 'm.rate', 'm.created_at'])
        .where('m.user_id', '=', userId)
        .orderBy('m.created_at')
        .execute(),
      this.db.selectFrom('responses as r').select(['r.id', 'r.survey_id', 'r.status', 'r.rate', 'r.created_at', paidAtOf('r.id', 'r.paid_at').as('paid_at')]).where('r.user_id', '=', userId).orderBy('r.created_at', 'desc').limit(FIELD_USER_EXPORT_MAX).execute(),
      this.db
        .selectFrom('payout_lines as l')
        .innerJoin('payouts as p', 'p.id', 'l.payout_id')
        .innerJoin('members as m', 'm.id', 'l.member_id')
        .select(['p.survey_id', 'l.amount', 'l.response_count', 'p.reference', 'p.paid_at', 'l.bank', 'l.account_number'])
        .where('m.user_id', '=', userId)
        .where('p.status', '=', 'paid')
        .orderBy('p.created_at')
        .execute(),
    ]);
    return { account, memberships, responses, payouts };
  }
}

/** A respondent's responses in one subject-access export: far above one person's share of any survey. */
export const RESPONDENT_EXPORT_MAX = 5000;
/** A field user's own responses in their export: a year of a busy enumerator's work is about 10,000. */
export const FIELD_USER_EXPORT_MAX = 50_000;

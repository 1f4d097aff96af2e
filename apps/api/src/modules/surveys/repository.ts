import { PostgresAdapter, sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { Role, withQuestionIds, type AudioAuditSettings, type PayGate, type StoredQuestion } from '@survey-bird/contracts';
import { audioAuditJson, payGateJson } from '../audio/settings.js';
import { inOffice } from '../../db/actor-scope.js';
import type { Database, SurveyRow } from '../../db/schema.js';
import { contains } from '../../db/sql.js';
import { likePattern, type Page } from '../../http/paging.js';
import type { FieldUserActor, OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import { markPersonal } from '../privacy/personal-keys.js';

/** Who may list surveys and read large-select options: office users and the survey's members. */
export type SurveyReader = OfficeActor | SupervisorActor | FieldUserActor;

export interface Dataset {
  question: string;
  options: string[];
}

/** Rows per INSERT of dataset options: well under SQLite's and PostgreSQL's bound-parameter limits. */
const OPTION_CHUNK = 500;
/** Sorts after every character of the Basic Multilingual Plane: `q <= v < q + TOP` is "v starts with q". */
const TOP = '\uffff';

/**
 * The surveys a caller may see: an organization its own; a field user or supervisor those where
 * they hold a member row of their role (by account, or by e-mail before the row was linked).
 */
export function surveyScope(caller: SurveyReader) {
  return (eb: ExpressionBuilder<Database, 'surveys'>) => {
    if (caller.role === Role.organization) return inOffice(caller, 'surveys.organization_id', 'surveys.id');
    return eb.exists(
      eb.selectFrom('members')
        .select('members.id')
        .whereRef('members.survey_id', '=', 'surveys.id')
        .where('members.role', '=', caller.role)
        .where('members.withdrawn_at', 'is', null)
        .where((m) => m.or([m('members.user_id', '=', caller.userId), m('members.email', '=', caller.email)])),
    );
  };
}

export class SurveysRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * Pay after review, closed, the quality-flag thresholds and the photo quality, on the caller's own survey only; the row after, or undefined.
   * Closing again keeps the first close time (responses made before it stay welcome).
   */
  async setSettings(surveyId: string, actor: OfficeActor, settings: { payAfterReview?: boolean | undefined; closed?: boolean | undefined; minDurationSeconds?: number | null | undefined; maxAccuracyMeters?: number | null | undefined; photoQuality?: string | undefined; retentionDays?: number | null | undefined; personalQuestionIds?: string[] | undefined; audioAudit?: AudioAuditSettings | null | undefined; payGate?: Partial<PayGate> | undefined; encryptionKey?: string | null | undefined }, now: number, audit?: (before: SurveyRow, after: SurveyRow, trx: Kysely<Database>) => Promise<void>, db: Kysely<Database> = this.db): Promise<SurveyRow | undefined> {
    const inside = async (trx: Kysely<Database>) => {
      const before = await trx.selectFrom('surveys').selectAll().where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
      if (!before) return undefined;
      let update = trx.updateTable('surveys').where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id'));
      if (settings.payAfterReview !== undefined) update = update.set({ pay_after_review: settings.payAfterReview ? 1 : 0 });
      if (settings.closed !== undefined) update = update.set({ closed_at: settings.closed ? sql<number>`coalesce(closed_at, ${now})` : null });
      if (settings.minDurationSeconds !== undefined) update = update.set({ min_duration_s: settings.minDurationSeconds });
      if (settings.maxAccuracyMeters !== undefined) update = update.set({ max_accuracy_m: settings.maxAccuracyMeters });
      if (settings.photoQuality !== undefined) update = update.set({ photo_quality: settings.photoQuality });
      // A changed retention is warned about afresh.
      if (settings.retentionDays !== undefined) update = update.set({ retention_days: settings.retentionDays, retention_warned_at: null });
      if (settings.personalQuestionIds !== undefined) {
        // Every version is marked alike: answers of any version are masked, erased and kept by one rule.
        const ids = new Set(settings.personalQuestionIds);
        update = update.set({ questions: markPersonal(before.questions, ids) });
        const versions = await trx.selectFrom('survey_versions').select(['version', 'questions']).where('survey_id', '=', surveyId).execute();
        for (const v of versions) await trx.updateTable('survey_versions').set({ questions: markPersonal(v.questions, ids) }).where('survey_id', '=', surveyId).where('version', '=', v.version).execute();
      }
      if (settings.audioAudit !== undefined) update = update.set({ audio_audit: audioAuditJson(settings.audioAudit, before.audio_audit) });
      if (settings.payGate !== undefined) update = update.set({ pay_gate: payGateJson(settings.payGate, before.pay_gate) });
      if (settings.encryptionKey !== undefined) update = update.set({ encryption_key: settings.encryptionKey });
      const res = await update.executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return undefined;
      const after = await trx.selectFrom('surveys').selectAll().where('id', '=', surveyId).executeTakeFirstOrThrow();
      await audit?.(before, after, trx);
      return after;
    };
    return db.isTransaction ? inside(db) : db.transaction().execute(inside);
  }

  /** Every question id any version of the survey has had (its own questions when it has no versions). */
  async versionQuestionIds(surveyId: string, current: string): Promise<string[]> {
    const versions = await this.db.selectFrom('survey_versions').select('questions').where('survey_id', '=', surveyId).execute();
    return [current, ...versions.map((v) => v.questions)].flatMap((json) => withQuestionIds(JSON.parse(json) as StoredQuestion[]).map((q) => q.id));
  }

  /** Which of `ids` are not field users of the survey (withdrawn ones included: they may come back). */
  async notFieldUsers(surveyId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('members').select('id').where('survey_id', '=', surveyId).where('role', '=', Role.fieldUser).where('id', 'in', [...ids]).execute();
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  }

  /** The field user's member ids on these surveys (their own rows only). */
  async memberIdsOf(userId: string, surveyIds: readonly string[]): Promise<Set<string>> {
    if (surveyIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('members').select('id').where('user_id', '=', userId).where('survey_id', 'in', [...surveyIds]).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Of these surveys, those on which the account's membership is a back-checker's (not withdrawn). */
  async backcheckerSurveyIds(userId: string, surveyIds: readonly string[]): Promise<Set<string>> {
    if (surveyIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('backcheckers as b').innerJoin('members as m', 'm.id', 'b.member_id').select('b.survey_id')
      .where('m.user_id', '=', userId).where('m.withdrawn_at', 'is', null).where('b.survey_id', 'in', [...surveyIds]).execute();
    return new Set(rows.map((r) => r.survey_id));
  }

  /** The caller's own survey, or undefined. */
  findOwn(surveyId: string, actor: OfficeActor, db: Kysely<Database> = this.db): Promise<SurveyRow | undefined> {
    return db.selectFrom('surveys').selectAll().where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
  }

  /** The survey, its first version and the option lists of its large selects, in one transaction. */
  async create(survey: SurveyRow, datasets: Dataset[], alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('surveys').values(survey).execute();
      await alsoInTransaction?.(trx);
      await trx.insertInto('survey_versions').values({ survey_id: survey.id, version: 1, title: survey.title, description: survey.description, questions: survey.questions, created_at: survey.created_at, form_settings: survey.form_settings ?? null }).execute();
      await insertDatasets(trx, survey.id, datasets);
    });
  }

  /**
   * Publishes the next version: the survey row takes the new texts and questions and version n+1
   * (the increment in the update itself, so two editors get two versions, never one twice), the
   * version row is added, and each large select's option list is replaced. Undefined when the
   * survey is not the caller's.
   */
  async publishVersion(surveyId: string, actor: OfficeActor, next: Pick<SurveyRow, 'title' | 'description' | 'expected_response_count' | 'questions' | 'form_settings'>, datasets: Dataset[], now: number, audit?: (before: SurveyRow, after: SurveyRow, trx: Kysely<Database>) => Promise<void>): Promise<SurveyRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('surveys').selectAll().where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
      if (!current) return undefined;
      // A survey published by an older instance (rolling deploy) has no row for its version yet.
      await trx
        .insertInto('survey_versions')
        .values({ survey_id: surveyId, version: Number(current.version), title: current.title, description: current.description, questions: current.questions, created_at: Number(current.created_at), form_settings: current.form_settings ?? null })
        .onConflict((oc) => oc.columns(['survey_id', 'version']).doNothing())
        .execute();
      const res = await trx
        .updateTable('surveys')
        .set({ ...next, version: sql<number>`version + 1` })
        .where('id', '=', surveyId)
        .where(inOffice(actor, 'organization_id', 'id'))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return undefined;
      const row = await trx.selectFrom('surveys').selectAll().where('id', '=', surveyId).executeTakeFirstOrThrow();
      await trx.insertInto('survey_versions').values({ survey_id: surveyId, version: Number(row.version), title: row.title, description: row.description, questions: row.questions, created_at: now, form_settings: row.form_settings ?? null }).execute();
      await insertDatasets(trx, surveyId, await replacedDatasets(trx, surveyId, Number(current.version), datasets));
      await audit?.(current, row, trx);
      return row;
    });
  }

  /** A page of the survey's versions, newest first. */
  async listVersions(surveyId: string, page: Page) {
    const q = this.db.selectFrom('survey_versions').where('survey_id', '=', surveyId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('version', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** Newest first, the search matching the title. */
  async list(caller: SurveyReader, page: Page, search: string) {
    let q = this.db.selectFrom('surveys').where(surveyScope(caller));
    if (search) q = q.where(contains('surveys.title', search));
    const [rows, total] = await Promise.all([
      q.selectAll('surveys').orderBy('surveys.created_at', 'desc').orderBy('surveys.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** By id, or by organization and title (the newest of that title); undefined when not the caller's. */
  findAccessible(caller: SurveyReader, by: { surveyId?: string | undefined; organizationId?: string | undefined; title?: string | undefined }): Promise<SurveyRow | undefined> {
    let q = this.db.selectFrom('surveys').selectAll('surveys').where(surveyScope(caller));
    if (by.organizationId !== undefined) q = q.where('surveys.organization_id', '=', by.organizationId);
    if (by.surveyId !== undefined) q = q.where('surveys.id', '=', by.surveyId);
    else if (by.title !== undefined) q = q.where('surveys.title', '=', by.title);
    else return Promise.resolve(undefined);
    return q.orderBy('surveys.created_at', 'desc').limit(1).executeTakeFirst();
  }

  /**
   * Up to `limit` options: first those starting with the search (a range on the value_lower index,
   * alphabetical), then those containing it elsewhere (in list order). Without a search, the first
   * options of the list.
   */
  async searchOptions(surveyId: string, question: string, search: string, limit: number): Promise<string[]> {
    const base = this.db.selectFrom('dataset_options').select('value').where('survey_id', '=', surveyId).where('question', '=', question);
    const q = search.toLowerCase();
    if (!q) return (await base.orderBy('position').limit(limit).execute()).map((r) => r.value);
    // PostgreSQL compares in the database's collation unless told otherwise; byte order is what
    // makes the TOP bound mean "starts with" (SQLite compares bytes already). See the migration.
    const key = this.postgres ? sql`value_lower collate "C"` : sql.ref('value_lower');
    const inRange = sql<boolean>`${key} >= ${q} and ${key} < ${q + TOP}`;
    const prefixed = await base.where(inRange).orderBy(key).limit(limit).execute();
    if (prefixed.length >= limit) return prefixed.map((r) => r.value);
    const inside = await base
      .where(sql<boolean>`value_lower like ${likePattern(q)} escape '\\'`)
      .where(sql<boolean>`not (${inRange})`)
      .orderBy('position')
      .limit(limit - prefixed.length)
      .execute();
    return [...prefixed, ...inside].map((r) => r.value);
  }

  async allOptions(surveyId: string, question: string): Promise<string[]> {
    const rows = await this.db.selectFrom('dataset_options').select('value').where('survey_id', '=', surveyId).where('question', '=', question).orderBy('position').execute();
    return rows.map((r) => r.value);
  }
}

/**
 * The datasets whose list changes: each outgoing list is kept in dataset_option_history as the
 * list of versions up to `version` (a phone may still send answers filled against one of them),
 * then removed from dataset_options. An unchanged list is left as it is and not written again.
 */
async function replacedDatasets(trx: Kysely<Database>, surveyId: string, version: number, datasets: Dataset[]): Promise<Dataset[]> {
  const changed: Dataset[] = [];
  for (const dataset of datasets) {
    const current = trx.selectFrom('dataset_options').where('survey_id', '=', surveyId).where('question', '=', dataset.question);
    const old = (await current.select('value').orderBy('position').execute()).map((r) => r.value);
    if (old.length === dataset.options.length && old.every((v, i) => v === dataset.options[i])) continue;
    await trx.insertInto('dataset_option_history')
      .columns(['survey_id', 'question', 'until_version', 'position', 'value'])
      .expression(current.select(['survey_id', 'question', sql.lit(version).as('until_version'), 'position', 'value']))
      .onConflict((oc) => oc.doNothing())
      .execute();
    await trx.deleteFrom('dataset_options').where('survey_id', '=', surveyId).where('question', '=', dataset.question).execute();
    changed.push(dataset);
  }
  return changed;
}

async function insertDatasets(trx: Kysely<Database>, surveyId: string, datasets: Dataset[]): Promise<void> {
  for (const { question, options } of datasets) {
    for (let start = 0; start < options.length; start += OPTION_CHUNK) {
      const rows = options.slice(start, start + OPTION_CHUNK).map((value, i) => ({
        survey_id: surveyId,
        question,
        position: start + i,
        value,
        value_lower: value.toLowerCase(),
      }));
      await trx.insertInto('dataset_options').values(rows).execute();
    }
  }
}

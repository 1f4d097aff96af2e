import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { ResponseStatus, Role, uuidv7 } from '@survey-bird/contracts';
import { inOffice } from '../../db/actor-scope.js';
import type { BackcheckAssignmentsTable, BackcheckSettingsTable, Database } from '../../db/schema.js';
import type { OfficeActor } from '../../plugins/auth.js';
import { inPayout } from '../payouts/paid.js';
import type { Candidate } from './sampling.js';

export type SettingsRow = BackcheckSettingsTable;
export type AssignmentRow = BackcheckAssignmentsTable;
export type NewAssignment = Omit<AssignmentRow, 'mismatch' | 'returned'>;

const CHUNK = 500;

/** Back-check rows; ownership of an office caller's survey is checked in each office query. */
export class BackchecksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The caller's survey (id, organization, version, latest questions), or undefined. */
  ownSurvey(surveyId: string, actor: OfficeActor) {
    return this.db.selectFrom('surveys').select(['id', 'organization_id', 'title', 'version', 'questions']).where('id', '=', surveyId).where(inOffice(actor, 'organization_id', 'id')).executeTakeFirst();
  }

  settings(surveyId: string, db: Kysely<Database> = this.db): Promise<SettingsRow | undefined> {
    return db.selectFrom('backcheck_settings').selectAll().where('survey_id', '=', surveyId).executeTakeFirst();
  }

  async saveSettings(row: SettingsRow, db: Kysely<Database> = this.db): Promise<void> {
    const { survey_id: _id, created_at: _c, seed: _s, sampled_until: _u, sampled_until_id: _ui, organization_id: _o, ...changes } = row;
    await db.insertInto('backcheck_settings').values(row).onConflict((oc) => oc.column('survey_id').doUpdateSet(changes)).execute();
  }

  latestForm(surveyId: string, db: Kysely<Database> = this.db) {
    return db.selectFrom('backcheck_forms').selectAll().where('survey_id', '=', surveyId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  }

  form(surveyId: string, version: number) {
    return this.db.selectFrom('backcheck_forms').selectAll().where('survey_id', '=', surveyId).where('version', '=', version).executeTakeFirst();
  }

  /** The next version, numbered after the latest; the primary key refuses two publishes of one number. */
  async publishForm(row: Omit<Database['backcheck_forms'], 'version'>, db: Kysely<Database> = this.db): Promise<number> {
    const latest = await db.selectFrom('backcheck_forms').select(sql<number>`coalesce(max(version), 0)`.as('v')).where('survey_id', '=', row.survey_id).executeTakeFirstOrThrow();
    const version = Number(latest.v) + 1;
    await db.insertInto('backcheck_forms').values({ ...row, version }).execute();
    return version;
  }

  /** A version's questions (version 1 may live only on the survey row, from before versions were kept). */
  async versionQuestions(surveyId: string, version: number): Promise<string | undefined> {
    const v = await this.db.selectFrom('survey_versions').select('questions').where('survey_id', '=', surveyId).where('version', '=', version).executeTakeFirst();
    if (v) return v.questions;
    const s = await this.db.selectFrom('surveys').select(['questions', 'version']).where('id', '=', surveyId).executeTakeFirst();
    return s && (Number(s.version) === version || version === 1) ? s.questions : undefined;
  }

  async addBackchecker(memberId: string, surveyId: string, now: number): Promise<void> {
    await this.db.insertInto('backcheckers').values({ member_id: memberId, survey_id: surveyId, created_at: now }).onConflict((oc) => oc.column('member_id').doNothing()).execute();
  }

  /** Supervisors of the survey and its field users invited as back-checkers, registered and not withdrawn. */
  async candidates(surveyId: string): Promise<(Candidate & { fullName: string; email: string })[]> {
    const rows = await this.db.selectFrom('members as m')
      .leftJoin('backcheckers as b', 'b.member_id', 'm.id')
      .select(['m.id', 'm.user_id', 'm.role', 'm.supervisor_id', 'm.full_name', 'm.email'])
      .where('m.survey_id', '=', surveyId).where('m.user_id', 'is not', null).where('m.withdrawn_at', 'is', null)
      .where((eb) => eb.or([eb('m.role', '=', Role.supervisor), eb('b.member_id', 'is not', null)]))
      .orderBy('m.created_at').orderBy('m.id')
      .execute();
    return rows.map((r) => ({ memberId: r.id, userId: r.user_id!, role: r.role === Role.supervisor ? 'supervisor' : 'field_user', supervisorId: r.role === Role.supervisor ? null : r.supervisor_id, fullName: r.full_name, email: r.email }));
  }

  /** Open (not done) assignments per back-checker account. */
  async openCounts(surveyId: string): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('backcheck_assignments').select(['backchecker_user_id', sql<number>`count(*)`.as('n')])
      .where('survey_id', '=', surveyId).where('completed_at', 'is', null).where('backchecker_user_id', 'is not', null).groupBy('backchecker_user_id').execute();
    return new Map(rows.map((r) => [r.backchecker_user_id!, Number(r.n)]));
  }

  /** Surveys whose back-checks draw anything. */
  sampledSurveys() {
    return this.db.selectFrom('backcheck_settings').selectAll().where((eb) => eb.or([eb('percent_bp', '>', 0), eb('min_per_week', '>', 0), eb('include_flagged', '=', 1)])).execute();
  }

  /** Responses after the cursor and before `until`, oldest first, with their field user's account and team. */
  afterCursor(s: SettingsRow, until: number, limit: number) {
    return this.db.selectFrom('responses as r').innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.member_id', 'r.user_id', 'r.created_at', 'm.supervisor_id'])
      .where('r.survey_id', '=', s.survey_id)
      .where((eb) => eb.or([eb('r.created_at', '>', s.sampled_until), eb.and([eb('r.created_at', '=', s.sampled_until), eb('r.id', '>', s.sampled_until_id)])]))
      .where('r.created_at', '<', until)
      .orderBy('r.created_at').orderBy('r.id').limit(limit).execute();
  }

  async moveCursor(surveyId: string, createdAt: number, id: string): Promise<void> {
    await this.db.updateTable('backcheck_settings').set({ sampled_until: createdAt, sampled_until_id: id }).where('survey_id', '=', surveyId).execute();
  }

  /** Responses since `since` holding an undismissed quality flag (not a back-check's own) and not yet selected. */
  flaggedUnselected(surveyId: string, since: number, until: number, limit: number) {
    return this.db.selectFrom('responses as r').innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.member_id', 'r.user_id', 'r.created_at', 'm.supervisor_id'])
      .where('r.survey_id', '=', surveyId).where('r.created_at', '>=', since).where('r.created_at', '<', until)
      .where((eb) => eb.exists(eb.selectFrom('response_flags as f').select('f.flag').whereRef('f.response_id', '=', 'r.id').where('f.dismissed_at', 'is', null).where('f.flag', '!=', 'backcheck_mismatch')))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('backcheck_assignments as a').select('a.id').whereRef('a.response_id', '=', 'r.id'))))
      .orderBy('r.created_at').limit(limit).execute();
  }

  /** A week's responses per field user with how many are selected, for the weekly minimum. */
  async weekCounts(surveyId: string, from: number, to: number) {
    const rows = await this.db.selectFrom('responses as r').leftJoin('backcheck_assignments as a', 'a.response_id', 'r.id')
      .select(['r.member_id', sql<number>`count(*)`.as('responses'), sql<number>`count(a.id)`.as('selected')])
      .where('r.survey_id', '=', surveyId).where('r.created_at', '>=', from).where('r.created_at', '<', to).groupBy('r.member_id').execute();
    return rows.map((r) => ({ memberId: r.member_id, responses: Number(r.responses), selected: Number(r.selected) }));
  }

  /** One field user's unselected responses of a week. */
  unselectedOf(surveyId: string, memberId: string, from: number, to: number) {
    return this.db.selectFrom('responses as r').innerJoin('members as m', 'm.id', 'r.member_id')
      .select(['r.id', 'r.member_id', 'r.user_id', 'r.created_at', 'm.supervisor_id'])
      .where('r.survey_id', '=', surveyId).where('r.member_id', '=', memberId).where('r.created_at', '>=', from).where('r.created_at', '<', to)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('backcheck_assignments as a').select('a.id').whereRef('a.response_id', '=', 'r.id'))))
      .execute();
  }

  /** Each selection at most once per response (the unique response_id decides). */
  async insertAssignments(rows: NewAssignment[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db.insertInto('backcheck_assignments').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.column('response_id').doNothing()).execute();
    }
  }

  /** Selected responses still without a back-checker, with their field user's account and team. */
  unassigned(surveyId: string, limit: number) {
    return this.db.selectFrom('backcheck_assignments as a').innerJoin('members as m', 'm.id', 'a.member_id')
      .select(['a.id', 'a.response_id', 'm.user_id', 'm.supervisor_id'])
      .where('a.survey_id', '=', surveyId).where('a.backchecker_user_id', 'is', null).where('a.completed_at', 'is', null)
      .orderBy('a.selected_at').limit(limit).execute();
  }

  async assign(assignmentId: string, c: Candidate, now: number): Promise<void> {
    await this.db.updateTable('backcheck_assignments').set({ backchecker_member_id: c.memberId, backchecker_user_id: c.userId, assigned_at: now })
      .where('id', '=', assignmentId).where('backchecker_user_id', 'is', null).execute();
  }

  /** The caller's open assignments in surveys they are still on, oldest first, with what the feed shows. */
  async mine(userId: string, limit: number, offset: number) {
    const base = this.db.selectFrom('backcheck_assignments as a')
      .innerJoin('members as bm', 'bm.id', 'a.backchecker_member_id')
      .where('a.backchecker_user_id', '=', userId).where('a.completed_at', 'is', null).where('bm.withdrawn_at', 'is', null);
    const [rows, total] = await Promise.all([
      base.innerJoin('responses as r', 'r.id', 'a.response_id').innerJoin('surveys as s', 's.id', 'a.survey_id')
        .leftJoin('response_checks as c', 'c.response_id', 'a.response_id')
        .select(['a.id', 'a.response_id', 'a.survey_id', 'a.organization_id', 'a.assigned_at', 'a.selected_at', 's.title', 'r.answers', 'r.version', 'r.captured_at', 'r.created_at', 'c.lat', 'c.lng'])
        .orderBy('a.selected_at').orderBy('a.id').limit(limit).offset(offset).execute(),
      base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** The assignment of `responseId` given to this account, with its survey's organization. */
  assignmentFor(responseId: string, userId: string) {
    return this.db.selectFrom('backcheck_assignments as a').innerJoin('members as bm', 'bm.id', 'a.backchecker_member_id')
      .selectAll('a').select(['bm.withdrawn_at'])
      .where('a.response_id', '=', responseId).where('a.backchecker_user_id', '=', userId).executeTakeFirst();
  }

  original(responseId: string) {
    return this.db.selectFrom('responses').select(['id', 'answers', 'version', 'survey_id', 'status']).where('id', '=', responseId).executeTakeFirst();
  }

  backcheckResponse(assignmentId: string) {
    return this.db.selectFrom('backcheck_responses').selectAll().where('assignment_id', '=', assignmentId).executeTakeFirst();
  }

  /**
   * Stores a back-check and its comparison in one transaction: the unique assignment_id lets one
   * back-check in per assignment; false when another was stored first (the caller reads it back).
   */
  async saveBackcheck(row: Database['backcheck_responses'], diffs: Database['backcheck_diffs'][], totals: { compared: number; mismatched: number; mismatch: boolean }, flag: { memberId: string; reason: string } | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto('backcheck_responses').values(row).onConflict((oc) => oc.column('assignment_id').doNothing()).returning('id').executeTakeFirst();
      if (!inserted) return false;
      if (diffs.length > 0) await trx.insertInto('backcheck_diffs').values(diffs).execute();
      await trx.updateTable('backcheck_assignments').set({ completed_at: row.created_at, compared: totals.compared, mismatched: totals.mismatched, mismatch: totals.mismatch ? 1 : 0 })
        .where('id', '=', row.assignment_id).execute();
      if (flag) {
        const a = await trx.selectFrom('backcheck_assignments').select(['response_id', 'survey_id']).where('id', '=', row.assignment_id).executeTakeFirstOrThrow();
        await trx.insertInto('response_flags').values({ response_id: a.response_id, flag: 'backcheck_mismatch', survey_id: a.survey_id, member_id: flag.memberId, reason: flag.reason, other_response_id: null, created_at: row.created_at, dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null })
          .onConflict((oc) => oc.columns(['response_id', 'flag']).doNothing()).execute();
      }
      return true;
    });
  }

  /**
   * Returns the original to its field user as the back-check's verdict, if it is pending or
   * approved and neither paid nor in a payout (the conditions in the UPDATE itself, as a reviewer's).
   */
  async autoReturn(assignmentId: string, responseId: string, backcheckerUserId: string, comment: string, now: number, audit: (trx: Kysely<Database>, row: { organization_id: string; survey_id: string; from: string }) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('responses').select(['status', 'organization_id', 'survey_id']).where('id', '=', responseId).executeTakeFirst();
      if (!before || (before.status !== ResponseStatus.pending && before.status !== ResponseStatus.approved)) return false;
      const res = await trx.updateTable('responses')
        .set({ status: ResponseStatus.returned, review_comment: comment, reviewed_by: 'Back-check', reviewed_at: now, changed_at: now })
        .where('id', '=', responseId).where('status', '=', before.status).where('paid_at', 'is', null).where(sql<boolean>`not ${inPayout('responses.id')}`)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await trx.insertInto('response_reviews').values({ id: randomUUID(), response_id: responseId, actor_user_id: backcheckerUserId, actor_role: 'backcheck', actor_name: 'Back-check', from_status: before.status, to_status: ResponseStatus.returned, comment, created_at: now }).execute();
      await trx.updateTable('backcheck_assignments').set({ returned: 1 }).where('id', '=', assignmentId).execute();
      await audit(trx, { organization_id: before.organization_id, survey_id: before.survey_id, from: before.status });
      return true;
    });
  }

  // --- the office's views

  async totals(surveyId: string) {
    const r = await this.db.selectFrom('backcheck_assignments').select([
      sql<number>`count(*)`.as('selected'),
      sql<number>`sum(case when backchecker_user_id is null and completed_at is null then 1 else 0 end)`.as('unassigned'),
      sql<number>`sum(case when completed_at is not null then 1 else 0 end)`.as('completed'),
      sql<number>`coalesce(sum(compared), 0)`.as('compared'),
      sql<number>`coalesce(sum(mismatched), 0)`.as('mismatched'),
      sql<number>`sum(returned)`.as('returned'),
    ]).where('survey_id', '=', surveyId).executeTakeFirstOrThrow();
    return { selected: Number(r.selected), unassigned: Number(r.unassigned ?? 0), completed: Number(r.completed ?? 0), compared: Number(r.compared), mismatched: Number(r.mismatched), returned: Number(r.returned ?? 0) };
  }

  /** Per field user with a selection, worst rate first. */
  async byFieldUser(surveyId: string, limit: number, offset: number) {
    const base = this.db.selectFrom('backcheck_assignments as a').innerJoin('members as m', 'm.id', 'a.member_id').where('a.survey_id', '=', surveyId);
    const [rows, total] = await Promise.all([
      base.select(['a.member_id', 'm.full_name', 'm.email',
        sql<number>`count(*)`.as('selected'), sql<number>`sum(case when a.completed_at is not null then 1 else 0 end)`.as('completed'),
        sql<number>`coalesce(sum(a.compared), 0)`.as('compared'), sql<number>`coalesce(sum(a.mismatched), 0)`.as('mismatched')])
        .groupBy(['a.member_id', 'm.full_name', 'm.email'])
        .orderBy(sql`coalesce(sum(a.mismatched), 0) * 1.0 / (coalesce(sum(a.compared), 0) + 1)`, 'desc').orderBy('a.member_id').limit(limit).offset(offset).execute(),
      base.select(sql<number>`count(distinct a.member_id)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => ({ memberId: r.member_id, fullName: r.full_name || r.email, selected: Number(r.selected), completed: Number(r.completed ?? 0), compared: Number(r.compared), mismatched: Number(r.mismatched) })), total: Number(total.n) };
  }

  async byQuestion(surveyId: string) {
    const rows = await this.db.selectFrom('backcheck_diffs').select(['question_id', sql<number>`count(*)`.as('compared'), sql<number>`sum(case when matched = 0 then 1 else 0 end)`.as('mismatched')])
      .where('survey_id', '=', surveyId).groupBy('question_id').execute();
    return rows.map((r) => ({ id: r.question_id, compared: Number(r.compared), mismatched: Number(r.mismatched ?? 0) }));
  }

  /** Completion times with their totals since `since` (the trend is bucketed by week in code: one expression on both engines). */
  completedSince(surveyId: string, since: number) {
    return this.db.selectFrom('backcheck_assignments').select(['completed_at', 'compared', 'mismatched'])
      .where('survey_id', '=', surveyId).where('completed_at', '>=', since).execute();
  }

  async assignments(surveyId: string, limit: number, offset: number) {
    const [rows, total] = await Promise.all([
      this.db.selectFrom('backcheck_assignments as a').innerJoin('members as m', 'm.id', 'a.member_id').leftJoin('members as b', 'b.id', 'a.backchecker_member_id')
        .select(['a.id', 'a.response_id', 'a.reason', 'a.selected_at', 'a.completed_at', 'a.compared', 'a.mismatched', 'a.mismatch', 'm.full_name', 'm.email', 'b.full_name as b_name', 'b.email as b_email'])
        .where('a.survey_id', '=', surveyId).orderBy('a.selected_at', 'desc').orderBy('a.id').limit(limit).offset(offset).execute(),
      this.db.selectFrom('backcheck_assignments').select(sql<number>`count(*)`.as('n')).where('survey_id', '=', surveyId).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** The assignment of a response with its back-checker's name. */
  ofResponse(responseId: string) {
    return this.db.selectFrom('backcheck_assignments as a').leftJoin('members as b', 'b.id', 'a.backchecker_member_id')
      .selectAll('a').select(['b.full_name as b_name', 'b.email as b_email'])
      .where('a.response_id', '=', responseId).executeTakeFirst();
  }

  diffs(assignmentId: string) {
    return this.db.selectFrom('backcheck_diffs').selectAll().where('assignment_id', '=', assignmentId).execute();
  }

  /** Completed back-checks of a survey for the export, oldest first, a batch at a time. */
  completed(surveyId: string, limit: number, offset: number) {
    return this.db.selectFrom('backcheck_assignments as a').innerJoin('members as m', 'm.id', 'a.member_id').leftJoin('members as b', 'b.id', 'a.backchecker_member_id')
      .innerJoin('backcheck_responses as br', 'br.assignment_id', 'a.id')
      .select(['a.id', 'a.response_id', 'a.completed_at', 'a.compared', 'a.mismatched', 'a.mismatch', 'a.returned', 'm.full_name', 'm.email', 'b.full_name as b_name', 'br.answers', 'br.form_version'])
      .where('a.survey_id', '=', surveyId).where('a.completed_at', 'is not', null)
      .orderBy('a.completed_at').orderBy('a.id').limit(limit).offset(offset).execute();
  }

  diffsOf(assignmentIds: string[]) {
    if (assignmentIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('backcheck_diffs').selectAll().where('assignment_id', 'in', assignmentIds).execute();
  }

  /** Each field user's last `window` completed back-checks: their totals and response ids. */
  async recentPerMember(surveyId: string, window: number) {
    const rows = await this.db.selectFrom('backcheck_assignments').select(['member_id', 'response_id', 'completed_at', 'compared', 'mismatched'])
      .where('survey_id', '=', surveyId).where('completed_at', 'is not', null)
      .orderBy('member_id').orderBy('completed_at', 'desc').orderBy('id', 'desc').execute();
    const out = new Map<string, { compared: number; mismatched: number; responseIds: string[] }>();
    for (const r of rows) {
      const m = out.get(r.member_id) ?? { compared: 0, mismatched: 0, responseIds: [] };
      if (m.responseIds.length >= window) continue;
      m.compared += Number(r.compared ?? 0);
      m.mismatched += Number(r.mismatched ?? 0);
      m.responseIds.push(r.response_id);
      out.set(r.member_id, m);
    }
    return out;
  }

  /** Of these responses, those whose `backcheck_mismatch` flag is still undismissed (not yet reviewed). */
  async unreviewedMismatches(responseIds: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < responseIds.length; i += CHUNK) {
      const rows = await this.db.selectFrom('response_flags').select('response_id').where('flag', '=', 'backcheck_mismatch').where('dismissed_at', 'is', null)
        .where('response_id', 'in', responseIds.slice(i, i + CHUNK)).execute();
      for (const r of rows) out.add(r.response_id);
    }
    return out;
  }

  /** The field users' responses a payout could take: pending or approved, unpaid, in no payout. */
  async payable(surveyId: string, memberIds: string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < memberIds.length; i += CHUNK) {
      const rows = await this.db.selectFrom('responses').select('id')
        .where('survey_id', '=', surveyId).where('member_id', 'in', memberIds.slice(i, i + CHUNK)).where('paid_at', 'is', null)
        .where('status', 'in', [ResponseStatus.pending, ResponseStatus.approved])
        .where(sql<boolean>`not ${inPayout('responses.id')}`)
        .execute();
      out.push(...rows.map((r) => r.id));
    }
    return out;
  }
}

export const newAssignmentId = (now: number) => uuidv7(now);

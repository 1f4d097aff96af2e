import type { Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, type Answers, type ByWeeksReply, type EncryptedAnswers, type ChangedResponse, type SurveyChangesQuery, type SurveyChangesReply, Limits, type ResponseListReply, type ResponseRow, type ResponseStatus, type StoredQuestion, type TopPerformerReply, WeekDay, withQuestionIds } from '@survey-bird/contracts';
import { badRequest, notFound } from '../../http/errors.js';
import type { FlagsService } from '../flags/service.js';
import type { OfficeActor, SupervisorActor } from '../../plugins/auth.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import { answersUnderHeaders, exportColumns, type ExportColumns } from './export-rows.js';
import { exportInWorker } from './export.js';
import { XLSX_OPTIONS, type ExportOptions } from './export-layout.js';
import { InsightRepository, type ChangedRow, type Key, type ListedResponse, type RowScope, type ScopedSurvey } from './repository.js';
import { fileLinkKey, linkExpiry } from '../files/file-links.js';
import { maskAnswers } from '@survey-bird/contracts/personal';
import { personalKeys } from '../privacy/personal-keys.js';
import { visibleMatch } from '../responses/search-text.js';
import { iso } from '../../lib/time.js';

/** Answer keys shown as PERSONAL_MASK; null: none hidden. */
export type Hidden = ReadonlySet<string> | null;

const DAY_MS = 86_400_000;
/** A week is 7 local days; a daylight-saving change makes one of them 25 hours long. */
const MAX_WEEK_MS = 7 * DAY_MS + 3_600_000;

export class InsightService {
  private readonly repo: InsightRepository;

  constructor(private readonly deps: Pick<Deps, 'config' | 'db' | 'log'>, private readonly flags: FlagsService) {
    this.repo = new InsightRepository(deps.db);
  }

  /** The survey and the rows the actor reads of it; another organization's, or one out of scope, is not found. */
  async survey(actor: OfficeActor | SupervisorActor, surveyId: string): Promise<ScopedSurvey> {
    const survey = await this.repo.findSurvey(actor, surveyId);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    return survey;
  }

  /** The answer keys of the survey's personal questions (privacy/personal-keys.ts). */
  async personalKeys(survey: { id: string; questions: string }): Promise<Set<string>> {
    return personalKeys({ versions: await this.repo.versionQuestions(survey.id), current: survey.questions });
  }

  /** The same, for a survey known by id. */
  async personalKeysById(surveyId: string): Promise<Set<string>> {
    return this.personalKeys({ id: surveyId, questions: await this.repo.surveyQuestions(surveyId) });
  }

  async responses(scope: RowScope, query: { page: number; searchQuery: string; after?: string; status?: ResponseStatus; flagged?: boolean }, hidden: Hidden = null): Promise<ResponseListReply> {
    const page = pageOf(query.page);
    const after = query.after ? keyOf(query.after) : null;
    const term = query.searchQuery.toLowerCase();
    // A reader kept from personal answers must not find a response by one: every plan's candidates are re-checked without them.
    const result = hidden && hidden.size > 0 && term !== ''
      ? await this.repo.listVisible(filtered(scope, query), term, page, after, (r) => visibleMatch(term, r.full_name, r.email, JSON.parse(r.answers) as Answers, hidden))
      : await this.repo.listResponses(filtered(scope, query), query.searchQuery, page, after);
    const last = result.rows.at(-1);
    const [flags, columns] = await Promise.all([this.flags.stateOf(result.rows.map((r) => r.id)), this.answerColumns(scope.surveyId)]);
    return {
      responses: result.rows.map((r) => ({ ...toResponseRow(r, columns, hidden), ...flags.get(r.id)! })),
      ...pagingReply(page, result.totalCount),
      hasNextPage: result.hasNextPage,
      nextCursor: result.hasNextPage && last ? `${Number(last.created_at)}.${last.id}` : null,
    };
  }

  async cards(scope: RowScope, now = Date.now()): Promise<TopPerformerReply> {
    const [top, activeFieldUsers, totalResponses, flaggedResponses] = await Promise.all([
      this.repo.topPerformer(scope),
      this.repo.activeFieldUsers(scope, now - Limits.activeFieldUserDays * DAY_MS),
      this.repo.countResponses(scope),
      this.flags.flaggedCount(scope.surveyId, scope.supervisorMemberId),
    ]);
    return { topPerformer: top?.fullName ?? null, activeFieldUsers, totalResponses, flaggedResponses };
  }

  /** A page of the survey's changes feed after the `since` cursor (repository changedSince). */
  async changes(surveyId: string, query: SurveyChangesQuery, hidden: Hidden = null): Promise<SurveyChangesReply> {
    const dot = query.since?.indexOf('.') ?? -1;
    const after = query.since ? { seq: query.since.slice(0, dot), id: query.since.slice(dot + 1) } : null;
    const [rows, columns] = await Promise.all([this.repo.changedSince(surveyId, after, query.limit + 1), this.answerColumns(surveyId)]);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      responses: page.map((r) => changedResponse(r, columns, hidden)),
      nextCursor: last ? `${last.change_seq}.${last.id}` : (query.since ?? '0.'),
      hasMore: rows.length > query.limit,
    };
  }

  /** One response as the feed gives it (personal answers masked when `withoutPersonal`), or undefined when it is gone. */
  async changedResponse(responseId: string, withoutPersonal = false): Promise<ChangedResponse | undefined> {
    const row = await this.repo.changedOne(responseId);
    if (!row) return undefined;
    const hidden = withoutPersonal ? await this.personalKeysById(row.survey_id) : null;
    return changedResponse(row, await this.answerColumns(row.survey_id), hidden);
  }

  /** Seven days from the client's local Sunday midnight; slot i is the i-th 24 hours after it. */
  async week(scope: RowScope, startDate: string, endDate: string): Promise<ByWeeksReply> {
    const start = Date.parse(startDate);
    const end = Date.parse(endDate);
    if (end <= start) throw badRequest(ApiMsg.weekRangeOrder);
    if (end - start > MAX_WEEK_MS) throw badRequest(ApiMsg.weekRangeTooLong);
    const days = WeekDay.options.map((day) => ({ day, value: 0, amount: 0 }));
    for (const slot of await this.repo.totalsByDay(scope.surveyId, start, end)) {
      // The 25-hour DST week puts its last hour in slot 7: it still belongs to Saturday.
      const day = days[Math.min(slot.day, 6)]!;
      day.value += slot.value;
      day.amount += slot.amount;
    }
    return days;
  }

  /**
   * The export's question columns over every version: the table and the detail view key answers
   * by them too, so the three agree. Null for a survey published before versions (one version,
   * its answers keyed by its only questions).
   */
  async answerColumns(surveyId: string): Promise<ExportColumns | null> {
    const stored = await this.repo.versionQuestions(surveyId);
    return stored.length === 0 ? null : columnsOf(stored);
  }

  /** Columns from every version of the survey (a survey published before versions has only its own questions). */
  async export(survey: ScopedSurvey, search: string, options: ExportOptions = XLSX_OPTIONS, hidden: Hidden = null): Promise<{ stream: Readable; repeats: number }> {
    const { config, db } = this.deps;
    const stored = await this.repo.versionQuestions(survey.id);
    const versions = stored.length > 0 ? stored : [{ version: 1, questions: survey.questions }];
    const columns = columnsOf(versions);
    const stream = exportInWorker(
      {
        db: { dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSchema: db.pgSchema, sqliteFile: db.sqlite?.name },
        scope: survey.scope,
        search,
        columns,
        publicUrl: config.publicUrl,
        options,
        hidden: hidden ? [...hidden] : [],
        title: survey.title,
        fileLink: { key: fileLinkKey(config.jwtSecret, config.fileLinkSecret), exp: linkExpiry(config.fileLinkTtlDays) },
      },
      (err) => this.deps.log.error({ err: err.message, surveyId: survey.id }, 'export failed'),
    );
    return { stream, repeats: columns.repeats?.length ?? 0 };
  }
}

/** The table's filters (status, flagged) on top of the caller's scope. */
export function filtered(scope: RowScope, query: { status?: ResponseStatus | undefined; flagged?: boolean | undefined }): RowScope {
  return { ...scope, ...(query.status ? { status: query.status } : {}), ...(query.flagged !== undefined ? { flagged: query.flagged } : {}) };
}

/** Questions stored before ids get theirs by position in each version, as every reply gives them. */
const columnsOf = (versions: { version: number; questions: string }[]) =>
  exportColumns(versions.map((v) => ({ version: v.version, questions: withQuestionIds(JSON.parse(v.questions) as StoredQuestion[]) })));

/** Answers as stored, re-keyed to the export's columns when the survey has versions. */
export function shownAnswers<A>(columns: ExportColumns | null, version: number, stored: string): Record<string, A> {
  const answers = JSON.parse(stored) as Record<string, A>;
  return columns ? answersUnderHeaders(columns, version, answers) : answers;
}

/** A ResponsesCursor (checked by the route's schema) back into the key it names. */
function keyOf(cursor: string): Key {
  const dot = cursor.indexOf('.');
  return { created_at: Number(cursor.slice(0, dot)), id: cursor.slice(dot + 1) };
}

/** Answers as shownAnswers gives them, with the hidden keys' answers masked. */
export function visibleAnswers<A>(columns: ExportColumns | null, version: number, stored: string, hidden: Hidden): Record<string, A> {
  const shown = shownAnswers<A>(columns, version, stored);
  return hidden ? maskAnswers(shown, hidden) : shown;
}

function toResponseRow(r: ListedResponse, columns: ExportColumns | null, hidden: Hidden): Omit<ResponseRow, 'checking' | 'flags'> {
  const fieldUser = { fullName: r.full_name, email: r.email };
  return {
    _id: r.id,
    survey_id: r.survey_id,
    organization_id: r.organization_id,
    answers: visibleAnswers<ResponseRow['answers'][string]>(columns, Number(r.version), r.answers, hidden),
    ...fieldUser,
    fieldUser,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    capturedAt: r.captured_at === null ? null : new Date(Number(r.captured_at)).toISOString(),
    status: r.status as ResponseStatus,
    // A reader who must not see personal answers does not get the envelope either: the server cannot mask inside it.
    ...(r.encrypted && !hidden ? { encrypted: JSON.parse(r.encrypted) as EncryptedAnswers } : {}),
  };
}


function changedResponse(r: ChangedRow, columns: ExportColumns | null, hidden: Hidden): ChangedResponse {
  return {
    _id: r.id,
    survey_id: r.survey_id,
    answers: visibleAnswers<ChangedResponse['answers'][string]>(columns, Number(r.version), r.answers, hidden),
    fullName: r.full_name,
    email: r.email,
    createdAt: iso(r.created_at),
    capturedAt: iso(r.captured_at),
    version: Number(r.version),
    revision: Number(r.revision),
    status: r.status as ResponseStatus,
    reviewedAt: iso(r.reviewed_at),
    reviewComment: r.review_comment,
    paid: r.paid === true || Number(r.paid) === 1,
  };
}

import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiMsg, type ByWeeksReply, Limits, type ResponseListReply, type ResponseRow, type ResponseStatus, type StoredQuestion, type TopPerformerReply, WeekDay, withQuestionIds } from '@survey-bird/contracts';
import { badRequest, notFound } from '../../http/errors.js';
import type { FlagsService } from '../flags/service.js';
import { pageOf, pagingReply } from '../../http/paging.js';
import { answersUnderHeaders, exportColumns, type ExportColumns } from './export-rows.js';
import { exportInWorker } from './export.js';
import { InsightRepository, type Key, type ListedResponse, type Scope, type ScopedSurvey } from './repository.js';

const DAY_MS = 86_400_000;
/** A week is 7 local days; a daylight-saving change makes one of them 25 hours long. */
const MAX_WEEK_MS = 7 * DAY_MS + 3_600_000;

export class InsightService {
  private readonly repo: InsightRepository;

  constructor(private readonly app: FastifyInstance, private readonly flags: FlagsService) {
    this.repo = new InsightRepository(app.db);
  }

  async organizationSurvey(surveyId: string, organizationId: string | null): Promise<ScopedSurvey> {
    const survey = organizationId ? await this.repo.findOrganizationSurvey(surveyId, organizationId) : undefined;
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    return survey;
  }

  async supervisorSurvey(surveyId: string, userId: string): Promise<ScopedSurvey> {
    const survey = await this.repo.findSupervisorSurvey(surveyId, userId);
    if (!survey) throw notFound(ApiMsg.surveyNotFound);
    return survey;
  }

  async responses(scope: Scope, query: { page: number; searchQuery: string; after?: string; status?: ResponseStatus; flagged?: boolean }): Promise<ResponseListReply> {
    const page = pageOf(query.page);
    const result = await this.repo.listResponses(filtered(scope, query), query.searchQuery, page, query.after ? keyOf(query.after) : null);
    const last = result.rows.at(-1);
    const [flags, columns] = await Promise.all([this.flags.stateOf(result.rows.map((r) => r.id)), this.answerColumns(scope.surveyId)]);
    return {
      responses: result.rows.map((r) => ({ ...toResponseRow(r, columns), ...flags.get(r.id)! })),
      ...pagingReply(page, result.totalCount),
      hasNextPage: result.hasNextPage,
      nextCursor: result.hasNextPage && last ? `${Number(last.created_at)}.${last.id}` : null,
    };
  }

  async cards(scope: Scope, now = Date.now()): Promise<TopPerformerReply> {
    const [top, activeFieldUsers, totalResponses, flaggedResponses] = await Promise.all([
      this.repo.topPerformer(scope),
      this.repo.activeFieldUsers(scope, now - Limits.activeFieldUserDays * DAY_MS),
      this.repo.countResponses(scope),
      this.flags.flaggedCount(scope.surveyId, scope.supervisorMemberId),
    ]);
    return { topPerformer: top?.fullName ?? null, activeFieldUsers, totalResponses, flaggedResponses };
  }

  /** Seven days from the client's local Sunday midnight; slot i is the i-th 24 hours after it. */
  async week(scope: Scope, startDate: string, endDate: string): Promise<ByWeeksReply> {
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
  async export(survey: ScopedSurvey, search: string): Promise<Readable> {
    const { config, db } = this.app;
    const stored = await this.repo.versionQuestions(survey.id);
    const versions = stored.length > 0 ? stored : [{ version: 1, questions: survey.questions }];
    return exportInWorker(
      {
        db: { dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSchema: db.pgSchema, sqliteFile: db.sqlite?.name },
        scope: survey.scope,
        search,
        columns: columnsOf(versions),
        publicUrl: config.publicUrl,
      },
      (err) => this.app.log.error({ err: err.message, surveyId: survey.id }, 'export failed'),
    );
  }
}

/** The table's filters (status, flagged) on top of the caller's scope. */
export function filtered(scope: Scope, query: { status?: ResponseStatus | undefined; flagged?: boolean | undefined }): Scope {
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

function toResponseRow(r: ListedResponse, columns: ExportColumns | null): Omit<ResponseRow, 'checking' | 'flags'> {
  const fieldUser = { fullName: r.full_name, email: r.email };
  return {
    _id: r.id,
    survey_id: r.survey_id,
    organization_id: r.organization_id,
    answers: shownAnswers<ResponseRow['answers'][string]>(columns, Number(r.version), r.answers),
    ...fieldUser,
    fieldUser,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    capturedAt: r.captured_at === null ? null : new Date(Number(r.captured_at)).toISOString(),
    status: r.status as ResponseStatus,
  };
}

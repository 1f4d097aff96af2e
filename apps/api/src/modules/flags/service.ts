import type { Deps } from '../../plugins/deps.js';
import { AuditAction, type QualityFlag, type ResponseFlag, type ResponseMeta } from '@survey-bird/contracts';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { notFound } from '../../http/errors.js';
import { answersUnderHeaders, type ExportColumns } from '../insight/export-rows.js';
import type { ReviewLookup, ReviewingActor } from '../review/index.js';
import { FlagWorker } from './flag-worker.js';
import { parseMeta } from './meta.js';
import type { FlagsRepository, PhotoFacts } from './repository.js';
import { iso } from '../../lib/time.js';

export const FlagMsg = { flagNotFound: 'This response has no such flag', dismissed: 'Flag dismissed' } as const;

type FlagRow = Awaited<ReturnType<FlagsRepository['flagsOf']>>['flags'][number];

function toFlag(f: FlagRow): ResponseFlag {
  return {
    flag: f.flag as QualityFlag,
    reason: f.reason,
    otherResponseId: f.other_response_id,
    dismissed: f.dismissed_at === null ? null : { by: f.dismissed_by ?? '', role: f.dismissed_role ?? '', at: new Date(Number(f.dismissed_at)).toISOString(), note: f.dismiss_note ?? '' },
  };
}

/**
 * Each photo under its question's text as the detail heads its answers (answersUnderHeaders, by
 * the response's own version): a version 1 photo whose question version 2 renamed goes by the new
 * name, so the office finds the answer it belongs to. A photo its version names no column for
 * keeps its own.
 */
function photosUnderHeaders(photos: PhotoFacts[], columns: ExportColumns | null, version: number): PhotoFacts[] {
  if (!columns || photos.length === 0) return photos;
  const headed = answersUnderHeaders(columns, version, Object.fromEntries(photos.map((p, i) => [p.question, i])));
  const headerOf = new Map(Object.entries(headed).map(([header, i]) => [i, header]));
  return photos.map((p, i) => ({ ...p, question: headerOf.get(i) ?? p.question }));
}

/** Quality flags: the worker that computes them, and what the office reads and dismisses. */
export class FlagsService {
  readonly worker: FlagWorker;
  constructor(
    deps: Pick<Deps, 'config' | 'db' | 'log'>,
    private readonly reviews: ReviewLookup,
  ) {
    this.worker = new FlagWorker(deps.db.kysely, deps.log, deps.config.flagPollMs, deps.config.maxOfflineAgeMs);
  }

  private get repo(): FlagsRepository {
    return this.worker.repo;
  }

  /** Per response id: still checking, and its flags (dismissed ones included, open ones first). */
  async stateOf(responseIds: string[]): Promise<Map<string, { checking: boolean; flags: ResponseFlag[] }>> {
    const { flags, checking } = await this.repo.flagsOf(responseIds);
    const out = new Map(responseIds.map((id) => [id, { checking: checking.has(id), flags: [] as ResponseFlag[] }]));
    for (const f of flags) out.get(f.response_id)?.flags.push(toFlag(f));
    for (const state of out.values()) state.flags.sort((a, b) => Number(a.dismissed !== null) - Number(b.dismissed !== null));
    return out;
  }

  /** `columns`: the survey's answer columns (InsightService.answerColumns), null before versions. */
  async metaOf(row: { meta: string | null; captured_at: number | null; version: number }, responseId: string, columns: ExportColumns | null): Promise<ResponseMeta> {
    const m = parseMeta(row.meta);
    const checked = await this.repo.photosOf(responseId);
    // Checked photos carry the server's SHA-256; before the check, the phone's hashes alone.
    const photos = checked.length > 0 ? checked : Object.entries(m.photoHashes ?? {}).map(([question, phash]) => ({ question, sha256: null, phash }));
    return {
      openedAt: iso(m.openedAt),
      capturedAt: iso(row.captured_at),
      durationMs: m.durationMs ?? null,
      locationAccuracy: m.locationAccuracy ?? null,
      locationFixedAt: iso(m.locationFixedAt),
      deviceId: m.deviceId ?? null,
      appVersion: m.appVersion ?? null,
      clockSkewMs: m.clockSkewMs ?? null,
      photos: photosUnderHeaders(photos, columns, Number(row.version)),
    };
  }

  async flaggedCount(surveyId: string, supervisorMemberId: string | null): Promise<number> {
    return this.repo.flaggedCount(surveyId, supervisorMemberId);
  }

  async flagsPerMember(surveyId: string, memberIds: string[]): Promise<Map<string, number>> {
    return this.repo.flagsPerMember(surveyId, memberIds);
  }

  /** A reviewer who may see the response dismisses one of its flags; dismissing it again changes nothing. */
  async dismiss(reviewer: ReviewingActor, responseId: string, flag: QualityFlag, note: string, actor: AuditActor, now = Date.now()): Promise<{ msg: string; flag: ResponseFlag }> {
    const [visible] = await this.reviews.targets(reviewer, [responseId]);
    if (!visible) throw notFound('Response not found');
    await this.repo.dismiss(responseId, flag, { userId: reviewer.userId, role: reviewer.role, name: await this.reviews.reviewerName(reviewer.userId) }, note, now, (trx) => recordAudit(trx, actor, {
      organizationId: visible.organization_id, action: AuditAction.dismissFlag, surveyId: visible.survey_id, target: { type: 'response', id: responseId },
      before: { flag, dismissed: false }, after: { flag, dismissed: true, note },
    }, now));
    const row = await this.repo.flag(responseId, flag);
    if (!row) throw notFound(FlagMsg.flagNotFound);
    return { msg: FlagMsg.dismissed, flag: toFlag(row) };
  }
}

import { randomBytes } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Deps } from '../../plugins/deps.js';
import { ApiMsg, AudioLimits, AudioStatus, AudioVerdict, AuditAction, Msg, ResponseStatus, type AudioReviewBody, type ResponseAudioAudit } from '@survey-bird/contracts';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import { parseMeta } from '../flags/meta.js';
import { FilesRepository } from '../files/files-repository.js';
import type { PlaceholderKey } from '../files/resumable-claims.js';
import { STORE_KINDS, type FileStores, type StoreKind } from '../files/store/index.js';
import type { IngestService } from '../responses/ingest-service.js';
import type { ReviewingActor } from '../review/repository.js';
import type { ReviewService } from '../review/service.js';
import { AudioRepository, audioAuditOf } from './repository.js';

export const AudioMsg = {
  noResponse: 'Send the response before its audio audit',
  notExpected: 'This response has no audio audit waiting for a clip',
  alreadyAttached: 'This audio audit clip is already stored',
  mismatch: 'This clip is not the one the response named (size or SHA-256 differ)',
  notAudio: 'Only an Opus clip in WebM or Ogg is accepted',
  noClip: 'This response has no audio audit clip',
  saved: { matches: 'Audio audit marked: matches', does_not_match: 'Audio audit marked: does not match' },
  notReviewable: 'This response cannot be returned or rejected now; mark the audio without a status change, or cancel its payout first',
} as const;

/** The fields a resumable audio upload names (its Upload-Metadata). */
export interface AudioUploadFields {
  survey_id?: string | undefined;
  organization_id?: string | undefined;
  clientId?: string | undefined;
}

/**
 * Audio audit clips: checked before a resumable upload starts (the response must be stored and
 * have named a clip of that size), stored through the photo stores under the response's clientId
 * with an empty question (no photo question is empty, so the two never share a key), and attached
 * to the response in `audio_audits`. Only the response's reviewers hear it; the field user who
 * recorded it is never served it.
 */
export class AudioService {
  private readonly repo: AudioRepository;

  constructor(private readonly deps: Pick<Deps, 'db'>, private readonly ingest: IngestService, private readonly stores: FileStores, private readonly review: ReviewService) {
    this.repo = new AudioRepository(deps.db.kysely);
  }

  /** Before any byte: the caller's stored response names a recorded clip of this size, not yet stored. */
  async checkUpload(userId: string, fields: AudioUploadFields, size: number | undefined): Promise<PlaceholderKey> {
    const target = await this.target(userId, fields);
    if (size === undefined || size > AudioLimits.maxBytes) throw new HttpError(413, Msg.payloadTooLarge);
    if (target.fileId) throw conflict(AudioMsg.alreadyAttached);
    if (target.size !== size) throw badRequest(AudioMsg.mismatch);
    return { userId, surveyId: target.surveyId, clientId: target.clientId, question: '' };
  }

  /** The finished upload: checked against what the response named, stored, attached. Answers the file id. */
  async store(userId: string, fields: AudioUploadFields, file: { tempPath: string; size: number; sha256: string }): Promise<string> {
    try {
      const target = await this.target(userId, fields);
      if (target.size !== file.size || target.sha256 !== file.sha256) throw badRequest(AudioMsg.mismatch);
      const mime = await audioMime(file.tempPath);
      if (!mime) throw new HttpError(415, AudioMsg.notAudio);
      if (target.fileId) return target.fileId;
      const id = randomBytes(32).toString('base64url');
      const stored = { id, path: `uploads/${id}.${mime === 'audio/ogg' ? 'ogg' : 'webm'}` };
      const store = this.stores.current;
      const { row } = await store.save(stored, file.tempPath, (db) => new FilesRepository(db).insertOnce({
        ...stored, user_id: userId, client_id: target.clientId, question: '', survey_id: target.surveyId, mime, size: file.size, sha256: file.sha256, created_at: Date.now(), store: store.kind,
      }));
      await this.repo.attach(target.responseId, target.surveyId, row.id, Date.now());
      return row.id;
    } finally {
      await unlink(file.tempPath).catch(() => undefined);
    }
  }

  private async target(userId: string, fields: AudioUploadFields) {
    const { survey_id: surveyId, organization_id: organizationId, clientId } = fields;
    if (!surveyId || !organizationId || !clientId) throw badRequest(ApiMsg.uploadFieldsMissing);
    const { survey } = await this.ingest.access(userId, surveyId);
    if (organizationId !== survey.organizationId) throw badRequest(ApiMsg.organizationMismatch);
    const response = await this.repo.responseOf(userId, survey.id, clientId);
    if (!response) throw badRequest(AudioMsg.noResponse);
    const audio = parseMeta(response.meta).audio;
    if (response.audio !== AudioStatus.recorded || audio?.size === undefined) throw badRequest(AudioMsg.notExpected);
    return { responseId: response.id, surveyId: survey.id, clientId, size: audio.size, sha256: audio.sha256, fileId: response.file_id };
  }

  /** The clip of a response the caller may see, streamed; 404 when none is stored. */
  async clip(reviewer: ReviewingActor, responseId: string): Promise<{ stream: Readable; mime: string; size: number }> {
    const response = await this.review.visibleResponse(reviewer, responseId);
    if (!response) throw notFound(AudioMsg.noClip);
    const file = await this.repo.clipFile(response.id);
    if (!file || !(STORE_KINDS as readonly string[]).includes(file.store)) throw notFound(AudioMsg.noClip);
    const stream = await this.stores.get(file.store as StoreKind).open(file);
    if (!stream) throw notFound(AudioMsg.noClip);
    return { stream, mime: file.mime, size: Number(file.size) };
  }

  /**
   * The reviewer's verdict on the clip (audited). "Does not match" also returns or rejects the
   * response with the reason, through the one review path (its refusals apply: a paid response or
   * one in a payout keeps its status, and the verdict is not recorded either).
   */
  async verdict(reviewer: ReviewingActor, responseId: string, body: AudioReviewBody, actor: AuditActor): Promise<ResponseAudioAudit> {
    const response = await this.review.visibleResponse(reviewer, responseId);
    if (!response) throw notFound(AudioMsg.noClip);
    const file = await this.repo.clipFile(response.id);
    if (!file) throw notFound(AudioMsg.noClip);
    const note = body.verdict === AudioVerdict.doesNotMatch ? body.reason ?? null : body.reason || null;
    if (body.verdict === AudioVerdict.doesNotMatch && body.status) {
      const to = body.status === 'returned' ? ResponseStatus.returned : ResponseStatus.rejected;
      const [result] = await this.review.review(reviewer, { responseIds: [response.id], status: to, comment: `Audio audit does not match: ${note ?? ''}`.trim() }, actor);
      if (result && result.status !== 200) throw new HttpError(result.status, result.msg);
    }
    const name = await this.review.nameOf(reviewer);
    const now = Date.now();
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await new AudioRepository(trx).setVerdict(response.id, body.verdict, note, name, now);
      await recordAudit(trx, actor, { organizationId: response.organization_id, action: AuditAction.audioVerdict, surveyId: response.survey_id, target: { type: 'response', id: response.id }, after: { verdict: body.verdict, ...(note ? { note } : {}), ...(body.status ? { status: body.status } : {}) } }, now);
    });
    return (await audioAuditOf(this.deps.db.kysely, response))!;
  }
}

/** The clip's type from its first bytes: WebM (EBML header) or Ogg; anything else is refused. */
async function audioMime(path: string): Promise<string | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return 'audio/webm';
    if (head.toString('latin1') === 'OggS') return 'audio/ogg';
    return null;
  } finally {
    await handle.close();
  }
}


import { Msg, PHOTO_FILE_NAME, uuidv7, type PhotoPlaceholder, type UploadImageReply } from '@survey-bird/contracts';
import table from '../../api/route-table';
import { rejectToken } from '../accounts';
import type { OutboxRecord, StoredRecord } from '../db';
import { markFailed, recordPhotoRef } from '../outbox';
import { PhotoUnreadableError, readPhoto } from '../photo-store';
import { classify, NO_ANSWER, type Verdict } from '../retry-policy';
import { keepAlive, request, unexpectedReply, UPLOAD_TIMEOUT_MS, type Ctx, type RetryVerdict, type Step, type Tus } from '../sync-run';
import { holdingPhotos } from '../sync-wifi';
import { markPhotoRefused, markPhotoSent, recordPlaceholders, recordsWithPendingPhotos } from './sync-photos';
import type { OpenUpload, ResumableResult, UploadTarget } from './sync-tus';

/**
 * How a sync run delivers photos (sync-engine.ts calls it): a fix's photos uploaded before its
 * response, placeholders (size, SHA-256, photo id) for a new response's, and after all text the
 * pending photos one at a time, smallest response first, by tus from the page (sync-tus.ts) and
 * whole from the service worker.
 */

/** A record's photo, or undefined when the phone can no longer read it (the caller marks it refused). */
async function photoOrNothing(recordId: string, question: string): Promise<Blob | undefined> {
  try {
    return await readPhoto(recordId, question);
  } catch (err) {
    if (!(err instanceof PhotoUnreadableError)) throw err;
    return undefined;
  }
}

/** The record with every photo's reference, 'done' when it ended failed, or how the run must stop. */
export async function uploadPhotos(ctx: Ctx, record: OutboxRecord): Promise<OutboxRecord | 'done' | Step | RetryVerdict> {
  const refs = { ...record.photoRefs };
  for (const question of record.photoQuestions) {
    if (refs[question] !== undefined) continue;
    const photo = await photoOrNothing(record.id, question);
    if (!photo) {
      await markFailed(record.id, ctx.lock.run, NO_ANSWER, new PhotoUnreadableError(question).message, question);
      ctx.summary.failed++;
      return 'done';
    }
    if (!(await keepAlive(ctx))) return 'lost';
    const sent = await postPhoto(ctx, record, question, photo);
    if (sent === 'auth' || sent.kind === 'retry') return sent;
    if (sent.kind === 'failed') {
      await markFailed(record.id, ctx.lock.run, sent.status, sent.msg, question);
      ctx.summary.failed++;
      return 'done';
    }
    const reference = sent.reference;
    refs[question] = reference;
    await recordPhotoRef(record.id, ctx.lock.run, question, reference);
  }
  return { ...record, photoRefs: refs };
}

type PhotoSent = { kind: 'ok'; reference: string } | Extract<Verdict, { kind: 'failed' }> | RetryVerdict | 'auth';

/** One photo to POST /files/image, matched by the response's clientId and the question. */
async function postPhoto(ctx: Ctx, record: StoredRecord, question: string, photo: Blob): Promise<PhotoSent> {
  const form = new FormData();
  form.append('question', question);
  form.append('survey_name', record.surveyId);
  form.append('organization_name', record.organizationId);
  form.append('clientId', record.id);
  form.append(question, photo, PHOTO_FILE_NAME);
  const { verdict, body } = await request(ctx, 'uploadImage', { form }, UPLOAD_TIMEOUT_MS);
  if (verdict.kind === 'auth') return 'auth';
  if (verdict.kind !== 'ok') return verdict;
  const reference = (body as UploadImageReply | undefined)?.[question];
  return typeof reference === 'string' && reference !== '' ? { kind: 'ok', reference } : unexpectedReply();
}

/**
 * The record with a placeholder (size, SHA-256, a photo id) for every photo not uploaded yet, kept
 * on the record before the first send; 'done' when a photo cannot be read (the record failed).
 */
export async function withPlaceholders(ctx: Ctx, record: OutboxRecord): Promise<OutboxRecord | 'done'> {
  const made: Record<string, PhotoPlaceholder> = {};
  for (const question of record.photoQuestions) {
    if (record.photoRefs[question] !== undefined || record.photoPlaceholders?.[question]) continue;
    const photo = await photoOrNothing(record.id, question);
    if (!photo) {
      await markFailed(record.id, ctx.lock.run, NO_ANSWER, new PhotoUnreadableError(question).message, question);
      ctx.summary.failed++;
      return 'done';
    }
    made[question] = { question, clientId: uuidv7(), size: photo.size, sha256: await sha256Hex(photo) };
  }
  if (Object.keys(made).length === 0) return record;
  await recordPlaceholders(record.id, ctx.lock.run, made);
  return { ...record, photoPlaceholders: { ...record.photoPlaceholders, ...made } };
}

async function sha256Hex(blob: Blob): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The questions whose photos the body sends as placeholders (not uploaded before the response). */
export const placeholderQuestions = (record: OutboxRecord) => Object.keys(record.photoPlaceholders ?? {}).filter((q) => record.photoRefs[q] === undefined);

/**
 * The photos of responses the server already holds, one at a time, the smallest response first
 * (its photos smallest first), so the most responses are complete soonest. Answers false when the
 * run must stop (no answer, 5xx, 429, the token refused, the lease lost).
 */
export async function sendPendingPhotos(ctx: Ctx): Promise<boolean> {
  // "Send photos on Wi-Fi only": the responses went; their photos wait for Wi-Fi.
  if (await holdingPhotos()) return true;
  const records = await recordsWithPendingPhotos(ctx.account);
  const sizeOf = (r: StoredRecord, q: string) => r.photoPlaceholders?.[q]?.size ?? 0;
  const jobs = records
    .map((r) => ({ r, bytes: r.photosPending!.reduce((sum, q) => sum + sizeOf(r, q), 0) }))
    .sort((a, b) => a.bytes - b.bytes || a.r.createdAt - b.r.createdAt);
  if (jobs.length === 0) return true;
  const total = jobs.reduce((sum, j) => sum + j.bytes, 0);
  const queue = jobs.flatMap(({ r }) => [...r.photosPending!].sort((a, b) => sizeOf(r, a) - sizeOf(r, b)).map((question) => ({ r, question })));
  let left = queue.length;
  let done = 0;
  const report = (current: number) => ctx.onPhotoProgress?.({ photos: left, bytesLeft: Math.max(0, total - done - current), fraction: total > 0 ? Math.min(1, (done + current) / total) : 1 });
  const tus = ctx.resumable ? await ctx.resumable() : undefined;
  let ahead: Promise<OpenUpload | ResumableResult> | undefined;
  try {
    report(0);
    for (const [i, { r, question }] of queue.entries()) {
      const opened = ahead;
      ahead = undefined;
      if (!(await ctx.lock.renew(ctx.now()))) return false;
      const photo = await photoOrNothing(r.id, question);
      if (!photo) {
        await markPhotoRefused(r.id, question, NO_ANSWER, new PhotoUnreadableError(question).message);
        // Its upload (opened ahead, or left by an earlier run) will never finish: cancelled, not left to expire.
        const target = tus && uploadTarget(ctx, r, question);
        if (target) await tus.cancelUpload(target, opened);
        continue;
      }
      // The next photo's upload is opened while this one's bytes are on the link: a round trip
      // fewer per photo, 0.8 s on 2G (docs/benchmarks.md, target 11).
      const next = queue[i + 1];
      const nextTarget = next && tus && uploadTarget(ctx, next.r, next.question);
      if (nextTarget) ahead = tus.openUpload(nextTarget).catch(() => ({ kind: 'error', status: 0, msg: Msg.unexpectedError, retryAfter: null }) as const);
      const sent = await sendPhoto(ctx, tus, r, question, photo, report, opened);
      if (sent === 'auth') {
        ctx.summary.authRequired = true;
        await rejectToken(ctx.account, ctx.token);
        return false;
      }
      if (sent.kind === 'retry') return false;
      if (sent.kind === 'failed') await markPhotoRefused(r.id, question, sent.status, sent.msg);
      else await markPhotoSent(r.id, question, sent.reference);
      done += sizeOf(r, question);
      left--;
      report(0);
    }
    return true;
  } finally {
    ctx.onPhotoProgress?.(null);
  }
}

/** Where a pending photo goes by tus; undefined for one without a placeholder (sent whole). */
function uploadTarget(ctx: Ctx, r: StoredRecord, question: string): UploadTarget | undefined {
  const placeholder = r.photoPlaceholders?.[question];
  if (!placeholder) return undefined;
  const origin = ctx.baseUrl || globalThis.location?.origin || '';
  return { endpoint: origin + table.resumableCreate.path, token: ctx.token, account: ctx.account, responseId: r.id, surveyId: r.surveyId, organizationId: r.organizationId, question, placeholder };
}

/** A pending photo by tus from the page (resuming a cut upload), whole by multipart from the service worker. */
async function sendPhoto(ctx: Ctx, tus: Tus | undefined, r: StoredRecord, question: string, photo: Blob, report: (sent: number) => void, opened: Promise<OpenUpload | ResumableResult> | undefined): Promise<PhotoSent> {
  const target = uploadTarget(ctx, r, question);
  if (!tus || !target) return postPhoto(ctx, r, question, photo);
  const result = await tus.sendResumable({ ...target, photo, onProgress: (sent) => report(sent) }, opened);
  if (result.kind === 'ok') return { kind: 'ok', reference: result.reference ?? '' };
  const verdict = result.status === 0 ? { kind: 'retry' as const, status: NO_ANSWER, msg: result.msg } : classify(result.status, result.msg, result.retryAfter, ctx.now());
  return verdict.kind === 'auth' ? 'auth' : verdict.kind === 'ok' ? unexpectedReply() : verdict;
}

import { Limits, Msg, Role, type ChangesReply, type CurrentUserReply, type EarningsReply, type RespondBody, type RespondReply, type SyncItem, type SyncResponsesReply } from '@survey-bird/contracts';
import { rejectToken, isTokenRejected } from './accounts';
import { accountKey, type AccountKey, type OutboxRecord } from './db';
import { LEASE_MS, withSyncLock } from './lock';
import { claimDue, counts, markFailed, markRetry, markSynced, recoverStuck, release, setLastSyncAt } from './outbox';
import { markSyncedBeforePhotos } from './photos/sync-photos';
import { placeholderQuestions, sendPendingPhotos, uploadPhotos, withPlaceholders } from './photos/delivery';
import { sendPendingAudio } from './audio/sync-audio';
import { applyChanges, changesCursor, saveEarnings } from './statuses';
import { answersToSend, sealForOffice } from './office-seal';
import { deviceReport, type DeviceInfo } from './device-report';
import { classify, NO_ANSWER, type Verdict } from './retry-policy';
import { keepAlive, request, REQUEST_TIMEOUT_MS, unexpectedReply, type Ctx, type PhotoProgress, type RetryVerdict, type Step, type Tus } from './sync-run';

/**
 * Delivers one account's queued responses. The same code runs in the page (scheduler.ts) and in
 * the service worker (sw-sync.ts), so it uses only fetch, IndexedDB, crypto and navigator.locks.
 *
 * A run: take the account's lock -> put records a dead run left in `sending` back in the queue ->
 * check the token is this account's (GET /user, once per token) -> repeatedly claim up to
 * BATCH_SIZE due records, give their photos placeholders (a fix uploads its photos instead, each
 * once: its reference is saved on the record), then send them in one POST /sync/responses and
 * apply each item's result -> once no text is left, upload the photos the server waits for, one at
 * a time, smallest response first. A server without the batch route (404) gets POST
 * /survey/respond per record. The run stops at the first sign of trouble that is not a single
 * record's fault (no answer, 5xx, 429, 401).
 */

export const BATCH_SIZE = Math.min(50, Limits.maxBatch);

export interface SyncAccountOptions {
  /** The account whose outbox is sent (its key: the e-mail trimmed and lower-cased). */
  account: AccountKey;
  /** That account's token; the outbox of another account is never sent with it. */
  token: string;
  /** Origin of the API; '' (same origin) by default. */
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
  /** The page's device id and app version: the run ends with a device report. The service worker has none and skips it. */
  device?: DeviceInfo;
  /**
   * Photos of sent responses go by tus (sync-tus.ts, loaded through this), resuming where a cut
   * upload stopped. The page only: a service worker has no XMLHttpRequest nor dynamic import (and
   * its bundle must not reach for one), and sends them whole.
   */
  resumable?: () => Promise<Tus>;
  /** What is left of the photos being sent after their responses; null once the run is done with them. */
  onPhotoProgress?: (progress: PhotoProgress | null) => void;
}

export interface SyncSummary {
  /** Responses the server confirmed in this run. */
  sent: number;
  /** Responses the server refused in this run (now `failed`, waiting for the user). */
  failed: number;
  /** Still to deliver (queued or sending) after the run. */
  remaining: number;
  /** The token was refused (401) or is not this account's: the user must sign in again. */
  authRequired: boolean;
  /** Another tab or the service worker was already syncing this account; nothing was done. */
  busy: boolean;
}

/** Tokens already checked against GET /user in this context: token -> account and whether it is a field user's. */
const verifiedTokens = new Map<string, { account: AccountKey; fieldUser: boolean }>();

/**
 * The changes feed, the earnings and the device report are a field user's routes (403 to anyone else):
 * an office account stored on this phone is synced (its token checked) but never asks for them.
 */
const isFieldUser = (ctx: Ctx) => verifiedTokens.get(ctx.token)?.fieldUser === true;

export async function syncAccount(options: SyncAccountOptions): Promise<SyncSummary> {
  const account = accountKey(options.account);
  const now = options.now ?? Date.now;
  const summary: SyncSummary = { sent: 0, failed: 0, remaining: 0, authRequired: false, busy: false };
  if (await isTokenRejected(account, options.token)) summary.authRequired = true;
  else {
    const done = await withSyncLock(
      account,
      async (lock) => {
        const ctx: Ctx = {
          account,
          token: options.token,
          resumable: options.resumable,
          onPhotoProgress: options.onPhotoProgress,
          baseUrl: options.baseUrl ?? '',
          fetch: options.fetch ?? ((input, init) => fetch(input, init)),
          now,
          random: options.random,
          lock,
          summary,
        };
        // Text first, every photo after it: the office sees and counts the responses at once.
        // Audit clips last: they are for the office's checks, never in the way of a response or a photo.
        const reachable = (await runLocked(ctx)) && !summary.authRequired && (await sendPendingPhotos(ctx)) && (await sendPendingAudio(ctx));
        // Then what became of the responses already sent (review, fix, payment) and the earnings.
        if (reachable && !summary.authRequired) await pullStatuses(ctx);
        if (reachable && !summary.authRequired && options.device && isFieldUser(ctx)) await reportDevice(ctx, options.device);
        return true;
      },
      now,
    );
    if (!done) summary.busy = true;
  }
  summary.remaining = await pendingCount(account);
  return summary;
}

export async function pendingCount(account: AccountKey): Promise<number> {
  const { queued, sending } = await counts(account);
  return queued + sending;
}

/** Delivers the due records; answers false when the server could not be reached (no point pulling). */
async function runLocked(ctx: Ctx): Promise<boolean> {
  const { account, lock } = ctx;
  await recoverStuck(account, lock.run, ctx.now(), LEASE_MS, lock.holdingWebLock);
  const tried = new Set<string>();
  let verified = false;
  for (;;) {
    const claimed = await claimDue(account, { run: lock.run, at: ctx.now(), locked: lock.holdingWebLock }, ctx.now(), BATCH_SIZE, tried);
    if (claimed.length === 0) return true;
    for (const r of claimed) tried.add(r.id);
    const open = new Map(claimed.map((r) => [r.id, r]));
    const attempt = async (): Promise<Step | RetryVerdict> => {
      if (!verified) {
        const check = await verifyToken(ctx);
        if (check !== 'go') return check;
        verified = true;
      }
      const ready: OutboxRecord[] = [];
      for (const record of claimed) {
        // A fix sends its photos first: the server takes no placeholders on a fix.
        const uploaded = record.revisionOf ? await uploadPhotos(ctx, record) : await withPlaceholders(ctx, record);
        if (uploaded === 'done') open.delete(record.id);
        else if (typeof uploaded === 'object' && 'id' in uploaded) ready.push(uploaded);
        else {
          if (typeof uploaded === 'object') {
            await markRetry(record.id, lock.run, uploaded, ctx.now(), ctx.random);
            open.delete(record.id);
          }
          return uploaded;
        }
      }
      return ready.length > 0 ? sendBatch(ctx, await sealForOffice(ready), open) : 'go';
    };
    let step: Step | RetryVerdict;
    try {
      step = await attempt();
    } catch (err) {
      // A bug or a storage error: hand the records back now rather than after the lease runs out.
      await release([...open.keys()], lock.run).catch(() => undefined);
      throw err;
    }
    if (step === 'go') continue;
    const rest = [...open.keys()];
    if (step === 'auth') {
      ctx.summary.authRequired = true;
      await rejectToken(account, ctx.token);
      await release(rest, lock.run);
    } else if (typeof step === 'object') {
      // No answer or an overloaded server: everything still claimed would fare the same; back off.
      for (const id of rest) await markRetry(id, lock.run, step, ctx.now(), ctx.random);
      return false;
    }
    // 'lost': another run owns these records now; leave them alone.
    return false;
  }
}

/**
 * Pulls the changes feed from the stored cursor (page after page while `hasMore`), then the
 * earnings. With nothing changed that is two small requests; any trouble simply ends the pull,
 * and the next run starts again from the cursor stored with the last page applied.
 */
async function pullStatuses(ctx: Ctx): Promise<void> {
  const check = await verifyToken(ctx);
  if (check === 'auth') {
    ctx.summary.authRequired = true;
    await rejectToken(ctx.account, ctx.token);
    return;
  }
  if (check !== 'go' || !isFieldUser(ctx)) return;
  for (let page = 0; page < 1000; page++) {
    if (!(await ctx.lock.renew(ctx.now()))) return;
    const since = await changesCursor(ctx.account);
    const { verdict, body } = await request(ctx, 'myResponseChanges', { query: { since: since || undefined } }, REQUEST_TIMEOUT_MS);
    if (verdict.kind !== 'ok') return;
    const reply = body as Partial<ChangesReply> | undefined;
    if (!reply || !Array.isArray(reply.changes) || typeof reply.cursor !== 'string') return;
    await applyChanges(ctx.account, reply as ChangesReply);
    if (!reply.hasMore) break;
  }
  const { verdict, body } = await request(ctx, 'myEarnings', {}, REQUEST_TIMEOUT_MS);
  const earnings = body as Partial<EarningsReply> | undefined;
  if (verdict.kind === 'ok' && earnings?.owed && earnings.paid && earnings.awaitingReview && earnings.returned && earnings.rejected) await saveEarnings(ctx.account, earnings as EarningsReply, ctx.now());
}

/** Tells the office what is still on this phone; a failure is left for the next run to retry. */
async function reportDevice(ctx: Ctx, device: DeviceInfo): Promise<void> {
  const body = await deviceReport(ctx.account, device, ctx.now());
  await request(ctx, 'reportDevice', { json: body }, REQUEST_TIMEOUT_MS);
}

/** The token must belong to this account before any of its responses goes out with it. */
async function verifyToken(ctx: Ctx): Promise<Step | RetryVerdict> {
  if (verifiedTokens.get(ctx.token)?.account === ctx.account) return 'go';
  if (!(await keepAlive(ctx))) return 'lost';
  const { verdict, body } = await request(ctx, 'currentUser', {}, REQUEST_TIMEOUT_MS);
  if (verdict.kind === 'auth') return 'auth';
  if (verdict.kind === 'retry') return verdict;
  if (verdict.kind === 'failed') return { kind: 'retry', status: verdict.status, msg: verdict.msg };
  const user = (body as Partial<CurrentUserReply> | undefined)?.user;
  const email = user?.email;
  if (typeof email !== 'string') return unexpectedReply();
  if (accountKey(email) !== ctx.account) return 'auth';
  verifiedTokens.set(ctx.token, { account: ctx.account, fieldUser: user?.role === Role.fieldUser });
  return 'go';
}

function toBody(ctx: Ctx, record: OutboxRecord): SyncItem {
  // Defence in depth: claimDue only returns this account's records.
  if (record.account !== ctx.account) throw new Error('A response of another account reached the sync of this one');
  return {
    survey_id: record.surveyId,
    organization_id: record.organizationId,
    ...answersToSend(record),
    clientId: record.id,
    capturedAt: record.capturedAt,
    ...(record.revisionOf ? { revisionOf: record.revisionOf } : {}),
    ...(record.backcheckOf ? { backcheckOf: record.backcheckOf } : {}),
    ...(record.version !== undefined ? { version: record.version } : {}),
    ...record.meta,
    // The phone's clock, until a request of this run has been answered: the server compares it with its own once per sync.
    ...(ctx.clockSent ? {} : { sentAt: new Date().toISOString() }),
    ...(placeholderQuestions(record).length > 0 ? { photos: placeholderQuestions(record).map((q) => record.photoPlaceholders![q]!) } : {}),
    ...(record.audio ? { audio: record.audio } : {}),
  };
}

/** Applies one response's result; 'auth' when the server refused the token for it. */
async function apply(ctx: Ctx, record: OutboxRecord, verdict: Verdict, serverId: string | undefined): Promise<'ok' | 'auth'> {
  const { run } = ctx.lock;
  switch (verdict.kind) {
    case 'ok':
      if (await (placeholderQuestions(record).length > 0 ? markSyncedBeforePhotos(record.id, run, serverId, ctx.now(), placeholderQuestions(record)) : markSynced(record.id, run, serverId, ctx.now()))) ctx.summary.sent++;
      return 'ok';
    case 'failed':
      if (await markFailed(record.id, run, verdict.status, verdict.msg)) ctx.summary.failed++;
      return 'ok';
    case 'retry':
      await markRetry(record.id, run, verdict, ctx.now(), ctx.random);
      return 'ok';
    case 'auth':
      return 'auth';
  }
}

type SyncResult = SyncResponsesReply['results'][number];

/** The batch reply's results by clientId; undefined when the reply is not one. */
function resultsOf(body: unknown): Map<string, SyncResult> | undefined {
  const results = (body as Partial<SyncResponsesReply> | undefined)?.results;
  if (!Array.isArray(results)) return undefined;
  const byId = new Map<string, SyncResult>();
  for (const r of results as unknown[]) {
    const item = r as Partial<SyncResult> | null;
    if (typeof item?.clientId !== 'string' || typeof item.status !== 'number') return undefined;
    byId.set(item.clientId, { clientId: item.clientId, status: item.status, msg: typeof item.msg === 'string' ? item.msg : Msg.unexpectedError, ...(typeof item._id === 'string' ? { _id: item._id } : {}) });
  }
  return byId;
}

async function sendBatch(ctx: Ctx, ready: OutboxRecord[], open: Map<string, OutboxRecord>): Promise<Step | RetryVerdict> {
  if (!(await keepAlive(ctx))) return 'lost';
  const responses = ready.map((r) => toBody(ctx, r));
  const { verdict, body } = await request(ctx, 'syncResponses', { json: { responses } }, REQUEST_TIMEOUT_MS);
  if (verdict.kind === 'auth') return 'auth';
  if (verdict.kind === 'retry') return verdict;
  // 404: a server from before the batch route. Another 4xx on the envelope says nothing about a
  // single response, so each one is sent alone and gets its own verdict.
  if (verdict.kind === 'failed') return sendOneByOne(ctx, ready, open);
  const results = resultsOf(body);
  if (!results) return unexpectedReply();
  let auth = false;
  for (const record of ready) {
    const result = results.get(record.id);
    const itemVerdict: Verdict = result ? classify(result.status, result.msg) : { kind: 'retry', status: NO_ANSWER, msg: 'The server did not answer for this response' };
    if ((await apply(ctx, record, itemVerdict, result?._id)) === 'auth') auth = true;
    else open.delete(record.id);
  }
  await noteSuccess(ctx);
  ctx.clockSent = true;
  return auth ? 'auth' : 'go';
}

async function sendOneByOne(ctx: Ctx, ready: OutboxRecord[], open: Map<string, OutboxRecord>): Promise<Step | RetryVerdict> {
  for (const record of ready) {
    if (!(await keepAlive(ctx))) return 'lost';
    const body: RespondBody = toBody(ctx, record);
    const outcome = await request(ctx, 'respond', { json: body }, REQUEST_TIMEOUT_MS);
    if (outcome.verdict.kind === 'auth') return 'auth';
    if (outcome.verdict.kind === 'retry') return outcome.verdict;
    // An older server may answer without _id; the response is received all the same.
    const id = (outcome.body as Partial<RespondReply> | undefined)?._id;
    const serverId = outcome.verdict.kind === 'ok' && typeof id === 'string' ? id : undefined;
    await apply(ctx, record, outcome.verdict, serverId);
    ctx.clockSent = true;
    open.delete(record.id);
  }
  await noteSuccess(ctx);
  return 'go';
}

async function noteSuccess(ctx: Ctx): Promise<void> {
  if (ctx.summary.sent > 0) await setLastSyncAt(ctx.account, ctx.now());
}

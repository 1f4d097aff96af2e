import { Msg, type RouteName } from '@survey-bird/contracts';
import table from '../api/route-table';
import { msgOf, send, type SendArgs } from '../api/transport';
import type { AccountKey } from './db';
import type { SyncLock } from './lock';
import { touchClaims } from './outbox';
import { classify, classifyError, NO_ANSWER, type Verdict } from './retry-policy';
import type { SyncSummary } from './sync-engine';

/**
 * What one sync run carries and how it talks to the server, shared by the text of the responses
 * (sync-engine.ts) and the delivery of their photos (photos/delivery.ts).
 */

export const REQUEST_TIMEOUT_MS = 60_000;
/** A 2000 px JPEG on a weak 2G link can take minutes; must stay below LEASE_MS. */
export const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** The tus client (photos/sync-tus.ts), which the page loads lazily and the service worker never. */
export type Tus = typeof import('./photos/sync-tus');

/** "2 photos, 1.4 MB left" and the share of this run's photo bytes sent, for the sync strip. */
export interface PhotoProgress {
  photos: number;
  bytesLeft: number;
  /** 0 to 1. */
  fraction: number;
}

/** One run of one account: its lock and summary, and how it reaches the server. */
export interface Ctx {
  account: AccountKey;
  token: string;
  resumable: (() => Promise<Tus>) | undefined;
  onPhotoProgress: ((progress: PhotoProgress | null) => void) | undefined;
  baseUrl: string;
  fetch: typeof fetch;
  now: () => number;
  random: (() => number) | undefined;
  lock: SyncLock;
  summary: SyncSummary;
  /** The phone's clock reached the server in this run: later requests do not send it again (once per sync). */
  clockSent?: boolean;
}

export interface Outcome {
  verdict: Verdict;
  body: unknown;
}

export type RetryVerdict = Extract<Verdict, { kind: 'retry' }>;
/** How a step ended for the run as a whole. */
export type Step = 'go' | 'auth' | 'lost';

export async function keepAlive(ctx: Ctx): Promise<boolean> {
  const at = ctx.now();
  if (!(await ctx.lock.renew(at))) return false;
  await touchClaims(ctx.account, ctx.lock.run, at);
  return true;
}

/** One request through the app's transport (api/transport.ts), its outcome classified for the retry policy. */
export async function request(ctx: Ctx, route: RouteName, args: Pick<SendArgs, 'json' | 'form' | 'query'>, timeoutMs: number): Promise<Outcome> {
  const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(timeoutMs) : undefined;
  const sent = await send(route, { ...args, token: ctx.token, signal }, { table, fetch: ctx.fetch, baseUrl: ctx.baseUrl });
  if (!sent.answered) return { verdict: classifyError(sent.error), body: undefined };
  // A success whose reply was cut off is not a success: try again (the server is idempotent).
  if (sent.ok && sent.body === undefined) return { verdict: classifyError(sent.unreadable), body: undefined };
  return { verdict: classify(sent.status, msgOf(sent.body), sent.headers?.get('retry-after') ?? null, ctx.now()), body: sent.body };
}

export const unexpectedReply = (): RetryVerdict => ({ kind: 'retry', status: NO_ANSWER, msg: Msg.unexpectedError });

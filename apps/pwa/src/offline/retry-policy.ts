/**
 * What to do after one attempt to deliver (an upload, a batch, or one item of a batch), and when
 * to try again. Retrying never stops: a response is only ever given up by the user (discard).
 */
export const Backoff = {
  baseMs: 2_000,
  capMs: 5 * 60_000,
  /** A Retry-After longer than this is treated as this: a broken header must not park the queue for days. */
  maxRetryAfterMs: 60 * 60_000,
} as const;

export type Verdict =
  | { kind: 'ok' }
  /** Try again later (network, timeout, 408, 429, 5xx); retryAfterMs when the server said when. */
  | { kind: 'retry'; status: number; msg: string; retryAfterMs?: number }
  /** 401: keep everything queued and stop syncing this account until it signs in again. */
  | { kind: 'auth'; status: number; msg: string }
  /** Any other 4xx: the server refused this response; the user must fix or discard it. */
  | { kind: 'failed'; status: number; msg: string };

/** Status 0 stands for "no answer" (offline, DNS, timeout, connection reset). */
export const NO_ANSWER = 0;

export function classify(status: number, msg = '', retryAfter?: string | null, now = Date.now()): Verdict {
  if (status >= 200 && status < 300) return { kind: 'ok' };
  if (status === 401) return { kind: 'auth', status, msg };
  if (status === NO_ANSWER || status === 408 || status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(retryAfter, now);
    return retryAfterMs === undefined ? { kind: 'retry', status, msg } : { kind: 'retry', status, msg, retryAfterMs };
  }
  return { kind: 'failed', status, msg };
}

/** A fetch that threw (TypeError: offline; AbortError/TimeoutError: our timeout) is always worth retrying. */
export function classifyError(err: unknown): Verdict {
  const name = (err as { name?: string } | null)?.name ?? 'Error';
  const timedOut = name === 'TimeoutError' || name === 'AbortError';
  return { kind: 'retry', status: NO_ANSWER, msg: timedOut ? 'The server did not answer in time' : 'No connection to the server' };
}

/** Retry-After as delta-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), Backoff.maxRetryAfterMs);
}

/**
 * Capped exponential backoff with full jitter: uniform in [0, min(cap, base * 2^(attempts-1))].
 * Jitter keeps a hundred phones that regain signal together from hitting the server together.
 */
export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts, 1) - 1, 30);
  const ceiling = Math.min(Backoff.capMs, Backoff.baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/** When to try again after the `attempts`-th failure: never before the server's Retry-After. */
export function nextAttemptAt(now: number, attempts: number, retryAfterMs?: number, random?: () => number): number {
  const jittered = backoffDelay(attempts, random);
  return now + (retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered));
}

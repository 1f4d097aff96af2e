import { describe, expect, it } from 'vitest';
import { Backoff, backoffDelay, classify, classifyError, nextAttemptAt, parseRetryAfter } from './retry-policy';

describe('classify', () => {
  it.each([
    [200, 'ok'],
    [400, 'failed'],
    [401, 'auth'],
    [403, 'failed'],
    [404, 'failed'],
    [408, 'retry'],
    [409, 'failed'],
    [413, 'failed'],
    [422, 'failed'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [507, 'retry'],
  ])('%i -> %s', (status, kind) => {
    expect(classify(status, 'server says').kind).toBe(kind);
  });

  it("keeps the server's msg and status on a refusal", () => {
    expect(classify(409, 'A different response was already received under this id')).toEqual({ kind: 'failed', status: 409, msg: 'A different response was already received under this id' });
  });

  it('reads Retry-After on 429 and 503 (seconds and HTTP date)', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(classify(429, 'slow down', '30', now)).toEqual({ kind: 'retry', status: 429, msg: 'slow down', retryAfterMs: 30_000 });
    expect(classify(503, 'busy', 'Sun, 22 Nov 2026 10:01:00 GMT', now)).toMatchObject({ kind: 'retry', retryAfterMs: 60_000 });
    expect(classify(503, 'busy', null, now)).not.toHaveProperty('retryAfterMs');
  });

  it('treats a thrown fetch (offline) and a timeout as retry with status 0', () => {
    expect(classifyError(new TypeError('Failed to fetch'))).toMatchObject({ kind: 'retry', status: 0 });
    expect(classifyError(new DOMException('timed out', 'TimeoutError'))).toMatchObject({ kind: 'retry', status: 0, msg: 'The server did not answer in time' });
  });
});

describe('parseRetryAfter', () => {
  it('ignores garbage, clamps the past to 0 and the far future to an hour', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(Backoff.maxRetryAfterMs);
  });
});

describe('backoff', () => {
  it('is never negative and never above the cap, whatever the attempt count or random value', () => {
    for (const attempts of [0, 1, 2, 5, 8, 9, 20, 100, 10_000]) {
      for (const r of [0, 0.25, 0.999999, 1, -1, 2]) {
        const d = backoffDelay(attempts, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Backoff.capMs);
      }
    }
  });

  it('grows exponentially from 2 s until the 5 min cap (upper bound of the jitter)', () => {
    const top = (n: number) => backoffDelay(n, () => 1);
    expect([1, 2, 3, 4].map(top)).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(top(8)).toBe(256_000);
    expect(top(9)).toBe(Backoff.capMs);
    expect(top(50)).toBe(Backoff.capMs);
  });

  it('uses full jitter (uniform between 0 and the ceiling)', () => {
    expect(backoffDelay(3, () => 0)).toBe(0);
    expect(backoffDelay(3, () => 0.5)).toBe(4_000);
  });

  it("never retries before the server's Retry-After", () => {
    expect(nextAttemptAt(1000, 1, 60_000, () => 1)).toBe(61_000);
    expect(nextAttemptAt(1000, 10, 1_000, () => 1)).toBe(1000 + Backoff.capMs);
  });
});

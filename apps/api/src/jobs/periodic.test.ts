import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseStore } from '../counters/lease-store.js';
import { startPeriodic } from './periodic.js';

/** Leases in memory: one holder per key, no expiry (enough to show a run skipped). */
function memoryLeases(): LeaseStore & { held: Map<string, string> } {
  const held = new Map<string, string>();
  return {
    held,
    acquire: async (key, holder) => {
      if (held.has(key) && held.get(key) !== holder) return false;
      held.set(key, holder);
      return true;
    },
    renew: async (key, holder) => held.get(key) === holder,
    release: async (key, holder) => {
      if (held.get(key) === holder) held.delete(key);
    },
    close: async () => undefined,
  };
}

const logger = () => ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

afterEach(() => {
  vi.useRealTimers();
});

describe('startPeriodic', () => {
  it('runs on its interval, on an unref timer, and at start only when asked', async () => {
    vi.useFakeTimers();
    const unref = vi.spyOn(globalThis, 'setInterval');
    const run = vi.fn();
    const job = startPeriodic({ name: 'tick', everyMs: 1000, run });
    expect(unref.mock.results[0]?.value.hasRef()).toBe(false);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(3500);
    expect(run).toHaveBeenCalledTimes(3);
    await job.stop();

    const atStart = vi.fn();
    const first = startPeriodic({ name: 'first', everyMs: 1000, run: atStart, atStart: true });
    expect(atStart).toHaveBeenCalledTimes(1);
    await first.stop();
  });

  it('logs a failed run with the job name and runs again at the next tick', async () => {
    vi.useFakeTimers();
    const log = logger();
    let calls = 0;
    const job = startPeriodic({ name: 'sync digest', everyMs: 1000, run: async () => {
      calls++;
      if (calls === 1) throw new Error('database is locked');
    } }, log);
    await vi.advanceTimersByTimeAsync(1000);
    expect(log.warn).toHaveBeenCalledWith({ err: 'database is locked', job: 'sync digest' }, 'sync digest run failed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
    await job.stop();
  });

  it('stops: no run after stop, and stop waits for the run in progress', async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    let finished = false;
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)).then(() => { finished = true; }));
    const job = startPeriodic({ name: 'slow', everyMs: 1000, run });
    await vi.advanceTimersByTimeAsync(1000);
    // A tick while the run is still going is skipped: one run at a time.
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    const stopped = job.stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('skips a run while another instance holds the lock, and gives the lock back after its own', async () => {
    vi.useFakeTimers();
    const leases = memoryLeases();
    const run = vi.fn();
    const job = startPeriodic({ name: 'locked', everyMs: 1000, run, lock: { leases, key: 'job:locked' } });
    await leases.acquire('job:locked', 'other-instance', 60_000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(0);
    await leases.release('job:locked', 'other-instance');
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(leases.held.has('job:locked')).toBe(false);
    await job.stop();
  });
});

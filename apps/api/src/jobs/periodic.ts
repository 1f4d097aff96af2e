import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { LeaseStore } from '../counters/lease-store.js';

/** A job that runs every `everyMs`, on a timer that never keeps the process alive. */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: () => unknown;
  /** Also run once at start (not only after the first interval). */
  atStart?: boolean;
  /**
   * Only for a job that is one-instance-at-a-time: a run takes this lease first (for `ttlMs`,
   * default the interval) and is skipped while another instance holds it.
   */
  lock?: { leases: LeaseStore; key: string; ttlMs?: number };
}

export interface RunningJob {
  /** Clears the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Starts `job`: one run at a time (a tick that finds the last run still going is skipped), a failed
 * run logged as a warning and the next one tried at its time.
 */
export function startPeriodic(job: PeriodicJob, log?: FastifyBaseLogger): RunningJob {
  const holder = randomUUID();
  let running: Promise<void> | null = null;
  let stopped = false;
  const once = async () => {
    const lock = job.lock;
    if (lock && !(await lock.leases.acquire(lock.key, holder, lock.ttlMs ?? job.everyMs))) return;
    try {
      await job.run();
    } finally {
      if (lock) await lock.leases.release(lock.key, holder).catch(() => undefined);
    }
  };
  const tick = () => {
    if (stopped || running) return;
    running = once()
      .catch((err: unknown) => log?.warn({ err: (err as Error).message, job: job.name }, `${job.name} run failed`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, job.everyMs).unref();
  if (job.atStart) tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

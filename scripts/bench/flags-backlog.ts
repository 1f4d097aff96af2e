import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { DEMO_ANSWERS, QUICK, demoFieldUser, startApi, type Finding } from './lib.js';

/**
 * The quality-flag worker's share under traffic: a backlog of checks (10,000 in full mode, 1,000 in
 * quick) is queued while the worker is held off, then the server is restarted with the worker on and
 * the ingest benchmark's load (32 connections of single posts) runs while the backlog drains. The
 * target is the time until the last of those queued jobs is checked: <= 60 s for 10,000. Jobs are
 * taken oldest first, so the load's own new jobs queue behind them.
 */
const BACKLOG = QUICK ? 1_000 : 10_000;
const LIMIT_S = 60;

const item = (surveyId: string, organizationId: string) => ({ survey_id: surveyId, organization_id: organizationId, clientId: uuidv7(), answers: DEMO_ANSWERS });

export async function benchFlagsBacklog(): Promise<{ findings: Finding[]; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-flags-'));
  try {
    // 0. The demo seed's own checks done first (its ids are not time-ordered, so under steady traffic
    // they would wait behind every newer job: the queue is taken in response-id order).
    const seeded = await startApi({ SEED_DEMO: 'true', DATA_DIR: dataDir });
    try {
      const db = new SQLite(join(dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
      for (let i = 0; i < 600 && (db.prepare('select count(*) as n from flag_jobs').get() as { n: number }).n > 0; i++) await new Promise((r) => setTimeout(r, 100));
      db.close();
    } finally {
      await seeded.stop();
    }
    // 1. Queue the backlog with the worker held off (its first tick is an hour away).
    const held = await startApi({ DATA_DIR: dataDir, FLAG_POLL_MS: '3600000' });
    let fu: Awaited<ReturnType<typeof demoFieldUser>>;
    try {
      fu = await demoFieldUser(held.url, dataDir);
      for (let sent = 0; sent < BACKLOG; sent += 50) {
        const res = await fetch(`${held.url}/api/v1/sync/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fu.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ responses: Array.from({ length: Math.min(50, BACKLOG - sent) }, () => item(fu.surveyId, fu.organizationId)) }),
        });
        if (!res.ok) throw new Error(`queueing the backlog: ${res.status} ${await res.text()}`);
      }
    } finally {
      await held.stop();
    }
    const db = new SQLite(join(dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
    // The backlog's jobs are those queued before the restart (the load's own are queued after).
    const last = db.prepare('select max(queued_at) as at from flag_jobs').get() as { at: number };
    const queued = () => (db.prepare('select count(*) as n from flag_jobs where queued_at <= ?').get(last.at) as { n: number }).n;
    const backlog = queued();

    // 2. The worker on, the ingest load running, until the backlog's last job is checked.
    const api = await startApi({ DATA_DIR: dataDir });
    try {
      const started = performance.now();
      const body = JSON.stringify({ survey_id: fu.surveyId, organization_id: fu.organizationId, answers: DEMO_ANSWERS });
      let finish: (r: autocannon.Result) => void = () => undefined;
      const done = new Promise<autocannon.Result>((resolve) => (finish = resolve));
      const instance = autocannon({
        url: `${api.url}/api/v1/survey/respond`,
        method: 'POST',
        connections: 32,
        duration: LIMIT_S * 2,
        headers: { authorization: `Bearer ${fu.token}`, 'content-type': 'application/json' },
        // A fresh clientId per request, as phones make them.
        requests: [{ setupRequest: (req) => ({ ...req, body: body.replace('"answers"', `"clientId":"${uuidv7()}","answers"`) }) }],
      }, (_err, result) => finish(result));
      let left = backlog;
      let seconds = Infinity;
      const samples: string[] = [];
      while (performance.now() - started < LIMIT_S * 2_000) {
        await new Promise((r) => setTimeout(r, 1_000));
        left = queued();
        const at = (performance.now() - started) / 1000;
        if (Math.round(at) % 10 === 0) samples.push(`${at.toFixed(0)} s: ${left}`);
        if (left === 0) {
          seconds = at;
          break;
        }
      }
      instance.stop();
      const load = await done;
      db.close();
      const drained = Number.isFinite(seconds) ? `${seconds.toFixed(0)} s` : `not within ${LIMIT_S * 2} s (${left} of ${backlog} left)`;
      const target = QUICK
        ? `Flags. A backlog of ${backlog} checks drains under the ingest load (quick mode; full: 10,000 within ${LIMIT_S} s)`
        : `Flags. A backlog of 10,000 checks drains within ${LIMIT_S} s under the ingest load (32 connections of single posts)`;
      return {
        findings: [{ target, measured: `${drained}; load ${Math.round(load.requests.average)} req/s, p99 ${load.latency.p99} ms, ${load.errors + load.non2xx} errors`, holds: QUICK ? Number.isFinite(seconds) : seconds <= LIMIT_S }],
        lines: [`flags-backlog: ${backlog} jobs queued with the worker held off, then drained under load; jobs left by time: ${samples.join(', ')}`],
      };
    } finally {
      await api.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

import { afterAll, describe, expect, it } from 'vitest';
import { checkStore, Ledger, makeItem, sendBatch, sendSingle, type Item } from './harness/field.ts';
import { request, type Outcome } from './harness/http.ts';
import { ENGINES, FULL, figure, sleep } from './harness/server.ts';
import { World } from './harness/world.ts';

/**
 * Item 5, soak: a steady ingest (singles and batches) plus the organization's xlsx export and its
 * dashboard reads (top performer, responses list with and without a search, the week chart) for
 * 3 minutes (full) or 45 s (quick, SQLite; 30 s on PostgreSQL). Expect no 5xx and no failed
 * request, every acknowledged response stored, and resident memory after the warm-up growing by
 * less than 20% (median of the first 10 s after the warm-up against the median of the last 10 s).
 */
const SECONDS: Record<string, number> = FULL ? { sqlite: 180, postgres: 180 } : { sqlite: 45, postgres: 30 };
const RATE = 40; // responses per second
const WINDOW_MS = 10_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)]!;
};

function weekRange(now = new Date()): { startDate: string; endDate: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - now.getDay());
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 7);
  return { startDate: start.toISOString(), endDate: end.toISOString() };
}

describe.each(ENGINES)('soak on %s', (engine) => {
  let world: World | undefined;
  afterAll(async () => world?.close());

  it(`steady ingest + exports + dashboard reads for ${SECONDS[engine]} s: no 5xx, memory flat`, async () => {
    const durationMs = SECONDS[engine]! * 1000;
    const warmupMs = Math.max(10_000, durationMs * 0.2);
    world = await World.create(engine, 'soak');
    const w = world;
    const users = await w.inviteFieldUsers(6, 'soak');
    const ledger = new Ledger();
    const reads = new Map<string, { n: number; bad: number; ms: number[] }>();
    const readProblems: string[] = [];
    const items: Item[] = [];
    const rss: { t: number; mb: number }[] = [];
    const t0 = Date.now();
    const running = () => Date.now() - t0 < durationMs;

    const read = async (name: string, path: string, check?: (o: Extract<Outcome, { kind: 'reply' }>) => boolean) => {
      const t = performance.now();
      const o = await request(w.url, { path, token: w.orgToken, timeoutMs: 60_000 });
      const r = reads.get(name) ?? { n: 0, bad: 0, ms: [] };
      reads.set(name, r);
      r.n++;
      r.ms.push(performance.now() - t);
      if (o.kind !== 'reply' || o.status !== 200 || (check && !check(o))) {
        r.bad++;
        if (readProblems.length < 20) readProblems.push(`${name}: ${o.kind === 'reply' ? `${o.status} ${o.text.slice(0, 200)}` : o.kind}`);
      }
    };

    const ingest = (async () => {
      let n = 0;
      let inFlight = 0;
      const tickMs = 100;
      while (running()) {
        const tick = Date.now();
        // RATE/10 responses every 100 ms, as one batch of 5 or as singles, across the users.
        const due = RATE / (1000 / tickMs);
        const chunk = Array.from({ length: due }, () => makeItem(w, n++));
        items.push(...chunk);
        const user = users[n % users.length]!;
        for (const item of chunk) ledger.owner.set(item.clientId, user);
        if (inFlight < 32) {
          inFlight++;
          const send = Math.random() < 0.5 ? sendBatch(w.url, user.token, chunk, ledger) : Promise.all(chunk.map((item) => sendSingle(w.url, user.token, item, ledger)));
          void send.finally(() => inFlight--);
        }
        await sleep(Math.max(0, tickMs - (Date.now() - tick)));
      }
      while (inFlight > 0) await sleep(20);
    })();

    const dashboards = (async () => {
      const { startDate, endDate } = weekRange();
      const base = `/api/v1/survey/organization`;
      while (running()) {
        await Promise.all([
          read('top-performer', `${base}/top-performer/${w.surveyId}`, (o) => typeof o.body.totalResponses === 'number'),
          read('responses', `${base}/response/${w.surveyId}?page=${1 + Math.floor(Math.random() * 5)}`, (o) => Array.isArray(o.body.responses)),
          read('responses-search', `${base}/response/${w.surveyId}?searchQuery=Outlet%20${Math.floor(Math.random() * 100)}`, (o) => Array.isArray(o.body.responses)),
          read('by-weeks', `${base}/by-weeks/${w.surveyId}?startDate=${encodeURIComponent(startDate)}&endDate=${encodeURIComponent(endDate)}`, (o) => Array.isArray(o.body) && o.body.length === 7),
        ]);
        await sleep(1000);
      }
    })();

    const exports = (async () => {
      while (running()) {
        await read('export', `/api/v1/survey/organization/response/download/${w.surveyId}`, (o) => o.text.startsWith('PK'));
        await sleep(5000);
      }
    })();

    const sampler = (async () => {
      while (running()) {
        if (w.api.alive) rss.push({ t: Date.now() - t0, mb: w.api.rss() });
        await sleep(1000);
      }
    })();

    await Promise.all([ingest, dashboards, exports, sampler]);
    const afterWarmup = rss.filter((s) => s.t >= warmupMs && s.t < warmupMs + WINDOW_MS).map((s) => s.mb);
    const last = rss.filter((s) => s.t >= durationMs - WINDOW_MS).map((s) => s.mb);
    const baseMb = median(afterWarmup);
    const endMb = median(last);
    const growth = (endMb - baseMb) / baseMb;
    const peakMb = Math.max(...rss.map((s) => s.mb));

    const db = await w.inspector();
    const check = await checkStore(w, db, users, ledger);
    await db.close();

    const readLine = [...reads.entries()].map(([k, r]) => `${k} ${r.n}x (bad ${r.bad}, p50 ${median(r.ms).toFixed(0)} ms, max ${Math.max(...r.ms).toFixed(0)} ms)`).join('; ');
    figure('soak', `${engine}: ${SECONDS[engine]} s at ${RATE}/s: ${items.length} responses sent, ${ledger.acked.size} acknowledged, replies [${ledger.tally}]; reads: ${readLine}`);
    figure('soak', `${engine}: RSS after warm-up ${baseMb.toFixed(1)} MB, at the end ${endMb.toFixed(1)} MB (growth ${(growth * 100).toFixed(1)}%), peak ${peakMb.toFixed(1)} MB; rows ${check.rows}, acknowledged-but-missing ${check.ackedMissing}`);
    if (ledger.problems.length || readProblems.length) console.log([...ledger.problems, ...readProblems].slice(0, 10).join('\n'));

    expect(w.api.alive).toBe(true);
    expect(ledger.problems).toEqual([]);
    expect(readProblems).toEqual([]);
    expect(ledger.tally.range(500, 599)).toBe(0);
    expect(ledger.tally.total()).toBe(ledger.tally.get('200'));
    expect(ledger.acked.size).toBe(items.length);
    expect(check.ackedMissing).toBe(0);
    expect(check.rows).toBe(items.length);
    expect(reads.get('export')!.n).toBeGreaterThanOrEqual(3);
    expect(growth).toBeLessThan(0.2);
  }, FULL ? 3_600_000 : 300_000);
});

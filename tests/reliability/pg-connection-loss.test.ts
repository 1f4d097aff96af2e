import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { checkStore, drive, Ledger, makeItem, settle, type Item } from './harness/field.ts';
import { call } from './harness/http.ts';
import { ENGINES, FULL, figure, sleep } from './harness/server.ts';
import { World } from './harness/world.ts';

/**
 * Item 3, PostgreSQL connection loss: while 8 phones ingest, the API's backend connections are
 * terminated (pg_terminate_backend) several times. The API must stay up, answer the requests that
 * fail with 503 {msg} (never 500, never a crash), serve again without a restart, and keep every
 * acknowledged row. With RELIABILITY_FULL=1 and RELIABILITY_PG_RESTART=1 the PostgreSQL cluster is
 * also restarted for real (never in CI: other things use it).
 */
const RESPONSES = FULL ? 10_000 : 2_000;
const TERMINATIONS = FULL ? 10 : 5;
const PG_RESTART = FULL && process.env.RELIABILITY_PG_RESTART === '1';

describe.runIf(ENGINES.includes('postgres'))('postgres connection loss during ingest', () => {
  let world: World | undefined;
  afterAll(async () => world?.close());

  it(`${TERMINATIONS} pg_terminate_backend rounds${PG_RESTART ? ' and a cluster restart' : ''} during ${RESPONSES} responses: 503 {msg}, no crash, nothing acknowledged lost`, async () => {
    world = await World.create('postgres', 'pgloss');
    const users = await world.inviteFieldUsers(8, 'pgloss');
    const ledger = new Ledger();
    ledger.tolerated = new Set([503]);
    const items: Item[] = Array.from({ length: RESPONSES }, (_, i) => makeItem(world!, i));
    const admin = world.pg!.admin();
    await admin.connect();

    let finished = false;
    let terminated = 0;
    let rounds = 0;
    let restarted = false;
    const chaos = (async () => {
      await sleep(300);
      while (!finished && rounds < TERMINATIONS) {
        const r = await admin.query('select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [world.pg!.name]);
        terminated += r.rows.filter((x: { ok: boolean }) => x.ok).length;
        rounds++;
        await sleep(200 + Math.random() * 400);
      }
      if (PG_RESTART && !finished) {
        execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart'], { stdio: 'inherit' });
        restarted = true;
      }
    })();

    const t0 = performance.now();
    await drive({ world, users, items, ledger, concurrency: 8, batchMax: 20, photoRate: 0.05, timeoutMs: 30_000 });
    finished = true;
    await chaos;
    await admin.end().catch(() => undefined);
    const ingestMs = performance.now() - t0;
    const failedDuring = ledger.tally.get('503');
    const open = await settle(world, users, items, ledger, 60_000);

    if (!world.api.alive) console.log(`API exited ${JSON.stringify(world.api.exits)}:\n${world.api.stderr.slice(-6000)}`);
    expect(world.api.alive).toBe(true);
    // Serving again, same process, without a restart.
    const list = await call<{ totalCount: number }>(world.url, { path: `/api/v1/survey/organization/response/${world.surveyId}`, token: world.orgToken });
    const db = await world.inspector();
    const check = await checkStore(world, db, users, ledger);
    await db.close();

    figure('pg-loss', `${RESPONSES} responses in ${(ingestMs / 1000).toFixed(1)} s, ${rounds} termination rounds killed ${terminated} backends${restarted ? ', then a cluster restart' : ''}; replies [${ledger.tally}]; 503 during the run ${failedDuring}; unsettled after retries ${open}`);
    figure('pg-loss', `API pid ${world.api.pid} alive ${world.api.alive}, exits ${world.api.exits.length}; rows ${check.rows}, duplicates ${check.duplicates}, acknowledged-but-missing ${check.ackedMissing}, id mismatches ${check.idMismatch}, list totalCount ${list.totalCount}`);
    if (ledger.problems.length) console.log(ledger.problems.slice(0, 10).join('\n'));

    expect(rounds).toBeGreaterThanOrEqual(Math.min(TERMINATIONS, 2));
    expect(terminated).toBeGreaterThan(0);
    expect(ledger.problems).toEqual([]);
    expect(ledger.tally.get('500')).toBe(0);
    expect(ledger.tally.range(500, 599) - ledger.tally.get('503')).toBe(0);
    expect(world.api.exits).toEqual([]);
    expect(open).toBe(0);
    expect(check.rows).toBe(RESPONSES);
    expect(check.duplicates).toBe(0);
    expect(check.ackedMissing).toBe(0);
    expect(check.idMismatch).toBe(0);
  }, FULL ? 3_600_000 : 300_000);
});

import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { checkStore, drive, Ledger, makeItem, settle, type Item } from './harness/field.ts';
import { call, resetAgents } from './harness/http.ts';
import { FULL, figure, sleep } from './harness/server.ts';
import { uploadsOnDisk, World } from './harness/world.ts';

/**
 * Item 2, crash: kill -9 the API at a random moment of an ingest (8 concurrent phones, singles and
 * batches, 10% with a photo), keep every acknowledgement the clients got, then check the SQLite
 * file (`PRAGMA integrity_check`), that every acknowledged response is there with the _id given,
 * and that the server restarts clean on the same DATA_DIR. The in-doubt responses (sent, no reply)
 * are then resent, so each run ends with every response stored exactly once.
 */
const RUNS = FULL ? 20 : 3;
const PER_RUN = FULL ? 10_000 : 2_000;
const SYNCHRONOUS = process.env.SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL';

describe('crash: kill -9 during ingest on sqlite', () => {
  let world: World | undefined;
  afterAll(async () => world?.close());

  it(`${RUNS} runs of ${PER_RUN} responses, killed at a random moment: nothing acknowledged is lost`, async () => {
    world = await World.create('sqlite', 'crash', { env: { SQLITE_SYNCHRONOUS: SYNCHRONOUS } });
    const users = await world.inviteFieldUsers(8, 'crash');
    const ledger = new Ledger();
    const all: Item[] = [];
    const summary: string[] = [];

    for (let run = 0; run < RUNS; run++) {
      const items = Array.from({ length: PER_RUN }, (_, i) => makeItem(world!, run * PER_RUN + i));
      all.push(...items);
      const ackedBefore = ledger.acked.size;
      // Kill once between 10% and 90% of this run's responses were acknowledged, plus 0-30 ms.
      const killAt = ackedBefore + Math.floor(PER_RUN * (0.1 + 0.8 * Math.random()));
      let killing: Promise<void> | undefined;
      const t0 = performance.now();
      const attempted = await drive({
        world,
        users,
        items,
        ledger,
        concurrency: 8,
        batchMax: 20,
        photoRate: 0.1,
        onProgress: () => {
          if (!killing && ledger.acked.size >= killAt) killing = sleep(Math.random() * 30).then(() => world!.api.kill9());
        },
        stopOnError: () => !!killing,
        timeoutMs: 10_000,
      });
      await killing;
      expect(killing, 'the server was killed during the run').toBeDefined();
      const killedAfterMs = performance.now() - t0;
      const ackedAtKill = ledger.acked.size - ackedBefore;

      // After the kill, before anything else touches the file.
      const sqlite = new SQLite(join(world.dataDir, 'survey-bird.sqlite'));
      const integrity = sqlite.pragma('integrity_check', { simple: true });
      const present = new Set((sqlite.prepare('select client_id from responses where survey_id = ?').all(world.surveyId) as { client_id: string }[]).map((r) => r.client_id));
      sqlite.close();
      let lost = 0;
      for (const clientId of ledger.acked.keys()) if (!present.has(clientId)) lost++;
      const inDoubt = items.filter((i) => !ledger.acked.has(i.clientId) && present.has(i.clientId)).length;
      const temps = uploadsOnDisk(world.dataDir).temps.length;

      const r0 = performance.now();
      resetAgents();
      await world.api.start();
      const restartMs = performance.now() - r0;
      const me = await call<{ user: { email: string } }>(world.url, { path: '/api/v1/user', token: users[0]!.token });
      expect(me.user.email).toBe(users[0]!.email);
      // The phones carry on: the responses not yet sent go out as before, then the in-doubt ones again.
      await drive({ world, users, items: items.filter((i) => !attempted.has(i.clientId)), ledger, concurrency: 8, batchMax: 20, photoRate: 0.1 });
      const open = await settle(world, users, items, ledger);

      const line = `run ${run + 1}: killed after ${ackedAtKill} acks (${(killedAfterMs / 1000).toFixed(1)} s), integrity ${String(integrity)}, acknowledged-but-lost ${lost}, stored-but-unacknowledged ${inDoubt}, temp files ${temps}, restart ${restartMs.toFixed(0)} ms, unsettled ${open}`;
      summary.push(line);
      figure('crash', line);
      expect(integrity).toBe('ok');
      expect(lost).toBe(0);
      expect(open).toBe(0);
    }

    await world.api.stop();
    const db = await world.inspector();
    const check = await checkStore(world, db, users, ledger);
    await db.close();
    figure('crash', `total: synchronous=${SYNCHRONOUS}, ${RUNS} kills, rows ${check.rows} for ${all.length} responses, duplicates ${check.duplicates}, acknowledged-but-missing ${check.ackedMissing}, id mismatches ${check.idMismatch}, file rows ${check.fileRows}, rows without file ${check.rowsWithoutFile}, files without row ${check.filesWithoutRow}, temp files ${check.tempFiles}, statuses [${ledger.tally}]`);
    if (ledger.problems.length) console.log(ledger.problems.slice(0, 10).join('\n'));

    expect(ledger.problems).toEqual([]);
    expect(check.rows).toBe(all.length);
    expect(check.duplicates).toBe(0);
    expect(check.ackedMissing).toBe(0);
    expect(check.idMismatch).toBe(0);
    expect(check.rowsWithoutFile).toBe(0);
    expect(world.api.exits.filter((e) => e.signal !== 'SIGKILL').every((e) => e.code === 0)).toBe(true);
  }, FULL ? 3_600_000 : 300_000);
});

import { afterAll, describe, expect, it } from 'vitest';
import { makeItem } from './harness/field.ts';
import { call, resetAgents } from './harness/http.ts';
import { figure, sleep } from './harness/server.ts';
import { World } from './harness/world.ts';

/**
 * Issue 18: a response's flags come from a durable queue (flag_jobs, written by trigger in the
 * ingest transaction). The worker is held off (FLAG_POLL_MS of an hour) so the responses are
 * committed and acknowledged with their jobs still queued; the API is then killed with SIGKILL
 * and restarted with the normal poll: every job is worked, every response checked, none lost.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`flags survive kill -9 between commit and check (${engine})`, () => {
    let world: World | undefined;
    afterAll(async () => world?.close());

    it('the flags are computed after restart, none lost', async () => {
      world = await World.create(engine, 'flags-crash', { env: { FLAG_POLL_MS: '3600000' } });
      const [user] = await world.inviteFieldUsers(1, 'flags');
      // A phone whose clock is an hour fast: the first response of the sync carries clock_skew.
      const sentAt = new Date(Date.now() + 3_600_000).toISOString();
      const items = Array.from({ length: 20 }, (_, i) => ({ ...makeItem(world!, i), sentAt }));
      const reply = await call<{ results: { status: number; _id: string }[] }>(world.url, { method: 'POST', path: '/api/v1/sync/responses', token: user!.token, body: { responses: items } });
      expect(reply.results.map((r) => r.status)).toEqual(items.map(() => 200));
      const ids = reply.results.map((r) => r._id);

      const db = await world.inspector();
      const marks = ids.map(() => '?').join(', ');
      const queued = async () => (await db.all<{ n: number }>(`select count(*) as n from flag_jobs where response_id in (${marks})`, ids))[0]!.n;
      const checked = async () => (await db.all<{ n: number }>(`select count(*) as n from response_checks where response_id in (${marks})`, ids))[0]!.n;
      expect(Number(await queued())).toBe(ids.length);
      expect(Number(await checked())).toBe(0);

      await world.api.kill9();
      resetAgents();
      world.api.opts.env!.FLAG_POLL_MS = '200';
      const t0 = performance.now();
      await world.api.start();
      // The demo seed's own jobs are worked too; ours are among them.
      while (Number(await queued()) > 0 && performance.now() - t0 < 120_000) await sleep(200);
      const ms = performance.now() - t0;
      expect(Number(await queued())).toBe(0);
      expect(Number(await checked())).toBe(ids.length);
      const flags = await db.all<{ response_id: string; flag: string }>(`select response_id, flag from response_flags where response_id in (${marks}) and flag = 'clock_skew'`, ids);
      expect(flags.map((f) => f.response_id)).toEqual([ids[0]]);
      await db.close();

      // The office sees them: checked, with the flag.
      const detail = await call<{ checking: boolean; flags: { flag: string }[] }>(world.url, { path: `/api/v1/responses/${ids[0]}`, token: world.orgToken });
      expect(detail.checking).toBe(false);
      expect(detail.flags.map((f) => f.flag)).toContain('clock_skew');
      figure('flags-crash', `${engine}: ${ids.length} responses killed before their check, all ${ids.length} checked ${(ms / 1000).toFixed(1)} s after restart, clock_skew on the first only`);
      await world.api.stop();
    });
  });
}

import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { DEMO_ANSWERS, QUICK, alternate, demoFieldUser, json, load, loginToken, median, startApi, startProcess, type Finding, type LoadResult, type Server } from './lib.js';

/**
 * Target 1 with back-check sampling on: the same single-post ingest as ingest.ts, against one API
 * whose demo survey samples 10% for back-checks with the sampler every second (BACKCHECK_SAMPLE_MS
 * 1000, against the 5-minute default: the most the sampler can cost) and one with back-checks off,
 * alternating, beside the bare fastify + prepared insert baseline. Each measured window follows a
 * warm-up window of the same length on that server, so the sampler is drawing the warm-up's
 * responses (older than its 10 s settle time) while the measured posts arrive.
 */
export async function benchIngestBackcheck(): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const on = await startApi({ SEED_DEMO: 'true', BACKCHECK_SAMPLE_MS: '1000' });
  const off = await startApi({ SEED_DEMO: 'true' });
  const baseline = await startProcess(join(import.meta.dirname, 'baseline-server.mjs'), {}, '/health');
  try {
    const ctxOn = await demoFieldUser(on.url, on.dataDir);
    const ctxOff = await demoFieldUser(off.url, off.dataDir);
    const logins = JSON.parse(readFileSync(join(on.dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
    const owner = logins.find((l) => l.role === 'organization')!;
    const orgToken = await loginToken(on.url, owner.email, owner.password);
    await json(`${on.url}/api/v1/survey/${ctxOn.surveyId}/settings`, { method: 'PATCH', headers: { authorization: `Bearer ${orgToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ backcheck: { percent: 10, minPerWeek: 0, includeFlagged: false, threshold: 20, autoReturn: false } }) });

    // The sampler's first passes draw the demo's earlier responses; only the posts' draws are counted.
    const selected = async () => (await json<{ totals: { selected: number } }>(`${on.url}/api/v1/survey/${ctxOn.surveyId}/backchecks?page=1`, { headers: { authorization: `Bearer ${orgToken}` } })).totals.selected;
    await new Promise((r) => setTimeout(r, 3000));
    const before = await selected();
    let posted = 0;
    const post = (server: Server, ctx: { token: string; surveyId: string; organizationId: string }) => () => load({
      url: `${server.url}/api/v1/survey/respond`,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.token}` }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ survey_id: ctx.surveyId, organization_id: ctx.organizationId, answers: DEMO_ANSWERS, clientId: uuidv7() }) }) }],
    });
    const warmThen = (run: () => Promise<LoadResult>, count: boolean) => async () => {
      const warm = await run();
      const measured = await run();
      if (count) posted += warm.ok + measured.ok;
      return measured;
    };
    const base = () => load({
      url: `${baseline.url}/ingest`,
      requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ survey_id: ctxOn.surveyId, organization_id: ctxOn.organizationId, answers: DEMO_ANSWERS, clientId: uuidv7() }) }) }],
    });
    const results = { base: [] as LoadResult[], on: [] as LoadResult[], off: [] as LoadResult[] };
    for (let i = 0; i < rounds; i++) {
      const r = await alternate(1, warmThen(post(off, ctxOff), false), warmThen(post(on, ctxOn), true));
      results.off.push(...r.a);
      results.on.push(...r.b);
      results.base.push(await base());
    }
    // The sampler drew from the posts (its 10 s settle time passed for the last window too).
    await new Promise((r) => setTimeout(r, 12_000));
    const drawn = (await selected()) - before;
    const rps = (xs: LoadResult[]) => median(xs.map((x) => x.rps));
    const p99 = (xs: LoadResult[]) => median(xs.map((x) => x.p99));
    const bad = [...results.on, ...results.off].reduce((n, x) => n + x.errors + x.non2xx, 0);
    const ratio = rps(results.on) / rps(results.base);
    const vsOff = rps(results.on) / rps(results.off);
    const p99Ratio = p99(results.on) / Math.max(p99(results.base), 1);
    return {
      findings: [
        { target: '1. Ingest req/s with back-check sampling on (10%, sampler every second) >= 60% of bare fastify + prepared insert', measured: `${rps(results.on).toFixed(0)} vs ${rps(results.base).toFixed(0)} req/s = ${(ratio * 100).toFixed(0)}% (sampling off in the same run: ${rps(results.off).toFixed(0)} req/s, ${(vsOff * 100).toFixed(0)}% of it)`, holds: ratio >= 0.6 && bad === 0 },
        { target: "1. Ingest p99 with back-check sampling on <= 3x the baseline's", measured: `${p99(results.on)} ms vs ${p99(results.base)} ms = ${p99Ratio.toFixed(1)}x (sampling off: ${p99(results.off)} ms)`, holds: p99Ratio <= 3 },
        { target: '1. (sampling cost, beside it) Ingest req/s with back-check sampling on >= 90% of sampling off, same run', measured: `${rps(results.on).toFixed(0)} vs ${rps(results.off).toFixed(0)} req/s = ${(vsOff * 100).toFixed(0)}%`, holds: vsOff >= 0.9 && bad === 0 },
      ],
      lines: [
        `ingest with back-check sampling: ${rounds} round(s) of off, on (each a warm-up window then the measured one), then the baseline; 32 connections; ${bad} errors or non-2xx`,
        `req/s per round: off ${results.off.map((x) => x.rps.toFixed(0)).join(', ')}; on ${results.on.map((x) => x.rps.toFixed(0)).join(', ')}; baseline ${results.base.map((x) => x.rps.toFixed(0)).join(', ')}`,
        `load average at the end ${loadavg().map((x) => x.toFixed(1)).join(', ')} on ${cpus().length} cores (other work shares the machine)`,
        `the sampler selected ${drawn} of the ${posted} responses posted to the sampled survey (${((drawn / Math.max(posted, 1)) * 100).toFixed(1)}%; 10% asked)`,
      ],
    };
  } finally {
    await on.stop();
    await off.stop();
    await baseline.stop();
  }
}

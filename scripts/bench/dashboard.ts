/**
 * Target 5: the organization dashboard's reads on seed-scale data (organization 0: 100k responses of
 * 1M in full mode), and the supervisor dashboard's (one of its 5 supervisors: 10 of the 50 field users). Server time = the reply's `server-timing: app;dur=` header, which the insight
 * routes set from Fastify's reply.elapsedTime (routing, auth, handler and serialization). Shown
 * beside it: client time over loopback, and a same-run no-op (GET /api/v1/user with the same token)
 * measured in alternation with each call.
 */
import { QUICK, loginToken, median, percentile, startApi, type Finding } from './lib.js';
import { ms, sampleGet, type Timings } from './reads.js';
import { READ_SHAPE } from './search.js';
import { pgServerUrl, scaleData } from './scale-data.js';

export async function benchDashboard(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  const engines: ('sqlite' | 'postgres')[] = pgServerUrl() ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const engine of engines) {
    const r = await dashboardOn(engine);
    findings.push(...r.findings);
    lines.push(...r.lines);
  }
  return { findings, lines };
}

async function dashboardOn(engine: 'sqlite' | 'postgres'): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const n = QUICK ? 10 : 100;
  const data = await scaleData(engine, READ_SHAPE.orgs, READ_SHAPE.perOrg);
  const org = data.info.orgs[0]!;
  const api = await startApi(data.env);
  const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const token = await loginToken(api.url, org.email, data.info.password);
    // A supervisor sees a fifth of the field users: their cards and total are summed over those only.
    const supToken = await loginToken(api.url, org.supervisorEmails[0]!, data.info.password);
    const now = Date.now();
    const week = `startDate=${encodeURIComponent(new Date(now - 7 * 86_400_000).toISOString())}&endDate=${encodeURIComponent(new Date(now).toISOString())}`;
    const calls: Record<string, [path: string, token: string]> = {
      'total (responses list, page 1, totalCount)': [`/api/v1/survey/organization/response/${org.surveyId}?page=1`, token],
      'top performer + active field users': [`/api/v1/survey/organization/top-performer/${org.surveyId}`, token],
      'supervisor total (their responses list, page 1)': [`/api/v1/supervisor/response/${org.surveyId}?page=1`, supToken],
      'supervisor top performer + active field users': [`/api/v1/survey/supervisor/top-performer/${org.surveyId}`, supToken],
      'one week of by-weeks': [`/api/v1/survey/organization/by-weeks/${org.surveyId}?${week}`, token],
    };
    const noop = `${api.url}/api/v1/user`;
    await sampleGet(noop, token, 3);
    for (const [path, t] of Object.values(calls)) await sampleGet(api.url + path, t, 3);
    const samples = new Map<string, Timings[]>();
    const noopRounds: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const [label, [path, t]] of Object.entries(calls)) {
        noopRounds.push(percentile((await sampleGet(noop, token, n)).client, 95));
        samples.set(label, [...(samples.get(label) ?? []), await sampleGet(api.url + path, t, n)]);
      }
    }
    const noopP95 = median(noopRounds);
    const findings: Finding[] = [];
    for (const [label, perRound] of samples) {
      const server = median(perRound.map((s) => percentile(s.server, 95)));
      const client = median(perRound.map((s) => percentile(s.client, 95)));
      findings.push({ target: `5. ${E} dashboard ${label}: p95 server time <= 30 ms`, measured: `${ms(server)} (client p95 ${ms(client)}; no-op GET /api/v1/user client p95 ${ms(noopP95)})`, holds: server <= 30 });
    }
    return {
      findings,
      lines: [`${E} dashboard: ${rounds} round(s), ${n} sequential requests per call and round, each call alternated with ${n} no-op GET /api/v1/user; server time = the server-timing header (reply.elapsedTime), median over rounds of each round's p95`],
    };
  } finally {
    await api.stop();
  }
}

/**
 * Targets 3 (search) and 4 (deep pages) on seed-scale data: 1M responses in 10 organizations
 * (full mode) or 20k in 2 (quick mode). Searches run in organization 0's survey.
 * Baseline for 3: the same page as a plain `lower(search_text) like '%term%'` scan with the
 * organization filter, ORDER BY created_at DESC LIMIT 20, run in this process straight on the
 * database (better-sqlite3 on the same file / pg on the same database) — no HTTP, no JSON.
 * The API figure is client time over loopback; its server time (server-timing header) is shown too.
 * BENCH_ENGINES=postgres (or sqlite) runs one engine only, while tuning it.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { COMMON_WORD, NO_MATCH, RARE_CHAR, RARE_TOKEN, SKEWED_WORD } from '../seed-scale.js';
import { QUICK, alternate, loginToken, startApi, type Finding } from './lib.js';
import { fetchAgain, ms, sampleFn, sampleGet, summarize, type Timings } from './reads.js';
import { pgServerUrl, scaleData, type ScaleData } from './scale-data.js';

export const READ_SHAPE = QUICK ? { orgs: 2, perOrg: 10_000 } : { orgs: 10, perOrg: 100_000 };

const BASELINE_SQL = `select id, answers, created_at from responses where organization_id = ? and lower(search_text) like ? order by created_at desc limit 20`;

interface Baseline {
  run(term: string): Promise<unknown>;
  plan(term: string): Promise<string>;
  close(): Promise<void>;
}

async function baselineFor(data: ScaleData, orgId: string): Promise<Baseline> {
  if (data.engine === 'sqlite') {
    const db = new Database(data.sqliteFile, { readonly: true });
    const stmt = db.prepare(BASELINE_SQL);
    return {
      run: async (term) => stmt.all(orgId, `%${term}%`),
      plan: async (term) => (db.prepare(`explain query plan ${BASELINE_SQL}`).all(orgId, `%${term}%`) as { detail: string }[]).map((r) => r.detail).join('; '),
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: data.databaseUrl });
  await client.connect();
  const text = BASELINE_SQL.replace('?', '$1').replace('?', '$2');
  return {
    run: (term) => client.query({ name: 'baseline', text, values: [orgId, `%${term}%`] }),
    plan: async (term) => (await client.query(`explain ${text}`, [orgId, `%${term}%`])).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'].trim()).filter((l: string) => /Scan|Sort|Limit|Gather/.test(l)).slice(0, 4).join('; '),
    close: () => client.end(),
  };
}

export async function benchSearch(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  const only = process.env.BENCH_ENGINES?.split(',');
  const engines = (pgServerUrl() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)).filter((e) => !only || only.includes(e));
  for (const engine of engines) {
    const r = await searchOn(engine);
    findings.push(...r.findings);
    lines.push(...r.lines);
  }
  return { findings, lines };
}

async function searchOn(engine: 'sqlite' | 'postgres'): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const apiN = QUICK ? 10 : 100;
  const baseN = QUICK ? 2 : 8;
  const { orgs, perOrg } = READ_SHAPE;
  const data = await scaleData(engine, orgs, perOrg);
  const org = data.info.orgs[0]!;
  const api = await startApi(data.env);
  const base = await baselineFor(data, org.id);
  const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const findings: Finding[] = [];
  const lines: string[] = [`${E}: ${orgs * perOrg} responses in ${orgs} organizations (${perOrg} in the searched one), seeded in ${data.seconds.toFixed(0)} s`];
  try {
    const token = await loginToken(api.url, org.email, data.info.password);
    const list = (q: string, page = 1, after?: string) => `${api.url}/api/v1/survey/organization/response/${org.surveyId}?page=${page}&searchQuery=${encodeURIComponent(q)}${after ? `&after=${after}` : ''}`;
    for (const [label, term] of [['rare token', RARE_TOKEN], ['common word', COMMON_WORD], ['no-match term', NO_MATCH]] as const) {
      const first = (await (await fetchAgain(list(term), { headers: { authorization: `Bearer ${token}` } })).json()) as { totalCount: number; responses: unknown[] };
      await sampleGet(list(term), token, 3);
      await base.run(term);
      const r = await alternate<Timings>(rounds, async () => ({ client: await sampleFn(baseN, () => base.run(term)), server: [] }), () => sampleGet(list(term), token, apiN));
      const b = summarize(r.a.map((x) => x.client));
      const a = summarize(r.b.map((x) => x.client));
      const server = summarize(r.b.map((x) => x.server));
      const ratio = a.p95 / b.p95;
      findings.push({
        target: `3. ${E} search p95, ${label} "${term}": <= 25 ms and <= 1/10 of a full-scan LIKE`,
        measured: `${ms(a.p95)} (server ${ms(server.p95)}; p50 ${ms(a.p50)}) vs LIKE scan ${ms(b.p95)} = 1/${(1 / ratio).toFixed(1)}`,
        holds: a.p95 <= 25 && ratio <= 0.1,
      });
      lines.push(`${E} search "${term}": ${first.responses.length} rows on page 1, totalCount ${first.totalCount}; baseline plan: ${await base.plan(term)}`);
    }

    // 3: every class of query people type, each class held to 25 ms p95 of server time. Fewer requests
    // than above: a class that still scans takes about a second a request.
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const get = async <T>(url: string) => (await (await fetchAgain(url, auth)).json()) as T;
    const newest = await get<{ responses: { answers: Record<string, string> }[] }>(list(''));
    const phone = newest.responses[0]!.answers.Phone!;
    const classes = [
      ['1 character, many matches', 'n'],
      ['1 character, few matches', RARE_CHAR],
      ['1 character, no match (literal %)', '%'],
      ['2 characters, many matches', 'ng'],
      ['2 characters, few matches', `${RARE_CHAR}4`],
      ['2 characters, no match', 'zq'],
      ['digits only, a whole phone number', phone],
      ['digits only, a common prefix', '0803'],
      ['common in other surveys, rare in this one', SKEWED_WORD],
      ['a phrase', `chief ${RARE_TOKEN}`],
      ["one field user's e-mail address, in part", 'fu0-42@'],
      ['upper case', COMMON_WORD.toUpperCase()],
    ] as const;
    for (const [label, term] of classes) {
      const first = await get<{ totalCount: number; responses: unknown[] }>(list(term));
      await sampleGet(list(term), token, 2);
      const r = await alternate<Timings>(rounds, async () => ({ client: await sampleFn(QUICK ? 1 : 2, () => base.run(term)), server: [] }), () => sampleGet(list(term), token, QUICK ? 5 : 30));
      const a = summarize(r.b.map((x) => x.client));
      const server = summarize(r.b.map((x) => x.server));
      findings.push({
        target: `3. ${E} search p95 server time, ${label}${term === phone ? '' : ` "${term}"`}: <= 25 ms`,
        measured: `${ms(server.p95)} (client ${ms(a.p95)}; p50 ${ms(a.p50)}) vs LIKE scan ${ms(summarize(r.a.map((x) => x.client)).p95)}`,
        holds: server.p95 <= 25,
      });
      lines.push(`${E} search "${term}" (${label}): ${first.responses.length} rows on page 1, totalCount ${first.totalCount}`);
    }

    // 4. Deep pages: the survey's page 2000 (quick mode: its last full page) against page 1, no search.
    const deep = Math.min(2000, Math.floor(perOrg / 20));
    await sampleGet(list('', deep), token, 3);
    const d = await alternate(rounds, () => sampleGet(list('', 1), token, apiN), () => sampleGet(list('', deep), token, apiN));
    const p1 = summarize(d.a.map((x) => x.client));
    const pd = summarize(d.b.map((x) => x.client));
    const deepRatio = pd.p95 / p1.p95;
    const sd = summarize(d.b.map((x) => x.server)).p95 / summarize(d.a.map((x) => x.server)).p95;
    findings.push({ target: `4. ${E} page ${deep} p95 <= 2x page 1 (no search)`, measured: `${ms(pd.p95)} vs ${ms(p1.p95)} = ${deepRatio.toFixed(2)}x (server time ${sd.toFixed(2)}x)`, holds: deepRatio <= 2 });

    // 4: a common word's page 500, reached as the table does (each page names the one before's last row).
    const deepSearch = QUICK ? 50 : 500;
    let after: string | undefined;
    for (let p = 1; p < deepSearch; p++) after = (await get<{ nextCursor: string | null }>(list(COMMON_WORD, p, after))).nextCursor ?? undefined;
    if (!after) throw new Error(`"${COMMON_WORD}" has fewer than ${deepSearch} pages`);
    await sampleGet(list(COMMON_WORD, deepSearch, after), token, 3);
    const ds = await alternate(rounds, () => sampleGet(list(COMMON_WORD), token, apiN), () => sampleGet(list(COMMON_WORD, deepSearch, after), token, apiN));
    const s1 = summarize(ds.a.map((x) => x.server));
    const sDeep = summarize(ds.b.map((x) => x.server));
    const cRatio = summarize(ds.b.map((x) => x.client)).p95 / summarize(ds.a.map((x) => x.client)).p95;
    findings.push({
      target: `4. ${E} searched page ${deepSearch} ("${COMMON_WORD}") p95 server time <= 2x page 1`,
      measured: `${ms(sDeep.p95)} vs ${ms(s1.p95)} = ${(sDeep.p95 / s1.p95).toFixed(2)}x (client time ${cRatio.toFixed(2)}x)`,
      holds: sDeep.p95 <= 2 * s1.p95,
    });
    const offsetOnly = summarize([(await sampleGet(list(COMMON_WORD, deepSearch), token, QUICK ? 3 : 10)).server]);
    lines.push(`${E} searched page ${deepSearch} without a cursor (counted from the start, as before): server p95 ${ms(offsetOnly.p95)}`);
    lines.push(`${E} search/deep pages: ${rounds} round(s) A/B; ${apiN} sequential API requests per term and round (client time over loopback, keep-alive), ${baseN} baseline queries per round in-process; figures are the median over rounds of each round's p95 of client time (server time from the reply's server-timing header in brackets)`);
  } finally {
    await base.close();
    await api.stop();
  }
  return { findings, lines };
}

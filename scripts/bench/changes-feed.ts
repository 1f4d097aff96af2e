/**
 * The field user's changes feed (GET /api/v1/me/responses/changes?since=) for a field user
 * with 10,000 responses, a fifth of them reviewed or paid, when nothing changed since the cursor:
 * what every sync of every phone asks. Server time = the reply's `server-timing: app;dur=` header
 * (the earnings routes set it like the insight routes). Beside it, in alternation, a no-op
 * (GET /api/v1/user with the same token) as the same-run baseline.
 */
import { createHash } from 'node:crypto';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { openDb } from '../../apps/api/src/db/database.js';
import { QUICK, loginToken, median, percentile, startApi, type Finding } from './lib.js';
import { ms, sampleGet, type Timings } from './reads.js';
import { pgServerUrl, scaleData } from './scale-data.js';

const RESPONSES = 10_000;
/** The scale data set this suite adds its field user's responses to (its own shape: no other suite reads it). */
const SHAPE = { orgs: 1, perOrg: 2_000 };

export async function benchChangesFeed(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  for (const engine of pgServerUrl() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const r = await feedOn(engine);
    findings.push(...r.findings);
    lines.push(...r.lines);
  }
  return { findings, lines };
}

async function feedOn(engine: 'sqlite' | 'postgres'): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const n = QUICK ? 20 : 200;
  const data = await scaleData(engine, SHAPE.orgs, SHAPE.perOrg);
  const email = 'fu0-0@scale.ng';
  await addResponses(data, email);
  const api = await startApi(data.env);
  const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const token = await loginToken(api.url, email, data.info.password);
    // The phone's first sync: every page of changes up to the cursor it keeps.
    let since = '';
    for (;;) {
      const res = await fetch(`${api.url}/api/v1/me/responses/changes${since ? `?since=${since}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
      const page = (await res.json()) as { cursor: string; hasMore: boolean; changes: unknown[] };
      since = page.cursor;
      if (!page.hasMore) break;
    }
    const url = `${api.url}/api/v1/me/responses/changes?since=${since}`;
    const noop = `${api.url}/api/v1/user`;
    await sampleGet(url, token, 5);
    await sampleGet(noop, token, 5);
    const feed: Timings[] = [];
    const base: Timings[] = [];
    for (let r = 0; r < rounds; r++) {
      base.push(await sampleGet(noop, token, n));
      feed.push(await sampleGet(url, token, n));
    }
    const server = median(feed.map((s) => percentile(s.server, 95)));
    const client = median(feed.map((s) => percentile(s.client, 95)));
    const noopClient = median(base.map((s) => percentile(s.client, 95)));
    return {
      findings: [{ target: `Changes feed. ${E}, field user with ${RESPONSES.toLocaleString('en')} responses, nothing changed: p95 server time <= 20 ms`, measured: `${ms(server)} (client p95 ${ms(client)}; no-op GET /api/v1/user client p95 ${ms(noopClient)})`, holds: server <= 20 }],
      lines: [`${E} changes feed: ${rounds} round(s) of ${n} sequential requests from the cursor of a full first sync (${RESPONSES / 5} changes), alternated with ${n} no-op GET /api/v1/user; median over rounds of each round's p95`],
    };
  } finally {
    await api.stop();
  }
}

/** 10,000 responses of one field user, a fifth of them reviewed (changed_at set); once per data set. */
async function addResponses(data: Awaited<ReturnType<typeof scaleData>>, email: string): Promise<void> {
  const db = openDb({ dataDir: data.dataDir, databaseUrl: data.databaseUrl, ...(data.sqliteFile ? { sqliteFile: data.sqliteFile } : {}) });
  try {
    const k = db.kysely;
    const member = await k.selectFrom('members').select(['id', 'user_id', 'survey_id', 'organization_id', 'rate']).where('email', '=', email).executeTakeFirstOrThrow();
    const have = await k.selectFrom('responses').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', member.user_id!).executeTakeFirstOrThrow();
    const start = Date.now() - 30 * 86_400_000;
    for (let i = Number(have.n); i < RESPONSES; i += 500) {
      const rows = Array.from({ length: Math.min(500, RESPONSES - i) }, (_, j) => {
        const at = start + (i + j) * 60_000;
        const answers = JSON.stringify({ 'Outlet name': `Bench outlet ${i + j}` });
        const reviewed = (i + j) % 5 === 0;
        return {
          id: uuidv7(at), client_id: uuidv7(at), survey_id: member.survey_id, organization_id: member.organization_id, member_id: member.id, user_id: member.user_id!,
          answers, body_hash: createHash('sha256').update(answers).digest('hex'), search_text: `bench outlet ${i + j}`, rate: member.rate, paid_at: null, captured_at: null, created_at: at,
          status: reviewed && (i + j) % 10 === 0 ? 'returned' : 'approved', review_comment: reviewed && (i + j) % 10 === 0 ? 'Retake the photo' : null, changed_at: reviewed ? at + 3_600_000 : null,
        };
      });
      await k.insertInto('responses').values(rows).execute();
    }
  } finally {
    await db.close();
  }
}

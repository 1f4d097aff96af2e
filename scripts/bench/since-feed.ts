/**
 * The survey changes feed (GET /api/v1/survey/:id/responses?since=) that mirrors a survey:
 * pulling every response of one survey in pages of 1,000, cursor to cursor, against the full xlsx
 * export of the same survey (the way out it competes with), alternating in the same run. The target:
 * the pages take at most 1.5x the export's time. Rows: 200k (quick mode 5k; SINCE_FEED_ROWS
 * overrides, e.g. 1000000 for the million-row figure). Client time to the last byte of each.
 */
import type { SurveyChangesReply } from '@survey-bird/contracts';
import { QUICK, alternate, loginToken, median, startApi, type Finding, type Server } from './lib.js';
import { pgServerUrl, scaleData } from './scale-data.js';

const ROWS = Number(process.env.SINCE_FEED_ROWS) || (QUICK ? 5_000 : 200_000);

async function pullAll(api: Server, token: string, surveyId: string): Promise<{ ms: number; rows: number; pages: number }> {
  const started = performance.now();
  let since = '';
  let rows = 0;
  let pages = 0;
  for (;;) {
    const res = await fetch(`${api.url}/api/v1/survey/${surveyId}/responses${since ? `?since=${since}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`feed: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as SurveyChangesReply;
    rows += page.responses.length;
    pages++;
    since = page.nextCursor;
    if (!page.hasMore) return { ms: performance.now() - started, rows, pages };
  }
}

async function exportAll(api: Server, token: string, surveyId: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(`${api.url}/api/v1/survey/organization/response/download/${surveyId}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
  return { ms: performance.now() - started, bytes };
}

export async function benchSinceFeed(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  for (const engine of pgServerUrl() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const rounds = QUICK ? 1 : 3;
    const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const data = await scaleData(engine, 1, ROWS);
    const org = data.info.orgs[0]!;
    const api = await startApi(data.env);
    try {
      const token = await loginToken(api.url, org.email, data.info.password);
      const first = await pullAll(api, token, org.surveyId);
      if (first.rows !== ROWS) throw new Error(`feed gave ${first.rows} of ${ROWS} rows`);
      const t = await alternate<{ ms: number; bytes?: number }>(rounds, () => exportAll(api, token, org.surveyId), () => pullAll(api, token, org.surveyId));
      const xlsx = median(t.a.map((r) => r.ms));
      const feed = median(t.b.map((r) => r.ms));
      const k = `${ROWS / 1000}k`;
      findings.push({ target: `${E} since feed: pulling ${k} rows in pages of 1,000 <= 1.5x a full xlsx export`, measured: `${(feed / 1000).toFixed(1)} s vs ${(xlsx / 1000).toFixed(1)} s = ${(feed / xlsx).toFixed(2)}x`, holds: feed / xlsx <= 1.5 });
      lines.push(`${E} since feed: ${ROWS} rows in ${first.pages} pages (${((ROWS / feed) * 1000).toFixed(0)} rows/s), the xlsx ${((t.a[0]!.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB; ${rounds} round(s) A/B, client time to the last byte`);
    } finally {
      await api.stop();
    }
  }
  return { findings, lines };
}

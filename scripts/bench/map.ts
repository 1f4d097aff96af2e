/**
 * The responses map (GET /api/v1/survey/:id/map) on one survey of 100,000 located responses
 * (MAP_POINTS; 10,000 with BENCH_MODE unset), spread over Lagos State around 40 settlements, a
 * tenth flagged: the time to answer at each zoom, for a 1280 x 800 viewport over the densest
 * area (the whole survey at zoom 3), as the organization, as a supervisor of a fifth of the team,
 * and with a status filter. In process (app.inject: routing, SQL, serialization; no socket), on
 * SQLite and, with BENCH_PG_URL, on PostgreSQL. Writes nothing but its table.
 *
 *   npx tsx scripts/bench/map.ts            (10,000 points)
 *   BENCH_MODE=full npx tsx scripts/bench/map.ts   (100,000 points)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import { Role } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { buildApp } from '../../apps/api/src/app.js';
import { loadConfig } from '../../apps/api/src/config.js';
import type { Database } from '../../apps/api/src/db/schema.js';
import { createUser, login } from '../../apps/api/test/helpers.js';
import { QUICK, median, percentile } from './lib.js';

const POINTS = Number(process.env.MAP_POINTS) || (QUICK ? 10_000 : 100_000);
const FIELD_USERS = 100;
const SUPERVISORS = 5;
const RUNS = QUICK ? 10 : 30;
const CENTRE = { lat: 6.52, lng: 3.37 };

/** A seeded generator: the same data set every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function viewport(zoom: number) {
  // 1280 x 800 pixels of 256-pixel tiles spanning 360 / 2^zoom degrees (latitude near the equator alike).
  const w = (1280 * 360) / (256 * 2 ** zoom);
  const h = (800 * 360) / (256 * 2 ** zoom);
  const f = (v: number) => v.toFixed(6);
  return `${f(Math.max(-180, CENTRE.lng - w / 2))},${f(Math.max(-90, CENTRE.lat - h / 2))},${f(Math.min(180, CENTRE.lng + w / 2))},${f(Math.min(90, CENTRE.lat + h / 2))}`;
}

/**
 * One survey of `points` located responses of FIELD_USERS field users (SUPERVISORS supervisors, a
 * fifth of the team each) around 40 settlements of Lagos State, a tenth flagged, written straight to
 * the database; owner@map.bench and supervisor0@map.bench sign in with the test helpers' password.
 */
export async function seedMapSurvey(app: Awaited<ReturnType<typeof buildApp>>, points: number): Promise<string> {
  const k = app.db.kysely;
  const orgId = randomUUID();
  await k.insertInto('organizations').values({ id: orgId, name: 'Map bench', email: 'owner@map.bench', created_at: Date.now() }).execute();
  await createUser(app, 'owner@map.bench', Role.organization);
  const surveyId = randomUUID();
  await k.insertInto('surveys').values({ id: surveyId, organization_id: orgId, title: 'Outlets', description: '', expected_response_count: points, questions: '[]', created_at: Date.now() }).execute();
  const member = (role: string, i: number, supervisorId: string | null, userId: string) => ({ id: randomUUID(), survey_id: surveyId, organization_id: orgId, role, email: `${role}${i}@map.bench`, user_id: userId, full_name: `${role} ${i}`, phone_number: '0803', bank: 'GTB', account_number: '0123456789', account_name: 'x', rate: 100, supervisor_id: supervisorId, created_at: Date.now() });
  const sups = [];
  for (let i = 0; i < SUPERVISORS; i++) {
    const u = await createUser(app, `supervisor${i}@map.bench`, Role.supervisor);
    sups.push(member(Role.supervisor, i, null, u.id));
  }
  await k.insertInto('members').values(sups).execute();
  const fus = [];
  for (let i = 0; i < FIELD_USERS; i++) {
    const u = await createUser(app, `fu${i}@map.bench`, Role.fieldUser);
    fus.push(member(Role.fieldUser, i, sups[i % SUPERVISORS]!.id, u.id));
  }
  await k.insertInto('members').values(fus).execute();

  const random = rng(7);
  const towns = Array.from({ length: 40 }, () => ({ lat: 6.4 + random() * 0.3, lng: 3.1 + random() * 0.5 }));
  const statuses = ['pending', 'pending', 'approved', 'approved', 'approved', 'returned', 'rejected'];
  const now = Date.now();
  for (let i = 0; i < points; i += 1000) {
    const rows: Insertable<Database['responses']>[] = [];
    const checks: Insertable<Database['response_checks']>[] = [];
    const flags: Insertable<Database['response_flags']>[] = [];
    for (let j = i; j < Math.min(points, i + 1000); j++) {
      const fu = fus[j % FIELD_USERS]!;
      const town = towns[Math.floor(random() * towns.length)]!;
      const id = uuidv7();
      const at = now - Math.floor(random() * 60 * 86_400_000);
      rows.push({ id, client_id: randomUUID(), survey_id: surveyId, organization_id: orgId, member_id: fu.id, user_id: fu.user_id, answers: '{}', body_hash: id, search_text: '', rate: 100, captured_at: at, created_at: at, status: statuses[j % statuses.length]! });
      checks.push({ response_id: id, survey_id: surveyId, user_id: fu.user_id, captured_at: at, lat: town.lat + (random() - 0.5) * 0.02, lng: town.lng + (random() - 0.5) * 0.02, answers_hash: id, duration_ms: 60_000 });
      if (j % 10 === 0) flags.push({ response_id: id, flag: 'too_fast', survey_id: surveyId, member_id: fu.id, reason: 'bench', other_response_id: null, created_at: at, dismissed_at: null, dismissed_by: null, dismissed_role: null, dismiss_note: null });
    }
    await k.transaction().execute(async (trx) => {
      await trx.insertInto('responses').values(rows).execute();
      await trx.insertInto('response_checks').values(checks).execute();
      if (flags.length) await trx.insertInto('response_flags').values(flags).execute();
    });
  }
  await k.deleteFrom('flag_jobs').execute();
  await sql`analyze`.execute(k);
  return surveyId;
}

async function run(engine: 'sqlite' | 'postgres'): Promise<string[]> {
  // MAP_BENCH_DIR: keep the SQLite data set there (seeded once) to look at plans between runs.
  const keep = engine === 'sqlite' ? process.env.MAP_BENCH_DIR : undefined;
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'sb-bench-map-'));
  let schema: string | undefined;
  let databaseUrl: string | undefined;
  if (engine === 'postgres') {
    databaseUrl = process.env.BENCH_PG_URL!;
    schema = `bench_map_${Date.now()}`;
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
    databaseUrl = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  }
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', DATABASE_URL: databaseUrl ?? '', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000', FLAG_POLL_MS: '3600000' }, { scryptN: 1024 });
  const app = await buildApp(config, { logger: false });
  const lines: string[] = [];
  try {
    await app.services.flags.worker.stop();
    const k = app.db.kysely;
    const seeded = keep ? await k.selectFrom('surveys').select('id').where('title', '=', 'Outlets').executeTakeFirst() : undefined;
    if (seeded) return await measure(app, seeded.id, lines);
    const started = performance.now();
    const surveyId = await seedMapSurvey(app, POINTS);
    lines.push(`${engine}: ${POINTS.toLocaleString('en')} located responses of ${FIELD_USERS} field users seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

    await measure(app, surveyId, lines);
  } finally {
    await app.close();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const c = new pg.Client({ connectionString: process.env.BENCH_PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    }
  }
  return lines;
}

async function measure(app: Awaited<ReturnType<typeof buildApp>>, surveyId: string, lines: string[]): Promise<string[]> {
  const now = Date.now();
  const owner = await login(app, 'owner@map.bench');
  const supervisor = await login(app, 'supervisor0@map.bench');
  const time = async (token: string, query: string) => {
    const url = `/api/v1/survey/${surveyId}/map?${query}`;
    const first = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode} ${first.body}`);
    const body = first.json<{ features: unknown[]; total: number; truncated: boolean }>();
    const ms: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      ms.push(performance.now() - t0);
    }
    return { median: median(ms), p95: percentile(ms, 95), features: body.features.length, total: body.total, bytes: first.rawPayload.length, truncated: body.truncated };
  };
  lines.push('caller      | query                               | median ms | p95 ms | features | in view | reply KB');
  const cases: [string, string, string][] = [
    ['organization', owner, 'zoom=3'],
    ['organization', owner, 'zoom=6'],
    ...[9, 11, 12, 13, 14, 15, 16, 17].map((z): [string, string, string] => ['organization', owner, `zoom=${z}&bbox=${viewport(z)}`]),
    ['organization', owner, `zoom=11&bbox=${viewport(11)}&status=pending`],
    ['organization', owner, `zoom=11&bbox=${viewport(11)}&flag=any`],
    ['organization', owner, `zoom=11&bbox=${viewport(11)}&from=${new Date(now - 7 * 86_400_000).toISOString()}`],
    ['supervisor', supervisor, 'zoom=3'],
    ['supervisor', supervisor, `zoom=11&bbox=${viewport(11)}`],
    ['supervisor', supervisor, `zoom=15&bbox=${viewport(15)}`],
  ];
  for (const [who, token, query] of cases) {
    const r = await time(token, query);
    const label = query.replace(/bbox=[^&]+/, 'bbox=view').replace(/from=[^&]+/, 'from=7d');
    lines.push(`${who.padEnd(11)} | ${label.padEnd(35)} | ${r.median.toFixed(1).padStart(9)} | ${r.p95.toFixed(1).padStart(6)} | ${String(r.features).padStart(8)} | ${String(r.total).padStart(7)} | ${(r.bytes / 1024).toFixed(0).padStart(8)}${r.truncated ? ' (truncated)' : ''}`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const engine of process.env.BENCH_PG_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    for (const line of await run(engine)) console.log(line);
  }
}

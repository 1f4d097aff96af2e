/**
 * Several instances on one PostgreSQL (`npx tsx scripts/bench/multi-instance.ts`; BENCH_MODE=full for
 * 3 rounds of 15 s, recorded in docs/benchmarks.json as suite `multi-instance`):
 * 1. batch ingest on PostgreSQL through one instance against two instances on the same database,
 *    alternating in the same run (autocannon splits its connections between the instances, as a
 *    round-robin balancer would);
 * 2. photo read latency (p50/p95) from the PostgreSQL store against the disk store;
 * 3. resumable photo uploads (tus), each sent in two PATCHes, with the partial upload in the database
 *    (photo store postgres) against DATA_DIR/resumable (photo store disk), on the same PostgreSQL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { buildApp } from '../../apps/api/src/app.js';
import { loadConfig } from '../../apps/api/src/config.js';
import { tinyPng } from '../../apps/api/test/images.js';
import { seedDemoIfEmpty } from '../../apps/api/src/seed/demo.js';
import { QUICK, json, loginToken, median, startApi, type Finding, type Server } from './lib.js';
import { record } from './report.js';

const PG_BASE = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
const DURATION = QUICK ? 5 : 15;
const ROUNDS = QUICK ? 1 : 3;

async function database(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sb_bench_multi_${randomBytes(4).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: `${PG_BASE}/test` });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`create database ${name}`);
  return { url: `${PG_BASE}/${name}`, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** The demo, seeded in-process with a cheap password hash (the servers' OWASP cost would take minutes on a busy machine). */
async function seed(databaseUrl: string | undefined, dataDir: string): Promise<void> {
  const app = await buildApp(loadConfig({}, { dataDir, databaseUrl, jwtSecret: 'bench-'.padEnd(48, 'x'), scryptN: 2 ** 10, seedDemo: true, logLevel: 'silent', pwaDir: undefined }), { logger: false });
  await seedDemoIfEmpty(app);
  await app.close();
}

async function fieldUser(api: Server, dataDir: string) {
  const logins = JSON.parse(readFileSync(join(dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
  const fu = logins.find((l) => l.role === 'field_user')!;
  const token = await loginToken(api.url, fu.email, fu.password);
  const list = await json<{ survey: { _id: string; organization_id: string; title: string }[] }>(`${api.url}/api/v1/survey/field-user`, { headers: { authorization: `Bearer ${token}` } });
  const survey = list.survey.find((s) => s.title.startsWith('Retail'))!;
  return { token, surveyId: survey._id, organizationId: survey.organization_id };
}

/** Batches of 20 responses, each with fresh clientIds, on `connections` split over `urls`. */
async function ingest(urls: string[], ctx: Awaited<ReturnType<typeof fieldUser>>): Promise<number> {
  const answers = { 'Outlet name': 'Mama Nkechi Provisions', 'Outlet type': 'Kiosk', Ward: 'Ikeja - Ward B', 'Products in stock': ['Rice'], 'Outlet location': '6.60123, 3.35123 (±8 m)' };
  const body = () => JSON.stringify({ responses: Array.from({ length: 20 }, () => ({ survey_id: ctx.surveyId, organization_id: ctx.organizationId, clientId: uuidv7(), answers, capturedAt: new Date().toISOString() })) });
  const runs = urls.map((url) => autocannon({
    url: `${url}/api/v1/sync/responses`, method: 'POST', connections: Math.round(32 / urls.length), duration: DURATION,
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
  }));
  const results = await Promise.all(runs);
  for (const r of results) if (r.non2xx || r.errors) throw new Error(`ingest: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return results.reduce((sum, r) => sum + r.requests.average * 20, 0);
}

async function photoReads(env: Record<string, string>): Promise<{ p50: number; p95: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-photos-'));
  await seed(env.DATABASE_URL, dataDir);
  const api = await startApi({ ...env, DATA_DIR: dataDir, JWT_SECRET: 'bench-'.padEnd(48, 'x') });
  try {
    const ctx = await fieldUser(api, dataDir);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const boundary = `----b${randomBytes(8).toString('hex')}`;
      const fields = { question: 'Shelf photo', survey_name: ctx.surveyId, organization_name: ctx.organizationId, clientId: uuidv7() };
      const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
      const photo = tinyPng(16, 16, { padBytes: 400 * 1024 });
      const payload = Buffer.concat([Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const res = await json<Record<string, string>>(`${api.url}/api/v1/files/image`, { method: 'POST', body: payload, headers: { authorization: `Bearer ${ctx.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` } });
      ids.push(res['Shelf photo']!.split('/').pop()!);
    }
    let i = 0;
    const r = await autocannon({ url: api.url, connections: 8, duration: DURATION, requests: [{ setupRequest: (req) => ({ ...req, path: `/api/v1/files/image/${ids[i++ % ids.length]}` }) }] });
    if (r.non2xx || r.errors) throw new Error(`photo reads: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return { p50: r.latency.p50, p95: r.latency.p97_5 ?? r.latency.p99 };
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Photos uploaded over tus as the phone sends them (a response with the photo's placeholder, then
 * POST, then the bytes in two PATCHes), 4 at a time: photo MB/s end to end (stored and attached).
 */
async function resumableUploads(env: Record<string, string>): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-tus-'));
  await seed(env.DATABASE_URL, dataDir);
  const api = await startApi({ ...env, DATA_DIR: dataDir, JWT_SECRET: 'bench-'.padEnd(48, 'x') });
  try {
    const ctx = await fieldUser(api, dataDir);
    const auth = { authorization: `Bearer ${ctx.token}`, 'tus-resumable': '1.0.0' };
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const photos = Array.from({ length: QUICK ? 8 : 24 }, () => tinyPng(16, 16, { padBytes: 1024 * 1024 }));
    const clientIds: string[] = [];
    for (const photo of photos) {
      const clientId = uuidv7();
      clientIds.push(clientId);
      await json(`${api.url}/api/v1/survey/respond`, { method: 'POST', headers: { authorization: `Bearer ${ctx.token}` }, body: JSON.stringify({ survey_id: ctx.surveyId, organization_id: ctx.organizationId, clientId, capturedAt: new Date().toISOString(), answers: { 'Outlet name': 'Mama Nkechi Provisions', 'Outlet type': 'Kiosk', Ward: 'Ikeja - Ward B', 'Products in stock': ['Rice'], 'Outlet location': '6.60123, 3.35123 (±8 m)' }, photos: [{ question: 'Shelf photo', clientId: uuidv7(), size: photo.length, sha256: createHash('sha256').update(photo).digest('hex') }] }) });
    }
    const send = async (i: number) => {
      const photo = photos[i]!;
      const metadata = [`question ${b64('Shelf photo')}`, `survey_id ${b64(ctx.surveyId)}`, `organization_id ${b64(ctx.organizationId)}`, `clientId ${b64(clientIds[i]!)}`].join(',');
      const created = await fetch(`${api.url}/api/v1/files/tus`, { method: 'POST', headers: { ...auth, 'upload-length': String(photo.length), 'upload-metadata': metadata } });
      const location = `${api.url}${created.headers.get('location') ?? ''}`;
      const half = Math.floor(photo.length / 2);
      for (const [offset, part] of [[0, photo.subarray(0, half)], [half, photo.subarray(half)]] as const) {
        const res = await fetch(location, { method: 'PATCH', headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(part) });
        if (res.status !== 204) throw new Error(`tus PATCH: ${res.status} ${await res.text()}`);
      }
    };
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < photos.length) await send(next++);
    }));
    const seconds = (performance.now() - started) / 1000;
    return photos.reduce((n, p) => n + p.length, 0) / 2 ** 20 / seconds;
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Two instances should take at least 1.6x one's batch ingest where there are cores to spare. */
const TWO_INSTANCES = 1.6;
const findings: Finding[] = [];
const lines: string[] = [];
const db = await database();
const seedDir = mkdtempSync(join(tmpdir(), 'sb-bench-seed-'));
try {
  await seed(db.url, seedDir);
  const env = { DATABASE_URL: db.url, JWT_SECRET: '' };
  const a = await startApi(env);
  const b = await startApi(env);
  try {
    const ctx = await fieldUser(a, seedDir);
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      one.push(await ingest([a.url], ctx));
      two.push(await ingest([a.url, b.url], ctx));
    }
    const ratio = median(two) / median(one);
    findings.push({ target: `Multi-instance. Batch ingest on PostgreSQL (batches of 20, 32 connections split over the instances), two instances >= ${TWO_INSTANCES}x one`, measured: `${median(two).toFixed(0)} vs ${median(one).toFixed(0)} rows/s = ${ratio.toFixed(2)}x`, holds: ratio >= TWO_INSTANCES });
    lines.push(`multi-instance ingest: ${ROUNDS} alternating rounds of ${DURATION} s`);
  } finally {
    await a.stop();
    await b.stop();
  }
  const disk = await photoReads({ FILE_STORE: 'disk' });
  const photoDb = await database();
  const inPg = await photoReads({ DATABASE_URL: photoDb.url, FILE_STORE: 'postgres' }).finally(() => photoDb.drop());
  findings.push({ target: 'Multi-instance. Photo reads (400 KB PNG, 8 connections) from the PostgreSQL store against the disk store (no target)', measured: `p50 ${inPg.p50} vs ${disk.p50} ms, p97.5 ${inPg.p95} vs ${disk.p95} ms`, holds: null });
  const onDisk: number[] = [];
  const inDatabase: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, out] of [['disk', onDisk], ['postgres', inDatabase]] as const) {
      const tusDb = await database();
      out.push(await resumableUploads({ DATABASE_URL: tusDb.url, FILE_STORE: kind }).finally(() => tusDb.drop()));
    }
  }
  findings.push({ target: 'Multi-instance. Resumable uploads (1 MB PNG in two PATCHes, 4 at a time) with the partial upload in the database against DATA_DIR/resumable (no target)', measured: `${median(inDatabase).toFixed(1)} vs ${median(onDisk).toFixed(1)} MB/s = ${(median(inDatabase) / median(onDisk)).toFixed(2)}x`, holds: null });
  lines.push(`multi-instance resumable uploads: ${ROUNDS} alternating rounds, each side on a fresh database`);
} finally {
  await db.drop();
  rmSync(seedDir, { recursive: true, force: true });
}

for (const f of findings) console.log(`${f.holds === null ? '-' : f.holds ? 'ok' : 'MISSED'}  ${f.target}: ${f.measured}`);
if (!QUICK) record([{ suite: 'multi-instance', findings, lines }], `${process.env.BENCH_PG_URL ? 'BENCH_PG_URL=... ' : ''}BENCH_MODE=full npx tsx scripts/bench/multi-instance.ts`);

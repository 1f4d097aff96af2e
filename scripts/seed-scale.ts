/**
 * Generates a large, reproducible data set for the benchmarks: by default 1,000,000 responses
 * across 10 organizations (100,000 each), each with one survey of 11 questions (15 columns in the
 * table), 50 field users and 5 supervisors. Fixed seed: the same arguments give the same rows.
 *
 *   npx tsx scripts/seed-scale.ts --data-dir /tmp/sb-bench [--database-url postgres://...] [--orgs 10] [--per-org 100000]
 *
 * Rows go in with batched inserts in large transactions (raw prepared statements on SQLite,
 * multi-row inserts on PostgreSQL), bypassing the API: this measures reads, not ingest.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { QuestionType, Role, withQuestionIds, type StoredQuestion } from '@survey-bird/contracts';
import { migrateToLatest, openDb } from '../apps/api/src/db/database.js';
import { hashPassword } from '../apps/api/src/modules/accounts/passwords.js';
import { SearchIndexer } from '../apps/api/src/modules/insight/search-indexer.js';
import { searchTextOf } from '../apps/api/src/modules/responses/search-text.js';
import { rng } from '../apps/api/src/seed/random.js';

export const SCALE_PASSWORD = 'bench-password';
export const COMMON_WORD = 'market';
export const NO_MATCH = 'qqqzzzxxx';
/** Appears in about one response in 20,000. */
export const RARE_TOKEN = 'okwuosa';
/** In one response in 10 of every other organization's survey, one in 20,000 of organization 0's (the searched one). */
export const SKEWED_WORD = 'borehole';
/** A character in one response in 5,000 (every survey). */
export const RARE_CHAR = '#';

const QUESTIONS: StoredQuestion[] = withQuestionIds<Omit<StoredQuestion, 'id'>>([
  { text: 'Outlet name', type: QuestionType.text, compulsory: true, options: [] },
  { text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket', 'Open market stall', 'Pharmacy'] },
  { text: 'Products in stock', type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Beans', 'Garri', 'Palm oil', 'Sugar'] },
  { text: 'Owner name', type: QuestionType.text, compulsory: false, options: [] },
  { text: 'Phone', type: QuestionType.text, compulsory: false, options: [] },
  { text: 'Street', type: QuestionType.text, compulsory: false, options: [] },
  { text: 'Opening hour', type: QuestionType.select, compulsory: false, options: ['6am', '7am', '8am', '9am'] },
  { text: 'Shelf photo', type: QuestionType.image, compulsory: false, options: [] },
  { text: 'Location', type: QuestionType.liveLocation, compulsory: false, options: [] },
  { text: 'Monthly sales estimate', type: QuestionType.text, compulsory: false, options: [] },
  { text: 'Remarks', type: QuestionType.text, compulsory: false, options: [] },
]);

const FIRST = ['Tunde', 'Ngozi', 'Ibrahim', 'Funmi', 'Emeka', 'Halima', 'Chidi', 'Aisha', 'Segun', 'Bola', 'Uche', 'Musa', 'Kemi', 'Yusuf', 'Ada'];
const LAST = ['Adeyemi', 'Eze', 'Musa', 'Ojo', 'Nwosu', 'Yusuf', 'Okafor', 'Bello', 'Balogun', 'Obi', 'Lawal', 'Ibe'];
const WORDS = ['provisions', 'stores', 'ventures', 'mart', 'enterprises', 'foods', 'pharmacy', 'kiosk', 'depot', 'plaza', 'traders', 'supply'];
const STREETS = ['Allen Avenue', 'Awolowo Road', 'Herbert Macaulay Way', 'Ikorodu Road', 'Adeola Odeku', 'Bode Thomas', 'Opebi Road', 'Toyin Street'];
const REMARKS = ['busy morning', 'owner absent', 'near the market', 'new stock arriving', 'asked for price list', 'closed early', 'cooperative owner', 'shelves full'];

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** SKEWED_WORD's remark: common in organizations 1 and up, rare in organization 0. */
function skewed(org: number, i: number, remark: string): string {
  return (org === 0 ? i % 20_000 === 7 : i % 10 === 7) ? `${SKEWED_WORD} nearby` : remark;
}

export interface ScaleInfo {
  orgs: { id: string; email: string; surveyId: string; supervisorEmails: string[] }[];
  password: string;
}

export async function seedScale(opts: { dataDir: string; databaseUrl?: string; orgs: number; perOrg: number; log?: (s: string) => void }): Promise<ScaleInfo> {
  const log = opts.log ?? (() => {});
  mkdirSync(opts.dataDir, { recursive: true });
  const db = openDb({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, sqliteSynchronous: 'NORMAL' });
  await migrateToLatest(db);
  const k = db.kysely;
  const random = rng(42);
  const pick = <T>(l: readonly T[]) => l[Math.floor(random() * l.length)]!;
  const hash = await hashPassword(SCALE_PASSWORD, 2 ** 10);
  const now = Date.now();
  const info: ScaleInfo = { orgs: [], password: SCALE_PASSWORD };
  const started = Date.now();
  // Per-row triggers make a bulk load slow (a trigger also makes every insert in a transaction keep a
  // statement journal): lift them, then rebuild the search index and response_counts once at the end.
  const triggers = db.sqlite ? (db.sqlite.prepare(`select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'responses'`).all() as { name: string; sql: string }[]) : [];
  for (const t of triggers) db.sqlite!.exec(`drop trigger ${t.name}`);
  // PostgreSQL: the same for the secondary indexes (the pg_trgm GIN index above all): built once at the end.
  const pgIndexes = db.sqlite
    ? []
    : (
        await sql<{ name: string; def: string }>`select i.indexname as name, i.indexdef as def from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = 'responses'
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(k)
      ).rows;
  for (const ix of pgIndexes) await sql`drop index ${sql.id(ix.name)}`.execute(k);

  for (let o = 0; o < opts.orgs; o++) {
    const orgId = uuidFrom(random);
    const email = `owner${o}@scale.ng`;
    const surveyId = uuidFrom(random);
    await k.insertInto('organizations').values({ id: orgId, name: `Scale Org ${o}`, email, created_at: now - 100 * 86_400_000 }).execute();
    await k.insertInto('users').values({ id: uuidFrom(random), email, password_hash: hash, role: Role.organization, verified: 1, full_name: `Scale Org ${o}`, created_at: now }).execute();
    await k.insertInto('surveys').values({ id: surveyId, organization_id: orgId, title: `Scale survey ${o}`, description: 'Benchmark data', expected_response_count: opts.perOrg, questions: JSON.stringify(QUESTIONS), created_at: now - 90 * 86_400_000 }).execute();
    const supervisors: { id: string; email: string }[] = [];
    for (let s = 0; s < 5; s++) {
      const supEmail = `sup${o}-${s}@scale.ng`;
      const userId = uuidFrom(random);
      await k.insertInto('users').values({ id: userId, email: supEmail, password_hash: hash, role: Role.supervisor, verified: 1, full_name: `Supervisor ${o}-${s}`, created_at: now }).execute();
      const id = uuidFrom(random);
      await k.insertInto('members').values({ id, survey_id: surveyId, organization_id: orgId, role: Role.supervisor, email: supEmail, user_id: userId, full_name: `Supervisor ${o}-${s}`, phone_number: '0803', bank: 'Zenith Bank', account_number: '0123456789', account_name: 'S', rate: 0, supervisor_id: null, created_at: now }).execute();
      supervisors.push({ id, email: supEmail });
    }
    const fieldUsers: { id: string; userId: string; name: string; email: string; rate: number }[] = [];
    for (let f = 0; f < 50; f++) {
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      const fuEmail = `fu${o}-${f}@scale.ng`;
      const userId = uuidFrom(random);
      await k.insertInto('users').values({ id: userId, email: fuEmail, password_hash: hash, role: Role.fieldUser, verified: 1, full_name: name, created_at: now }).execute();
      const id = uuidFrom(random);
      const rate = 100 + 50 * (f % 5);
      await k.insertInto('members').values({ id, survey_id: surveyId, organization_id: orgId, role: Role.fieldUser, email: fuEmail, user_id: userId, full_name: name, phone_number: '0803', bank: 'Access Bank', account_number: '0123456789', account_name: name, rate, supervisor_id: supervisors[f % 5]!.id, created_at: now }).execute();
      fieldUsers.push({ id, userId, name, email: fuEmail, rate });
    }
    info.orgs.push({ id: orgId, email, surveyId, supervisorEmails: supervisors.map((s) => s.email) });

    const rows: unknown[][] = [];
    const flush = async () => {
      if (rows.length === 0) return;
      await insertRows(db, rows);
      rows.length = 0;
    };
    for (let i = 0; i < opts.perOrg; i++) {
      const fu = fieldUsers[Math.floor(random() * fieldUsers.length)]!;
      const rare = random() < 1 / 20_000;
      const answers = {
        'Outlet name': `${pick(FIRST)} ${pick(WORDS)}`,
        'Outlet type': pick(['Kiosk', 'Supermarket', 'Open market stall', 'Pharmacy']),
        'Products in stock': ['Rice', 'Beans', 'Garri', 'Palm oil', 'Sugar'].filter(() => random() > 0.5),
        'Owner name': rare ? `Chief ${RARE_TOKEN}` : `${pick(FIRST)} ${pick(LAST)}`,
        Phone: `080${Math.floor(random() * 1e8).toString().padStart(8, '0')}`,
        // Placed by row number, not drawn, so the random stream (and every other value) stays as it was.
        Street: `${1 + Math.floor(random() * 200)} ${pick(STREETS)}${i % 5000 === 13 ? ` shop ${RARE_CHAR}4` : ''}`,
        'Opening hour': pick(['6am', '7am', '8am', '9am']),
        Location: `${(6.4 + random() * 0.3).toFixed(5)}, ${(3.2 + random() * 0.4).toFixed(5)} (±${1 + Math.floor(random() * 30)} m)`,
        'Monthly sales estimate': String(10_000 + Math.floor(random() * 990_000)),
        Remarks: skewed(o, i, pick(REMARKS)),
      };
      const json = JSON.stringify(answers);
      const created = now - Math.floor(random() * 70 * 86_400_000);
      rows.push([uuidFrom(random), uuidFrom(random), surveyId, orgId, fu.id, fu.userId, json, createHash('sha1').update(json).digest('hex'), searchTextOf(fu.name, fu.email, answers), fu.rate, null, created - 60_000, created]);
      if (rows.length >= 5000) await flush();
    }
    await flush();
    log(`org ${o + 1}/${opts.orgs}: ${opts.perOrg} responses (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  if (db.sqlite) {
    for (const t of triggers) db.sqlite.exec(t.sql);
    db.sqlite.exec(`insert into responses_fts(responses_fts) values ('rebuild')`);
    db.sqlite.exec(`update search_index_state set last_rowid = (select coalesce(max(rowid), 0) from responses) where id = 1`);
    const gramsStarted = Date.now();
    new SearchIndexer(db.sqlite).drain();
    log(`gram index filled in ${((Date.now() - gramsStarted) / 1000).toFixed(0)} s`);
    // As migrations/20261125000000_response_counts.ts fills it.
    db.sqlite.exec(`delete from response_counts`);
    db.sqlite.exec(`insert into response_counts (survey_id, member_id, shard, responses, last_created_at)
      select m.survey_id, c.member_id, 0, c.n, c.last_created_at
      from (select member_id, count(*) as n, max(created_at) as last_created_at from responses group by member_id) c
      join members m on m.id = c.member_id`);
    db.sqlite.exec('analyze');
    log(`search index and response counts rebuilt (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  } else {
    await k.connection().execute(async (c) => {
      await sql`set maintenance_work_mem = '512MB'`.execute(c);
      for (const ix of pgIndexes) await sql.raw(ix.def).execute(c);
    });
    if (pgIndexes.length) log(`indexes rebuilt (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    // The flag checks' queue (issue 18) got a job per row from its trigger; SQLite's seed lifts that
    // trigger. Left here, the next server works through a million checks while it is measured.
    await sql`delete from flag_jobs`.execute(k);
    // What autovacuum would soon do after a bulk load: without the visibility map, index-only scans
    // (counts, the dashboard) fall back to reading the whole table.
    await sql`vacuum analyze`.execute(k);
  }
  await db.close();
  return info;
}

const COLUMNS = ['id', 'client_id', 'survey_id', 'organization_id', 'member_id', 'user_id', 'answers', 'body_hash', 'search_text', 'rate', 'paid_at', 'captured_at', 'created_at'];

async function insertRows(db: ReturnType<typeof openDb>, rows: unknown[][]): Promise<void> {
  if (db.sqlite) {
    const stmt = db.sqlite.prepare(`insert into responses (${COLUMNS.join(',')}) values (${COLUMNS.map(() => '?').join(',')})`);
    db.sqlite.transaction(() => {
      for (const r of rows) stmt.run(...(r as never[]));
    })();
    return;
  }
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    await db.kysely.insertInto('responses').values(chunk.map((r) => Object.fromEntries(COLUMNS.map((c, j) => [c, r[j]])) as never)).execute();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, orgs: { type: 'string' }, 'per-org': { type: 'string' } } });
  const info = await seedScale({
    dataDir: values['data-dir'] ?? './data/scale',
    databaseUrl: values['database-url'],
    orgs: Number(values.orgs ?? 10),
    perOrg: Number(values['per-org'] ?? 100_000),
    log: console.log,
  });
  console.log(JSON.stringify(info, null, 2));
}

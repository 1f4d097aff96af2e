import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Answer } from '@survey-bird/contracts';
import { PERSONAL_MASK } from '@survey-bird/contracts/personal';
import type { DbOptions } from '../../db/database.js';
import { signedQuery } from '../files/file-links.js';
import { visibleMatch } from '../responses/search-text.js';
import type { ExportJob } from './export-job.js';
import { CHECKBOX_TYPE, GEOSHAPE_TYPE, GEOTRACE_TYPE, SELECT_TYPE, XLSX_OPTIONS, effectiveOptions } from './export-layout.js';
import { isRepeatAnswer } from '@survey-bird/contracts/form-engine';
import { CELL_SEP, FIELD_USER_ROLE, NUMBER_MARK, answerCell, choiceValueCell, keysOf, measureCell, momentCell, numberCell, optionCells, plainText, type ExportColumns, type RowBatch } from './export-rows.js';

type Key = { created_at: number; id: string };
type RawRow = [member_id: string, answers: string, created_at: number | string, id: string, captured_at: number | string | null, version: number | string, revision: number | string, status: string, reviewed_by: string | null, reviewed_at: number | string | null, payout_id: string | null, meta: string | null, flags: string | null, checking: number | boolean | null, photos: string | null];
type Query = { text: string; values: unknown[] };

/**
 * The export's own connection, on the driver alone: the reader thread loads neither Kysely nor
 * the contracts (with zod), about 10 MB of heap a thread. SQLite opens read-only (WAL lets it read
 * beside the writers) and keeps its statements prepared; rows come back as arrays.
 */
export interface ExportSource {
  all(query: Query): Promise<unknown[][]>;
  close(): Promise<void>;
  engine: 'sqlite' | 'postgres';
}

export async function openExportSource(opts: DbOptions): Promise<ExportSource> {
  if (opts.databaseUrl?.startsWith('postgres')) {
    const { default: pg } = await import('pg'); // only here: a SQLite reader never loads it
    const client = new pg.Client({ connectionString: opts.databaseUrl, ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}) });
    await client.connect();
    return { engine: 'postgres', all: async (q) => (await client.query<unknown[]>({ ...q, rowMode: 'array' })).rows, close: () => client.end() };
  }
  const db = new SQLite(opts.sqliteFile ?? join(opts.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const statements = new Map<string, SQLite.Statement>();
  return {
    engine: 'sqlite',
    all: async (q) => {
      let statement = statements.get(q.text);
      if (!statement) statements.set(q.text, (statement = db.prepare(q.text).raw()));
      return statement.all(...q.values) as unknown[][];
    },
    close: async () => void db.close(),
  };
}

/**
 * Every response of the export, newest first, in keyset batches of `size` rows by (created_at, id),
 * each already turned into cells (export-rows.ts). The field users' names and e-mails are read
 * once per export instead of joined per row.
 */
export async function* readRowBatches(source: ExportSource, job: ExportJob, size: number): AsyncGenerator<RowBatch> {
  const people = (await source.all(select(source, (p) => `select id, full_name, email from members where survey_id = ${p(job.scope.surveyId)}`))) as [string, string, string][];
  const members = new Map(people.map(([id, name, email]) => [id, `${plainText(name)}${CELL_SEP}${plainText(email)}`]));
  const named = new Map(people.map(([id, name, email]) => [id, { name, email }]));
  // A survey has few payouts: their references are read once, not joined per row.
  const references = new Map(
    (await source.all(select(source, (p) => `select id, reference from payouts where survey_id = ${p(job.scope.surveyId)} and status = 'paid'`))).map(([id, reference]) => [id as string, plainText((reference as string | null) ?? '')]),
  );
  const options = effectiveOptions(job.options ?? XLSX_OPTIONS);
  const { columns } = job;
  const splitOf = (types: string[]) => types.map((type) => options.splitMultiple && type === CHECKBOX_TYPE);
  const split = splitOf(columns.types);
  const tables = columns.repeats ?? [];
  const tableSplit = tables.map((t) => splitOf(t.columns.types));
  // A geotrace's or geoshape's column is followed by its length or area (export-layout.ts questionSlots).
  const measured = (cols: ExportColumns, c: number) => cols.types[c] === GEOTRACE_TYPE || cols.types[c] === GEOSHAPE_TYPE;
  const asValue = (type: string | undefined) => options.choices === 'values' && (type === SELECT_TYPE || type === CHECKBOX_TYPE);
  const { key, exp } = job.fileLink;
  const sign = (id: string) => signedQuery(key, id, exp);
  const hidden = new Set(job.hidden ?? []);
  // The SQL search matched every answer: a reader kept from personal answers keeps only rows it matches without them.
  const term = job.search.toLowerCase();
  const unseen = hidden.size > 0 && term !== '' ? (memberId: string, answers: Record<string, Answer>) => !visibleMatch(term, named.get(memberId)?.name ?? '', named.get(memberId)?.email ?? '', answers, hidden) : () => false;
  const masked = plainText(PERSONAL_MASK);
  /** One answer per column of `cols` (the main table's or a repeat's), from `holder` (the response or an instance). */
  const questionCells = (cols: ExportColumns, version: number, holder: Record<string, Answer>, out: string[], splits = split) => {
    keysOf(cols, version).forEach((key, c) => {
      // Own properties only: a question named constructor or toString has no inherited answer.
      const answer = key !== null && Object.hasOwn(holder, key.text) ? holder[key.text] : undefined;
      // A hidden answer is masked whole: its text, its option number and its 0/1 columns alike.
      if (key !== null && hidden.has(key.text) && answer !== undefined) {
        out.push(masked);
        if (measured(cols, c)) out.push(masked);
        if (splits[c]) out.push(...optionCells(undefined, cols.options[c] ?? []));
        return;
      }
      out.push(asValue(key?.type) ? choiceValueCell(answer, cols.options[c] ?? [], key?.type, job.publicUrl) : answerCell(answer, job.publicUrl, key?.type, sign));
      if (measured(cols, c)) out.push(measureCell(answer, cols.types[c] === GEOSHAPE_TYPE));
      if (splits[c]) out.push(...optionCells(key?.type === CHECKBOX_TYPE ? answer : undefined, cols.options[c] ?? []));
    });
  };
  let after: Key | null = null;
  for (;;) {
    const rows = (await source.all(batchQuery(source, job, after, size))) as RawRow[];
    const cells: string[] = [];
    const repeatCells = tables.map(() => ({ count: 0, cells: [] as string[] }));
    let count = 0;
    for (const [memberId, answers, createdAt, , capturedAt, version, revision, status, reviewedBy, reviewedAt, payoutId, meta, flags, checking, photos] of rows) {
      const fieldUser = members.get(memberId);
      if (fieldUser === undefined) continue;
      const parsed = JSON.parse(answers) as Record<string, Answer>;
      if (unseen(memberId, parsed)) continue;
      // Captured on the phone (empty when an old phone did not say), then received by the server,
      // then the survey version it was filled on and which revision the answers are (a fixed
      // response is exported once, as its latest).
      cells.push(fieldUser, capturedAt === null ? '' : String(capturedAt), String(createdAt), String(version), String(revision));
      // Review: status, who and when (empty when never reviewed), the paid payout's reference.
      cells.push(status, plainText(reviewedBy ?? ''), reviewedAt === null ? '' : String(reviewedAt), (payoutId !== null && references.get(payoutId)) || '');
      questionCells(columns, Number(version), parsed, cells);
      // Each repeat's instances, for its own table: the row they belong to in this batch, the key
      // of the instance around them ('' for the response), their own key, their number, their cells.
      if (tables.length > 0) {
        const holders: { holder: Record<string, Answer>; path: string }[][] = [];
        tables.forEach((table, t) => {
          const around = table.parent === null ? [{ holder: parsed, path: '' }] : holders[table.parent]!;
          const key = (Object.hasOwn(table.keys, Number(version)) ? table.keys[Number(version)] : table.keys[columns.latest]) ?? null;
          const mine: { holder: Record<string, Answer>; path: string }[] = [];
          for (const { holder, path } of around) {
            const list = key !== null && Object.hasOwn(holder, key) ? holder[key] : undefined;
            if (!isRepeatAnswer(list)) continue;
            list.forEach((instance, i) => {
              const own = `${path === '' ? '' : `${path}/`}${table.id}[${i + 1}]`;
              const out = repeatCells[t]!;
              out.cells.push(String(count), path, own, `${NUMBER_MARK}${i + 1}`);
              questionCells(table.columns, Number(version), instance, out.cells, tableSplit[t]);
              out.count++;
              mine.push({ holder: instance, path: own });
            });
          }
          holders.push(mine);
        });
      }
      // Quality (workbook.ts QUALITY_HEADER): open flags, or "checking" while they are computed, then the phone's metadata.
      cells.push(...qualityCells(meta, Number(checking ?? 0) > 0 || checking === true ? 'checking' : (flags ?? ''), photos ?? ''));
      count++;
    }
    if (count > 0) yield { count, cells: cells.join(CELL_SEP), ...(tables.length > 0 ? { repeats: repeatCells.map((r) => ({ count: r.count, cells: r.cells.join(CELL_SEP) })) } : {}) };
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = { created_at: Number(last[2]), id: last[3] };
  }
}

/** SQL with its parameters: `p(value)` adds one and gives its placeholder for the engine. */
function select(source: ExportSource, build: (p: (value: unknown) => string) => string): Query {
  const values: unknown[] = [];
  const text = build((value) => {
    values.push(value);
    return source.engine === 'postgres' ? `$${values.length}` : '?';
  });
  return { text, values };
}

/** The same scope and search as the responses table (repository.ts), one keyset batch. */
function batchQuery(source: ExportSource, job: ExportJob, after: Key | null, size: number): Query {
  const { surveyId, supervisorMemberId } = job.scope;
  // search_text is lower-cased at ingest; the term is matched literally ('%' and '_' included).
  const term = job.search.toLowerCase();
  return select(source, (p) => {
    const where = [`survey_id = ${p(surveyId)}`];
    if (supervisorMemberId !== null) where.push(`member_id in (select id from members where survey_id = ${p(surveyId)} and role = ${p(FIELD_USER_ROLE)} and supervisor_id = ${p(supervisorMemberId)})`);
    if (job.scope.status) where.push(`status = ${p(job.scope.status)}`);
    if (job.scope.flagged !== undefined) where.push(`${job.scope.flagged ? '' : 'not '}exists (select 1 from response_flags f where f.response_id = responses.id and f.dismissed_at is null)`);
    if (term !== '') where.push(source.engine === 'postgres' ? `search_text like ${p(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} escape '\\'` : `instr(search_text, ${p(term)}) > 0`);
    if (after !== null) where.push(`(created_at, id) < (${p(after.created_at)}, ${p(after.id)})`);
    return `select member_id, answers, created_at, id, captured_at, version, revision, status, reviewed_by, reviewed_at,
      (select i.payout_id from payout_items i where i.response_id = responses.id) as payout_id, meta, ${qualityColumns(source)} from responses where ${where.join(' and ')} order by created_at desc, id desc limit ${size}`;
  });
}

/** Open flags, "checking", and each photo's hashes of a row, as subqueries (a page of rows reads their primary keys). */
function qualityColumns(source: ExportSource): string {
  const agg = (expr: string) => (source.engine === 'postgres' ? `string_agg(${expr}, '; ')` : `group_concat(${expr}, '; ')`);
  return `(select ${agg("f.flag || ': ' || f.reason")} from response_flags f where f.response_id = responses.id and f.dismissed_at is null) as flags,
    (select count(*) from flag_jobs j where j.response_id = responses.id) as checking,
    (select ${agg("p.question || ': ' || coalesce(p.phash, '-') || ' sha256 ' || coalesce(p.sha256, '-')")} from response_photos p where p.response_id = responses.id) as photos`;
}

/** The QUALITY_HEADER cells of one row (responses.meta is modules/flags/meta.ts StoredMeta). */
function qualityCells(metaJson: string | null, flags: string, photos: string): string[] {
  const m = (metaJson ? JSON.parse(metaJson) : {}) as { openedAt?: number; durationMs?: number; locationAccuracy?: number; locationFixedAt?: number; deviceId?: string; appVersion?: string };
  return [
    plainText(flags), momentCell(m.openedAt), numberCell(m.durationMs === undefined ? undefined : Math.round(m.durationMs / 100) / 10),
    numberCell(m.locationAccuracy === undefined ? undefined : Math.round(m.locationAccuracy)), momentCell(m.locationFixedAt), (m.deviceId === undefined ? '' : plainText(m.deviceId)), plainText(m.appVersion ?? ''), plainText(photos),
  ];
}

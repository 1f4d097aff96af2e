import type { Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { Role } from '@survey-bird/contracts';
import type { Db } from '../../db/database.js';
import type { Database, NewResponse } from '../../db/schema.js';

/** The caller's invitation to a survey: who is paid, and how much per response. */
export interface IngestMember {
  id: string;
  organizationId: string;
  fullName: string;
  email: string;
  rate: number;
  /** The organization withdrew the invitation: the survey answers 403, not 404. */
  withdrawn: boolean;
  /** When the field user was invited (epoch ms): no response of theirs can be made before it. */
  invitedAt: number;
}

export interface IngestSurveyRow {
  id: string;
  organizationId: string;
  /** The latest version's questions (JSON). */
  questions: string;
  payAfterReview: boolean;
  version: number;
  /** When the survey was closed to new responses; null while open. */
  closedAt: number | null;
  /** When the survey was created (epoch ms): no response to it can be made before it. */
  createdAt: number;
  /** surveys.audio_audit (JSON), null when off. */
  audioAudit: string | null;
  /** surveys.encryption_key: answers arrive sealed to it; null: in clear. */
  encryptionKey: string | null;
}

/** The row that holds a (survey_id, client_id) key after the write: ours, or the one received earlier. */
export interface StoredRef {
  id: string;
  userId: string;
  bodyHash: string;
}

export type ResponseInsert = Required<Pick<NewResponse, 'id' | 'client_id' | 'survey_id' | 'organization_id' | 'member_id' | 'user_id' | 'answers' | 'body_hash' | 'search_text' | 'rate' | 'captured_at' | 'created_at'>> & { status: string; version: number; meta: string | null; pending_photos: string | null; audio?: string | null; encrypted?: string | null };

export const keyOf = (surveyId: string, clientId: string) => `${surveyId}\u0000${clientId}`;

/**
 * The write path of responses. Idempotency lives in the unique constraint (survey_id, client_id):
 * every write is `insert ... on conflict do nothing`, and a key that was already taken is read
 * back, so concurrent retries can never create a second row (no check-then-insert).
 */
export interface ResponsesRepository {
  /** The caller's field-user member row on this survey, matched by user id; undefined if none. */
  fieldMember(surveyId: string, userId: string): Promise<IngestMember | undefined>;
  survey(surveyId: string): Promise<IngestSurveyRow | undefined>;
  /** The questions (JSON) of one published version of the survey; undefined if there is none. */
  versionQuestions(surveyId: string, version: number): Promise<string | undefined>;
  /**
   * Inserts the rows in one transaction; answers, per key, the row now stored under it. On SQLite
   * the write waits for any open Kysely transaction to end, so never await it inside one.
   */
  insert(rows: ResponseInsert[]): Promise<Map<string, StoredRef>>;
}

function surveyRowOf(s: { id: string; organization_id: string; questions: string; pay_after_review: number; version: number; closed_at: number | string | null; created_at: number | string; audio_audit?: string | null; encryption_key?: string | null }): IngestSurveyRow {
  return { id: s.id, organizationId: s.organization_id, questions: s.questions, payAfterReview: Number(s.pay_after_review) === 1, version: Number(s.version), closedAt: s.closed_at === null ? null : Number(s.closed_at), createdAt: Number(s.created_at), audioAudit: s.audio_audit ?? null, encryptionKey: s.encryption_key ?? null };
}

function memberOf(m: { id: string; organization_id: string; full_name: string; email: string; rate: number; withdrawn_at: number | string | null; created_at: number | string }): IngestMember {
  return { id: m.id, organizationId: m.organization_id, fullName: m.full_name, email: m.email, rate: m.rate, withdrawn: m.withdrawn_at !== null, invitedAt: Number(m.created_at) };
}

export function responsesRepository(db: Db): ResponsesRepository {
  return db.sqlite ? new SqliteResponsesRepository(db.sqlite) : new KyselyResponsesRepository(db.kysely);
}

const COLUMNS = ['id', 'client_id', 'survey_id', 'organization_id', 'member_id', 'user_id', 'answers', 'body_hash', 'search_text', 'rate', 'captured_at', 'created_at', 'status', 'version', 'meta', 'pending_photos', 'audio', 'encrypted'] as const;

/** A group this large is written at once rather than at the end of the turn (a batch, or a burst). */
const GROUP_ROWS = 32;

/** One caller's rows waiting for the next group commit, and how to answer it. */
interface Waiting {
  rows: ResponseInsert[];
  resolve(stored: Map<string, StoredRef>): void;
  reject(err: unknown): void;
}

/**
 * SQLite: prepared statements on the raw better-sqlite3 handle (the hot path of the benchmark),
 * and group commit: the inserts asked for during one turn of the event loop are written in one
 * transaction just after it, and each caller is answered once that transaction has committed.
 * A commit, not a row, is what costs most (WAL frames, the checkpoint they lead to), and under
 * load dozens of single responses arrive in the same turn.
 */
class SqliteResponsesRepository implements ResponsesRepository {
  private readonly memberStmt: Statement<[string, string, string], { id: string; organization_id: string; full_name: string; email: string; rate: number; withdrawn_at: number | null; created_at: number }>;
  private readonly surveyStmt: Statement<[string], { id: string; organization_id: string; questions: string; pay_after_review: number; version: number; closed_at: number | null; created_at: number; audio_audit: string | null; encryption_key: string | null }>;
  private readonly versionStmt: Statement<[string, number], { questions: string }>;
  private readonly insertStmt: Statement<unknown[]>;
  private readonly existingStmt: Statement<[string, string], { id: string; user_id: string; body_hash: string }>;
  private readonly writeGroup: (group: ResponseInsert[][]) => Map<string, StoredRef>[];
  private waiting: Waiting[] = [];
  private waitingRows = 0;
  private scheduled = false;

  constructor(private readonly sqlite: NonNullable<Db['sqlite']>) {
    this.memberStmt = sqlite.prepare('select id, organization_id, full_name, email, rate, withdrawn_at, created_at from members where survey_id = ? and user_id = ? and role = ?');
    this.surveyStmt = sqlite.prepare('select id, organization_id, questions, pay_after_review, version, closed_at, created_at, audio_audit, encryption_key from surveys where id = ?');
    this.versionStmt = sqlite.prepare('select questions from survey_versions where survey_id = ? and version = ?');
    // Positional parameters and run(): binding by name and building RETURNING rows cost about a
    // quarter of the insert (in-process, batches of 50: 32 -> 24 µs per row).
    this.insertStmt = sqlite.prepare(
      `insert into responses (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) on conflict (survey_id, client_id) do nothing`,
    );
    this.existingStmt = sqlite.prepare('select id, user_id, body_hash from responses where survey_id = ? and client_id = ?');
    this.writeGroup = sqlite.transaction((group: ResponseInsert[][]) =>
      group.map((rows) => {
        const stored = new Map<string, StoredRef>();
        for (const row of rows) stored.set(keyOf(row.survey_id, row.client_id), this.insertOne(row));
        return stored;
      }),
    );
  }

  private insertOne(row: ResponseInsert): StoredRef {
    // run() steps the statement to its end, so a failing write throws (never get() with RETURNING:
    // it resets the statement after the first row and better-sqlite3 drops the error of that reset,
    // SQLITE_FULL on a full disk included). `changes` counts this statement's row, not its triggers'.
    const { changes } = this.insertStmt.run( // in COLUMNS order
      row.id, row.client_id, row.survey_id, row.organization_id, row.member_id, row.user_id, row.answers, row.body_hash, row.search_text, row.rate, row.captured_at, row.created_at, row.status, row.version, row.meta, row.pending_photos, row.audio ?? null, row.encrypted ?? null,
    );
    if (changes > 0) return { id: row.id, userId: row.user_id, bodyHash: row.body_hash };
    const existing = this.existingStmt.get(row.survey_id, row.client_id);
    // The constraint refused the row, so the holder exists; nothing ever deletes single responses.
    if (!existing) throw new Error('response key taken but its row is missing');
    return { id: existing.id, userId: existing.user_id, bodyHash: existing.body_hash };
  }

  async fieldMember(surveyId: string, userId: string): Promise<IngestMember | undefined> {
    const m = this.memberStmt.get(surveyId, userId, Role.fieldUser);
    return m && memberOf(m);
  }

  async survey(surveyId: string): Promise<IngestSurveyRow | undefined> {
    const s = this.surveyStmt.get(surveyId);
    return s && surveyRowOf(s);
  }

  async versionQuestions(surveyId: string, version: number): Promise<string | undefined> {
    return this.versionStmt.get(surveyId, version)?.questions;
  }

  insert(rows: ResponseInsert[]): Promise<Map<string, StoredRef>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      this.waitingRows += rows.length;
      if (this.waitingRows >= GROUP_ROWS) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.waiting.length === 0) return;
    // Kysely shares this connection: while one of its transactions awaits something, a write here
    // would join that transaction and vanish with its rollback. Wait for it to end.
    if (this.sqlite.inTransaction) {
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => {
          this.scheduled = false;
          this.flush();
        }, 1);
      }
      return;
    }
    const group = this.waiting;
    this.waiting = [];
    this.waitingRows = 0;
    try {
      const stored = this.writeGroup(group.map((w) => w.rows));
      group.forEach((w, i) => w.resolve(stored[i]!));
    } catch (err) {
      if (group.length === 1) return group[0]!.reject(err);
      // One caller's failure (a constraint its rows break) must not fail the others: each alone.
      for (const w of group) {
        try {
          w.resolve(this.writeGroup([w.rows])[0]!);
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }
}

/** PostgreSQL: one multi-row `insert ... on conflict do nothing returning`, then one read of the keys already taken. */
class KyselyResponsesRepository implements ResponsesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async fieldMember(surveyId: string, userId: string): Promise<IngestMember | undefined> {
    const m = await this.db
      .selectFrom('members')
      .select(['id', 'organization_id', 'full_name', 'email', 'rate', 'withdrawn_at', 'created_at'])
      .where('survey_id', '=', surveyId)
      .where('user_id', '=', userId)
      .where('role', '=', Role.fieldUser)
      .executeTakeFirst();
    return m && memberOf(m);
  }

  async survey(surveyId: string): Promise<IngestSurveyRow | undefined> {
    const s = await this.db.selectFrom('surveys').select(['id', 'organization_id', 'questions', 'pay_after_review', 'version', 'closed_at', 'created_at', 'audio_audit', 'encryption_key']).where('id', '=', surveyId).executeTakeFirst();
    return s && surveyRowOf(s);
  }

  async versionQuestions(surveyId: string, version: number): Promise<string | undefined> {
    const v = await this.db.selectFrom('survey_versions').select('questions').where('survey_id', '=', surveyId).where('version', '=', version).executeTakeFirst();
    return v?.questions;
  }

  async insert(rows: ResponseInsert[]): Promise<Map<string, StoredRef>> {
    // A fixed key order keeps two overlapping batches from waiting on each other in a cycle.
    const sorted = [...rows].sort((a, b) => (keyOf(a.survey_id, a.client_id) < keyOf(b.survey_id, b.client_id) ? -1 : 1));
    const write = async (trx: Kysely<Database>) => {
      const inserted = await trx
        .insertInto('responses')
        .values(sorted)
        .onConflict((oc) => oc.columns(['survey_id', 'client_id']).doNothing())
        .returning('id')
        .execute();
      const ours = new Set(inserted.map((r) => r.id));
      const stored = new Map<string, StoredRef>();
      const missing: ResponseInsert[] = [];
      for (const row of sorted) {
        const key = keyOf(row.survey_id, row.client_id);
        if (ours.has(row.id)) stored.set(key, { id: row.id, userId: row.user_id, bodyHash: row.body_hash });
        else missing.push(row);
      }
      const unresolved = missing.filter((row) => !stored.has(keyOf(row.survey_id, row.client_id)));
      if (unresolved.length > 0) {
        const existing = await trx
          .selectFrom('responses')
          .select(['id', 'survey_id', 'client_id', 'user_id', 'body_hash'])
          .where((eb) => eb.or(unresolved.map((r) => eb.and([eb('survey_id', '=', r.survey_id), eb('client_id', '=', r.client_id)]))))
          .execute();
        for (const e of existing) stored.set(keyOf(e.survey_id, e.client_id), { id: e.id, userId: e.user_id, bodyHash: e.body_hash });
      }
      return stored;
    };
    return rows.length === 1 ? write(this.db) : this.db.transaction().execute(write);
  }
}

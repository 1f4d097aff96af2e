import { randomBytes, randomUUID, scrypt } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { call, login } from './http.ts';
import { ApiProcess, createPgDatabase, demoLogins, removeDir, tempDataDir, type Engine, type PgDatabase } from './server.ts';

/** Read-only SQL on the API's database from the outside (`?` placeholders on both engines). */
export interface Inspector {
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function sqliteInspector(dataDir: string): Inspector {
  const db = new SQLite(join(dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  return {
    all: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
    close: async () => {
      db.close();
    },
  };
}

export async function pgInspector(url: string): Promise<Inspector> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // One query at a time on the one connection (callers may ask concurrently).
  let queue: Promise<unknown> = Promise.resolve();
  return {
    all: <T>(sql: string, params: unknown[] = []) => {
      let i = 0;
      const run = queue.then(() => c.query(sql.replace(/\?/g, () => `$${++i}`), params)).then((r) => r.rows as T[]);
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => c.end(),
  };
}

export interface FieldUser {
  email: string;
  userId: string;
  token: string;
}

export const RETAIL_SURVEY = 'Retail outlet audit - Lagos';

/**
 * One API server with the demo organization, on SQLite (a fresh DATA_DIR) or on a fresh
 * PostgreSQL database, plus what the scenarios need: the organization's token and the survey.
 */
export class World {
  api!: ApiProcess;
  pg: PgDatabase | undefined;
  orgToken = '';
  surveyId = '';
  organizationId = '';

  constructor(
    readonly engine: Engine,
    readonly dataDir: string,
  ) {}

  static async create(engine: Engine, tag: string, opts: { dataDir?: string; env?: Record<string, string> } = {}): Promise<World> {
    const w = new World(engine, opts.dataDir ?? tempDataDir(`${tag}-${engine}`));
    if (engine === 'postgres') w.pg = await createPgDatabase();
    // Photos on disk, where the integrity check (field.ts) counts them, on either engine.
    w.api = new ApiProcess({ dataDir: w.dataDir, databaseUrl: w.pg?.url, env: { FILE_STORE: 'disk', ...opts.env } });
    try {
      await w.api.start();
      await w.signIn();
    } catch (err) {
      await w.close();
      throw err;
    }
    return w;
  }

  get url(): string {
    return this.api.url;
  }

  async signIn(): Promise<void> {
    const org = demoLogins(this.dataDir).find((l) => l.role === 'organization')!;
    this.orgToken = await login(this.url, org.email, org.password);
    const list = await call<{ survey: { _id: string; title: string; organization_id: string }[] }>(this.url, { path: '/api/v1/survey/organization', token: this.orgToken });
    const survey = list.survey.find((s) => s.title === RETAIL_SURVEY);
    if (!survey) throw new Error(`demo survey "${RETAIL_SURVEY}" not found`);
    this.surveyId = survey._id;
    this.organizationId = survey.organization_id;
  }

  async inspector(): Promise<Inspector> {
    return this.engine === 'postgres' ? pgInspector(this.pg!.url) : sqliteInspector(this.dataDir);
  }

  /**
   * n field users of the retail survey, all invited by the organization through the API
   * (POST /field-user). The first registers the way a real one does (POST /user/register with the
   * invitation link's token from mail_outbox, login); the others get their account written straight
   * into the database, as registration would (users row + members.user_id), but with a cheap
   * scrypt cost, so that setting up 50 accounts does not cost 100 OWASP-grade hashes.
   */
  async inviteFieldUsers(n: number, tag: string): Promise<FieldUser[]> {
    const db = await this.inspector();
    const password = 'Reliable-field-1';
    const emails = Array.from({ length: n }, (_, i) => `rel-${tag}-${i}@fieldwork.example`);
    const pool = async (fn: (i: number) => Promise<void>) => {
      let next = 0;
      await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < n) await fn(next++);
      }));
    };
    try {
      // 1. The organization invites them all.
      await pool(async (i) => {
        await call(this.url, { path: '/api/v1/field-user', token: this.orgToken, body: { survey_id: this.surveyId, fullName: `Reliability Tester ${i}`, email: emails[i]!, phoneNumber: `0803${String(i).padStart(7, '0')}`, rate: 150 } });
      });
      // 2. The first registers through the API with the invitation link's token (it proves the mailbox).
      const [invitation] = await db.all<{ link: string | null }>("select link from mail_outbox where to_email = ? and link like '%invite=%'", [emails[0]!]);
      const invite = invitation?.link ? new URL(invitation.link).searchParams.get('invite') : null;
      if (!invite) throw new Error(`no invitation link for ${emails[0]}`);
      await call(this.url, { path: '/api/v1/user/register', body: { email: emails[0]!, password, invite } });
      // 3. The others' accounts are written directly (no API request of ours runs meanwhile).
      if (n > 1) {
        const cheapHash = await quickHash(password);
        const writer = await this.writer();
        try {
          for (const email of emails.slice(1)) {
            const id = randomUUID();
            await writer.exec('insert into users (id, email, password_hash, role, verified, full_name, created_at) values (?, ?, ?, ?, 1, null, ?)', [id, email, cheapHash, 'field_user', Date.now()]);
            await writer.exec('update members set user_id = ? where email = ? and user_id is null', [id, email]);
          }
        } finally {
          await writer.close();
        }
      }
      // 4. Everyone signs in.
      const out: FieldUser[] = [];
      await pool(async (i) => {
        const [row] = await db.all<{ id: string }>('select id from users where email = ?', [emails[i]!]);
        out[i] = { email: emails[i]!, userId: row!.id, token: await login(this.url, emails[i]!, password) };
      });
      return out;
    } catch (err) {
      throw new Error(`${String(err)}\nAPI errors:\n${this.api.errorLog()}`);
    } finally {
      await db.close();
    }
  }

  /** A writing connection from outside the API (SQLite: WAL lets it share the file with the server). */
  async writer(): Promise<{ exec(sql: string, params: unknown[]): Promise<void>; close(): Promise<void> }> {
    if (this.engine === 'postgres') {
      const c = new pg.Client({ connectionString: this.pg!.url });
      await c.connect();
      return {
        exec: async (sql, params) => {
          let i = 0;
          await c.query(sql.replace(/\?/g, () => `$${++i}`), params);
        },
        close: () => c.end(),
      };
    }
    const s = new SQLite(join(this.dataDir, 'survey-bird.sqlite'));
    s.pragma('busy_timeout = 10000');
    return {
      exec: async (sql, params) => {
        s.prepare(sql).run(...params);
      },
      close: async () => {
        s.close();
      },
    };
  }

  async close(): Promise<void> {
    await this.api.stop();
    if (this.pg) await this.pg.drop().catch((err) => console.warn('drop database failed', err));
    removeDir(this.dataDir);
  }
}

/** Files under DATA_DIR/uploads: finished ones and temp ones. */
export function uploadsOnDisk(dataDir: string): { finals: Map<string, number>; temps: string[] } {
  const dir = join(dataDir, 'uploads');
  const finals = new Map<string, number>();
  const temps: string[] = [];
  if (!existsSync(dir)) return { finals, temps };
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.tmp-')) temps.push(name);
    else finals.set(`uploads/${name}`, statSync(join(dir, name)).size);
  }
  return { finals, temps };
}

/** The files id a photo reference (…/api/v1/files/image/<id>) points at. */
export function fileIdOf(reference: string): string {
  return reference.slice(reference.lastIndexOf('/') + 1);
}

/** The API's password hash format (`scrypt$N$r$p$salt$key`) at a low cost; the cost travels with the hash. */
function quickHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(['scrypt', 1024, 8, 1, salt.toString('base64'), key.toString('base64')].join('$')))),
  );
}

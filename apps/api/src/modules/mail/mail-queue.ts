import { randomUUID } from 'node:crypto';
import type { Deps } from '../../plugins/deps.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** How often the worker looks for due mails when nothing kicked it. */
export const MAIL_QUEUE_POLL_MS = 5_000;
/** A claimed mail is left to its sender this long before another round may take it (a crash mid-send). */
const CLAIM_MS = 120_000;
/** Mails per round: a 500-row file's invitations leave in a few rounds, each mail one outbox insert. */
const BATCH = 200;
/** Attempts before a mail is left in the queue with its error (about a day at the backoff below). */
export const MAIL_MAX_ATTEMPTS = 12;
/** 30 s doubling to at most 4 hours between attempts. */
export const mailBackoffMs = (attempts: number) => Math.min(4 * 3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));

/** Renders and sends one kind of queued mail from its payload (through Mailer.send, which records it in mail_outbox). */
export type MailRenderer = (payload: unknown) => Promise<void>;

/**
 * Mails that must not be lost between the reply and the send: the row is written in the same
 * transaction as the change that makes the mail due (enqueue), so a crash after the reply leaves
 * it in the queue, and no mail goes for a change rolled back. The worker claims each row (two
 * instances never send the same one), sends it, and deletes it; a failure is retried with backoff.
 */
export class MailQueue {
  private readonly renderers = new Map<string, MailRenderer>();

  constructor(private readonly deps: Pick<Deps, 'db' | 'log' | 'mailer'>) {}

  register(kind: string, render: MailRenderer): void {
    this.renderers.set(kind, render);
  }

  /** Inside the caller's transaction: the mail is due exactly when the change commits. */
  static async enqueue(db: Kysely<Database>, kind: string, payload: unknown, now = Date.now()): Promise<void> {
    await db.insertInto('mail_queue').values({ id: randomUUID(), kind, payload: JSON.stringify(payload), created_at: now, next_attempt_at: now, attempts: 0, last_error: null }).execute();
  }

  /** After the reply: sends what is due at once instead of at the next poll. */
  kick(): void {
    this.deps.mailer.later(async () => {
      await this.sendDue();
    });
  }

  /** One round of the worker; answers how many mails it sent. */
  async sendDue(now = Date.now()): Promise<number> {
    const db = this.deps.db.kysely;
    const due = await db.selectFrom('mail_queue').selectAll().where('next_attempt_at', '<=', now).where('attempts', '<', MAIL_MAX_ATTEMPTS).orderBy('next_attempt_at').orderBy('id').limit(BATCH).execute();
    let sent = 0;
    for (const row of due) {
      const claimed = await db.updateTable('mail_queue').set({ next_attempt_at: now + CLAIM_MS }).where('id', '=', row.id).where('next_attempt_at', '=', row.next_attempt_at).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const render = this.renderers.get(row.kind);
      try {
        if (!render) throw new Error(`no renderer for mail kind ${row.kind}`);
        await render(JSON.parse(row.payload) as unknown);
        await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
        sent++;
      } catch (err) {
        const attempts = Number(row.attempts) + 1;
        this.deps.log.warn({ err: (err as Error).message, kind: row.kind, attempts }, 'queued mail failed');
        await db.updateTable('mail_queue').set({ attempts, next_attempt_at: Date.now() + mailBackoffMs(attempts), last_error: (err as Error).message.slice(0, 500) }).where('id', '=', row.id).execute();
      }
    }
    return sent;
  }
}

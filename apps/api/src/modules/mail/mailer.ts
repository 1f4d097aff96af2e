import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { Database } from '../../db/schema.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The action link, kept apart so the outbox and the log show it (the demo has no mail server). */
  link?: string;
}

/** Work left for after the reply (see Mailer.later); beyond this many waiting jobs new ones are dropped. */
const MAX_QUEUED = 1000;

/**
 * Every mail is recorded in mail_outbox. With SMTP_URL set it is also sent through nodemailer, and
 * the outbox keeps only recipient, subject and status: the body holds reset and confirmation links,
 * which must not sit in the database. Without SMTP_URL (the demo) the outbox keeps the body and the
 * link, which is also logged, so invitations and resets work on a bare machine.
 */
export class Mailer {
  // nodemailer loads on the first mail: most servers never send one, and it weighs on idle memory.
  private transport: Promise<Transporter> | null = null;
  private readonly queue: (() => Promise<void>)[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly smtpUrl: string | undefined,
    private readonly from = 'Survey Bird <no-reply@surveybird.local>',
  ) {}

  private transporter(url: string): Promise<Transporter> {
    this.transport ??= import('nodemailer').then((m) => m.default.createTransport(url));
    return this.transport;
  }

  async send(mail: Mail): Promise<void> {
    const id = randomUUID();
    await this.db
      .insertInto('mail_outbox')
      .values({ id, to_email: mail.to, subject: mail.subject, text: this.smtpUrl ? '' : mail.text, link: this.smtpUrl ? null : (mail.link ?? null), created_at: Date.now(), sent_at: null, error: null })
      .execute();
    if (!this.smtpUrl) {
      this.log.info({ to: mail.to, subject: mail.subject, link: mail.link }, 'mail recorded in outbox (no SMTP_URL)');
      return;
    }
    try {
      const transport = await this.transporter(this.smtpUrl);
      await transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
      await this.db.updateTable('mail_outbox').set({ sent_at: Date.now() }).where('id', '=', id).execute();
    } catch (err) {
      // The request that caused the mail still succeeds; the outbox keeps the failure for a resend.
      this.log.warn({ to: mail.to, err: (err as Error).message }, 'mail not sent');
      await this.db.updateTable('mail_outbox').set({ error: (err as Error).message.slice(0, 500) }).where('id', '=', id).execute();
    }
  }

  /**
   * Runs `job` after the current request has been answered, one job at a time: a route whose reply
   * must not tell whether an e-mail has an account (send-refresh-token, resend-verification) does
   * its lookup, token and mail here, so both cases cost the reply the same.
   */
  later(job: () => Promise<void>): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.log.warn('mail queue full; a mail job was dropped');
      return;
    }
    this.queue.push(job);
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /** Resolves once every queued job has run. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let job = this.queue.shift(); job; job = this.queue.shift()) {
      try {
        await job();
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'mail job failed');
      }
    }
    this.running = null;
  }

  close(): void {
    void this.transport?.then((t) => t.close(), () => undefined);
  }
}

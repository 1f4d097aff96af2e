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

/**
 * Every mail is recorded in mail_outbox. With SMTP_URL set it is also sent through nodemailer;
 * without it the link is logged, so invitations and resets work on a bare machine.
 */
export class Mailer {
  // nodemailer loads on the first mail: most servers never send one, and it weighs on idle memory.
  private transport: Promise<Transporter> | null = null;

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
      .values({ id, to_email: mail.to, subject: mail.subject, text: mail.text, link: mail.link ?? null, created_at: Date.now(), sent_at: null, error: null })
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

  close(): void {
    void this.transport?.then((t) => t.close(), () => undefined);
  }
}

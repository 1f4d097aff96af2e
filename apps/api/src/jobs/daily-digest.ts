import type { Mail, Mailer } from '../modules/mail/mailer.js';

/** A claimed digest row: one recipient's mail for one UTC day. */
export interface DigestClaim {
  user_id: string;
  day: string;
  email: string;
}

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The shape of the daily e-mails (devices/sync-digest.ts, earnings/return-digest.ts): each mail is
 * first claimed as a row keyed by recipient and UTC day (insert-or-nothing, so two instances or two
 * runs never both claim it), then taken for sending (`mailed_at` set where still null, so only one
 * sender), then handed to the mail outbox. A run that stops after the claim leaves the row unmailed
 * and the next run, on any instance, sends it; a stop between taking and sending loses that day's
 * mail rather than sending two.
 */
export abstract class DailyDigest<Row extends DigestClaim> {
  constructor(protected readonly mailer: Mailer) {}

  /** Claims what is due at `now` (rows with `mailed_at` null, or closed at once when there is nothing to say). */
  protected abstract claim(now: number): Promise<void>;
  /** The claims not yet mailed, this run's or ones a stopped run left behind. */
  protected abstract due(now: number): Promise<Row[]>;
  /** Sets `mailed_at` where still null; whether this caller took the row. */
  protected abstract take(row: Row, now: number): Promise<boolean>;
  protected abstract mail(row: Row): Mail;

  /** Claims and sends what is due at `now`; answers how many mails were sent. */
  async run(now = Date.now()): Promise<number> {
    await this.claim(now);
    let sent = 0;
    for (const row of await this.due(now)) {
      if (!(await this.take(row, now))) continue;
      await this.mailer.send(this.mail(row));
      sent++;
    }
    return sent;
  }
}

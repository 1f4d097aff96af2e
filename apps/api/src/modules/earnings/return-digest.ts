import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DailyDigest, dayOf } from '../../jobs/daily-digest.js';
import type { Mail, Mailer } from '../mail/mailer.js';
import { mailWords } from '../mail/texts.js';
import { EarningsRepository } from './repository.js';

/** How often the job looks for field users with newly returned responses. */
export const DIGEST_EVERY_MS = 10 * 60_000;
/** Returns older than this are not looked for: the feed's index is read only over this window. */
const LOOKBACK_MS = 2 * 24 * 3_600_000;

type DueDigest = Awaited<ReturnType<EarningsRepository['dueDigests']>>[number];

/**
 * "3 responses need a fix": at most one mail per field user per UTC day, sent when a response of
 * theirs was returned since their last such mail. Claimed as a `return_digests` row, then taken
 * and mailed, in the shape of jobs/daily-digest.ts (durable and restart-safe on both engines;
 * only a stop between taking and sending loses that day's mail, which keeps "at most once a day"
 * strict).
 */
export class ReturnDigest extends DailyDigest<DueDigest> {
  private readonly repo: EarningsRepository;

  constructor(db: Kysely<Database>, mailer: Mailer) {
    super(mailer);
    this.repo = new EarningsRepository(db);
  }

  protected async claim(now: number): Promise<void> {
    const day = dayOf(now);
    for (const c of await this.repo.recentlyReturned(now - LOOKBACK_MS)) {
      const last = await this.repo.lastDigestAt(c.user_id);
      if (last !== null && last >= Number(c.last_returned)) continue;
      const returned = await this.repo.returnedCount(c.user_id);
      await this.repo.claimDigest({ user_id: c.user_id, day, returned, created_at: now, mailed_at: null });
    }
  }

  /** Every claim not yet mailed, of any day: a claim is mailed once, whenever a run gets to it. */
  protected due(): Promise<DueDigest[]> {
    return this.repo.dueDigests();
  }

  protected take(d: DueDigest, now: number): Promise<boolean> {
    return this.repo.takeDigest(d.user_id, d.day, now);
  }

  protected mail(d: DueDigest): Mail {
    const n = Number(d.returned);
    const words = mailWords(d.language);
    const what = words.returnedWhat(n);
    return { to: d.email, subject: `Survey Bird: ${what}`, text: words.returnedText(what) };
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ResponseStatus } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import type { Mailer } from '../mail/mailer.js';

/** How often the job looks for field users with newly returned responses. */
export const DIGEST_EVERY_MS = 10 * 60_000;
/** Returns older than this are not looked for: the feed's index is read only over this window. */
const LOOKBACK_MS = 2 * 24 * 3_600_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * "3 responses need a fix": at most one mail per field user per UTC day, sent when a response of
 * theirs was returned since their last such mail. Durable and restart-safe on both engines: each
 * mail is first claimed as a `return_digests` row (primary key user and day, insert-or-nothing, so
 * two instances or two runs never both claim it), then taken for sending (`mailed_at` set where
 * still null, so only one sender), then recorded in the mail outbox. A run that dies after the
 * claim leaves the row unmailed and the next run (on any instance) sends it; only a death between
 * taking it and the outbox insert loses that day's mail, which keeps "at most once a day" strict.
 */
export class ReturnDigest {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly mailer: Mailer,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Claims and sends what is due at `now`; answers how many mails were sent. */
  async run(now = Date.now()): Promise<number> {
    const day = dayOf(now);
    // Reads the partial index (user_id, changed_at) of reviewed responses, over the last two days.
    const candidates = await this.db.selectFrom('responses as r')
      .select(['r.user_id', (eb) => eb.fn.max('r.changed_at').as('last_returned')])
      .where('r.changed_at', 'is not', null)
      .where('r.changed_at', '>', now - LOOKBACK_MS)
      .where('r.status', '=', ResponseStatus.returned)
      .groupBy('r.user_id')
      .execute();
    for (const c of candidates) {
      const last = await this.db.selectFrom('return_digests').select((eb) => eb.fn.max('created_at').as('at')).where('user_id', '=', c.user_id).executeTakeFirst();
      if (last?.at !== null && last?.at !== undefined && Number(last.at) >= Number(c.last_returned)) continue;
      const returned = await this.db.selectFrom('responses').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', c.user_id).where('status', '=', ResponseStatus.returned).executeTakeFirstOrThrow();
      await this.db.insertInto('return_digests')
        .values({ user_id: c.user_id, day, returned: Number(returned.n), created_at: now, mailed_at: null })
        .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
        .execute();
    }
    let sent = 0;
    // Every claim not yet mailed, this run's or one a stopped run left behind.
    const due = await this.db.selectFrom('return_digests as d').innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.user_id', 'd.day', 'd.returned', 'u.email']).where('d.mailed_at', 'is', null).execute();
    for (const d of due) {
      const taken = await this.db.updateTable('return_digests').set({ mailed_at: now }).where('user_id', '=', d.user_id).where('day', '=', d.day).where('mailed_at', 'is', null).executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      const n = Number(d.returned);
      const what = n === 1 ? '1 response needs a fix' : `${n} responses need a fix`;
      await this.mailer.send({ to: d.email, subject: `Survey Bird: ${what}`, text: `${what}. Open Survey Bird, go to Earnings, read the reviewer's comment and send the response again once fixed.` });
      sent++;
    }
    return sent;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.run().catch((err: unknown) => this.log?.warn({ err: (err as Error).message }, 'return digest run failed'));
    }, DIGEST_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}


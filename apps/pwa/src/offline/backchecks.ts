import type { MyBackchecksReply } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, metaKey } from './db';

/**
 * A back-checker's assignments, kept so the Back-checks screen lists them and opens their forms
 * offline: GET /me/backchecks as last answered (IndexedDB meta `backchecks:<account>`), and which
 * of them a back-check waiting in the outbox (`backcheckOf`) already answers on this phone.
 */
export interface BackcheckFeedSnapshot {
  assignments: MyBackchecksReply['assignments'];
  forms: MyBackchecksReply['forms'];
  at: number;
}

export async function saveBackcheckFeed(account: AccountKey, reply: MyBackchecksReply, at: number): Promise<void> {
  const value: BackcheckFeedSnapshot = { assignments: reply.assignments, forms: reply.forms, at };
  await db.meta.put({ key: metaKey.backchecks(accountKey(account)), value });
}

export async function backcheckFeed(account: AccountKey): Promise<BackcheckFeedSnapshot | null> {
  const row = await db.meta.get(metaKey.backchecks(accountKey(account)));
  return (row?.value as BackcheckFeedSnapshot | undefined) ?? null;
}

/** Response ids this phone has a back-check of in its outbox (queued, sending, synced or failed). */
export async function backchecksDone(account: AccountKey): Promise<Map<string, string>> {
  const key = accountKey(account);
  const records = await db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).filter((r) => r.backcheckOf !== undefined).toArray();
  return new Map(records.map((r) => [r.backcheckOf!, r.status]));
}

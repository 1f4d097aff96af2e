import type { MyResponsesReply } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, metaKey, type ResponsesListSnapshot } from './db';

/**
 * The account's own responses as GET /me/responses lists them (every one the earnings cards count,
 * sent from this phone or another), kept so the Earnings screen shows them offline. Written by the
 * Earnings screen: page 1 replaces what was kept, a later page is added to it.
 */
export async function saveResponsesPage(account: AccountKey, reply: MyResponsesReply, at: number): Promise<void> {
  const key = metaKey.myResponses(accountKey(account));
  await db.transaction('rw', db.meta, async () => {
    const kept = (await db.meta.get(key))?.value as ResponsesListSnapshot | undefined;
    const earlier = reply.page > 1 && kept ? kept.rows.filter((r) => !reply.responses.some((n) => n._id === r._id)) : [];
    const value: ResponsesListSnapshot = { rows: [...earlier, ...reply.responses], pages: reply.page, totalCount: reply.totalCount, hasNextPage: reply.hasNextPage, at };
    await db.meta.put({ key, value });
  });
}

export async function responsesList(account: AccountKey): Promise<ResponsesListSnapshot | null> {
  const row = await db.meta.get(metaKey.myResponses(accountKey(account)));
  return (row?.value as ResponsesListSnapshot | undefined) ?? null;
}

import type { OutboxRecord } from '../../offline';

/** One response on the Responses screen: what the phone sent first, and its fixes, oldest first. */
export interface ResponseRow {
  key: string;
  /** Absent when the fixed response is not on this phone (sent from another phone, or discarded). */
  original?: OutboxRecord;
  fixes: OutboxRecord[];
  /** What the row's answers and status show: the newest fix, else the original. */
  latest: OutboxRecord;
}

/**
 * A fix of a returned response is its own outbox record (`revisionOf`, a fresh clientId), but to
 * the field user it is a revision of the response, not another one: it is shown in the row of the
 * response it revises. Rows keep the outbox's order, newest first, by their first submission.
 */
export function responseRows(records: readonly OutboxRecord[]): ResponseRow[] {
  const rows = new Map<string, ResponseRow>();
  const oldestFirst = [...records].sort((a, b) => a.createdAt - b.createdAt);
  for (const r of oldestFirst) {
    const key = r.revisionOf ?? r.serverId ?? r.id;
    const row = rows.get(key);
    if (!row) rows.set(key, r.revisionOf ? { key, fixes: [r], latest: r } : { key, original: r, fixes: [], latest: r });
    else if (r.revisionOf) {
      row.fixes.push(r);
      row.latest = r;
    } else {
      // Two records under one server id would be two responses to the user: never hide one.
      rows.set(r.id, { key: r.id, original: r, fixes: [], latest: r });
    }
  }
  return [...rows.values()].reverse();
}

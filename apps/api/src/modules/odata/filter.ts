import { ApiMsg } from '@survey-bird/contracts';
import { badRequest } from '../../http/errors.js';

export type Op = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export interface Condition {
  op: Op;
  /** Epoch ms. */
  at: number;
}

/** `ReceivedAt ge 2026-11-01T00:00:00Z`, an OData v4 DateTimeOffset literal (quotes and the v3 `datetimeoffset'...'` form also read). */
const CLAUSE = /^\(*\s*ReceivedAt\s+(eq|ne|gt|ge|lt|le)\s+(?:datetime(?:offset)?)?'?(\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?)'?\s*\)*$/i;

/**
 * The feed's $filter: conditions on ReceivedAt (the receipt time, what the feed is ordered by)
 * joined by `and`, which is what Power BI's incremental refresh sends. Anything else is a 400
 * rather than a silently unfiltered feed.
 */
export function parseFilter(filter: string | undefined): Condition[] {
  if (filter === undefined || filter.trim() === '') return [];
  return filter.trim().split(/\s+and\s+/i).map((clause) => {
    const m = CLAUSE.exec(clause.trim());
    const at = m ? Date.parse(m[2]!.length === 10 ? `${m[2]}T00:00:00Z` : m[2]!) : NaN;
    if (!m || !Number.isFinite(at)) throw badRequest(ApiMsg.odataQuery);
    return { op: m[1]!.toLowerCase() as Op, at };
  });
}

export const SQL_OP: Record<Op, '=' | '<>' | '>' | '>=' | '<' | '<='> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

import type { ResponseRow } from '@survey-bird/contracts';

/** When the field user captured the response; the receipt time for an old phone that did not say. */
export const capturedOrReceived = (row: Pick<ResponseRow, 'capturedAt' | 'createdAt'>): string => row.capturedAt ?? row.createdAt;

/**
 * The server pages responses newest received first. Responses a phone kept offline arrive
 * together, in one batch under one receipt time and in no order of their own, so within a run of
 * equal receipt times the newest capture goes first (docs/decisions.md, "Capture time").
 */
export function orderByCaptureWithinBatches<T extends Pick<ResponseRow, 'capturedAt' | 'createdAt'>>(rows: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i + 1;
    while (j < rows.length && rows[j]!.createdAt === rows[i]!.createdAt) j++;
    out.push(...rows.slice(i, j).sort((a, b) => Date.parse(capturedOrReceived(b)) - Date.parse(capturedOrReceived(a))));
    i = j;
  }
  return out;
}

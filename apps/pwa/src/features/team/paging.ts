import { Limits } from '@survey-bird/contracts';
import { t } from '../../lib/i18n';

/** First and last row numbers of a page: page 2 of 20-row pages holding 5 rows is 21 - 25. */
export function showingRange(page: number, count: number, pageSize: number = Limits.pageSize): { first: number; last: number } {
  if (count <= 0) return { first: 0, last: 0 };
  const first = (Math.max(1, page) - 1) * pageSize + 1;
  return { first, last: first + count - 1 };
}

/** 'Showing 1 - 20 of 45' (the Manage Survey screen words it with a colon: 'Showing: 1 - 20 of 45'). */
export function showingText(page: number, count: number, total: number, colon = false, pageSize: number = Limits.pageSize): string {
  const { first, last } = showingRange(page, count, pageSize);
  return colon ? t('office.pager.showingColon', { first, last, total }) : t('office.pager.showing', { first, last, total });
}

/** The S/N of the i-th row (0-based) on a page. */
export function serialNumber(page: number, index: number, pageSize: number = Limits.pageSize): number {
  return (Math.max(1, page) - 1) * pageSize + index + 1;
}

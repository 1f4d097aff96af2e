/**
 * A time as the database keeps it (epoch milliseconds: a number on SQLite, a string for a bigint on
 * PostgreSQL) as replies carry it, an ISO string; a missing time stays null.
 */
export function iso(ms: number | string): string;
export function iso(ms: number | string | null | undefined): string | null;
export function iso(ms: number | string | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString();
}

import { sql, type RawBuilder } from 'kysely';
import { likePattern } from '../http/paging.js';

/** Case-insensitive "contains" on any engine (SQLite has no default LIKE escape, so it is given). */
export function contains(column: string, search: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(search)} escape '\\'`;
}

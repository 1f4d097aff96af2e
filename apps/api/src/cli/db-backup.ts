import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * `npm run db:backup -- --to /backups/survey-bird-2026-11-26.sqlite`: a consistent copy of the
 * SQLite database while the API keeps serving (SQLite's online backup API, page by page; writes
 * made meanwhile are included or not as a whole). PostgreSQL deployments use pg_dump instead.
 */
const { values } = parseArgs({ options: { to: { type: 'string' } } });
if (!values.to) {
  console.error('usage: npm run db:backup -- --to <file>');
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/deploy.md)');
  process.exit(2);
}
const source = new SQLite(join(resolve(process.env.DATA_DIR ?? './data'), 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
await source.backup(resolve(values.to));
source.close();
const copy = new SQLite(resolve(values.to), { readonly: true });
const integrity = copy.pragma('integrity_check', { simple: true });
copy.close();
if (integrity !== 'ok') {
  console.error(`the backup failed its integrity check: ${String(integrity)}`);
  process.exit(1);
}
console.log(`backed up to ${values.to} (integrity ok)`);

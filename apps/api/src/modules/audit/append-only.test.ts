import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** A write to audit_events other than an insert: a query builder call or SQL text. */
const CHANGES = [
  /\b(updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]audit_events\b/,
  /\b(update|delete\s+from|truncate(\s+table)?)\s+["`]?audit_events\b/i,
];

describe('the audit log has no update or delete path', () => {
  it('no source under apps/api/src updates, deletes or truncates audit_events', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return CHANGES.some((re) => re.test(text)) ? [relative(SRC, file)] : [];
    });
    expect(offending).toEqual([]);
  });

  it('the scan would see one', () => {
    expect(CHANGES.some((re) => re.test("db.updateTable('audit_events').set({ action: 'x' })"))).toBe(true);
    expect(CHANGES.some((re) => re.test('await sql`delete from audit_events where id = ${id}`'))).toBe(true);
    expect(CHANGES.some((re) => re.test("trx.deleteFrom('audit_events as a')"))).toBe(true);
    expect(CHANGES.some((re) => re.test("db.insertInto('audit_events')"))).toBe(false);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * An id never falls back to the empty string: `organizationId ?? ''` once let an organization
 * account without an organization run queries `where organization_id = ''`. Who is calling is an
 * `Actor` (plugins/auth.ts) whose ids are never null; anything else missing an id is refused.
 * Matches an identifier naming an id (id, fooId, foo_id, owner, caller, sub, sid), a call reading
 * one (`get(CALLER)`), or a split part (`split('_')[1]`, a cursor's id) followed by `?? ''`.
 */
const ID_FALLBACK = /(?:(?<![\w$])(?:id|\w+Id|\w+_id|owner|caller|sub|sid)\b|\(\s*[A-Z_]*(?:ID|CALLER|OWNER)\s*\)|\.split\([^)]*\)\[[1-9]\])\s*\?\?\s*''/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('no empty-string fallback on an id in apps/api/src', () => {
  it('the check catches every form the code once had', () => {
    for (const line of [
      "eb('surveys.organization_id', '=', caller.organizationId ?? '')",
      "const organizationId = auth.organizationId ?? '';",
      "q.where('r.organization_id', '=', reviewer.organizationId ?? '')",
      "await this.repo.supervisorRows(surveyId, viewer.supervisorUserId ?? '')",
      "const caller = req.headers.get(CALLER) ?? '';",
      "this.uploads.store(upload.metadata?.owner ?? '', x)",
      "[Number(since.split('_')[0]), since.split('_')[1] ?? '']",
      "id: String(id ?? '')",
      "const x = row.survey_id ?? ''",
    ]) expect(line, line).toMatch(ID_FALLBACK);
    for (const line of ["const code = err.code ?? '';", "plainText(m.deviceName ?? '')", "body.searchQuery ?? ''", "detail.reference ?? ''", "request.url.split('?')[0] ?? ''"]) expect(line, line).not.toMatch(ID_FALLBACK);
  });

  it('finds none', () => {
    const root = join(import.meta.dirname, '..', 'src');
    const found = sources(root).flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (ID_FALLBACK.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

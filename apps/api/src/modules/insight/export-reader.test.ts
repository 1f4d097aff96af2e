import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, Role, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import type { ExportJob } from './export-job.js';
import { openExportSource, readRowBatches, type ExportSource } from './export-reader.js';
import { CELL_SEP, LINK_MARK, MISSING_MARK, exportColumns } from './export-rows.js';

let t: TestApp;
let source: ExportSource;
let org: Awaited<ReturnType<typeof createOrganization>>;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Reader Org');
  source = await openExportSource(dbOptions());
});
afterAll(async () => {
  await source.close();
  await t.close();
});

const questions: Omit<StoredQuestion, 'id'>[] = [
  { text: 'Outlet', type: QuestionType.text, compulsory: true, options: [] },
  { text: 'Photo', type: QuestionType.image, compulsory: false, options: [] },
];

function dbOptions(): ExportJob['db'] {
  const { config, db } = t.app;
  return { dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSchema: db.pgSchema, sqliteFile: db.sqlite?.name };
}

/** Reads the whole export with `size`-row batches and splits it back into rows of cells. */
async function readAll(job: Omit<ExportJob, 'db' | 'columns' | 'publicUrl' | 'fileLink'>, size: number): Promise<string[][]> {
  const rows: string[][] = [];
  // name, e-mail, captured, received, version, revision, the four review cells, the answers, then eight quality cells.
  const width = 18 + questions.length;
  for await (const batch of readRowBatches(source, { ...job, db: dbOptions(), columns: exportColumns([{ version: 1, questions }]), publicUrl: 'http://sb.test', fileLink: { key: 'k', exp: 1 } }, size)) {
    const cells = batch.cells.split(CELL_SEP);
    expect(cells).toHaveLength(batch.count * width);
    // The version (5th), the review and the quality cells are dropped here: export.test.ts checks them.
    for (let i = 0; i < cells.length; i += width) rows.push([...cells.slice(i, i + 4), cells[i + 5]!, ...cells.slice(i + 10, i + width - 8)]);
  }
  return rows;
}

describe('export reader', () => {
  it('reads every row once, newest first, across batches that split equal timestamps', async () => {
    const survey = await createSurvey(t.app, org.id, { questions });
    const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Batch Person' });
    const at = Date.UTC(2026, 10, 1);
    // Seven rows share one timestamp: batches of 3 must go on by id within it.
    const stamps = [at + 5000, at, at, at, at, at, at, at, at - 1000, at - 2000];
    const ids: { id: string; createdAt: number }[] = [];
    for (const [i, createdAt] of stamps.entries()) ids.push({ ...(await addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, { answers: { Outlet: `Outlet ${i}` }, createdAt })), createdAt });
    const expected = [...ids].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((r) => `Outlet ${ids.indexOf(r)}`);

    const rows = await readAll({ scope: { surveyId: survey.id, supervisorMemberId: null }, search: '' }, 3);
    expect(rows.map((r) => r[5])).toEqual(expected);
    // No capture time stored: empty; the receipt time follows it.
    expect(rows[0]!.slice(0, 5)).toEqual(['Batch Person', fu.email, '', String(at + 5000), '1']);
    expect(rows[0]![6]).toBe(MISSING_MARK);
    expect(await readAll({ scope: { surveyId: survey.id, supervisorMemberId: null }, search: '' }, 1000)).toEqual(rows);
  });

  it('applies the search and the supervisor scope, and marks links', async () => {
    const survey = await createSurvey(t.app, org.id, { questions });
    const sup = await addMember(t.app, survey.id, org.id, { fullName: 'Sup', role: Role.supervisor });
    const mine = await addMember(t.app, survey.id, org.id, { fullName: 'Mine', supervisorId: sup.id });
    const other = await addMember(t.app, survey.id, org.id, { fullName: 'Other' });
    const ref = { id: survey.id, organizationId: org.id };
    await addResponse(t.app, mine, ref, { answers: { Outlet: '50%_off', Photo: '/api/v1/files/image/p1.jpg' }, fullName: 'Mine', capturedAt: Date.UTC(2026, 10, 1, 12, 50, 17) });
    await addResponse(t.app, mine, ref, { answers: { Outlet: '50 pct off' }, fullName: 'Mine' });
    await addResponse(t.app, other, ref, { answers: { Outlet: '50%_off too' }, fullName: 'Other' });

    const all = { surveyId: survey.id, supervisorMemberId: null };
    // '%' and '_' are literal, as in the responses table's search.
    expect((await readAll({ scope: all, search: '50%_OFF' }, 1)).map((r) => r[5]).sort()).toEqual(['50%_off', '50%_off too']);
    const theirs = await readAll({ scope: { surveyId: survey.id, supervisorMemberId: sup.id }, search: '50%_off' }, 2);
    expect(theirs).toEqual([['Mine', mine.email, String(Date.UTC(2026, 10, 1, 12, 50, 17)), expect.any(String), '1', '50%_off', expect.stringMatching(new RegExp(`^${LINK_MARK}http://sb\\.test/api/v1/files/image/p1\\.jpg\\?exp=1&sig=[0-9a-f]{64}$`))]]);
  });

  it('leaves no separator inside a cell, whatever the answer holds', async () => {
    const survey = await createSurvey(t.app, org.id, { questions });
    // PostgreSQL text cannot hold U+0000 at all; SQLite can.
    const nul = t.engine === 'sqlite' ? '\u0000' : '\u0002';
    const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Ctrl\u0001Name' });
    await addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, { answers: { Outlet: `${nul}=1\u0001`, Photo: [`a${nul}b`, '\u0001'] } });
    const rows = await readAll({ scope: { surveyId: survey.id, supervisorMemberId: null }, search: '' }, 10);
    expect(rows).toEqual([['Ctrl\uFFFDName', fu.email, '', expect.any(String), '1', '\uFFFD=1\uFFFD', 'a\uFFFDb, \uFFFD']]);
  });
});

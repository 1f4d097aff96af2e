import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, Role, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { MAX_NAME } from './export-syntax.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let supervisorToken: string;
beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Formats Org');
  ({ id: surveyId } = await createSurvey(t.app, org.id, { title: 'Kano "outlets", Ọ̀yọ́', questions }));
  const sup = await addMember(t.app, surveyId, org.id, { fullName: 'Sup Format', role: Role.supervisor });
  supervisorToken = sup.token!;
  const fu = await addMember(t.app, surveyId, org.id, { fullName: 'Àdùkẹ́ Bello', supervisorId: sup.id });
  const other = await addMember(t.app, surveyId, org.id, { fullName: 'Not Supervised' });
  const at = Date.UTC(2026, 10, 20, 14, 5, 7);
  const respond = (m: typeof fu, answers: Record<string, string | string[]>, createdAt: number, capturedAt?: number) =>
    addResponse(t.app, m, { id: surveyId, organizationId: org.id }, { answers, createdAt, capturedAt, email: m.email });
  await respond(fu, {
    Outlet: 'Mama Ṣadé\'s "best" shop,\nline two', 'Outlet type': 'Supermarket', Brands: ['Alpha', 'Gamma'], Count: '12', Price: '2.75', 'Visit day': '2026-03-14', 'Visit time': '07:30',
    Where: '6.524379, 3.379206 (±12 m)', 'By whom': '=cmd',
  }, at, at - 60_000);
  await respond(fu, { Outlet: 'No location here', 'Outlet type': 'Kiosk', Brands: [], Count: 'twelve' }, at - 1000);
  await respond(other, { Outlet: 'South', Where: '-33.918861, 18.423300 (±5 m)', Brands: ['Beta'] }, at - 2000);
});
afterAll(() => t.close());

const questions: StoredQuestion[] = [
  { id: 'outlet', text: 'Outlet', type: QuestionType.text, compulsory: true, options: [] },
  { id: 'outlet-type', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket', 'Open market'] },
  { id: 'Brands', text: 'Brands', type: QuestionType.checkbox, compulsory: false, options: ['Alpha', 'Beta', 'Gamma'] },
  { id: '1count', text: 'Count', type: QuestionType.number, compulsory: false, options: [] },
  { id: 'price', text: 'Price', type: QuestionType.decimal, compulsory: false, options: [] },
  { id: 'visit_day', text: 'Visit day', type: QuestionType.date, compulsory: false, options: [] },
  { id: 'visit_time', text: 'Visit time', type: QuestionType.time, compulsory: false, options: [] },
  { id: 'where', text: 'Where', type: QuestionType.liveLocation, compulsory: false, options: [] },
  { id: 'by', text: 'By whom', type: QuestionType.text, compulsory: false, options: [] },
  { id: 'a_question_id_that_is_far_longer_than_stata_allows', text: 'Long one', type: QuestionType.text, compulsory: false, options: [] },
  { id: 'A_QUESTION_ID_THAT_IS_FAR_LONGER_THAN_STATA_ALLOWS_2', text: 'Long two', type: QuestionType.text, compulsory: false, options: [] },
];

const url = (format: string, extra = '') => `/api/v1/survey/organization/response/download/${surveyId}?format=${format}${extra}`;
async function get(path: string, token = org.token) {
  const res = await call(t.app, token, { method: 'GET', url: path });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes doubled, and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      field += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      endField();
    } else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** A workbook cell as the CSV writes it: moments in ISO 8601 UTC, a date answer as yyyy-mm-dd, a time as hh:mm, links as their address. */
function asCsv(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date && cell.numFmt === 'hh:mm') return value.toISOString().slice(11, 16);
  if (value instanceof Date) return cell.numFmt === 'dd/mm/yyyy' ? value.toISOString().slice(0, 10) : `${value.toISOString().slice(0, 19)}Z`;
  if (typeof value === 'object' && 'hyperlink' in value) return value.hyperlink;
  return String(value);
}

async function workbookRows(extra = '') {
  const res = await get(url('xlsx', extra));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Responses')!;
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push(Array.from({ length: row.cellCount }, (_, c) => asCsv(row.getCell(c + 1)))));
  return rows;
}

describe('csv export', () => {
  for (const extra of ['', '&choices=values&splitMultiple=true']) {
    it(`holds the workbook's columns and cells, UTF-8 with a BOM, moments in UTC (${extra || 'defaults'})`, async () => {
      const res = await get(url('csv', extra));
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toContain(`_responses.csv`);
      expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const csv = parseCsv(res.rawPayload.toString('utf8').slice(1));
      const xlsx = await workbookRows(extra);
      expect(csv).toHaveLength(4);
      // The same headers but for the zone the moments' say.
      expect(csv[0]).toEqual(xlsx[0]!.map((h) => (['Captured at', 'Received at', 'Reviewed at', 'Opened at', 'Location fix time'].includes(h) ? `${h} (UTC)` : h)));
      // ExcelJS drops trailing empty cells of a row: compare the workbook's length.
      for (let r = 1; r < csv.length; r++) expect(csv[r]!.slice(0, xlsx[r]!.length)).toEqual(xlsx[r]);
      const head = csv[0]!;
      const first = Object.fromEntries(head.map((h, i) => [h, csv[1]![i]]));
      expect(first['Received at (UTC)']).toBe('2026-11-20T14:05:07Z');
      expect(first['Captured at (UTC)']).toBe('2026-11-20T14:04:07Z');
      expect(first['Field user']).toBe('Àdùkẹ́ Bello');
      expect(first.Outlet).toBe('Mama Ṣadé\'s "best" shop,\nline two');
      expect(first['By whom']).toBe("'=cmd");
      if (extra) {
        expect(first['Outlet type']).toBe('2');
        expect(first.Brands).toBe('1 3');
        expect([first['Brands: Alpha'], first['Brands: Beta'], first['Brands: Gamma']]).toEqual(['1', '0', '1']);
        const second = Object.fromEntries(head.map((h, i) => [h, csv[2]![i]]));
        expect([second['Brands: Alpha'], second['Brands: Beta']]).toEqual(['0', '0']);
        const third = Object.fromEntries(head.map((h, i) => [h, csv[3]![i]]));
        expect(third['Outlet type']).toBe('N/A');
      } else {
        expect(first['Outlet type']).toBe('Supermarket');
        expect(first.Brands).toBe('Alpha, Gamma');
        expect(head.some((h) => h.startsWith('Brands: '))).toBe(false);
      }
    });
  }

  it('keeps the supervisor to their own field users, and refuses an unknown format in words', async () => {
    const res = await get(`/api/v1/survey/supervisorName/response/download/${surveyId}?format=csv`, supervisorToken);
    const csv = parseCsv(res.rawPayload.toString('utf8').slice(1));
    expect(csv.slice(1).map((r) => r[1])).toEqual(['Àdùkẹ́ Bello', 'Àdùkẹ́ Bello']);
    const bad = await call(t.app, org.token, { method: 'GET', url: url('sav') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('format must be xlsx, csv, stata, spss, geojson or kml');
  });
});

async function statZip(format: 'stata' | 'spss') {
  const res = await get(url(format));
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toContain(`_responses.${format}.zip`);
  const zip = await JSZip.loadAsync(res.rawPayload);
  const csv = await zip.file('survey.csv')!.async('string');
  const syntax = await zip.file(format === 'stata' ? 'survey.do' : 'survey.sps')!.async('string');
  return { csv: parseCsv(csv.replace(/^\uFEFF/, '')), syntax, names: Object.keys(zip.files).sort() };
}

const LEGAL = /^[a-z][a-z0-9_]{0,31}$/;

describe('stata export', () => {
  it('zips the CSV with a .do file that renames, types and labels every column', async () => {
    const { csv, syntax, names } = await statZip('stata');
    expect(names).toEqual(['survey.csv', 'survey.do']);
    const header = csv[0]!;
    // Missing answers are empty for Stata; text on one line.
    const first = Object.fromEntries(header.map((h, i) => [h, csv[1]![i]]));
    expect(first['Captured at (UTC)']).toBe('2026-11-20 14:04:07');
    expect(first.Outlet).toBe('Mama Ṣadé\'s "best" shop, line two');
    expect(first['Long one']).toBe('');

    // A parser of the .do: every line is a known command with balanced compound quotes.
    const commands = syntax.trimEnd().split('\n').filter((l) => !l.startsWith('*'));
    for (const line of commands) {
      expect(line).toMatch(/^(version 14|clear|import delimited|rename|destring|generate|format|drop|label (variable|define|values|drop)|capture label drop|order|compress)\b/);
      expect(line.split('`"').length, line).toBe(line.split(`"'`).length);
    }
    const renames = commands.filter((l) => l.startsWith('rename v')).map((l) => l.split(' '));
    expect(renames.map((r) => r[1])).toEqual(header.map((_, i) => `v${i + 1}`));
    const vars = renames.map((r) => r[2]!);
    expect(new Set(vars).size).toBe(vars.length);
    for (const v of vars) expect(v).toMatch(LEGAL);
    expect(vars.every((v) => v.length <= MAX_NAME)).toBe(true);
    expect(vars).toContain('v_1count');
    expect(vars).toContain('by_v');
    expect(vars).toContain('outlet_type');
    expect(vars.filter((v) => v.startsWith('a_question_id'))).toHaveLength(2);
    for (const v of vars) expect(commands).toContain(commands.find((l) => l.startsWith(`label variable ${v} `)));
    expect(commands).toContain('label variable outlet_type `"Outlet type"\'');
    expect(commands).toContain('destring price, replace');
    // "twelve" in a number question: that column stays a string.
    expect(commands).not.toContain('destring v_1count, replace');
    expect(commands).toContain('generate double __sb1 = clock(captured_at, "YMDhms")');
    expect(commands.some((l) => l.startsWith('generate') && l.includes('date(visit_day, "YMD")'))).toBe(true);
    expect(commands).toContain('label define outlet_type 2 `"Supermarket"\', add');
    expect(commands).toContain('label values outlet_type outlet_type');
    expect(commands).toContain('label values brands_1 sb_yesno');
    expect(commands.at(-2)).toBe(`order ${vars.join(' ')}`);
  });
});

const pspp = spawnSync('pspp', ['--version']).status === 0;

describe('spss export', () => {
  it('zips the CSV with an .sps file declaring every column with its type and labels', async () => {
    const { csv, syntax } = await statZip('spss');
    const declared = syntax.slice(syntax.indexOf('/VARIABLES=') + 11, syntax.indexOf('\n.\n')).trim().split('\n').map((l) => l.trim().split(' '));
    expect(declared).toHaveLength(csv[0]!.length);
    const byName = Object.fromEntries(declared.map(([name, format]) => [name!, format!]));
    for (const name of Object.keys(byName)) expect(name).toMatch(LEGAL);
    expect(byName).toMatchObject({ sn: 'F20.0', captured_at: 'YMDHMS19', outlet_type: 'F20.0', brands_1: 'F20.0', visit_day: 'SDATE10', visit_time: 'TIME8', price: 'F20.0' });
    // "twelve" in a number question: the column stays text, as wide as its longest cell.
    expect(byName.v_1count).toBe('A6');
    expect(syntax).toContain("FORMATS price (F20.2).");
    expect(syntax).toContain("outlet_type 1 'Kiosk' 2 'Supermarket' 3 'Open market'");
    expect(syntax).toContain("/outlet 'Outlet'");
  });

  it.skipIf(!pspp)(`reads into PSPP as a labelled dataset${pspp ? '' : ' [skipped: pspp is not installed here; apt-get install pspp]'}`, async () => {
    const res = await get(url('spss'));
    const dir = mkdtempSync(join(tmpdir(), 'sb-spss-'));
    const zip = await JSZip.loadAsync(res.rawPayload);
    for (const name of ['survey.csv', 'survey.sps']) writeFileSync(join(dir, name), await zip.file(name)!.async('nodebuffer'));
    writeFileSync(join(dir, 'check.sps'), "INSERT FILE='survey.sps'.\nLIST outlet_type brands_1 price visit_day captured_at.\nDISPLAY DICTIONARY.\n");
    const out = execFileSync('pspp', ['-O', 'format=txt', 'check.sps'], { cwd: dir, encoding: 'utf8' });
    expect(out).not.toMatch(/error|warning/i);
    expect(out).toContain('2026-11-20 14:04:07');
    expect(out).toContain('2026/03/14');
    expect(out).toMatch(/Supermarket/);
    expect(out).toMatch(/Outlet type/);
  });
});

describe('map exports', () => {
  it('writes one GeoJSON Point Feature per response with a location answer', async () => {
    const res = await get(url('geojson'));
    expect(res.headers['content-type']).toBe('application/geo+json');
    const layer = res.json<{ type: string; features: { type: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[] }>();
    expect(layer.type).toBe('FeatureCollection');
    expect(layer.features).toHaveLength(2);
    for (const f of layer.features) {
      expect(f.type).toBe('Feature');
      expect(f.geometry.type).toBe('Point');
      expect(f.geometry.coordinates).toHaveLength(2);
      const [lng, lat] = f.geometry.coordinates as [number, number];
      expect(Math.abs(lng) <= 180 && Math.abs(lat) <= 90).toBe(true);
    }
    expect(layer.features[0]!.geometry.coordinates).toEqual([3.379206, 6.524379]);
    expect(layer.features[1]!.geometry.coordinates).toEqual([18.4233, -33.918861]);
    expect(layer.features[0]!.properties).toMatchObject({ 'S/N': 1, Count: 12, 'Received at (UTC)': '2026-11-20T14:05:07Z', 'Long one': null, Brands: 'Alpha, Gamma' });
  });

  it('writes a KML Placemark per response with a location answer, its answers as data', async () => {
    const res = await get(url('kml'));
    expect(res.headers['content-type']).toBe('application/vnd.google-earth.kml+xml');
    const kml = res.body;
    expect(kml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">')).toBe(true);
    expect(kml.match(/<Placemark>/g)).toHaveLength(2);
    expect(kml).toContain('<coordinates>3.379206,6.524379</coordinates>');
    expect(kml).toContain('<name>Kano &quot;outlets&quot;, Ọ̀yọ́</name>');
    expect(kml).toContain('<Data name="Outlet"><value>Mama Ṣadé&apos;s &quot;best&quot; shop,\nline two</value></Data>');
    // Every tag closes: a well-formed document.
    const opened = [...kml.matchAll(/<([A-Za-z]+)[ >]/g)].map((m) => m[1]);
    const closed = [...kml.matchAll(/<\/([A-Za-z]+)>/g)].map((m) => m[1]);
    expect(opened.sort()).toEqual(closed.sort());
  });
});

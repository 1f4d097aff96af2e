import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { QUALITY_HEADER } from './workbook.js';

/**
 * The xlsx holds data a spreadsheet can use (through the real download): numbers as numbers, dates
 * and times as dates with a number format, moments as date cells, phone numbers as typed.
 */
let t: TestApp;
let sheet: ExcelJS.Worksheet;
const questions: StoredQuestion[] = [
  { id: 'q1', text: 'Phone', type: QuestionType.phone, compulsory: false, options: [] },
  { id: 'q2', text: 'Bags sold', type: QuestionType.number, compulsory: false, options: [] },
  { id: 'q3', text: 'Price', type: QuestionType.decimal, compulsory: false, options: [] },
  { id: 'q4', text: 'Visit date', type: QuestionType.date, compulsory: false, options: [] },
  { id: 'q5', text: 'Visit time', type: QuestionType.time, compulsory: false, options: [] },
  { id: 'q6', text: 'Comment', type: QuestionType.text, compulsory: false, options: [] },
];
const FIRST_ANSWER = 12;
const opened = Date.UTC(2026, 2, 14, 9, 15, 30);

beforeAll(async () => {
  t = await buildTestApp();
  const org = await createOrganization(t.app, 'Cells Org');
  const survey = await createSurvey(t.app, org.id, { title: 'Typed cells', questions });
  const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi' });
  const { id } = await addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, {
    answers: { Phone: '+2348122223333', 'Bags sold': '-12', Price: '1250.75', 'Visit date': '2026-03-14', 'Visit time': '07:30', Comment: '=1+1' },
  });
  await t.app.db.kysely.updateTable('responses').set({ meta: JSON.stringify({ openedAt: opened, durationMs: 83_450, locationAccuracy: 12.4, locationFixedAt: opened + 60_000 }) }).where('id', '=', id).execute();
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}` });
  expect(res.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  sheet = workbook.getWorksheet('Responses')!;
});
afterAll(() => t.close());

const cell = (column: number) => sheet.getRow(2).getCell(column);
const quality = (header: string) => cell(FIRST_ANSWER + questions.length + QUALITY_HEADER.indexOf(header));

describe('export cells', () => {
  it('writes a phone number as text, without a quote', () => {
    expect(sheet.getRow(1).getCell(FIRST_ANSWER).value).toBe('Phone');
    expect(cell(FIRST_ANSWER).type).toBe(ExcelJS.ValueType.String);
    expect(cell(FIRST_ANSWER).value).toBe('+2348122223333');
  });

  it('writes integer and decimal answers as numbers', () => {
    expect(cell(FIRST_ANSWER + 1).value).toBe(-12);
    expect(cell(FIRST_ANSWER + 2).value).toBe(1250.75);
  });

  it('writes date and time answers as Excel dates with a number format', () => {
    expect(cell(FIRST_ANSWER + 3).value).toEqual(new Date('2026-03-14T00:00:00Z'));
    expect(cell(FIRST_ANSWER + 3).numFmt).toBe('dd/mm/yyyy');
    // The serial 0.3125 (07:30 as a fraction of a day): exceljs reads a time-formatted serial as a Date on Excel's day 0.
    expect(cell(FIRST_ANSWER + 4).value).toEqual(new Date('1899-12-30T07:30:00Z'));
    expect(cell(FIRST_ANSWER + 4).numFmt).toBe('hh:mm');
  });

  it('still quotes a real formula', () => {
    expect(cell(FIRST_ANSWER + 5).value).toBe("'=1+1");
  });

  it('writes the phone\'s timestamps as date cells and its measures as numbers', () => {
    expect(quality('Opened at').value).toEqual(new Date(opened));
    expect(quality('Opened at').numFmt).toBe('dd/mm/yyyy hh:mm:ss');
    expect(quality('Location fix time').value).toEqual(new Date(opened + 60_000));
    expect(quality('Duration (s)').value).toBe(83.5);
    expect(quality('Location accuracy (m)').value).toBe(12);
    expect(cell(5).value).toBeInstanceOf(Date);
  });
});

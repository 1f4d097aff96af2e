import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionType, type StoredQuestion } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

// Answers are read as own properties only, and `__proto__` is an ordinary question.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const text = (q: string, compulsory = false): Omit<StoredQuestion, 'id'> => ({ text: q, type: QuestionType.text, compulsory, options: [] });
const rawPost = (token: string | null, url: string, payload: string) =>
  call(t.app, token, { method: 'POST', url: `/api/v1${url}`, payload, headers: { 'content-type': 'application/json' } });

describe('questions named like Object.prototype members', () => {
  it('exports N/A for unanswered constructor, toString and hasOwnProperty, and keeps a __proto__ answer end to end', async () => {
    const org = await createOrganization(t.app, 'Proto Org');
    const survey = await createSurvey(t.app, org.id, { title: 'Proto', questions: [text('__proto__', true), text('constructor'), text('toString'), text('hasOwnProperty'), text('Outlet')] });
    const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Proto Person' });
    const clientId = randomUUID();
    const body = `{"survey_id":"${survey.id}","organization_id":"${org.id}","clientId":"${clientId}","answers":{"__proto__":"proto answer","Outlet":"Kiosk"}}`;
    const sent = await rawPost(fu.token, '/survey/respond', body);
    expect(sent.statusCode, sent.body).toBe(200);
    const replay = await rawPost(fu.token, '/survey/respond', body);
    expect(replay.json()._id).toBe(sent.json()._id);
    const batch = await rawPost(fu.token, '/sync/responses', `{"responses":[{"survey_id":"${survey.id}","organization_id":"${org.id}","clientId":"${randomUUID()}","answers":{"__proto__":["not text"]}}]}`);
    expect(batch.json().results[0]).toMatchObject({ status: 400 });

    const stored = await t.app.db.kysely.selectFrom('responses').select('answers').where('client_id', '=', clientId).executeTakeFirstOrThrow();
    expect(Object.getOwnPropertyDescriptor(JSON.parse(stored.answers), '__proto__')?.value).toBe('proto answer');

    const list = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}` });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('"__proto__":"proto answer"');

    const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}` });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    // After S/N, field user, e-mail, captured, received, the version, the revision and the four review columns.
    const values = (workbook.getWorksheet('Responses')!.getRow(2).values as unknown[]).slice(6);
    expect(values).toEqual([1, 1, 'approved', undefined, undefined, undefined, 'proto answer', 'N/A', 'N/A', 'N/A', 'Kiosk']);
  });

  it('still refuses __proto__ and constructor.prototype anywhere else in a body', async () => {
    const org = await createOrganization(t.app, 'Guard Org');
    const survey = await createSurvey(t.app, org.id, { questions: [text('Outlet')] });
    const fu = await addMember(t.app, survey.id, org.id);
    const base = `"survey_id":"${survey.id}","organization_id":"${org.id}","clientId":"${randomUUID()}"`;
    for (const body of [
      `{${base},"__proto__":{"polluted":true},"answers":{"Outlet":"x"}}`,
      `{${base},"answers":{"Outlet":"x"},"extra":{"__proto__":{"polluted":true}}}`,
      `{${base},"answers":{"constructor":{"prototype":{"polluted":true}}}}`,
      `{${base},"answers":{"__proto__":{"polluted":true}}}`,
    ]) {
      const res = await rawPost(fu.token, '/survey/respond', body);
      expect(res.statusCode, body).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

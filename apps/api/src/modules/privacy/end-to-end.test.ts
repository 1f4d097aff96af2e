import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, OfficeRole, QuestionType, type EncryptedAnswers, type StoredQuestion } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { decryptAnswers, encryptAnswers, generateSurveyKeys, keyIdOf, lockPrivateKey, unlockPrivateKey } from '@survey-bird/contracts/e2e';
import { addMember, addOfficeUser, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

const questions: StoredQuestion[] = [
  { id: 'name', text: 'Respondent name', type: QuestionType.text, compulsory: true, options: [], personal: true },
  { id: 'kind', text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket'] },
];
const SECRET = 'Chiamaka Eze-Okafor';

describe('end-to-end encrypted survey', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let survey: Awaited<ReturnType<typeof createSurvey>>;
  let fu: Awaited<ReturnType<typeof addMember>>;
  let keys: Awaited<ReturnType<typeof generateSurveyKeys>>;
  const k = () => t.app.db.kysely;
  const send = (body: object) => call(t.app, fu.token, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [body] } });
  const base = () => ({ survey_id: survey.id, organization_id: org.id, clientId: uuidv7(), capturedAt: new Date().toISOString(), locationAccuracy: 8 });

  beforeAll(async () => {
    t = await buildTestApp();
    org = await createOrganization(t.app, 'Sealed Org');
    survey = await createSurvey(t.app, org.id, { title: 'Sealed panel', questions });
    fu = await addMember(t.app, survey.id, org.id, { fullName: 'Tunde Field', rate: 700 });
    keys = await generateSurveyKeys();
  });
  afterAll(() => t.close());

  it('stores the public key through the settings route and gives it to the phone', async () => {
    const bad = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { encryptionKey: 'not a key' } });
    expect(bad.statusCode).toBe(400);
    const set = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { encryptionKey: keys.publicKey } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().encryptionKey).toBe(keys.publicKey);
    const mine = await call(t.app, fu.token, { method: 'GET', url: '/api/v1/survey/field-user' });
    expect(JSON.stringify(mine.json())).toContain(keys.publicKey);
  });

  it('refuses answers in clear, stores only ciphertext, and still counts, flags and pays on the metadata', async () => {
    const clear = await send({ ...base(), answers: { 'Respondent name': SECRET, 'Outlet type': 'Kiosk' } });
    expect(clear.json().results[0]).toMatchObject({ status: 400, msg: ApiMsg.encryptionRequired });
    const mixed = await send({ ...base(), answers: { 'Respondent name': SECRET }, encrypted: await encryptAnswers(keys.publicKey, {}) });
    expect(mixed.json().results[0]).toMatchObject({ status: 400, msg: ApiMsg.encryptedWithAnswers });

    const answers = { 'Respondent name': SECRET, 'Outlet type': 'Kiosk' };
    const body = { ...base(), answers: {}, encrypted: await encryptAnswers(keys.publicKey, answers) };
    const sent = await send(body);
    expect(sent.json().results[0]).toMatchObject({ status: 200 });
    // A replay of the same envelope is the same response; another envelope under that clientId is a conflict.
    expect((await send(body)).json().results[0]).toMatchObject({ status: 200, _id: sent.json().results[0]._id });
    expect((await send({ ...body, encrypted: await encryptAnswers(keys.publicKey, answers) })).json().results[0].status).toBe(409);

    // No column of any row holds the answer in clear.
    const rows = await k().selectFrom('responses').selectAll().where('survey_id', '=', survey.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain('Kiosk');
    expect(rows[0]!.answers).toBe('{}');

    // Counted, listed with its envelope, flagged on metadata, paid.
    const table = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}` });
    expect(table.json().totalCount ?? table.json().responses.length).toBe(1);
    const envelope = table.json().responses[0].encrypted as EncryptedAnswers;
    const file = await lockPrivateKey(keys.privateKey, keys.publicKey, 'correct horse battery', 1_000);
    const privateKey = await unlockPrivateKey(file, 'correct horse battery');
    expect(await decryptAnswers(privateKey, await keyIdOf(keys.publicKey), envelope)).toEqual(answers);
    const detail = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${sent.json().results[0]._id}` });
    expect(detail.json().encrypted).toEqual(envelope);
    expect(detail.json().meta).toMatchObject({ locationAccuracy: 8 });

    const payout = await call(t.app, org.token, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: survey.id, key: randomUUID() } });
    expect(payout.statusCode, payout.body).toBe(200);
    expect(payout.json().payout).toMatchObject({ total: 700, responseCount: 1 });
  });

  it('gives an analyst no envelope (the server cannot mask inside it)', async () => {
    const analyst = await addOfficeUser(t.app, org.id, OfficeRole.analyst);
    const table = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/survey/organization/response/${survey.id}` });
    expect(table.statusCode).toBe(200);
    expect(table.json().responses[0].encrypted).toBeUndefined();
    const detail = await call(t.app, analyst.token, { method: 'GET', url: `/api/v1/responses/${table.json().responses[0]._id}` });
    expect(detail.json().encrypted).toBeNull();
  });

  it('a wrong passphrase does not open the key file', async () => {
    const file = await lockPrivateKey(keys.privateKey, keys.publicKey, 'right one', 1_000);
    await expect(unlockPrivateKey(file, 'wrong one')).rejects.toThrow(/passphrase/);
  });
});

import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, AuditAction, OfficeRole, QuestionType, routes, type RouteName } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';
import { TokenLookup } from './lookup.js';
import { addMember, addOfficeUser, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

let t: TestApp;
const w = { org: { id: '', token: '', userId: '', email: '' }, survey: '', other: '', response: '', otherResponse: '', payout: 'payout-of-token-test' };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function makeToken(session: string, body: Record<string, unknown> = {}) {
  const res = await call(t.app, session, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'Power BI', expiresAt: inDays(30), ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: { _id: string; hint: string; surveyId: string | null; lastUsedAt: string | null }; secret: string };
}
const bearer = (secret: string, url: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' = 'GET', payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${secret}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await buildTestApp();
  w.org = await createOrganization(t.app, 'Token Org');
  w.survey = (await createSurvey(t.app, w.org.id, { title: 'Token survey', questions: [{ text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] }] })).id;
  w.other = (await createSurvey(t.app, w.org.id, { title: 'Other survey', questions: [{ text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] }] })).id;
  const fu = await addMember(t.app, w.survey, w.org.id, { fullName: 'Field One', rate: 100 });
  const fu2 = await addMember(t.app, w.other, w.org.id, { fullName: 'Field Two', rate: 100 });
  w.response = (await addResponse(t.app, fu, { id: w.survey, organizationId: w.org.id }, { answers: { 'Name of outlet': 'Mama Put' } })).id;
  w.otherResponse = (await addResponse(t.app, fu2, { id: w.other, organizationId: w.org.id }, { answers: { 'Name of outlet': 'Other shop' } })).id;
  await t.app.db.kysely.insertInto('payouts').values({ id: w.payout, organization_id: w.org.id, survey_id: w.survey, idempotency_key: 'k', status: 'draft', total: 0, response_count: 0, reference: null, created_by: w.org.userId, created_at: Date.now(), paid_by: null, paid_at: null, cancelled_at: null }).execute();
});
afterAll(() => t.close());

describe('API tokens', () => {
  it('answers the token once, sb_ and 43 characters of randomness, and keeps only its hash', async () => {
    const { token, secret } = await makeToken(w.org.token);
    expect(secret).toMatch(/^sb_[\w-]{43}$/);
    expect(token.hint).toBe(`${secret.slice(0, 9)}…`);
    const row = await t.app.db.kysely.selectFrom('api_tokens').selectAll().where('id', '=', token._id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(3));
    const list = await call(t.app, w.org.token, { method: 'GET', url: '/api/v1/tokens' });
    expect(list.body).not.toContain(secret.slice(3));
    expect(list.json().tokens.map((x: { _id: string }) => x._id)).toContain(token._id);
  });

  it('reads the documented routes: survey list, responses, the since feed, a response, payouts, export', async () => {
    const { secret } = await makeToken(w.org.token);
    for (const url of ['/api/v1/survey/organization', `/api/v1/survey/organization/response/${w.survey}?page=1`, `/api/v1/survey/${w.survey}/responses?since=0.`, `/api/v1/responses/${w.response}`, `/api/v1/payouts?survey_id=${w.survey}`]) {
      const res = await bearer(secret, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const feed = (await bearer(secret, `/api/v1/survey/${w.survey}/responses`)).json();
    expect(feed.responses.map((r: { _id: string }) => r._id)).toEqual([w.response]);
    expect(feed).toMatchObject({ hasMore: false });
    const file = await bearer(secret, `/api/v1/survey/organization/response/download/${w.survey}?format=csv`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Mama Put');
  });

  it('is refused with 403 on every route the contracts do not mark for tokens, writes above all', async () => {
    const { secret } = await makeToken(w.org.token);
    const unmarked = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].access !== 'public' && !(routes[n] as { token?: string }).token);
    expect(unmarked.length).toBeGreaterThan(50);
    for (const name of unmarked) {
      const def = routes[name];
      const url = def.path.replace(/:(\w+)/g, (_m, k: string) => (k === 'surveyId' || k === 'id' ? w.survey : 'x'));
      const res = await bearer(secret, url, def.method, def.method === 'GET' || def.method === 'DELETE' ? undefined : {});
      expect(res.statusCode, `${name} ${res.body}`).toBe(403);
      expect(res.json(), name).toMatchObject({ msg: ApiMsg.tokenReadOnly });
    }
    // Nothing written: no token minted by a token, the survey unchanged.
    const mint = await bearer(secret, '/api/v1/tokens', 'POST', { name: 'x', expiresAt: inDays(1) });
    expect(mint.statusCode).toBe(403);
  });

  it('a survey-limited token reads that survey only', async () => {
    const { secret } = await makeToken(w.org.token, { surveyId: w.survey });
    const list = (await bearer(secret, '/api/v1/survey/organization')).json();
    expect(list.survey.map((s: { _id: string }) => s._id)).toEqual([w.survey]);
    expect((await bearer(secret, `/api/v1/survey/${w.other}/responses`)).statusCode).toBe(404);
    expect((await bearer(secret, `/api/v1/responses/${w.otherResponse}`)).statusCode).toBe(404);
    expect((await bearer(secret, `/api/v1/survey/${w.survey}/responses`)).statusCode).toBe(200);
  });

  it("a survey-limited office user's token can not exceed their scope, and follows their role", async () => {
    const limited = await addOfficeUser(t.app, w.org.id, OfficeRole.analyst, [w.survey]);
    expect((await call(t.app, limited.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'x', surveyId: w.other, expiresAt: inDays(5) } })).statusCode).toBe(404);
    const { secret } = await makeToken(limited.token);
    expect((await bearer(secret, '/api/v1/survey/organization')).json().survey.map((s: { _id: string }) => s._id)).toEqual([w.survey]);
    expect((await bearer(secret, `/api/v1/survey/${w.other}/responses`)).statusCode).toBe(404);
    // An analyst reads no payouts, with a session or a token.
    expect((await bearer(secret, `/api/v1/payouts?survey_id=${w.survey}`)).statusCode).toBe(403);
    // Their scope narrows later: the token narrows with it at once.
    await t.app.db.kysely.updateTable('office_users').set({ survey_ids: JSON.stringify([]) }).where('id', '=', limited.id).execute();
    expect((await bearer(secret, `/api/v1/survey/${w.survey}/responses`)).statusCode).toBe(404);
    // Removed from the office: the token reads nothing.
    await t.app.db.kysely.deleteFrom('office_users').where('id', '=', limited.id).execute();
    expect((await bearer(secret, '/api/v1/survey/organization')).statusCode).toBe(403);
  });

  it('expires, and a revoked token is refused at once (401)', async () => {
    const { token, secret } = await makeToken(w.org.token);
    expect((await bearer(secret, '/api/v1/survey/organization')).statusCode).toBe(200);
    const revoke = await call(t.app, w.org.token, { method: 'DELETE', url: `/api/v1/tokens/${token._id}` });
    expect(revoke.json()).toEqual({ msg: ApiMsg.tokenRevoked });
    const after = await bearer(secret, '/api/v1/survey/organization');
    expect(after.statusCode).toBe(401);
    const expiring = await makeToken(w.org.token);
    await t.app.db.kysely.updateTable('api_tokens').set({ expires_at: Date.now() - 1 }).where('id', '=', expiring.token._id).execute();
    expect((await bearer(expiring.secret, '/api/v1/survey/organization')).statusCode).toBe(401);
    expect((await bearer('sb_not-a-token', '/api/v1/survey/organization')).statusCode).toBe(401);
  });

  it('refuses an expiry in the past or more than 366 days away, and a bad name', async () => {
    for (const body of [{ name: 'x', expiresAt: inDays(-1) }, { name: 'x', expiresAt: inDays(400) }, { name: 'x', expiresAt: 'tomorrow' }, { name: '', expiresAt: inDays(1) }, { name: 'x' }]) {
      const res = await call(t.app, w.org.token, { method: 'POST', url: '/api/v1/tokens', payload: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['msg', 'code']);
    }
    expect((await call(t.app, w.org.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'day', expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) } })).statusCode).toBe(200);
  });

  it('audits creation, revocation and use: one use row per token per day, last used time shown', async () => {
    const { token, secret } = await makeToken(w.org.token, { name: 'Audited' });
    for (let i = 0; i < 5; i++) expect((await bearer(secret, `/api/v1/survey/${w.survey}/responses`)).statusCode).toBe(200);
    const events = await t.app.db.kysely.selectFrom('audit_events').select(['action', 'target_label', 'after', 'actor_email']).where('target_id', '=', token._id).orderBy('id').execute();
    expect(events.map((e) => e.action)).toEqual([AuditAction.createToken, AuditAction.useToken]);
    expect(events[1]!.actor_email).toBe(w.org.email);
    expect(JSON.parse(events[1]!.after!)).toMatchObject({ route: 'GET /api/v1/survey/:id/responses' });
    const listed = (await call(t.app, w.org.token, { method: 'GET', url: '/api/v1/tokens' })).json().tokens.find((x: { _id: string }) => x._id === token._id);
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(60_000);
    // The next day's first use is audited again (another process: its own throttle memory).
    const tomorrow = Date.now() + 86_400_000;
    const request = { ip: '10.0.0.9', method: 'GET', routeOptions: { url: '/api/v1/survey/organization' } } as unknown as FastifyRequest;
    await new TokenLookup(t.app.db).authenticate(secret, request, tomorrow);
    await new TokenLookup(t.app.db).authenticate(secret, request, tomorrow + 1000);
    await call(t.app, w.org.token, { method: 'DELETE', url: `/api/v1/tokens/${token._id}` });
    await call(t.app, w.org.token, { method: 'DELETE', url: `/api/v1/tokens/${token._id}` });
    const all = await t.app.db.kysely.selectFrom('audit_events').select('action').where('target_id', '=', token._id).orderBy('id').execute();
    // Tomorrow's use sorts last by time: compare the counts.
    expect(all.map((e) => e.action).sort()).toEqual([AuditAction.createToken, AuditAction.revokeToken, AuditAction.useToken, AuditAction.useToken]);
  });

  it('office users see and revoke their own tokens; the owner sees and revokes all', async () => {
    const analyst = await addOfficeUser(t.app, w.org.id, OfficeRole.analyst);
    const mine = await makeToken(analyst.token, { name: 'Analyst key' });
    const ownersOwn = await makeToken(w.org.token, { name: 'Owner key' });
    const seen = (await call(t.app, analyst.token, { method: 'GET', url: '/api/v1/tokens' })).json().tokens.map((x: { _id: string }) => x._id);
    expect(seen).toEqual([mine.token._id]);
    expect((await call(t.app, analyst.token, { method: 'DELETE', url: `/api/v1/tokens/${ownersOwn.token._id}` })).statusCode).toBe(404);
    expect((await call(t.app, w.org.token, { method: 'GET', url: '/api/v1/tokens' })).json().tokens.map((x: { _id: string }) => x._id)).toContain(mine.token._id);
    expect((await call(t.app, w.org.token, { method: 'DELETE', url: `/api/v1/tokens/${mine.token._id}` })).statusCode).toBe(200);
    expect((await bearer(mine.secret, '/api/v1/survey/organization')).statusCode).toBe(401);
    // Another organization's owner finds nothing to revoke.
    const other = await createOrganization(t.app, 'Other Org');
    expect((await call(t.app, other.token, { method: 'DELETE', url: `/api/v1/tokens/${ownersOwn.token._id}` })).statusCode).toBe(404);
    expect((await call(t.app, other.token, { method: 'GET', url: '/api/v1/tokens' })).json().tokens).toEqual([]);
  });

  it("photos: a token reads its scope's photos; HTTP Basic is not taken outside OData", async () => {
    const photoSurvey = (await createSurvey(t.app, w.org.id, { title: 'Photo survey' })).id;
    const fu = await addMember(t.app, photoSurvey, w.org.id, { fullName: 'Photographer' });
    const boundary = `----sb${Date.now()}`;
    const fields = { question: 'Shelf photo', survey_name: photoSurvey, organization_name: w.org.id, clientId: crypto.randomUUID() };
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), tinyJpeg(), Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await call(t.app, fu.token, { method: 'POST', url: '/api/v1/files/image', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode, up.body).toBe(200);
    const url = `/api/v1/files/image/${(up.json()['Shelf photo'] as string).split('/').pop()}`;
    const all = await makeToken(w.org.token);
    const read = await bearer(all.secret, url);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/jpeg');
    // A token for another survey, and another organization's token, find no such photo.
    expect((await bearer((await makeToken(w.org.token, { surveyId: w.survey })).secret, url)).statusCode).toBe(404);
    const stranger = await createOrganization(t.app, 'Stranger Org');
    expect((await bearer((await makeToken(stranger.token)).secret, url)).statusCode).toBe(404);

    const basic = `Basic ${Buffer.from(`me:${all.secret}`).toString('base64')}`;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/survey/organization', headers: { authorization: basic } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

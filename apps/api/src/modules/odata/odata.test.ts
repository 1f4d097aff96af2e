import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { o } from 'odata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, QuestionType } from '@survey-bird/contracts';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';

/**
 * The OData feed against the live server, read with an OData client library from the npm registry
 * (the `odata` package), authenticated as Power BI does: HTTP Basic with an API token as the password.
 */
let t: TestApp;
let base = '';
let basic = '';
const w = { org: { id: '', token: '' }, survey: '', other: '', first: '' };
const T0 = Date.UTC(2026, 10, 1);
const ROWS = 1_050;

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

const get = (path: string, auth: string | null = basic) => fetch(`${base}${path}`, { headers: auth ? { authorization: auth } : {} });
const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Record<string, any>;

beforeAll(async () => {
  const port = await freePort();
  t = await buildTestApp({ publicUrl: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  w.org = await createOrganization(t.app, 'OData Org');
  w.survey = (await createSurvey(t.app, w.org.id, { title: 'Household survey', questions: [
    { id: 'outlet', text: 'Name of outlet', type: QuestionType.text, compulsory: true, options: [] },
    { id: 'staff', text: 'Staff count', type: QuestionType.number, compulsory: false, options: [] },
    { id: 'opened', text: 'Opened on', type: QuestionType.date, compulsory: false, options: [] },
    { id: 'brands', text: 'Brands', type: QuestionType.checkbox, compulsory: false, options: ['Alpha', 'Beta'] },
    { id: 'members', text: 'Household members', type: QuestionType.repeat, compulsory: false, options: [] },
    { id: 'member_name', text: 'Member name', type: QuestionType.text, compulsory: false, options: [], parent: 'members' },
    { id: 'member_age', text: 'Member age', type: QuestionType.number, compulsory: false, options: [], parent: 'members' },
  ] })).id;
  w.other = (await createSurvey(t.app, w.org.id, { title: 'Other survey' })).id;
  const fu = await addMember(t.app, w.survey, w.org.id, { fullName: 'Ada Field' });
  const answers = { 'Name of outlet': 'Shop 0', 'Staff count': '3', 'Opened on': '2025-01-02', Brands: ['Alpha', 'Beta'], 'Household members': [{ 'Member name': 'Ada', 'Member age': '30' }, { 'Member name': 'Bola', 'Member age': 'unknown' }] };
  w.first = (await addResponse(t.app, fu, { id: w.survey, organizationId: w.org.id }, { answers: answers as never, createdAt: T0 })).id;
  // ROWS responses a minute apart, in one insert per 100 (the feed pages by 1,000).
  const rows = Array.from({ length: ROWS - 1 }, (_, i) => ({
    id: randomUUID(), client_id: randomUUID(), survey_id: w.survey, organization_id: w.org.id, member_id: fu.id, user_id: fu.userId!,
    answers: JSON.stringify({ 'Name of outlet': `Shop ${i + 1}`, 'Staff count': String(i), 'Household members': [{ 'Member name': `M${i + 1}`, 'Member age': '5' }] }),
    body_hash: `h${i}`, search_text: '', rate: 0, paid_at: null, captured_at: null, created_at: T0 + (i + 1) * 60_000,
  }));
  for (let i = 0; i < rows.length; i += 100) await t.app.db.kysely.insertInto('responses').values(rows.slice(i, i + 100)).execute();
  const made = await call(t.app, w.org.token, { method: 'POST', url: '/api/v1/tokens', payload: { name: 'Power BI', surveyId: w.survey, expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
  basic = `Basic ${Buffer.from(`owner:${made.json().secret}`).toString('base64')}`;
  base = `http://127.0.0.1:${port}/api/v1/odata/${w.survey}/`;
}, 120_000);
afterAll(() => t.close());

describe('OData v4 feed', () => {
  it('asks for HTTP Basic (the challenge Power BI and Excel answer) and refuses a wrong token', async () => {
    const none = await get('', null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="Survey Bird"/);
    const wrong = await get('', `Basic ${Buffer.from('owner:sb_wrong').toString('base64')}`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ msg: expect.any(String) });
  });

  it('serves the service document and $metadata: Responses and one entity set per repeat, typed', async () => {
    const doc = await json(get(''));
    expect(doc['@odata.context']).toBe(`${base}$metadata`);
    expect(doc.value).toEqual([{ name: 'Responses', kind: 'EntitySet', url: 'Responses' }, { name: 'Responses_members', kind: 'EntitySet', url: 'Responses_members' }]);
    const res = await get('$metadata');
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('odata-version')).toBe('4.0');
    const xml = await res.text();
    expect(xml).toContain('<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">');
    expect(xml).toMatch(/<EntityType Name="Response"><Key><PropertyRef Name="Id"\/><\/Key><Property Name="Id" Type="Edm.String" Nullable="false">/);
    for (const p of ['Name="ReceivedAt" Type="Edm.DateTimeOffset"', 'Name="outlet" Type="Edm.String"', 'Name="staff" Type="Edm.Double"', 'Name="opened" Type="Edm.Date"', 'Name="member_age" Type="Edm.Double"', '<EntitySet Name="Responses_members" EntityType="SurveyBird.Responses_members"/>', 'String="Staff count"']) expect(xml).toContain(p);
  });

  it('an OData client reads Responses with $top, $skip, $filter on receipt time and $count', async () => {
    const feed = o(base, { headers: { authorization: basic } });
    const two = await feed.get('Responses').query({ $top: 2, $skip: 1 });
    expect(two.map((r: { outlet: string }) => r.outlet)).toEqual(['Shop 1', 'Shop 2']);
    const first = (await o(base, { headers: { authorization: basic } }).get('Responses').query({ $top: 1 }))[0];
    expect(first).toMatchObject({ Id: w.first, FieldUser: 'Ada Field', ReceivedAt: new Date(T0).toISOString(), outlet: 'Shop 0', staff: 3, opened: '2025-01-02', brands: 'Alpha, Beta', members: '2 members', Version: 1, Revision: 1 });
    const from = new Date(T0 + 10 * 60_000).toISOString();
    const to = new Date(T0 + 15 * 60_000).toISOString();
    const window = await o(base, { headers: { authorization: basic } }).get('Responses').query({ $filter: `ReceivedAt ge ${from} and ReceivedAt lt ${to}` });
    expect(window.map((r: { outlet: string }) => r.outlet)).toEqual(['Shop 10', 'Shop 11', 'Shop 12', 'Shop 13', 'Shop 14']);
    const counted = await json(get(`Responses?$count=true&$top=0&$filter=${encodeURIComponent(`ReceivedAt gt ${from}`)}`));
    expect(counted['@odata.count']).toBe(ROWS - 11);
    expect(counted.value).toEqual([]);
    expect(await (await get('Responses/$count')).text()).toBe(String(ROWS));
  });

  it('pages 1,000 rows at a time through @odata.nextLink: every row once, in receipt order', async () => {
    const seen: string[] = [];
    let url: string | undefined = `${base}Responses?$count=true`;
    let pages = 0;
    while (url) {
      const page = await json(fetch(url, { headers: { authorization: basic } }));
      expect(page['@odata.count']).toBe(ROWS);
      seen.push(...page.value.map((r: { Id: string; outlet: string }) => r.outlet));
      url = page['@odata.nextLink'];
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => `Shop ${i}`));
    // $top past a page keeps its count across the nextLink.
    const top = await json(get('Responses?$top=1020'));
    expect(top.value).toHaveLength(1000);
    const rest = await json(fetch(top['@odata.nextLink'], { headers: { authorization: basic } }));
    expect(rest.value.map((r: { outlet: string }) => r.outlet)).toEqual(Array.from({ length: 20 }, (_, i) => `Shop ${1000 + i}`));
    expect(rest['@odata.nextLink']).toBeUndefined();
  });

  it('the repeat set has one row per instance with its response and index; a value that does not fit its type is null', async () => {
    const rows = await o(base, { headers: { authorization: basic } }).get('Responses_members').query({ $top: 3 });
    expect(rows).toEqual([
      { Id: `${w.first}/Household members/1`, ResponseId: w.first, ParentId: w.first, Index: 1, ReceivedAt: new Date(T0).toISOString(), member_name: 'Ada', member_age: 30 },
      { Id: `${w.first}/Household members/2`, ResponseId: w.first, ParentId: w.first, Index: 2, ReceivedAt: new Date(T0).toISOString(), member_name: 'Bola', member_age: null },
      expect.objectContaining({ member_name: 'M1', Index: 1 }),
    ]);
    expect(await (await get('Responses_members/$count')).text()).toBe(String(ROWS + 1));
    const all: unknown[] = [];
    let url: string | undefined = `${base}Responses_members`;
    while (url) {
      const page = await json(fetch(url, { headers: { authorization: basic } }));
      all.push(...page.value);
      url = page['@odata.nextLink'];
    }
    expect(all).toHaveLength(ROWS + 1);
    expect(new Set(all.map((r) => (r as { Id: string }).Id)).size).toBe(ROWS + 1);
  });

  it('answers 400 { msg } to a query it does not serve, 404 to an unknown set or a survey out of the token\'s scope', async () => {
    for (const q of ['$filter=outlet eq \'x\'', '$top=-1', '$skip=x', '$filter=ReceivedAt ge yesterday', '$skiptoken=abc']) {
      const res = await get(`Responses?${q}`);
      expect(res.status, q).toBe(400);
      expect(await res.json()).toMatchObject({ msg: expect.any(String) });
    }
    const unknown = await get('Orders');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ msg: ApiMsg.odataEntitySet });
    const other = await fetch(`${base.replace(w.survey, w.other)}Responses`, { headers: { authorization: basic } });
    expect(other.status).toBe(404);
    // A signed-in session reads the feed too (the Bearer JWT).
    expect((await call(t.app, w.org.token, { method: 'GET', url: `/api/v1/odata/${w.other}/Responses` })).statusCode).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutMsg } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Refusals Org');
});
afterAll(() => t.close());

const post = (url: string, payload?: object) => call(t.app, org.token, { method: 'POST', url, ...(payload ? { payload } : {}) });
const get = (url: string) => call(t.app, org.token, { method: 'GET', url });
const create = (body: object) => post('/api/v1/payouts', body);
const k = () => t.app.db.kysely;

async function team(title: string) {
  const survey = { id: (await createSurvey(t.app, org.id, { title })).id, organizationId: org.id };
  const ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi', rate: 100 });
  const bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Ade', rate: 250 });
  await addResponse(t.app, ada, survey, { rate: 100 });
  await addResponse(t.app, bayo, survey, { rate: 250 });
  return { survey, ada, bayo };
}

describe('a payout key is one request', () => {
  it('the same key with other field users is 409 and names the reuse; the same request again answers the payout', async () => {
    const { survey, ada, bayo } = await team('Key reuse');
    const key = randomUUID();
    const first = await create({ survey_id: survey.id, key, fieldUserIds: [ada.id] });
    expect(first.statusCode).toBe(200);
    const other = await create({ survey_id: survey.id, key, fieldUserIds: [bayo.id] });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ msg: PayoutMsg.keyReusedOtherFieldUsers });
    const all = await create({ survey_id: survey.id, key });
    expect(all.statusCode).toBe(409);
    expect(all.json().msg).toBe(PayoutMsg.keyReusedOtherFieldUsers);
    // The same request (the field users in another order, repeated) is a retry: the first payout.
    const retry = await create({ survey_id: survey.id, key, fieldUserIds: [ada.id, ada.id] });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().payout._id).toBe(first.json().payout._id);
    // Bayo was never paid by the refused request: a new key pays him.
    expect((await create({ survey_id: survey.id, key: randomUUID(), fieldUserIds: [bayo.id] })).json().payout).toMatchObject({ total: 250 });
  });

  it("a cancelled payout's key is not answered as created", async () => {
    const { survey } = await team('Key cancelled');
    const key = randomUUID();
    const payout = (await create({ survey_id: survey.id, key })).json().payout;
    await post(`/api/v1/payouts/${payout._id}/cancel`);
    const again = await create({ survey_id: survey.id, key });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ msg: PayoutMsg.keyCancelled });
  });
});

describe("a cancelled payout's bank file", () => {
  it('is refused with 409 in every format; a draft one downloads', async () => {
    const { survey } = await team('Cancelled file');
    const payout = (await create({ survey_id: survey.id, key: randomUUID() })).json().payout;
    expect((await get(`/api/v1/payouts/${payout._id}/download?format=csv`)).statusCode).toBe(200);
    await post(`/api/v1/payouts/${payout._id}/cancel`);
    for (const query of ['format=xlsx', 'format=csv', 'format=csv&part=responses']) {
      const res = await get(`/api/v1/payouts/${payout._id}/download?${query}`);
      expect(res.statusCode, query).toBe(409);
      expect(res.json()).toMatchObject({ msg: PayoutMsg.cancelledNoDownload });
    }
  });
});

describe('nothing to pay for incomplete bank details', () => {
  it('names each field user and every bank field they lack, after the spec text', async () => {
    const { survey, ada, bayo } = await team('Bank details');
    await k().updateTable('members').set({ bank: ' ', account_number: '12345' }).where('id', '=', ada.id).execute();
    await k().updateTable('members').set({ account_name: '' }).where('id', '=', bayo.id).execute();
    const res = await create({ survey_id: survey.id, key: randomUUID() });
    expect(res.statusCode).toBe(409);
    const msg = res.json().msg as string;
    expect(msg.startsWith(PayoutMsg.nothingPayable)).toBe(true);
    expect(msg).toContain(`Ada Obi <${ada.email}> lacks bank, account number`);
    expect(msg).toContain(`Bayo Ade <${bayo.email}> lacks account name`);
  });
});

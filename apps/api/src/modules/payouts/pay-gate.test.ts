import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

/**
 * The pay gate (holds.ts), on the engine the run is on: a payout takes exactly the responses no
 * reason holds; the dialog's preview, the payout's reply, the field user's earnings and list, and
 * the response's detail all name the same responses and naira per reason.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Gated Org');
});
afterAll(() => t.close());

const k = () => t.app.db.kysely;

describe('pay gate', () => {
  it('holds not-reviewed and audio-not-reviewed responses out of the payout, and everyone sees the same sums', async () => {
    const survey = { id: (await createSurvey(t.app, org.id, { title: 'Gated' })).id, organizationId: org.id };
    const ada = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi', rate: 100 });
    const bayo = await addMember(t.app, survey.id, org.id, { fullName: 'Bayo Ade', rate: 250 });
    await addMember(t.app, survey.id, org.id, { role: Role.supervisor });
    const approve = async (ids: string[]) => {
      const res = await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: ids, status: 'approved' } });
      expect(res.json().results.every((r: { status: number }) => r.status === 200), res.body).toBe(true);
    };
    const withAudio = async (member: typeof ada, rate: number, verdict: 'matches' | null) => {
      const { id } = await addResponse(t.app, member, survey, { rate, status: 'pending' });
      await k().updateTable('responses').set({ audio: 'recorded' }).where('id', '=', id).execute();
      await k().insertInto('audio_audits').values({ response_id: id, survey_id: survey.id, file_id: 'f', uploaded_at: 1, verdict, note: null, reviewed_by: null, reviewed_at: null }).execute();
      return id;
    };

    // Ada: 2 reviewed (payable), 3 arrived approved (not reviewed), 1 reviewed with audio not yet judged, 1 with audio judged.
    const reviewed = [(await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' })).id, (await addResponse(t.app, ada, survey, { rate: 100, status: 'pending' })).id];
    const unreviewed = [];
    for (let i = 0; i < 3; i++) unreviewed.push((await addResponse(t.app, ada, survey, { rate: 100 })).id);
    const audioWaiting = await withAudio(ada, 100, null);
    const audioJudged = await withAudio(ada, 100, 'matches');
    // Bayo: 1 audio waiting, 1 arrived approved with audio waiting (counted once, as not reviewed).
    const bayoAudio = await withAudio(bayo, 250, null);
    const bayoBoth = (await addResponse(t.app, bayo, survey, { rate: 250 })).id;
    await k().updateTable('responses').set({ audio: 'recorded' }).where('id', '=', bayoBoth).execute();
    await approve([...reviewed, audioWaiting, audioJudged, bayoAudio]);

    // Before the gate, all of them would be paid.
    const ungated = await call(t.app, org.token, { method: 'GET', url: `/api/v1/payouts/held?survey_id=${survey.id}` });
    expect(ungated.json()).toEqual({ held: [], fieldUsers: [] });

    const gate = await call(t.app, org.token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: { payGate: { approved: true, audioReviewed: true } } });
    expect(gate.statusCode, gate.body).toBe(200);
    expect(gate.json().payGate).toEqual({ approved: true, audioReviewed: true, backcheck: false });

    const expected = [{ reason: 'not_reviewed', count: 4, amount: 550 }, { reason: 'audio_not_reviewed', count: 2, amount: 350 }];
    const preview = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/payouts/held?survey_id=${survey.id}` })).json();
    expect(preview.held).toEqual(expected);
    expect(preview.fieldUsers).toEqual([
      { fieldUserId: ada.id, fullName: 'Ada Obi', held: [{ reason: 'not_reviewed', count: 3, amount: 300 }, { reason: 'audio_not_reviewed', count: 1, amount: 100 }] },
      { fieldUserId: bayo.id, fullName: 'Bayo Ade', held: [{ reason: 'not_reviewed', count: 1, amount: 250 }, { reason: 'audio_not_reviewed', count: 1, amount: 250 }] },
    ]);

    // The field user's earnings hold the same naira for the same reasons, and each response says why.
    const earnings = (await call(t.app, ada.token, { method: 'GET', url: '/api/v1/me/earnings' })).json();
    expect(earnings.owed).toEqual({ count: 7, amount: 700 });
    expect(earnings.held).toEqual(preview.fieldUsers[0].held);
    const mine = (await call(t.app, ada.token, { method: 'GET', url: '/api/v1/me/responses' })).json().responses as { _id: string; held?: string }[];
    const heldById = Object.fromEntries(mine.map((r) => [r._id, r.held ?? null]));
    for (const id of unreviewed) expect(heldById[id]).toBe('not_reviewed');
    expect(heldById[audioWaiting]).toBe('audio_not_reviewed');
    expect(heldById[audioJudged]).toBeNull();
    expect((await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${audioWaiting}` })).json().held).toEqual(['audio_not_reviewed']);

    // The payout takes exactly the rest, and says what it left out.
    const created = await call(t.app, org.token, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: survey.id, key: randomUUID() } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().held).toEqual(expected);
    expect(created.json().payout).toMatchObject({ total: 300, responseCount: 3 });
    const items = await k().selectFrom('payout_items').select('response_id').where('payout_id', '=', created.json().payout._id).execute();
    expect(items.map((i) => i.response_id).sort()).toEqual([...reviewed, audioJudged].sort());

    // A verdict lifts the hold: the next payout takes it.
    await k().updateTable('audio_audits').set({ verdict: 'matches' }).where('response_id', '=', audioWaiting).execute();
    const next = await call(t.app, org.token, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: survey.id, key: randomUUID(), fieldUserIds: [ada.id] } });
    expect(next.json().payout).toMatchObject({ total: 100, responseCount: 1 });
    expect(next.json().held).toEqual([{ reason: 'not_reviewed', count: 3, amount: 300 }]);
  });

  it('is the organization\'s: another organization and a supervisor cannot read the preview', async () => {
    const survey = await createSurvey(t.app, org.id);
    const other = await createOrganization(t.app, 'Other');
    expect((await call(t.app, other.token, { method: 'GET', url: `/api/v1/payouts/held?survey_id=${survey.id}` })).statusCode).toBe(404);
    const sup = await addMember(t.app, survey.id, org.id, { role: Role.supervisor });
    expect((await call(t.app, sup.token, { method: 'GET', url: `/api/v1/payouts/held?survey_id=${survey.id}` })).statusCode).toBe(403);
  });
});

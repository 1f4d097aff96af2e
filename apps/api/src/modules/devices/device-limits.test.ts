import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_REPORTS_PER_MINUTE, DeviceMsg, MAX_DEVICES_PER_USER, type FieldUser } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Device Limits Org');
  surveyId = (await createSurvey(t.app, org.id)).id;
});
afterAll(() => t.close());

const report = (token: string | null, deviceId: string, waiting = 1) =>
  call(t.app, token, { method: 'POST', url: '/api/v1/me/device', payload: { deviceId, appVersion: '2026.11.25', waiting, failed: 1, photosWaiting: 0, lastSyncAt: null } });
const deviceOf = async (memberId: string) => ((await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${surveyId}` })).json().fieldUsers as FieldUser[]).find((r) => r._id === memberId)!.device;
const tick = () => new Promise((r) => setTimeout(r, 2));

describe('device reports are bounded per field user', () => {
  it(`keeps the ${MAX_DEVICES_PER_USER} most recently reported phones; older ones age out of the team figures`, async () => {
    const ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada Many Phones' });
    for (let i = 0; i < 3 * MAX_DEVICES_PER_USER; i++) {
      expect((await report(ada.token, `made-up-${i}`, 10)).statusCode).toBe(200);
      await tick();
    }
    expect(await deviceOf(ada.id)).toMatchObject({ devices: MAX_DEVICES_PER_USER, waiting: 10 * MAX_DEVICES_PER_USER, failed: MAX_DEVICES_PER_USER });
    // A phone that reports again is recent again: it stays, the oldest of the others goes.
    expect((await report(ada.token, `made-up-${2 * MAX_DEVICES_PER_USER}`, 0)).statusCode).toBe(200);
    await tick();
    expect((await report(ada.token, 'a-new-phone', 0)).statusCode).toBe(200);
    const kept = await t.app.db.kysely.selectFrom('device_status').select('device_id').where('user_id', '=', ada.userId!).execute();
    expect(kept.map((r) => r.device_id).sort()).toEqual(['a-new-phone', 'made-up-10', 'made-up-12', 'made-up-13', 'made-up-14']);
  });

  it(`answers 429 past ${DEVICE_REPORTS_PER_MINUTE} reports a minute from one account, and only that account`, async () => {
    const bayo = await addMember(t.app, surveyId, org.id, { fullName: 'Bayo Flood' });
    const chika = await addMember(t.app, surveyId, org.id, { fullName: 'Chika Calm' });
    for (let i = 0; i < DEVICE_REPORTS_PER_MINUTE; i++) expect((await report(bayo.token, 'phone')).statusCode).toBe(200);
    const refused = await report(bayo.token, 'phone');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ msg: DeviceMsg.tooManyReports });
    expect((await report(chika.token, 'phone')).statusCode).toBe(200);
  });
});

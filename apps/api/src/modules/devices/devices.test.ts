import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, type FieldUser } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
let surveyId: string;
let ada: Awaited<ReturnType<typeof addMember>>;
let bayo: Awaited<ReturnType<typeof addMember>>;
let supervisor: Awaited<ReturnType<typeof addMember>>;
let otherSupervisor: Awaited<ReturnType<typeof addMember>>;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app, 'Devices Org');
  other = await createOrganization(t.app, 'Other Org');
  surveyId = (await createSurvey(t.app, org.id)).id;
  supervisor = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Sade Supervisor' });
  otherSupervisor = await addMember(t.app, surveyId, org.id, { role: Role.supervisor, fullName: 'Tunde Supervisor' });
  ada = await addMember(t.app, surveyId, org.id, { fullName: 'Ada Field', supervisorId: supervisor.id });
  bayo = await addMember(t.app, surveyId, org.id, { fullName: 'Bayo Field' });
});
afterAll(() => t.close());

const report = (token: string | null, payload: unknown) => call(t.app, token, { method: 'POST', url: '/api/v1/me/device', payload: payload as object });
const base = { deviceId: 'phone-1', appVersion: '2026.11.25', waiting: 3, failed: 1, photosWaiting: 2, storageUsed: 5_000_000, storageQuota: 900_000_000, lastSyncAt: '2026-11-20T08:00:00.000Z' };
const orgList = async () => (await call(t.app, org.token, { method: 'GET', url: `/api/v1/field-user/${surveyId}` })).json().fieldUsers as FieldUser[];

describe('field-team monitoring: what each phone reports at a sync (issue 18)', () => {
  it("shows a field user's phones, summed, to their organization and their own supervisor only", async () => {
    expect((await report(ada.token, base)).statusCode).toBe(200);
    expect((await report(ada.token, { ...base, deviceId: 'phone-2', appVersion: '2026.11.26', waiting: 2, failed: 0, photosWaiting: 0, lastSyncAt: '2026-11-24T09:30:00.000Z' })).statusCode).toBe(200);

    const rows = await orgList();
    const adaRow = rows.find((r) => r._id === ada.id)!;
    expect(adaRow.device).toMatchObject({ lastSyncAt: '2026-11-24T09:30:00.000Z', waiting: 5, failed: 1, photosWaiting: 2, appVersion: '2026.11.26', devices: 2 });
    expect(rows.find((r) => r._id === bayo.id)!.device).toBeNull();

    const mine = (await call(t.app, supervisor.token, { method: 'GET', url: `/api/v1/supervisor/field-user/${surveyId}` })).json().fieldUsers as FieldUser[];
    expect(mine.map((r) => [r._id, r.device?.waiting])).toEqual([[ada.id, 5]]);
    const notMine = (await call(t.app, otherSupervisor.token, { method: 'GET', url: `/api/v1/supervisor/field-user/${surveyId}` })).json().fieldUsers as FieldUser[];
    expect(notMine).toEqual([]);
    expect((await call(t.app, other.token, { method: 'GET', url: `/api/v1/field-user/${surveyId}` })).statusCode).toBe(404);
  });

  it('keeps the latest report per device, and a later sync replaces the counts', async () => {
    expect((await report(ada.token, { ...base, waiting: 0, failed: 0, photosWaiting: 0, lastSyncAt: '2026-11-25T10:00:00.000Z' })).statusCode).toBe(200);
    const adaRow = (await orgList()).find((r) => r._id === ada.id)!;
    expect(adaRow.device).toMatchObject({ lastSyncAt: '2026-11-25T10:00:00.000Z', waiting: 2, failed: 0, photosWaiting: 0, devices: 2 });
  });

  it('never takes a last sync from the future: a fast phone clock reads as the time the server heard it', async () => {
    const before = Date.now();
    expect((await report(bayo.token, { ...base, lastSyncAt: '2099-01-01T00:00:00.000Z' })).statusCode).toBe(200);
    const synced = Date.parse((await orgList()).find((r) => r._id === bayo.id)!.device!.lastSyncAt!);
    expect(synced).toBeGreaterThanOrEqual(before);
    expect(synced).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['a negative count', { ...base, waiting: -1 }, 'waiting must be a whole number'],
    ['a count in hex', { ...base, failed: '0x10' }, 'failed must be a whole number'],
    ['a fraction', { ...base, photosWaiting: 1.5 }, 'photosWaiting must be a whole number'],
    ['no device id', { ...base, deviceId: '' }, 'deviceId is required'],
    ['a date that is not one', { ...base, lastSyncAt: 'yesterday' }, 'lastSyncAt must be an ISO date and time'],
  ])('refuses %s with a clear 400', async (_, payload, msg) => {
    const res = await report(ada.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(msg);
  });

  it('is for field users only', async () => {
    expect((await report(org.token, base)).statusCode).toBe(403);
    expect((await report(supervisor.token, base)).statusCode).toBe(403);
    expect((await report(null, base)).statusCode).toBe(401);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_AUDIT_KIND, AudioLimits, audioAuditKey, audioAuditSelected, QualityFlag } from '@survey-bird/contracts';
import { uuidv7 } from '@survey-bird/contracts/ids';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { TUS } from '../../../test/tus.js';

/**
 * Audio audits on the engine the run is on (SQLite, or PostgreSQL with TEST_DATABASE_URL): the
 * survey setting, the selection rule the server re-derives, the clip through the resumable path
 * attached to its own response, the reviewer's verdict, and the audio_unavailable flag.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** The first bytes of a WebM file (the EBML magic), then noise: what the server sniffs. */
const clip = (size: number) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(size - 4)]);
const CONSENT = 'This interview is recorded for quality checks. Do you agree?';

describe('audio audits', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let survey: { id: string };
  let fu: Awaited<ReturnType<typeof addMember>>;
  let always: Awaited<ReturnType<typeof addMember>>;
  let sup: Awaited<ReturnType<typeof addMember>>;
  let otherSup: Awaited<ReturnType<typeof addMember>>;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.services.flags.worker.stop();
    org = await createOrganization(t.app);
    survey = await createSurvey(t.app, org.id);
    sup = await addMember(t.app, survey.id, org.id, { role: 'supervisor' });
    otherSup = await addMember(t.app, survey.id, org.id, { role: 'supervisor' });
    fu = await addMember(t.app, survey.id, org.id, { supervisorId: sup.id, rate: 500 });
    always = await addMember(t.app, survey.id, org.id, { rate: 500 });
  });
  afterAll(() => t.close());

  const settings = (body: object, token: string | null = org.token) => call(t.app, token, { method: 'PATCH', url: `/api/v1/survey/${survey.id}/settings`, payload: body });
  const respond = (token: string | null, clientId: string, audio?: unknown) => call(t.app, token, {
    method: 'POST', url: '/api/v1/survey/respond',
    payload: { survey_id: survey.id, organization_id: org.id, clientId, answers: { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' }, ...(audio ? { audio } : {}) },
  });
  const create = (clientId: string, size: number, token = fu.token) => call(t.app, token, {
    method: 'POST', url: TUS,
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'upload-metadata': [`kind ${b64(AUDIO_AUDIT_KIND)}`, `survey_id ${b64(survey.id)}`, `organization_id ${b64(org.id)}`, `clientId ${b64(clientId)}`].join(',') },
  });
  const patch = (location: string, offset: number, data: Buffer, token = fu.token) => call(t.app, token, { method: 'PATCH', url: location, payload: data, headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' } });
  const head = (location: string) => call(t.app, fu.token, { method: 'HEAD', url: location, headers: { 'tus-resumable': '1.0.0' } });
  const responseOf = (clientId: string) => t.app.db.kysely.selectFrom('responses').select(['id', 'audio', 'status', 'review_comment']).where('client_id', '=', clientId).executeTakeFirstOrThrow();
  const recorded = (bytes: Buffer) => ({ status: 'recorded', consent: true, size: bytes.length, sha256: sha(bytes), durationMs: 61_000, mime: 'audio/webm;codecs=opus' });

  it('is a survey setting with a seed kept across changes; bad values are 400 with the field named', async () => {
    const on = await settings({ audioAudit: { percent: 20, consentText: CONSENT, alwaysFieldUserIds: [always.id] } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().audioAudit).toEqual({ percent: 20, consentText: CONSENT, alwaysFieldUserIds: [always.id], seed: expect.any(String) });
    const seed = on.json().audioAudit.seed as string;
    const again = await settings({ audioAudit: { percent: 25, consentText: CONSENT, alwaysFieldUserIds: [always.id] } });
    expect(again.json().audioAudit.seed).toBe(seed);
    expect((await settings({ audioAudit: { percent: 101, consentText: CONSENT } })).json().msg).toMatch(/audioAudit.percent/);
    expect((await settings({ audioAudit: { percent: 10, consentText: ' ' } })).json().msg).toMatch(/consentText/);
    const stranger = await settings({ audioAudit: { percent: 10, consentText: CONSENT, alwaysFieldUserIds: [sup.id] } });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().msg).toMatch(/field users of this survey/);
    // A field user's phone learns only whether they themselves are always recorded.
    const list = async (token: string | null) => (await call(t.app, token, { method: 'GET', url: '/api/v1/survey/field-user' })).json().survey[0].audioAudit;
    expect(await list(fu.token)).toEqual({ percent: 25, consentText: CONSENT, seed, alwaysFieldUserIds: [] });
    expect((await list(always.token)).alwaysFieldUserIds).toEqual([always.id]);
    await settings({ audioAudit: { percent: 20, consentText: CONSENT, alwaysFieldUserIds: [always.id] } });
  });

  it('selects about the percentage, reproducibly from the seed, and the server re-derives the phone\'s decision', async () => {
    const seed = randomBytes(16).toString('hex');
    const ids = Array.from({ length: 1000 }, () => uuidv7());
    const picks = ids.map((id) => audioAuditSelected(sha(Buffer.from(audioAuditKey(seed, id))), 20));
    const share = picks.filter(Boolean).length / ids.length;
    expect(share).toBeGreaterThan(0.16);
    expect(share).toBeLessThan(0.24);
    expect(ids.map((id) => audioAuditSelected(sha(Buffer.from(audioAuditKey(seed, id))), 20))).toEqual(picks);

    // Responses that say nothing of audio: stored `not_reported` exactly where the survey's rule selects them.
    const surveySeed = JSON.parse((await t.app.db.kysely.selectFrom('surveys').select('audio_audit').where('id', '=', survey.id).executeTakeFirstOrThrow()).audio_audit!).seed as string;
    for (let i = 0; i < 30; i++) {
      const clientId = uuidv7();
      expect((await respond(fu.token, clientId)).statusCode).toBe(200);
      const selected = audioAuditSelected(sha(Buffer.from(audioAuditKey(surveySeed, clientId))), 20);
      expect((await responseOf(clientId)).audio).toBe(selected ? 'not_reported' : null);
    }
    // The field user always recorded: every interview.
    const clientId = uuidv7();
    await respond(always.token, clientId);
    expect((await responseOf(clientId)).audio).toBe('not_reported');
  });

  it('takes the clip through the resumable path after its response, resumes, and attaches it to that response only', async () => {
    const bytes = clip(300 * 1024);
    const mine = uuidv7();
    const neighbour = uuidv7();
    // Before its response the clip has nothing to attach to.
    expect((await create(mine, bytes.length)).json().msg).toBe('Send the response before its audio audit');
    expect((await respond(fu.token, mine, recorded(bytes))).statusCode).toBe(200);
    expect((await respond(fu.token, neighbour, recorded(clip(1000)))).statusCode).toBe(200);
    // Bounded before any byte: another size than the response named, or past the limit.
    expect((await create(mine, bytes.length + 1)).statusCode).toBe(400);
    expect((await create(mine, AudioLimits.maxBytes + 1)).statusCode).toBe(413);
    // Another field user cannot send it.
    expect((await create(mine, bytes.length, always.token)).statusCode).toBe(400);

    const created = await create(mine, bytes.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    const half = 123_457;
    expect((await patch(location, 0, bytes.subarray(0, half))).statusCode).toBe(204);
    expect((await head(location)).headers['upload-offset']).toBe(String(half));
    const rest = await patch(location, half, bytes.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    // The reply names no file: the field user never gets the clip back.
    expect(rest.headers['photo-reference']).toBeUndefined();

    const row = await responseOf(mine);
    const audits = await t.app.db.kysely.selectFrom('audio_audits').selectAll().execute();
    expect(audits.map((a) => a.response_id)).toEqual([row.id]);
    const fileId = audits[0]!.file_id!;
    expect((await call(t.app, fu.token, { method: 'GET', url: `/api/v1/files/image/${fileId}` })).statusCode).toBe(404);
    expect((await create(mine, bytes.length)).statusCode).toBe(409);

    // Its reviewers hear it: the organization and the field user's supervisor; not another supervisor.
    const played = await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${row.id}/audio` });
    expect(played.statusCode).toBe(200);
    expect(played.headers['content-type']).toBe('audio/webm');
    expect(played.rawPayload.equals(bytes)).toBe(true);
    expect((await call(t.app, sup.token, { method: 'GET', url: `/api/v1/responses/${row.id}/audio` })).statusCode).toBe(200);
    expect((await call(t.app, otherSup.token, { method: 'GET', url: `/api/v1/responses/${row.id}/audio` })).statusCode).toBe(404);
    const neighbourRow = await responseOf(neighbour);
    expect((await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${neighbourRow.id}/audio` })).statusCode).toBe(404);

    const detail = (await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${row.id}` })).json();
    expect(detail.audioAudit).toMatchObject({ status: 'recorded', consent: true, durationMs: 61_000, uploaded: true, verdict: null });
    expect((await call(t.app, org.token, { method: 'GET', url: `/api/v1/responses/${neighbourRow.id}` })).json().audioAudit.uploaded).toBe(false);
  });

  it('refuses bytes that are not an Opus container, and a recorded clip without consent', async () => {
    const noise = Buffer.concat([Buffer.from('RIFF'), randomBytes(2000)]);
    const clientId = uuidv7();
    await respond(fu.token, clientId, recorded(noise));
    const location = (await create(clientId, noise.length)).headers.location as string;
    expect((await patch(location, 0, noise)).statusCode).toBe(415);
    const refused = await respond(fu.token, uuidv7(), { ...recorded(noise), consent: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toMatch(/consent/);
  });

  it('"does not match" returns the response with the reason; "matches" is recorded; both audited', async () => {
    const bytes = clip(5000);
    const clientId = uuidv7();
    await respond(fu.token, clientId, recorded(bytes));
    const location = (await create(clientId, bytes.length)).headers.location as string;
    expect((await patch(location, 0, bytes)).statusCode).toBe(204);
    const { id } = await responseOf(clientId);
    const review = (body: object, token: string | null = org.token) => call(t.app, token, { method: 'POST', url: `/api/v1/responses/${id}/audio/review`, payload: body });
    expect((await review({ verdict: 'does_not_match' })).statusCode).toBe(400);
    expect((await review({ verdict: 'matches' }, otherSup.token)).statusCode).toBe(404);
    const no = await review({ verdict: 'does_not_match', status: 'returned', reason: 'The recording is of another household' });
    expect(no.statusCode, no.body).toBe(200);
    expect(no.json().audioAudit).toMatchObject({ verdict: 'does_not_match', note: 'The recording is of another household' });
    const row = await responseOf(clientId);
    expect(row.status).toBe('returned');
    expect(row.review_comment).toBe('Audio audit does not match: The recording is of another household');
    const events = await t.app.db.kysely.selectFrom('audit_events').select('action').where('target_id', '=', id).execute();
    expect(events.map((e) => e.action).sort()).toEqual(['response.audio_review', 'response.review']);
  });

  it('flags audio_unavailable when the phone could not record or said nothing of a selected interview; a refusal is no flag', async () => {
    const unavailable = uuidv7();
    await respond(fu.token, unavailable, { status: 'unavailable', reason: 'microphone permission denied' });
    const declined = uuidv7();
    await respond(fu.token, declined, { status: 'declined', consent: false });
    const silent = uuidv7();
    await respond(always.token, silent);
    await t.app.services.flags.worker.drain();
    const flagsOf = async (clientId: string) => {
      const { id } = await responseOf(clientId);
      return (await t.app.db.kysely.selectFrom('response_flags').select(['flag', 'reason']).where('response_id', '=', id).execute()).filter((f) => f.flag === QualityFlag.audioUnavailable);
    };
    expect(await flagsOf(unavailable)).toEqual([{ flag: 'audio_unavailable', reason: 'Selected for an audio audit; the phone could not record (microphone permission denied)' }]);
    expect(await flagsOf(declined)).toEqual([]);
    expect((await flagsOf(silent)).length).toBe(1);
  });
});

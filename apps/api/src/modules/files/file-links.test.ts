import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../../test/helpers.js';
import { tinyJpeg } from '../../../test/images.js';
import { checkFileLink, fileLinkKey, fileLinkSignature, linkExpiry, signedQuery } from './file-links.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let other: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let supervisor: Awaited<ReturnType<typeof addMember>>;
let otherSupervisor: Awaited<ReturnType<typeof addMember>>;
let member: Awaited<ReturnType<typeof addMember>>;
let stranger: Awaited<ReturnType<typeof addMember>>;
let photoId: string;
const PHOTO = 'Shelf photo';
const DAY_S = 86_400;

function multipart(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sb${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${PHOTO}"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const key = () => fileLinkKey(t.config.jwtSecret, t.config.fileLinkSecret);
const get = (url: string, token: string | null = null) => call(t.app, token, { method: 'GET', url });

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  other = await createOrganization(t.app, 'Other Research');
  survey = await createSurvey(t.app, org.id);
  supervisor = await addMember(t.app, survey.id, org.id, { role: Role.supervisor });
  otherSupervisor = await addMember(t.app, survey.id, org.id, { role: Role.supervisor });
  member = await addMember(t.app, survey.id, org.id, { supervisorId: supervisor.id });
  stranger = await addMember(t.app, survey.id, org.id, { supervisorId: otherSupervisor.id });
  const res = await call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...multipart({ question: PHOTO, survey_name: survey.id, organization_name: org.id, clientId: randomUUID() }, tinyJpeg()) });
  expect(res.statusCode).toBe(200);
  photoId = (res.json()[PHOTO] as string).split('/').pop()!;
});
afterAll(() => t.close());

describe('signing', () => {
  it('accepts its own signature until expiry, refuses an altered id, expiry or signature', () => {
    const k = key();
    const exp = linkExpiry(30, Date.UTC(2026, 0, 1));
    expect(exp).toBe(Date.UTC(2026, 0, 31) / 1000);
    const sig = fileLinkSignature(k, 'abc', exp);
    expect(checkFileLink(k, 'abc', String(exp), sig, Date.UTC(2026, 0, 30))).toBe('ok');
    expect(checkFileLink(k, 'abc', String(exp), sig, Date.UTC(2026, 0, 31))).toBe('expired');
    expect(checkFileLink(k, 'abd', String(exp), sig, Date.UTC(2026, 0, 30))).toBe('bad');
    expect(checkFileLink(k, 'abc', String(exp + 1), sig, Date.UTC(2026, 0, 30))).toBe('bad');
    expect(checkFileLink(k, 'abc', String(exp), sig.replace(/^./, (c) => (c === '0' ? '1' : '0')), Date.UTC(2026, 0, 30))).toBe('bad');
    expect(checkFileLink(k, 'abc', String(exp), 'zz', Date.UTC(2026, 0, 30))).toBe('bad');
    expect(checkFileLink(fileLinkKey('another secret'), 'abc', String(exp), sig, Date.UTC(2026, 0, 30))).toBe('bad');
  });
});

describe('GET /files/image/:id', () => {
  it('answers 410 to a bare link without a session, saying to export again; 404 for an id never stored', async () => {
    const bare = await get(`/api/v1/files/image/${photoId}`);
    expect(bare.statusCode).toBe(410);
    expect(bare.json()).toMatchObject({ msg: ApiMsg.imageLinkUnsigned });
    expect(ApiMsg.imageLinkUnsigned).toMatch(/Export the responses again/);
    expect((await get(`/api/v1/files/image/${'A'.repeat(43)}`)).statusCode).toBe(404);
  });

  it('serves a signed link to anyone until it expires (403 after), and refuses a tampered one (403)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ok = await get(`/api/v1/files/image/${photoId}?${signedQuery(key(), photoId, now + 30 * DAY_S)}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/jpeg');
    expect(Number(/max-age=(\d+)/.exec(String(ok.headers['cache-control']))![1])).toBeLessThanOrEqual(30 * DAY_S);

    const expired = await get(`/api/v1/files/image/${photoId}?${signedQuery(key(), photoId, now - 1)}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ msg: ApiMsg.imageLinkExpired });

    const exp = now + DAY_S;
    const sig = fileLinkSignature(key(), photoId, exp);
    const tampered = [
      `exp=${exp + DAY_S}&sig=${sig}`,
      `exp=${exp}&sig=${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`,
      `exp=${exp}&sig=${fileLinkSignature('guessed', photoId, exp)}`,
      `exp=${exp}`,
      `sig=${sig}`,
      `exp=${exp}&sig=`,
    ];
    for (const query of tampered) {
      const res = await get(`/api/v1/files/image/${photoId}?${query}`);
      expect(res.statusCode, query).toBe(403);
      expect(res.json(), query).toMatchObject({ msg: ApiMsg.imageLinkInvalid });
    }
    // Another photo's signature opens nothing else.
    const otherId = 'B'.repeat(43);
    expect((await get(`/api/v1/files/image/${otherId}?exp=${exp}&sig=${sig}`)).statusCode).toBe(403);
  });

  it('serves a bare link with a session to the uploader, their supervisor and the organization; 404 to the rest', async () => {
    for (const [who, token] of [['field user', member.token], ['their supervisor', supervisor.token], ['organization', org.token]] as const) {
      const res = await get(`/api/v1/files/image/${photoId}`, token);
      expect(res.statusCode, who).toBe(200);
      expect(res.headers['content-type'], who).toBe('image/jpeg');
    }
    for (const [who, token] of [['another team\'s supervisor', otherSupervisor.token], ['another field user', stranger.token], ['another organization', other.token]] as const) {
      const res = await get(`/api/v1/files/image/${photoId}`, token);
      expect(res.statusCode, who).toBe(404);
      expect(res.json(), who).toMatchObject({ msg: ApiMsg.imageNotFound });
    }
    expect((await get(`/api/v1/files/image/${photoId}`, 'not-a-token')).statusCode).toBe(401);
  });

  it('honours FILE_LINK_TTL_DAYS', async () => {
    const { loadConfig } = await import('../../config.js');
    expect(loadConfig({ DATA_DIR: t.config.dataDir, JWT_SECRET: 'x' }).fileLinkTtlDays).toBe(30);
    expect(loadConfig({ DATA_DIR: t.config.dataDir, JWT_SECRET: 'x', FILE_LINK_TTL_DAYS: '7' }).fileLinkTtlDays).toBe(7);
  });
});

describe('exports', () => {
  it('place signed links that expire FILE_LINK_TTL_DAYS from the export, fresh at each export', async () => {
    const ref = { id: survey.id, organizationId: org.id };
    await addResponse(t.app, member, ref, { answers: { 'Name of outlet': 'Mama Put', [PHOTO]: `${t.config.publicUrl}/api/v1/files/image/${photoId}` } });
    const res = await get(`/api/v1/survey/organization/response/download/${survey.id}`, org.token);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    let link: string | undefined;
    book.worksheets[0]!.eachRow((row) => row.eachCell((cell) => {
      const v = cell.value as { hyperlink?: string } | null;
      if (v && typeof v === 'object' && v.hyperlink?.includes('/files/image/')) link = v.hyperlink;
    }));
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe(`/api/v1/files/image/${photoId}`);
    const exp = Number(url.searchParams.get('exp'));
    const now = Date.now() / 1000;
    expect(exp).toBeGreaterThan(now + 30 * DAY_S - 120);
    expect(exp).toBeLessThanOrEqual(now + 30 * DAY_S + 1);
    expect(url.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    const got = await get(url.pathname + url.search);
    expect(got.statusCode).toBe(200);
  });
});

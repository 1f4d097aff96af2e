import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Limits, Msg } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../apps/api/test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../apps/api/test/helpers.js';
import { tinyJpeg, tinyPng } from '../../apps/api/test/images.js';

/**
 * Hostile uploads to POST /api/v1/files/image, beyond apps/api/src/modules/files/upload.test.ts.
 * After every case the whole DATA_DIR tree is compared with the one before: the only new entries
 * allowed are accepted photos directly in DATA_DIR/uploads under a generated name.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof createOrganization>>;
let survey: { id: string };
let member: Awaited<ReturnType<typeof addMember>>;
const PHOTO = 'Shelf photo';

beforeAll(async () => {
  t = await buildTestApp();
  org = await createOrganization(t.app);
  survey = await createSurvey(t.app, org.id);
  member = await addMember(t.app, survey.id, org.id);
});
afterAll(() => t.close());

interface Part { name: string; value?: string; filename?: string; type?: string; data?: Buffer; rawHeaders?: string }

function multipart(parts: Part[], boundary = `----sb${randomUUID()}`) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.rawHeaders ?? `Content-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}${p.type ? `\r\nContent-Type: ${p.type}` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\n${disposition}\r\n\r\n`, 'latin1'), p.data ?? Buffer.from(p.value ?? '', 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const fields = (extra: Partial<Record<string, string>> = {}): Part[] =>
  Object.entries({ question: PHOTO, survey_name: survey.id, organization_name: org.id, clientId: randomUUID(), ...extra })
    .filter(([, v]) => v !== undefined)
    .map(([name, value]) => ({ name, value }));
const file = (data: Buffer, filename = 'photo.jpg', type = 'image/jpeg', name = PHOTO): Part => ({ name, filename, type, data });

function post(body: { payload: Buffer; headers: Record<string, string> }) {
  return call(t.app, member.token, { method: 'POST', url: '/api/v1/files/image', ...body });
}

/** Every file and folder under `root`, relative, with its size. */
function tree(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      out.set(relative(root, path), e.isDirectory() ? -1 : statSync(path).size);
      if (e.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}
/** Entries of the parent of DATA_DIR whose names an attacker chose in these tests. */
const besideDataDir = () => readdirSync(dirname(t.config.dataDir)).filter((n) => /evil|passwd|shell|\.php|\.html|\.svg/i.test(n));
const storedPhotos = () => [...tree(join(t.config.dataDir, 'uploads')).keys()].filter((n) => !n.startsWith('.'));

/** Sends the upload and checks the tree: no new file at all, or exactly one generated photo when accepted. */
async function attempt(label: string, body: { payload: Buffer; headers: Record<string, string> }) {
  const before = tree(t.config.dataDir);
  const outside = besideDataDir();
  const res = await post(body);
  const after = tree(t.config.dataDir);
  const added = [...after.keys()].filter((k) => !before.has(k) && !/^survey-bird\.sqlite(-wal|-shm|-journal)?$/.test(k));
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  expect(res.headers['content-type'], label).toMatch(/^application\/json/);
  expect(Object.keys(res.json()).length, label).toBeGreaterThan(0);
  if (res.statusCode === 200) {
    expect(added, label).toHaveLength(1);
    expect(added[0], label).toMatch(/^uploads\/[A-Za-z0-9_-]{43}\.(jpg|png|webp)$/);
  } else {
    expect(added, label).toEqual([]);
    expect(Object.keys(res.json()), label).toEqual(['msg', 'code']);
  }
  expect(besideDataDir(), label).toEqual(outside);
  expect(readdirSync(join(t.config.dataDir, 'uploads')).filter((n) => n.startsWith('.tmp-')), `${label}: temp files left`).toEqual([]);
  return res;
}

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
const PHP = Buffer.from('<?php system($_GET["cmd"]); ?>');
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from(';')]);

describe('OWASP ASVS 5.0 V5.2 (file upload and content) and API8:2023 Security Misconfiguration: hostile uploads', () => {
  it('refuses files lying about their type with 415', async () => {
    const liars: [string, Buffer, string, string][] = [
      ['PHP', PHP, 'photo.jpg', 'image/jpeg'],
      ['HTML', HTML, 'photo.jpg', 'image/jpeg'],
      ['SVG with script', SVG, 'photo.jpg', 'image/jpeg'],
      ['SVG declared as SVG', SVG, 'photo.svg', 'image/svg+xml'],
      ['PDF with JavaScript', PDF, 'photo.jpg', 'image/jpeg'],
      ['GIF', GIF, 'photo.jpg', 'image/jpeg'],
      ['ELF binary', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(64)]), 'photo.jpg', 'image/jpeg'],
      ['ZIP', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64)]), 'photo.jpg', 'image/jpeg'],
      ['empty file', Buffer.alloc(0), 'photo.jpg', 'image/jpeg'],
      ['PHP named shell.php.jpg', PHP, 'shell.php.jpg', 'application/x-php'],
    ];
    for (const [label, data, filename, type] of liars) {
      const res = await attempt(label, multipart([...fields(), file(data, filename, type)]));
      expect(res.statusCode, label).toBe(415);
      expect(res.json(), label).toMatchObject({ msg: ApiMsg.unsupportedImage });
    }
  });

  it('refuses polyglots that only start like an image, and serves a JPEG with trailing HTML as nothing but a JPEG', async () => {
    const polyglots: [string, Buffer][] = [
      ['JPEG magic + HTML', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), HTML])],
      ['JPEG magic + APP0 + HTML', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\u0000'), HTML])],
      ['PNG signature + HTML', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), HTML])],
      ['RIFF/WEBP + PHP', Buffer.concat([Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), PHP, Buffer.alloc(16)])],
      ['JPEG magic + EOI + PHP', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xd9]), PHP])],
    ];
    for (const [label, data] of polyglots) {
      const res = await attempt(label, multipart([...fields(), file(data)]));
      expect(res.statusCode, label).toBe(415);
      expect(res.json(), label).toMatchObject({ msg: ApiMsg.unsupportedImage });
    }
    // A real JPEG with HTML after its end is a JPEG: it is stored, but only ever served as image/jpeg with nosniff.
    const res = await attempt('valid JPEG + trailing HTML', multipart([...fields(), file(Buffer.concat([tinyJpeg(), HTML]), 'evil.html', 'text/html')]));
    expect(res.statusCode).toBe(200);
    const got = await call(t.app, member.token, { method: 'GET', url: new URL(res.json()[PHOTO]).pathname });
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toContain("default-src 'self'");
    expect(got.headers['content-disposition'] ?? '').not.toMatch(/html/);
  });

  it('refuses oversized files with 413 before keeping anything', async () => {
    for (const [label, size] of [['10 MB + 1 byte', Limits.maxImageBytes + 1], ['12 MB', 12 * 1024 * 1024], ['30 MB', 30 * 1024 * 1024]] as const) {
      const data = Buffer.concat([tinyJpeg(), Buffer.alloc(size - tinyJpeg().length, 0x41)]);
      const res = await attempt(label, multipart([...fields(), file(data)]));
      expect(res.statusCode, label).toBe(413);
      expect(res.json(), label).toMatchObject({ msg: Msg.payloadTooLarge });
    }
  });

  it('refuses pixel floods (60000 x 60000 declared in a tiny PNG or JPEG header) with 400', async () => {
    const floods: [string, Buffer][] = [
      ['PNG 60000x60000', tinyPng(1, 1, { declaredWidth: 60_000, declaredHeight: 60_000 })],
      ['PNG 2^31 x 1', tinyPng(1, 1, { declaredWidth: 2 ** 31 - 1, declaredHeight: 1 })],
      ['PNG 1 x 60000000', tinyPng(1, 1, { declaredWidth: 1, declaredHeight: 60_000_000 })],
      ['JPEG 60000x60000 header only', tinyJpeg(60_000, 60_000, { headerOnly: true })],
      ['JPEG 65535x65535 header only', tinyJpeg(65_535, 65_535, { headerOnly: true })],
    ];
    for (const [label, data] of floods) {
      const res = await attempt(label, multipart([...fields(), file(data)]));
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toMatchObject({ msg: ApiMsg.imageTooManyPixels });
    }
  });

  it('never writes where a filename, field name or field value points', async () => {
    const names = ['../../evil.jpg', '../../../../../../tmp/evil-abs.jpg', '/tmp/evil-abs2.jpg', '..\\..\\evil-win.jpg', 'C:\\evil\\shell.php', '%2e%2e%2fevil.jpg', 'uploads/../../evil.jpg', './.tmp-evil'];
    for (const filename of names) {
      const res = await attempt(`filename ${filename}`, multipart([...fields(), file(tinyJpeg(), filename)]));
      expect(res.statusCode, filename).toBe(200);
    }
    for (const [field, value] of [['survey_name', '../../uploads'], ['survey_name', '/etc/passwd'], ['organization_name', '../../../evil'], ['question', '../../evil.jpg'], ['question', '/tmp/evil-q.jpg'], ['clientId', '../../evil']] as const) {
      const res = await attempt(`${field}=${value}`, multipart([...fields({ [field]: value }), file(tinyJpeg(), 'photo.jpg', 'image/jpeg', field === 'question' ? value : PHOTO)]));
      expect([400, 404], `${field}=${value}`).toContain(res.statusCode);
    }
    const byPartName = await attempt('file part named ../../evil', multipart([...fields(), file(tinyJpeg(), 'photo.jpg', 'image/jpeg', '../../evil')]));
    expect(byPartName.statusCode).toBe(200);
    expect(Object.keys(byPartName.json())).toEqual([PHOTO]);
  });

  it('handles NUL and control bytes in names and values with a clear 4xx or a generated name', async () => {
    const cases: [string, Part[]][] = [
      ['NUL in the filename', [...fields(), file(tinyJpeg(), 'photo.php\u0000.jpg')]],
      ['NUL in the question', [...fields({ question: `${PHOTO}\u0000../../evil` }), file(tinyJpeg())]],
      ['NUL in survey_name', [...fields({ survey_name: `${survey.id}\u0000` }), file(tinyJpeg())]],
      ['CRLF in the filename', [...fields(), { name: PHOTO, rawHeaders: `Content-Disposition: form-data; name="${PHOTO}"; filename="a\r\nContent-Type: text/html\r\n.jpg"\r\nContent-Type: image/jpeg`, data: tinyJpeg() }]],
      ['NUL in a field name', [...fields(), { name: 'survey_name\u0000x', value: 'x' }, file(tinyJpeg())]],
    ];
    for (const [label, parts] of cases) {
      const res = await attempt(label, multipart(parts));
      if (res.statusCode === 200) expect(Object.keys(res.json()), label).toEqual([PHOTO]);
      else expect([400, 404, 413, 415], label).toContain(res.statusCode);
    }
  });

  it('refuses too many files, fields or parts with 413', async () => {
    const twoFiles = await attempt('two files', multipart([...fields(), file(tinyJpeg()), file(tinyJpeg())]));
    expect(twoFiles.statusCode).toBe(413);
    expect(twoFiles.json()).toMatchObject({ msg: 'Too many files in one upload' });
    const hundredFiles = await attempt('100 files', multipart([...fields(), ...Array.from({ length: 100 }, () => file(tinyJpeg()))]));
    expect(hundredFiles.statusCode).toBe(413);
    const manyFields = await attempt('11 fields', multipart([...fields(), ...Array.from({ length: 7 }, (_, i) => ({ name: `x${i}`, value: 'y' })), file(tinyJpeg())]));
    expect(manyFields.statusCode).toBe(413);
    expect(manyFields.json()).toMatchObject({ msg: 'Too many fields in one upload' });
    const thousandFields = await attempt('1000 fields', multipart(Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, value: 'v' }))));
    expect(thousandFields.statusCode).toBe(413);
    const longField = await attempt('a 1 MB field', multipart([...fields({ question: 'q'.repeat(1024 * 1024) }), file(tinyJpeg())]));
    expect(longField.statusCode).toBe(400);
    expect(longField.json().msg).toMatch(/too long/);
  });

  it('answers missing or malformed parts with a clear 4xx', async () => {
    const cases: [string, { payload: Buffer; headers: Record<string, string> }, number][] = [
      ['no file', multipart(fields()), 400],
      ['no fields', multipart([file(tinyJpeg())]), 400],
      ['only the file part, unnamed', multipart([{ name: '', filename: 'photo.jpg', type: 'image/jpeg', data: tinyJpeg() }]), 400],
      ['empty multipart', multipart([]), 400],
      ['no boundary', { payload: Buffer.from('hello'), headers: { 'content-type': 'multipart/form-data' } }, 400],
      ['wrong boundary', { payload: multipart([...fields(), file(tinyJpeg())]).payload, headers: { 'content-type': 'multipart/form-data; boundary=nope' } }, 400],
      ['empty body', { payload: Buffer.alloc(0), headers: { 'content-type': 'multipart/form-data; boundary=x' } }, 400],
      ['a text/plain body', { payload: Buffer.from('x'), headers: { 'content-type': 'text/plain' } }, 415],
      ['garbage after the boundary', { payload: Buffer.from('--x\r\n\u0000\u0001\u0002garbage'), headers: { 'content-type': 'multipart/form-data; boundary=x' } }, 400],
    ];
    for (const [label, body, status] of cases) {
      const res = await attempt(label, body);
      expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
    }
  });

  it('accepted photos are all real images, stored under generated names only', async () => {
    const rows = await t.app.db.kysely.selectFrom('files').select(['id', 'path', 'mime']).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.path).toBe(`uploads/${r.id}.jpg`);
      expect(r.mime).toBe('image/jpeg');
    }
    expect(storedPhotos().sort()).toEqual(rows.map((r) => `${r.id}.jpg`).sort());
  });
});

describe('OWASP ASVS 5.0 V5.3 (file storage) and API1:2023 BOLA: GET /files/image/:id with hostile ids', () => {
  it('answers 404 JSON for traversal, encoded slashes and SQL-looking ids', async () => {
    const ids = [
      '..', '..%2F..%2Fsurvey-bird.sqlite', '%2e%2e%2f%2e%2e%2fjwt-secret', '..%5c..%5cjwt-secret', '%2F', '%252e%252e%252f',
      "x' OR '1'='1", "' OR 1=1 --", '1%20OR%201%3D1', 'x%27%3B%20DROP%20TABLE%20files%3B--', 'A'.repeat(43),
      '*', '%25', 'jwt-secret', 'uploads', `${'A'.repeat(43)}.jpg`,
    ];
    for (const id of ids) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/files/image/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type'], id).toMatch(/^application\/json/);
      expect(['msg', 'code'], id).toEqual(Object.keys(res.json()));
    }
    // A NUL is refused before any lookup, on both engines (PostgreSQL cannot even compare it).
    for (const id of ['%00', `${'A'.repeat(42)}%00`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/files/image/${id}` });
      expect(res.statusCode, id).toBe(400);
      expect(res.json(), id).toMatchObject({ msg: 'Text must not contain NUL characters' });
    }
    // Dot segments are resolved while the URL is parsed: this reaches another route, whose own access check answers.
    const dots = await t.app.inject({ method: 'GET', url: '/api/v1/files/image/../../user/all' });
    expect(dots.statusCode).toBe(401);
    expect(dots.json()).toMatchObject({ msg: Msg.authenticationInvalid });
    for (const url of ['/api/v1/files/image/..%2f..%2f..%2fjwt-secret', '/api/v1/files/image//etc/passwd', '/api/v1/files/image/%2e%2e/%2e%2e/jwt-secret']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toHaveProperty('msg');
    }
    const files = await t.app.db.kysely.selectFrom('files').select('id').execute();
    expect(files.length).toBeGreaterThan(0);
  });
});

import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, DEFAULT_BODY_LIMIT, Limits, Msg, type RouteDef, routes } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../test/fixtures.js';
import { buildTestApp, call, type TestApp } from '../../test/helpers.js';
import { tinyJpeg } from '../../test/images.js';
import { HSTS } from '../plugins/security-headers.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

/** A raw HTTP/1.1 request on a real socket: the head now, the body as `send` decides. */
function rawRequest(port: number, head: string): { socket: Socket; reply: Promise<string>; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(head);
  let data = '';
  socket.on('data', (d) => (data += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const reply = new Promise<string>((resolve) => {
    socket.on('data', () => {
      if (data.includes('\r\n\r\n')) resolve(data);
    });
    socket.once('close', () => resolve(data));
  });
  return { socket, reply, closed };
}

const table = routes as Record<string, RouteDef>;

describe('route facts in the route table (issue 15 item 2)', () => {
  it('caps public account bodies at a few KB and declares credential parameters of real params', () => {
    for (const name of ['login', 'register', 'sendRefreshToken', 'resetPassword', 'resendVerification']) expect(table[name]!.bodyLimit, name).toBeLessThanOrEqual(4 * 1024);
    expect(table.confirmEmail!.sensitive).toEqual(['id']);
    expect(table.getImage!.sensitive).toEqual(['id', 'sig']);
    for (const [name, def] of Object.entries(table)) {
      for (const key of def.sensitive ?? []) expect(`${def.path} ${Object.keys((def.querystring as unknown as { shape?: object } | undefined)?.shape ?? {}).join(' ')}`, name).toMatch(new RegExp(`(:${key}\\b| ${key}\\b)`));
      // The largest response must fit its route; a batch holds at least one largest response.
      if (def.bodyLimit) expect(def.bodyLimit, name).toBeGreaterThan(0);
    }
    expect(table.syncResponses!.bodyLimit!).toBeGreaterThanOrEqual(table.respond!.bodyLimit!);
  });
});

describe('hardening of the HTTP layer (issue 14 items 2, 5, 17; issue 13 item 12)', () => {
  let t: TestApp;
  let port: number;
  const log = capture();
  let fieldToken: string;
  let survey: { id: string };
  let orgId: string;

  beforeAll(async () => {
    t = await buildTestApp({ logLevel: 'info', publicUrl: 'https://survey.example' }, { logger: true, logStream: log.stream });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    const org = await createOrganization(t.app);
    orgId = org.id;
    survey = await createSurvey(t.app, org.id);
    fieldToken = (await addMember(t.app, survey.id, org.id)).token!;
  });
  afterAll(() => t.close());

  const answers = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };

  it('refuses a login body over the route\'s limit with 413, and an ordinary API body over the default', async () => {
    const big = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'a@b.co', password: 'x'.repeat(5000) } });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ msg: Msg.payloadTooLarge });
    const batch = await call(t.app, fieldToken, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [{ survey_id: survey.id, organization_id: orgId, clientId: randomUUID(), answers: { ...answers, Location: 'x'.repeat(DEFAULT_BODY_LIMIT) } }] } });
    // The batch route has its own, larger limit: this body is refused for its content, not its size.
    expect(batch.statusCode).toBe(200);
  });

  it('still takes a photo far larger than the default body limit (uploads are capped by Limits.maxImageBytes)', async () => {
    const boundary = '----sbHardening';
    const data = Buffer.concat([tinyJpeg(), Buffer.alloc(2 * 1024 * 1024)]);
    const fields = { question: 'Shelf photo', survey_name: survey.id, organization_name: orgId, clientId: randomUUID() };
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(payload.length).toBeGreaterThan(DEFAULT_BODY_LIMIT);
    const res = await call(t.app, fieldToken, { method: 'POST', url: '/api/v1/files/image', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(res.statusCode, res.body).toBe(200);
    // The photo keeps its own caching rule: its address is its key.
    const photo = await call(t.app, fieldToken, { method: 'GET', url: res.json()['Shelf photo'] as string });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });

  it('stops reading an oversized body while it streams in (no Content-Length)', async () => {
    const { socket, reply } = rawRequest(port, 'POST /api/v1/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    let sent = 0;
    let answered = '';
    void reply.then((r) => (answered = r));
    const chunk = `{"email":"${'a'.repeat(1000)}`;
    // Up to 1 MB, a kilobyte at a time; the answer must come long before.
    while (!answered && sent < 1024 * 1024 && !socket.destroyed) {
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      sent += chunk.length;
      await new Promise((r) => setTimeout(r, 2));
    }
    const text = await reply;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(sent).toBeLessThan(64 * 1024);
  });

  it('refuses more answer keys than the survey has questions, before looking at each key', async () => {
    const many: Record<string, string> = { ...answers };
    for (let i = 0; i < 50_000; i++) many[`q${i}`] = '';
    const started = performance.now();
    const res = await call(t.app, fieldToken, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: orgId, clientId: randomUUID(), answers: many } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: ApiMsg.tooManyAnswers });
    expect(performance.now() - started).toBeLessThan(5000);
    // Fewer than Limits.maxQuestions keys but more than this survey's five questions.
    const six = { ...answers, a: '', b: '', c: '', d: '' };
    const small = await call(t.app, fieldToken, { method: 'POST', url: '/api/v1/survey/respond', payload: { survey_id: survey.id, organization_id: orgId, clientId: randomUUID(), answers: six } });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ msg: ApiMsg.tooManyAnswers });
    // In a batch, only that item is refused.
    const good = randomUUID();
    const bad = randomUUID();
    const batch = await call(t.app, fieldToken, { method: 'POST', url: '/api/v1/sync/responses', payload: { responses: [{ survey_id: survey.id, organization_id: orgId, clientId: bad, answers: many }, { survey_id: survey.id, organization_id: orgId, clientId: good, answers }] } });
    expect(batch.statusCode).toBe(200);
    const results = batch.json().results as { clientId: string; status: number; msg: string }[];
    expect(results.find((r) => r.clientId === bad)).toMatchObject({ status: 400, msg: ApiMsg.tooManyAnswers });
    expect(results.find((r) => r.clientId === good)).toMatchObject({ status: 200 });
    expect(Object.keys(many).length).toBeGreaterThan(Limits.maxQuestions);
  });

  it('no-store on API replies, the photo keeps its own rule, HSTS when PUBLIC_URL is https', async () => {
    for (const url of ['/api/v1/user', '/api/v1/survey/field-user', '/api/v1/nope', '/api/v1/files/image/nope']) {
      const res = await call(t.app, fieldToken, { method: 'GET', url });
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.headers['strict-transport-security'], url).toBe(HSTS);
    }
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'nobody@x.ng', password: 'whatever-1' } });
    expect(login.headers['cache-control']).toBe('no-store');
    const malformed = await t.app.inject({ method: 'GET', url: '/api/v1/user/%zz' });
    expect(malformed.headers['cache-control']).toBe('no-store');
    const plain = await buildTestApp({ publicUrl: 'http://localhost:3000' });
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/api/v1/user' })).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('a client hanging up mid-body is not "storage unavailable" and gets no 503 warning', async () => {
    const before = log.lines.length;
    const { socket, closed } = rawRequest(port, `POST /api/v1/survey/respond HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fieldToken}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"survey_id":"`);
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    await closed;
    await new Promise((r) => setTimeout(r, 300));
    const lines = log.lines.slice(before);
    expect(lines.filter((l) => l.msg === 'storage unavailable')).toEqual([]);
    expect(lines.filter((l) => Number(l.level) >= 40)).toEqual([]);
  });

  it('logs no line for an ordinary request at info, one warn line for a slow one, with its credentials redacted', async () => {
    const before = log.lines.length;
    for (let i = 0; i < 5; i++) expect((await call(t.app, fieldToken, { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/api/v1/files/image/secret-photo-key' });
    expect(log.lines.slice(before)).toEqual([]);
    // A body trickled over more than a second makes a slow request.
    const token = 'link-token-that-must-not-leak';
    const body = JSON.stringify({ resetToken: token, newPassword: 'pw-123456' });
    const { socket, reply } = rawRequest(port, `POST /api/v1/user/reset-password?token=${token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    socket.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 1200));
    socket.write(body.slice(10));
    expect(await reply).toMatch(/^HTTP\/1\.1 400/);
    socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const lines = log.lines.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'slow request', url: '/api/v1/user/reset-password?token=[redacted]', statusCode: 400 });
    expect(JSON.stringify(log.lines)).not.toContain(token);
  });

  it('logs every request at LOG_LEVEL=debug, photo addresses and link tokens redacted by the route table', async () => {
    const debug = capture();
    const d = await buildTestApp({ logLevel: 'debug' }, { logger: true, logStream: debug.stream });
    try {
      await d.app.inject({ method: 'GET', url: '/api/v1/files/image/secret-photo-key?x=1' });
      await d.app.inject({ method: 'GET', url: '/api/v1/user/secret-link-token' });
      await d.app.inject({ method: 'GET', url: '/api/v1/user' });
      await d.app.inject({ method: 'GET', url: '/api/v1/survey/organization?page=2&token=secret-jwt' });
      const urls = debug.lines.filter((l) => l.msg === 'request completed').map((l) => l.url);
      expect(urls).toEqual(['/api/v1/files/image/[redacted]?x=[redacted]', '/api/v1/user/[redacted]', '/api/v1/user', '/api/v1/survey/organization?page=2&token=[redacted]']);
      expect(JSON.stringify(debug.lines)).not.toMatch(/secret-/);
    } finally {
      await d.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg } from '@survey-bird/contracts';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { openDb } from '../../db/database.js';
import { tinyJpeg } from '../../../test/images.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ pwaDir: undefined });
});
afterAll(() => t.close());

describe('GET /healthz and /readyz', () => {
  it('healthz answers that the process is alive', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('readyz answers JSON once the database answers and every migration has run', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ status: 'ready', engine: t.engine, flagBacklog: expect.any(Number) });
  });

  it('readyz is 503 while a migration this build knows has not run', async () => {
    const k = t.app.db.kysely;
    const last = await k.selectFrom('kysely_migration' as never).selectAll().orderBy('name' as never, 'desc').limit(1).executeTakeFirstOrThrow() as { name: string; timestamp: string };
    await k.deleteFrom('kysely_migration' as never).where('name' as never, '=', last.name as never).execute();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ msg: ApiMsg.notReadyMigrations });
    } finally {
      await k.insertInto('kysely_migration' as never).values(last).execute();
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

function send(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; agent?: import('node:http').Agent } = {}) {
  return new Promise<{ req: import('node:http').ClientRequest; res: Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> }>((resolveOuter) => {
    let done!: (v: { status: number; body: string; headers: IncomingMessage['headers'] }) => void;
    let fail!: (e: Error) => void;
    const res = new Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }>((a, b) => { done = a; fail = b; });
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent }, (r) => {
      let body = '';
      r.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => done({ status: r.statusCode ?? 0, body, headers: r.headers }));
    });
    req.on('error', fail);
    if ((opts.method ?? 'GET') === 'GET') req.end();
    resolveOuter({ req, res });
  });
}

describe('SIGTERM (close): stop accepting, finish what is in flight', () => {
  it('an upload whose body is still arriving is stored and acknowledged, and its reply closes the connection', async () => {
    const own = await buildTestApp();
    const org = await createOrganization(own.app);
    const survey = await createSurvey(own.app, org.id);
    const member = await addMember(own.app, survey.id, org.id);
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (own.app.server.address() as { port: number }).port;
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await (await send(port, '/readyz', { agent: keepAlive })).res).status).toBe(200);

    const boundary = `----sb${randomUUID()}`;
    const head = Buffer.from([
      ...['question', 'survey_name', 'organization_name', 'clientId'].map((name, i) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${['Shelf photo', survey.id, org.id, randomUUID()][i]}\r\n`),
      `--${boundary}\r\nContent-Disposition: form-data; name="Shelf photo"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ].join(''));
    const body = Buffer.concat([head, tinyJpeg(), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (c: string) => { received += c; });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST /api/v1/files/image HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${member.token!}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body.subarray(0, head.length + 10));
    await new Promise((r) => setTimeout(r, 100));

    const closed = own.app.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(own.app.lifecycle.state).toBe('draining');
    // New connections are refused (the listening socket is closed), and the idle kept-alive one is
    // closed: a load balancer sends those requests to another instance.
    await expect((await send(port, '/healthz')).res).rejects.toThrow(/ECONNREFUSED/);
    await expect((await send(port, '/readyz', { agent: keepAlive })).res).rejects.toThrow(/ECONNREFUSED/);

    // The rest of the upload, and a request pipelined behind it on the same connection.
    socket.write(Buffer.concat([body.subarray(head.length + 10), Buffer.from('GET /api/v1/user HTTP/1.1\r\nHost: x\r\n\r\n')]));
    await ended;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    // Its reply closes the connection (kept alive, it would hold the close up), so the request behind
    // it is never read: the client sends it again, through the load balancer, to another instance.
    expect(first).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toBeUndefined();
    const reference = (JSON.parse(first!.split('\r\n\r\n')[1]!) as Record<string, string>)['Shelf photo']!;
    await closed;
    keepAlive.destroy();

    // Acknowledged means committed: the row is there after the database was closed and reopened.
    const db = openDb({ dataDir: own.config.dataDir, databaseUrl: own.config.databaseUrl, pgSchema: own.app.db.pgSchema });
    const row = await db.kysely.selectFrom('files').select(['size']).where('id', '=', reference.split('/').pop()!).executeTakeFirst();
    await db.close();
    expect(row?.size).toBe(tinyJpeg().length);
    await own.close().catch(() => undefined);
  });
});

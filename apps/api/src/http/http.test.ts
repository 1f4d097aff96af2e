import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Msg, routes } from '@survey-bird/contracts';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { NUL_IN_TEXT, containsNul } from './errors.js';

let t: TestApp;
const pwaDir = mkdtempSync(join(tmpdir(), 'sb-pwa-'));
beforeAll(async () => {
  writeFileSync(join(pwaDir, 'index.html'), '<!doctype html><title>Survey Bird</title>');
  mkdirSync(join(pwaDir, 'assets'));
  writeFileSync(join(pwaDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(pwaDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  t = await buildTestApp({ pwaDir });
});
afterAll(() => t.close());

describe('errors are JSON { msg } with the right status', () => {
  it('unknown API paths are a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ msg: ApiMsg.routeNotFound });
    expect((await t.app.inject({ method: 'POST', url: '/anything' })).json()).toMatchObject({ msg: ApiMsg.routeNotFound });
  });

  it('malformed JSON is a 400, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: 'The request body is not valid JSON' });
  });

  it('a wrong content type is a 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json().msg).toMatch(/JSON/);
  });

  it('a body over the limit is a 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'a'.repeat(13 * 1024 * 1024) }) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ msg: Msg.payloadTooLarge });
  });

  it('wrong types get the field message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 42, password: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: Msg.provideEmail });
  });
});

describe('NUL characters', () => {
  it('are found in nested values, object keys and arrays, and nowhere else', () => {
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ a: { 'k\u0000': 1 } })).toBe(true);
    expect(containsNul(['ok', ['x\u0000']])).toBe(true);
    expect(containsNul({ a: ['ok', 1, null, { b: 'fine' }], c: true })).toBe(false);
    expect(containsNul('\u0000')).toBe(true);
    expect(containsNul(undefined)).toBe(false);
  });

  it('are refused with a 400 in a request body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'a\u0000@b.ng', password: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: NUL_IN_TEXT });
  });

  it('are refused however the JSON writes them, and a mere backslash-u-0000 text is not one', async () => {
    const send = (payload: string, type = 'application/json') => t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { 'content-type': type }, payload });
    for (const raw of ['{"email":"a\\u0000@b.ng","password":"x"}', '{"email":"a@b.ng","pass\\u0000word":"x"}']) {
      const res = await send(raw);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ msg: NUL_IN_TEXT });
    }
    expect((await send('{"email":"a\\u0000@b.ng","password":"x"}', 'application/json; charset=utf-8')).json()).toMatchObject({ msg: NUL_IN_TEXT });
    // An escaped backslash followed by "u0000" is six characters of text, no NUL: a login attempt like any other.
    const plain = await send('{"email":"a\\\\u0000@b.ng","password":"x"}');
    expect(plain.json()).not.toMatchObject({ msg: NUL_IN_TEXT });
    expect((await send('{"__proto__":{"x":1},"email":"a@b.ng","password":"x"}')).statusCode).toBe(400);
  });
});

describe('lone surrogates', () => {
  const send = (payload: string, url = '/api/v1/user/register') =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  it('become U+FFFD, so an account made with one can still be mailed (fuzz counterexample)', async () => {
    const body = '{"email":"lone-\\udfff@org.ng","password":"pw-123456"}';
    expect((await send(body)).statusCode).toBe(200);
    const stored = await t.app.db.kysely.selectFrom('users').select('email').where('email', 'like', 'lone-%').executeTakeFirstOrThrow();
    expect(stored.email).toBe('lone-\ufffd@org.ng');
    for (const url of ['/api/v1/user/send-refresh-token', '/api/v1/user/register']) {
      const res = await send(body, url);
      expect(res.statusCode, url).toBe(200);
    }
  });

  it('are repaired in keys and nested values, and a whole pair is left alone', async () => {
    const { wellFormed } = await import('./json-body.js');
    expect(wellFormed({ ['k\ud800']: ['\udc00x', { y: 'a\ud83d' }], n: 1, z: null })).toEqual({ 'k\ufffd': ['\ufffdx', { y: 'a\ufffd' }], n: 1, z: null });
    expect(wellFormed('🐦')).toBe('🐦');
  });
});

describe('security headers', () => {
  it('sets CSP, nosniff and no-referrer on API and page replies', async () => {
    for (const url of ['/api/v1/user', '/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain('blob:');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('the PWA and the API docs', () => {
  it('serves index.html for client routes and hashed assets as immutable', async () => {
    for (const url of ['/', '/login?email=a@b.c', '/survey-bird/organization/insight', '/confirm-email/abc']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Survey Bird</title>');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.body).toBe('console.log(1)');
    const compressed = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
  });

  it('publishes an OpenAPI document with every route of the contracts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const paths = Object.keys(doc.paths);
    const registered = Object.values(routes).filter((r) => t.app.hasRoute({ method: r.method, url: r.path }));
    for (const r of registered) expect(paths).toContain(r.path.replace(/:(\w+)/g, '{$1}'));
    expect(registered.length).toBeGreaterThan(10);
  });

  it('documents API tokens, paging and the changes cursor, and marks which operations take a token', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiToken', 'bearer', 'odataBasic']);
    for (const words of ['Authorization: Bearer sb_', '## Paging', 'since=<cursor>', 'nextCursor', '$metadata']) expect(doc.info.description).toContain(words);
    const security = (path: string, method: string) => (doc.paths[path][method].security as Record<string, unknown>[]).flatMap((s) => Object.keys(s));
    expect(security('/api/v1/survey/{id}/responses', 'get')).toEqual(['bearer', 'apiToken']);
    expect(security('/api/v1/odata/{surveyId}/$metadata', 'get')).toEqual(['bearer', 'apiToken', 'odataBasic']);
    expect(security('/api/v1/survey/create', 'post')).toEqual(['bearer']);
  });
});

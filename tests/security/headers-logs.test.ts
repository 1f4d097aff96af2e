import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { createSurvey } from '../../apps/api/test/fixtures.js';
import { buildTestApp, call, createUser, lastMail, login, tokenFromLink, type TestApp } from '../../apps/api/test/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A built PWA in miniature: the shell, the service worker, the manifest and a hashed asset. */
function pwaDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-sec-pwa-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Survey Bird</title><script type="module" src="/assets/app-abc123.js"></script>');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Survey Bird"}');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'navigator.serviceWorker.register("/sw.js")');
  return dir;
}

/** The CSP as a map of directive to its sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name!.toLowerCase(), sources];
  }));
}

describe('OWASP ASVS 5.0 V3.4 (browser security headers) and API8:2023 Security Misconfiguration: headers on every kind of reply', () => {
  let t: TestApp;
  let dir: string;
  let token: string;
  beforeAll(async () => {
    dir = pwaDir();
    t = await buildTestApp({ pwaDir: dir });
    await createUser(t.app, 'headers@sec.ng', Role.fieldUser);
    token = await login(t.app, 'headers@sec.ng');
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const urls = ['/', '/sw.js', '/manifest.webmanifest', '/assets/app-abc123.js', '/login', '/confirm-email/abc', '/missing.js', '/api/v1/user', '/api/v1/nope', '/api/v1/files/image/nope', `/api/v1/files/image/${'x'.repeat(300)}`, '/api/v1/user/%zz', '/api/docs/json'];

  it('a strict CSP that still admits the service worker, blob: photo previews and the camera', async () => {
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      const csp = res.headers['content-security-policy'];
      expect(typeof csp, `${url}: no CSP`).toBe('string');
      const d = directives(csp as string);
      expect(d.get('default-src'), url).toEqual(["'self'"]);
      expect(d.get('script-src'), url).toEqual(["'self'"]);
      expect(d.get('object-src'), url).toEqual(["'none'"]);
      expect(d.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(d.get('base-uri'), url).toEqual(["'self'"]);
      expect(d.get('form-action'), url).toEqual(["'self'"]);
      expect(d.get('connect-src'), url).toEqual(["'self'"]);
      // The service worker at /sw.js, the manifest, blob: previews of captured photos, the camera stream.
      expect(d.get('worker-src'), url).toEqual(["'self'"]);
      expect(d.get('manifest-src'), url).toEqual(["'self'"]);
      expect(d.get('img-src'), url).toEqual(expect.arrayContaining(["'self'", 'blob:']));
      expect(d.get('media-src'), url).toEqual(expect.arrayContaining(["'self'", 'blob:', 'mediastream:']));
      for (const [name, sources] of d) {
        for (const s of sources) expect([`${name} ${s}`], url).not.toContainEqual(expect.stringMatching(/^\S+ (\*|'unsafe-eval'|'unsafe-hashes'|https?:|data:\S*\*|'strict-dynamic')$/));
      }
      expect(d.get('script-src'), url).not.toContain("'unsafe-inline'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['permissions-policy'], url).toMatch(/camera=\(self\)/);
      expect(res.headers['permissions-policy'], url).toMatch(/geolocation=\(self\)/);
      expect(res.headers['permissions-policy'], url).toMatch(/microphone=\(self\)/);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(String(res.headers['x-powered-by'] ?? ''), url).toBe('');
    }
    // The service worker and the shell are revalidated (a new version is found), the worker is served as script.
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
  });

  it('the real PWA fits the CSP: no inline script or handler in its HTML, no script from elsewhere in its worker', () => {
    const pages = [join(ROOT, 'apps/pwa/index.html'), join(ROOT, 'apps/pwa/dist/index.html')].filter(existsSync);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) expect(tag, page).toMatch(/\ssrc=/);
      expect(html, page).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html, page).not.toMatch(/<script\b[^>]*src=["']?(https?:)?\/\//i);
    }
    const worker = join(ROOT, 'apps/pwa/dist/sw.js');
    if (existsSync(worker)) expect(readFileSync(worker, 'utf8')).not.toMatch(/importScripts\(\s*["'`]https?:/);
  });

  it('no CORS for other origins: preflights and simple requests get no Access-Control-Allow-* headers', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://sb.test.evil.example', 'http://localhost:5173']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/user/login',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.statusCode, origin).toBe(404);
      expect(preflight.json()).toMatchObject({ msg: ApiMsg.routeNotFound });
      const get = await call(t.app, token, { method: 'GET', url: '/api/v1/user', headers: { origin } });
      expect(get.statusCode, origin).toBe(200);
      const post = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', headers: { origin, 'content-type': 'text/plain' }, payload: '{"email":"headers@sec.ng","password":"x"}' });
      // A cross-site "simple" POST is parsed as text and refused by validation; no cookie ever authenticates.
      expect(post.statusCode, origin).toBe(400);
      expect(Object.keys(post.json())).toEqual(['msg', 'code']);
      for (const res of [preflight, get, post]) {
        for (const h of Object.keys(res.headers)) expect(h, origin).not.toMatch(/^access-control-/);
      }
    }
  });
});

/** A mail server that accepts everything and keeps the messages: the production path (SMTP_URL set). */
function smtpSink(): Promise<{ server: Server; url: string; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 OK\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    resolve({ server, url: `smtp://127.0.0.1:${port}`, messages });
  }));
}

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

type LinkOf = (to: string, part: string) => Promise<string>;
/** Demo mode: the outbox keeps the link. */
const outboxLink = (t: TestApp): LinkOf => async (to) => (await lastMail(t.app, to))!.link!;
/** SMTP: the outbox keeps no link (issue 14 item 11); it is read from the message the sink received. */
const sinkLink = (t: TestApp, messages: string[]): LinkOf => async (to, part) => {
  await t.app.mailer.idle();
  const bodies = messages.filter((m) => m.includes(to)).map((m) => m.replace(/=\n/g, '').replace(/=3D/g, '='));
  const found = bodies.flatMap((b) => b.match(/http:\/\/sb\.test\/\S+/g) ?? []).filter((l) => l.includes(part));
  return found[found.length - 1]!;
};

/** Signs in, uses the token, opens a confirm link and a reset link: everything a token travels through. */
async function exercise(t: TestApp, email: string, linkOf: LinkOf = outboxLink(t)) {
  await createUser(t.app, email, Role.organization);
  await t.app.db.kysely.insertInto('organizations').values({ id: `org-${email}`, name: 'Log Org', email, created_at: Date.now() }).execute();
  const jwt = await login(t.app, email);
  for (const url of ['/api/v1/user', '/api/v1/organization', '/api/v1/survey/organization?page=1', `/api/v1/survey/organization?token=${jwt}`]) {
    expect((await call(t.app, jwt, { method: 'GET', url })).statusCode, url).toBe(200);
  }
  // A forged and a broken token are refused, and their failures logged, without the token.
  expect((await call(t.app, `${jwt}x`, { method: 'GET', url: '/api/v1/user' })).statusCode).toBe(401);

  const newcomer = `new-${email}`;
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: { email: newcomer, password: 'pw-123456' } })).statusCode).toBe(200);
  const confirmLink = await linkOf(newcomer, '/confirm-email/');
  const confirmToken = tokenFromLink(confirmLink);
  // The page the mail links to, then the API call the page makes, then a malformed variant.
  expect((await t.app.inject({ method: 'GET', url: new URL(confirmLink).pathname })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: `/api/v1/user/${confirmToken}` })).json()).toMatchObject({ msg: ApiMsg.accountVerified });
  expect((await t.app.inject({ method: 'GET', url: `/api/v1/user/${confirmToken}` })).statusCode).toBe(400);
  expect((await t.app.inject({ method: 'GET', url: `/api/v1/user/${confirmToken}%zz` })).statusCode).toBe(400);
  expect((await t.app.inject({ method: 'GET', url: `/confirm-email/${confirmToken}/%zz` })).statusCode).toBeLessThan(500);

  expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/send-refresh-token', payload: { email } })).statusCode).toBe(200);
  const resetLink = await linkOf(email, '/reset-password');
  const resetToken = tokenFromLink(resetLink);
  const resetUrl = new URL(resetLink);
  expect((await t.app.inject({ method: 'GET', url: resetUrl.pathname + resetUrl.search })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: `/reset-password?email=${encodeURIComponent(email)}&token=${resetToken}` })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/reset-password', payload: { resetToken, newPassword: 'brand-new-pw' } })).json()).toMatchObject({ msg: ApiMsg.passwordReset });
  expect((await t.app.inject({ method: 'POST', url: `/api/v1/user/reset-password?resetToken=${resetToken}`, payload: { resetToken, newPassword: 'x' } })).statusCode).toBe(400);

  // An invitation link's token (issue 14 item 7): the page it opens, then the registration.
  const survey = await createSurvey(t.app, `org-${email}`);
  const invitee = `invitee-${email}`;
  const owner = await login(t.app, email, 'brand-new-pw'); // the reset above signed every session out
  expect((await call(t.app, owner, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: survey.id, fullName: 'Invited Person', email: invitee, phoneNumber: '08030000000' } })).statusCode).toBe(200);
  const inviteUrl = new URL(await linkOf(invitee, '/register'));
  const inviteToken = inviteUrl.searchParams.get('invite')!;
  expect((await t.app.inject({ method: 'GET', url: inviteUrl.pathname + inviteUrl.search })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: { email: invitee, password: 'pw-123456', invite: inviteToken } })).statusCode).toBe(200);
  return { jwt, signature: jwt.split('.')[2]!, confirmToken, resetToken, inviteToken };
}

describe('OWASP ASVS 5.0 V16.2.5 (no credentials or session tokens in logs) and API8:2023: tokens never reach the log', () => {
  let dir: string;
  beforeAll(() => {
    dir = pwaDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with mail sent over SMTP (production): neither the JWT nor a link token appears in any log line', async () => {
    const sink = await smtpSink();
    const log = capture();
    const t = await buildTestApp({ pwaDir: dir, logLevel: 'trace', smtpUrl: sink.url }, { logger: true, logStream: log.stream });
    try {
      const secrets = await exercise(t, 'owner@logs.ng', sinkLink(t, sink.messages));
      // One line per request at debug and below (apps/api/src/http/request-log.ts).
      expect(log.lines.length).toBeGreaterThan(12);
      // The log is real: requests are there, with their redacted URLs.
      expect(log.lines.some((l) => l.includes('/api/v1/user/[redacted]'))).toBe(true);
      expect(log.lines.some((l) => l.includes('token=[redacted]'))).toBe(true);
      // And mail really left through SMTP, links included.
      expect(sink.messages.join('\n')).toContain(secrets.resetToken);
      for (const [name, secret] of Object.entries(secrets)) {
        const leaks = log.lines.filter((l) => l.includes(secret));
        expect(leaks, `${name} in the log`).toEqual([]);
      }
      for (const l of log.lines) expect(l.toLowerCase(), 'authorization header in the log').not.toContain('bearer');
    } finally {
      await t.close();
      sink.server.close();
    }
  });

  it('without SMTP (demo mode), link tokens appear only in the documented outbox line, never in request logs', async () => {
    const log = capture();
    const t = await buildTestApp({ pwaDir: dir, logLevel: 'info', smtpUrl: undefined }, { logger: true, logStream: log.stream });
    try {
      const secrets = await exercise(t, 'demo@logs.ng');
      expect(log.lines.filter((l) => l.includes(secrets.jwt) || l.includes(secrets.signature))).toEqual([]);
      for (const secret of [secrets.confirmToken, secrets.resetToken, secrets.inviteToken]) {
        const leaks = log.lines.filter((l) => l.includes(secret));
        expect(leaks.length).toBeGreaterThan(0);
        for (const l of leaks) expect(JSON.parse(l).msg).toBe('mail recorded in outbox (no SMTP_URL)');
      }
    } finally {
      await t.close();
    }
  });
});

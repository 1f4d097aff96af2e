import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateWebhookReply, DeliveryListReply } from '@survey-bird/contracts';
import { addMember, addResponse, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, call, lastMail, type TestApp } from '../../../test/helpers.js';
import { blockedAddress, send } from './outbound.js';
import { DISABLE_AFTER_MS, backoffMs } from './service.js';

/** A local receiver: answers each POST with the next scripted status (the last one repeats). */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let script: number[] = [200];
let replyBytes = 0;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = script.length > 1 ? script.shift()! : script[0]!;
      res.writeHead(status, status === 302 ? { location: 'http://127.0.0.1:1/' } : {});
      res.end(replyBytes > 0 ? Buffer.alloc(replyBytes, 'x') : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** The documented recipe: HMAC-SHA256 of "<t>.<raw body>" with the secret, hex, compared in constant time; t within 5 minutes. */
function verifies(secret: string, header: string | undefined, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1 || Math.abs(nowSeconds - Number(parts.t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhook URLs (no private addresses allowed)', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let surveyId: string;
  beforeAll(async () => {
    t = await buildTestApp({ webhookAllowPrivate: false });
    org = await createOrganization(t.app, 'Hook Guard Org');
    surveyId = (await createSurvey(t.app, org.id)).id;
  });
  afterAll(() => t.close());

  it.each(['http://127.0.0.1/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost:8080/', 'http://metadata.google.internal/', 'http://192.168.1.1/', 'http://0.0.0.0/'])('refuses %s when it is saved', async (url) => {
    const res = await call(t.app, org.token, { method: 'POST', url: `/api/v1/survey/${surveyId}/webhooks`, payload: { url, events: ['response.created'] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('url must not point to a private, loopback, link-local or metadata address');
  });

  it('accepts a host name without resolving it, and refuses other schemes and empty events in words', async () => {
    const ok = await call(t.app, org.token, { method: 'POST', url: `/api/v1/survey/${surveyId}/webhooks`, payload: { url: 'https://hooks.does-not-resolve-yet.example/x', events: ['response.created', 'payout.paid'] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<CreateWebhookReply>().secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const ftp = await call(t.app, org.token, { method: 'POST', url: `/api/v1/survey/${surveyId}/webhooks`, payload: { url: 'ftp://example.com/', events: ['response.created'] } });
    expect(ftp.json().msg).toContain('url must be an http or https address');
    const none = await call(t.app, org.token, { method: 'POST', url: `/api/v1/survey/${surveyId}/webhooks`, payload: { url: 'https://example.com/', events: [] } });
    expect(none.json().msg).toContain('events must name one or more of');
  });

  it('refuses at send a name that resolves to a loopback address, and a literal one', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const before = received.length;
    expect(await send(`http://localhost:${port}/hook`, '{}', {}, false)).toEqual({ status: null, error: 'refused: the name resolves to a private or reserved address' });
    expect(await send(`http://127.0.0.1:${port}/hook`, '{}', {}, false)).toEqual({ status: null, error: 'refused: a private or reserved address' });
    expect(received.length).toBe(before);
    // The operator's switch lets the same name through.
    expect((await send(`http://localhost:${port}/hook`, '{}', {}, true)).status).toBe(200);
  });

  it('knows the blocked ranges', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1']) expect(blockedAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '41.58.0.1', '2001:4860:4860::8888']) expect(blockedAddress(a), a).toBe(false);
  });
});

describe('webhook deliveries', () => {
  let t: TestApp;
  let org: Awaited<ReturnType<typeof createOrganization>>;
  beforeAll(async () => {
    t = await buildTestApp({ webhookAllowPrivate: true });
    org = await createOrganization(t.app, 'Hook Org');
  });
  afterAll(() => t.close());

  async function hooked(events: string[]) {
    const survey = await createSurvey(t.app, org.id);
    const fu = await addMember(t.app, survey.id, org.id, { fullName: 'Hook Worker', rate: 50 });
    const res = await call(t.app, org.token, { method: 'POST', url: `/api/v1/survey/${survey.id}/webhooks`, payload: { url: receiverUrl, events, secret: 'a-secret-of-16-chars-or-more' } });
    expect(res.statusCode, res.body).toBe(200);
    const { webhook } = res.json<CreateWebhookReply>();
    const respond = () => addResponse(t.app, fu, { id: survey.id, organizationId: org.id }, { answers: { 'Name of outlet': 'Hooked' }, rate: 50 });
    const log = async () => (await call(t.app, org.token, { method: 'GET', url: `/api/v1/webhooks/${webhook._id}/deliveries` })).json<DeliveryListReply>().deliveries;
    return { survey, webhook, respond, log };
  }

  it('posts a signed event that verifies with the documented recipe, once', async () => {
    script = [200];
    const { survey, respond, log } = await hooked(['response.created']);
    const before = received.length;
    const r = await respond();
    expect(await t.app.services.webhooks.deliverDue()).toBeGreaterThanOrEqual(1);
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0]!.body) as { id: string; type: string; surveyId: string; data: { response: { _id: string; answers: Record<string, string> } } };
    expect(body).toMatchObject({ id: `response.created:${r.id}`, type: 'response.created', surveyId: survey.id, data: { response: { _id: r.id, answers: { 'Name of outlet': 'Hooked' } } } });
    expect(got[0]!.headers['x-surveybird-event-id']).toBe(body.id);
    expect(verifies('a-secret-of-16-chars-or-more', got[0]!.headers['x-surveybird-signature'] as string, got[0]!.body)).toBe(true);
    expect(verifies('another-secret-entirely', got[0]!.headers['x-surveybird-signature'] as string, got[0]!.body)).toBe(false);
    expect(verifies('a-secret-of-16-chars-or-more', got[0]!.headers['x-surveybird-signature'] as string, got[0]!.body.replace('Hooked', 'Hacked'))).toBe(false);
    // Delivered: a second round sends nothing more.
    await t.app.services.webhooks.deliverDue();
    expect(received.length).toBe(before + 1);
    expect((await log())[0]).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, eventId: body.id });
  });

  it('retries after a 500 with the same event id, and a redirect or an oversized reply counts as a failure', async () => {
    script = [500, 302, 200];
    const { respond, log } = await hooked(['response.created']);
    const before = received.length;
    await respond();
    const now = Date.now();
    await t.app.services.webhooks.deliverDue(now);
    expect((await log())[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    // Not due yet: nothing is sent.
    await t.app.services.webhooks.deliverDue(now + 1000);
    expect(received.length).toBe(before + 1);
    await t.app.services.webhooks.deliverDue(now + backoffMs(1) + 1000);
    expect((await log())[0]).toMatchObject({ status: 'pending', attempts: 2, lastStatusCode: 302 });
    await t.app.services.webhooks.deliverDue(now + backoffMs(1) + backoffMs(2) + 2000);
    expect((await log())[0]).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    const ids = received.slice(before).map((r) => r.headers['x-surveybird-event-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);

    script = [200];
    replyBytes = 2 << 20;
    try {
      const big = await hooked(['response.created']);
      await big.respond();
      await t.app.services.webhooks.deliverDue();
      expect((await big.log())[0]).toMatchObject({ status: 'pending', lastError: 'reply larger than 1 MB' });
    } finally {
      replyBytes = 0;
    }
  });

  it('tells of reviews and payouts, and a retry from the log sends again', async () => {
    script = [200];
    const { survey, webhook, respond, log } = await hooked(['response.reviewed', 'payout.paid']);
    const r = await respond();
    await respond();
    await t.app.services.webhooks.deliverDue();
    expect(await log()).toEqual([]);
    const review = await call(t.app, org.token, { method: 'POST', url: '/api/v1/responses/review', payload: { responseIds: [r.id], status: 'returned', comment: 'Retake the photo' } });
    expect(review.statusCode).toBe(200);
    const payout = await call(t.app, org.token, { method: 'POST', url: '/api/v1/payouts', payload: { survey_id: survey.id, key: randomUUID() } });
    const payoutId = payout.json<{ payout: { _id: string } }>().payout._id;
    expect((await call(t.app, org.token, { method: 'POST', url: `/api/v1/payouts/${payoutId}/paid`, payload: { reference: 'TRF 9' } })).statusCode).toBe(200);
    const before = received.length;
    await t.app.services.webhooks.deliverDue();
    const types = received.slice(before).map((x) => JSON.parse(x.body) as { type: string; data: { payout?: { reference: string } } });
    expect(types.map((x) => x.type).sort()).toEqual(['payout.paid', 'response.reviewed']);
    expect(types.find((x) => x.type === 'payout.paid')!.data.payout!.reference).toBe('TRF 9');

    const delivery = (await log()).find((d) => d.event === 'payout.paid')!;
    const retry = await call(t.app, org.token, { method: 'POST', url: `/api/v1/webhooks/${webhook._id}/deliveries/${delivery._id}/retry` });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ delivery: { status: 'pending' } });
    await t.app.services.webhooks.deliverDue();
    expect(received.length).toBe(before + 3);
    expect(received.at(-1)!.headers['x-surveybird-event-id']).toBe(`payout.paid:${payoutId}`);
  });

  it('gives up on a delivery after 24 hours, disables a webhook failing for 24 hours and mails its owner', async () => {
    script = [503];
    const { webhook, respond, log } = await hooked(['response.created']);
    await respond();
    const now = Date.now();
    await t.app.services.webhooks.deliverDue(now);
    const later = now + DISABLE_AFTER_MS + 60_000;
    await t.app.services.webhooks.deliverDue(later);
    expect((await log())[0]).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 503 });
    const list = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/${webhook.survey_id}/webhooks` });
    expect(list.json<{ webhooks: { disabledAt: string | null }[] }>().webhooks[0]!.disabledAt).not.toBeNull();
    const mail = await lastMail(t.app, org.email);
    expect(mail?.subject).toBe('Survey Bird: a webhook was turned off');
    // Disabled: a new response queues nothing for it.
    await respond();
    expect((await log()).length).toBe(1);
  });

  it("keeps another organization out of a webhook and its log", async () => {
    const { webhook } = await hooked(['response.created']);
    const other = await createOrganization(t.app, 'Nosy Org');
    for (const [method, url] of [['GET', `/api/v1/webhooks/${webhook._id}/deliveries`], ['DELETE', `/api/v1/webhooks/${webhook._id}`], ['GET', `/api/v1/survey/${webhook.survey_id}/webhooks`]] as const) {
      const res = await call(t.app, other.token, { method, url });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await call(t.app, org.token, { method: 'DELETE', url: `/api/v1/webhooks/${webhook._id}` })).statusCode).toBe(200);
  });
});

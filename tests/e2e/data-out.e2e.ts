import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './harness/axe';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { startServer, type RunningServer } from './harness/server';
import { apiLogin, createOrganizationUser, createSurvey, createTeamMember, type TestUser } from './harness/users';
import { toast } from './pages/app';
import { LoginPage } from './pages/LoginPage';

/**
 * Getting data out, in the browser: an API token made (shown once), copied, used and revoked on the
 * Tokens screen; a webhook added to a receiver on this machine, and its delivery in the log. Its own
 * server, with WEBHOOK_ALLOW_PRIVATE so a loopback receiver may be told.
 */
const SHOTS = join(tmpdir(), 'survey-bird-shots');
let server: RunningServer;
let receiver: Server;
let receiverUrl = '';
const received: { headers: Record<string, unknown>; body: string }[] = [];
let org: TestUser;
let surveyId = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  org = await createOrganizationUser(server, 'tokens-org');
  surveyId = await createSurvey(server, org, 'Water point census');
}, 60_000);
afterAll(async () => {
  receiver?.close();
  await server?.stop();
});

describe('data out: API tokens and webhooks', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await openBrowser(DESKTOP);
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await new LoginPage(b.page, server.baseUrl).signIn(org.email, org.password);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('makes a token shown once, copies it, reads with it, and revokes it', async () => {
    const page = b.page;
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByText('No token yet').waitFor();
    await page.getByLabel('Name').fill('Power BI dashboard');
    await page.getByLabel('Survey', { exact: true }).selectOption({ label: 'Water point census' });
    await page.getByRole('button', { name: 'Make token' }).click();
    const shown = page.getByLabel('New API token');
    await shown.waitFor();
    const secret = (await shown.textContent())!;
    expect(secret).toMatch(/^sb_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.getByRole('status').filter({ hasText: 'Your new token' }).textContent()).toContain(`/api/v1/odata/${surveyId}/`);
    const row = page.getByRole('row', { name: /Power BI dashboard/ });
    await row.getByText('Never').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'tokens-1280.png'), fullPage: true });

    // The copied token reads the survey's responses and its OData feed; the list shows the use.
    const read = await fetch(`${server.baseUrl}/api/v1/survey/${surveyId}/responses`, { headers: { authorization: `Bearer ${secret}` } });
    expect(read.status).toBe(200);
    const odata = await fetch(`${server.baseUrl}/api/v1/odata/${surveyId}/Responses`, { headers: { authorization: `Basic ${Buffer.from(`me:${secret}`).toString('base64')}` } });
    expect(odata.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('New API token').count()).toBe(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText('Never').waitFor({ state: 'detached' });

    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Revoke Power BI dashboard' }).click();
    await toast(page, 'Token revoked').waitFor();
    await row.getByText('Revoked').waitFor();
    const after = await fetch(`${server.baseUrl}/api/v1/survey/${surveyId}/responses`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
  });

  it('the Tokens screen on a phone', async () => {
    const phone = await openBrowser(PHONE);
    try {
      await new LoginPage(phone.page, server.baseUrl).signIn(org.email, org.password);
      await phone.page.goto(`${server.baseUrl}/survey-bird/organization/tokens`);
      await phone.page.getByRole('row', { name: /Power BI dashboard/ }).waitFor();
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await phone.page.screenshot({ path: join(SHOTS, 'tokens-390.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  });

  it('adds a webhook to a local receiver and shows its delivery in the log', async () => {
    const page = b.page;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Receiver URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Signing secret').waitFor();
    await page.getByRole('cell', { name: receiverUrl }).waitFor();

    // A field user's response is the event.
    const fieldUser = await createTeamMember(server, org, surveyId, 'field-user');
    const token = await apiLogin(server, fieldUser);
    const organizationId = (await (await fetch(`${server.baseUrl}/api/v1/survey/field-user`, { headers: { authorization: `Bearer ${token}` } })).json()).survey[0].organization_id;
    const sent = await fetch(`${server.baseUrl}/api/v1/survey/respond`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ survey_id: surveyId, organization_id: organizationId, answers: { 'Is the pump working?': 'Yes' }, clientId: crypto.randomUUID() }) });
    expect(sent.status, await sent.clone().text()).toBeLessThan(300);

    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(received[0]!.headers['x-surveybird-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'response.created', surveyId });

    // The log is read when it opens: close and open it until the worker has marked the delivery.
    const toggle = page.getByRole('button', { name: 'Deliveries' });
    const log = page.locator('.hook-log');
    await expect.poll(async () => {
      if ((await toggle.getAttribute('aria-expanded')) === 'true') await toggle.click();
      await toggle.click();
      await log.getByText(/No delivery yet|response\.created/).first().waitFor();
      return log.getByText('Delivered').count();
    }, { timeout: 15_000 }).toBeGreaterThan(0);
    await log.getByRole('cell', { name: '204' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'webhooks-1280.png'), fullPage: true });
  });
});

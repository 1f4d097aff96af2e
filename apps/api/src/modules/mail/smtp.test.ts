import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiMsg, Msg } from '@survey-bird/contracts';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

/** A real SMTP server in this process: the app sends through nodemailer and we read the link back. */
const received: { to: string[]; data: string }[] = [];
/** How long the server takes to accept a mail: a slow relay must not slow down (or time) a reply. */
let acceptDelayMs = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, done) {
    let data = '';
    stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
      setTimeout(done, acceptDelayMs);
    });
  },
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await buildTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

it('sends the verification mail over SMTP, and the link in it confirms the account', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: { email: 'smtp@person.ng', password: 'pw-123456' } });
  expect(res.json()).toMatchObject({ msg: Msg.accountCreated });
  const mail = received.find((m) => m.to.includes('smtp@person.ng'));
  expect(mail?.data).toContain('Subject: Confirm your Survey Bird account');
  // Quoted-printable may wrap long lines with a soft break ("=\r\n").
  const body = mail!.data.replace(/=\r?\n/g, '');
  const link = /http:\/\/sb\.test\/confirm-email\/([\w-]+)/.exec(body);
  expect(link).not.toBeNull();
  const confirm = await t.app.inject({ method: 'GET', url: `/api/v1/user/${link![1]}` });
  expect(confirm.json()).toMatchObject({ msg: ApiMsg.accountVerified });

  const outbox = await t.app.db.kysely.selectFrom('mail_outbox').selectAll().where('to_email', '=', 'smtp@person.ng').executeTakeFirstOrThrow();
  expect(outbox.sent_at).not.toBeNull();
  expect(outbox.error).toBeNull();
  // With SMTP the outbox keeps recipient, subject and status, not the link.
  expect(outbox).toMatchObject({ subject: 'Confirm your Survey Bird account', text: '', link: null });
});

it('answers send-refresh-token and resend-verification as fast for a known e-mail as for an unknown one, then mails', async () => {
  // The known path used to wait for the token, the outbox and the SMTP relay.
  await t.app.inject({ method: 'POST', url: '/api/v1/user/register', payload: { email: 'pending@timing.ng', password: 'pw-123456' } });
  const { createUser } = await import('../../../test/helpers.js');
  await createUser(t.app, 'known@timing.ng', 'field_user');
  await t.app.mailer.idle();
  acceptDelayMs = 300;
  try {
    const time = async (url: string, email: string) => {
      const started = performance.now();
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/user${url}`, payload: { email } });
      expect(res.statusCode).toBe(200);
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [url, known] of [['/send-refresh-token', 'known@timing.ng'], ['/resend-verification-mail', 'pending@timing.ng']] as const) {
      const knownMs: number[] = [];
      const unknownMs: number[] = [];
      for (let i = 0; i < 5; i++) {
        knownMs.push(await time(url, known));
        unknownMs.push(await time(url, `ghost-${i}@timing.ng`));
      }
      expect(median(knownMs), `${url}: known ${median(knownMs).toFixed(1)} ms, unknown ${median(unknownMs).toFixed(1)} ms`).toBeLessThan(median(unknownMs) + 100);
    }
    await t.app.mailer.idle();
    const sent = await t.app.db.kysely.selectFrom('mail_outbox').select(['to_email', 'subject', 'sent_at']).where('to_email', 'in', ['known@timing.ng', 'pending@timing.ng']).execute();
    expect(sent.filter((m) => m.subject === 'Reset your Survey Bird password' && m.sent_at !== null)).toHaveLength(5);
    expect(sent.filter((m) => m.to_email === 'pending@timing.ng' && m.subject === 'Confirm your Survey Bird account' && m.sent_at !== null)).toHaveLength(6);
  } finally {
    acceptDelayMs = 0;
  }
});

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Msg } from '@survey-bird/contracts';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';

/** A real SMTP server in this process: the app sends through nodemailer and we read the link back. */
const received: { to: string[]; data: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, done) {
    let data = '';
    stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
      done();
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
  expect(res.json()).toEqual({ msg: Msg.accountCreated });
  const mail = received.find((m) => m.to.includes('smtp@person.ng'));
  expect(mail?.data).toContain('Subject: Confirm your Survey Bird account');
  // Quoted-printable may wrap long lines with a soft break ("=\r\n").
  const body = mail!.data.replace(/=\r?\n/g, '');
  const link = /http:\/\/sb\.test\/confirm-email\/([\w-]+)/.exec(body);
  expect(link).not.toBeNull();
  const confirm = await t.app.inject({ method: 'GET', url: `/api/v1/user/${link![1]}` });
  expect(confirm.json()).toEqual({ msg: Msg.accountVerified });

  const outbox = await t.app.db.kysely.selectFrom('mail_outbox').selectAll().where('to_email', '=', 'smtp@person.ng').executeTakeFirstOrThrow();
  expect(outbox.sent_at).not.toBeNull();
  expect(outbox.error).toBeNull();
});

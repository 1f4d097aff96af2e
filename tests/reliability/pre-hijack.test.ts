import { afterAll, describe, expect, it } from 'vitest';
import { request } from './harness/http.ts';
import { ENGINES, figure } from './harness/server.ts';
import { World } from './harness/world.ts';

/**
 * Issue 14 item 7, account pre-hijacking against the real server (loopback, bounded): the
 * organization invites VICTIMS people; for each, an attacker registers the invited e-mail with the
 * attacker's password first (with no token, and with a forged one), at the same time as the
 * invitee registers from the mailed link. Expect every invitee to sign in with their own password
 * and the attacker's password to open no account, whatever the interleaving.
 */
const VICTIMS = 2;
const ATTACKER_PASSWORD = 'attacker-chose-this-1';

describe.each(ENGINES)('pre-hijacking on %s', (engine) => {
  let world: World | undefined;
  afterAll(async () => world?.close());

  it(`${VICTIMS} invitees, each raced by an attacker registering their e-mail first: no attacker session, every invitee in`, async () => {
    world = await World.create(engine, 'hijack');
    const w = world;
    const post = (path: string, body: object, token?: string) => request(w.url, { path, body, ...(token ? { token } : {}) });
    const db = await w.inspector();
    const started = performance.now();
    const outcomes: { attackerLogin: number; victimLogin: number; victimSurveys: number }[] = [];
    try {
      await Promise.all(Array.from({ length: VICTIMS }, async (_, i) => {
        const email = `victim-${i}-${Date.now()}@hijack.example`;
        const invited = await post('/api/v1/field-user', { survey_id: w.surveyId, fullName: `Victim ${i}`, email, phoneNumber: '08030000000', rate: 100 }, w.orgToken);
        expect(invited.kind === 'reply' && invited.status).toBe(200);
        const [row] = await db.all<{ link: string }>("select link from mail_outbox where to_email = ? and link like '%invite=%'", [email]);
        const invite = new URL(row!.link).searchParams.get('invite')!;
        const password = `victim-own-password-${i}`;
        await Promise.all([
          post('/api/v1/user/register', { email, password: ATTACKER_PASSWORD }),
          post('/api/v1/user/register', { email, password: ATTACKER_PASSWORD, invite: 'A'.repeat(43) }),
          post('/api/v1/user/register', { email, password, invite }),
        ]);
        const attacker = await post('/api/v1/user/login', { email, password: ATTACKER_PASSWORD });
        const victim = await post('/api/v1/user/login', { email, password });
        const token = victim.kind === 'reply' && victim.status === 200 ? (victim.body as { token: string }).token : '';
        const surveys = await request(w.url, { path: '/api/v1/survey/field-user', token });
        outcomes.push({
          attackerLogin: attacker.kind === 'reply' ? attacker.status : 0,
          victimLogin: victim.kind === 'reply' ? victim.status : 0,
          victimSurveys: surveys.kind === 'reply' ? surveys.status : 0,
        });
      }));
    } finally {
      await db.close();
    }
    figure('hijack', `${engine}: ${VICTIMS} raced registrations in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(outcomes)}`);
    expect(outcomes).toHaveLength(VICTIMS);
    for (const o of outcomes) expect(o).toEqual({ attackerLogin: 401, victimLogin: 200, victimSurveys: 200 });
    expect(w.api.alive).toBe(true);
  });
});

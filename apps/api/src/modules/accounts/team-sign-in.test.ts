import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiMsg, Role } from '@survey-bird/contracts';
import { buildApp } from '../../app.js';
import { openDb } from '../../db/database.js';
import { createOrganization, createSurvey } from '../../../test/fixtures.js';
import { PASSWORD, buildTestApp, call, createUser, lastMail, type TestApp } from '../../../test/helpers.js';

// A team behind one IP signs in; failures are limited per account, in shared counters.
const REDIS_URL = 'redis://127.0.0.1:6379';
const OFFICE_IP = '192.168.10.1';
const stores = [
  { store: 'database', config: {} },
  { store: 'redis', config: { redisUrl: REDIS_URL } },
];

describe.each(stores)('sign-in limits in the $store', ({ config }) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });
  // The production limit (RATE_LIMIT_MAX=10 per minute), a fresh key prefix per app.
  const boot = async (prefix = `sb-test-${randomUUID()}:`) => {
    const t = await buildTestApp({ ...config, redisPrefix: prefix, rateLimit: { max: 10, windowMs: 60_000 } });
    apps.push(t);
    return t;
  };
  const post = (t: TestApp, url: string, payload: object, ip = OFFICE_IP) => t.app.inject({ method: 'POST', url: `/api/v1/user${url}`, payload, remoteAddress: ip });

  it('lets 30 invited people register and sign in from one IP within a minute', async () => {
    const t = await boot();
    const org = await createOrganization(t.app, 'Office Team');
    const survey = await createSurvey(t.app, org.id);
    const emails = Array.from({ length: 30 }, (_, i) => `team${i}@office.ng`);
    for (const email of emails) {
      const invited = await call(t.app, org.token, { method: 'POST', url: '/api/v1/field-user', payload: { survey_id: survey.id, fullName: 'Team Member', email, phoneNumber: '08030000000' } });
      expect(invited.statusCode).toBe(200);
    }
    const started = Date.now();
    const statuses: number[] = [];
    for (const email of emails) {
      const invite = new URL((await lastMail(t.app, email))!.link!).searchParams.get('invite');
      statuses.push((await post(t, '/register', { email, password: PASSWORD, invite })).statusCode);
      const signIn = await post(t, '/login', { email, password: PASSWORD });
      statuses.push(signIn.statusCode);
      const me = await call(t.app, signIn.json().token, { method: 'GET', url: '/api/v1/user' });
      statuses.push(me.statusCode);
      expect(me.json().user).toMatchObject({ email, role: Role.fieldUser, verified: true });
    }
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('answers the 11th wrong password of an account 429, for that account only', async () => {
    const t = await boot();
    await createUser(t.app, 'target@office.ng', Role.fieldUser);
    await createUser(t.app, 'colleague@office.ng', Role.fieldUser);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(t, '/login', { email: 'target@office.ng', password: `wrong-${i}` })).statusCode);
    expect(statuses).toEqual([...new Array<number>(10).fill(401), 429]);
    expect((await post(t, '/login', { email: 'target@office.ng', password: PASSWORD })).json()).toMatchObject({ msg: ApiMsg.tooManyRequests });
    expect((await post(t, '/login', { email: 'colleague@office.ng', password: PASSWORD })).statusCode).toBe(200);
    expect((await post(t, '/login', { email: 'colleague@office.ng', password: 'typo' })).statusCode).toBe(401);
    expect((await post(t, '/login', { email: 'colleague@office.ng', password: PASSWORD })).statusCode).toBe(200);
  });

  it('keeps mass registration of uninvited e-mails from one IP limited', async () => {
    const t = await boot();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post(t, '/register', { email: `spam${i}@bulk.ng`, password: PASSWORD })).statusCode);
    expect(statuses).toEqual([...new Array<number>(10).fill(200), 429, 429]);
    expect((await post(t, '/register', { email: 'other@bulk.ng', password: PASSWORD }, '192.168.10.2')).statusCode).toBe(200);
  });

  it('shares the counters between two API processes of one deployment', async () => {
    const prefix = `sb-test-${randomUUID()}:`;
    const first = await boot(prefix);
    // The second process: the same database (PostgreSQL schema or SQLite file), or the same Redis.
    const second = config.redisUrl ? await boot(prefix) : await secondProcess(first);
    await createUser(first.app, 'shared@office.ng', Role.fieldUser);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(i % 2 === 0 ? first : second, '/login', { email: 'shared@office.ng', password: `wrong-${i}` })).statusCode);
    expect(statuses).toEqual([...new Array<number>(10).fill(401), 429]);
  });

  /** Another app on the database of `t`. */
  async function secondProcess(t: TestApp): Promise<TestApp> {
    const db = openDb({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl, pgSchema: t.app.db.pgSchema });
    const app = await buildApp(t.config, { db, logger: false });
    await app.ready();
    const other: TestApp = { app, config: t.config, engine: t.engine, close: () => app.close() };
    apps.unshift(other);
    return other;
  }
});

describe('the Redis store unreachable', () => {
  it('answers the limited routes 503 (fail closed), never 500', async () => {
    const t = await buildTestApp({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { max: 10, windowMs: 60_000 } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: 'a@b.ng', password: 'x' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ msg: ApiMsg.serviceUnavailable });
    } finally {
      await t.close();
    }
  });
});

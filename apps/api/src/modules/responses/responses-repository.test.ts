import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, createSurvey } from '../../../test/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { bodyHashOf } from './ingest-service.js';
import { keyOf, responsesRepository, type ResponseInsert, type ResponsesRepository } from './responses-repository.js';

let t: TestApp;
let repo: ResponsesRepository;
let base: Omit<ResponseInsert, 'id' | 'client_id'>;

beforeAll(async () => {
  t = await buildTestApp();
  repo = responsesRepository(t.app.db);
  const org = await createOrganization(t.app);
  const survey = await createSurvey(t.app, org.id);
  const member = await addMember(t.app, survey.id, org.id);
  const answers = { 'Name of outlet': 'Mama Put', 'Outlet type': 'Kiosk' };
  base = {
    survey_id: survey.id,
    organization_id: org.id,
    member_id: member.id,
    user_id: member.userId!,
    answers: JSON.stringify(answers),
    body_hash: bodyHashOf(survey.id, answers),
    search_text: 'mama put kiosk',
    rate: 0,
    captured_at: null,
    created_at: Date.now(),
    status: 'approved',
    version: 1,
    meta: null,
    pending_photos: null,
  };
});
afterAll(() => t.close());

const row = (extra: Partial<ResponseInsert> = {}): ResponseInsert => ({ ...base, id: randomUUID(), client_id: randomUUID(), ...extra });
const stored = (rows: ResponseInsert[]) =>
  t.app.db.kysely.selectFrom('responses').select('id').where('id', 'in', rows.map((r) => r.id)).execute();

describe('bodyHashOf', () => {
  it('keeps the digest of responses stored before (sorted keys, SHA-256 hex)', () => {
    expect(bodyHashOf('s-1', { B: ['y', 'z'], A: 'x' })).toBe('a6f33c4596bf1e531abb24d718dcec3a7c0f0b926393fec53c99281a6e344df0');
  });
});

describe('responses repository insert', () => {
  it('answers every caller of a burst with its own rows, all stored', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? [row(), row()] : [row()]));
    const answers = await Promise.all(calls.map((rows) => repo.insert(rows)));
    answers.forEach((answer, i) => {
      expect([...answer.keys()].sort()).toEqual(calls[i]!.map((r) => keyOf(r.survey_id, r.client_id)).sort());
      for (const r of calls[i]!) expect(answer.get(keyOf(r.survey_id, r.client_id))?.id).toBe(r.id);
    });
    expect(await stored(calls.flat())).toHaveLength(50);
  });

  it('answers both callers of a key sent twice in one burst with the one row stored', async () => {
    const first = row();
    const again = { ...first, id: randomUUID() };
    const [a, b] = await Promise.all([repo.insert([first]), repo.insert([again])]);
    const key = keyOf(first.survey_id, first.client_id);
    const winner = a.get(key)?.id;
    expect(b.get(key)?.id).toBe(winner);
    expect(await stored([first, again])).toEqual([{ id: winner }]);
    // SQLite's group commit writes in arrival order; PostgreSQL's two connections race.
    if (t.app.db.engine === 'sqlite') expect(winner).toBe(first.id);
  });

  it("does not fail the other callers of a burst when one caller's rows break a constraint", async () => {
    const good = [row(), row()];
    const broken = [row(), row({ member_id: randomUUID() })];
    const results = await Promise.allSettled([repo.insert([good[0]!]), repo.insert(broken), repo.insert([good[1]!])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored(good)).toHaveLength(2);
    // The broken caller's rows are written together or not at all.
    expect(await stored(broken)).toHaveLength(0);
  });

  it('never writes inside a transaction that another part of the app has open and then rolls back', async () => {
    const ours = row();
    let written: Promise<unknown> | undefined;
    await t.app.db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        written = repo.insert([ours]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await written;
    expect(await stored([ours])).toHaveLength(1);
  });
});

describe('the SQLite connection serving requests', () => {
  it('keeps statement journals in memory (temp_store = MEMORY), where a batch\'s trigger-firing inserts open them', () => {
    if (!t.app.db.sqlite) return;
    expect(t.app.db.sqlite.pragma('temp_store', { simple: true })).toBe(2);
  });
});

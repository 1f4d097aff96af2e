import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { RowCache } from './row-cache.js';
import { WriteWatch } from './write-watch.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('WriteWatch', () => {
  it('counts a Kysely write for the tables it names, before and after it runs, and not a read', async () => {
    const { kysely, writes } = t.app.db;
    const users = () => writes.generation(['users']);
    const sessions = () => writes.generation(['sessions']);
    const [u0, s0] = [users(), sessions()];
    await kysely.selectFrom('users').select('id').where('email', '=', 'nobody@x.ng').execute();
    await sql`select 1`.execute(kysely);
    expect([users(), sessions()]).toEqual([u0, s0]);
    await kysely.updateTable('users').set({ full_name: 'Same' }).where('email', '=', 'nobody@x.ng').execute();
    expect(users()).toBe(u0 + 2);
    expect(sessions()).toBe(s0);
    await kysely.deleteFrom('sessions').where('id', '=', 'none').execute();
    expect(sessions()).toBe(s0 + 2);
  });

  it('counts a write it cannot name (raw SQL, DDL) for every table', async () => {
    const { kysely, writes } = t.app.db;
    const before = writes.generation(['members']);
    await sql`update users set full_name = full_name where email = ${'nobody@x.ng'}`.execute(kysely);
    expect(writes.generation(['members'])).toBeGreaterThan(before);
  });
});

describe('RowCache', () => {
  it('reads again after a write to its tables, or once its TTL has passed, and never otherwise', async () => {
    const writes = new WriteWatch();
    const cache = new RowCache<number>(writes, ['members'], 80);
    let loads = 0;
    const get = () => cache.get('k', async () => ++loads);
    expect([await get(), await get()]).toEqual([1, 1]);
    writes.transformQuery({ queryId: { queryId: 'q' }, node: { kind: 'DeleteQueryNode', from: { kind: 'FromNode', froms: [{ kind: 'TableNode', table: { kind: 'SchemableIdentifierNode', identifier: { kind: 'IdentifierNode', name: 'surveys' } } }] } } as never });
    expect(await get()).toBe(1);
    writes.transformQuery({ queryId: { queryId: 'q' }, node: { kind: 'DeleteQueryNode', from: { kind: 'FromNode', froms: [{ kind: 'TableNode', table: { kind: 'SchemableIdentifierNode', identifier: { kind: 'IdentifierNode', name: 'members' } } }] } } as never });
    expect(await get()).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(await get()).toBe(3);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { checkStore, Ledger, makeItem, photoBytes, pickCut, sendBatch, sendPhoto, sendSingle, type Item } from './harness/field.ts';
import { ENGINES, FULL, figure } from './harness/server.ts';
import { World, type FieldUser } from './harness/world.ts';

/**
 * Item 1, replay storm: N field users x M responses each, every response sent three times (single
 * POST /survey/respond and batched POST /sync/responses, mixed; the three copies sometimes at once),
 * 10% of connections cut mid-body or before the reply is read, and a photo for a share of the
 * responses (uploaded twice, also cut). Every response is then retried until acknowledged, as the
 * phone's outbox does. Expect exactly N*M rows, no duplicate, every acknowledgement honoured, no
 * orphan photo and uploads on disk matching the files table one to one.
 */
const USERS = FULL ? 50 : 10;
const PER_USER = FULL ? 200 : 50;
const CUT_RATE = 0.1;
const PHOTO_RATE = 0.2;
const SENDS = 3;
const BATCH_MAX = 12;

async function untilAcked(ledger: Ledger, attempt: () => Promise<unknown>, done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 40 && !done(); i++) await attempt();
  if (!done()) ledger.problem(`${what} never acknowledged`);
}

async function fieldUserStorm(world: World, user: FieldUser, ledger: Ledger, offset: number): Promise<void> {
  const items: Item[] = Array.from({ length: PER_USER }, (_, i) => makeItem(world, offset + i));
  for (let i = 0; i < items.length; ) {
    const chunk = items.slice(i, i + 1 + Math.floor(Math.random() * BATCH_MAX));
    i += chunk.length;
    for (const item of chunk) {
      if (Math.random() >= PHOTO_RATE) continue;
      const photo = photoBytes(4 + Math.floor(Math.random() * 12));
      for (let s = 0; s < 2; s++) await sendPhoto(world.url, user.token, item, photo, ledger, { cut: pickCut(CUT_RATE) });
      await untilAcked(ledger, () => sendPhoto(world.url, user.token, item, photo, ledger, { cut: pickCut(CUT_RATE) }), () => ledger.photoRefs.has(item.clientId), `photo of ${item.clientId}`);
      const ref = ledger.photoRefs.get(item.clientId);
      if (ref) item.answers['Shelf photo'] = ref;
    }
    const sendOnce = async () => {
      if (Math.random() < 0.5) await sendBatch(world.url, user.token, chunk, ledger, { cut: pickCut(CUT_RATE) });
      else for (const item of chunk) await sendSingle(world.url, user.token, item, ledger, { cut: pickCut(CUT_RATE) });
    };
    if (Math.random() < 0.3) await Promise.all(Array.from({ length: SENDS }, sendOnce));
    else for (let s = 0; s < SENDS; s++) await sendOnce();
    for (const item of chunk) {
      await untilAcked(ledger, () => sendSingle(world.url, user.token, item, ledger, { cut: pickCut(CUT_RATE) }), () => ledger.acked.has(item.clientId), `response ${item.clientId}`);
    }
  }
}

describe.each(ENGINES)('replay storm on %s', (engine) => {
  let world: World | undefined;
  afterAll(async () => world?.close());

  it(`${USERS} field users x ${PER_USER} responses, each sent ${SENDS} times with ${CUT_RATE * 100}% of connections cut: stored exactly once`, async () => {
    world = await World.create(engine, 'storm');
    const t0 = performance.now();
    const users = await world.inviteFieldUsers(USERS, 'storm');
    const setupMs = performance.now() - t0;

    const ledger = new Ledger();
    const t1 = performance.now();
    await Promise.all(users.map((u, i) => fieldUserStorm(world!, u, ledger, i * PER_USER)));
    const stormMs = performance.now() - t1;
    expect(world.api.alive).toBe(true);

    await world.api.stop();
    const db = await world.inspector();
    const check = await checkStore(world, db, users, ledger);
    await db.close();

    const cuts = ledger.tally.get('cut-body') + ledger.tally.get('cut-reply');
    figure('storm', `${engine}: ${USERS}x${PER_USER} in ${(stormMs / 1000).toFixed(1)} s (users set up via invite/register/confirm in ${(setupMs / 1000).toFixed(1)} s); requests ${ledger.tally.total()} [${ledger.tally}], cut ${cuts} (${((100 * cuts) / ledger.tally.total()).toFixed(1)}%)`);
    figure('storm', `${engine}: rows ${check.rows}, distinct clientIds ${check.distinctClientIds}, duplicates ${check.duplicates}, acknowledged ${ledger.acked.size}, acknowledged-but-missing ${check.ackedMissing}, id mismatches ${check.idMismatch}`);
    figure('storm', `${engine}: photos acknowledged ${ledger.photoRefs.size}, file rows ${check.fileRows}, files on disk ${check.filesOnDisk}, temp files ${check.tempFiles}, rows without file ${check.rowsWithoutFile}, files without row ${check.filesWithoutRow}, orphan photos ${check.orphanPhotos}, dangling references ${check.danglingReferences}`);
    if (ledger.problems.length) console.log(ledger.problems.slice(0, 10).join('\n'));

    expect(ledger.problems).toEqual([]);
    expect(ledger.tally.range(500, 599)).toBe(0);
    expect(check.rows).toBe(USERS * PER_USER);
    expect(check.distinctClientIds).toBe(USERS * PER_USER);
    expect(check.duplicates).toBe(0);
    expect(ledger.acked.size).toBe(USERS * PER_USER);
    expect(check.ackedMissing).toBe(0);
    expect(check.idMismatch).toBe(0);
    expect(check.fileRows).toBe(ledger.photoRefs.size);
    expect(check.orphanPhotos).toBe(0);
    expect(check.danglingReferences).toBe(0);
    expect(check.rowsWithoutFile).toBe(0);
    expect(check.filesWithoutRow).toBe(0);
    expect(check.tempFiles).toBe(0);
    expect(world.api.exits.every((e) => e.code === 0)).toBe(true);
  }, FULL ? 3_600_000 : 300_000);
});

import { randomBytes, randomUUID } from 'node:crypto';
import { tinyPng } from '../../../apps/api/test/images.ts';
import { multipart, request, Tally, type CutMode, type Outcome } from './http.ts';
import type { FieldUser, Inspector, World } from './world.ts';
import { fileIdOf, uploadsOnDisk } from './world.ts';

export const PHOTO_QUESTION = 'Shelf photo';

export interface Item {
  clientId: string;
  survey_id: string;
  organization_id: string;
  answers: Record<string, string | string[]>;
  capturedAt: string;
}

const REMARK_WORDS = 'shelf stock rice beans garri palm oil sugar owner closed busy market price naira kiosk customer supplier delivery empty full tomorrow morning evening shop road junction'.split(' ');
// Options of the demo survey's Ward list: a large select's answer must be in its version's dataset.
const WARDS = ['Ikeja - Ward A', 'Surulere - Ward B', 'Ikeja - Ward C', 'Surulere - Ward D', 'Ikeja - Ward E', 'Surulere - Ward F'];

/** A response to the demo retail survey, as the phone would queue it. */
export function makeItem(world: World, n: number, opts: { remarksBytes?: number } = {}): Item {
  const answers: Record<string, string | string[]> = {
    'Outlet name': `Outlet ${n} ${randomBytes(3).toString('hex')}`,
    'Outlet type': 'Kiosk',
    Ward: WARDS[n % WARDS.length]!,
    'Products in stock': ['Rice', 'Garri'],
    'Outlet location': `6.${(45000 + (n % 9999)).toString()}, 3.${(30000 + (n % 9999)).toString()} (±8 m)`,
  };
  if (opts.remarksBytes) {
    // Words, as a field user writes them (random bytes would make the trigram search index balloon).
    let text = '';
    while (text.length < opts.remarksBytes) text += `${REMARK_WORDS[Math.floor(Math.random() * REMARK_WORDS.length)]} `;
    answers.Remarks = text.slice(0, opts.remarksBytes);
  }
  return { clientId: randomUUID(), survey_id: world.surveyId, organization_id: world.organizationId, answers, capturedAt: new Date().toISOString() };
}

/** A small real PNG, padded to a realistic photo size with a chunk the server keeps. */
export function photoBytes(padKb = 8): Buffer {
  return tinyPng(16, 16, { padBytes: padKb * 1024 });
}

/** What the field users were told: every acknowledged clientId and the _id the server gave it. */
export class Ledger {
  readonly acked = new Map<string, string>();
  readonly photoRefs = new Map<string, string>();
  /** Who first sent each clientId: a retry must come from the same field user. */
  readonly owner = new Map<string, FieldUser>();
  readonly tally = new Tally();
  readonly problems: string[] = [];
  /** Statuses that are not a failure in this scenario (e.g. 503 during a connection loss). */
  tolerated = new Set<number>();

  ack(clientId: string, id: string): void {
    const before = this.acked.get(clientId);
    if (before && before !== id) this.problem(`clientId ${clientId} acknowledged as ${before} and then as ${id}`);
    this.acked.set(clientId, id);
  }

  problem(text: string): void {
    if (this.problems.length < 50) this.problems.push(text);
  }

  /** Every reply must be a 2xx, a tolerated status, or a cut/connection error; a 5xx must carry {msg}. */
  record(o: Outcome, what: string): void {
    this.tally.add(o);
    if (o.kind !== 'reply' || o.status < 300) return;
    if (!this.tolerated.has(o.status)) this.problem(`${what}: unexpected ${o.status} ${o.text.slice(0, 200)}`);
    else if (typeof o.body?.msg !== 'string' || !o.body.msg) this.problem(`${what}: ${o.status} without {msg}: ${o.text.slice(0, 200)}`);
  }
}

export interface SendOptions {
  cut?: CutMode;
  timeoutMs?: number;
}

/** POST /survey/respond; acknowledges on 2xx. */
export async function sendSingle(base: string, token: string, item: Item, ledger: Ledger, opts: SendOptions = {}): Promise<Outcome> {
  const o = await request(base, { path: '/api/v1/survey/respond', token, body: item, ...opts });
  ledger.record(o, 'respond');
  if (o.kind === 'reply' && o.status >= 200 && o.status < 300) {
    if (o.body.clientId !== item.clientId) ledger.problem(`respond answered clientId ${o.body.clientId} for ${item.clientId}`);
    ledger.ack(item.clientId, o.body._id);
  }
  return o;
}

/** POST /sync/responses; acknowledges each item whose result is 2xx. */
export async function sendBatch(base: string, token: string, items: Item[], ledger: Ledger, opts: SendOptions = {}): Promise<Outcome> {
  const o = await request(base, { path: '/api/v1/sync/responses', token, body: { responses: items }, ...opts });
  ledger.record(o, 'sync');
  if (o.kind === 'reply' && o.status >= 200 && o.status < 300) {
    const results = o.body.results as { clientId: string; status: number; msg: string; _id?: string }[];
    if (results.length !== items.length) ledger.problem(`sync answered ${results.length} results for ${items.length} items`);
    for (const r of results) {
      if (r.status >= 200 && r.status < 300 && r._id) ledger.ack(r.clientId, r._id);
      else if (!ledger.tolerated.has(r.status)) ledger.problem(`sync item ${r.clientId}: ${r.status} ${r.msg}`);
    }
  }
  return o;
}

/** POST /files/image for the item's photo question; the reference on 2xx. */
export async function sendPhoto(base: string, token: string, item: Item, photo: Buffer, ledger: Ledger, opts: SendOptions = {}): Promise<Outcome> {
  const { body, contentType } = multipart(
    { question: PHOTO_QUESTION, survey_name: item.survey_id, organization_name: item.organization_id, clientId: item.clientId },
    { name: 'file', filename: 'shelf.png', type: 'image/png', data: photo },
  );
  const o = await request(base, { path: '/api/v1/files/image', token, body, contentType, ...opts });
  ledger.record(o, 'upload');
  if (o.kind === 'reply' && o.status >= 200 && o.status < 300) {
    const ref = o.body[PHOTO_QUESTION] as string | undefined;
    if (!ref) ledger.problem(`upload reply without a reference: ${o.text}`);
    else {
      const before = ledger.photoRefs.get(item.clientId);
      if (before && before !== ref) ledger.problem(`photo of ${item.clientId} got two references: ${before} and ${ref}`);
      ledger.photoRefs.set(item.clientId, ref);
    }
  }
  return o;
}

export const pickCut = (rate: number): CutMode | undefined => (Math.random() < rate ? (Math.random() < 0.5 ? 'body' : 'reply') : undefined);

export interface StoreCheck {
  rows: number;
  distinctClientIds: number;
  duplicates: number;
  ackedMissing: number;
  idMismatch: number;
  unacked: number;
  fileRows: number;
  filesOnDisk: number;
  tempFiles: number;
  rowsWithoutFile: number;
  filesWithoutRow: number;
  orphanPhotos: number;
  danglingReferences: number;
}

/**
 * What the server stored for these users against what they were told. An orphan photo is a files
 * row of these users whose (clientId, question) belongs to an acknowledged response that does not
 * reference it; a dangling reference is a response answer naming a file id with no row.
 */
export async function checkStore(world: World, db: Inspector, users: FieldUser[], ledger: Ledger): Promise<StoreCheck> {
  const ids = users.map((u) => u.userId);
  const marks = ids.map(() => '?').join(',');
  const rows = await db.all<{ id: string; client_id: string; answers: string }>(`select id, client_id, answers from responses where survey_id = ? and user_id in (${marks})`, [world.surveyId, ...ids]);
  const byClient = new Map<string, { id: string; answers: Record<string, unknown> }>();
  for (const r of rows) byClient.set(r.client_id, { id: r.id, answers: JSON.parse(r.answers) as Record<string, unknown> });
  let ackedMissing = 0;
  let idMismatch = 0;
  for (const [clientId, id] of ledger.acked) {
    const row = byClient.get(clientId);
    if (!row) ackedMissing++;
    else if (row.id !== id) idMismatch++;
  }
  const unacked = [...byClient.keys()].filter((c) => !ledger.acked.has(c)).length;

  const files = await db.all<{ id: string; client_id: string; question: string; path: string; size: number }>(`select id, client_id, question, path, size from files where user_id in (${marks})`, ids);
  const allFiles = await db.all<{ id: string; path: string; size: number }>('select id, path, size from files');
  const { finals, temps } = uploadsOnDisk(world.dataDir);
  const rowPaths = new Set(allFiles.map((f) => f.path));
  let rowsWithoutFile = 0;
  for (const f of allFiles) if (finals.get(f.path) !== Number(f.size)) rowsWithoutFile++;
  let filesWithoutRow = 0;
  for (const p of finals.keys()) if (!rowPaths.has(p)) filesWithoutRow++;
  let orphanPhotos = 0;
  for (const f of files) {
    if (!ledger.acked.has(f.client_id)) continue;
    const answer = byClient.get(f.client_id)?.answers[f.question];
    if (typeof answer !== 'string' || fileIdOf(answer) !== f.id) orphanPhotos++;
  }
  const fileIds = new Set(allFiles.map((f) => f.id));
  let danglingReferences = 0;
  for (const r of byClient.values()) {
    const ref = r.answers[PHOTO_QUESTION];
    if (typeof ref === 'string' && !fileIds.has(fileIdOf(ref))) danglingReferences++;
  }
  return {
    rows: rows.length,
    distinctClientIds: byClient.size,
    duplicates: rows.length - byClient.size,
    ackedMissing,
    idMismatch,
    unacked,
    fileRows: files.length,
    filesOnDisk: finals.size,
    tempFiles: temps.length,
    rowsWithoutFile,
    filesWithoutRow,
    orphanPhotos,
    danglingReferences,
  };
}

export interface DriveOptions {
  world: World;
  users: FieldUser[];
  items: Item[];
  ledger: Ledger;
  concurrency: number;
  /** Largest batch; each chunk goes as one /sync/responses call or as single /survey/respond calls (half each). */
  batchMax: number;
  /** Share of items that get a photo uploaded first. */
  photoRate?: number;
  /** Called after every acknowledgement (the crash scenario kills the server from here). */
  onProgress?: () => void;
  /** Stop a worker at its first connection error (the server is gone). */
  stopOnError?: () => boolean;
  timeoutMs?: number;
}

/** Sends every item once through `concurrency` workers (no retries); answers the items attempted. */
export async function drive(o: DriveOptions): Promise<Set<string>> {
  const attempted = new Set<string>();
  let next = 0;
  const worker = async (w: number) => {
    const user = o.users[w % o.users.length]!;
    while (next < o.items.length) {
      const chunk = o.items.slice(next, next + 1 + Math.floor(Math.random() * o.batchMax));
      next += chunk.length;
      for (const item of chunk) {
        attempted.add(item.clientId);
        if (!o.ledger.owner.has(item.clientId)) o.ledger.owner.set(item.clientId, user);
      }
      const outcomes: Outcome[] = [];
      for (const item of chunk) {
        if (!o.photoRate || Math.random() >= o.photoRate || item.answers[PHOTO_QUESTION]) continue;
        const r = await sendPhoto(o.world.url, user.token, item, photoBytes(8), o.ledger, { timeoutMs: o.timeoutMs });
        outcomes.push(r);
        const ref = o.ledger.photoRefs.get(item.clientId);
        if (ref) item.answers[PHOTO_QUESTION] = ref;
      }
      if (chunk.length > 1 && Math.random() < 0.5) outcomes.push(await sendBatch(o.world.url, user.token, chunk, o.ledger, { timeoutMs: o.timeoutMs }));
      else for (const item of chunk) outcomes.push(await sendSingle(o.world.url, user.token, item, o.ledger, { timeoutMs: o.timeoutMs }));
      o.onProgress?.();
      if (outcomes.some((x) => x.kind === 'error') && o.stopOnError?.()) return;
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
  return attempted;
}

/** Resends (single calls) every item not yet acknowledged until all are, or `deadlineMs` passes. */
export async function settle(world: World, users: FieldUser[], items: Item[], ledger: Ledger, deadlineMs = 60_000): Promise<number> {
  const until = Date.now() + deadlineMs;
  let rounds = 0;
  for (;;) {
    const open = items.filter((i) => !ledger.acked.has(i.clientId));
    if (open.length === 0 || Date.now() > until) return open.length;
    if (rounds++ > 0) await new Promise((r) => setTimeout(r, 200));
    let k = 0;
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        while (k < open.length) {
          const item = open[k++]!;
          if (!ledger.owner.has(item.clientId)) ledger.owner.set(item.clientId, users[w % users.length]!);
          await sendSingle(world.url, ledger.owner.get(item.clientId)!.token, item, ledger);
        }
      }),
    );
  }
}

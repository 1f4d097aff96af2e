import type { Answers } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db, type DraftForm, type OutboxRecord, type StoredRecord } from './db';
import { draftOwner } from './drafts';
import { photoRow, readPhotos } from './photo-store';
import { openDraftAnswers, openRecord, sealRecordFields } from './sealing';
import { sealJson } from './vault';

/**
 * Save to file: every unsent response of the account (queued, sending, refused, and sent ones
 * whose photos have not followed), their photos and the drafts, in one file encrypted with a
 * passphrase the field user chooses; loaded on this phone or another signed in as the same person.
 * Records keep their clientId, placeholders and photo references, so what is sent after a load is
 * the same request the first phone would have made: the server stores it once (docs/offline.md).
 *
 * File: one line of JSON (format, key derivation, IV), then AES-GCM ciphertext whose additional
 * data is that line (a changed header fails to open). The key is PBKDF2-SHA-256 of the passphrase,
 * 600,000 iterations (OWASP's 2023 figure for that hash) and a random 16-byte salt. The plaintext is
 * a 4-byte length, the JSON body, then the photos' bytes one after another.
 */

export const SAVE_FORMAT = 'survey-bird-unsent';
export const PBKDF2_ITERATIONS = 600_000;
export const MIN_PASSPHRASE = 8;

interface Header {
  format: typeof SAVE_FORMAT;
  version: 1;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  cipher: { name: 'AES-GCM'; iv: string };
}

interface SavedPhoto {
  question: string;
  type: string;
  size: number;
  /** Where its bytes start after the body. */
  offset: number;
}

type SavedRecord = Omit<OutboxRecord, 'claim'>;

interface Body {
  account: AccountKey;
  savedAt: string;
  responses: { record: SavedRecord; photos: SavedPhoto[] }[];
  drafts: { surveyId: string; clientId: string; answers: Answers; updatedAt: number; form?: DraftForm; photos: SavedPhoto[] }[];
}

export interface SaveResult {
  file: Blob;
  responses: number;
  photos: number;
  drafts: number;
}

export interface LoadResult {
  /** Responses put on this phone by the load. */
  added: number;
  /** Responses this phone already had (a second load of one file adds nothing). */
  alreadyHere: number;
  photos: number;
  drafts: number;
  /** Drafts not loaded because this phone has a draft of the same survey. */
  draftsKept: number;
}

export class SaveFileError extends Error {
  override name = 'SaveFileError';
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number, use: KeyUsage): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, { name: 'AES-GCM', length: 256 }, false, [use]);
}

/** Responses whose text or photos have not all reached the server, oldest first. */
export async function unsentRecords(account: AccountKey): Promise<StoredRecord[]> {
  const key = accountKey(account);
  const rows = await db.outbox.where('[account+createdAt]').between([key, -Infinity], [key, Infinity]).toArray();
  return rows.filter((r) => r.status !== 'synced' || (r.photosPending?.length ?? 0) > 0);
}

export async function saveUnsentToFile(account: AccountKey, passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<SaveResult> {
  if (passphrase.length < MIN_PASSPHRASE) throw new SaveFileError(`Choose a passphrase of at least ${MIN_PASSPHRASE} characters`);
  const key = accountKey(account);
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const keep = async (photos: Record<string, Blob>): Promise<SavedPhoto[]> => {
    const out: SavedPhoto[] = [];
    for (const [question, blob] of Object.entries(photos)) {
      const bytes = new Uint8Array(await blob.arrayBuffer());
      out.push({ question, type: blob.type || 'image/jpeg', size: bytes.length, offset });
      chunks.push(bytes);
      offset += bytes.length;
    }
    return out;
  };
  const body: Body = { account: key, savedAt: new Date().toISOString(), responses: [], drafts: [] };
  for (const stored of await unsentRecords(key)) {
    const { claim: _claim, ...record } = await openRecord(stored);
    body.responses.push({ record, photos: await keep(await readPhotos(record.id)) });
  }
  for (const draft of await db.drafts.where('account').equals(key).toArray()) {
    const photos = await keep(await readPhotos(draftOwner(key, draft.surveyId)));
    body.drafts.push({ surveyId: draft.surveyId, clientId: draft.clientId, answers: await openDraftAnswers(draft), updatedAt: draft.updatedAt, ...(draft.form ? { form: draft.form } : {}), photos });
  }
  const json = new TextEncoder().encode(JSON.stringify(body));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, json.length);
  const plain = await new Blob([length, json, ...chunks] as BlobPart[]).arrayBuffer();

  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const header: Header = { format: SAVE_FORMAT, version: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: b64(salt) }, cipher: { name: 'AES-GCM', iv: b64(iv) } };
  const line = new TextEncoder().encode(`${JSON.stringify(header)}\n`);
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: line }, await passphraseKey(passphrase, salt, iterations, 'encrypt'), plain);
  const photoCount = body.responses.reduce((n, r) => n + r.photos.length, 0) + body.drafts.reduce((n, d) => n + d.photos.length, 0);
  return { file: new Blob([line, cipher], { type: 'application/octet-stream' }), responses: body.responses.length, photos: photoCount, drafts: body.drafts.length };
}

async function readFile(file: Blob, passphrase: string): Promise<{ body: Body; bytes: Uint8Array<ArrayBuffer> }> {
  const all = new Uint8Array(await file.arrayBuffer());
  const newline = all.indexOf(10);
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(all.subarray(0, newline))) as Header;
  } catch {
    header = {} as Header;
  }
  if (newline < 0 || header.format !== SAVE_FORMAT) throw new SaveFileError('This is not a file of unsent work saved by Survey Bird');
  if (header.version !== 1 || header.kdf?.name !== 'PBKDF2' || header.cipher?.name !== 'AES-GCM') throw new SaveFileError('This file was saved by a newer version of Survey Bird: update the app, then load it');
  let plain: ArrayBuffer;
  try {
    const key = await passphraseKey(passphrase, unb64(header.kdf.salt), header.kdf.iterations, 'decrypt');
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: unb64(header.cipher.iv), additionalData: all.subarray(0, newline + 1) }, key, all.subarray(newline + 1));
  } catch {
    throw new SaveFileError('Wrong passphrase, or the file is damaged');
  }
  const length = new DataView(plain).getUint32(0);
  const body = JSON.parse(new TextDecoder().decode(new Uint8Array(plain, 4, length))) as Body;
  return { body, bytes: new Uint8Array(plain, 4 + length) };
}

/**
 * Puts the file's responses and drafts on this phone for the signed-in account. A response the
 * phone already holds (same clientId) is left as it is; one left `sending` goes back in the queue.
 * Each response goes in with its photos in one transaction, sealed under this phone's key.
 */
export async function loadUnsentFromFile(account: AccountKey, file: Blob, passphrase: string): Promise<LoadResult> {
  const key = accountKey(account);
  const { body, bytes } = await readFile(file, passphrase);
  if (accountKey(body.account) !== key) throw new SaveFileError(`This file holds the unsent work of ${body.account}: sign in as them to load it`);
  const blobOf = (p: SavedPhoto) => new Blob([bytes.subarray(p.offset, p.offset + p.size)], { type: p.type });
  const result: LoadResult = { added: 0, alreadyHere: 0, photos: 0, drafts: 0, draftsKept: 0 };
  const now = Date.now();
  for (const { record, photos } of body.responses) {
    if (await db.outbox.get(record.id)) {
      result.alreadyHere++;
      continue;
    }
    const { answers, meta, ...rest } = record;
    const queued = rest.status === 'sending' || rest.status === 'queued';
    const stored: StoredRecord = { ...rest, account: key, ...(await sealRecordFields(key, answers, meta)), ...(queued ? { status: 'queued', nextAttemptAt: now, attempts: 0 } : {}), updatedAt: now };
    const rows = await Promise.all(photos.map((p) => photoRow(key, record.id, p.question, blobOf(p))));
    try {
      await db.transaction('rw', db.outbox, db.photos, () => Promise.all([db.outbox.add(stored), db.photos.bulkPut(rows)]));
      result.added++;
      result.photos += rows.length;
    } catch (err) {
      if ((err as Error | undefined)?.name !== 'ConstraintError') throw err;
      result.alreadyHere++;
    }
  }
  for (const draft of body.drafts) {
    const sealed = await sealJson(key, draft.answers);
    const owner = draftOwner(key, draft.surveyId);
    const rows = await Promise.all(draft.photos.map((p) => photoRow(key, owner, p.question, blobOf(p))));
    const put = await db.transaction('rw', db.drafts, db.photos, db.outbox, async () => {
      // This phone's own draft of that survey wins; a draft already submitted here is not brought back.
      if ((await db.drafts.get([key, draft.surveyId])) || (await db.photos.where('owner').equals(owner).count()) > 0 || (await db.outbox.get(draft.clientId))) return false;
      await db.drafts.put({ account: key, surveyId: draft.surveyId, clientId: draft.clientId, ...(sealed ? { sealed } : { answers: draft.answers }), updatedAt: draft.updatedAt, ...(draft.form ? { form: draft.form } : {}) });
      await db.photos.bulkPut(rows);
      return true;
    });
    if (put) {
      result.drafts++;
      result.photos += rows.length;
    } else result.draftsKept++;
  }
  return result;
}

/** File name for a save: the account and the day, so several phones' files can sit side by side. */
export const saveFileName = (account: AccountKey, at = new Date()) => `survey-bird-unsent-${account.replace(/[^a-z0-9]+/g, '-')}-${at.toISOString().slice(0, 10)}.sbsave`;

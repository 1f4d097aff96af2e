import type { Answers, EarningsReply, EncryptedAnswers, MyResponse, PhotoPlaceholder, ResponseAudio, ResponseCapture, ResponseStatus, Survey } from '@survey-bird/contracts';
import { Dexie, type Table } from 'dexie';
import { indexedDbName } from '../session/storage-keys';
export { metaKey } from '../session/storage-keys';

/**
 * The IndexedDB database 'survey-bird' (see index.ts for what lives where). Only files of this
 * folder touch it; everything else goes through the functions exported by index.ts.
 * A schema change is a new `this.version(n)` block below, never an edit of an old one.
 */

import type { AccountKey } from '../session/account-key';
export { accountKey, type AccountKey } from '../session/account-key';

export type OutboxStatus = 'queued' | 'sending' | 'synced' | 'failed';

/** Which sync run is sending a record, so a crashed run's records can be recovered and a late reply ignored. */
export interface Claim {
  run: string;
  at: number;
  /** The run held the Web Lock: once another run holds it, this one is dead. */
  locked: boolean;
}

/** AES-GCM ciphertext under the account's key (vault.ts). */
export interface Sealed {
  iv: Uint8Array;
  data: ArrayBuffer;
}

/**
 * An outbox row as stored: the answers and the capture meta are `sealed` (JSON of
 * `{ answers, meta }`); rows written before encryption carry them in clear until the vault's
 * upgrade seals them (sealing.ts). Everything else stays clear: the sync needs its indexes.
 */
export type StoredRecord = Omit<OutboxRecord, 'answers' | 'meta'> & { sealed?: Sealed; answers?: Answers; meta?: ResponseCapture };

/** An outbox record as the screens and the sync see it, answers opened. */
export interface OutboxRecord {
  /** The response's clientId (a UUID made on this phone): the server's idempotency key. */
  id: string;
  account: AccountKey;
  surveyId: string;
  organizationId: string;
  /** As typed by the user; photo answers are added from photoRefs when sent. */
  answers: Answers;
  /** When the user pressed submit (ISO, the phone's clock); sent as capturedAt. */
  capturedAt: string;
  /** The survey version the form showed; absent in records queued before versions (= 1). */
  version?: number;
  /** What the phone recorded with it (start, time in the form, GPS fix, device, photo hashes); absent before. */
  meta?: ResponseCapture;
  createdAt: number;
  updatedAt: number;
  status: OutboxStatus;
  /** Failed attempts since the last success or user retry; drives the backoff. */
  attempts: number;
  /** Not sent before this time (epoch ms). */
  nextAttemptAt: number;
  /** Questions whose answer is a photo kept in the photos table until uploaded. */
  photoQuestions: string[];
  /** Server references of photos already uploaded: a retry does not upload them again. */
  photoRefs: Record<string, string>;
  claim?: Claim;
  /** The last answer that was not a success (kept on failed and on retrying records). */
  lastError?: { status: number; msg: string; question?: string };
  /** The server's id once received. */
  serverId?: string;
  syncedAt?: number;
  /** Fix and resubmit: the server `_id` of the returned response this record revises. */
  revisionOf?: string;
  /** A back-check: the server `_id` of the response it revisits (its answers are the back-check form's). */
  backcheckOf?: string;
  /**
   * The placeholders the response was (or will be) sent with, by question, made once
   * before the first send so every retry carries the same ones (the server's body hash has them).
   */
  photoPlaceholders?: Record<string, PhotoPlaceholder>;
  /** A synced record's photos the server still waits for (their bytes stay in `photos` until sent). */
  photosPending?: string[];
  /** The server's last refusal of one of those photos (a 4xx), shown on the phone; the photo stays pending. */
  photoError?: { question: string; status: number; msg: string };
  /** The interview's audio audit as the response reports it (sent as `audio`). */
  audio?: ResponseAudio;
  /** A recorded clip waiting to go after the response (its bytes in `photos` under audioOwner(id), question ''). */
  audioPending?: boolean;
  /** The server's last refusal of the clip (a 4xx); the clip is then dropped. */
  audioError?: { status: number; msg: string };
  /** End-to-end encryption: the survey's public key when queued; the answers leave the phone only sealed to it. */
  encryptTo?: string;
  /**
   * The answers sealed to encryptTo, made once before the first send so every retry carries the
   * same envelope (the server's body hash has it); `refs` is the photoRefs it was made with.
   */
  officeSealed?: { refs: string; envelope: EncryptedAnswers };
}

/** Where an outbox record's audio audit clip is kept in `photos`: apart from its photos, so a response's photo purge leaves it. */
export const audioOwner = (id: string): string => `audio:${id}`;

/** What the server last said about one of the account's responses (the changes feed). */
export interface StatusRow {
  account: AccountKey;
  /** The response's server `_id`. */
  id: string;
  clientId: string;
  surveyId: string;
  status: ResponseStatus;
  comment: string | null;
  revision: number;
  paid: boolean;
  /** ISO, the server's time of the change. */
  changedAt: string;
  /** A returned response's answers (its latest revision), to open it for fixing; sealed when stored. */
  answers?: Answers;
  sealed?: Sealed;
}

/** The account's own responses as the server last listed them, page 1 onwards, and when (meta `myResponses:<account>`). */
export interface ResponsesListSnapshot {
  rows: MyResponse[];
  /** Pages loaded, from 1. */
  pages: number;
  totalCount: number;
  hasNextPage: boolean;
  at: number;
}

/** The account's totals as the server last answered them, and when (meta `earnings:<account>`). */
export interface EarningsSnapshot {
  reply: EarningsReply;
  at: number;
}

/** A photo's bytes: a Blob, or an ArrayBuffer copy where the browser cannot keep Blobs (see photo-store.ts). */
export interface PhotoRow {
  /** An outbox record id, or a draft key (draftOwner()). */
  owner: string;
  question: string;
  /** Whose key sealed the bytes; absent on rows written before encryption. */
  account?: AccountKey;
  /**
   * The bytes, encrypted (vault.ts): the ciphertext in `data`, or in `blob` where this browser keeps
   * Blobs (photo-store.ts). Without `sealed`, blob/buffer hold the bytes in clear (no WebCrypto, or
   * rows from before the upgrade).
   */
  sealed?: { iv: Uint8Array; data?: ArrayBuffer };
  blob?: Blob;
  buffer?: ArrayBuffer;
  type: string;
  size: number;
}

export interface SurveyRow {
  account: AccountKey;
  surveyId: string;
  survey: Survey;
  /** Place in the server's list, which getCachedSurveys keeps. */
  position: number;
  cachedAt: number;
}

export interface DatasetRow {
  id?: number;
  account: AccountKey;
  surveyId: string;
  question: string;
  value: string;
  lower: string;
}

export interface DraftRow {
  account: AccountKey;
  surveyId: string;
  /** Becomes the response's clientId on submit, so a double submit queues one response. */
  clientId: string;
  /** In clear only on rows written before encryption (or without WebCrypto). */
  answers?: Answers;
  /** JSON of the answers, encrypted (vault.ts). */
  sealed?: Sealed;
  updatedAt: number;
  /** The survey version the draft was begun on and its questions, kept until it is submitted (drafts.ts). */
  form?: DraftForm;
}

export interface DraftForm {
  version: number;
  questions: Survey['questions'];
}

/** The page's signed-in accounts, mirrored for the service worker (which cannot read localStorage). */
export interface AccountRow {
  account: AccountKey;
  /** The e-mail as the user typed it. */
  user: string;
  token: string;
  /** A token the server answered 401 to: the account is not synced until a different token arrives. */
  rejectedToken?: string;
}

/** An account's encryption key (vault.ts): non-extractable, so script can use it and never read it. */
export interface KeyRow {
  account: AccountKey;
  key: CryptoKey;
  createdAt: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export class SurveyBirdDb extends Dexie {
  surveys!: Table<SurveyRow, [string, string]>;
  datasets!: Table<DatasetRow, number>;
  drafts!: Table<DraftRow, [string, string]>;
  outbox!: Table<StoredRecord, string>;
  photos!: Table<PhotoRow, [string, string]>;
  accounts!: Table<AccountRow, string>;
  meta!: Table<MetaRow, string>;
  statuses!: Table<StatusRow, [string, string]>;
  keys!: Table<KeyRow, string>;

  constructor(name = indexedDbName) {
    super(name);
    this.version(1).stores({
      surveys: '&[account+surveyId], account',
      datasets: '++id, [account+surveyId+question], [account+surveyId+question+lower]',
      drafts: '&[account+surveyId], account',
      outbox: '&id, [account+status], [account+status+nextAttemptAt], [account+createdAt], status',
      photos: '&[owner+question], owner',
      accounts: '&account',
      meta: '&key',
    });
    // Review statuses from the changes feed, per account.
    this.version(2).stores({ statuses: '&[account+id], account' });
    // Each account's encryption key (vault.ts). Rows in clear from before are sealed by sealing.ts, outside the upgrade.
    this.version(3).stores({ keys: '&account' });
  }
}

export const db = new SurveyBirdDb();


/**
 * The offline layer: everything the PWA keeps on the phone and how a response reaches the
 * server exactly once. Screens import from here only; the files behind it are private.
 *
 * WHERE THINGS LIVE
 * - IndexedDB, database 'survey-bird' (db.ts), per account (the lower-cased e-mail):
 *   surveys   the field user's surveys with their questions, cached while online
 *   datasets  every option of each 'select (> 50 dataset)' question, searchable offline
 *   drafts    the answers being typed, one per account and survey, with a clientId, and the
 *             survey version it was begun on with that version's questions (until submitted)
 *   outbox    submitted responses, their status, attempts and server _id (history is kept)
 *   photos    photo bytes of drafts and of unsent responses (a Blob, or an ArrayBuffer copy on
 *             browsers that lose Blobs); deleted once the server has the response
 *   accounts  a mirror of the signed-in accounts and tokens, for the service worker
 *   statuses  what the server said became of each sent response (status, reviewer's comment,
 *             revision, paid), from the changes feed; a returned one with its answers to fix
 *   meta      sync leases, last sync time per account, the photo storage mode, the changes
 *             feed's cursor and the last earnings reply (with its time: "as of ...")
 * - localStorage: small values, each listed with what it holds and who writes it in
 *   storage-keys.ts. The signed-in account list ('accounts', session/account-storage.ts) is the one this
 *   layer reads: mirrorAccounts copies it into IndexedDB (the scheduler does this before every run).
 * - Service worker caches: the precached app shell (sw.ts, workbox); photos fetched with the
 *   session (sw-photos.ts); basemap archives the field user chose to keep (maps.ts, answered by
 *   sw-basemap.ts). Other API calls are never answered from a cache. Background Sync: sw-sync.ts.
 *
 * A RESPONSE'S JOURNEY
 *   draft (saveDraft, saveDraftPhoto; survives reloads)
 *     -> queued   enqueueResponse: the response and its photos in one transaction; the draft is
 *                 consumed in the same transaction; its clientId is the server's idempotency key
 *     -> sending  a sync run (page or worker, one per account at a time) claimed it; it goes in a
 *                 batch with a placeholder (photo id, size, SHA-256) per photo, made once and kept
 *                 on the record (a fix uploads its photos first instead, their references kept)
 *     -> synced   the server answered 200: the record keeps its server _id; photos sent as
 *                 placeholders stay in `photosPending` (bytes kept) until, after all text, the run
 *                 uploads them one at a time, smallest response first (sync-photos.ts); a photo's
 *                 bytes go once the server attached it
 *     -> failed   the server refused it (4xx): lastError holds its msg; the user fixes it
 *                 (updateAnswers) and retry()s, after a 409 resendAsNew()s it if it really is
 *                 another response, or exportFailed()s and discard()s it
 *   A fix of a returned response is a new record with `revisionOf` (the server _id) and a fresh
 *   clientId, through the same states. A back-check is a record with `backcheckOf` (the server
 *   _id of the response revisited) whose answers and version are the back-check form's; it consumes
 *   no draft. The assignments (GET /me/backchecks) are kept in meta `backchecks:<account>`.
 *   After delivering, every run pulls the changes feed and the
 *   earnings (statuses.ts), so the Earnings screen renders offline.
 *   No answer, 408, 429 and 5xx put it back to queued with backoff (2 s doubling to 5 min,
 *   jittered, forever). A 401 pauses the account until it signs in again. A run that dies leaves
 *   `sending` records that the next run puts back in the queue. Nothing is deleted automatically
 *   but the photo bytes of synced responses.
 *
 * WIRING (once): the app calls startSync({ getAccounts }) at start-up; the service worker calls
 * handleBackgroundSync() for the 'survey-bird-outbox' sync event (docs/offline.md).
 */

// Form screen: drafts, submitting, photos, cached surveys and large option lists.
export { saveDraft, saveDraftPhoto, loadDraft, clearDraft, type Draft, type DraftForm } from './drafts';
export { enqueueResponse, type EnqueueInput } from './outbox';
export { downscalePhoto } from './photos';
export { getCachedSurveys, searchDataset } from './surveys-cache';
// surveys-cache-refresh.ts (cacheFieldUserSurveys) is imported on its own, lazily: the form route does not carry it.

// Responses screen (useLiveQuery-friendly reads, and the badge's liveCounts for useObservable):
// history, badge, fixing refused responses.
export { listOutbox, counts, lastSyncAt, oldestUnsentAt, getRecord, deliveryLabel, updateAnswers, retry, resendAsNew, discard, exportFailed, OutboxError, type OutboxCounts, type Review } from './outbox';
export { readPhoto, readPhotos } from './photo-store';
export { liveCounts, coalescedLiveQuery, type Live } from './live';
export { returnedToFix } from './returned';
export type { OutboxRecord, OutboxStatus, StatusRow, EarningsSnapshot } from './db';
// The Earnings screen's reads (statuses from the changes feed, the last earnings reply) are the
// entry offline/earnings.ts, like the sync engine's offline/sync.ts: kept out of the form's chunk.
export type { EarningsLine } from './statuses';

// "Send photos on Wi-Fi only" is offline/sync-wifi.ts, which Settings loads itself:
// re-exported here it would land in the form's chunk, which has no room for it.
// Syncing: the engine itself is offline/sync.ts, loaded after the first paint (app-sync.ts), so a
// screen that only captures never waits for it. Types are free to share.
// appSync() starts it once per app and hands out its controller; app-sync.ts only imports it lazily.
export { appSync, syncStarted } from './app-sync';
export type { StartSyncOptions, SyncController, SyncStatus, AccountSyncStatus } from './scheduler';
export type { SyncAccountOptions, SyncSummary } from './sync-engine';
export { mirrorAccounts, mirroredAccounts, accountsNeedingSignIn } from './accounts';

// Back-checks: the assignment feed kept offline, and which are answered here (queued through enqueueResponse with backcheckOf).
export { saveBackcheckFeed, backcheckFeed, backchecksDone, type BackcheckFeedSnapshot } from './backchecks';

// Storage health, and the app shell's service worker (registration and the update prompt).
export { requestPersistence, storageEstimate, type StorageEstimate } from './storage';
export { registerServiceWorker, applyUpdate, updateReady } from './service-worker';

import { ACCOUNTS_STORAGE_KEY } from '@survey-bird/contracts';
import type { AccountKey } from './account-key';

/**
 * Every key the PWA keeps on the phone, with what it holds and who writes it. A new key is added
 * here first, and no other module spells one (storage-keys.test.ts scans the source for that);
 * offline/index.ts describes how the IndexedDB tables are used. The strings are what phones in the
 * field hold already: changing one loses that data, so they stay as they are.
 *
 * localStorage (synchronous, per origin, shared by tabs; small values only):
 * - accounts              the signed-in accounts `[{ user, token }]`, first = active (spec section 3);
 *                         written by session/account-storage.ts, mirrored into IndexedDB
 *                         for the service worker (offline/accounts.ts)
 * - lastUser              the last GET /user reply with its token, so the app opens without signal;
 *                         features/accounts/session.ts
 * - activeSurvey          `{ [accountKey]: Survey }` the survey each account chose;
 *                         features/surveys/active-survey-store.ts
 * - deviceId              a random id for this browser (password-change header);
 *                         session/device-id.ts
 * - surveyDraft + account the organization's survey being built, one per account (+ ':' + survey id
 *                         for an edit of a published survey); features/surveys/CreateSurveyPage.tsx
 * - seenSurveyVersions    `{ [accountKey/surveyId]: version }` the version a field user last saw, so
 *                         "This survey was updated" shows once per new version; features/capture/survey-updated.ts
 * - formLanguage          `{ [accountKey]: languageCode }` the language a field user last chose on a
 *                         form, used on every form that offers it; features/capture/form-language.ts
 * - appLanguage           `{ device?: lang, accounts: { [accountKey]: lang } }` the app's own language
 *                         (not a form's): this browser's last choice and each account's; lib/i18n.ts
 *
 * IndexedDB database `indexedDbName` (offline/db.ts owns it): tables surveys, datasets, drafts,
 * outbox, photos, accounts, meta; the keys of the meta table are `metaKey` below.
 */
export const StorageKey = {
  accounts: ACCOUNTS_STORAGE_KEY,
  lastUser: 'survey-bird.last-user',
  activeSurvey: 'survey-bird.active-survey',
  deviceId: 'deviceId',
  /** The builder's draft of `account`, and of one published survey while it is edited. */
  surveyDraft: (account: AccountKey, surveyId?: string) => `survey-bird.survey-draft:${account}${surveyId === undefined ? '' : `:${surveyId}`}`,
  seenSurveyVersions: 'survey-bird.seen-survey-versions',
  formLanguage: 'survey-bird.form-language',
  appLanguage: 'survey-bird.app-language',
} as const;

export const indexedDbName = 'survey-bird';

/** Keys of the IndexedDB `meta` table (offline/db.ts); the service worker's sync run reads them too. */
export const metaKey = {
  /** The sync run's lease on the account (offline/lock.ts). */
  lease: (account: AccountKey) => `lease:${account}`,
  lastSyncAt: (account: AccountKey) => `lastSyncAt:${account}`,
  /** The changes feed's cursor: `since` of the next pull. */
  changesCursor: (account: AccountKey) => `changesCursor:${account}`,
  /** EarningsSnapshot of GET /me/earnings. */
  earnings: (account: AccountKey) => `earnings:${account}`,
  /** ResponsesListSnapshot: the pages of GET /me/responses the Earnings screen loaded last. */
  myResponses: (account: AccountKey) => `myResponses:${account}`,
  /** MyMapSnapshot: the field user's last seven-day map of a survey, shown when offline (offline/maps.ts). */
  myMap: (account: AccountKey, surveyId: string) => `myMap:${account}|${surveyId}`,
  /** BackcheckFeedSnapshot: the back-check assignments and forms of GET /me/backchecks (offline/backchecks.ts). */
  backchecks: (account: AccountKey) => `backchecks:${account}`,
  /** 'buffer' once this browser failed to read back a stored Blob (offline/photo-store.ts). */
  photoMode: 'photoMode',
  /** "Send photos on Wi-Fi only" (offline/sync-wifi.ts): true, or absent for off. */
  photosWifiOnly: 'photosWifiOnly',
  /**
   * The URL of a photo's unfinished tus upload (photos/sync-tus.ts): the account, response,
   * question and photo it carries, so another photo never resumes it.
   */
  tusUpload: (account: AccountKey, responseId: string, question: string, photoId: string) => `tus:${[account, responseId, question, photoId].join('|')}`,
} as const;

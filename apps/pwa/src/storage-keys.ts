import { ACCOUNTS_STORAGE_KEY } from '@survey-bird/contracts';

/**
 * Every key the PWA keeps on the phone, with what it holds and who writes it. A new key is added
 * here first; offline/index.ts describes how the IndexedDB tables are used.
 *
 * localStorage (synchronous, per origin, shared by tabs; small values only):
 * - accounts              the signed-in accounts `[{ user, token }]`, first = active (spec section 3);
 *                         written by features/accounts/account-storage.ts, mirrored into IndexedDB
 *                         for the service worker (offline/accounts.ts)
 * - lastUser              the last GET /user reply with its token, so the app opens without signal;
 *                         features/accounts/session.ts
 * - activeSurvey          `{ [accountKey]: Survey }` the survey each account chose;
 *                         features/surveys/active-survey-store.ts
 * - deviceId              a random id for this browser (password-change header);
 *                         features/accounts/device-id.ts
 * - surveyDraft + account the organization's survey being built, one per account (+ ':' + survey id
 *                         for an edit of a published survey); features/organization/CreateSurveyPage.tsx
 * - seenSurveyVersions    `{ [accountKey/surveyId]: version }` the version a field user last saw, so
 *                         "This survey was updated" shows once per new version; features/field-user/survey-updated.ts
 *
 * IndexedDB database `indexedDbName` (offline/db.ts owns it): tables surveys, datasets, drafts,
 * outbox, photos, accounts, meta; keys of the meta table are `metaKey` in offline/db.ts.
 */
export const StorageKey = {
  accounts: ACCOUNTS_STORAGE_KEY,
  lastUser: 'survey-bird.last-user',
  activeSurvey: 'survey-bird.active-survey',
  deviceId: 'deviceId',
  surveyDraftPrefix: 'survey-bird.survey-draft:',
  seenSurveyVersions: 'survey-bird.seen-survey-versions',
} as const;

export const indexedDbName = 'survey-bird';

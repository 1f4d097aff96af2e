import { QuestionType, type Survey } from '@survey-bird/contracts';
import { Dexie } from 'dexie';
import { createApiClient } from '../api/client';
import table from '../api/route-table';
import { accountKey, type AccountKey, type DatasetRow, db } from './db';

/**
 * Refreshes the phone's copy of the field user's surveys and large option lists (read by
 * surveys-cache.ts). Loaded when the form has painted and is online, not with the form: the form
 * route's budget has no room for code it does not need to draw (scripts/bench/budget.mjs).
 */

export interface CacheOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /**
   * Every survey of the account, when the caller fetched the complete list moments ago (the survey
   * list's first page held them all): it is cached as given, without asking for the list again.
   */
  listed?: readonly Survey[];
}

export interface CacheSummary {
  surveys: number;
  /** Option lists downloaded in this call (unchanged ones are not downloaded again). */
  datasets: number;
}

const MAX_PAGES = 500;

/** Throws the api client's ApiError when a call fails; what was cached before stays. */
export async function cacheFieldUserSurveys(account: AccountKey, token: string, options: CacheOptions = {}): Promise<CacheSummary> {
  const key = accountKey(account);
  const client = createApiClient({ table, getToken: () => token, onFailure: () => undefined, fetch: options.fetch, baseUrl: options.baseUrl });
  const surveys: Survey[] = options.listed ? [...options.listed] : [];
  for (let page = 1; page <= MAX_PAGES && !options.listed; page++) {
    const reply = await client.call('fieldUserSurveys', { query: { page }, token, handleErrors: false });
    surveys.push(...reply.survey);
    if (!reply.hasNextPage || reply.survey.length === 0) break;
  }

  const now = Date.now();
  const listed = new Set(surveys.map((s) => s._id));
  await db.transaction('rw', db.surveys, db.datasets, async () => {
    const before = await db.surveys.where('account').equals(key).toArray();
    for (const gone of before.filter((row) => !listed.has(row.surveyId))) {
      await db.surveys.delete([key, gone.surveyId]);
      await db.datasets.where('[account+surveyId+question]').between([key, gone.surveyId, Dexie.minKey], [key, gone.surveyId, Dexie.maxKey], true, true).delete();
    }
    await db.surveys.bulkPut(surveys.map((survey, position) => ({ account: key, surveyId: survey._id, survey, position, cachedAt: now })));
  });

  let datasets = 0;
  for (const survey of surveys) {
    for (const question of survey.questions) {
      if (question.type !== QuestionType.largeSelect) continue;
      const id: [string, string, string] = [key, survey._id, question.text];
      const have = await db.datasets.where('[account+surveyId+question]').equals(id).count();
      // Options of a published question do not change; the count tells a complete copy from a cut-off one.
      if (have > 0 && have === question.optionCount) continue;
      const reply = await client.call('datasetExport', { query: { survey_id: survey._id, question: question.text }, token, handleErrors: false });
      const rows: DatasetRow[] = reply.options.map((value) => ({ account: key, surveyId: survey._id, question: question.text, value, lower: value.toLowerCase() }));
      await db.transaction('rw', db.datasets, async () => {
        await db.datasets.where('[account+surveyId+question]').equals(id).delete();
        await db.datasets.bulkAdd(rows);
      });
      datasets++;
    }
  }
  return { surveys: surveys.length, datasets };
}


import { Limits, type Survey } from '@survey-bird/contracts';
import { accountKey, type AccountKey, db } from './db';

/**
 * The field user's surveys and the full option lists of their large selects, kept per account
 * so the form opens and searches with no signal. Refreshed by surveys-cache-refresh.ts when online.
 */

/** The cached surveys of an account, in the server's order. */
export async function getCachedSurveys(account: AccountKey): Promise<Survey[]> {
  const rows = await db.surveys.where('account').equals(accountKey(account)).toArray();
  return rows.sort((a, b) => a.position - b.position).map((row) => row.survey);
}

/**
 * Options of a large select matching `query` (case-insensitive): those starting with it first
 * (alphabetically), then those containing it, at most Limits.datasetSearchLimit. An empty query
 * gives the first options in the survey's order.
 */
export async function searchDataset(account: AccountKey, surveyId: string, question: string, query: string): Promise<string[]> {
  const id: [string, string, string] = [accountKey(account), surveyId, question];
  const limit = Limits.datasetSearchLimit;
  const q = query.trim().toLowerCase();
  if (q === '') return (await db.datasets.where('[account+surveyId+question]').equals(id).limit(limit).toArray()).map((r) => r.value);
  const prefix = await db.datasets
    .where('[account+surveyId+question+lower]')
    .between([...id, q], [...id, `${q}\uffff`], true, true)
    .limit(limit)
    .toArray();
  if (prefix.length >= limit) return prefix.map((r) => r.value);
  const inside = await db.datasets
    .where('[account+surveyId+question]')
    .equals(id)
    .filter((r) => !r.lower.startsWith(q) && r.lower.includes(q))
    .limit(limit - prefix.length)
    .toArray();
  return [...prefix, ...inside].map((r) => r.value);
}

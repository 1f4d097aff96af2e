
/**
 * The survey-scoped gram index (migration 20261126500000_search_grams): for each response,
 * one token per distinct character and per distinct pair of adjacent characters of its search_text,
 * each prefixed with a key of its survey. A 1-2 character term is then one token, and a longer term
 * the AND of its pairs, whose posting list holds only that survey's rows: "zq" or "%" with no match
 * answers from an empty list instead of reading the survey, and a word common in other surveys but
 * rare in this one is no longer found by reading all its hits elsewhere.
 * SQLite (FTS5): tokens are lower-case hex and letters only, so the 'ascii' tokenizer keeps each
 * one whole. PostgreSQL (GIN over the response_grams function, migration
 * 20261128600000_search_grams_postgres): int8 codes, survey key << 42 | code point (a character) or
 * first << 21 | second (a pair); pgGramCodes gives a term's codes the same way.
 */
import { createHash } from 'node:crypto';

/** 8 hex digits of FNV-1a over the survey id: two surveys sharing a key only cost each other time. */
export function surveyKey(surveyId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < surveyId.length; i++) h = Math.imul(h ^ surveyId.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const hexOf = (ch: string) => ch.codePointAt(0)!.toString(16);

/** The text the index stores for one response: its distinct 1- and 2-character grams as tokens. */
export function gramDocument(surveyId: string, searchText: string): string {
  const key = surveyKey(surveyId);
  const grams = new Set<string>();
  let prev = '';
  for (const ch of searchText) {
    const h = hexOf(ch);
    grams.add(h);
    if (prev) grams.add(`${prev}x${h}`);
    prev = h;
  }
  let doc = '';
  for (const g of grams) doc += `${key}z${g} `;
  return doc;
}

/** An FTS5 query for rows of the survey that may contain `term` (lower-cased): one gram, or all its pairs. */
export function gramQuery(surveyId: string, term: string): string {
  const key = surveyKey(surveyId);
  const hex = [...term].map(hexOf);
  const grams = hex.length < 2 ? hex : new Set(hex.slice(1).map((h, i) => `${hex[i]}x${h}`));
  return [...grams].map((g) => `"${key}z${g}"`).join(' AND ');
}

/** 20 bits of the survey id's md5, as the SQL function takes them: `('x' || substr(md5(id), 1, 5))::bit(20)`. */
function pgSurveyKey(surveyId: string): bigint {
  return BigInt(`0x${createHash('md5').update(surveyId).digest('hex').slice(0, 5)}`) << 42n;
}

/**
 * The codes a row of the survey must all carry to contain `term` (lower-cased): its character, or
 * its pairs; a term with a run of 4+ digits (a phone or account number) uses each 4 digits of those
 * runs instead of their pairs: every pair of digits is in most rows, a given 4 in few.
 */
export function pgGramCodes(surveyId: string, term: string): string[] {
  const key = pgSurveyKey(surveyId);
  const chars = [...term];
  const cps = chars.map((ch) => BigInt(ch.codePointAt(0)!));
  if (cps.length < 2) return cps.map((c) => String(key | c));
  const inRun = new Array<boolean>(chars.length).fill(false);
  const codes: bigint[] = [];
  for (const run of term.matchAll(/[0-9]{4,}/g)) {
    // The regular expression's index counts UTF-16 units; digits before it may follow astral characters.
    const start = [...term.slice(0, run.index)].length;
    for (let i = start; i < start + run[0].length; i++) inRun[i] = true;
    for (let i = 0; i + 4 <= run[0].length; i++) codes.push(key | (1n << 62n) | BigInt(Number(run[0].slice(i, i + 4))));
  }
  for (let i = 1; i < cps.length; i++) if (!(inRun[i - 1] && inRun[i])) codes.push(key | (cps[i - 1]! << 21n) | cps[i]!);
  return [...new Set(codes.map(String))];
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { AppLanguages } from '@survey-bird/contracts';
import { parsePo, placeholders, type PoFile } from './po';

export const PWA_DIR = join(import.meta.dirname, '..');
export const LOCALES_DIR = join(PWA_DIR, 'src/locales');
export const SOURCE_LANGUAGE = 'en';
/** Said in every translated catalog's header until native speakers have reviewed it (docs/translations.md). */
export const DRAFT_NOTICE = 'DRAFT: machine-assisted translation awaiting review by native speakers';
/** Ids the code builds at run time: a server reply's `code` becomes `msg.<code>` (lib/i18n.ts serverText). */
export const DYNAMIC_PREFIXES = ['msg.'];

export const catalogPath = (lang: string): string => join(LOCALES_DIR, lang, 'messages.po');
export const readCatalog = (lang: string): PoFile => parsePo(readFileSync(catalogPath(lang), 'utf8'));

/**
 * Ids written in the code: `t('id'...)` and `msgId('id')` (an id kept for later, as in a table of
 * labels). Extraction and the check read the same calls, so a message the code asks for is always in
 * the catalogs.
 */
export function idsInSource(dir = join(PWA_DIR, 'src')): Map<string, string> {
  const ids = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/\b(?:t|msgId)\(\s*'([A-Za-z0-9_.-]+)'/g)) if (!ids.has(m[1]!)) ids.set(m[1]!, relative(PWA_DIR, p));
      }
    }
  };
  walk(dir);
  return ids;
}

/**
 * What is wrong with a set of catalogs against the English one: a missing or empty translation (named
 * by its id and language), a translation of an id English does not have, an ICU syntax error, or
 * placeholders that differ from English's (a translator who renames `{count}` breaks the sentence).
 */
export function catalogProblems(catalogs: Record<string, PoFile>, usedIds: Iterable<string> = []): string[] {
  const problems: string[] = [];
  const source = catalogs[SOURCE_LANGUAGE];
  if (!source) return [`no ${SOURCE_LANGUAGE} catalog`];
  const names = new Map<string, string[]>();
  for (const e of source.entries) {
    if (e.str === '') problems.push(`${SOURCE_LANGUAGE}: "${e.id}" has no English text`);
    try {
      names.set(e.id, placeholders(compileMessageOrThrow(e.str)));
    } catch (err) {
      problems.push(`${SOURCE_LANGUAGE}: "${e.id}" is not valid ICU: ${(err as Error).message}`);
    }
  }
  for (const id of usedIds) if (!names.has(id) && !source.entries.some((e) => e.id === id)) problems.push(`${SOURCE_LANGUAGE}: "${id}" is used in the code but missing from the catalog (npm run i18n:extract)`);
  for (const [lang, file] of Object.entries(catalogs)) {
    if (lang === SOURCE_LANGUAGE) continue;
    if (!file.header.includes(DRAFT_NOTICE) && !file.header.includes('Reviewed-By:')) problems.push(`${lang}: the header neither marks the catalog as a draft nor names its reviewer`);
    const own = new Map(file.entries.map((e) => [e.id, e]));
    for (const e of source.entries) {
      const tr = own.get(e.id);
      if (!tr || tr.str === '') {
        problems.push(`${lang}: "${e.id}" is missing`);
        continue;
      }
      try {
        const got = placeholders(compileMessageOrThrow(tr.str));
        const want = names.get(e.id);
        if (want && got.join(',') !== want.join(',')) problems.push(`${lang}: "${e.id}" has placeholders {${got.join('}, {')}} where English has {${want.join('}, {')}}`);
      } catch (err) {
        problems.push(`${lang}: "${e.id}" is not valid ICU: ${(err as Error).message}`);
      }
    }
    for (const id of own.keys()) if (!names.has(id) && !source.entries.some((e) => e.id === id)) problems.push(`${lang}: "${id}" is not in the English catalog`);
  }
  return problems;
}

export const readAllCatalogs = (): Record<string, PoFile> => Object.fromEntries(AppLanguages.map((l) => [l, readCatalog(l)]));

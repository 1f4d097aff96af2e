import { readFileSync } from 'node:fs';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';
import { parsePo } from './po';

/**
 * Which part of a catalog a message loads with (`messages.po?part=...`), a chunk each: `core` before
 * the first paint (the shell's and every screen's common words), `form` with the form's route,
 * `responses` and `earnings` with their screens, `bank`, `map`, `backchecks` and `settings` with their screen,
 * `auth` with the account screens (sign in, register, reset), `inputs` with the lazy inputs of lines
 * and areas, rankings, recordings, videos and documents (few forms ask them: the form's route stays
 * within its budget without their words), `office` with the office screens (organization,
 * supervisor and master admin: a field user's phone never downloads it), `server` once the page has painted
 * (the server's and the form rules' messages: until then a reply shows its English `msg`). A route
 * so carries only the words it can show (scripts/bench/budget.mjs weighs them with it).
 */
export type CatalogPart = 'core' | 'form' | 'inputs' | 'responses' | 'earnings' | 'backchecks' | 'bank' | 'map' | 'settings' | 'auth' | 'office' | 'server';
const PARTS: [CatalogPart, string[]][] = [
  ['server', ['msg.']],
  ['form', ['form.', 'location.', 'photo.', 'camera.', 'repeat.', 'typed.', 'combo.', 'closed.', 'barcode.', 'signature.']],
  ['inputs', ['geo.', 'rank.', 'media.', 'recorder.']],
  ['responses', ['responses.', 'review.']],
  ['earnings', ['earnings.', 'times.']],
  ['bank', ['bank.']],
  ['map', ['map.', 'legend.']],
  ['backchecks', ['backcheck.']],
  ['settings', ['settings.']],
  ['auth', ['login.', 'reset.', 'password.', 'register.', 'confirm.']],
  ['office', ['office.']],
];
/** The sync strip's words: on every field-user screen and in Settings, never on an office screen. */
const FIELD_USER_SHARED = ['sync.'];
/** Words both Responses and Earnings show: a line's survey and time sent, the dialogs fixing a response. */
const RESPONSES_AND_EARNINGS = ['responses.survey', 'responses.submitted'];
const RESPONSES_AND_EARNINGS_PREFIXES = ['fix.'];
/** The parts a message loads with: one, or each field-user part for the sync strip's. */
export function partsOf(id: string): CatalogPart[] {
  if (FIELD_USER_SHARED.some((p) => id.startsWith(p))) return ['form', 'responses', 'earnings', 'backchecks', 'settings'];
  if (RESPONSES_AND_EARNINGS.includes(id) || RESPONSES_AND_EARNINGS_PREFIXES.some((p) => id.startsWith(p))) return ['responses', 'earnings'];
  return [PARTS.find(([, prefixes]) => prefixes.some((p) => id.startsWith(p)))?.[0] ?? 'core'];
}

/**
 * Imports `src/locales/<lang>/messages.po?part=<part>` as Lingui's compiled catalog (`export const messages`):
 * each ICU message is parsed at build time, so the phone runs @lingui/core without the ICU parser
 * (docs/decisions.md, Languages). An empty translation is left out: the catalog check fails on it
 * before a build ships it (src/locales/catalogs.test.ts).
 */
export function poCatalogs(): Plugin {
  return {
    name: 'survey-bird-po-catalogs',
    enforce: 'pre',
    load(id) {
      const [file, query] = id.split('?');
      if (!file!.endsWith('.po')) return null;
      const part = new URLSearchParams(query).get('part');
      const po = parsePo(readFileSync(file!, 'utf8'));
      const messages: Record<string, unknown> = {};
      for (const e of po.entries) {
        if (e.str === '' || (part !== null && !partsOf(e.id).includes(part as CatalogPart))) continue;
        // Plain text too stays compiled (a one-token array): Lingui warns on a string without its compiler.
        messages[e.id] = compileMessageOrThrow(e.str);
      }
      // An object literal: as a JSON.parse string every quote would be escaped (4% more gzipped).
      return { code: `export const messages = ${JSON.stringify(messages)};`, map: null };
    },
  };
}

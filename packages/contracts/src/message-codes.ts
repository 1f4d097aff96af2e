import { ApiMsg } from './api-messages.js';
import { FormMsg } from './form-engine/messages.js';
import { RuleMsg } from './form-rules/messages.js';
import { Msg, PhotoMsg } from './messages.js';
import { DeviceMsg } from './schemas/device.js';
import { MapMsg } from './schemas/map.js';
import { OfficeMsg } from './schemas/office.js';
import { PayoutMsg } from './schemas/payout.js';

/**
 * Every error reply is `{ msg, code }`: `msg` the spec's English words, `code` a stable name the
 * phone translates (its catalogs hold `msg.<code>`, falling back to `msg`). The code is the key of
 * the message in the contracts' tables, so it is written once: `Msg` and `ApiMsg` keys as they are
 * (`fillCompulsory`), the other tables' with their prefix (`photo.mismatch`, `payout.notFound`).
 */
const TABLES: [prefix: string, table: Record<string, unknown>][] = [
  ['', Msg],
  ['', ApiMsg],
  ['photo.', PhotoMsg],
  ['form.', FormMsg],
  ['rule.', RuleMsg],
  ['device.', DeviceMsg],
  ['map.', MapMsg],
  ['office.', OfficeMsg],
  ['payout.', PayoutMsg],
];

let byText: Map<string, string> | undefined;
/** Known texts longest first, for the prefix and suffix matches (a message with a row number or a question's name). */
let ordered: [text: string, code: string][] = [];

function index(): Map<string, string> {
  if (byText) return byText;
  byText = new Map();
  for (const [prefix, table] of TABLES) {
    for (const [key, text] of Object.entries(table)) if (typeof text === 'string' && !byText.has(text)) byText.set(text, prefix + key);
  }
  ordered = [...byText].filter(([text]) => text.length >= 10).sort((a, b) => b[0].length - a[0].length);
  return byText;
}

/** A reply status's code when the words are none of the tables' (a zod default, a framework error). */
export function statusCode(status: number): string {
  if (status === 400) return 'badRequest';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payloadTooLarge';
  if (status === 414) return 'uriTooLong';
  if (status === 415) return 'unsupportedMediaType';
  if (status === 429) return 'tooManyRequests';
  if (status === 503) return 'serviceUnavailable';
  if (status >= 500) return 'unexpectedError';
  return 'error';
}

/**
 * The stable code of an error's words: the table key of the exact text; else of the longest known
 * text it starts with (`This e-mail is already on row 4`) or ends with (`"Age": Value not allowed`);
 * else the status's.
 */
export function messageCode(msg: string, status: number): string {
  const exact = index().get(msg);
  if (exact) return exact;
  for (const [text, code] of ordered) if (msg.startsWith(text) || msg.endsWith(text)) return code;
  return statusCode(status);
}

import { METADATA_QUESTION_TYPES, QuestionType, type Answers, type ResponseCapture, type StoredQuestion } from '@survey-bird/contracts';
import { photoHashOf } from '../../offline/photo-hash';
import { deviceId } from '../../session/device-id';
import { locationFixes, type Photos } from './form-logic';

/** The creation time a UUIDv7 carries (ms), or null. */
function uuidv7Time(id: string): number | null {
  if (id[14] !== '7') return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * What the phone records with a response when it is queued, loaded at submit (lazy).
 * openedAt: the draft's clientId is a UUIDv7 made when the field user started the response.
 * durationMs: from then to submit, on this phone's clock. It counts a form left open as time spent,
 * never less than was spent, so `too_fast` cannot fire on an honest slow response.
 */
export async function captureMeta(clientId: string, questions: StoredQuestion[], answers: Answers, photos: Photos, now = Date.now()): Promise<ResponseCapture> {
  const meta: ResponseCapture = { deviceId: deviceId(), appVersion: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev' };
  const opened = uuidv7Time(clientId);
  if (opened !== null && opened <= now) Object.assign(meta, { openedAt: new Date(opened).toISOString(), durationMs: now - opened });
  const location = questions.find((q) => q.type === QuestionType.liveLocation);
  const answer = location ? answers[location.text] : undefined;
  const fix = typeof answer === 'string' ? locationFixes.get(answer) : undefined;
  if (fix) Object.assign(meta, { locationAccuracy: fix.accuracy, locationFixedAt: new Date(fix.at).toISOString() });
  const hashes: Record<string, string> = {};
  for (const [question, blob] of Object.entries(photos)) {
    const hash = await photoHashOf(blob);
    if (hash) hashes[question] = hash;
  }
  if (Object.keys(hashes).length > 0) meta.photoHashes = hashes;
  return meta;
}

/**
 * The answers with the form's metadata questions filled from what the phone knows (top level:
 * XLSForm puts metadata there): `start` when the response was begun (its clientId's time), `end`
 * and `today` now, `deviceid` this browser's id, `username` and `user email` the account's e-mail
 * (an account has no other user name). ISO times with the phone's offset, as ODK writes them.
 */
export function withMetadata(questions: readonly Pick<StoredQuestion, 'text' | 'type' | 'parent'>[], answers: Answers, known: { clientId: string; email: string }, now = Date.now()): Answers {
  const metadata = questions.filter((q) => q.parent === undefined && (METADATA_QUESTION_TYPES as readonly string[]).includes(q.type));
  if (metadata.length === 0) return answers;
  const opened = uuidv7Time(known.clientId);
  const start = opened !== null && opened <= now ? opened : now;
  const out: Answers = { ...answers };
  for (const q of metadata) {
    const value = q.type === QuestionType.start ? isoWithOffset(start)
      : q.type === QuestionType.end ? isoWithOffset(now)
        : q.type === QuestionType.today ? isoWithOffset(now).slice(0, 10)
          : q.type === QuestionType.deviceid ? deviceId()
            : known.email;
    Object.defineProperty(out, q.text, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `2026-11-28T09:15:02.120+01:00`: the phone's local time with its offset. */
export function isoWithOffset(ms: number): string {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

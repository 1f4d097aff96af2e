import { QuestionType, type Answers, type ResponseCapture, type StoredQuestion } from '@survey-bird/contracts';
import { photoHashOf } from '../../offline/photo-hash';
import { deviceId } from '../accounts/device-id';
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

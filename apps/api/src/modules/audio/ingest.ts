import { AUDIO_NOT_REPORTED, type ResponseAudio, type SurveyAudioAudit } from '@survey-bird/contracts';
import type { StoredAudio } from '../flags/meta.js';
import { selectedForAudit } from './settings.js';

/**
 * What a new response stores of its audio audit: `responses.audio` (null when neither the rule
 * selected it nor the phone reported a recording) and the details kept in its meta. The phone
 * decides at the interview's start with the same rule; the server re-derives it here, so a
 * selected interview the phone says nothing about is stored as `not_reported` (and flagged).
 * What the phone reports is kept even where the rule now says otherwise (the setting changed while
 * the form was open): `selected` in the meta says what the rule says.
 */
export function audioOfResponse(audit: SurveyAudioAudit | null, memberId: string, clientId: string, reported: ResponseAudio | undefined): { column: string | null; meta: StoredAudio | undefined } {
  const selected = selectedForAudit(audit, memberId, clientId);
  if (!reported) return selected ? { column: AUDIO_NOT_REPORTED, meta: { selected } } : { column: null, meta: undefined };
  const meta: StoredAudio = { selected, status: reported.status };
  for (const key of ['consent', 'reason', 'size', 'sha256', 'durationMs', 'mime'] as const) if (reported[key] !== undefined) Object.assign(meta, { [key]: reported[key] });
  return { column: reported.status, meta };
}

import { FlagThresholds, PhotoQuality, RETENTION_MAX_DAYS, RETENTION_WARNING_DAYS, type Survey, type SurveySettingsBody } from '@survey-bird/contracts';

/**
 * The Survey settings panel's form: what the organization can change on a published survey besides
 * its questions (pay after review, the too_fast and low_gps_accuracy thresholds, photo quality).
 * Closing is its own confirmed action. A blank threshold means the default: too_fast at a share of
 * the median once enough responses exist, low_gps_accuracy above FlagThresholds.maxAccuracyMeters.
 */
export interface SettingsForm {
  payAfterReview: boolean;
  minDurationSeconds: string;
  maxAccuracyMeters: string;
  photoQuality: PhotoQuality;
  /** Days after closing before photos, files and personal answers are deleted; blank: kept. */
  retentionDays: string;
  /** Audio audits: on, the share of interviews recorded and the consent text read out at the start. */
  audioOn: boolean;
  audioPercent: string;
  consentText: string;
  /** Field users (member `_id`s) recorded in every interview, whatever the share. */
  alwaysIds: string[];
  /** The pay gate: what a response needs before it goes into a payout. */
  gateApproved: boolean;
  gateAudio: boolean;
  /** Held while the field user's back-check discrepancy is above the survey's threshold. */
  gateBackcheck: boolean;
}

export function settingsForm(survey: Survey): SettingsForm {
  return {
    payAfterReview: survey.payAfterReview === true,
    minDurationSeconds: survey.minDurationSeconds == null ? '' : String(survey.minDurationSeconds),
    maxAccuracyMeters: survey.maxAccuracyMeters == null ? '' : String(survey.maxAccuracyMeters),
    photoQuality: survey.photoQuality ?? PhotoQuality.standard,
    retentionDays: survey.retentionDays == null ? '' : String(survey.retentionDays),
    audioOn: Boolean(survey.audioAudit),
    audioPercent: survey.audioAudit ? String(survey.audioAudit.percent) : '10',
    consentText: survey.audioAudit?.consentText ?? DEFAULT_CONSENT,
    alwaysIds: [...(survey.audioAudit?.alwaysFieldUserIds ?? [])],
    gateApproved: survey.payGate?.approved === true,
    gateAudio: survey.payGate?.audioReviewed === true,
    gateBackcheck: survey.payGate?.backcheck === true,
  };
}

/** What the phone reads out before recording, until the organization writes its own. */
export const DEFAULT_CONSENT = 'To check the quality of our work, this interview may be recorded. The recording is only heard by our quality team. Do you agree to be recorded?';

/** "Automatic: a third of the median time, once 20 responses have one". */
export const MIN_DURATION_DEFAULT = `Automatic: a third of the median time, once ${FlagThresholds.tooFastMinResponses} responses have one`;
export const RETENTION_HINT = `Photos, files and personal answers are deleted this many days after the survey closes (the owner is mailed ${RETENTION_WARNING_DAYS} days before); other answers and payments stay. Blank: kept.`;
export const MAX_ACCURACY_DEFAULT = `Default: ${FlagThresholds.maxAccuracyMeters} m`;

const whole = (label: string, text: string): number | null | string => {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+$/.test(t) || Number(t) < 1) return `${label} must be a whole number of at least 1, or left blank`;
  return Number(t);
};

/** The changed settings as the PATCH body; `null` when nothing changed; a message when a field is not a whole number. */
export function settingsBody(form: SettingsForm, survey: Survey): { body: SurveySettingsBody | null } | { msg: string } {
  const min = whole('Minimum time', form.minDurationSeconds);
  if (typeof min === 'string') return { msg: min };
  const accuracy = whole('GPS accuracy limit', form.maxAccuracyMeters);
  if (typeof accuracy === 'string') return { msg: accuracy };
  const retention = whole('Retention', form.retentionDays);
  if (typeof retention === 'string') return { msg: retention };
  if (retention !== null && retention > RETENTION_MAX_DAYS) return { msg: `Retention is at most ${RETENTION_MAX_DAYS} days` };
  const before = settingsForm(survey);
  const body: SurveySettingsBody = {};
  if (form.payAfterReview !== before.payAfterReview) body.payAfterReview = form.payAfterReview;
  if (form.minDurationSeconds.trim() !== before.minDurationSeconds) body.minDurationSeconds = min;
  if (form.maxAccuracyMeters.trim() !== before.maxAccuracyMeters) body.maxAccuracyMeters = accuracy;
  if (form.photoQuality !== before.photoQuality) body.photoQuality = form.photoQuality;
  if (form.retentionDays.trim() !== before.retentionDays) body.retentionDays = retention;
  if (form.audioOn) {
    const t = form.audioPercent.trim();
    if (!/^\d+$/.test(t) || Number(t) > 100) return { msg: 'Recorded share must be a whole number from 0 to 100' };
    if (form.consentText.trim() === '') return { msg: 'Write the consent text the phone reads out' };
    const sameAlways = form.alwaysIds.length === before.alwaysIds.length && form.alwaysIds.every((id) => before.alwaysIds.includes(id));
    if (!before.audioOn || t !== before.audioPercent || form.consentText.trim() !== before.consentText || !sameAlways) {
      body.audioAudit = { percent: Number(t), consentText: form.consentText.trim(), alwaysFieldUserIds: [...new Set(form.alwaysIds)] };
    }
  } else if (before.audioOn) body.audioAudit = null;
  if (form.gateApproved !== before.gateApproved || form.gateAudio !== before.gateAudio || form.gateBackcheck !== before.gateBackcheck) {
    body.payGate = { approved: form.gateApproved, audioReviewed: form.gateAudio, backcheck: form.gateBackcheck };
  }
  return { body: Object.keys(body).length === 0 ? null : body };
}

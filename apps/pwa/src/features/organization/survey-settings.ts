import { FlagThresholds, PhotoQuality, type Survey, type SurveySettingsBody } from '@survey-bird/contracts';

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
}

export function settingsForm(survey: Survey): SettingsForm {
  return {
    payAfterReview: survey.payAfterReview === true,
    minDurationSeconds: survey.minDurationSeconds == null ? '' : String(survey.minDurationSeconds),
    maxAccuracyMeters: survey.maxAccuracyMeters == null ? '' : String(survey.maxAccuracyMeters),
    photoQuality: survey.photoQuality ?? PhotoQuality.standard,
  };
}

/** "Automatic: a third of the median time, once 20 responses have one". */
export const MIN_DURATION_DEFAULT = `Automatic: a third of the median time, once ${FlagThresholds.tooFastMinResponses} responses have one`;
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
  const before = settingsForm(survey);
  const body: SurveySettingsBody = {};
  if (form.payAfterReview !== before.payAfterReview) body.payAfterReview = form.payAfterReview;
  if (form.minDurationSeconds.trim() !== before.minDurationSeconds) body.minDurationSeconds = min;
  if (form.maxAccuracyMeters.trim() !== before.maxAccuracyMeters) body.maxAccuracyMeters = accuracy;
  if (form.photoQuality !== before.photoQuality) body.photoQuality = form.photoQuality;
  return { body: Object.keys(body).length === 0 ? null : body };
}

import { hash, randomBytes } from 'node:crypto';
import { audioAuditKey, audioAuditSelected, type AudioAuditSettings, type PayGate, type SurveyAudioAudit } from '@survey-bird/contracts';

/** `surveys.audio_audit` read back; null when off (or unreadable, which nothing writes). */
export function readAudioAudit(stored: string | null | undefined): SurveyAudioAudit | null {
  if (!stored) return null;
  try {
    const a = JSON.parse(stored) as Partial<SurveyAudioAudit>;
    if (typeof a.percent !== 'number' || typeof a.consentText !== 'string' || typeof a.seed !== 'string') return null;
    return { percent: a.percent, consentText: a.consentText, seed: a.seed, alwaysFieldUserIds: Array.isArray(a.alwaysFieldUserIds) ? a.alwaysFieldUserIds : [] };
  } catch {
    return null;
  }
}

/**
 * The column for new settings. The seed is made once, when audits are first turned on, and kept
 * through later changes (and a turn off and on again keeps none: a new seed, a new sample).
 */
export function audioAuditJson(settings: AudioAuditSettings | null, before: string | null | undefined): string | null {
  if (settings === null) return null;
  const seed = readAudioAudit(before)?.seed ?? randomBytes(16).toString('hex');
  return JSON.stringify({ percent: settings.percent, consentText: settings.consentText, seed, alwaysFieldUserIds: [...new Set(settings.alwaysFieldUserIds ?? [])] });
}

const NO_GATE: PayGate = { approved: false, audioReviewed: false, backcheck: false };

export function readPayGate(stored: string | null | undefined): PayGate {
  if (!stored) return NO_GATE;
  try {
    const g = JSON.parse(stored) as Partial<PayGate>;
    return { approved: g.approved === true, audioReviewed: g.audioReviewed === true, backcheck: g.backcheck === true };
  } catch {
    return NO_GATE;
  }
}

export function payGateJson(change: Partial<PayGate>, before: string | null | undefined): string {
  const merged = { ...readPayGate(before) };
  for (const key of Object.keys(NO_GATE) as (keyof PayGate)[]) if (change[key] !== undefined) merged[key] = change[key];
  return JSON.stringify(merged);
}

/**
 * The server's side of the selection rule (contracts audioAuditSelected): whether this interview
 * (its clientId) by this field user (member id) must be recorded.
 */
export function selectedForAudit(audit: SurveyAudioAudit | null, memberId: string, clientId: string): boolean {
  if (!audit) return false;
  if (audit.alwaysFieldUserIds.includes(memberId)) return true;
  return audioAuditSelected(hash('sha256', audioAuditKey(audit.seed, clientId), 'hex'), audit.percent);
}

/** What a field user's phone is told: the seed and text, and only whether they themselves are always recorded. */
export function audioAuditForFieldUser(audit: SurveyAudioAudit | null, memberIds: ReadonlySet<string>): SurveyAudioAudit | null {
  return audit && { ...audit, alwaysFieldUserIds: audit.alwaysFieldUserIds.filter((id) => memberIds.has(id)) };
}

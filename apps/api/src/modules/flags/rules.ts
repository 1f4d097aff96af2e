import { hash } from 'node:crypto';
import { AudioStatus, FlagThresholds, isChoiceList, modelOf, placedAnswers, QualityFlag, QuestionType, withQuestionIds, type Answer, type Answers, type StoredQuestion } from '@survey-bird/contracts';
import type { StoredAudio } from './meta.js';
import { outsideWindow, uuidv7Time, type CaptureWindow } from '../responses/capture-window.js';

/** A flag as computed, before it is stored. */
export interface ComputedFlag {
  flag: QualityFlag;
  reason: string;
  otherResponseId: string | null;
}

/** Another response a flag points at, as its reason names it. */
export interface OtherResponse {
  id: string;
  fullName: string;
  createdAt: number;
}

const PHOTO_TYPES: readonly string[] = [QuestionType.image, QuestionType.liveImages];
/** Answers that differ on every response by nature (a photo's address, a position) are not compared by duplicate_answers. */
const NOT_COMPARED: readonly string[] = [...PHOTO_TYPES, QuestionType.signature, QuestionType.liveLocation, QuestionType.note];

/** "response #3f9a21c0 by Ngozi Eze on 12 Nov": the id's last 8 digits (a UUIDv7 begins with its time, alike among neighbours). */
/** One formatter for every reason: toLocaleDateString with options builds a new one per call (3% of the ingest benchmark's CPU). */
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Africa/Lagos' });

export function describe(other: OtherResponse): string {
  const day = DAY.format(new Date(other.createdAt));
  return `response #${other.id.replace(/-/g, '').slice(-8)} by ${other.fullName} on ${day}`;
}

export const photoQuestions = (questions: StoredQuestion[]) => questions.filter((q) => PHOTO_TYPES.includes(q.type));

/**
 * The stored photos of a response, each under its key: the question's text, or `Member#2/Photo`
 * inside a repeat instance (the key the phone hashed it under and the placeholder named).
 */
export function photoAnswersOf(questions: StoredQuestion[], answers: Answers): { question: string; fileId: string }[] {
  const model = modelOf(withQuestionIds(questions));
  if (model) {
    return [...placedAnswers(model, answers, (n) => PHOTO_TYPES.includes(n.q.type))].flatMap((p) => {
      const fileId = photoIdOf(p.value as Answer);
      return fileId ? [{ question: p.key, fileId }] : [];
    });
  }
  return photoQuestions(questions).flatMap((q) => {
    const fileId = Object.hasOwn(answers, q.text) ? photoIdOf(answers[q.text]) : null;
    return fileId ? [{ question: q.text, fileId }] : [];
  });
}
export const locationQuestion = (questions: StoredQuestion[]) => questions.find((q) => q.type === QuestionType.liveLocation);

/** The stored photo's id in an answer (`.../api/v1/files/image/<id>`), or null. */
export function photoIdOf(answer: Answer | undefined): string | null {
  if (typeof answer !== 'string') return null;
  const m = /\/files\/image\/([A-Za-z0-9_-]{10,100})$/.exec(answer.trim());
  return m ? m[1]! : null;
}

/** '6.524379, 3.379206 (±12 m)' (the phone's format) into a position and its accuracy; null when it holds no position. */
export function parseLocation(answer: Answer | undefined): { lat: number; lng: number; accuracy: number | null } | null {
  if (typeof answer !== 'string') return null;
  const m = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)(?:\s*\(±\s*(\d+(?:\.\d+)?)\s*m\))?/.exec(answer);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, accuracy: m[3] !== undefined ? Number(m[3]) : null };
}

/**
 * SHA-256 of the answers a person types or picks, trimmed, lower-cased, each under its question's
 * stable id (withQuestionIds: the id the export's columns go by), sorted; null when none is
 * answered. `questions` are the response's own version's (the answers' keys): a version 1
 * response and a version 2 one whose form renamed a question hash alike when answered alike.
 */
export function answersHashOf(questions: StoredQuestion[], answers: Record<string, Answer>): string | null {
  const entries: [string, Answer][] = [];
  for (const q of withQuestionIds(questions)) {
    // Own properties only: a question named constructor has no inherited answer.
    if (NOT_COMPARED.includes(q.type) || !Object.hasOwn(answers, q.text)) continue;
    const v = answers[q.text]!;
    // A repeat's instances compare whole, as their JSON lower-cased (a copied roster is a duplicate too).
    const normal = typeof v === 'string' ? v.trim().toLowerCase().replace(/\s+/g, ' ') : isChoiceList(v) ? v.map((x) => x.trim().toLowerCase()).sort() : v.length === 0 ? '' : JSON.stringify(v).toLowerCase();
    if (normal.length > 0) entries.push([q.id, normal]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? null : hash('sha256', JSON.stringify(entries), 'hex');
}

/** Great-circle distance in km. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** km/h between two positions `ms` apart (Infinity when they are apart at the same moment). */
export function speedKmh(km: number, ms: number): number {
  if (km < 0.05) return 0;
  return ms <= 0 ? Infinity : km / (ms / 3_600_000);
}

export const minutes = (ms: number) => Math.round(Math.abs(ms) / 60_000);

/** The too_fast minimum in ms: the survey's setting, else a share of its median once enough responses exist. */
export function minDurationMs(settingSeconds: number | null, median: number | null): number | null {
  if (settingSeconds !== null) return settingSeconds * 1000;
  return median === null ? null : median * FlagThresholds.tooFastMedianShare;
}

export const seconds = (ms: number) => (ms < 10_000 ? (ms / 1000).toFixed(1).replace(/\.0$/, '') : String(Math.round(ms / 1000)));

const DAY_YEAR = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Africa/Lagos' });
const day = (ms: number) => DAY_YEAR.format(new Date(ms));

/**
 * implausible_time: the phone's times for a response (its clientId's, then capturedAt) held to the
 * window a closed survey enforces (capture-window.ts); an open survey takes the response, flagged.
 */
export function implausibleTimeFlag(clientId: string, capturedAt: number | null, window: CaptureWindow): ComputedFlag | null {
  const made = uuidv7Time(clientId);
  for (const [what, at] of [['Made on the phone', made], ['Captured', capturedAt]] as const) {
    const why = at === null ? null : outsideWindow(at, window);
    if (why !== null) return { flag: QualityFlag.implausibleTime, reason: `${what} ${day(at!)}, ${why}`, otherResponseId: null };
  }
  return null;
}

/**
 * audio_unavailable: the interview was selected for an audio audit and the phone could not record
 * it (no permission, no recorder) or said nothing of it. A respondent's refusal is not a flag.
 */
export function audioUnavailableFlag(audio: StoredAudio | undefined): ComputedFlag | null {
  if (!audio) return null;
  if (audio.status === AudioStatus.unavailable) return { flag: QualityFlag.audioUnavailable, reason: `Selected for an audio audit; the phone could not record${audio.reason ? ` (${audio.reason})` : ''}`, otherResponseId: null };
  if (audio.status === undefined && audio.selected) return { flag: QualityFlag.audioUnavailable, reason: 'Selected for an audio audit; the phone did not say whether it recorded', otherResponseId: null };
  return null;
}

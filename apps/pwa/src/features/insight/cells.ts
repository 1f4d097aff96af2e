import { IMAGE_PATH, UPLOAD_QUESTION_TYPES, PERSONAL_MASK, isChoiceList, isRepeatAnswer, repeatSummary, PENDING_PHOTO_ANSWER, PENDING_PHOTO_LABEL, httpsHref, type Answer, type QuestionType } from '@survey-bird/contracts';

/**
 * How a response value shows in the table (spec section 2): missing is 'N/A', a checkbox list is
 * joined with ', ', an https URL is a link, and a photo stored by this server (its reference may be
 * relative or start with http://localhost in development) opens the image. Anything else is plain
 * text, including text that looks like a spreadsheet formula: React escapes it and nothing evaluates it.
 */
export type Cell =
  | { kind: 'missing'; text: 'N/A' }
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'photo'; text: string; href: string }
  | { kind: 'pending'; text: typeof PENDING_PHOTO_LABEL }
  /** A personal answer the reader's role does not see (an analyst), or an export without personal data. */
  | { kind: 'hidden'; text: typeof PERSONAL_MASK };

export const MISSING = 'N/A';

/** A URL of one of our stored photos, resolved against `origin`; null for anything else. */
function photoHref(value: string, origin: string): string | null {
  if (!value.includes(IMAGE_PATH)) return null;
  try {
    const url = new URL(value, origin);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.pathname.startsWith(IMAGE_PATH) && url.pathname.length > IMAGE_PATH.length ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Typed questions: a signature is a stored PNG and opens like a photo ('View signature'); a note
 * has no answer; numbers, dates, times, phone numbers, e-mails and barcodes are their text.
 */
export function formatCell(value: Answer | null | undefined, origin: string = globalThis.location?.origin ?? 'http://localhost', type?: string): Cell {
  if (value === undefined || value === null || type === 'note') return { kind: 'missing', text: MISSING };
  if (value === PERSONAL_MASK) return { kind: 'hidden', text: PERSONAL_MASK };
  if (isRepeatAnswer(value)) return { kind: 'text', text: repeatSummary(value.length) };
  const text = isChoiceList(value) ? value.filter((v) => v.trim() !== '').join(', ') : value;
  if (text.trim() === '') return { kind: 'missing', text: MISSING };
  // The response came before its photo; without the type (an older caller) it shows as the stored text.
  if (value === PENDING_PHOTO_ANSWER && UPLOAD_QUESTION_TYPES.includes(type as QuestionType)) return { kind: 'pending', text: PENDING_PHOTO_LABEL };
  if (!Array.isArray(value)) {
    const photo = photoHref(text.trim(), origin);
    // A recording, video or document opens in its own tab (the browser plays or shows it); a picture also inline.
    const noun = type === 'audio' ? 'recording' : type === 'video' || type === 'file' ? type : null;
    if (photo && noun) return { kind: 'link', text: `Open ${noun}`, href: photo };
    if (photo) return { kind: 'photo', text: type === 'signature' ? 'View signature' : 'View photo', href: photo };
    const link = httpsHref(text.trim());
    if (link) return { kind: 'link', text: text.trim(), href: link };
  }
  return { kind: 'text', text };
}

/** '{title}_responses.xlsx' (spec section 7), minus characters no file system accepts. */
export function exportFileName(title: string, extension = 'xlsx'): string {
  // eslint-disable-next-line no-control-regex
  const safe = title.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[\\/:*?"<>|]/g, '_').trim();
  return `${safe || 'survey'}_responses.${extension}`;
}

/** '12.4 KB' received so far, for the Export button while it downloads. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The table's question columns, as the export's main sheet has them: every entry answered at the
 * response's level (a group is a title and has none; a repeat's members answer in its instances,
 * the repeat itself shows its count).
 */
export function tableQuestions<Q extends { id?: string | undefined; type: string; parent?: string | undefined }>(questions: readonly Q[]): Q[] {
  if (!questions.some((q) => q.parent !== undefined || q.type === 'group')) return [...questions];
  const inRepeat = new Map<string, boolean>();
  return questions.filter((q) => {
    const scoped = q.parent !== undefined && inRepeat.get(q.parent) === true;
    if (q.id !== undefined) inRepeat.set(q.id, scoped || q.type === 'repeat');
    return q.type !== 'group' && !scoped;
  });
}

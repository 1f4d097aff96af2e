import { IMAGE_PATH, IMAGE_QUESTION_TYPES, PENDING_PHOTO_ANSWER, PENDING_PHOTO_LABEL, httpsHref, type Answer, type QuestionType } from '@survey-bird/contracts';

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
  | { kind: 'pending'; text: typeof PENDING_PHOTO_LABEL };

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
  const text = Array.isArray(value) ? value.filter((v) => v.trim() !== '').join(', ') : value;
  if (text.trim() === '') return { kind: 'missing', text: MISSING };
  // The response came before its photo; without the type (an older caller) it shows as the stored text.
  if (value === PENDING_PHOTO_ANSWER && IMAGE_QUESTION_TYPES.includes(type as QuestionType)) return { kind: 'pending', text: PENDING_PHOTO_LABEL };
  if (!Array.isArray(value)) {
    const photo = photoHref(text.trim(), origin);
    if (photo) return { kind: 'photo', text: type === 'signature' ? 'View signature' : 'View photo', href: photo };
    const link = httpsHref(text.trim());
    if (link) return { kind: 'link', text: text.trim(), href: link };
  }
  return { kind: 'text', text };
}

/** '{title}_responses.xlsx' (spec section 7), minus characters no file system accepts. */
export function exportFileName(title: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = title.replace(/[\u0000-\u001f\u007f]/g, '').replace(/[\\/:*?"<>|]/g, '_').trim();
  return `${safe || 'survey'}_responses.xlsx`;
}

/** '12.4 KB' received so far, for the Export button while it downloads. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

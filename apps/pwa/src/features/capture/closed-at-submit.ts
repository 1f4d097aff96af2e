import { Msg } from '@survey-bird/contracts';
import { msgId, t } from '../../lib/i18n';

/**
 * What the field user is told when the survey turns out closed at submit. The response is in the
 * outbox before anything is asked, so whatever the answer it is never lost: the server decides by
 * its capture window (a response made before the close is taken; one made after is refused and
 * stays on the phone as failed, with the reason, under Responses).
 */

/** How the submit ended for the form: the server has it, it waits on the phone, or the server refused it. */
export type Delivered = { outcome: 'sent' } | { outcome: 'saved' } | { outcome: 'failed'; msg: string };

export interface Notice {
  tone: 'success' | 'warning' | 'error';
  text: string;
}

export const ClosedNotice = {
  received: msgId('closed.received'),
  refused: msgId('closed.refused'),
  waiting: msgId('closed.waiting'),
} as const;

/** A response the server refused because its survey is closed (403, the capture window): fixing its answers cannot help. */
export function isClosedRefusal(r: { status: string; lastError?: { status: number; msg: string } | undefined }): boolean {
  return r.status === 'failed' && r.lastError?.status === 403 && r.lastError.msg === Msg.surveyClosed;
}

/** The refusal of a submit says the survey is closed, whatever the survey list said. */
export const refusedAsClosed = (d: Delivered): boolean => d.outcome === 'failed' && d.msg === Msg.surveyClosed;

/**
 * The one toast a submit ends with. `closed`: the survey list asked at submit (or the refusal)
 * says the survey is closed now. An open survey keeps the toasts it always had.
 */
export function submitNotice(d: Delivered, closed: boolean): Notice {
  if (closed || refusedAsClosed(d)) {
    if (d.outcome === 'sent') return { tone: 'warning', text: t(ClosedNotice.received) };
    if (d.outcome === 'saved') return { tone: 'warning', text: t(ClosedNotice.waiting) };
    if (refusedAsClosed(d)) return { tone: 'error', text: t(ClosedNotice.refused) };
  }
  if (d.outcome === 'sent') return { tone: 'success', text: t('msg.responseSent') };
  if (d.outcome === 'saved') return { tone: 'warning', text: t('msg.expiredSaved') };
  // The server's words: form-logic.ts shows them in the user's language (rule-text.ts).
  return { tone: 'error', text: d.msg };
}

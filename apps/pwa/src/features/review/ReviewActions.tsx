import { useId, useState } from 'react';
import { Limits } from '@survey-bird/contracts';
import { Modal } from '../../ui/Modal';
import type { Verdict } from './review-calls';
import './review.css';
import { useOfficeMay } from '../accounts/session';
import { msgId, useT } from '../../lib/i18n';

/** The comment dialog's words (catalog ids). */
const ASK: Record<Exclude<Verdict, 'approved'>, { title: string; label: string; action: string }> = {
  returned: { title: msgId('office.review.returnTitle'), label: msgId('office.review.returnLabel'), action: msgId('office.review.return') },
  rejected: { title: msgId('office.review.reject'), label: msgId('office.review.rejectLabel'), action: msgId('office.review.reject') },
};

/**
 * Approve / Return / Reject. Return and Reject first ask for the comment the server requires;
 * `onVerdict` does the call (and its toast) and the buttons wait for it.
 */
export function ReviewActions({ onVerdict, disabled, size = 'sm' }: { onVerdict: (status: Verdict, comment?: string) => Promise<void>; disabled?: boolean; size?: 'sm' | 'md' }) {
  const t = useT();
  const [asking, setAsking] = useState<Exclude<Verdict, 'approved'> | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const cls = size === 'sm' ? ' btn--sm' : '';
  // An office role without review (analyst, finance) sees no verdict buttons.
  const mayReview = useOfficeMay('reviewResponses');

  async function run(status: Verdict, text?: string) {
    setBusy(true);
    try {
      await onVerdict(status, text);
      setAsking(null);
      setComment('');
    } finally {
      setBusy(false);
    }
  }

  if (!mayReview) return null;
  return (
    <div className="review-actions">
      <button type="button" className={`btn btn--primary${cls}`} disabled={disabled || busy} onClick={() => void run('approved')}>{t('office.review.approve')}</button>
      <button type="button" className={`btn btn--ghost${cls}`} disabled={disabled || busy} onClick={() => setAsking('returned')}>{t('office.review.return')}</button>
      <button type="button" className={`btn btn--danger-outline${cls}`} disabled={disabled || busy} onClick={() => setAsking('rejected')}>{t('office.review.reject')}</button>
      <Modal open={asking !== null} title={asking ? t(ASK[asking].title) : ''} onClose={() => setAsking(null)} className="comment-dialog">
        {asking && (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              if (comment.trim()) void run(asking, comment.trim());
            }}
          >
            <div className="field">
              <label htmlFor={fieldId}>{t(ASK[asking].label)}</label>
              <textarea id={fieldId} value={comment} maxLength={Limits.maxReviewComment} required autoFocus onChange={(e) => setComment(e.target.value)} />
            </div>
            <div className="comment-dialog__buttons">
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setAsking(null)}>{t('common.cancel')}</button>
              <button type="submit" className={`btn btn--sm ${asking === 'rejected' ? 'btn--danger' : 'btn--primary'}`} disabled={busy || !comment.trim()}>{t(ASK[asking].action)}</button>
            </div>
          </form>
        )}
      </Modal>
    </div>
  );
}

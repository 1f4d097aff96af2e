import type { ResponseDetailReply } from '@survey-bird/contracts';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { msgId, t, useT } from '../../lib/i18n';
import { holdReasonText } from './hold-reasons';

type Audit = NonNullable<ResponseDetailReply['audioAudit']>;

const STATUS_TEXT: Record<string, string> = {
  recorded: msgId('office.audio.recorded'),
  declined: msgId('office.audio.declined'),
  unavailable: msgId('office.audio.unavailable'),
  not_reported: msgId('office.audio.notReported'),
};

const minutes = (ms: number) => t('office.audio.duration', { min: Math.floor(ms / 60_000), s: Math.round((ms % 60_000) / 1000) });

/**
 * The response's audio audit in its detail view, beside the answers: what happened, the clip
 * (fetched only when the reviewer asks to play it) and the verdict. "Does not match" also returns
 * or rejects the response, with the reason as the reviewer's comment.
 */
export function AudioAuditSection({ responseId, audit, held, locked, onChanged }: { responseId: string; audit: Audit; held: ResponseDetailReply['held']; locked: boolean; onChanged: () => void }) {
  const t = useT();
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const [status, setStatus] = useState<'returned' | 'rejected'>('returned');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { reason: useId(), status: useId() };
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);

  async function play() {
    setLoading(true);
    try {
      const clip = await api.call('responseAudio', { params: { id: responseId } });
      setUrl(URL.createObjectURL(clip));
    } catch {
      // The API client showed the reason.
    } finally {
      setLoading(false);
    }
  }

  async function judge(verdict: 'matches' | 'does_not_match') {
    if (verdict === 'does_not_match' && reason.trim() === '') return toast.error(t('office.audio.sayWhy'));
    setBusy(true);
    try {
      const reply = await api.call('reviewAudio', { params: { id: responseId }, body: verdict === 'matches' ? { verdict } : { verdict, status: locked ? undefined : status, reason: reason.trim() } });
      toast.success(reply.msg);
      setMismatch(false);
      onChanged();
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="response-detail__section audio-audit" aria-label={t('office.audio.title')}>
      <h3>{t('office.audio.title')}</h3>
      <p className="audio-audit__status">{STATUS_TEXT[audit.status] ? t(STATUS_TEXT[audit.status]!) : audit.status}{audit.reason ? ` (${audit.reason})` : ''}{audit.durationMs ? `, ${minutes(audit.durationMs)}` : ''}</p>
      {audit.status === 'recorded' && !audit.uploaded && <p className="form__hint">{t('office.audio.notUploaded')}</p>}
      {audit.uploaded && (url
        ? <audio className="audio-audit__player" controls autoPlay src={url}>{t('office.audio.cannotPlay')}</audio>
        : <button type="button" className="btn btn--ghost btn--sm" onClick={() => void play()} disabled={loading}>{loading ? t('office.audio.loading') : t('office.audio.play')}</button>)}
      {audit.verdict && (
        <p className="audio-audit__verdict">
          <strong>{audit.verdict === 'matches' ? t('office.audio.matchesAnswers') : t('office.audio.mismatchAnswers')}</strong>
          {audit.reviewedBy && <> {t('office.audio.by', { name: audit.reviewedBy })}</>}{audit.reviewedAt && <small> {formatResponseDate(audit.reviewedAt, new Date(), true)}</small>}
          {audit.note && <span>: {audit.note}</span>}
        </p>
      )}
      {held.includes('audio_not_reviewed') && <p className="form__hint">{t('office.held', { reasons: holdReasonText('audio_not_reviewed') })}</p>}
      {audit.uploaded && (
        <div className="audio-audit__actions" inert={busy}>
          <button type="button" className="btn btn--primary btn--sm" onClick={() => void judge('matches')}>{t('office.audio.matches')}</button>
          <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => setMismatch((m) => !m)} aria-expanded={mismatch}>{t('office.audio.mismatch')}</button>
        </div>
      )}
      {mismatch && (
        <div className="audio-audit__mismatch">
          {!locked && (
            <div className="field">
              <label htmlFor={ids.status}>{t('office.audio.then')}</label>
              <select id={ids.status} value={status} onChange={(e) => setStatus(e.target.value as 'returned' | 'rejected')}>
                <option value="returned">{t('office.audio.thenReturned')}</option>
                <option value="rejected">{t('office.audio.thenRejected')}</option>
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor={ids.reason}>{t('office.audio.why')}</label>
            <textarea id={ids.reason} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
          <button type="button" className="btn btn--danger btn--sm" disabled={busy} onClick={() => void judge('does_not_match')}>{t('office.audio.record')}</button>
        </div>
      )}
    </section>
  );
}

import { Limits, answerOf, locatePathKey, type ResponseDetailReply, type ResponseFlag } from '@survey-bird/contracts';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { toast } from '../../lib/toast-store';
import { formatCell } from '../insight/cells';
import { flagLabel, isPhotoFlag, matchingPhotos } from './flag-labels';
import { SessionPhoto } from './SessionPhoto';
import { useT } from '../../lib/i18n';
import './review.css';
import { useOfficeMay } from '../accounts/session';

/**
 * The detail view's quality flags: each reason, the two photos side by side for a photo
 * flag, and Dismiss with a required note. `onDismissed` reloads the detail and the table's rows.
 */
export function FlagsSection({ detail, onDismissed }: { detail: ResponseDetailReply; onDismissed: () => void }) {
  const t = useT();
  return (
    <section className="response-detail__section">
      <h3>{t('office.flags.title')}</h3>
      {detail.checking ? <p className="form__hint">{t('office.flags.checkingResponse')}</p>
        : detail.flags.length === 0 ? <p className="form__hint">{t('office.flags.noFlags')}</p>
        : (
          <ul className="response-flags">
            {detail.flags.map((f) => <FlagItem key={f.flag} detail={detail} flag={f} onDismissed={onDismissed} />)}
          </ul>
        )}
    </section>
  );
}

function FlagItem({ detail, flag, onDismissed }: { detail: ResponseDetailReply; flag: ResponseFlag; onDismissed: () => void }) {
  const t = useT();
  const mayDismiss = useOfficeMay('dismissFlag');
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const noteId = useId();
  const label = flagLabel(flag.flag);

  async function dismiss() {
    setBusy(true);
    try {
      await api.call('dismissFlag', { params: { id: detail._id, flag: flag.flag }, body: { note: note.trim() } });
      toast.success(t('office.flags.dismissedToast', { label }));
      setAsking(false);
      onDismissed();
    } catch {
      // Toasted by the client.
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`response-flag${flag.dismissed ? ' response-flag--dismissed' : ''}`}>
      <div className="response-flag__head">
        <span className={`flag-chip${flag.dismissed ? ' flag-chip--dismissed' : ''}`}>{label}</span>
        <span>{flag.reason}</span>
        {mayDismiss && !flag.dismissed && !asking && <button type="button" className="btn btn--ghost btn--sm" onClick={() => setAsking(true)} aria-label={t('office.flags.dismissLabel', { label })}>{t('office.flags.dismiss')}</button>}
      </div>
      {isPhotoFlag(flag.flag) && flag.otherResponseId && <PhotoPair detail={detail} flag={flag} otherId={flag.otherResponseId} />}
      {flag.dismissed && (
        <p>{t('office.flags.dismissedBy', { by: flag.dismissed.by, role: flag.dismissed.role, when: formatResponseDate(flag.dismissed.at, new Date(), true), note: flag.dismissed.note })}</p>
      )}
      {asking && (
        <form onSubmit={(e) => { e.preventDefault(); if (note.trim()) void dismiss(); }}>
          <label htmlFor={noteId}>{t('office.flags.why')}</label>
          <textarea id={noteId} value={note} maxLength={Limits.maxReviewComment} required autoFocus onChange={(e) => setNote(e.target.value)} />
          <div className="comment-dialog__buttons">
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setAsking(false)}>{t('common.cancel')}</button>
            <button type="submit" className="btn btn--primary btn--sm" disabled={busy || !note.trim()}>{t('office.flags.dismissFlag')}</button>
          </div>
        </form>
      )}
    </li>
  );
}

/** A photo by its key: the question's text, or `Member#2/Photo` inside a repeat instance. */
const photoHref = (answers: ResponseDetailReply['answers'], question: string) => {
  const place = locatePathKey(answers, question);
  const cell = formatCell(place ? answerOf(place.holder as ResponseDetailReply['answers'], place.question) : undefined);
  return cell.kind === 'photo' ? cell.href : null;
};

/**
 * This response's photo beside the other response's. The other is read like any detail, so a
 * supervisor who may not see it (another team's field user) gets a line saying so instead.
 */
function PhotoPair({ detail, flag, otherId }: { detail: ResponseDetailReply; flag: ResponseFlag; otherId: string }) {
  const t = useT();
  const [other, setOther] = useState<{ reply: ResponseDetailReply | null } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.call('responseDetail', { params: { id: otherId }, signal: controller.signal, handleErrors: false }).then(
      (reply) => setOther({ reply }),
      () => { if (!controller.signal.aborted) setOther({ reply: null }); },
    );
    return () => controller.abort();
  }, [otherId]);
  if (!other) return null;
  const theirs = other.reply;
  if (!theirs) return <p className="form__hint">{t('office.flags.otherHidden')}</p>;
  const pair = matchingPhotos(flag.flag, detail.meta.photos, theirs.meta.photos);
  const mine = pair && photoHref(detail.answers, pair.mine);
  const their = pair && photoHref(theirs.answers, pair.other);
  if (!pair || !mine || !their) return null;
  return (
    <div className="response-flag__photos">
      <figure>
        <SessionPhoto href={mine} alt={t('office.flags.thisPhoto', { question: pair.mine })} className="response-flag__photo" />
        <figcaption>{t('office.flags.thisResponse')}</figcaption>
      </figure>
      <figure>
        <SessionPhoto href={their} alt={t('office.flags.otherPhoto', { question: pair.other })} className="response-flag__photo" />
        <figcaption>{theirs.fieldUser.fullName}, {formatResponseDate(theirs.createdAt, new Date(), true)}</figcaption>
      </figure>
    </div>
  );
}

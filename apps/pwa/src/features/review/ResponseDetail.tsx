import type { ResponseDetailReply, Survey } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { openedKey } from '../e2e/key-store';
import { openAnswers } from '../e2e/open-answers';
import { formatResponseDate } from '../../ui/format';
import { Modal } from '../../ui/Modal';
import { PageLoading } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { useOfficeMay } from '../accounts/session';
import { EraseForm } from '../privacy/EraseForm';
import '../privacy/privacy.css';
import { AudioAuditSection } from './AudioAuditSection';
import { AnswerTree } from './AnswerTree';
import { flagLabel } from './flag-labels';
import { holdReasonText } from './hold-reasons';
import { useT } from '../../lib/i18n';
import { FlagsSection } from './FlagsSection';
import { BackcheckComparison } from '../backchecks/BackcheckComparison';
import { ReviewActions } from './ReviewActions';
import { outcomeText, reviewIds, type Verdict } from './review-calls';
import { StatusChip, STATUS_LABEL } from './StatusChip';

/**
 * A response's detail view: answers and photos, status, the reviewer's comment, every
 * revision once a response has been fixed, its quality flags, and the audit trail oldest
 * first (verdicts and flag dismissals), with the review buttons.
 * `onChanged` lets the table reload its rows after a verdict.
 */
export function ResponseDetail({ id, survey, onClose, onChanged }: { id: string; survey: Survey; onClose: () => void; onChanged: () => void }) {
  const t = useT();
  const [detail, setDetail] = useState<(ResponseDetailReply & { opened?: boolean }) | null>(null);
  const [version, setVersion] = useState(0);
  const [erasing, setErasing] = useState(false);
  const mayErase = useOfficeMay('eraseResponse');
  useEffect(() => {
    const controller = new AbortController();
    api.call('responseDetail', { params: { id }, signal: controller.signal }).then(async (d) => {
      const key = openedKey();
      setDetail(key && d.encrypted ? { ...d, answers: await openAnswers(key, d.answers, d.encrypted).catch(() => d.answers), opened: true } : d);
    }, () => undefined);
    return () => controller.abort();
  }, [id, version]);

  async function verdict(status: Verdict, comment?: string) {
    const outcome = await reviewIds([id], status, comment);
    if (outcome.failed.length) toast.error(outcome.failed[0]!.msg);
    else toast.success(outcomeText(outcome, status));
    setVersion((v) => v + 1);
    onChanged();
  }

  const locked = detail ? detail.paid || detail.status === 'rejected' : true;
  const history = detail ? auditTrail(detail) : [];
  return (
    <Modal open title={t('office.detail.title')} onClose={onClose} className="response-detail">
      {!detail ? <PageLoading /> : (
        <div className="response-detail__body modal__body">
          <div className="response-detail__meta">
            <StatusChip status={detail.status} />
            {detail.paid && <span className="badge badge--brand">{t('office.detail.paid')}</span>}
            <span>{detail.fieldUser.fullName} ({detail.fieldUser.email})</span>
            <span>{t('office.detail.received', { when: formatResponseDate(detail.createdAt, new Date(), true) })}</span>
            {detail.revision !== undefined && <span>{t('office.detail.revision', { n: detail.revision })}</span>}
          </div>
          {detail.held.length > 0 && !detail.audioAudit && <p className="form__hint">{t('office.held', { reasons: detail.held.map(holdReasonText).join('; ') })}</p>}
          {detail.comment && <p className="response-detail__comment"><strong>{t('office.detail.comment')}</strong> {detail.comment}</p>}
          {detail.erasedAt && <p className="erased-note">{t('office.detail.erased', { when: formatResponseDate(detail.erasedAt, new Date(), true) })}</p>}
          {detail.hiddenPersonal && <p className="erased-note">{t('office.detail.hiddenPersonal')}</p>}
          {detail.encrypted && !detail.opened && <p className="erased-note">{t('office.detail.encrypted')}</p>}
          {detail.opened && <p className="form__hint">{t('office.detail.decrypted')}</p>}
          {!locked && <ReviewActions onVerdict={verdict} size="md" />}
          <FlagsSection detail={detail} onDismissed={() => { setVersion((v) => v + 1); onChanged(); }} />
          {/* The recording beside the answers it should match (stacked on a phone). */}
          <div className={detail.audioAudit ? 'response-detail__pair' : undefined}>
            {detail.audioAudit && <AudioAuditSection responseId={detail._id} audit={detail.audioAudit} held={detail.held} locked={locked} onChanged={() => { setVersion((v) => v + 1); onChanged(); }} />}
            <section className="response-detail__section">
              <h3>{t('office.detail.answers')}</h3>
              <AnswerTree answers={detail.answers} survey={survey} />
            </section>
          </div>
          <BackcheckComparison responseId={detail._id} version={version} />
          {detail.revisions && detail.revisions.length > 1 && (
            <section className="response-detail__section">
              <h3>{t('office.detail.revisions')}</h3>
              {detail.revisions.map((r) => (
                <details key={r.revision} className="response-detail__revision">
                  <summary>{t('office.detail.revisionLine', { n: r.revision, status: t(STATUS_LABEL[r.status]), when: formatResponseDate(r.submittedAt, new Date(), true) })}</summary>
                  <AnswerTree answers={r.answers} survey={survey} />
                </details>
              ))}
            </section>
          )}
          {mayErase && (
            <section className="response-detail__section">
              <h3>{t('office.detail.personal')}</h3>
              {erasing
                ? <EraseForm responseId={id} onCancel={() => setErasing(false)} onErased={() => { setErasing(false); setVersion((v) => v + 1); onChanged(); }} />
                : <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => setErasing(true)}>{t('office.detail.erase')}</button>}
            </section>
          )}
          <section className="response-detail__section">
            <h3>{t('office.detail.history')}</h3>
            {history.length === 0 ? <p className="form__hint">{t('office.detail.noReview')}</p> : (
              <ol className="response-detail__audit">
                {history.map((a, i) => (
                  <li key={i}>
                    {'flag' in a
                      ? <>{t('office.detail.flagWord')} <strong>{flagLabel(a.flag)}</strong> {t('office.detail.dismissedBy', { by: a.by, role: a.role })}</>
                      : <>{t(STATUS_LABEL[a.from])} → <strong>{t(STATUS_LABEL[a.to])}</strong> {t('office.detail.by', { by: a.by, role: a.role })}</>}
                    <small>{formatResponseDate(a.at, new Date(), true)}</small>
                    {a.comment && <div>{a.comment}</div>}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
    </Modal>
  );
}

/** Verdicts and flag dismissals in one list, oldest first. */
function auditTrail(detail: ResponseDetailReply) {
  const dismissals = detail.flags.flatMap((f) => (f.dismissed ? [{ flag: f.flag, by: f.dismissed.by, role: f.dismissed.role, at: f.dismissed.at, comment: f.dismissed.note }] : []));
  return [...detail.audit, ...dismissals].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

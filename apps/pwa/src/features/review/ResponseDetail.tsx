import type { Answer, ResponseDetailReply, Survey } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { Modal } from '../../ui/Modal';
import { PageLoading } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { formatCell } from '../insight/cells';
import { answerLines } from './answer-lines';
import { FLAG_LABEL } from './flag-labels';
import { FlagsSection } from './FlagsSection';
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
  const [detail, setDetail] = useState<ResponseDetailReply | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api.call('responseDetail', { params: { id }, signal: controller.signal }).then((d) => setDetail(d), () => undefined);
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
    <Modal open title="Response" onClose={onClose} className="response-detail">
      {!detail ? <PageLoading /> : (
        <div className="response-detail__body modal__body">
          <div className="response-detail__meta">
            <StatusChip status={detail.status} />
            {detail.paid && <span className="badge badge--brand">Paid</span>}
            <span>{detail.fieldUser.fullName} ({detail.fieldUser.email})</span>
            <span>Received {formatResponseDate(detail.createdAt, new Date(), true)}</span>
            {detail.revision !== undefined && <span>Revision {detail.revision}</span>}
          </div>
          {detail.comment && <p className="response-detail__comment"><strong>Reviewer's comment:</strong> {detail.comment}</p>}
          {!locked && <ReviewActions onVerdict={verdict} size="md" />}
          <FlagsSection detail={detail} onDismissed={() => { setVersion((v) => v + 1); onChanged(); }} />
          <section className="response-detail__section">
            <h3>Answers</h3>
            <Answers answers={detail.answers} survey={survey} />
          </section>
          {detail.revisions && detail.revisions.length > 1 && (
            <section className="response-detail__section">
              <h3>Revisions</h3>
              {detail.revisions.map((r) => (
                <details key={r.revision} className="response-detail__revision">
                  <summary>Revision {r.revision}, {STATUS_LABEL[r.status]}, submitted {formatResponseDate(r.submittedAt, new Date(), true)}</summary>
                  <Answers answers={r.answers} survey={survey} />
                </details>
              ))}
            </section>
          )}
          <section className="response-detail__section">
            <h3>Review history</h3>
            {history.length === 0 ? <p className="form__hint">No review yet.</p> : (
              <ol className="response-detail__audit">
                {history.map((a, i) => (
                  <li key={i}>
                    {'flag' in a
                      ? <>Flag <strong>{FLAG_LABEL[a.flag]}</strong> dismissed by {a.by} ({a.role})</>
                      : <>{STATUS_LABEL[a.from]} → <strong>{STATUS_LABEL[a.to]}</strong> by {a.by} ({a.role})</>}
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

/** The survey's questions in order, then any answer to a question no longer in it (answer-lines.ts). */
function Answers({ answers, survey }: { answers: Record<string, Answer>; survey: Survey }) {
  return (
    <dl className="response-detail__answers">
      {answerLines(survey.questions, answers).map(({ question: text, answer, type }) => {
        const cell = formatCell(answer, undefined, type);
        return [
          <dt key={`q-${text}`}>{text}</dt>,
          <dd key={`a-${text}`}>
            {cell.kind === 'photo' ? (
              <a href={cell.href} target="_blank" rel="noopener noreferrer"><img className="response-detail__photo" src={cell.href} alt={`Photo: ${text}`} loading="lazy" /></a>
            ) : cell.kind === 'link' ? (
              <a href={cell.href} target="_blank" rel="noopener noreferrer">{cell.text}</a>
            ) : cell.kind === 'missing' || cell.kind === 'pending' ? <span className="resp-na">{cell.text}</span> : cell.text}
          </dd>,
        ];
      })}
    </dl>
  );
}

/** Verdicts and flag dismissals in one list, oldest first. */
function auditTrail(detail: ResponseDetailReply) {
  const dismissals = detail.flags.flatMap((f) => (f.dismissed ? [{ flag: f.flag, by: f.dismissed.by, role: f.dismissed.role, at: f.dismissed.at, comment: f.dismissed.note }] : []));
  return [...detail.audit, ...dismissals].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

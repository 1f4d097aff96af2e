import type { ResponseBackcheckReply } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import './backchecks.css';
import { useT } from '../../lib/i18n';

type Backcheck = NonNullable<ResponseBackcheckReply['backcheck']>;
const shown = (v: string | string[] | null) => (v === null ? '—' : Array.isArray(v) ? v.join(', ') : v);

/** In a response's detail view: its back-check's stable answers beside the original's, and the form's own answers. */
export function BackcheckComparison({ responseId, version }: { responseId: string; version: number }) {
  const t = useT();
  const [backcheck, setBackcheck] = useState<Backcheck | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.call('responseBackcheck', { params: { id: responseId }, signal: controller.signal, handleErrors: false }).then((r) => setBackcheck(r.backcheck), () => undefined);
    return () => controller.abort();
  }, [responseId, version]);
  if (!backcheck) return null;
  return (
    <section className="response-detail__section bc-compare" aria-label={t('office.bc.title')}>
      <h3>{t('office.bc.title')}</h3>
      {backcheck.status !== 'done' ? (
        <p className="form__hint">{backcheck.status === 'assigned'
          ? (backcheck.backchecker ? t('office.bc.waitingFor', { when: formatResponseDate(backcheck.selectedAt), name: backcheck.backchecker }) : t('office.bc.waitingForAny', { when: formatResponseDate(backcheck.selectedAt) }))
          : t('office.bc.noneAvailable', { when: formatResponseDate(backcheck.selectedAt) })}</p>
      ) : (
        <>
          <p className={backcheck.mismatch ? 'bc-compare__verdict bc-compare__verdict--bad' : 'bc-compare__verdict'}>
            {t('office.bc.differ', { rate: backcheck.rate ?? 0, threshold: backcheck.threshold })} · {backcheck.backchecker ? t('office.audio.by', { name: backcheck.backchecker }) : t('office.bc.byAny')}, {backcheck.completedAt ? formatResponseDate(backcheck.completedAt, new Date(), true) : ''}
          </p>
          <div className="bc-compare__scroll">
            <table className="bc-compare__table">
              <thead><tr><th scope="col">{t('office.bc.question')}</th><th scope="col">{t('office.bc.original')}</th><th scope="col">{t('office.bc.title')}</th><th scope="col">{t('office.bc.same')}</th></tr></thead>
              <tbody>
                {backcheck.items.map((i) => (
                  <tr key={i.questionId} className={i.match === false ? 'bc-compare__row--differs' : undefined}>
                    <th scope="row">{i.text}{i.tolerance ? <small> (±{i.tolerance})</small> : null}</th>
                    <td>{shown(i.original)}</td>
                    <td>{shown(i.backcheck)}</td>
                    <td>{i.match === null ? t('office.bc.notCompared') : i.match ? t('office.bc.yes') : <strong>{t('office.bc.no')}</strong>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {backcheck.extra.length > 0 && (
            <dl className="response-detail__answers">
              {backcheck.extra.flatMap((e) => [<dt key={`q-${e.text}`}>{e.text}</dt>, <dd key={`a-${e.text}`}>{shown(e.answer)}</dd>])}
            </dl>
          )}
        </>
      )}
    </section>
  );
}

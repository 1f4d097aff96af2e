import type { ResponseBackcheckReply } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import './backchecks.css';

type Backcheck = NonNullable<ResponseBackcheckReply['backcheck']>;
const shown = (v: string | string[] | null) => (v === null ? '—' : Array.isArray(v) ? v.join(', ') : v);

/** In a response's detail view: its back-check's stable answers beside the original's, and the form's own answers. */
export function BackcheckComparison({ responseId, version }: { responseId: string; version: number }) {
  const [backcheck, setBackcheck] = useState<Backcheck | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.call('responseBackcheck', { params: { id: responseId }, signal: controller.signal, handleErrors: false }).then((r) => setBackcheck(r.backcheck), () => undefined);
    return () => controller.abort();
  }, [responseId, version]);
  if (!backcheck) return null;
  return (
    <section className="response-detail__section bc-compare" aria-label="Back-check">
      <h3>Back-check</h3>
      {backcheck.status !== 'done' ? (
        <p className="form__hint">Selected {formatResponseDate(backcheck.selectedAt)}; {backcheck.status === 'assigned' ? `waiting for ${backcheck.backchecker ?? 'the back-checker'}` : 'no back-checker available yet'}.</p>
      ) : (
        <>
          <p className={backcheck.mismatch ? 'bc-compare__verdict bc-compare__verdict--bad' : 'bc-compare__verdict'}>
            {backcheck.rate ?? 0}% of the stable answers differ (threshold {backcheck.threshold}%) · by {backcheck.backchecker ?? 'a back-checker'}, {backcheck.completedAt ? formatResponseDate(backcheck.completedAt, new Date(), true) : ''}
          </p>
          <div className="bc-compare__scroll">
            <table className="bc-compare__table">
              <thead><tr><th scope="col">Question</th><th scope="col">Original</th><th scope="col">Back-check</th><th scope="col">Same</th></tr></thead>
              <tbody>
                {backcheck.items.map((i) => (
                  <tr key={i.questionId} className={i.match === false ? 'bc-compare__row--differs' : undefined}>
                    <th scope="row">{i.text}{i.tolerance ? <small> (±{i.tolerance})</small> : null}</th>
                    <td>{shown(i.original)}</td>
                    <td>{shown(i.backcheck)}</td>
                    <td>{i.match === null ? 'Not compared' : i.match ? 'Yes' : <strong>No</strong>}</td>
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

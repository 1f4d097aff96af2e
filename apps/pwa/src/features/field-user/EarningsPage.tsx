import type { Survey } from '@survey-bird/contracts';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api';
import { getCachedSurveys, type EarningsLine } from '../../offline';
import { earningsLines, earningsSnapshot, responsesList, saveResponsesPage } from '../../offline/earnings';
import { formatNaira, formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { useOnline } from '../../ui/useOnline';
import { useActiveSurvey } from '../surveys/active-survey';
import { timesText } from './earnings-times';
import { answerText } from './form-logic';
import { useAccount, useSyncController } from './use-sync';
import './field-user.css';
import './earnings.css';
import type { AccountKey } from '../../offline/account-key';

const ReviseDialog = lazy(() => import('./ReviseDialog'));

/** How each status reads on the phone. */
const STATUS_LABEL: Record<EarningsLine['status'], string> = {
  approved: 'Approved',
  pending: 'Awaiting review',
  returned: 'Returned to fix',
  rejected: 'Rejected',
  sending: 'Not sent yet',
};

/** /survey-bird/field-user/earnings: what the field user has earned, and what needs a fix; offline too. */
export function EarningsPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <Earnings account={account.key} />;
}

function Earnings({ account }: { account: AccountKey }) {
  const online = useOnline();
  const { syncNow, running } = useSyncController();
  const cached = useLiveQuery(() => getCachedSurveys(account), [account]);
  const { surveys: listed } = useActiveSurvey();
  const surveys = useMemo(() => new Map<string, Survey>([...(cached ?? []), ...listed].map((s) => [s._id, s])), [cached, listed]);
  const snapshot = useLiveQuery(() => earningsSnapshot(account), [account]);
  const lines = useLiveQuery(() => earningsLines(account, (id) => surveys.get(id)?.payAfterReview === true), [account, surveys]);
  const list = useLiveQuery(() => responsesList(account), [account]);
  const [fixing, setFixing] = useState<EarningsLine | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  // The list comes from the server, so a new phone shows every response the cards count.
  const loadPage = useCallback(async (page: number) => {
    const reply = await api.call('myResponses', { query: { page }, handleErrors: false }).catch(() => null);
    if (reply) await saveResponsesPage(account, reply, Date.now());
  }, [account]);
  // Sync (what changed, the cards), then the list's first page: the two as of one moment.
  const refresh = useCallback(() => syncNow().then(() => loadPage(1)), [syncNow, loadPage]);

  // Opening the screen with signal asks for what changed since the last sync.
  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);

  if (snapshot === undefined || lines === undefined || list === undefined) return <PageLoading />;
  const e = snapshot?.reply;
  const toFix = lines.filter((l) => l.status === 'returned' && !l.fixQueued);

  return (
    <div className="fu earn">
      <div className="fu-list__head">
        <h1 className="screen__title">Earnings</h1>
        <button type="button" className="btn btn--ghost" onClick={() => void refresh()} disabled={!online || running}>{running ? 'Syncing…' : 'Sync now'}</button>
      </div>
      <p className="earn__asof" data-testid="earnings-as-of">
        {snapshot ? `As of ${formatResponseDate(new Date(snapshot.at).toISOString())}` : 'Not synced yet: open Survey Bird with signal to see your earnings.'}
        {!online && snapshot && ' · offline, showing what this phone last heard'}
      </p>
      {e && (
        <dl className="earn__cards" aria-label="Your earnings">
          <div className="earn-card earn-card--owed">
            <dt>Approved, to be paid</dt>
            <dd><strong>{formatNaira(e.owed.amount)}</strong><span>{count(e.owed.count)}</span></dd>
          </div>
          <div className="earn-card earn-card--pending">
            <dt>Awaiting review</dt>
            <dd><strong>{formatNaira(e.awaitingReview.amount)}</strong><span>{count(e.awaitingReview.count)}</span></dd>
          </div>
          <div className="earn-card earn-card--paid">
            <dt>Paid</dt>
            <dd><strong>{formatNaira(e.paid.amount)}</strong><span>{count(e.paid.count)}{e.paid.lastPaidAt && ` · last paid ${formatResponseDate(e.paid.lastPaidAt)}`}</span></dd>
          </div>
          <div className="earn-card earn-card--returned">
            <dt>Returned to fix</dt>
            <dd><strong>{formatNaira(e.returned.amount)}</strong><span>{count(e.returned.count)}</span></dd>
          </div>
        </dl>
      )}
      {toFix.length > 0 && <p className="earn__alert" role="status">{toFix.length === 1 ? '1 response needs a fix' : `${toFix.length} responses need a fix`}: read the comment, fix and send it again.</p>}
      <h2 className="earn__subtitle">Your responses{list && ` (${list.totalCount})`}</h2>
      {lines.length === 0 ? (
        <div className="placeholder">No responses yet. Each response you send is listed here with what the reviewer decided.</div>
      ) : (
        <ul className="fu-list" aria-label="Your responses and their status">
          {lines.map((l) => {
            const survey = surveys.get(l.surveyId);
            const preview = Object.entries(l.answers ?? {}).filter(([, a]) => !String(a).includes('/files/image/')).slice(0, 2);
            const status = l.paid ? 'paid' : l.status;
            return (
              <li key={l.id} className={`fu-rec earn-rec earn-rec--${status}`} data-status={status}>
                <div className="fu-rec__top">
                  <span className="fu-rec__title">{survey?.title ?? 'Survey'}</span>
                  {l.amount !== null && <span className="earn-rec__amount">{formatNaira(l.amount)}</span>}
                  <span className={`earn-status earn-status--${status}`}>{l.paid ? 'Paid' : l.fixQueued ? 'Fix waiting to send' : STATUS_LABEL[l.status]}</span>
                </div>
                <p className="fu-rec__meta" data-testid="times">
                  {timesText(l)}
                  {l.revision > 1 && ` · revision ${l.revision}`}
                </p>
                {preview.length > 0 && (
                  <dl className="fu-rec__answers">
                    {preview.map(([q, a]) => (
                      <div key={q}>
                        <dt>{q}</dt>
                        <dd>{answerText(a) || '—'}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {l.comment && (l.status === 'returned' || l.status === 'rejected') && (
                  <p className="earn-rec__comment" role="note"><strong>Reviewer:</strong> {l.comment}</p>
                )}
                {l.status === 'returned' && !l.fixQueued && (
                  <div className="fu-rec__actions">
                    {survey && l.answers
                      ? <button type="button" className="btn btn--primary" onClick={() => setFixing(l)}>Fix and resubmit</button>
                      : <p className="fu-rec__meta">Open Survey Bird with signal once to download this survey, then fix it here.</p>}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list?.hasNextPage && (
        <div className="earn__more">
          <p className="fu-rec__meta" data-testid="list-count">{`Showing ${list.rows.length} of ${count(list.totalCount)}`}</p>
          <button type="button" className="btn btn--ghost" disabled={!online || loadingMore} onClick={() => {
            setLoadingMore(true);
            void loadPage(list.pages + 1).finally(() => setLoadingMore(false));
          }}>{loadingMore ? 'Loading…' : 'Show more'}</button>
        </div>
      )}
      {fixing && surveys.get(fixing.surveyId) && (
        <Suspense fallback={null}>
          <ReviseDialog
            line={fixing}
            survey={surveys.get(fixing.surveyId)!}
            account={account}
            onClose={() => setFixing(null)}
            onQueued={() => {
              setFixing(null);
              void refresh();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

const count = (n: number) => (n === 1 ? '1 response' : `${n} responses`);

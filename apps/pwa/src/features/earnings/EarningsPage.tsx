import type { HoldReason, Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { getCachedSurveys, type EarningsLine } from '../../offline';
import { earningsLines, earningsSnapshot, responsesList, saveResponsesPage } from '../../offline/earnings';
import { formatNaira, formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { useOnline } from '../../ui/useOnline';
import { useActiveSurvey } from '../surveys/active-survey';
import { timesText } from './earnings-times';
import { answerText } from '../capture/form-logic';
import { useAccount, useSyncController } from '../sync/use-sync';
import '../capture/field-user.css';
import './earnings.css';
import type { AccountKey } from '../../session/account-key';
import { loadPart, msgId, t, useT } from '../../lib/i18n';

// The form's words (lib/i18n.ts loadPart) come with the dialog that shows the form.
const ReviseDialog = lazy(() => Promise.all([import('../responses/ReviseDialog'), loadPart('form')]).then(([m]) => m));
/** Why a line is held, in the user's words (contracts' HoldReasonText in English). */
const HOLD_REASON: Record<HoldReason, string> = {
  not_reviewed: msgId('earnings.hold.notReviewed'),
  audio_not_reviewed: msgId('earnings.hold.audioNotReviewed'),
  backcheck: msgId('earnings.hold.backcheck'),
};

/** How each status reads on the phone. */
const STATUS_LABEL: Record<EarningsLine['status'], string> = {
  approved: msgId('earnings.approved'),
  pending: msgId('earnings.awaitingReview'),
  returned: msgId('earnings.returnedToFix'),
  rejected: msgId('earnings.rejected'),
  sending: msgId('earnings.notSentYet'),
};

/** /survey-bird/field-user/earnings: what the field user has earned, and what needs a fix; offline too. */
export function EarningsPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <Earnings account={account.key} />;
}

function Earnings({ account }: { account: AccountKey }) {
  useT();
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
        <h1 className="screen__title">{t('earnings.title')}</h1>
        <button type="button" className="btn btn--ghost" onClick={() => void refresh()} disabled={!online || running}>{running ? t('sync.syncing') : t('sync.now')}</button>
      </div>
      <p className="earn__asof" data-testid="earnings-as-of">
        {snapshot ? t('earnings.asOf', { when: formatResponseDate(new Date(snapshot.at).toISOString()) }) : t('earnings.notSynced')}
        {!online && snapshot && ` · ${t('earnings.offlineNote')}`}
        {' · '}<Link to={paths.fieldUserBank}>{t('earnings.bankDetails')}</Link>
      </p>
      {e && (
        <dl className="earn__cards" aria-label={t('earnings.yours')}>
          <div className="earn-card earn-card--owed">
            <dt>{t('earnings.owed')}</dt>
            <dd><strong>{formatNaira(e.owed.amount)}</strong><span>{count(e.owed.count)}</span></dd>
          </div>
          <div className="earn-card earn-card--pending">
            <dt>{t('earnings.awaitingReview')}</dt>
            <dd><strong>{formatNaira(e.awaitingReview.amount)}</strong><span>{count(e.awaitingReview.count)}</span></dd>
          </div>
          <div className="earn-card earn-card--paid">
            <dt>{t('earnings.paid')}</dt>
            <dd><strong>{formatNaira(e.paid.amount)}</strong><span>{count(e.paid.count)}{e.paid.lastPaidAt && ` · ${t('earnings.lastPaid', { when: formatResponseDate(e.paid.lastPaidAt) })}`}</span></dd>
          </div>
          <div className="earn-card earn-card--returned">
            <dt>{t('earnings.returnedToFix')}</dt>
            <dd><strong>{formatNaira(e.returned.amount)}</strong><span>{count(e.returned.count)}</span></dd>
          </div>
        </dl>
      )}
      {e && (e.held?.length ?? 0) > 0 && (
        <div className="earn__held" role="note" data-testid="earnings-held">
          <strong>{t('earnings.heldTotal', { amount: formatNaira(e.held.reduce((n, h) => n + h.amount, 0)) })}</strong> {t('earnings.heldUntil')}
          <ul>{e.held.map((h) => <li key={h.reason}>{count(h.count)}, {formatNaira(h.amount)}: {t(HOLD_REASON[h.reason])}</li>)}</ul>
        </div>
      )}
      {toFix.length > 0 && <p className="earn__alert" role="status">{t('earnings.needFix', { count: toFix.length })}</p>}
      <h2 className="earn__subtitle">{list ? t('earnings.responsesCount', { total: list.totalCount }) : t('earnings.responses')}</h2>
      {lines.length === 0 ? (
        <div className="placeholder">{t('earnings.none')}</div>
      ) : (
        <ul className="fu-list" aria-label={t('earnings.listLabel')}>
          {lines.map((l) => {
            const survey = surveys.get(l.surveyId);
            const preview = Object.entries(l.answers ?? {}).filter(([, a]) => !answerText(a).includes('/files/image/')).slice(0, 2);
            const status = l.paid ? 'paid' : l.status;
            return (
              <li key={l.id} className={`fu-rec earn-rec earn-rec--${status}`} data-status={status}>
                <div className="fu-rec__top">
                  <span className="fu-rec__title">{survey?.title ?? t('responses.survey')}</span>
                  {l.amount !== null && <span className="earn-rec__amount">{formatNaira(l.amount)}</span>}
                  <span className={`earn-status earn-status--${status}`}>{l.paid ? t('earnings.paid') : l.fixQueued ? t('earnings.fixWaiting') : t(STATUS_LABEL[l.status])}</span>
                </div>
                {l.held && !l.paid && <p className="earn-rec__held">{t('earnings.heldFor', { reason: t(HOLD_REASON[l.held]) })}</p>}
                <p className="fu-rec__meta" data-testid="times">
                  {timesText(l)}
                  {l.revision > 1 && ` · ${t('earnings.revision', { n: l.revision })}`}
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
                  <p className="earn-rec__comment" role="note"><strong>{t('earnings.reviewer')}</strong> {l.comment}</p>
                )}
                {l.status === 'returned' && !l.fixQueued && (
                  <div className="fu-rec__actions">
                    {survey && l.answers
                      ? <button type="button" className="btn btn--primary" onClick={() => setFixing(l)}>{t('earnings.fixResubmit')}</button>
                      : <p className="fu-rec__meta">{t('earnings.downloadFirst')}</p>}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list?.hasNextPage && (
        <div className="earn__more">
          <p className="fu-rec__meta" data-testid="list-count">{t('earnings.showing', { shown: list.rows.length, total: list.totalCount })}</p>
          <button type="button" className="btn btn--ghost" disabled={!online || loadingMore} onClick={() => {
            setLoadingMore(true);
            void loadPage(list.pages + 1).finally(() => setLoadingMore(false));
          }}>{loadingMore ? t('common.loading') : t('earnings.showMore')}</button>
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

const count = (n: number) => t('earnings.count', { count: n });

import type { Survey } from '@survey-bird/contracts';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useMemo, useState } from 'react';
import { deliveryLabel, discard, exportFailed, getCachedSurveys, listOutbox, resendAsNew, retry, type OutboxRecord, type Review } from '../../offline';
import { listStatuses } from '../../offline/earnings';
import { confirmDialog } from '../../lib/dialog-store';
import { formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { useActiveSurvey } from '../surveys/active-survey';
import { isClosedRefusal } from '../capture/closed-at-submit';
import { answerText } from '../capture/form-logic';
import { responseRows } from './response-rows';
import { SyncStrip } from '../sync/SyncStrip';
import { useAccount, useSyncController } from '../sync/use-sync';
import '../capture/field-user.css';
import type { AccountKey } from '../../session/account-key';
import { loadPart, useT } from '../../lib/i18n';
import { ruleText } from '../capture/rule-text';
import { deliveryText } from './delivery-text';

// The form's words (lib/i18n.ts loadPart) come with the dialog that shows the form.
const FixResponseDialog = lazy(() => Promise.all([import('./FixResponseDialog'), loadPart('form')]).then(([m]) => m));

/** /survey-bird/field-user/response: every response this phone holds, newest first, and what became of it. */
export function ResponsesPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <Responses account={account.key} email={account.email} />;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function Responses({ account, email }: { account: AccountKey; email: string }) {
  const t = useT();
  const records = useLiveQuery(() => listOutbox(account), [account]);
  // What the office decided about each sent response, by its server _id, as the last sync heard.
  const reviews = useLiveQuery(async () => new Map<string, Review>((await listStatuses(account)).map((s) => [s.id, s])), [account]);
  const cached = useLiveQuery(() => getCachedSurveys(account), [account]);
  const { surveys: listed } = useActiveSurvey();
  const { syncNow } = useSyncController();
  const [fixing, setFixing] = useState<OutboxRecord | null>(null);

  const surveys = useMemo(() => new Map<string, Survey>([...(cached ?? []), ...listed].map((s) => [s._id, s])), [cached, listed]);
  const failed = records?.filter((r) => r.status === 'failed').length ?? 0;
  const rows = useMemo(() => (records ? responseRows(records) : undefined), [records]);

  const download = async () => {
    const blob = await exportFailed(account);
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `survey-bird-failed-responses-${new Date().toISOString().slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const act = (work: () => Promise<unknown>) => () =>
    void work()
      .then(() => syncNow())
      .catch((err: unknown) => toast.error(err instanceof Error ? err.message : t('msg.unexpectedError')));

  const onResend = (r: OutboxRecord) => act(async () => {
    const yes = await confirmDialog({
      title: t('responses.resendTitle'),
      body: t('responses.resendBody'),
      action: t('responses.resendAction'),
      cancel: t('common.cancel'),
    });
    if (yes) await resendAsNew(r.id);
  });

  const onDiscard = (r: OutboxRecord) => act(async () => {
    const yes = await confirmDialog({
      title: t('responses.discardTitle'),
      body: t('responses.discardBody'),
      action: t('responses.discard'),
      cancel: t('common.cancel'),
      tone: 'danger',
    });
    if (yes) await discard(r.id);
  });

  return (
    <div className="fu">
      <SyncStrip account={account} email={email} showResponsesLink={false} />
      <div className="fu-list__head">
        <h1 className="screen__title">{t('responses.title')}</h1>
        {failed > 0 && <button type="button" className="btn btn--ghost" onClick={() => void download()}>{t('responses.saveFailed')}</button>}
      </div>
      {rows === undefined ? (
        <PageLoading />
      ) : rows.length === 0 ? (
        <div className="placeholder">{t('responses.none')}</div>
      ) : (
        <ul className="fu-list" aria-label={t('responses.onPhone')}>
          {rows.map(({ key, original, fixes, latest }) => {
            const survey = surveys.get(latest.surveyId);
            const preview = Object.entries(latest.answers).slice(0, 3);
            const photos = latest.photoQuestions.length;
            const failedOnes = [original, ...fixes].filter((r): r is OutboxRecord => r?.status === 'failed');
            // The decision is about the response as it is now: its latest revision, never an earlier fix.
            const review = reviews?.get(original?.serverId ?? latest.revisionOf ?? '');
            const label = (r: OutboxRecord) => deliveryText(r === latest ? deliveryLabel(r, review, survey?.payAfterReview) : deliveryLabel(r));
            return (
              <li key={key} className={`fu-rec fu-rec--${latest.status}`} data-status={latest.status}>
                <div className="fu-rec__top">
                  <span className="fu-rec__title">{survey?.title ?? t('responses.survey')}</span>
                  <span className={`chip chip--${latest.status}${latest.status === 'synced' && review && !review.paid ? ` chip--${review.status}` : ''}`} data-testid="delivery">{latest.status === 'failed' ? t('review.failed') : label(latest)}</span>
                </div>
                <p className="fu-rec__meta">
                  {original ? t('responses.submitted', { when: formatResponseDate(original.capturedAt) }) : t('responses.returnedToYou')}
                  {original?.status === 'synced' && original.syncedAt !== undefined && ` · ${t('responses.received', { when: formatResponseDate(iso(original.syncedAt)) })}`}
                  {original?.status === 'sending' && ` · ${t('responses.sendingNow')}`}
                  {original?.status === 'queued' && original.lastError && ` · ${t('responses.lastTry', { msg: ruleText(original.lastError.msg) })}`}
                </p>
                {fixes.map((f, i) => (
                  <p key={f.id} className="fu-rec__meta" data-testid="fix">
                    {fixes.length > 1 ? t('responses.fixN', { n: i + 1 }) : t('responses.fixed')} {formatResponseDate(f.capturedAt)}: {f.status === 'failed' ? t('review.failed') : label(f)}
                    {f.status === 'queued' && f.lastError && ` · ${t('responses.lastTry', { msg: ruleText(f.lastError.msg) })}`}
                  </p>
                ))}
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
                {photos > 0 && <p className="fu-rec__meta">{t('responses.photos', { count: photos })}</p>}
                {/* Issue 19: the office has the response; these photos are still only on this phone. */}
                {original?.photosPending && (
                  <p className="fu-rec__meta fu-rec__pending" data-testid="photos-pending">
                    {t('responses.photoPending', { questions: original.photosPending.join(', ') })}
                    {original.photoError && ` · ${t('responses.lastTry', { msg: ruleText(original.photoError.msg) })}`}
                  </p>
                )}
                {failedOnes.map((r) => (
                  <div key={r.id} className="fu-rec__failed">
                    <p className="fu-rec__error" role="note">
                      <strong>{r.revisionOf ? t('responses.serverSaidFix') : t('responses.serverSaid')}</strong> {r.lastError?.msg ? ruleText(r.lastError.msg) : t('msg.unexpectedError')}
                      {r.lastError?.question && ` (${r.lastError.question})`}
                    </p>
                    {/* No answer of it can be fixed into the window: Retry is for a survey the organization reopens. */}
                    {isClosedRefusal(r) && <p className="fu-rec__meta" data-testid="closed-refusal">{t('responses.closedRefusal')}</p>}
                    <div className="fu-rec__actions">
                      {survey && !isClosedRefusal(r) && <button type="button" className="btn btn--primary" onClick={() => setFixing(r)}>{t('responses.fix')}</button>}
                      <button type="button" className="btn btn--ghost" onClick={act(() => retry(r.id))}>{t('responses.retry')}</button>
                      {r.lastError?.status === 409 && !r.revisionOf && <button type="button" className="btn btn--ghost" onClick={onResend(r)}>{t('responses.resendAsNew')}</button>}
                      <button type="button" className="btn btn--danger-outline" onClick={onDiscard(r)}>{t('responses.discard')}</button>
                    </div>
                  </div>
                ))}
              </li>
            );
          })}
        </ul>
      )}
      {fixing && surveys.get(fixing.surveyId) && (
        <Suspense fallback={null}>
          <FixResponseDialog
            record={fixing}
            survey={surveys.get(fixing.surveyId)!}
            account={account}
            onClose={() => setFixing(null)}
            onSaved={() => {
              setFixing(null);
              void syncNow();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

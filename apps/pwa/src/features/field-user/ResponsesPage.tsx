import { Msg, type Survey } from '@survey-bird/contracts';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useMemo, useState } from 'react';
import { deliveryLabel, discard, exportFailed, getCachedSurveys, listOutbox, resendAsNew, retry, type OutboxRecord, type Review } from '../../offline';
import { listStatuses } from '../../offline/earnings';
import { confirmDialog } from '../../ui/dialog-store';
import { formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { useActiveSurvey } from '../surveys/active-survey';
import { isClosedRefusal } from './closed-at-submit';
import { answerText } from './form-logic';
import { responseRows } from './response-rows';
import { SyncStrip } from './SyncStrip';
import { useAccount, useSyncController } from './use-sync';
import './field-user.css';
import type { AccountKey } from '../../offline/account-key';

const FixResponseDialog = lazy(() => import('./FixResponseDialog'));

/** /survey-bird/field-user/response: every response this phone holds, newest first, and what became of it. */
export function ResponsesPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <Responses account={account.key} email={account.email} />;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function Responses({ account, email }: { account: AccountKey; email: string }) {
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
      .catch((err: unknown) => toast.error(err instanceof Error ? err.message : Msg.unexpectedError));

  const onResend = (r: OutboxRecord) => act(async () => {
    const yes = await confirmDialog({
      title: 'Send as a new response?',
      body: 'The server already holds a different response under this one\'s id. Send this one as a new response only if it really is another response (it will be counted and paid separately).',
      action: 'Send as new',
      cancel: 'Cancel',
    });
    if (yes) await resendAsNew(r.id);
  });

  const onDiscard = (r: OutboxRecord) => act(async () => {
    const yes = await confirmDialog({
      title: 'Discard this response?',
      body: 'It has not reached the server. Once discarded it is gone from this phone for good. Export it first if you may need it.',
      action: 'Discard',
      cancel: 'Cancel',
      tone: 'danger',
    });
    if (yes) await discard(r.id);
  });

  return (
    <div className="fu">
      <SyncStrip account={account} email={email} showResponsesLink={false} />
      <div className="fu-list__head">
        <h1 className="screen__title">Responses</h1>
        {failed > 0 && <button type="button" className="btn btn--ghost" onClick={() => void download()}>Save failed responses (file)</button>}
      </div>
      {rows === undefined ? (
        <PageLoading />
      ) : rows.length === 0 ? (
        <div className="placeholder">No responses on this phone yet. The responses you submit are listed here until and after the server receives them.</div>
      ) : (
        <ul className="fu-list" aria-label="Responses on this phone">
          {rows.map(({ key, original, fixes, latest }) => {
            const survey = surveys.get(latest.surveyId);
            const preview = Object.entries(latest.answers).slice(0, 3);
            const photos = latest.photoQuestions.length;
            const failedOnes = [original, ...fixes].filter((r): r is OutboxRecord => r?.status === 'failed');
            // The decision is about the response as it is now: its latest revision, never an earlier fix.
            const review = reviews?.get(original?.serverId ?? latest.revisionOf ?? '');
            const label = (r: OutboxRecord) => (r === latest ? deliveryLabel(r, review, survey?.payAfterReview) : deliveryLabel(r));
            return (
              <li key={key} className={`fu-rec fu-rec--${latest.status}`} data-status={latest.status}>
                <div className="fu-rec__top">
                  <span className="fu-rec__title">{survey?.title ?? 'Survey'}</span>
                  <span className={`chip chip--${latest.status}${latest.status === 'synced' && review && !review.paid ? ` chip--${review.status}` : ''}`} data-testid="delivery">{latest.status === 'failed' ? 'failed' : label(latest)}</span>
                </div>
                <p className="fu-rec__meta">
                  {original ? `Submitted ${formatResponseDate(original.capturedAt)}` : 'A response returned to you for fixing'}
                  {original?.status === 'synced' && original.syncedAt !== undefined && ` · received ${formatResponseDate(iso(original.syncedAt))}`}
                  {original?.status === 'sending' && ' · sending now'}
                  {original?.status === 'queued' && original.lastError && ` · last try: ${original.lastError.msg}`}
                </p>
                {fixes.map((f, i) => (
                  <p key={f.id} className="fu-rec__meta" data-testid="fix">
                    {fixes.length > 1 ? `Fix ${i + 1}` : 'Fixed'} {formatResponseDate(f.capturedAt)}: {f.status === 'failed' ? 'failed' : label(f)}
                    {f.status === 'queued' && f.lastError && ` · last try: ${f.lastError.msg}`}
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
                {photos > 0 && <p className="fu-rec__meta">{photos === 1 ? '1 photo' : `${photos} photos`}</p>}
                {/* Issue 19: the office has the response; these photos are still only on this phone. */}
                {original?.photosPending && (
                  <p className="fu-rec__meta fu-rec__pending" data-testid="photos-pending">
                    Photo not uploaded yet: {original.photosPending.join(', ')}
                    {original.photoError && ` · last try: ${original.photoError.msg}`}
                  </p>
                )}
                {failedOnes.map((r) => (
                  <div key={r.id} className="fu-rec__failed">
                    <p className="fu-rec__error" role="note">
                      <strong>The server said{r.revisionOf ? ' about the fix' : ''}:</strong> {r.lastError?.msg ?? Msg.unexpectedError}
                      {r.lastError?.question && ` (${r.lastError.question})`}
                    </p>
                    {/* No answer of it can be fixed into the window: Retry is for a survey the organization reopens. */}
                    {isClosedRefusal(r) && <p className="fu-rec__meta" data-testid="closed-refusal">It reached the server after the organization closed the survey. Ask them to reopen it, then tap Retry; or save it to a file.</p>}
                    <div className="fu-rec__actions">
                      {survey && !isClosedRefusal(r) && <button type="button" className="btn btn--primary" onClick={() => setFixing(r)}>Fix</button>}
                      <button type="button" className="btn btn--ghost" onClick={act(() => retry(r.id))}>Retry</button>
                      {r.lastError?.status === 409 && !r.revisionOf && <button type="button" className="btn btn--ghost" onClick={onResend(r)}>Resend as new</button>}
                      <button type="button" className="btn btn--danger-outline" onClick={onDiscard(r)}>Discard</button>
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

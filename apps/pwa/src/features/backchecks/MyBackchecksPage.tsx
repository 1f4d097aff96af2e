import type { BackcheckAssignment } from '@survey-bird/contracts';
import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { api } from '../../api';
import { backcheckFeed, backchecksDone, saveBackcheckFeed } from '../../offline';
import { formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { useOnline } from '../../ui/useOnline';
import { useAccount, useSyncController } from '../sync/use-sync';
import type { AccountKey } from '../../session/account-key';
import '../capture/field-user.css';
import { loadPart, msgId, useT } from '../../lib/i18n';
import './backchecks.css';

// The dialog edits a form: the form's words load with it.
const BackcheckDialog = lazy(() => Promise.all([import('./BackcheckDialog'), loadPart('form')]).then(([m]) => m));

const DONE_LABEL: Record<string, string> = { queued: msgId('backcheck.queued'), sending: msgId('backcheck.sending'), synced: msgId('backcheck.sent'), failed: msgId('backcheck.failed') };

/**
 * /survey-bird/field-user/backchecks (and the supervisor's): the back-checker's assignments, kept on
 * the phone so they open and fill offline. Each shows who to visit, where, and when the original
 * interview was captured (never its answers); the filled back-check waits in the outbox like any response.
 */
export function MyBackchecksPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <MyBackchecks account={account.key} />;
}

function MyBackchecks({ account }: { account: AccountKey }) {
  const t = useT();
  const online = useOnline();
  const { syncNow, running } = useSyncController();
  const feed = useLiveQuery(() => backcheckFeed(account), [account]);
  const done = useLiveQuery(() => backchecksDone(account), [account]);
  const [open, setOpen] = useState<BackcheckAssignment | null>(null);

  const refresh = useCallback(async () => {
    await syncNow().catch(() => undefined);
    const reply = await api.call('myBackchecks', { query: { page: 1 }, handleErrors: false }).catch(() => null);
    if (reply) await saveBackcheckFeed(account, reply, Date.now());
  }, [account, syncNow]);

  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);

  if (feed === undefined || done === undefined) return <PageLoading />;
  const form = open ? feed?.forms.find((f) => f.survey_id === open.survey_id) : undefined;
  const assignments = feed?.assignments ?? [];
  return (
    <div className="fu bc">
      <div className="fu-list__head">
        <h1 className="screen__title">{t('backcheck.title')}</h1>
        <button type="button" className="btn btn--ghost" onClick={() => void refresh()} disabled={!online || running}>{running ? t('sync.syncing') : t('sync.now')}</button>
      </div>
      <p className="earn__asof" data-testid="backchecks-as-of">
        {feed ? t('backcheck.asOf', { date: formatResponseDate(new Date(feed.at).toISOString()) }) : t('backcheck.notSynced')}
        {!online && feed && ` · ${t('backcheck.offline')}`}
      </p>
      {assignments.length === 0 ? (
        <p className="empty-note">{t('backcheck.none')}</p>
      ) : (
        <ul className="bc-list" aria-label={t('backcheck.toDo')}>
          {assignments.map((a) => {
            const state = done.get(a.responseId);
            return (
              <li key={a._id} className="bc-card">
                <div className="bc-card__who">
                  <strong>{a.respondent ?? t('backcheck.respondent')}</strong>
                  <span className="bc-card__survey">{a.surveyTitle}</span>
                </div>
                <dl className="bc-card__facts">
                  <dt>{t('backcheck.interviewed')}</dt><dd>{a.capturedAt ? formatResponseDate(a.capturedAt, new Date(), true) : t('backcheck.unknown')}</dd>
                  <dt>{t('backcheck.where')}</dt>
                  <dd>{a.location ? <a href={`geo:${a.location.lat},${a.location.lng}`}>{a.location.lat.toFixed(5)}, {a.location.lng.toFixed(5)}</a> : t('backcheck.noLocation')}</dd>
                </dl>
                {state ? <span className={`bc-chip bc-chip--${state}`}>{DONE_LABEL[state] ? t(DONE_LABEL[state]) : state}</span> : (
                  <button type="button" className="btn btn--primary" onClick={() => setOpen(a)} disabled={!feed?.forms.some((f) => f.survey_id === a.survey_id)}>{t('backcheck.start')}</button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {open && form && (
        <Suspense fallback={null}>
          <BackcheckDialog assignment={open} form={form} account={account} onClose={() => setOpen(null)} onQueued={() => { setOpen(null); void syncNow().catch(() => undefined); }} />
        </Suspense>
      )}
    </div>
  );
}

import type { Survey } from '@survey-bird/contracts';
import { useLiveQuery } from 'dexie-react-hooks';
import { Suspense, lazy, memo, useCallback, useEffect } from 'react';
import { api } from '../../api';
import { getCachedSurveys, searchDataset } from '../../offline';
import { whenIdle } from '../../lib/idle';
import { PageLoading } from '../../ui/Spinner';
import { useOnline } from '../../ui/useOnline';
import { getAccounts } from '../../session/account-storage';
import { ResponseEditor } from './ResponseEditor';
import { activeSurveys, useActiveSurvey } from '../surveys/active-survey';
import { SUBMIT_LABEL } from './form-logic';
import { useT } from '../../lib/i18n';
import { SurveySwitch } from '../surveys/SurveySwitch';
import { SyncStrip } from '../sync/SyncStrip';
import { useSurveyForm } from './use-survey-form';
import { useAccount } from '../sync/use-sync';
import './field-user.css';
import { accountKey, type AccountKey } from '../../session/account-key';

// Rare (a closed survey), so out of the form route's budget.
const ClosedSurvey = lazy(() => import('./ClosedSurvey').then((m) => ({ default: m.ClosedSurvey })));

/** How old the survey list's reply may be for the offline cache to take it instead of asking again. */
const LIST_REUSE_MS = 60_000;

/** Screen 8 at /survey-bird/field-user: the active survey's questions, online or offline. */
export function QuestionsPage() {
  const account = useAccount();
  if (!account) return <PageLoading />;
  return <FieldUserQuestions account={account.key} email={account.email} />;
}

function FieldUserQuestions({ account, email }: { account: AccountKey; email: string }) {
  const t = useT();
  const online = useOnline();
  const active = useActiveSurvey();
  // The phone's copy stands in only while no survey is known (a first visit without signal):
  // otherwise it is not read, and refreshing it does not render the form again.
  const fallback = active.survey === null;
  const cached = useLiveQuery(() => (fallback ? getCachedSurveys(account) : null), [account, fallback], fallback ? undefined : null);

  // Keep the surveys and their long option lists on the phone for the hours without signal, once
  // the form has painted. The survey list's reply is reused when it just came and holds every
  // survey; otherwise the cache asks itself (a request still in flight is shared, api/client.ts).
  // While the list is loading the cache waits for it: deciding mid-load asked for the list a second time.
  const listLoading = active.loading;
  useEffect(() => {
    if (!online || listLoading) return;
    return whenIdle(() => {
      const token = getAccounts().find((a) => accountKey(a.email) === account)?.token;
      if (!token) return;
      const known = activeSurveys.peek(account);
      const fresh = known.fetchedAt !== null && Date.now() - known.fetchedAt < LIST_REUSE_MS && known.surveys.length >= known.totalCount;
      import('../../offline/surveys-cache-refresh')
        .then((m) => m.cacheFieldUserSurveys(accountKey(email), token, { listed: fresh ? known.surveys : undefined }))
        .catch((err: unknown) => console.warn('survey-bird: surveys not cached', err));
    });
  }, [account, email, online, listLoading]);

  const surveys = active.surveys.length > 0 ? active.surveys : (cached ?? []);
  const survey = active.survey ?? surveys[0] ?? null;
  const waiting = !survey && (active.loading || cached === undefined);
  useUpdatedNotice(account, survey);

  return (
    <div className="fu">
      <SyncStrip account={account} email={email} />
      <SurveySwitch online={online} />
      {survey?.closed ? (
        <Suspense fallback={<PageLoading />}><ClosedSurvey account={account} survey={survey} /></Suspense>
      ) : survey ? (
        <SurveyForm key={`${account}/${survey._id}`} account={account} survey={survey} />
      ) : waiting ? (
        <PageLoading />
      ) : (
        <div className="placeholder">
          {online ? t('form.noSurveyOnline') : t('form.noSurveyOffline')}
        </div>
      )}
    </div>
  );
}

/** "This survey was updated", once per new version (its code loads on its own: the form route's budget). */
function useUpdatedNotice(account: AccountKey, survey: Survey | null): void {
  const id = survey?._id;
  const version = survey?.version ?? 1;
  useEffect(() => {
    if (id) void import('./survey-updated').then((m) => m.noticeIfUpdated(account, id, version));
  }, [account, id, version]);
}

// Memo: the sync strip and the survey list refreshing around it do not render the questions again.
const SurveyForm = memo(function SurveyForm({ account, survey }: { account: AccountKey; survey: Survey }) {
  const t = useT();
  const form = useSurveyForm(account, survey);
  const online = useOnline();

  const search = useCallback(async (question: string, query: string) => {
    const local = await searchDataset(account, survey._id, question, query);
    if (local.length > 0 || !online) return local;
    // Not downloaded yet (first visit): ask the server while there is signal.
    const reply = await api.call('largeDataset', { query: { organization_id: survey.organization_id, survey_id: survey._id, question, searchQuery: query }, handleErrors: false }).catch(() => null);
    return reply?.options ?? [];
  }, [account, survey._id, survey.organization_id, online]);

  // After a submit the next response starts at the top, where the strip shows it was kept.
  useEffect(() => {
    if (form.generation > 0) window.scrollTo({ top: 0 });
  }, [form.generation]);

  const busy = form.phase !== 'idle';
  return (
    <form className="fu-form" noValidate onSubmit={(e) => {
      e.preventDefault();
      form.submit();
    }}>
      <header className="fu-form__head">
        <h1 className="fu-form__title">{survey.title}</h1>
        {survey.description && <p className="fu-form__desc">{survey.description}</p>}
        <div className="fu-form__bar">
          <p className="fu-form__total">{t('form.totalQuestions', { total: form.total })}</p>
          {(survey.languages?.length ?? 0) > 1 && (
            <label className="lang-switch">
              {t('form.language')}
              <select value={form.editor.language ?? ''} onChange={(e) => form.editor.setLanguage(e.currentTarget.value)}>
                {survey.languages!.map((l) => <option key={l.code} value={l.code}>{l.label}</option>)}
              </select>
            </label>
          )}
        </div>
        {form.recording && <p className="fu-form__recording" role="status"><span aria-hidden="true">●</span> {t('form.recording')}</p>}
      </header>
      {/* Held while a submit is being queued: what is typed then would be cleared with the sent answers. */}
      <ResponseEditor key={form.generation} editor={form.editor} searchDataset={search} disabled={busy} loading={!form.ready} />
      <div className="fu-submit">
        <button type="submit" className="btn btn--primary btn--lg fu-submit__btn" aria-busy={busy} aria-disabled={busy} disabled={!form.ready || form.processing.size > 0}>
          {busy && <span className="spinner" aria-hidden="true" />}
          {t(SUBMIT_LABEL[form.phase])}
        </button>
      </div>
    </form>
  );
});

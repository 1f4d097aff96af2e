import type { Survey } from '@survey-bird/contracts';
import { useCallback, useEffect } from 'react';
import { api, ApiError } from '../../api';
import { handleFailure } from '../../api/failures';
import { afterNextPaint } from '../../lib/idle';
import { useStore } from '../../lib/store';
import { getAccounts } from '../../session/account-storage';
import { useSession } from '../accounts/session';
import { createActiveSurveyStore, surveyListRoute, type AccountSurveys, type SurveyListRoute } from './active-survey-store';
import { accountKey } from '../../session/account-key';

/**
 * The active survey of each signed-in account (spec section 4): the survey every dashboard, team
 * screen and the field-user form work on.
 *
 *   const { survey, surveys, totalCount, loading, route, setActive, refresh } = useActiveSurvey();
 *
 * - survey: the active survey of the current account, or null (none yet, or no survey at all).
 * - surveys / totalCount: the first page of the account's surveys (newest first) and how many exist.
 * - loading: the fetching flag; true until the list has loaded once for this account.
 * - route: the list route of the user's role ('organizationSurveys' | 'supervisorSurveys' |
 *   'fieldUserSurveys'), or null for roles without surveys; SurveyPicker takes it.
 * - setActive(survey): choose a survey (the picker and Publish do this); remembered per account.
 * - refresh(): reload the list (after publishing, or on a refresh button).
 *
 * Once the user is known, the first reader loads the role's list (GET /survey/organization |
 * /survey/supervisor | /survey/field-user) and picks the first survey unless the account chose one
 * before (chooseActive). State is kept per account (the lower-cased e-mail), so switching accounts
 * switches the active survey. The chosen survey is kept whole in localStorage under
 * 'survey-bird.active-survey' ({ [account]: Survey }) so a reload shows it before the list arrives.
 * A field user without signal falls back to the surveys the offline layer cached on the phone.
 *
 * Outside React: activeSurveys.peek(account), activeSurveys.setActive(account, survey).
 */

export const activeSurveys = createActiveSurveyStore({
  async fetchFirstPage(account, route) {
    const token = getAccounts().find((a) => accountKey(a.email) === account)?.token;
    // On the first load the remembered survey is on screen already: the list waits until it has painted.
    const shown = activeSurveys.peek(account);
    if (!shown.loaded && shown.active) await afterNextPaint();
    try {
      return await api.call(route, { query: { page: 1 }, token, handleErrors: false });
    } catch (err) {
      // A field user out of signal starts from the phone's copy without an error toast.
      const offline = err instanceof ApiError && err.status === 0 && route === 'fieldUserSurveys';
      if (err instanceof ApiError && !offline) handleFailure(err.failure);
      throw err;
    }
  },
  async cachedSurveys(account, route) {
    if (route !== 'fieldUserSurveys') return null;
    const { getCachedSurveys } = await import('../../offline');
    return getCachedSurveys(account);
  },
  storage: typeof localStorage === 'undefined' ? null : localStorage,
});

export interface ActiveSurvey {
  survey: Survey | null;
  surveys: Survey[];
  totalCount: number;
  loading: boolean;
  route: SurveyListRoute | null;
  setActive(survey: Survey | null): void;
  refresh(): Promise<void>;
}

const NONE: AccountSurveys = { surveys: [], totalCount: 0, active: null, loading: false, loaded: true, fetchedAt: null };

export function useActiveSurvey(): ActiveSurvey {
  const { user } = useSession();
  const account = user ? accountKey(user.email) : null;
  const route = surveyListRoute(user?.role);
  const all = useStore(activeSurveys.store);

  useEffect(() => {
    if (account && route && !activeSurveys.peek(account).loaded) void activeSurveys.load(account, route);
  }, [account, route]);

  const state = account && route ? (all[account] ?? activeSurveys.peek(account)) : NONE;
  const setActive = useCallback((survey: Survey | null) => {
    if (account) activeSurveys.setActive(account, survey);
  }, [account]);
  const refresh = useCallback(() => (account && route ? activeSurveys.load(account, route) : Promise.resolve()), [account, route]);

  return { survey: state.active, surveys: state.surveys, totalCount: state.totalCount, loading: state.loading, route, setActive, refresh };
}

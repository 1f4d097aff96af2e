import { StorageKey } from '../../session/storage-keys';
import { Role, type Survey, type SurveyListReply } from '@survey-bird/contracts';
import { createStore } from '../../lib/store';
import type { AccountKey } from '../../session/account-key';

/**
 * The core of the active-survey store, free of the API client and React so it can be tested with
 * fakes; active-survey.ts wires it to the app. See that file for the API the screens use.
 */

/** The survey list each role reads (spec section 7); other roles have no surveys. */
export type SurveyListRoute = 'organizationSurveys' | 'supervisorSurveys' | 'fieldUserSurveys';

export function surveyListRoute(role: string | null | undefined): SurveyListRoute | null {
  switch (role) {
    case Role.organization: return 'organizationSurveys';
    case Role.supervisor: return 'supervisorSurveys';
    case Role.fieldUser: return 'fieldUserSurveys';
    default: return null;
  }
}

export interface AccountSurveys {
  /** The first page of the account's surveys, newest first, as the server lists them. */
  surveys: Survey[];
  totalCount: number;
  active: Survey | null;
  /** The fetching flag of spec section 4. */
  loading: boolean;
  /** A load has finished (successfully or not) since the page opened. */
  loaded: boolean;
  /** When `surveys` last came from the server (Date.now()); null before that or when read from the phone. */
  fetchedAt: number | null;
}

export const STORAGE_KEY = StorageKey.activeSurvey;

/**
 * Spec section 4: the first survey unless the user chose one. A remembered choice is kept when the
 * list still holds it, or when the list is only a first page (the choice may sit on a later page);
 * a complete list without it means the survey is gone, so the first one takes its place.
 */
export function chooseActive(list: readonly Survey[], complete: boolean, remembered: Survey | null): Survey | null {
  if (remembered) {
    const fresh = list.find((s) => s._id === remembered._id);
    if (fresh) return fresh;
    if (!complete) return remembered;
  }
  return list[0] ?? null;
}

function isSurvey(v: unknown): v is Survey {
  const s = v as Survey | null;
  return typeof s === 'object' && s !== null && typeof s._id === 'string' && typeof s.title === 'string' && Array.isArray(s.questions);
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface ActiveSurveyDeps {
  /** Page 1 of the account's survey list (no search). Rejects when the call fails. */
  fetchFirstPage(account: AccountKey, route: SurveyListRoute): Promise<SurveyListReply>;
  /** Every survey kept on this device for the account (a field user starting offline), or null. */
  cachedSurveys?(account: AccountKey, route: SurveyListRoute): Promise<Survey[] | null>;
  storage?: KeyValueStorage | null;
}

export type ActiveSurveyCore = ReturnType<typeof createActiveSurveyStore>;

export function createActiveSurveyStore(deps: ActiveSurveyDeps) {
  const store = createStore<Readonly<Record<string, AccountSurveys>>>({});
  const initial = new Map<string, AccountSurveys>();
  const inFlight = new Map<string, Promise<void>>();

  function readAll(): Record<string, Survey> {
    try {
      const parsed: unknown = JSON.parse(deps.storage?.getItem(STORAGE_KEY) ?? '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => isSurvey(v)));
    } catch {
      return {};
    }
  }

  /** The survey this account chose last time, kept whole so a reload (or no signal) shows it at once. */
  function remembered(account: AccountKey): Survey | null {
    return readAll()[account] ?? null;
  }

  function remember(account: AccountKey, survey: Survey | null): void {
    const all = readAll();
    if (survey) all[account] = survey;
    else delete all[account];
    try {
      if (Object.keys(all).length === 0) deps.storage?.removeItem(STORAGE_KEY);
      else deps.storage?.setItem(STORAGE_KEY, JSON.stringify(all));
    } catch {
      // Storage full or blocked: the choice still holds for this page, it is only not remembered.
    }
  }

  /** The account's state; before the first load, the remembered survey with the fetching flag up. */
  function peek(account: AccountKey): AccountSurveys {
    const known = store.get()[account];
    if (known) return known;
    let first = initial.get(account);
    if (!first) {
      const active = remembered(account);
      first = { surveys: active ? [active] : [], totalCount: active ? 1 : 0, active, loading: true, loaded: false, fetchedAt: null };
      initial.set(account, first);
    }
    return first;
  }

  function patch(account: AccountKey, change: Partial<AccountSurveys>): void {
    store.set((all) => ({ ...all, [account]: { ...peek(account), ...change } }));
  }

  /** Loads the account's surveys and settles its active survey; concurrent calls share one load. */
  function load(account: AccountKey, route: SurveyListRoute): Promise<void> {
    const running = inFlight.get(account);
    if (running) return running;
    // Before the first load the flag is already up: no store change, no render.
    if (!peek(account).loading) patch(account, { loading: true });
    const promise = (async () => {
      try {
        const reply = await deps.fetchFirstPage(account, route);
        const current = peek(account).active;
        const chosen = chooseActive(reply.survey, !reply.hasNextPage, current);
        // The remembered survey unchanged on the server: the same object, so the form does not render again.
        const active = current && chosen && JSON.stringify(chosen) === JSON.stringify(current) ? current : chosen;
        patch(account, { surveys: reply.survey, totalCount: reply.totalCount, active, loading: false, loaded: true, fetchedAt: Date.now() });
        remember(account, active);
      } catch {
        const cached = (await deps.cachedSurveys?.(account, route).catch(() => null)) ?? null;
        if (cached && cached.length > 0) {
          const active = chooseActive(cached, true, peek(account).active);
          patch(account, { surveys: cached, totalCount: cached.length, active, loading: false, loaded: true, fetchedAt: null });
        } else {
          patch(account, { loading: false, loaded: true });
        }
      } finally {
        inFlight.delete(account);
      }
    })();
    inFlight.set(account, promise);
    return promise;
  }

  /** Makes `survey` the account's active one; a survey not in the list yet (just published) joins its front. */
  function setActive(account: AccountKey, survey: Survey | null): void {
    const current = peek(account);
    const listed = survey === null || current.surveys.some((s) => s._id === survey._id);
    patch(account, {
      active: survey,
      surveys: listed || !survey ? current.surveys : [survey, ...current.surveys],
      totalCount: listed ? current.totalCount : current.totalCount + 1,
    });
    remember(account, survey);
  }

  return { store, peek, load, setActive, remembered };
}

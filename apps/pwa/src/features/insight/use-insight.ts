import type { ResponseListReply, ResponseStatus, RouteName, TopPerformerReply } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';

/**
 * The dashboard's data, one hook per call. Each reloads when its inputs (or `reload`, bumped by
 * the refresh button) change, drops the previous survey's data at once so a survey switch shows
 * skeletons rather than stale numbers, and ignores answers that arrive after a newer request.
 * Failures are toasted by the client (spec section 8); the hook just stops loading.
 */
interface Loadable<T> {
  data: T | null;
  loading: boolean;
}

type CardsRoute = Extract<RouteName, 'organizationTopPerformer' | 'supervisorTopPerformer'>;
type ResponsesRoute = Extract<RouteName, 'organizationResponses' | 'supervisorResponses'>;
/** The table's filters, as the list and the export take them (only those set). */
export interface ListFilters { status?: ResponseStatus; flagged?: 'true' | 'false' }

/**
 * Runs `load` whenever `key` changes. Data of the same `scope` (the survey) stays while the next
 * request runs, so the pager keeps its place; another survey starts empty.
 */
function useLoad<T>(scope: string | null, key: string, load: (signal: AbortSignal) => Promise<T>): Loadable<T> {
  const [state, setState] = useState<Loadable<T> & { scope: string | null; key: string | null }>({ scope: null, key: null, data: null, loading: false });
  useEffect(() => {
    if (scope === null) return;
    const controller = new AbortController();
    setState((s) => ({ scope, key, data: s.scope === scope ? s.data : null, loading: true }));
    load(controller.signal).then(
      (data) => { if (!controller.signal.aborted) setState({ scope, key, data, loading: false }); },
      () => { if (!controller.signal.aborted) setState((s) => ({ ...s, loading: false })); },
    );
    return () => controller.abort();
    // `scope` and `key` name every input of `load`, which is a new closure on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scope, key]);
  if (scope === null) return { data: null, loading: false };
  const current = state.scope === scope;
  return { data: current ? state.data : null, loading: state.loading || state.key !== key || !current };
}

/** Total responses, active field users and the top performer of a survey. */
export function useCards(route: CardsRoute, surveyId: string | null, reload: number): Loadable<TopPerformerReply> {
  return useLoad(surveyId, `${route}|${reload}`, (signal) => api.call(route, { params: { surveyId: surveyId! }, signal }));
}

/**
 * One page of the responses table. A page reached from the one before it is asked for by keyset
 * (`after` = that page's nextCursor), so a deep page costs the server what page 1 does; the
 * cursors are kept per list (survey, search, filters, reload) and forgotten when it changes.
 */
export function useResponses(route: ResponsesRoute, surveyId: string | null, searchQuery: string, page: number, reload: number, filters: ListFilters = {}): Loadable<ResponseListReply> {
  const cursors = useRef({ list: '', byPage: new Map<number, string>() });
  const filterKey = `${filters.status ?? ''}|${filters.flagged ?? ''}`;
  const list = `${route}|${surveyId}|${searchQuery}|${filterKey}|${reload}`;
  return useLoad(surveyId, `${route}|${searchQuery}|${filterKey}|${page}|${reload}`, async (signal) => {
    if (cursors.current.list !== list) cursors.current = { list, byPage: new Map() };
    const known = cursors.current;
    const after = known.byPage.get(page);
    const reply = await api.call(route, { params: { surveyId: surveyId! }, query: { page, searchQuery, ...filters, ...(after ? { after } : {}) }, signal });
    if (reply.nextCursor) known.byPage.set(page + 1, reply.nextCursor);
    return reply;
  });
}

/** The name in the greeting: the organization's, or the supervisor's; undefined while loading, null if the call failed. */
export function useGreetingName(role: 'organization' | 'supervisor'): string | null | undefined {
  const [name, setName] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    const load = role === 'organization'
      ? api.call('currentOrganization', { signal }).then((r) => r.organization.organization_name)
      : api.call('currentSupervisorName', { signal }).then((r) => r.supervisor);
    load.then(
      (n) => { if (!signal.aborted) setName(n); },
      () => { if (!signal.aborted) setName(null); },
    );
    return () => controller.abort();
  }, [role]);
  return name;
}

/** `value`, once it has stopped changing for `ms` (the search box). */
export function useDebounced<T>(value: T, ms = 350): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

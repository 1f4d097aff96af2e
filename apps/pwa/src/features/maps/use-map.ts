import type { MapQuery, MapReply } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';

export interface SurveyMapState {
  data: MapReply | null;
  loading: boolean;
  failed: boolean;
  /** The query (JSON) `data` answers: a screen can tell a fresh answer from the last one kept on screen. */
  answered: string | null;
}

/**
 * The survey's map for a view and filters: asked again after every move or filter change (the
 * earlier request aborted); a new `reload` asks again. `data` keeps the last answer on screen
 * while the next one loads.
 */
export function useSurveyMap(surveyId: string | null, query: MapQuery | null, reload = 0): SurveyMapState {
  const [state, setState] = useState<SurveyMapState>({ data: null, loading: true, failed: false, answered: null });
  const asked = JSON.stringify(query);
  useEffect(() => {
    if (!surveyId || !query) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api.call('surveyMap', { params: { id: surveyId }, query, signal: controller.signal }).then(
      (data) => setState({ data, loading: false, failed: false, answered: asked }),
      () => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, loading: false, failed: true }));
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is compared by value (asked)
  }, [surveyId, asked, reload]);
  return state;
}

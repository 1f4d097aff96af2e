import { useCallback, useEffect, useRef, useState } from 'react';

export interface PageRequest {
  page: number;
  searchQuery: string;
  signal: AbortSignal;
}

/** Typing settles for this long before the list is searched. */
const SEARCH_DELAY_MS = 300;

/**
 * One page of a server list with its search box: the page resets to 1 when the search changes, a
 * newer request aborts the older one, and refresh() reloads the page shown. A screen that changes
 * what it lists (another survey) remounts the list with a React key.
 */
export function usePagedList<T>(fetchPage: (req: PageRequest) => Promise<T>) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;

  useEffect(() => {
    const next = search.trim();
    if (next === query) return;
    const timer = setTimeout(() => {
      setQuery(next);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, query]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchRef
      .current({ page, searchQuery: query, signal: controller.signal })
      .then((result) => {
        if (controller.signal.aborted) return;
        setData(result);
        setLoading(false);
      })
      .catch(() => {
        // The API client has already toasted the failure; an abort means a newer request runs.
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [page, query, tick]);

  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { page, setPage, search, setSearch, query, data, setData, loading, refresh };
}

import { useEffect, useState } from 'react';

/**
 * Runs `task` once the page has loaded and the main thread is idle (at the latest `timeoutMs` after
 * load): for startup work the first screen does not need. Returns a cancel function.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  let cancelled = false;
  let idleId: number | undefined;
  const run = () => {
    if (!cancelled) task();
  };
  const schedule = () => {
    if (cancelled) return;
    if (typeof requestIdleCallback === 'function') idleId = requestIdleCallback(run, { timeout: timeoutMs });
    else idleId = window.setTimeout(run, 1);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    if (idleId === undefined) return;
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idleId);
    else clearTimeout(idleId);
  };
}

/** false until the page has loaded and gone idle once (whenIdle); true from then on. */
let idleOnce = false;
export function useIdle(): boolean {
  const [idle, setIdle] = useState(idleOnce);
  useEffect(() => {
    if (idle) return;
    return whenIdle(() => {
      idleOnce = true;
      setIdle(true);
    });
  }, [idle]);
  return idle;
}

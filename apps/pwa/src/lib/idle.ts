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

/**
 * Resolves once the browser has painted the next frame (or after `timeoutMs` in a hidden tab, where
 * frames are not drawn): for a request that only confirms what the screen already shows, so the
 * screen paints before the request and its reply compete with it for the main thread.
 */
export function afterNextPaint(timeoutMs = 500): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() => {
      clearTimeout(timer);
      setTimeout(resolve, 0);
    });
  });
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

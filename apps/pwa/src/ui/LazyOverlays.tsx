import { Suspense, lazy } from 'react';
import { updateReady } from '../offline/service-worker';
import { dialog } from '../lib/dialog-store';
import { useStore } from '../lib/store';

const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));
const UpdatePrompt = lazy(() => import('./UpdatePrompt').then((m) => ({ default: m.UpdatePrompt })));

/** The confirm dialog's code (and the modal's) loads the first time one opens: off every route's first paint. */
export function LazyConfirmDialog() {
  const open = useStore(dialog);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog />
    </Suspense>
  );
}

/** "A new version is available" loads once the service worker has one waiting. */
export function LazyUpdatePrompt() {
  const ready = useStore(updateReady);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  );
}

import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { appSync } from './app-sync';
import { registerServiceWorker } from './offline/service-worker';
import { bindNavigation } from './routes/navigate';
import { createAppRouter } from './routes/router';
import { whenIdle } from './ui/idle';
import './ui/global.css';

const router = createAppRouter();
bindNavigation((href, replace) => void router.navigate({ href, replace }));
registerServiceWorker();
// Queued responses wait a moment longer: the first screen renders before the sync engine loads and reads IndexedDB.
whenIdle(() => void appSync());

const root = createRoot(document.getElementById('root')!);
// A transition renders in slices that yield to the browser every few milliseconds, so the first
// render of a large screen (the form) is not one long task blocking input on a slow phone.
startTransition(() =>
  root.render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  ),
);

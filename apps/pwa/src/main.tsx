import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { appSync } from './offline/app-sync';
import { registerServiceWorker } from './offline/service-worker';
import { bindNavigation } from './lib/navigate';
import { createAppRouter } from './routes/router';
import { whenIdle } from './lib/idle';
import { activateLanguage, initialLanguage } from './lib/i18n';
import './ui/global.css';

const router = createAppRouter();
bindNavigation((href, replace) => void router.navigate({ href, replace }));
registerServiceWorker();
// Queued responses wait a moment longer: the first screen renders before the sync engine loads and reads IndexedDB.
whenIdle(() => void appSync());

const root = createRoot(document.getElementById('root')!);
// The first render waits for the one catalog it shows (a small chunk of its own); an unreadable
// catalog falls back to English so the app still opens.
const ready = activateLanguage(initialLanguage()).catch(() => activateLanguage('en'));
// A transition renders in slices that yield to the browser every few milliseconds, so the first
// render of a large screen (the form) is not one long task blocking input on a slow phone.
void ready.finally(() =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  ),
);

import { launchChromium, DESKTOP, type Browser } from '../../support/chromium';

export { CHROMIUM, DESKTOP, PHONE, type Browser } from '../../support/chromium';

/** A fresh Chromium profile per call, so storage, service worker and caches start empty. */
export function openBrowser(viewport = DESKTOP): Promise<Browser> {
  // A test camera (a moving pattern) with no permission prompt, for live-image questions.
  return launchChromium({ viewport, args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'], timeoutMs: 10_000 });
}


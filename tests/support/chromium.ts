import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core (shared by tests/e2e and scripts/bench). */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** Headless, no GPU, no background traffic (which would skew the benchmarks' network figures). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile per call, so storage, service worker and caches start empty.
 * `viewport: null` leaves the window's own size (Lighthouse emulates the phone itself); a viewport
 * under 600 px wide is a touch phone.
 */
export async function launchChromium({ viewport, args = [], timeoutMs }: { viewport: { width: number; height: number } | null; args?: string[]; timeoutMs: number }): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'survey-bird-chromium-'));
  const phone = viewport !== null && viewport.width < 600;
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    ...(viewport ? { isMobile: phone, hasTouch: phone, deviceScaleFactor: 1 } : {}),
    serviceWorkers: 'allow',
    args: [...CHROMIUM_ARGS, ...args],
  });
  context.setDefaultTimeout(timeoutMs);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

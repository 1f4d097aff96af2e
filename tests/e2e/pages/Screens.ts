import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { repoRoot } from '../harness/server';

/** Every screen's path as the app's route table (apps/pwa/src/lib/paths.ts) names it: key -> path. */
export function appPaths(): Record<string, string> {
  const source = readFileSync(`${repoRoot}/apps/pwa/src/lib/paths.ts`, 'utf8');
  const table = /export const paths = \{([\s\S]*?)\n\} as const;/.exec(source)?.[1];
  if (!table) throw new Error('paths.ts: the `paths` table was not found');
  return Object.fromEntries([...table.matchAll(/^\s+(\w+): '([^']+)',/gm)].map((m) => [m[1]!, m[2]!]));
}

/**
 * What went wrong on a page while it was watched: uncaught errors, console errors (a failed request
 * is one in Chromium: "Failed to load resource: ... 403") and the router's error screen.
 */
export class ScreenWatch {
  private readonly problems: string[] = [];

  constructor(private readonly page: Page) {
    page.on('pageerror', (err) => this.problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.problems.push(`console error: ${msg.text()} (${msg.location().url})`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) this.problems.push(`HTTP ${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
  }

  /** Loads `path` in a fresh document (so each screen's chunks are evaluated on their own) and waits until it settles. */
  async visit(baseUrl: string, path: string): Promise<void> {
    await this.page.goto(`${baseUrl}${path}`);
    await this.settle();
  }

  async settle(): Promise<void> {
    await this.page.waitForLoadState('networkidle').catch(() => undefined);
    await this.page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => undefined);
  }

  /** The problems seen since the last call, the error screen included; empties the list. */
  async take(): Promise<string[]> {
    if ((await this.page.getByText('Something went wrong').count()) > 0) this.problems.push(`error screen: ${(await this.page.locator('body').innerText()).slice(0, 300)}`);
    return this.problems.splice(0);
  }
}

/** The side pane of a role screen: its links, and its buttons that open a panel (Settings). */
export class SidePaneNav {
  constructor(private readonly page: Page) {}

  private nav() {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  /** Labels of the panel buttons (what the user sees: the short label on a phone). */
  async panelButtons(): Promise<string[]> {
    return (await this.nav().getByRole('button').allInnerTexts()).map((t) => t.trim());
  }

  /** Tab labels the bottom bar cuts (text wider or taller than its tab), as shown. */
  async cutLabels(): Promise<string[]> {
    return this.nav().locator('.sidepane__short').evaluateAll((els) =>
      els.filter((el) => {
        const tab = el.closest('.sidepane__link')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return el.checkVisibility() && (el.scrollWidth > el.clientWidth + 1 || box.left < tab.left || box.right > tab.right || box.bottom > tab.bottom);
      }).map((el) => el.textContent ?? ''),
    );
  }

  /** Opens the panel behind `label` and closes it again; resolves with the dialog's title. */
  async openPanel(label: string): Promise<string> {
    await this.nav().getByRole('button', { name: label }).click();
    const dialog = this.page.getByRole('dialog');
    await dialog.waitFor();
    const title = (await dialog.getByRole('heading').first().innerText()).trim();
    await this.page.waitForLoadState('networkidle').catch(() => undefined);
    await dialog.getByRole('button', { name: 'Done' }).or(dialog.getByRole('button', { name: 'Close' })).first().click();
    await dialog.waitFor({ state: 'detached' });
    return title;
  }
}

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from './harness/browser';

const env = inject('env');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('installable and offline', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(() => b?.close());

  it('serves a valid web manifest with 192, 512 and maskable icons', async () => {
    await b.page.goto(env.baseUrl);
    const href = await b.page.locator('link[rel="manifest"]').getAttribute('href');
    const res = await fetch(new URL(href!, env.baseUrl));
    expect(res.ok).toBe(true);
    const manifest = (await res.json()) as {
      name: string; short_name: string; display: string; start_url: string; scope: string; theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    // The installed app opens the stored account's home (first-day.e2e.ts follows it, offline too).
    expect(manifest).toMatchObject({ name: 'Survey Bird', display: 'standalone', start_url: '/?launch=app', scope: '/' });
    expect(manifest.short_name.length).toBeGreaterThan(0);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const icon of manifest.icons) {
      const png = Buffer.from(await (await fetch(new URL(icon.src, env.baseUrl))).arrayBuffer());
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(png)).toEqual({ width: w, height: h });
    }
    const sizes = manifest.icons.map((i) => `${i.sizes}/${i.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192/any', '512x512/any', '512x512/maskable']));
  });

  it('is controlled by the service worker after one visit and reloads offline', async () => {
    await b.page.goto(`${env.baseUrl}/login`);
    await b.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect.poll(() => b.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 60_000 }).toMatch(/\/sw\.js$/);

    await b.context.setOffline(true);
    try {
      await b.page.reload();
      await b.page.getByRole('heading', { name: 'Sign In' }).waitFor();
      await b.page.goto(`${env.baseUrl}/`);
      await b.page.getByRole('heading', { level: 1 }).waitFor();
      await b.page.locator('.offline-pill').waitFor();
      // API calls are never answered from the cache.
      const status = await b.page.evaluate(() => fetch('/api/v1/user').then((r) => r.status, () => 'network error'));
      expect(status).toBe('network error');
    } finally {
      await b.context.setOffline(false);
    }
  });
});

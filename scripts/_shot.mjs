// node /work/helpers/shot.mjs http://127.0.0.1:PORT email password /path1 /path2 ...   (email "-" = signed out)
// Run it from a worktree (it imports playwright-core from there). PNGs land in /tmp/shots/<name>-<w>.png
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const [base, email, password, ...paths] = process.argv.slice(2);
mkdirSync('/tmp/shots', { recursive: true });
const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'shot-')), { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = ctx.pages()[0] ?? (await ctx.newPage());
if (email !== '-') {
  await page.goto(base + '/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((u) => u.pathname !== '/login', { timeout: 20000 });
}
for (const p of paths) {
  for (const w of [1280, 390]) {
    await page.setViewportSize({ width: w, height: w === 390 ? 844 : 900 });
    await page.goto(base + p);
    await page.waitForTimeout(2500);
    const name = (email === '-' ? 'out' : email.split('@')[0]) + p.replace(/[^a-z0-9]+/gi, '_');
    await page.screenshot({ path: `/tmp/shots/${name}-${w}.png`, fullPage: true });
    console.log(`/tmp/shots/${name}-${w}.png`);
  }
}
await ctx.close();

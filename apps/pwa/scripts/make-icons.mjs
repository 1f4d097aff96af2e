// Renders the Survey Bird mark (an SVG drawn here) to the PNG icons of the web manifest with the
// system Chromium, so the icons are reproducible without downloads: `npm run icons -w apps/pwa`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const TEAL = '#0f766e';
const AMBER = '#fbbf24';

const bird = `
  <path d="M20 60 C26 45 40 38 54 42 L66 29 C70 24 79 24 82 30 L92 33 L82 38 C83 58 68 74 48 75 C35 75 25 70 20 60 Z" fill="#fff"/>
  <path d="M31 57 C42 50 55 52 63 61 C51 67 40 65 31 57 Z" fill="${TEAL}"/>
  <circle cx="75" cy="32" r="3" fill="${TEAL}"/>
  <path d="M40 82 L50 88 L66 76" fill="none" stroke="${AMBER}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>`;

/** `maskable` fills the square and keeps the bird inside the 80% safe zone. */
export function logoSvg({ maskable = false } = {}) {
  const bg = maskable
    ? `<rect width="100" height="100" fill="${TEAL}"/>`
    : `<rect width="100" height="100" rx="22" fill="${TEAL}"/>`;
  const glyph = maskable ? `<g transform="translate(50 50) scale(0.72) translate(-54 -56)">${bird}</g>` : `<g transform="translate(-4 -6)">${bird}</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${bg}${glyph}</svg>`;
}

const targets = [
  { file: 'icons/icon-192.png', size: 192 },
  { file: 'icons/icon-512.png', size: 512 },
  { file: 'icons/icon-maskable-512.png', size: 512, maskable: true },
  { file: 'icons/apple-touch-icon.png', size: 180, maskable: true },
];

mkdirSync(join(publicDir, 'icons'), { recursive: true });
writeFileSync(join(publicDir, 'favicon.svg'), logoSvg());
writeFileSync(join(publicDir, 'icons', 'logo.svg'), logoSvg());

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  for (const t of targets) {
    await page.setViewportSize({ width: t.size, height: t.size });
    const svg = logoSvg({ maskable: t.maskable }).replace('<svg ', `<svg width="${t.size}" height="${t.size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: t.size, height: t.size } });
    writeFileSync(join(publicDir, t.file), png);
    console.log(`wrote public/${t.file}`);
  }
} finally {
  await browser.close();
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { routePreloads } from './pwa.js';

// The shape of a Vite manifest: the entry, a lazy route chunk, their shared chunks and CSS, a named group chunk.
const manifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_vendor-b.js'] },
  '_vendor-b.js': { file: 'assets/vendor-b.js' },
  'src/features/capture/QuestionsPage.tsx': { file: 'assets/QuestionsPage-c.js', imports: ['_vendor-b.js', '_offline-d.js', 'index.html'], css: ['assets/field-user-e.css'] },
  '_offline-d.js': { file: 'assets/offline-d.js', imports: ['_vendor-b.js'] },
  '_question-inputs-f.js': { file: 'assets/question-inputs-f.js', name: 'question-inputs', imports: ['_vendor-b.js'] },
};

let t: TestApp;
const pwaDir = mkdtempSync(join(tmpdir(), 'sb-pwa-preload-'));
beforeAll(async () => {
  writeFileSync(join(pwaDir, 'index.html'), '<!doctype html><title>Survey Bird</title>');
  mkdirSync(join(pwaDir, '.vite'));
  writeFileSync(join(pwaDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  t = await buildTestApp({ pwaDir });
});
afterAll(() => t.close());

describe('route preload headers', () => {
  it('name the form route chunks index.html does not already load', () => {
    expect(routePreloads(pwaDir).get('/survey-bird/field-user')).toBe(
      '</assets/QuestionsPage-c.js>; rel=modulepreload, </assets/offline-d.js>; rel=modulepreload, </assets/question-inputs-f.js>; rel=modulepreload, </assets/field-user-e.css>; rel=preload; as=style; crossorigin',
    );
  });

  it('go with the HTML of that route only', async () => {
    const form = await t.app.inject({ method: 'GET', url: '/survey-bird/field-user' });
    expect(form.statusCode).toBe(200);
    expect(form.headers.link).toContain('QuestionsPage-c.js');
    expect((await t.app.inject({ method: 'GET', url: '/survey-bird/field-user/?x=1' })).headers.link).toContain('QuestionsPage-c.js');
    expect((await t.app.inject({ method: 'GET', url: '/login' })).headers.link).toBeUndefined();
  });

  it('are left out when the build has no manifest', () => {
    expect(routePreloads(mkdtempSync(join(tmpdir(), 'sb-pwa-none-'))).size).toBe(0);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SERVER_JS } from './harness/server.ts';

/** Newest modification time of the .ts sources under `dir` (tests excluded). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The battery drives the built server (apps/api/dist/server.js). Builds contracts and API once
 * when the build is missing or older than the sources; CI has just built, so this is a no-op there.
 */
export default function setup(): void {
  const sources = Math.max(newestSource(join(ROOT, 'apps/api/src')), newestSource(join(ROOT, 'packages/contracts/src')));
  if (existsSync(SERVER_JS) && statSync(SERVER_JS).mtimeMs >= sources) return;
  console.log('[reliability] apps/api/dist is missing or older than the sources: building contracts and API');
  const r = spawnSync('npx', ['tsc', '-b', 'packages/contracts', 'apps/api'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('building the API failed; run `npm run build` and look at the errors');
}

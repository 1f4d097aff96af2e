#!/usr/bin/env node
// Browser tests: builds contracts, PWA and API (skipped with E2E_SKIP_BUILD=1 or under CI), then runs
// tests/e2e with vitest against the real server and the system Chromium. Exits non-zero on failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Install it (apt-get install -y --no-install-recommends chromium) or set CHROMIUM.`);
  process.exit(1);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// .ci/run has just built everything; locally the suite builds so it never tests stale code.
if (process.env.E2E_SKIP_BUILD !== '1' && !process.env.CI) run('npm', ['run', 'build']);
run('npx', ['vitest', 'run', '--config', 'tests/e2e/vitest.config.ts', ...process.argv.slice(2)]);

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Browser tests: `npm run test:e2e` (scripts/e2e.mjs builds first, then runs this config). */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Generous: set-up signs in several users (scrypt) and a shared CI machine can be slow; these bound a hang, they time nothing.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

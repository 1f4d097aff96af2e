import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reliability',
    // Absolute: a relative dir is resolved from the working directory (npm run from the root), not this file.
    dir: fileURLToPath(new URL('..', import.meta.url)),
    include: ['reliability/**/*.test.ts', 'security/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    // Builds apps/api/dist when it is missing or stale: every scenario drives the real server process.
    globalSetup: [fileURLToPath(new URL('./global-setup.ts', import.meta.url))],
    // Load, crash and soak scenarios measure the machine: one file at a time keeps them from skewing each other.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});

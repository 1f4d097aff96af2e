import { defineProject } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/**
 * Tests read the contracts from their sources, not from `dist/`: `npm test` passes right after
 * `npm install` on a fresh clone (no build), and a changed schema is seen without a rebuild.
 */
const CONTRACTS = fileURLToPath(new URL('../../packages/contracts/src/', import.meta.url));
const contractsFromSource = [
  { find: /^@survey-bird\/contracts$/, replacement: `${CONTRACTS}index.ts` },
  // The entry points that are folders (expressions, form-engine) read their index.
  { find: /^@survey-bird\/contracts\/(expressions|form-engine)$/, replacement: `${CONTRACTS}$1/index.ts` },
  { find: /^@survey-bird\/contracts\/([a-z0-9-]+)$/, replacement: `${CONTRACTS}$1.ts` },
];

export default defineProject({
  resolve: { alias: contractsFromSource },
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

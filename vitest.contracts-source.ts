import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('./packages/contracts/src/', import.meta.url));

/**
 * Tests read the contracts from their sources, not from `dist/`: `npm test` passes right after
 * `npm install` on a fresh clone (no build), and a change to a schema is seen without a rebuild.
 * Each project's vitest.config.ts spreads this into `resolve.alias`.
 */
export const contractsFromSource = [
  { find: /^@survey-bird\/contracts$/, replacement: `${SRC}index.ts` },
  { find: /^@survey-bird\/contracts\/([a-z-]+)$/, replacement: `${SRC}$1.ts` },
];

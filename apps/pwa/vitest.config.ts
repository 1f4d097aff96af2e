import { defineProject } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { routeTable } from './route-table-plugin';

/**
 * Tests read the contracts from their sources, not from `dist/`: `npm test` passes right after
 * `npm install` on a fresh clone (no build), and a changed schema is seen without a rebuild.
 */
const CONTRACTS = fileURLToPath(new URL('../../packages/contracts/src/', import.meta.url));
const contractsFromSource = [
  { find: /^@survey-bird\/contracts$/, replacement: `${CONTRACTS}index.ts` },
  { find: /^@survey-bird\/contracts\/([a-z-]+)$/, replacement: `${CONTRACTS}$1.ts` },
];

export default defineProject({
  // The app's `virtual:route-table`, computed from the contracts' sources: tests use the real table.
  plugins: [routeTable()],
  resolve: { alias: contractsFromSource },
  test: {
    name: 'pwa',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});

import { defineProject } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { routeTable } from './route-table-plugin';
import { poCatalogs } from './i18n/po-plugin';

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
  // The app's `virtual:route-table`, computed from the contracts' sources: tests use the real table.
  plugins: [routeTable(), poCatalogs()],
  resolve: { alias: contractsFromSource },
  test: {
    name: 'pwa',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'i18n/**/*.test.ts'],
    setupFiles: ['./src/test-setup.ts'],
    // The integration files start the real API in beforeAll: 13 s was seen on a loaded CI machine.
    hookTimeout: 60_000,
    // Integration tests that move photos over real HTTP took 6-7 s on a loaded 2-core machine (1.9-2.8 s alone).
    testTimeout: 20_000,
  },
});

import { defineConfig } from 'vitest/config';

// Each folder owns its own vitest.config.ts; `npm test` runs these projects, `npm run test:reliability` the battery.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/pwa', 'tests/reliability'],
  },
});

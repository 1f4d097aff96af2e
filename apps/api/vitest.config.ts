import { defineProject } from 'vitest/config';
import { contractsFromSource } from '../../vitest.contracts-source.ts';

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

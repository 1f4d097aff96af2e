import { defineProject } from 'vitest/config';
import { contractsFromSource } from '../../vitest.contracts-source.ts';

export default defineProject({
  resolve: { alias: contractsFromSource },
  test: {
    name: 'pwa',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});

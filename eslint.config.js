import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every TypeScript project of the repository: type-aware rules read each file through its own. */
const projects = [
  'packages/contracts/tsconfig.test.json',
  'apps/api/tsconfig.test.json',
  'apps/pwa/tsconfig.json',
  'scripts/tsconfig.json',
  'tests/e2e/tsconfig.json',
  'tests/reliability/tsconfig.json',
  'tests/security/tsconfig.json',
];

/** Files no project includes (build and test-runner configs, the PWA's integration tests): linted without types. */
const untyped = ['**/*.js', '**/*.mjs', '**/vitest.config.ts', 'vitest.contracts-source.d.ts', 'apps/pwa/src/**/*.integration.test.ts'];

const tests = ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'tests/**', 'scripts/**', '**/test-support.ts', '**/test-images.ts'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-types/**', '**/node_modules/**', 'data/**', '.e2e/**', 'coverage/**', '**/dev-dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { project: projects, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Fastify handlers, Dexie transactions and test doubles are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      // Kysely's expression builder (`({ exists, selectFrom }) => ...`) and our stores hand out bound functions.
      '@typescript-eslint/unbound-method': 'off',
      'no-console': 'off',
    },
  },
  { files: ['apps/pwa/src/**/*.{ts,tsx}'], ...reactHooks.configs['recommended-latest'] },
  {
    // Tests reach into replies and fixtures whose shapes they assert: `any` and unchecked member access are their tools.
    files: tests,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  // Kysely's own guidance: a migration sees the schema as it was then, not as db/schema.ts says it is now.
  { files: ['apps/api/src/db/migrations/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: untyped, ...tseslint.configs.disableTypeChecked },
);

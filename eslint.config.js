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

/**
 * The PWA's layers, bottom up: a module imports from its own layer and those below, never above.
 * session (the accounts on this browser, their keys and storage) <- lib (stores, idle, paths,
 * navigation) <- api, offline, ui <- shell (header, side pane), features (one folder per domain)
 * <- routes (the route tree and the role layouts that compose features). main.tsx and sw.ts, the
 * two entry points, sit above them all.
 */
const pwaLayers = [['session'], ['lib'], ['api', 'offline', 'ui'], ['shell', 'features'], ['routes']];
/**
 * Outside offline/, its index.ts is the door, with these modules beside it that load on their own
 * (each in its own chunk, kept out of the field-user form's: scripts/bench/budget.mjs). Tests may
 * reach behind it to set up and inspect the store.
 */
const offlineEntries = ['sync', 'earnings', 'persist', 'service-worker', 'photo-hash', 'sync-wifi', 'surveys-cache-refresh', 'maps'];

/** no-restricted-imports for the files of one layer: nothing from the layers above; offline/ only through its doors. */
function pwaLayerRules() {
  const order = pwaLayers.map((l) => l.join('/')).join(' <- ');
  return pwaLayers.flatMap((layer, i) => {
    const above = pwaLayers.slice(i + 1).flat();
    const upward = above.length === 0 ? [] : [{
      // A relative path that climbs to src/ and enters a folder of a higher layer.
      regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
      message: `${layer.join(', ')} may not import from ${above.join(', ')}: the PWA's layers point down (${order}; eslint.config.js).`,
    }];
    const offlineDoor = {
      regex: `^(\\.\\./)+offline/(?!(${offlineEntries.join('|')})$)`,
      message: `Import offline/ through its index.ts (or one of its own-chunk entries: ${offlineEntries.join(', ')}); the files behind it are private (eslint.config.js).`,
    };
    // Layers that may import offline/ at all (its own and those above), offline/ itself aside.
    const door = (dir) => (dir !== 'offline' && i >= pwaLayers.findIndex((l) => l.includes('offline')) ? [offlineDoor] : []);
    return layer.flatMap((dir) => [
      { files: [`apps/pwa/src/${dir}/**/*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { patterns: [...upward, ...door(dir)] }] } },
      { files: [`apps/pwa/src/${dir}/**/*.test.{ts,tsx}`], rules: { 'no-restricted-imports': upward.length > 0 ? ['error', { patterns: upward }] : 'off' } },
    ]);
  });
}

/**
 * UI text goes through the catalogs (`t('id')`, lib/i18n.ts; src/locales/<lang>/messages.po): no words
 * written in JSX, nor in the attributes a user reads or hears (placeholder, title, aria-label, alt,
 * label). Numbers, punctuation and one- or two-letter marks (OK, KB) are not words; the brand name is
 * marked where it is written.
 */
const hardCodedText = [
  { selector: 'JSXText[value=/[A-Za-z]{3,}/]', message: 'UI text goes through the catalogs: t(\'id\') with the English in src/locales/en/messages.po (npm run i18n:extract).' },
  { selector: 'JSXElement > JSXExpressionContainer > Literal[value=/[A-Za-z]{3,}/]', message: 'UI text goes through the catalogs: t(\'id\') (lib/i18n.ts).' },
  { selector: 'JSXElement > JSXExpressionContainer > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]{3,}/]', message: 'UI text goes through the catalogs: t(\'id\', { values }) (lib/i18n.ts).' },
  { selector: 'JSXAttribute[name.name=/^(placeholder|title|aria-label|alt|label|subtitle|action|cancel)$/] > Literal[value=/[A-Za-z]{3,}/]', message: 'UI text goes through the catalogs: {t(\'id\')} (lib/i18n.ts).' },
];
/**
 * Screens not translated yet (office screens; English only), each to be converted and taken off
 * this list. Every field-user screen, the shell and sign-in are off it already.
 */
const untranslatedScreens = [
  'apps/pwa/src/features/e2e/EncryptedPanel.tsx',
  'apps/pwa/src/features/e2e/EncryptionSettings.tsx',
  'apps/pwa/src/features/surveys/AlwaysRecordedPicker.tsx',
  'apps/pwa/src/features/surveys/ExpressionField.tsx',
  'apps/pwa/src/features/surveys/QuestionLogic.tsx',
  'apps/pwa/src/features/surveys/TranslationsPanel.tsx',
  'apps/pwa/src/features/accounts/ManageAccountPage.tsx',
  'apps/pwa/src/features/accounts/WelcomePage.tsx',
  'apps/pwa/src/features/audit/AuditPage.tsx',
  'apps/pwa/src/features/backchecks/BackchecksPage.tsx',
  'apps/pwa/src/features/landing/LandingPage.tsx',
  'apps/pwa/src/features/landing/RequestDemoDialog.tsx',
  'apps/pwa/src/features/mail/SendMailPage.tsx',
  'apps/pwa/src/features/maps/MapTabs.tsx',
  'apps/pwa/src/features/maps/ResponsesMapPage.tsx',
  'apps/pwa/src/features/maps/TeamMapPage.tsx',
  'apps/pwa/src/features/organizations/OrganizationsPage.tsx',
  'apps/pwa/src/features/privacy/RespondentsPage.tsx',
  'apps/pwa/src/features/review/AnswerValue.tsx',
  'apps/pwa/src/features/surveys/CreateSurveyPage.tsx',
  'apps/pwa/src/features/surveys/EditSurveyPage.tsx',
  'apps/pwa/src/features/surveys/FormPreview.tsx',
  'apps/pwa/src/features/surveys/ImportXlsformButton.tsx',
  'apps/pwa/src/features/surveys/ManageSurveysPage.tsx',
  'apps/pwa/src/features/surveys/StructureControls.tsx',
  'apps/pwa/src/features/surveys/SurveyDetailsModal.tsx',
  'apps/pwa/src/features/surveys/SurveySettingsModal.tsx',
  'apps/pwa/src/features/tokens/TokensPage.tsx',
  'apps/pwa/src/features/webhooks/WebhooksPage.tsx',
  'apps/pwa/src/shell/ProductGrid.tsx',
  'apps/pwa/src/shell/ProductsPanel.tsx',
];

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
    files: ['apps/pwa/src/{features,shell,ui,routes}/**/*.tsx'],
    ignores: ['**/*.test.tsx', ...untranslatedScreens],
    rules: { 'no-restricted-syntax': ['error', ...hardCodedText] },
  },
  ...pwaLayerRules(),
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

import { routes } from '@survey-bird/contracts';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import { chunkMap } from './chunk-map-plugin';
import { routeTable } from './route-table-plugin';

const THEME = '#0f766e';
/** The version a phone reports at each sync: the package's, with the build's UTC date so two builds of one version differ. */
const APP_VERSION = `${(JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version}+${new Date().toISOString().slice(0, 10)}`;

export default defineConfig({
  // workbox-window's `module` entry is its ES5 build; the app targets ES2022, and the modern build is 1 KB smaller gzipped.
  resolve: { alias: [{ find: /^workbox-window$/, replacement: 'workbox-window/build/workbox-window.prod.mjs' }] },
  plugins: [
    routeTable(routes),
    chunkMap(import.meta.dirname),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      // src/offline/service-worker.ts registers the worker with workbox-window and asks before updating.
      injectRegister: false,
      registerType: 'prompt',
      // The worker's Background Sync (offline/sw-sync.ts) reads the route table too.
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'], buildPlugins: { vite: [routeTable(routes)] } },
      manifest: {
        id: '/',
        name: 'Survey Bird',
        short_name: 'Survey Bird',
        description: 'Offline-first field surveys: capture responses anywhere, pay field teams per response.',
        // Opens the stored account's home (routes/router.tsx), or the landing page when none is stored.
        start_url: '/?launch=app',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#ffffff',
        theme_color: THEME,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  define: { __APP_VERSION__: JSON.stringify(APP_VERSION) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bench/budget.mjs walks the manifest to weigh what each route downloads.
    manifest: true,
    target: 'es2022',
    // The contracts' modules only declare values: a screen that imports Msg must not pull in every zod schema.
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id) => !/packages[\\/]contracts[\\/]/.test(id) },
      // Every route needs React and the router: one vendor chunk instead of many small shared ones.
      output: { advancedChunks: { minSize: 4096, groups: [
        { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|use-sync-external-store)[\\/]/ },
        // Small modules every signed-in screen uses: one chunk, not a dozen sub-kilobyte requests.
        { name: 'shared', test: /(src[\\/]api[\\/]|src[\\/]offline[\\/](storage|persist)|contracts[\\/](src|dist)[\\/](question-types|answer-of|ids)|src[\\/]ui[\\/](?!PasswordField|ScreenPlaceholder|Modal|ConfirmDialog|ProductsPanel|UpdatePrompt|ScrollFrame)|features[\\/]accounts[\\/](session|account-|device-id)|features[\\/]surveys[\\/]active-survey)/ },
        // What the field-user form imports (Dexie, the offline store, the form's parts) in one chunk:
        // on a phone's network each request costs a round trip before the form can paint. Only the
        // matched modules, not their imports: those every screen needs stay in vendor and shared.
        { name: 'field-user', includeDependenciesRecursively: false, test: /node_modules[\\/]dexie|src[\\/]offline[\\/](?!surveys-cache-refresh|sync|scheduler|lock|sw-sync|service-worker|storage|persist|statuses|my-responses|earnings|device-report|photo-hash)|features[\\/](field-user[\\/](field-user\.css|SurveySwitch|SyncStrip|use-sync|use-survey-form|draft-saver|form-logic)|capture[\\/](QuestionField|ResponseEditor|use-response-editor)|surveys[\\/]surveys\.css)/ },
        // Show-if and constraints, with the contracts' evaluator: one lazy chunk, so the
        // form's route names one file to preload for it, not three.
        { name: 'form-rules', includeDependenciesRecursively: false, test: /field-user[\\/]form-rules|contracts[\\/](src|dist)[\\/]form-rules[\\/](?!rules)/ },
        // Lazy screens, by who opens them: one chunk per audience instead of dozens of sub-kilobyte
        // ones (55 small chunks gzipped to 62 KB separately, 43 KB together). None is on the form's route.
        // A module one of these imports is named here too when nothing else takes it: left out, it
        // lands in the chunk of one screen (CreateSurveyPage, ManageSurveysPage) that both imports
        // this chunk and is imported by it, a cycle (scripts/bench/budget.mjs fails on one). The
        // team's list controls stay out: SurveyPicker, which a field user opens, uses them.
        { name: 'office', includeDependenciesRecursively: false, test: /features[\\/](organization|supervisor|master-admin|review|payouts|team[\\/](?!ListControls|usePagedList|paging|icons|team\.css)|insight[\\/](?!chart-setup)|surveys[\\/]format)|contracts[\\/](src|dist)[\\/](schemas[\\/](survey|payout)|form-rules[\\/]rules)\./ },
        { name: 'accounts', includeDependenciesRecursively: false, test: /features[\\/]accounts[\\/](?!session|account-|device-id|home)/ },
        { name: 'field-user-screens', includeDependenciesRecursively: false, test: /features[\\/]field-user[\\/](EarningsPage|earnings-times|ResponsesPage|response-rows|SettingsPanel|ReviseDialog|FixResponseDialog|earnings\.css)|src[\\/]offline[\\/]earnings\./ },
        // The inputs QuestionField imports lazily (photo, location, long lists): one request for all.
        { name: 'question-inputs', includeDependenciesRecursively: false, test: /features[\\/]capture[\\/](?!QuestionField|ResponseEditor|use-response-editor|capture\.css|SignatureQuestion|BarcodeQuestion)/ },
      ] } },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  preview: { proxy: { '/api': 'http://localhost:3000' } },
});

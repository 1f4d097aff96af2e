import { routes } from '@survey-bird/contracts';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import { chunkMap } from './chunk-map-plugin';
import { routeTable } from './route-table-plugin';
import { poCatalogs } from './i18n/po-plugin';

const THEME = '#0f766e';
/** The version a phone reports at each sync: the package's, with the build's UTC date so two builds of one version differ. */
const APP_VERSION = `${(JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version}+${new Date().toISOString().slice(0, 10)}`;

export default defineConfig({
  // workbox-window's `module` entry is its ES5 build; the app targets ES2022, and the modern build is 1 KB smaller gzipped.
  resolve: { alias: [{ find: /^workbox-window$/, replacement: 'workbox-window/build/workbox-window.prod.mjs' }] },
  plugins: [
    routeTable(routes),
    poCatalogs(),
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
      // iife: a classic worker script, so the lazy import() in code the worker shares with the page is inlined (an ES build carried Vite's preload helper and its import.meta, which a classic worker cannot evaluate).
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'], rollupFormat: 'iife', buildPlugins: { vite: [routeTable(routes)] } },
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
      // Lingui's message compiler is for catalogs compiled at run time; ours are compiled at build time
      // (i18n/po-plugin.ts), so the runtime's import of it is dropped with its parser (about 12 KB gzipped).
      treeshake: { moduleSideEffects: (id) => !/packages[\\/]contracts[\\/]|@lingui[\\/]message-utils|@messageformat[\\/]/.test(id) },
      // Every route needs React and the router: one vendor chunk instead of many small shared ones.
      output: { advancedChunks: { minSize: 4096, groups: [
        { name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|use-sync-external-store)[\\/]/ },
        // Small modules every signed-in screen uses: one chunk, not a dozen sub-kilobyte requests.
        { name: 'shared', test: /(src[\\/]api[\\/]|features[\\/]insight[\\/]download|src[\\/]offline[\\/](storage|persist)|contracts[\\/](src|dist)[\\/](question-types|answer-of|ids)|src[\\/]ui[\\/](?!PasswordField|LanguagePicker|ScreenPlaceholder|Modal|ConfirmDialog|UpdatePrompt|ScrollFrame)|src[\\/]shell[\\/](?!ProductsPanel)|src[\\/]session[\\/]|src[\\/]lib[\\/](?!config)|features[\\/]accounts[\\/]session|features[\\/]surveys[\\/]active-survey)/ },
        // What the field-user form imports (Dexie, the offline store, the form's parts) in one chunk:
        // on a phone's network each request costs a round trip before the form can paint. Only the
        // matched modules, not their imports: those every screen needs stay in vendor and shared.
        { name: 'field-user', includeDependenciesRecursively: false, test: /node_modules[\\/]dexie|src[\\/]offline[\\/](?!app-sync|surveys-cache-refresh|sync|photos[\\/]|scheduler|lock|sw-sync|service-worker|storage|persist|statuses|my-responses|earnings|device-report|photo-hash|save-file|forget|maps)|features[\\/](capture[\\/](rule-text|form-logic|answer-path)|surveys[\\/]SurveySwitch|sync[\\/](SyncStrip|use-sync))/ },
        // The form's own parts (the editor, its questions, drafts): with the form's route and the dialogs
        // that edit a response, not with Responses or Earnings, which only read the offline store.
        { name: 'form', includeDependenciesRecursively: false, test: /features[\\/]capture[\\/](use-survey-form|draft-saver|QuestionField|ResponseEditor|use-response-editor|form-language|form-view)\./ },
        // The field user's styles, which office screens reuse (the survey picker, settings): in a chunk of
        // their own, so an office screen importing them does not download the offline store's code.
        { name: 'field-user-styles', includeDependenciesRecursively: false, test: /features[\\/](capture[\\/]field-user|surveys[\\/]surveys)\.css/ },
        // The contracts' evaluator of show-if and constraints: one lazy chunk, not three. The form's own
        // rules module (capture/form-rules.ts) is a chunk apart: the survey builder on every office
        // screen's chunk imports the evaluator, and must not so download the offline store it uses.
        { name: 'form-rules', includeDependenciesRecursively: false, test: /contracts[\\/](src|dist)[\\/]((expressions|form-engine)[\\/]|question-rules\.)|contracts[\\/](src|dist)[\\/]form-rules[\\/](?!rules)/ },
        // Lazy screens, by who opens them: one chunk per audience instead of dozens of sub-kilobyte
        // ones (55 small chunks gzipped to 62 KB separately, 43 KB together). None is on the form's route.
        // A module one of these imports is named here too when nothing else takes it: left out, it
        // lands in the chunk of one screen (CreateSurveyPage, ManageSurveysPage) that both imports
        // this chunk and is imported by it, a cycle (scripts/bench/budget.mjs fails on one). The
        // team's list controls stay out: SurveyPicker, which a field user opens, uses them.
        { name: 'office', includeDependenciesRecursively: false, test: /features[\\/](organizations[\\/](?!OrganizationsPage)|mail[\\/](?!SendMailPage)|review[\\/](?!ResponseDetail|FlagsSection|AudioAuditSection|AnswerTree|answer-lines)|payouts[\\/](?!PayoutsPage)|team[\\/](?!ListControls|usePagedList|paging|icons|team\.css|OfficeUsersPage|BankChangesPage|DeactivatedPeoplePage|UsersPage|MasterAdminFieldUsersPage)|insight[\\/](?!chart-setup|download)|settings[\\/]SupervisorSettingsPanel|privacy[\\/]HiddenPersonal|surveys[\\/](format|edit-target|survey-settings|ManageSurveysPage|SurveyDetailsModal|SurveySettingsModal))|contracts[\\/](src|dist)[\\/](schemas[\\/](survey|payout|privacy)|form-rules[\\/]rules)\./ },
        // The survey builder (its editor, groups and repeats, XLSForm import; the preview loads when opened), on two
        // routes only: its own chunk, not in every office screen's. Office modules import nothing of it.
        { name: 'builder', includeDependenciesRecursively: false, test: /features[\\/]surveys[\\/](builder|StructureControls|create-survey|CreateSurveyPage|EditSurveyPage|ImportXlsformButton)/ },
        // End-to-end encryption's office screens (make a key, open one, export decrypted): only for an encrypted survey.
        { name: 'e2e-office', includeDependenciesRecursively: false, test: /features[\\/]e2e[\\/](EncryptedPanel|EncryptionSettings|decrypted-csv|key-store|open-answers|e2e\.css)/ },
        { name: 'accounts', includeDependenciesRecursively: false, test: /features[\\/]accounts[\\/](?!session|home)/ },
        { name: 'field-user-screens', includeDependenciesRecursively: false, test: /features[\\/](earnings[\\/]|responses[\\/](?!ReviseDialog|FixResponseDialog)|privacy[\\/]MyDataButton)|src[\\/]offline[\\/]earnings\./ },
        // The maps a phone keeps (Settings' line, My map's switch): shared by those two screens, in neither's chunk.
        { name: 'kept-maps', includeDependenciesRecursively: false, test: /features[\\/]maps[\\/](KeptMapsSetting|KeepAreaToggle)|src[\\/]offline[\\/]maps\./ },
        // A response's detail view, opened from the table and the maps: loaded when one is opened.
        { name: 'response-detail', includeDependenciesRecursively: false, test: /features[\\/](review[\\/](ResponseDetail|FlagsSection|AudioAuditSection|AnswerTree|answer-lines)|privacy[\\/]EraseForm|backchecks[\\/]BackcheckComparison)\./ },
        // Field user settings (opened from the bar on any field-user screen): not in those screens' chunk.
        { name: 'field-user-settings', includeDependenciesRecursively: false, test: /features[\\/]settings[\\/]FieldUserSettingsPanel\./ },
        // The inputs QuestionField imports lazily (photo, location, long lists): one request for all.
        { name: 'question-inputs', includeDependenciesRecursively: false, test: /features[\\/]capture[\\/](?!MediaQuestion|GeoQuestion|RankQuestion|AudioRecorder|QuestionField|rule-text|ResponseEditor|use-response-editor|capture\.css|SignatureQuestion|BarcodeQuestion|QuestionsPage|ClosedSurvey|capture-meta|closed-at-submit|draft-saver|field-user\.css|form-logic|form-rules|form-view|form-language|answer-path|survey-updated|use-survey-form)/ },
      ] } },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  preview: { proxy: { '/api': 'http://localhost:3000' } },
});

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { folderLayers } from './eslint/folder-layers.js';

/** Packages of the server, the bot and the page: the floors below them know none of them. */
const FRONT_END_PACKAGES = ['react', 'react-dom', '@fluentui/*', '@microsoft/teams-js', 'botbuilder', 'botbuilder-*', '@microsoft/teamsfx', 'restify'];

/**
 * The only packages the core imports: a browser-safe hash and Graph's types. Anything else is I/O,
 * a platform or a front end, which the floors above the core bring.
 */
const CORE_PACKAGES = ['@noble/hashes', '@microsoft/microsoft-graph-types', '@microsoft/microsoft-graph-types-beta'];

/** The Bot Framework SDK and TeamsFx, which only src/bot/adapter imports. */
const BOT_SDK_PACKAGES = ['botbuilder', 'botbuilder-*', 'botframework-*', '@microsoft/teamsfx'];

/**
 * The house by floor (docs/architecture.md, "The parts"): each row is a folder of src/ (or one file
 * that a folder's rule makes an exception of), the folders it may import (`may`, its own included),
 * folders inside those it must not (`mayNot`), and packages it must not (`notPackages`) or the only
 * ones it may (`packages`). A file takes the row of the folder that holds it most
 * closely. An import the row does not allow fails `npm run lint` with the row's `why`.
 */
const FOLDERS = {
  'src/core': {
    may: ['src/core'],
    packages: CORE_PACKAGES,
    why: 'the core is pure and browser-safe: records in, findings out, with no Node built-in and no network, storage, UI, bot or server package.',
  },
  'src/core/findings': {
    may: ['src/core/findings'],
    packages: CORE_PACKAGES,
    why: 'findings are the bottom of the core: kinds, severities and fingerprints know nothing of reports.',
  },
  'src/core/graph': {
    may: ['src/core/graph'],
    packages: CORE_PACKAGES,
    why: "the core's Graph port declares what reports read Graph through, and knows nothing of them.",
  },
  'src/graph': {
    may: ['src/graph', 'src/core/graph'],
    notPackages: FRONT_END_PACKAGES,
    why: 'the Graph client reads Graph for whoever asks, through the port the core declares; it knows nothing of reports.',
  },
  'src/store': { may: ['src/store', 'src/core'], notPackages: FRONT_END_PACKAGES, why: 'the state stores keep what the core defines, for the floors above.' },
  'src/app': {
    may: ['src/app', 'src/core', 'src/graph', 'src/store'],
    notPackages: FRONT_END_PACKAGES,
    why: 'the application floor composes the core, the Graph client and the store; the server, the bot, the CLI and the simulator are built on it or beside it.',
  },
  'src/bot': {
    may: ['src/bot', 'src/app', 'src/core', 'src/store'],
    notPackages: [...BOT_SDK_PACKAGES, 'react', 'react-dom', '@fluentui/*', '@microsoft/teams-js'],
    why: "the bot works through the application floor, and only src/bot/adapter speaks Bot Framework, so a move to another Teams SDK is that folder's change; the server mounts the bot, and the simulator is for the composition roots.",
  },
  'src/bot/adapter': {
    may: ['src/bot', 'src/app', 'src/core', 'src/store'],
    notPackages: ['react', 'react-dom', '@fluentui/*', '@microsoft/teams-js'],
    why: 'the adapter carries Teams activities to the commands and their replies back, through the application floor.',
  },
  'src/bot/commands': {
    may: ['src/bot', 'src/app', 'src/core', 'src/store'],
    mayNot: ['src/bot/adapter', 'src/bot/teams-bot.ts'],
    notPackages: [...BOT_SDK_PACKAGES, ...FRONT_END_PACKAGES],
    why: 'commands take plain requests and return plain replies; the adapter and TeamsBot are built on them.',
  },
  'src/bot/cards': {
    may: ['src/bot', 'src/app', 'src/core', 'src/store'],
    mayNot: ['src/bot/adapter', 'src/bot/teams-bot.ts'],
    notPackages: [...BOT_SDK_PACKAGES, ...FRONT_END_PACKAGES],
    why: 'cards are Adaptive Card JSON made from plain values; the adapter and TeamsBot are built on them.',
  },
  'src/server': {
    may: ['src/server', 'src/app', 'src/bot', 'src/core', 'src/graph', 'src/store'],
    notPackages: [...BOT_SDK_PACKAGES, 'react', 'react-dom', '@fluentui/*', '@microsoft/teams-js'],
    why: 'the server adapts the application floor to HTTP; only demo-switches.ts starts the simulated tenant.',
  },
  'src/server/demo-switches.ts': {
    may: ['src/server', 'src/app', 'src/core', 'src/sim'],
    notPackages: FRONT_END_PACKAGES,
    why: "the server's one door to the simulated tenant.",
  },
  'src/cli': {
    may: ['src/cli', 'src/app', 'src/core'],
    notPackages: FRONT_END_PACKAGES,
    why: 'the command line works through the application floor, never the server; only simulated-tenant.ts starts the simulated tenant.',
  },
  'src/cli/simulated-tenant.ts': { may: ['src/cli', 'src/core', 'src/sim'], notPackages: FRONT_END_PACKAGES, why: "the command line's one door to the simulated tenant." },
  'src/tab': {
    may: [
      'src/tab',
      'src/core/reports/report-model.ts',
      'src/core/reports/report-summary.ts',
      'src/core/reports/report-preview.ts',
      'src/core/reports/report-csv.ts',
      'src/core/reports/row-keys.ts',
      'src/core/reports/window',
      'src/core/reports/not-checked.ts',
      'src/core/reports/setting-conflicts/sides.ts',
      'src/core/findings/finding-kinds.ts',
      'src/core/triage/triage-book.ts',
      'src/core/triage/audit-page.ts',
      'src/core/text/words.ts',
      'src/core/applies/applies-result.ts',
      'src/core/applies/words.ts',
      'src/core/viewer-scope/demo-personas.ts',
      'src/core/changes/change-feed.ts',
    ],
    notPackages: ['node:*', 'undici', '@azure/*', ...BOT_SDK_PACKAGES, 'restify'],
    why: "the tab is a browser bundle: it takes the core's contract (report-model, report-summary, report-preview, report-csv, row-keys, the report windows the server's /rows runs too, not-checked, a setting conflict's policies side by side, finding-kinds, triage-book and its audit pages, what applies' result and words, words for counts, the demo's people the sign-in list names, and the change feed's shape) and talks to the server over its API.",
  },
  'src/sim': {
    may: ['src/sim', 'src/core'],
    notPackages: FRONT_END_PACKAGES,
    why: 'the simulated tenant serves the records the core defines, and knows nothing of the app that reads it.',
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**', 'appPackage/build/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/**'],
    plugins: { layers: { rules: { 'folder-imports': folderLayers } } },
    rules: { 'layers/folder-imports': ['error', { root: import.meta.dirname, table: FOLDERS }] },
  },
  {
    files: ['src/cli/**', 'src/server/main.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Plain Node scripts and the tests' preloads (no TypeScript to declare Node's globals).
    files: ['scripts/**/*.mjs', 'test/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // CommonJS preloads for programs the tests start (node --require).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

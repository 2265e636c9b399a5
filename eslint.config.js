import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What no file of src/core may import (a later block for a sub-folder repeats these: rule options replace, not merge). */
const CORE_PATTERNS = [
  { group: ['**/server/**', '**/bot/**', '**/tab/**', '**/cli/**', '**/sim/**'], message: 'src/core imports nothing from the parts built on it.' },
  {
    group: ['react', 'react-dom', 'react/*', '@fluentui/*', 'botbuilder', 'botbuilder-*', '@microsoft/teamsfx', '@microsoft/teams-js', 'restify'],
    message: 'src/core stays free of UI, bot and HTTP-server libraries.',
  },
];

/** What no file of src/bot may import, the adapter included. */
const BOT_PATTERNS = [
  {
    group: ['**/server/**', '**/tab/**', '**/cli/**', '**/sim/**'],
    message: 'The server composes the bot; the bot does not reach into the server, the tab, the CLI or the simulator.',
  },
];

/** The Bot Framework SDK and TeamsFx, which only src/bot/adapter imports. */
const BOT_SDK_PATTERN = {
  group: ['botbuilder', 'botbuilder/*', 'botbuilder-*', 'botframework-*', '@microsoft/teamsfx', '@microsoft/teamsfx/*'],
  message: 'Only src/bot/adapter speaks Bot Framework: commands and cards take plain requests and return plain replies.',
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
  // Layers (README, "Project layout"): the core knows nothing of the parts built on it; the bot is
  // composed by the server and never reaches into it; the tab, a browser bundle, takes from the core
  // only its browser-safe contract (the report model, finding kinds, CSV).
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: CORE_PATTERNS,
        },
      ],
    },
  },
  {
    // Findings are what reports make: kinds, severities and fingerprints know nothing of reports.
    files: ['src/core/findings/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CORE_PATTERNS,
            {
              group: ['**/reports/**', '**/ledger/**', '**/store/**', '**/graph/**'],
              message: 'src/core/findings is the bottom of the core: reports import it, never the other way.',
            },
          ],
        },
      ],
    },
  },
  {
    // The Graph client reads Graph for whoever asks; it knows nothing of what they make of it.
    files: ['src/core/graph/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...CORE_PATTERNS,
            {
              group: ['**/reports/**', '**/directory/**', '**/ledger/**', '**/store/**', '**/findings/**'],
              message: 'src/core/graph imports nothing else of the app: reports and look-ups are built on it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/bot/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: BOT_PATTERNS,
        },
      ],
    },
  },
  {
    // The Bot Framework SDK and TeamsFx stay in src/bot/adapter, so a move to another Teams SDK is that folder's change.
    files: ['src/bot/**'],
    ignores: ['src/bot/adapter/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...BOT_PATTERNS, BOT_SDK_PATTERN],
        },
      ],
    },
  },
  {
    // Commands and cards work on plain values: they know nothing of the adapter that carries them, nor of the bot it makes.
    files: ['src/bot/commands/**', 'src/bot/cards/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BOT_PATTERNS,
            BOT_SDK_PATTERN,
            {
              group: ['**/adapter/**', '**/teams-bot.js'],
              message: 'Commands and cards take plain requests and return plain replies; the adapter and TeamsBot are built on them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/tab/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/core/(?!reports/report-model\\.js$|reports/report-csv\\.js$|reports/report-summary\\.js$|reports/report-preview\\.js$|findings/finding-kinds\\.js$|triage/triage-book\\.js$)',
              message: 'The tab takes from the core only its browser-safe contract: report-model, report-summary, report-preview, report-csv, finding-kinds and triage-book.',
            },
            { group: ['**/server/**', '**/bot/**', '**/cli/**', '**/sim/**'], message: 'The tab talks to the server over its API only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**', 'src/server/main.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Plain Node scripts (no TypeScript to declare Node's globals).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // CommonJS preloads for programs the tests start (node --require).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

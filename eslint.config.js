// ESLint (flat config). Two jobs:
// 1. ordinary correctness checks for every TypeScript and Svelte file;
// 2. the pure core: `src/core/**` and the rules files of the games (`skills/*/rules.ts` and friends)
//    may not touch the browser, storage, the network, workers, timers, the clock or randomness
//    (a clock or a random source is passed in), may not import UI, storage, worker or model
//    libraries, and may import only other pure files.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';
import { pureBoundary } from './scripts/eslint-pure-boundary.js';
import { PURE_FILES } from './scripts/pure-files.js';
import svelteConfig from './svelte.config.js';

/** Files that must stay pure: the one list in scripts/pure-files.js (also read by scripts/check-core.ts and scripts/check-deps.ts). */
export { PURE_FILES };

const BROWSER_ONLY_GLOBALS = [
  'window',
  'self',
  'document',
  'navigator',
  'location',
  'history',
  'indexedDB',
  'localStorage',
  'sessionStorage',
  'caches',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
  'Worker',
  'SharedWorker',
  'MessageChannel',
  'BroadcastChannel',
  'postMessage',
  'importScripts',
  'crypto',
  'performance',
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'setImmediate',
  'requestAnimationFrame',
  'requestIdleCallback',
  'queueMicrotask',
  'speechSynthesis',
  'SpeechSynthesisUtterance',
  'process',
].map((name) => ({ name, message: `The pure core does no I/O: pass ${name === 'setTimeout' || name.includes('Interval') || name.includes('Timeout') ? 'a clock' : 'what it needs'} in instead of using the global "${name}".` }));

const BROWSER_ONLY_MODULES = [
  { group: ['svelte', 'svelte/*', 'idb', 'comlink', '@mlc-ai/*', 'web-serial-polyfill', '@wllama/*', 'node:*', 'fs', 'path', 'os'], message: 'The pure core imports no UI, storage, worker, model or Node library.' },
];

export default defineConfig(
  { ignores: ['node_modules/**', 'dist/**', 'dist-sourcemaps/**', '.cache/**', 'test-results/**', 'playwright-report/**', 'tests/unit/lint/fixtures/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs.recommended,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig } },
  },
  {
    rules: {
      // TypeScript (tsc and svelte-check) already knows every global and type.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Tests reach into pages and fakes (`window as any`); the app's own code may not.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The robot area is not pure (streams, timers), but its one random source, the simulator's boot id, is passed in.
    files: ['src/robot/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'The robot area takes its random source as a parameter (FirmwareSim `random`).' }],
    },
  },
  {
    files: PURE_FILES,
    plugins: { pure: pureBoundary },
    rules: {
      'no-restricted-globals': ['error', ...BROWSER_ONLY_GLOBALS],
      'no-restricted-imports': ['error', { patterns: BROWSER_ONLY_MODULES }],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Randomness is injected: take a random source as a parameter.' },
        { object: 'Date', property: 'now', message: 'The clock is injected: take `now` as a parameter.' },
        { object: 'globalThis', message: 'The pure core reads no global state.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'The clock is injected: `new Date()` reads the wall clock.' },
        { selector: 'MetaProperty', message: 'The pure core does not depend on the bundler (`import.meta`): the caller finds files and passes their text in.' },
      ],
      'pure/imports-stay-pure': 'error',
    },
  },
);

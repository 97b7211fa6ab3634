// Lint for the page (web/), the build and test scripts (scripts/, tests/): ESLint's recommended
// rules; formatting is Prettier's job (.prettierrc.json). `npm run lint` runs both with clang-format.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['dist/', 'build/', 'node_modules/', 'docs/'] },
  js.configs.recommended,
  {
    files: ['web/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
    // A page function longer than a screen does too much: a section is its requests, its answers and
    // its rendering, each small (web/app/sections.js). Counted as written, comments and blank lines too.
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    // The command line (the package's bin) runs in Node.
    files: ['web/cli.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['scripts/**/*.mjs', 'tests/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Functions these tests hand to page.evaluate() run in the browser.
    files: ['tests/browser/**/*.mjs', 'tests/bench/cold_load.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];

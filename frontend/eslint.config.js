import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'wailsjs'] }, // wailsjs: generated (scripts/bindings.sh)
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/wailsjs/**'], message: 'only src/lib/api touches the generated Wails bindings: import from src/lib/api' }] }],
    },
  },
  {
    files: ['src/lib/api/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['e2e/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // page.waitForFunction takes a truthy Promise as done at once: it never waited (CI flakes)
      'no-restricted-syntax': ['error',
        { selector: 'CallExpression[callee.property.name="waitForFunction"] > :function[async=true]', message: 'waitForFunction does not await: poll a backend call from Node (app.waitTrace, app.waitState)' },
        { selector: 'CallExpression[callee.property.name="waitForFunction"] > :function CallExpression[callee.property.name="then"]', message: 'waitForFunction does not await: poll a backend call from Node (app.waitTrace, app.waitState)' },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } }, // page.evaluate bodies run in the browser
  },
);

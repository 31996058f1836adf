import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'bench/results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.web.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Only the safe helper opens URLs outside the app.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='openExternal']",
          message: 'Use safeOpenExternal from src/main/shell/open-external.ts.',
        },
      ],
    },
  },
  {
    files: ['src/main/index.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Chromium builds a formatter per call: a long table's rows format through the ones made once.
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='openExternal']",
          message: 'Use safeOpenExternal from src/main/shell/open-external.ts.',
        },
        {
          selector: "CallExpression[callee.property.name='toLocaleString'][arguments.length=0]",
          message: 'Use formatCount or formatDateTime from src/renderer/src/views/format.ts.',
        },
      ],
    },
  },
  {
    // The engine and everything that runs in plain Node never import Electron.
    files: [
      'src/main/engine/**',
      'src/main/services/**',
      'src/main/api/**',
      'src/main/web/**',
      'src/main/cli/**',
      'src/main/ipc/**',
      'src/main/shell/**',
      'src/shared/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'Only src/main/index.ts and the preload import Electron.',
            },
          ],
        },
      ],
    },
  },
  {
    // The engine stands alone: nothing of services, API, transports or UI.
    files: ['src/main/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The engine never imports Electron.' }],
          patterns: [
            {
              group: [
                '**/services/**',
                '**/api/**',
                '**/ipc/**',
                '**/web/**',
                '**/cli/**',
                '**/renderer/**',
                '**/shell/**',
              ],
              message: 'The engine imports nothing from the layers above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    // This build does not use the React Compiler, so its 'incompatible library' notice does not apply.
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/incompatible-library': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // vitest's asymmetric matchers (expect.objectContaining, ...) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);

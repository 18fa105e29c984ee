// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Imports flow one way: lib -> components -> features -> app.
 * Code outside the current module is imported through the `@/` alias, so the
 * layer rules below can see it; a relative import may climb one level at most.
 */
const noDeepRelative = {
  regex: '^\\.\\./\\.\\./',
  message: 'Import code outside this module through the "@/" alias.',
};

/** Feature folders, each one a module of its own (`src/features/<name>`). */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** @param {string[]} layers @param {string} who */
const forbid = (layers, who) => ({
  regex: `^@/(${layers.join('|')})(/|$)`,
  message: `${who} must not import from ${layers.join(', ')} (imports flow lib -> components -> features -> app).`,
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage'] },
  {
    // Web Push handlers imported by the generated service worker: plain JavaScript, served as is.
    files: ['public/push-sw.js'],
    extends: [js.configs.recommended, tseslint.configs.disableTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'script',
      globals: { ...globals.serviceworker },
      parserOptions: { projectService: false },
    },
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    ignores: ['public/push-sw.js'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'no-restricted-imports': ['error', { patterns: [noDeepRelative] }],
    },
  },
  {
    // Accessibility of the markup (alt texts, labels, roles, keyboard reach).
    files: ['src/**/*.tsx'],
    ...jsxA11y.configs.recommended,
    rules: {
      ...jsxA11y.configs.recommended.rules,
      // A component's own `autoFocus` prop is checked where it reaches the DOM element.
      'jsx-a11y-x/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    files: ['src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noDeepRelative, forbid(['components', 'features', 'app'], 'lib')] },
      ],
    },
  },
  {
    files: ['src/components/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noDeepRelative, forbid(['features', 'app'], 'components')] }],
    },
  },
  // A feature imports its own files freely (through "@/features/<own>/…"), never another
  // feature's: shared code moves to lib or components.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepRelative,
            forbid(['app'], 'A feature'),
            {
              regex: `^@/features/(?!${feature}(/|$))`,
              message: `The ${feature} feature must not import another feature; move shared code to lib or components.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['e2e/**', '*.config.ts', 'eslint.config.js', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);

// @ts-check
import js from '@eslint/js';
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

/** @param {string[]} layers @param {string} who */
const forbid = (layers, who) => ({
  regex: `^@/(${layers.join('|')})(/|$)`,
  message: `${who} must not import from ${layers.join(', ')} (imports flow lib -> components -> features -> app).`,
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage'] },
  {
    files: ['**/*.{ts,tsx,js}'],
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
  {
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noDeepRelative,
            forbid(['app'], 'A feature'),
            { regex: '^@/features/', message: 'A feature must not import another feature; move shared code to lib or components.' },
          ],
        },
      ],
    },
  },
  {
    files: ['e2e/**', '*.config.ts', 'eslint.config.js', 'scripts/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);

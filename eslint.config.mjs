// One lint config for every workspace (flat config). Prettier owns formatting; ESLint owns correctness.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Nest resolves constructor parameters from decorator metadata: a class imported as a type would vanish
    // from the emitted metadata and break injection, so backend imports are left as written.
    files: ['backend/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Command-line tools talk to a person on the console.
    files: [
      'scripts/**',
      '*/scripts/**',
      'bench/**',
      '.ci/**',
      '**/*.spec.ts',
      '**/*.spec.tsx',
      'e2e/**',
      'sfu/src/main.ts',
      '*/src/test-support/**',
    ],
    rules: { 'no-console': 'off' },
  },
  prettier,
);

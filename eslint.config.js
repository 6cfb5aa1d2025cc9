// Lint rules for the project's own code (src, templates, test, scripts, bench). Formatting is prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'packages/*/dist/',
      'generated/',
      'test/.tmp/',
      'examples/.generated/',
      'bench/results/',
      'tools/',
      'docs/.vitepress/cache/',
      'docs/.vitepress/dist/',
      'test/fixtures/**/*.js',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        globalThis: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The runtime's generic bases take `Peer<any, …>`-style bounds so any generated method table fits them.
    files: ['templates/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Product code states what it assumes: a check, or a type that makes the assumption unnecessary (`!` hides
    // the cases nobody thought of; there were 175 of them).
    files: ['src/**', 'templates/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // Tests poke at untyped frames and deliberately wrong values.
    files: ['test/**', 'bench/**', 'scripts/**', 'examples/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

// Lint: eslint's and typescript-eslint's recommended rules over all our TypeScript.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'data/**',
      'scratch/**',
      'coverage/**',
      'test/client/generated/**',
      '**/*.min.js',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        window: 'readonly',
        document: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        crypto: 'readonly',
        customElements: 'readonly',
        HTMLElement: 'readonly',
        navigator: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The browser runs shared/ too (the widget imports it), so it may not lean on Node, the server or the CLI.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'shared/ runs in the browser too: no Node modules.' })),
          patterns: [
            { group: ['node:*'], message: 'shared/ runs in the browser too: no Node modules.' },
            {
              group: ['**/server/**', '**/cli/**'],
              message: 'shared/ is imported by the server and the CLI, never the reverse.',
            },
          ],
        },
      ],
    },
  },
  {
    // The widget's and the panel's bundles hold their own code and shared/'s; of the zod contract only the types.
    files: ['widget/src/**/*.ts', 'panel/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'zod stays out of the widget bundle.' }],
          patterns: [
            { group: ['node:*'], message: 'This runs in the browser: no Node modules.' },
            { group: ['**/server/**', '**/cli/**'], message: 'Browser code imports shared/, never the server.' },
            {
              group: ['**/shared/listing.ts'],
              allowTypeImports: true,
              message: 'Import the contract with `import type`: its zod schemas stay out of the bundle.',
            },
          ],
        },
      ],
    },
  },
);

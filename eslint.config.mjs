// ESLint flat config (eslint 9 + typescript-eslint): the recommended TypeScript rules, and the two things about the
// layers that neither the compiler nor the dependency rules see.
// The layers themselves are held by the build: TypeScript project references, one project per layer (tsconfig.json;
// the engine, shared/ and the webview's model have no Node and no DOM types, so their globals do not compile), and
// the dependency rules of .dependency-cruiser.cjs (layer order, packages per layer, no cycle), run by `npm run lint`.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      '**/dist/**',
      '**/out/**',
      '**/node_modules/**',
      'examples/**',
      'test/fixtures/**',
      'test-output/**',
      '**/*.vsix',
      '.cache/**',
    ],
  },
  {
    files: [
      'shared/src/**/*.ts',
      'server/src/**/*.ts',
      'client/src/**/*.ts',
      'webview/src/**/*.ts',
      'test/**/*.ts',
      'testkit/**/*.ts',
      'bench/**/*.ts',
    ],
    extends: [...tseslint.configs.recommended],
    rules: {
      // Prettier wraps code at 140 columns but never a comment or a string; comments are held to it here (strings,
      // test names and messages, stay whole so that they can be searched for).
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
      // Same convention as tsc's noUnusedLocals/noUnusedParameters: a leading underscore marks "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // A triple-slash directive would bring back what a project leaves out: `/// <reference lib="dom" />` the DOM's
    // globals in the engine, `/// <reference types="node" />` Node's.
    files: ['shared/src/**/*.ts', 'server/src/**/*.ts', 'client/src/**/*.ts', 'webview/src/**/*.ts'],
    rules: {
      '@typescript-eslint/triple-slash-reference': ['error', { lib: 'never', path: 'never', types: 'never' }],
    },
  },
  {
    // The engine loads no code: an import() whose specifier is computed is invisible to the dependency rules.
    files: ['server/src/engine/**/*.ts', 'shared/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression',
          message: 'The engine and the wire module load no code at run time (objects in, results out): use a static import.',
        },
      ],
    },
  },
);

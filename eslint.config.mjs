// ESLint flat config (eslint 9 + typescript-eslint).
// Besides the recommended TypeScript rules it enforces the module boundaries of the architecture:
//  - nothing under server/ may import `vscode` (a language server runs in a plain Node process, where the
//    `vscode` module does not exist: the import compiles and fails at run time);
//  - the engine (server/src/engine/**) is pure: objects in, results out. It imports nothing from VS Code, LSP
//    libraries, Kubernetes clients, Node built-ins (file system, network, processes, timers, ...) or the rest of
//    the server, and it uses no I/O or timer globals.
// test/architecture/engineBoundary.test.ts checks the same boundary without ESLint, from the import graph.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Every Node built-in, with and without `node:`, and any subpath of one (fs/promises, path/posix, ...).
const nodeBuiltins = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '').split('/')[0]))].sort();
const NODE_BUILTIN_REGEX = `^(node:.*|(${nodeBuiltins.map(escape).join('|')})(/.*)?)$`;

const VSCODE_MESSAGE =
  'The language server runs outside VS Code: the `vscode` module does not exist there. Talk to the client through LSP.';

/** Banned for everything under server/. */
const serverRestrictions = {
  paths: [
    { name: 'vscode', message: VSCODE_MESSAGE },
    { name: 'vscode-languageclient', message: 'vscode-languageclient is the client side and imports `vscode`; the server uses vscode-languageserver.' },
  ],
  patterns: [
    { regex: '^vscode-languageclient/', message: 'vscode-languageclient is the client side and imports `vscode`; the server uses vscode-languageserver.' },
  ],
};

const WEBVIEW_MESSAGE = 'The webview is a browser page: it talks to the extension only through postMessage (shared/src/wire/webview.ts), never through VS Code or Node modules.';

const CLIENT_LOGIC_MESSAGE = 'client/src/logic is plain TypeScript, unit-tested without VS Code: keep `vscode` in the modules around it.';

const ENGINE_MESSAGE = 'The engine is pure (objects in, results out): no editor, LSP, cluster, I/O, timers or process.';

/** Banned inside server/src/engine/**: the server-wide list plus the engine's (a later `files` block replaces a rule's options). */
const engineRestrictions = {
  paths: [{ name: 'vscode', message: VSCODE_MESSAGE }],
  patterns: [
    { regex: '^vscode-', message: `${ENGINE_MESSAGE} No vscode-* package (LSP belongs in server/src/lsp).` },
    { regex: '^@vscode/', message: `${ENGINE_MESSAGE} No @vscode/* package.` },
    { regex: '^@kubernetes/', message: `${ENGINE_MESSAGE} The cluster is reached by server/src/sources, never by the engine.` },
    { regex: NODE_BUILTIN_REGEX, message: `${ENGINE_MESSAGE} No Node built-in module; pass data in and return results.` },
    { regex: '^/', message: `${ENGINE_MESSAGE} No absolute imports.` },
  ],
};

/**
 * Relative imports that leave the engine. The engine sits at server/src/engine, so from a file `depth` folders below
 * it, `depth + 1` leading `../` reach server/src (e.g. '../../sources/manifests/parseManifest' from engine/graph/).
 * ESLint matches the specifier as written, so there is one block per depth.
 */
function engineEscapeBlock(depth) {
  const up = depth + 1;
  return {
    files: [`server/src/engine/${'*/'.repeat(depth)}*.{ts,tsx,mts,cts}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        ...engineRestrictions,
        patterns: [
          ...engineRestrictions.patterns,
          {
            regex: `^(\\./)?(\\.\\./){${up},}`,
            message: `${ENGINE_MESSAGE} This import leaves server/src/engine (sources/, cli/ and lsp/ depend on the engine, never the reverse).`,
          },
        ],
      }],
    },
  };
}

const GLOBAL_MESSAGE = 'is not available to the engine: it is pure and deterministic (objects in, results out).';
const engineGlobals = [
  'process', 'require', 'module', 'exports', '__dirname', '__filename', 'globalThis', 'global',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask',
  'fetch', 'XMLHttpRequest', 'WebSocket',
].map((name) => ({ name, message: `\`${name}\` ${GLOBAL_MESSAGE}` }));

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/out/**', '**/node_modules/**', 'examples/**', 'test/fixtures/**', 'test-output/**', '**/*.vsix', '.cache/**'],
  },
  {
    files: ['shared/src/**/*.ts', 'server/src/**/*.ts', 'client/src/**/*.ts', 'webview/src/**/*.ts', 'test/**/*.ts', 'testkit/**/*.ts', 'bench/**/*.ts'],
    extends: [...tseslint.configs.recommended],
    rules: {
      // Same convention as tsc's noUnusedLocals/noUnusedParameters: a leading underscore marks "unused on purpose".
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_',
      }],
    },
  },
  {
    files: ['server/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    rules: {
      'no-restricted-imports': ['error', serverRestrictions],
    },
  },
  {
    files: ['server/**/*.{ts,tsx,mts,cts}'],
    rules: {
      // The TypeScript version also sees `import x = require('...')` and `export ... from`; both rules share options.
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', serverRestrictions],
    },
  },
  {
    files: ['server/src/engine/**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', engineRestrictions],
      'no-restricted-globals': ['error', ...engineGlobals],
      'no-restricted-syntax': ['error',
        { selector: 'ImportExpression', message: `Dynamic import() ${GLOBAL_MESSAGE}` },
        { selector: 'TSImportType[argument.literal.value=/^[^.]/]', message: `Inline \`import("package")\` types hide a dependency; the engine imports no package.` },
        { selector: 'TSExternalModuleReference', message: '`import x = require(...)`: use an ES import.' },
      ],
    },
  },
  {
    // The client's logic (report markdown, quick-pick and tree models, the Kubernetes check) is unit-tested in
    // plain Node, where `vscode` does not exist: only the thin modules around it talk to VS Code.
    files: ['client/src/logic/**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: CLIENT_LOGIC_MESSAGE }],
        patterns: [{ regex: '^vscode-languageclient', message: CLIENT_LOGIC_MESSAGE }],
      }],
    },
  },
  {
    // The webview runs in a browser page under a strict CSP: no VS Code API module, no Node, and from the rest of the
    // repository only the wire module (shared/), which has no runtime dependency.
    files: ['webview/src/**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: WEBVIEW_MESSAGE }],
        patterns: [
          { regex: '^vscode', message: WEBVIEW_MESSAGE },
          { regex: NODE_BUILTIN_REGEX, message: WEBVIEW_MESSAGE },
          { regex: '^(\\.\\./)+(server|client)/', message: 'The webview talks to the rest only through the wire module (shared/src/protocol.ts).' },
        ],
      }],
    },
  },
  {
    // The wire module crosses every boundary (server, client, webview): it depends on nothing, not even a package.
    files: ['shared/src/**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { regex: '^(\\.\\./)+(server|client|webview)/', message: 'shared/ is the wire module: it imports nothing outside shared/.' },
          { regex: '^[^.]', message: 'shared/ is the wire module: no runtime dependency, no Node module.' },
        ],
      }],
    },
  },
  {
    // The client reaches the server only through the language server protocol and the wire module (shared/).
    files: ['client/src/**/*.{ts,tsx,mts,cts}'],
    ignores: ['client/src/logic/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ regex: '^(\\.\\./)+server/', message: 'The client talks to the server only through the wire module (shared/src/protocol.ts).' }],
      }],
    },
  },
  {
    // The webview's model is pure (unit-tested in Node): the DOM, the VS Code webview API and timers stay in ui/ and main.ts.
    files: ['webview/src/model/**/*.{ts,tsx,mts,cts}'],
    rules: {
      'no-restricted-globals': ['error', ...['document', 'window', 'navigator', 'acquireVsCodeApi', 'requestAnimationFrame', 'setTimeout', 'setInterval', 'getComputedStyle']
        .map((name) => ({ name, message: `webview/src/model is pure (no DOM, no timers): \`${name}\` belongs in webview/src/ui.` }))],
    },
  },
  // Must come after the block above: for a given file, the last block that sets a rule wins.
  ...[0, 1, 2, 3, 4, 5, 6, 7].map(engineEscapeBlock),
);

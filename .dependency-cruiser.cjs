// The dependency rules that TypeScript's project references (tsconfig.json, one project per layer) cannot say: the
// layer order within what a project may reach, which packages each layer may use, and no import cycle anywhere.
// `npm run lint` runs it (docs/adr/0033). Paths are from the repository root; type-only imports count.
//
//   server/src:  engine → sources → workspace → app → (cli | lsp)      each layer imports only the ones before it
//   shared/src:  the wire module, below everything; client/src and webview/src reach the rest only through it
//   testkit/:    what tests and benchmarks both drive; test/ may import everything, bench/ everything but test/

const ENGINE = '^server/src/engine/';
const SOURCES = '^server/src/sources/';
const CLUSTER = '^server/src/sources/cluster/';
const SHARED = '^shared/src/';
const PRODUCT = '^(server/src|shared/src|client/src|webview/src)/';
/** Everything of this repository (packages resolve under node_modules/, Node's own modules to their bare names). */
const REPO = '^(server|shared|client|webview|test|testkit|bench)/';

/** Node's network modules (their bare names, `node:` dropped) and the HTTP clients: what could reach a cluster. */
const NETWORK_MODULES = '^(http|https|http2|net|tls|dgram)$|^node_modules/(node-fetch|undici|ws)/';
const NETWORK = `${NETWORK_MODULES}|^node_modules/@kubernetes/client-node/`;
const LSP_PACKAGES = '^node_modules/vscode-(languageserver|languageserver-protocol|languageserver-textdocument|jsonrpc)/';
const VSCODE_PACKAGES = '^node_modules/(@types/vscode|vscode|vscode-languageclient)/';

/** `from` may import, of this repository, only what `allowed` matches (itself included). */
function layer(name, from, allowed, comment) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: REPO, pathNot: allowed } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports (type-only ones included): each file stands above what it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-is-pure',
      comment: 'The engine imports only engine files: no package, no Node module, no other layer (objects in, results out).',
      severity: 'error',
      from: { path: ENGINE },
      to: { pathNot: ENGINE },
    },
    {
      name: 'shared-is-the-wire',
      comment: 'shared/src is the wire module: it imports only shared/src, no package and no Node module (the webview bundles it).',
      severity: 'error',
      from: { path: SHARED },
      to: { pathNot: SHARED },
    },
    layer(
      'sources-below-workspace',
      SOURCES,
      '^server/src/(engine|sources)/',
      'sources/ reads input for the engine; it knows no layer above it.',
    ),
    layer(
      'workspace-below-app',
      '^server/src/workspace/',
      '^server/src/(engine|sources|workspace)/',
      'workspace/ knows neither app/ nor a front end.',
    ),
    layer(
      'app-below-front-ends',
      '^server/src/app/',
      `^server/src/(engine|sources|workspace|app)/|${SHARED}`,
      'app/ answers every front end; it knows neither cli/ nor lsp/.',
    ),
    layer(
      'cli-is-a-front-end',
      '^server/src/cli/',
      `^server/src/(engine|sources|workspace|app|cli)/|${SHARED}`,
      "cli/ prints app/'s answers; it knows nothing of lsp/.",
    ),
    layer(
      'lsp-is-a-front-end',
      '^server/src/lsp/',
      `^server/src/(engine|sources|workspace|app|lsp)/|${SHARED}`,
      "lsp/ sends app/'s answers; it knows nothing of cli/.",
    ),
    layer(
      'client-through-shared',
      '^client/src/',
      `^client/src/|${SHARED}`,
      'The extension talks to the server only through LSP and the wire module (shared/src).',
    ),
    layer(
      'client-logic-is-plain',
      '^client/src/logic/',
      `^client/src/logic/|${SHARED}`,
      'client/src/logic is unit-tested without VS Code: it imports none of the modules around it.',
    ),
    layer(
      'webview-through-shared',
      '^webview/src/',
      `^webview/src/|${SHARED}`,
      "The webview is a browser page: it talks to the extension only by postMessage, in the wire module's shapes.",
    ),
    layer(
      'webview-model-is-pure',
      '^webview/src/model/',
      `^webview/src/model/|${SHARED}`,
      'webview/src/model is pure (no DOM, unit-tested in Node): the DOM stays in ui/ and the wiring.',
    ),
    layer(
      'testkit-below-test',
      '^testkit/',
      `^(server/src|shared/src|client/src|webview/src|testkit)/`,
      'testkit/ is what tests and benchmarks both drive: it imports no test.',
    ),
    layer(
      'bench-never-imports-test',
      '^bench/',
      `^(server/src|shared/src|client/src|webview/src|testkit|bench)/`,
      'Benchmarks import the product and testkit/, never test/.',
    ),
    {
      name: 'vscode-only-in-the-extension',
      comment:
        'Only the extension (client/src, but its logic/) imports `vscode`: the language server and the CLI run in a plain Node process and the webview in a page, where it does not exist (the import compiles and fails at run time).',
      severity: 'error',
      from: { path: '^(server/src|shared/src|webview/src|client/src/logic)/' },
      to: { path: VSCODE_PACKAGES },
    },
    {
      name: 'lsp-only-in-lsp',
      comment:
        'Only server/src/lsp speaks LSP: the engine, sources, workspace, app and the CLI know no LSP library, nor the client or the webview.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: '^server/src/lsp/' },
      to: { path: LSP_PACKAGES },
    },
    {
      name: 'no-node-in-the-webview',
      comment: 'The webview is a browser page: no Node module.',
      severity: 'error',
      from: { path: '^webview/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-sources-cluster-reaches-a-cluster',
      comment: 'Read-only towards clusters: only server/src/sources/cluster imports network modules or @kubernetes/client-node.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: CLUSTER },
      to: { path: NETWORK },
    },
    {
      name: 'only-apiClient-sends-requests',
      comment:
        'Of the cluster modules, only apiClient.ts (which hard-codes GET) and clusterWrites.ts (which hard-codes PATCH, the way out a user asked for: test/architecture/clusterBoundary.test.ts) use a network module at run time; the others may name their types.',
      severity: 'error',
      from: { path: CLUSTER, pathNot: `${CLUSTER}(apiClient|clusterWrites)\\.ts$` },
      to: { path: NETWORK_MODULES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'product-imports-no-test-code',
      comment: 'What ships never imports tests, testkit/ or benchmarks.',
      severity: 'error',
      from: { path: PRODUCT },
      to: { path: '^(test|testkit|bench)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a typo or a missing package fails here, before the bundle).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^test/(fixtures|controlplane)/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
    },
  },
};

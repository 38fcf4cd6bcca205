// Bundles every entry point (or only those named: `node esbuild.mjs cli`). Type checking is separate (`tsc -b`: the
// projects of tsconfig.json, one per layer), as esbuild does not type-check. `--production` minifies and drops source
// maps. `--outdir=DIR` writes the bundles there instead of dist/ (scripts/package.mjs stages the .vsix that way).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const entries = {
  cli: { entryPoints: ['server/src/cli/main.ts'], outfile: `${outdir}/cli.js`, banner: { js: '#!/usr/bin/env node' } },
  server: { entryPoints: ['server/src/lsp/main.ts'], outfile: `${outdir}/server.js`, banner: { js: '#!/usr/bin/env node' } },
  client: { entryPoints: ['client/src/extension.ts'], outfile: `${outdir}/extension.js`, external: ['vscode'] },
  bench: { entryPoints: ['bench/main.ts'], outfile: `${outdir}/bench.js` },
  lspBench: { entryPoints: ['bench/lspBench.ts'], outfile: `${outdir}/lspBench.js` },
  lspEditBench: { entryPoints: ['bench/lspEditBench.ts'], outfile: `${outdir}/lspEditBench.js` },
  yamlParseBench: { entryPoints: ['bench/yamlParseBench.ts'], outfile: `${outdir}/yamlParseBench.js` },
  clusterBench: { entryPoints: ['bench/clusterBench.ts'], outfile: `${outdir}/clusterBench.js` },
  realServerBench: { entryPoints: ['bench/realServerBench.ts'], outfile: `${outdir}/realServerBench.js` },
  // `npm run fidelity`: the simulation against the real garbage collector (test/fidelity).
  fidelity: { entryPoints: ['test/fidelity/main.ts'], outfile: `${outdir}/fidelity.js` },
  // `npm run demo -- --cluster` writes examples/ into the local control plane with it (test infrastructure, not shipped).
  seedCluster: { entryPoints: ['testkit/cluster/seedClusterMain.ts'], outfile: `${outdir}/seedCluster.js` },
  // The graph webview: a browser bundle (d3 modules included) and its stylesheet (webview.css, beside it).
  webview: {
    entryPoints: ['webview/src/main.ts'],
    outfile: `${outdir}/webview/webview.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // playwright-core stays a package (it loads its own files at run time).
  webviewBench: { entryPoints: ['bench/webviewBench.ts'], outfile: `${outdir}/webviewBench.js`, external: ['playwright-core'] },
};

await Promise.all(
  Object.entries(entries)
    .filter(([name]) => only.length === 0 || only.includes(name))
    .map(([, options]) => esbuild.build({ ...common, ...options })),
);

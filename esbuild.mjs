// Bundles every entry point (or only those named: `node esbuild.mjs cli`). Type checking is separate
// (`tsc -p .`), as esbuild does not type-check. `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
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
  cli: { entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  server: { entryPoints: ['server/src/lsp/main.ts'], outfile: 'dist/server.js', banner: { js: '#!/usr/bin/env node' } },
  client: { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  bench: { entryPoints: ['bench/main.ts'], outfile: 'dist/bench.js' },
  lspBench: { entryPoints: ['bench/lspBench.ts'], outfile: 'dist/lspBench.js' },
};

await Promise.all(
  Object.entries(entries)
    .filter(([name]) => only.length === 0 || only.includes(name))
    .map(([, options]) => esbuild.build({ ...common, ...options })),
);

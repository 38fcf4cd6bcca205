// `npm run package`: dist/<name>-<version>.vsix with @vscode/vsce.
//
// The extension is staged in out/vsix: the production bundles (minified, no source maps) of the `client`, `server` and
// `webview` entries (the graph webview: dist/webview/webview.js and .css), built straight there, and the files a user
// reads. So the .vsix never picks up development
// bundles that a concurrent `npm run build` writes to dist/, and packaging never replaces those bundles.
// .vscodeignore (an allowlist) is applied by vsce on top. No repository URL in package.json: packaged with
// --allow-missing-repository; stdin is closed, so vsce cannot stop to ask anything.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAGE = join(REPO, 'out', 'vsix');
const { name, version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const vsix = join(REPO, 'dist', `${name}-${version}.vsix`);

rmSync(STAGE, { recursive: true, force: true });
mkdirSync(join(STAGE, 'dist'), { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(STAGE, 'dist')}`, 'client', 'server', 'webview'], {
  cwd: REPO,
  stdio: 'inherit',
});
for (const file of [
  'package.json',
  'README.md',
  'CHANGELOG.md',
  'docs/findings.md',
  'LICENSE',
  '.vscodeignore',
  'images/icon.png',
  'walkthrough',
]) {
  cpSync(join(REPO, file), join(STAGE, file), { recursive: true });
}

mkdirSync(dirname(vsix), { recursive: true });
execFileSync(
  process.execPath,
  [
    join(REPO, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies', // everything the extension runs is bundled
    '--allow-missing-repository',
    '--out',
    vsix,
  ],
  { cwd: STAGE, stdio: ['ignore', 'inherit', 'inherit'] },
);

const size = statSync(vsix).size;
console.log(`${relative(REPO, vsix)}: ${(size / 1024).toFixed(0)} KB`);
if (size > 3 * 1024 * 1024) {
  console.error('The .vsix is over 3 MB: check what .vscodeignore lets through.');
  process.exit(1);
}

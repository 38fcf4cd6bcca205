// `npm run demo` (after `npm run build`): the product's main job on the example workspace.
//  1. The command line on examples/: `kubectl-gc check -f examples` and `kubectl-gc simulate -f examples
//     namespace/kafka` (what deleting namespace kafka does: it hangs, and why).
//  2. The VS Code extension on examples/, in a real VS Code: packages the .vsix (scripts/package.mjs), installs
//     code-server 4.99.4 if needed (scripts/setupCodeServer.sh, cached in .cache/), installs the .vsix into a fresh
//     profile, starts code-server on examples/ and prints the URL to open. Runs until Ctrl-C.
//
// Options: --host H (default 127.0.0.1; 0.0.0.0 to open it from another machine), --port N (default: a free one).
//
// code-server opens the repository's examples/ itself, as a user opens a folder. VS Code in a browser saves edits
// on its own after a second (files.autoSave is "afterDelay" on the web): the demo profile turns that off, so the
// examples (which the tests read) change only when you save (Ctrl-S); `git checkout examples` undoes that.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CODE_SERVER_VERSION, defaultVsix, REPO, runUntilInterrupted, startCodeServer } from './codeServer.mjs';

const EXAMPLES = join(REPO, 'examples');
const CLI = join(REPO, 'dist', 'cli.js');

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function heading(text) {
  console.log(`\n\x1b[1m${text}\x1b[0m\n`);
}

/** Runs `kubectl-gc ARGS` (dist/cli.js), showing the command line and its output. */
function kubectlGc(...args) {
  console.log(`$ kubectl-gc ${args.join(' ')}`);
  try {
    execFileSync(process.execPath, [CLI, ...args], { cwd: REPO, stdio: 'inherit' });
  } catch (e) {
    // `check` exits 1 when it finds errors: that is its answer, not a failure of the demo.
    if (e?.status !== 1) throw new Error(`kubectl-gc ${args.join(' ')} failed (exit ${e?.status ?? e?.signal})`);
  }
  console.log('');
}

async function main() {
  heading('1/2  kubectl gc on examples/');
  kubectlGc('check', '-f', 'examples');
  kubectlGc('simulate', '-f', 'examples', 'namespace/kafka');

  heading(`2/2  The VS Code extension on examples/, in code-server ${CODE_SERVER_VERSION}`);
  execFileSync(process.execPath, [join(REPO, 'scripts', 'package.mjs')], { cwd: REPO, stdio: 'inherit' });
  const port = option('port');
  const server = await startCodeServer({
    workspace: EXAMPLES,
    vsix: defaultVsix(),
    host: option('host') ?? '127.0.0.1',
    port: port ? Number(port) : undefined,
    settings: { 'files.autoSave': 'off' },
  });
  heading('Kube GC Lens is running in code-server. Open this URL in a browser:');
  console.log(`  ${server.folderUrl}\n`);
  console.log('Open a file such as deployment-export-from-another-cluster/checkout-export.yaml: the Problems panel,');
  console.log('hovers on ownerReferences, code lenses, "Kubernetes GC: Simulate Delete" (F1) and the Stuck Objects view');
  console.log('in the Explorer. "Welcome: Open Walkthrough..." (F1) shows the tour.');
  console.log(`\nProfile and logs: ${server.dir}. Ctrl-C stops code-server.`);
  await runUntilInterrupted(server);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

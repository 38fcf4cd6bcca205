// `npm run demo` (after `npm run build`): the product's main job on the example workspace.
//  1. The command line on examples/: `kubectl-gc check -f examples` and `kubectl-gc simulate -f examples
//     namespace/kafka` (what deleting namespace kafka does: it hangs, and why).
//  2. The VS Code extension on examples/, in a real VS Code: packages the .vsix (scripts/package.mjs), installs
//     code-server 4.99.4 if needed (scripts/setupCodeServer.sh, cached in .cache/), installs the .vsix into a fresh
//     profile, starts code-server on examples/ and prints the URL to open. Runs until Ctrl-C.
//
// `npm run demo -- --cluster`: the same on a real cluster. Starts the local control plane (scripts/controlPlane.mjs:
// kube-apiserver and the garbage collector, namespace controller… of Kubernetes v1.37.2; built the first time, about
// 6 minutes, with Go), writes examples/ into it as `kubectl apply` would (dist/seedCluster.js: owners first, the
// server's uids, the objects exported terminating made terminating), runs `kubectl-gc stuck`, `check` and `simulate
// ns/kafka` on its kubeconfig, then opens code-server with the extension connected to it (kubeGcLens.cluster.kubeconfig
// and autoConnect in the profile). Ctrl-C stops code-server and the control plane and removes the demo's temporary
// folder (the profile, the control plane's log; the control plane removes its own state).
//
// Options: --host H (default 127.0.0.1; 0.0.0.0 to open it from another machine), --port N (default: a free one),
// --cluster, --vsix FILE (install this .vsix instead of packaging one: the e2e test's).
//
// code-server opens the repository's examples/ itself, as a user opens a folder. VS Code in a browser saves edits
// on its own after a second (files.autoSave is "afterDelay" on the web): the demo profile turns that off, so the
// examples (which the tests read) change only when you save (Ctrl-S); `git checkout examples` undoes that.

import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CODE_SERVER_VERSION, defaultVsix, REPO, runUntilInterrupted, startCodeServer } from './codeServer.mjs';

const EXAMPLES = join(REPO, 'examples');
const CLI = join(REPO, 'dist', 'cli.js');
/** kubectl built from the control plane's modules, as a user types it from the repository's folder. */
const KUBECTL = 'npm run --silent control-plane -- kubectl';

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

/**
 * `scripts/controlPlane.mjs start` with its logs in `logFile` (its own progress lines, such as the first build's,
 * shown); resolves with { kubeconfig, server, exited, stop, logFile } once it has printed its JSON line.
 */
function startControlPlane(logFile) {
  const child = spawn(process.execPath, [join(REPO, 'scripts', 'controlPlane.mjs'), 'start'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile);
  const tail = []; // the failure message quotes it: the log's folder is removed on the way out
  createInterface({ input: child.stderr }).on('line', (line) => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 30) tail.shift();
    if (line.startsWith('control-plane:')) console.log(`  ${line}`);
  });
  // 'close': after its output is read, so a failure quotes all of it
  const exited = new Promise((done) => child.once('close', (code, signal) => done({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); // it removes its temporary state
    await exited;
    log.end();
  };
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ ...JSON.parse(line), exited, stop, logFile, name: 'the control plane' }),
    );
    void exited.then(({ code, signal }) =>
      reject(new Error(`the control plane exited (${code ?? signal}) before it was ready; the end of its log:\n${tail.join('\n')}`)),
    );
  });
}

/** The .vsix to install: --vsix, else a fresh package of this checkout. */
function vsix() {
  if (option('vsix')) return option('vsix');
  execFileSync(process.execPath, [join(REPO, 'scripts', 'package.mjs')], { cwd: REPO, stdio: 'inherit' });
  return defaultVsix();
}

function codeServerOptions(settings, dir) {
  const port = option('port');
  return {
    workspace: EXAMPLES,
    vsix: vsix(),
    host: option('host') ?? '127.0.0.1',
    port: port ? Number(port) : undefined,
    settings: { 'files.autoSave': 'off', ...settings },
    dir,
  };
}

async function main() {
  heading('1/2  kubectl gc on examples/');
  kubectlGc('check', '-f', 'examples');
  kubectlGc('simulate', '-f', 'examples', 'namespace/kafka');

  heading(`2/2  The VS Code extension on examples/, in code-server ${CODE_SERVER_VERSION}`);
  const server = await startCodeServer(codeServerOptions({}));
  heading('Kube GC Lens is running in code-server. Open this URL in a browser:');
  console.log(`  ${server.folderUrl}\n`);
  console.log('Open a file such as deployment-export-from-another-cluster/checkout-export.yaml: the Problems panel,');
  console.log('hovers on ownerReferences, code lenses, "Kubernetes GC: Simulate Delete" (F1) and the Stuck Objects view');
  console.log('in the Explorer. "Welcome: Open Walkthrough..." (F1) shows the tour.');
  console.log(`\nProfile and logs: ${server.dir}. Ctrl-C stops code-server.`);
  await runUntilInterrupted(server);
}

async function mainCluster() {
  const dir = mkdtempSync(join(tmpdir(), 'kube-gc-lens-demo-'));
  heading('1/3  A local Kubernetes v1.37.2 control plane, with examples/ in it');
  console.log("kube-apiserver, the garbage collector and the namespace controller, built from Kubernetes' Go modules");
  console.log('(test/controlplane; the first time this builds them: about 6 minutes with Go, cached after). No kubelet:');
  console.log('Pods never run, and a Pod deleted with a grace period stays Terminating.\n');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let plane;
  let server;
  const stopAll = async () => {
    await server?.stop();
    await plane?.stop();
    cleanup();
  };
  // Ctrl-C before code-server is up (the first build takes minutes): stop what runs, remove the folder. An unready
  // control plane stops by itself, as it gets the terminal's SIGINT or finds itself orphaned.
  const abort = () => void stopAll().then(() => process.exit(130));
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    plane = await startControlPlane(join(dir, 'control-plane.log'));
    const { kubeconfig } = plane;
    console.log(`Running: ${plane.server}, kubeconfig ${kubeconfig}\n`);
    console.log('$ node dist/seedCluster.js --kubeconfig … examples');
    try {
      execFileSync(process.execPath, [join(REPO, 'dist', 'seedCluster.js'), '--kubeconfig', kubeconfig, EXAMPLES], {
        cwd: REPO,
        stdio: 'inherit',
      });
    } catch (e) {
      if (e?.status !== 1) throw new Error(`writing examples/ into the cluster failed (exit ${e?.status ?? e?.signal})`);
      console.log('The demo goes on without the refused objects.');
    }

    heading('2/3  kubectl gc on the live cluster');
    kubectlGc('stuck', '--kubeconfig', kubeconfig);
    kubectlGc('check', '--kubeconfig', kubeconfig);
    kubectlGc('simulate', '--kubeconfig', kubeconfig, 'ns/kafka');

    heading(`3/3  The VS Code extension on examples/, connected to the cluster, in code-server ${CODE_SERVER_VERSION}`);
    server = await startCodeServer(
      codeServerOptions(
        {
          'kubeGcLens.cluster.kubeconfig': kubeconfig,
          'kubeGcLens.cluster.autoConnect': true,
        },
        join(dir, 'code-server'),
      ),
    );
    heading('Kube GC Lens is running in code-server, connected to the cluster. Open this URL in a browser:');
    console.log(`  ${server.folderUrl}\n`);
    console.log('Open a file such as deployment-export-from-another-cluster/checkout-export.yaml: the status bar shows');
    console.log('"Cluster admin: … objects · all namespaces · watching"; the Stuck Objects view (Explorer) has a "Live cluster');
    console.log('(admin)" section with Namespace legacy-mq and why it hangs; "Kubernetes GC: Simulate Delete" (F1) offers the');
    console.log('live cluster, "Kubernetes GC: Show Ownership Graph" draws it; checkout-export.yaml gets collected-on-apply.');
    console.log('\nChange the cluster with kubectl (built from the same modules; from this folder) and watch the editor follow:');
    console.log(`  ${KUBECTL} --kubeconfig ${kubeconfig} get all -A`);
    console.log(
      `  ${KUBECTL} --kubeconfig ${kubeconfig} patch rabbitmqcluster orders -n legacy-mq --type=merge -p '{"metadata":{"finalizers":null}}'`,
    );
    console.log('      (legacy-mq un-sticks: the RabbitmqCluster goes, then the namespace controller removes the namespace)');
    console.log(`  ${KUBECTL} --kubeconfig ${kubeconfig} delete namespace kafka --wait=false`);
    console.log(
      '      (what `kubectl-gc simulate ns/kafka` said: the operator goes, the Kafkas and the namespace hang; without\n      --wait=false kubectl would wait for the namespace to go, forever)',
    );
    console.log(`  node dist/cli.js stuck --kubeconfig ${kubeconfig}`);
    console.log(`\nProfile and logs: ${dir} (removed on exit). Ctrl-C stops code-server and the control plane.`);
  } catch (e) {
    await stopAll();
    throw e;
  }
  process.off('SIGINT', abort);
  process.off('SIGTERM', abort);
  await runUntilInterrupted(server, { others: [plane], cleanup });
}

(process.argv.includes('--cluster') ? mainCluster() : main()).catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

// A local Kubernetes control plane built from Kubernetes' own Go modules (test/controlplane): embedded etcd,
// kube-apiserver (client certificates, Node+RBAC) and kube-controller-manager's controllers, in one process.
//
// CLI:
//   npm run --silent control-plane -- start [--controllers=LIST] [--nodes=N] [--v=N] [--apiserver-arg=--FLAG=V ...]
//       builds the binary into .cache/controlplane/ if needed, then runs it. When ready it prints exactly one JSON
//       line on stdout: {"kubeconfig": "<path>", "server": "https://127.0.0.1:<port>"}; everything else (build
//       output, logs) goes to stderr. SIGTERM/SIGINT stops it and removes its temporary directory. Signal this
//       script's process (or the process group): `npm run` passes SIGTERM to a `sh -c` that dies without passing
//       it on, so this script also stops the control plane when it is orphaned, and the binary stops when this
//       script dies (--exit-with-parent).
//       --controllers is kube-controller-manager's flag (default: garbage-collector-controller,
//       namespace-controller, persistentvolumeclaim-protection-controller, persistentvolume-protection-controller,
//       persistentvolume-binder-controller).
//       --nodes=N (default 0) adds kube-scheduler and KWOK with N fake Nodes, so Pods are scheduled, run, become
//       Ready and finish their graceful deletion; `--controllers=* --nodes=N` is the whole cluster.
//   npm run --silent control-plane -- build
//       only builds (needs Go >= the version test/controlplane/go.mod names, and the Go module proxy), together with
//       kubectl from the same modules (.cache/controlplane/kubectl, the server's own version) and KWOK's controller
//       (test/controlplane/kwok, its own module: .cache/controlplane/kube-gc-lens-kwok).
//
// KGL_CONTROLPLANE_CACHE=DIR builds into and runs from DIR instead of .cache/controlplane (to work on the control
// plane without replacing the binaries other runs on this machine use).
//   npm run --silent control-plane -- kubectl ARGS...
//       runs that kubectl (building first if needed), e.g. `-- kubectl --kubeconfig PATH get namespaces`.
//
// SIGUSR2 (to this script or to the binary) compacts etcd at its current revision: resourceVersions and continue
// tokens from before become too old (410 Gone), as on a long-running cluster.
//
// The kubeconfig's contexts: "admin" (current; group system:masters) and "restricted" (reads most kinds, but is
// Forbidden to read secrets and RBAC objects).

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE_DIR = join(REPO, 'test', 'controlplane');
/** KWOK's controller has its own module: KWOK v0.8.0 requires k8s.io v0.36, the control plane v0.37. */
const KWOK_SOURCE_DIR = join(SOURCE_DIR, 'kwok');
export const CACHE_DIR = process.env.KGL_CONTROLPLANE_CACHE
  ? resolve(process.env.KGL_CONTROLPLANE_CACHE)
  : join(REPO, '.cache', 'controlplane');
export const BINARY = join(CACHE_DIR, 'kube-gc-lens-control-plane');
/** kubectl built from the same modules (go.mod's `tool` line), so its version is the server's. */
export const KUBECTL = join(CACHE_DIR, 'kubectl');
/** Started by the control plane with --nodes (it looks next to its own binary). */
export const KWOK = join(CACHE_DIR, 'kube-gc-lens-kwok');
const STAMP = join(CACHE_DIR, 'build.stamp');

/** The k8s.io/kubernetes version go.mod requires, e.g. "v1.37.2". */
export function kubernetesVersion() {
  const gomod = readFileSync(join(SOURCE_DIR, 'go.mod'), 'utf8');
  const m = /^\s*k8s\.io\/kubernetes\s+(v\d+\.\d+\.\d+\S*)/m.exec(gomod);
  if (!m) throw new Error('test/controlplane/go.mod does not require k8s.io/kubernetes');
  return m[1];
}

/**
 * Builds from modules, so `go build` cannot stamp the version the way Kubernetes' Makefile does; without these the
 * server reports v0.0.0-master+$Format:%H$, which kubectl version cannot parse.
 */
function ldflags(version) {
  const [major, minor] = version.replace(/^v/, '').split('.');
  const vars = { gitVersion: version, gitMajor: major, gitMinor: minor, gitTreeState: 'clean' };
  const flags = [];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    for (const [name, value] of Object.entries(vars)) flags.push(`-X ${pkg}.${name}=${value}`);
  }
  return flags.join(' ');
}

function goVersion() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return undefined;
  return r.stdout.trim();
}

function sourceStamp(go, flags) {
  const hash = createHash('sha256');
  hash.update(`${go}\n${flags}\n`);
  for (const [prefix, dir] of [
    ['', SOURCE_DIR],
    ['kwok/', KWOK_SOURCE_DIR],
  ]) {
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.go') || name === 'go.mod' || name === 'go.sum') {
        hash.update(`${prefix}${name}\n`);
        hash.update(readFileSync(join(dir, name)));
      }
    }
  }
  return hash.digest('hex');
}

/** Builds the binary unless the one in .cache/ was built from the same sources, flags and Go. Logs to stderr. */
export function buildControlPlane({ force = false } = {}) {
  const go = goVersion();
  if (!go) {
    const want = /^go\s+(\S+)/m.exec(readFileSync(join(SOURCE_DIR, 'go.mod'), 'utf8'))?.[1];
    throw new Error(`the control plane needs a Go toolchain (go ${want} or newer) on PATH: 'go version' failed`);
  }
  const flags = ldflags(kubernetesVersion());
  const stamp = sourceStamp(go, flags);
  if (!force && [BINARY, KUBECTL, KWOK, STAMP].every((f) => existsSync(f)) && readFileSync(STAMP, 'utf8') === stamp) return BINARY;
  mkdirSync(CACHE_DIR, { recursive: true });
  process.stderr.write(`control-plane: building ${BINARY} (${go}; k8s.io/kubernetes ${kubernetesVersion()})\n`);
  const started = Date.now();
  for (const [output, pkg, cwd, buildFlags] of [
    [BINARY, './', SOURCE_DIR, ['-ldflags', flags]],
    [KUBECTL, 'k8s.io/kubernetes/cmd/kubectl', SOURCE_DIR, ['-ldflags', flags]],
    [KWOK, './', KWOK_SOURCE_DIR, []],
  ]) {
    const r = spawnSync('go', ['build', ...buildFlags, '-o', output, pkg], { cwd, stdio: ['ignore', 2, 2] });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`go build ${pkg} failed (exit ${r.status ?? r.signal})`);
  }
  writeFileSync(STAMP, stamp);
  process.stderr.write(`control-plane: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return BINARY;
}

function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'build') {
    buildControlPlane({ force: rest.includes('--force') });
    return;
  }
  if (command === 'kubectl') {
    buildControlPlane();
    const r = spawnSync(KUBECTL, rest, { stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  if (command !== 'start') {
    process.stderr.write('usage: node scripts/controlPlane.mjs start [--controllers=LIST] [...] | build [--force] | kubectl ARGS...\n');
    process.exit(2);
  }
  const binary = buildControlPlane();
  // stdout is the child's own: the JSON line passes through untouched. --exit-with-parent: the control plane
  // stops and cleans up if this process dies, even by SIGKILL.
  const child = spawn(binary, ['--exit-with-parent', ...rest], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
  }
  // SIGUSR2: compact etcd at its current revision (older resourceVersions and continue tokens get 410 Gone).
  process.on('SIGUSR2', () => child.kill('SIGUSR2'));
  // `npm run` forwards SIGTERM to its `sh -c`, which dies without passing it on: when this process is orphaned,
  // stop the control plane as if signalled. (Killing the process group reaches everything at once.)
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) child.kill('SIGTERM');
  }, 250).unref();
  child.on('error', (err) => {
    process.stderr.write(`control-plane: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`control-plane: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

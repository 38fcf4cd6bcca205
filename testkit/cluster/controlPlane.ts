// The real control plane (test/controlplane: etcd, kube-apiserver and kube-controller-manager's controllers, built
// from Kubernetes' own Go modules; with `nodes`, also kube-scheduler and KWOK's fake Nodes) for tests, started through
// its contract (`scripts/controlPlane.mjs start`), and kubectl built from the same modules. The first build takes
// about 8 minutes (KWOK's module included); later ones reuse Go's build cache.
// Suites that need it skip where `go` is not on PATH (CI and the project's machines have it), saying why.

import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** The repository: two levels above test/helpers, or one above dist/ when bundled (the real-server bench). */
const ROOT =
  [path.resolve(__dirname, '../..'), path.resolve(__dirname, '..')].find((d) => existsSync(path.join(d, 'scripts/controlPlane.mjs'))) ??
  path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/controlPlane.mjs');
/** Where scripts/controlPlane.mjs builds: .cache/controlplane, or KGL_CONTROLPLANE_CACHE when set. */
const CACHE_DIR = process.env.KGL_CONTROLPLANE_CACHE
  ? path.resolve(process.env.KGL_CONTROLPLANE_CACHE)
  : path.join(ROOT, '.cache/controlplane');
/** kubectl from the same modules as the server (scripts/controlPlane.mjs builds it next to the control plane). */
export const KUBECTL = path.join(CACHE_DIR, 'kubectl');

/** Why suites on the real control plane are skipped here, or undefined when they run. */
export const CONTROL_PLANE_SKIP =
  spawnSync('go', ['version']).status === 0
    ? undefined
    : "skipped: `go` is not on PATH, so the control plane (test/controlplane) cannot be built; .ci/run and the project's machines have it";

export interface ControlPlaneOptions {
  /** kube-controller-manager's --controllers (the script's default when absent). */
  controllers?: string;
  /**
   * Fake Nodes (`--nodes`): kube-scheduler and KWOK run too, so Pods are scheduled, Running and Ready, and finish
   * their graceful deletion. With `controllers: '*'` this is the whole cluster.
   */
  nodes?: number;
  /** Extra kube-apiserver flags, e.g. `--watch-cache=false`. */
  apiserverArgs?: string[];
}

export interface ControlPlane {
  kubeconfig: string;
  server: string;
  /** kubectl on this control plane; throws with kubectl's stderr on a non-zero exit. */
  kubectl(args: string[], input?: string): string;
  /** kubectl's whole result, for commands expected to fail. */
  kubectlResult(args: string[], input?: string): SpawnSyncReturns<string>;
  /** Compacts etcd at its current revision: older resourceVersions and continue tokens get 410 Gone. */
  compact(): void;
  /** The last 20,000 characters of the control plane's stderr (logs), for failure messages. */
  logs(): string;
  /** SIGTERM, then waits for the exit (the control plane removes its temporary state). */
  stop(): Promise<void>;
}

/** Starts a control plane (building it first if needed) and resolves when it has printed its JSON line. */
export function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const args = [SCRIPT, 'start'];
  if (options.controllers !== undefined) args.push(`--controllers=${options.controllers}`);
  if (options.nodes !== undefined) args.push(`--nodes=${options.nodes}`);
  for (const a of options.apiserverArgs ?? []) args.push(`--apiserver-arg=${a}`);
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stderr!.on('data', (d) => (logs = (logs + d).slice(-20_000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const { kubeconfig, server } = JSON.parse(out.slice(0, nl)) as { kubeconfig: string; server: string };
      const kubectlResult = (a: string[], input?: string) =>
        spawnSync(KUBECTL, ['--kubeconfig', kubeconfig, ...a], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
      resolve({
        kubeconfig,
        server,
        kubectlResult,
        kubectl(a, input) {
          const r = kubectlResult(a, input);
          if (r.status !== 0) throw new Error(`kubectl ${a.join(' ')}: ${r.stderr}`);
          return r.stdout;
        },
        compact: () => void child.kill('SIGUSR2'),
        logs: () => logs,
        stop() {
          if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
          const exited = new Promise<void>((r) => child.on('exit', () => r()));
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.on('exit', (code) => reject(new Error(`the control plane exited (${code}) before it was ready:\n${logs}`)));
  });
}

/** Waits for something the controllers bring about; bounded by a count of tries, never asserted on time. */
export async function until(what: string, check: () => boolean | Promise<boolean>, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never happened: ${what}`);
}

// The CLI's input when no -f is given: the cluster of the kubeconfig's current (or --context) context, read
// once, metadata only, as a kubectl plugin would. Nothing is ever written (sources/cluster sends GETs only).

import { namespacesNeedingPodSpecs, type DeleteTarget } from '../engine/simulation/podSpecScope';
import { LiveCluster, type LiveStatus } from '../sources/cluster/liveCluster';
import { KubeconfigError, resolveTarget } from '../sources/cluster/kubeconfig';
import type { ApiLimits } from '../sources/cluster/limits';
import { readServerVersion } from '../sources/cluster/serverVersion';
import type { CliInput } from './input';
import { InputError } from './input';

export interface ClusterInputOptions {
  kubeconfig?: string;
  context?: string;
  /** -n: list namespaced resources in this namespace only (cluster-scoped ones are always listed). */
  namespace?: string;
  env: Record<string, string | undefined>;
  stderr: { write(s: string): unknown; isTTY?: boolean };
  /** --request-timeout: the total deadline of each request (0: none); the default of limits.ts when absent. */
  requestTimeoutMs?: number;
  /** Other limits (tests: small caps). */
  limits?: ApiLimits;
}

export interface ClusterInput extends CliInput {
  /** "this preview is incomplete: …" sentences (resources that could not be listed). */
  incomplete: string[];
  context: string;
  /** The cluster's Kubernetes version (`1.33`), when /version answered one. */
  version?: string;
  /** Why the version is not known. */
  problem?: string;
  /**
   * Before simulating: reads in full the Pods the simulation of deleting `targets` can reach in namespaces that
   * hold PersistentVolumeClaims (the metadata-only listing does not say which claims a Pod mounts). Returns an
   * "incomplete" sentence per namespace that could not be read.
   */
  readPodSpecs(targets: DeleteTarget[]): Promise<string[]>;
}

export async function loadCluster(opts: ClusterInputOptions): Promise<ClusterInput> {
  let target;
  try {
    // A terminal user runs kubectl with the same kubeconfig: its exec plugins may run here too.
    target = resolveTarget({ kubeconfig: opts.kubeconfig, context: opts.context, allowExec: true, env: opts.env });
  } catch (e) {
    if (e instanceof KubeconfigError) throw new InputError(`error: ${e.message}`);
    throw e;
  }
  const progress = opts.stderr.isTTY
    ? (s: LiveStatus) => {
        opts.stderr.write(
          `\r\x1b[Klisting ${s.context}: ${s.resources.listed}/${s.resources.total} resource types, ${s.objects.toLocaleString('en-US')} objects`,
        );
      }
    : undefined;
  const live = new LiveCluster({
    target,
    namespaces: opts.namespace ? [opts.namespace] : undefined,
    watch: false,
    limits: { ...opts.limits, ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}) },
    onStatus: progress,
    onChange: progress ? () => undefined : undefined,
  });
  try {
    await live.start();
  } catch (e) {
    throw new InputError(
      `error: cannot read the cluster of context "${target.context}" at ${target.server}: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    if (progress) opts.stderr.write('\r\x1b[K');
    await live.stop();
  }
  // What keeps a Namespace outside ownership (APIServices, webhooks: docs/live-cluster.md), read once something is
  // terminating, so that stuck, check and simulate all see it; the listing's connections are closed, so its own.
  if (live.inventory.terminating.size) await live.readBlockerSpecs(new AbortController().signal);
  const incomplete = live.incompleteNotes();
  // R57: where versions differ, the simulation follows the cluster's own.
  let server;
  try {
    server = await readServerVersion(live.client);
  } finally {
    live.client.close();
  }
  return {
    ...server,
    inventory: live.inventory,
    problems: [],
    files: 0,
    ensureRanges: () => undefined,
    incomplete,
    context: target.context,
    async readPodSpecs(targets) {
      const namespaces = namespacesNeedingPodSpecs(live.inventory, targets);
      if (!namespaces.length) return [];
      // The listing is over (its connections closed): these few GETs get their own.
      try {
        return await live.readPodSpecs(namespaces, new AbortController().signal);
      } finally {
        live.client.close();
      }
    },
  };
}

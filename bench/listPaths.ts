// The two ways of reading a whole cluster that the live-cluster benches compare, on whatever server they are given
// (the API test server: bench/clusterBench.ts; the real kube-apiserver: bench/realServerBench.ts):
//   - ours: LiveCluster (discovery, metadata-only paginated LISTs, the graph built when they are all over; with
//     watches, the editor's connection, else the CLI's one-shot reading),
//   - the peers' (kubectl-tree's): discovery, then a full paginated LIST of every resource in JSON, parsed and built
//     into the same engine graph.
// Both with the same HTTP client (asking for gzip, as client-go does), pages and LISTs in flight. What the server spent
// is the caller's (ServerMeter).

import { buildInventory, type Inventory } from '../server/src/engine/inventory';
import type { KubeObject } from '../server/src/engine/model';
import { ACCEPT_JSON, ApiClient } from '../server/src/sources/cluster/apiClient';
import { collectionPath, discover, forEachLimited, type DiscoveredResource } from '../server/src/sources/cluster/discovery';
import { resolveTarget } from '../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../server/src/sources/cluster/liveCluster';
import { toKubeObject } from '../server/src/sources/cluster/toKubeObject';
import { gc } from './report';

/** The peers' path lists with the same page size (kubectl's --chunk-size default) and as many LISTs in flight as ours. */
export const PAGE_SIZE = 500;
export const CONCURRENCY = 6;

/** The server's side of one run: reset before it, read after it. */
export interface ServerMeter<T> {
  reset(): Promise<void>;
  read(): Promise<T>;
  /** Watch requests the server has answered, where it can tell (then ours also times when every watch is open). */
  watchesOpen?(): Promise<number>;
}

export interface PathRun<T> {
  ms: number;
  /** This process's CPU time for the run (user + system). */
  cpuMs: number;
  /** Response body bytes received on the wire (the client's count; gzip-compressed where the server compressed). */
  bytes: number;
  /** The same bodies decompressed (what was parsed); NaN where not known (kubectl). */
  decodedBytes: number;
  requests: number;
  objects: number;
  ownerReferences: number;
  server: T;
  /** Kept only when the caller compares the graphs. */
  inventory?: Inventory;
  /** The peers' path: its buildInventory (the graph both paths build) at the end. */
  buildMs?: number;
  /** Ours, watching, where the server counts watches: when every watch was open (after the graph was complete). */
  watchesOpenMs?: number;
}

export const edges = (inv: Inventory): number => {
  let n = 0;
  for (const o of inv.objects.values()) n += o.ownerReferences.length;
  return n;
};

/**
 * Ours: LiveCluster as the editor uses it (discovery, metadata-only LISTs, the graph built once they are over, then the
 * watches opened), or, with `watch` false, as the CLI reads a cluster once (the same LISTs but workloads in full, no
 * watches). The time is to the complete graph (start() resolved); with watches, when they were all open is kept too.
 */
export async function ourPath<T>(meter: ServerMeter<T>, kubeconfig: string, keep: boolean, watch = true): Promise<PathRun<T>> {
  await meter.reset();
  gc();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const live = new LiveCluster({ target, rediscoverMs: 0, concurrency: CONCURRENCY, watch });
  await live.start();
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  // Every watch open: the server has answered each resource's watch request (polled, so up to 20 ms late).
  let watchesOpenMs: number | undefined;
  if (watch && meter.watchesOpen) {
    const wanted = live.status().resources.total;
    const until = performance.now() + 60_000;
    while ((await meter.watchesOpen()) < wanted) {
      if (performance.now() > until) throw new Error('the watches did not open within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    watchesOpenMs = performance.now() - t0;
  }
  const server = await meter.read();
  const status = live.status();
  if (status.problems.length) throw new Error(`the live cluster reports problems: ${JSON.stringify(status.problems.slice(0, 3))}`);
  const run: PathRun<T> = {
    ms: elapsed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes: live.client.stats.bytes,
    decodedBytes: live.client.stats.decodedBytes,
    requests: live.client.stats.requests,
    objects: live.inventory.objects.size,
    ownerReferences: edges(live.inventory),
    server,
    ...(keep ? { inventory: live.inventory } : {}),
    ...(watchesOpenMs !== undefined ? { watchesOpenMs } : {}),
  };
  await live.stop();
  return run;
}

/**
 * The peers' (kubectl-tree's): discovery, then a full paginated LIST of every resource, into the same engine graph.
 * `inspect` sees each item as received (an untimed run's: it costs time).
 */
export async function peerPath<T>(
  meter: ServerMeter<T>,
  kubeconfig: string,
  keep: boolean,
  inspect?: (item: Record<string, unknown>, resource: DiscoveredResource) => void,
): Promise<PathRun<T>> {
  await meter.reset();
  gc();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const client = new ApiClient(target);
  try {
    const found = await discover(client);
    const objects: KubeObject[] = [];
    await forEachLimited(found.resources, CONCURRENCY, async (r) => {
      let cont = '';
      do {
        const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
        if (cont) q.set('continue', cont);
        const page = await client.getJson<{ metadata?: { continue?: string }; items?: Record<string, unknown>[] }>(
          `${collectionPath(r)}?${q}`,
          ACCEPT_JSON,
        );
        for (const item of page.items ?? []) {
          inspect?.(item, r);
          const o = toKubeObject(item, r, false, target.context);
          if (o) objects.push(o);
        }
        cont = page.metadata?.continue ?? '';
      } while (cont);
    });
    const b0 = performance.now();
    const inventory = buildInventory(objects, { defaultNamespace: target.namespace });
    const elapsed = performance.now() - t0;
    const buildMs = performance.now() - b0;
    const cpu = process.cpuUsage(c0);
    const server = await meter.read();
    return {
      ms: elapsed,
      cpuMs: (cpu.user + cpu.system) / 1000,
      bytes: client.stats.bytes,
      decodedBytes: client.stats.decodedBytes,
      requests: client.stats.requests,
      objects: inventory.objects.size,
      ownerReferences: edges(inventory),
      server,
      buildMs,
      ...(keep ? { inventory } : {}),
    };
  } finally {
    client.close();
  }
}

/** How many of `reference`'s objects (uids) one of the other graphs lacks. */
export function missingFrom(reference: Inventory, ...others: Inventory[]): number {
  let missing = 0;
  for (const uid of reference.objects.keys()) if (others.some((o) => !o.objects.has(uid))) missing++;
  return missing;
}

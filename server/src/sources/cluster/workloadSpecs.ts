// Workloads read in full on demand. The live graph lists Deployments, StatefulSets and DaemonSets metadata-only, as
// the garbage collector does: their spec matters to one thing only, the container images that help guess which
// workload runs the controller that removes a custom finalizer (engine/simulation/finalizerOwners.ts). So their spec
// is read (GET, paginated full LISTs) only once a custom finalizer has to be attributed: a terminating object whose
// deletion can reach one, or a simulation. What a read gives stays valid while the workload's metadata.generation is
// the same (the API bumps it on every change to the spec), so later metadata-only events keep it, and a workload
// whose spec changed is read again.

import { FinalizerOwners } from '../../engine/simulation/finalizerOwners';
import type { Inventory } from '../../engine/inventory';
import type { KubeObject } from '../../engine/model';
import { ApiError, type ApiClient } from './apiClient';
import { collectionPath, type DiscoveredResource } from './discovery';
import { listInFull } from './podSpecs';

/** `group/resource` of the workloads whose images the finalizer-owner guess reads. */
export const WORKLOAD_RESOURCES = new Set(['apps/deployments', 'apps/statefulsets', 'apps/daemonsets']);

/** With no workload to match, the engine's own table tells a custom finalizer (guessed) from gc and built-in ones. */
const NO_WORKLOADS = new FinalizerOwners(() => []);

/** A finalizer whose remover the engine guesses among the workloads (not gc's, not a built-in controller's). */
export function isCustomFinalizer(f: string): boolean {
  const owner = NO_WORKLOADS.ownerOf(f);
  return owner.type === 'absent' && owner.how === 'unknown';
}

const hasCustom = (o: KubeObject) => o.finalizers.length > 0 && o.finalizers.some(isCustomFinalizer);

/** Some object of the inventory carries a custom finalizer (a simulation may have to attribute it). */
export function anyCustomFinalizer(inventory: Inventory): boolean {
  for (const o of inventory.objects.values()) if (hasCustom(o)) return true;
  return false;
}

/**
 * The stuck list (a simulation of the state as it is) attributes the custom finalizers that the terminating objects
 * carry or can reach: a terminating namespaced object's namespace, a terminating Namespace's content, anything for
 * another cluster-scoped object (the reach of engine/simulation/podSpecScope.ts, conservative and cheap).
 */
export function terminatingReachesCustomFinalizer(inventory: Inventory): boolean {
  if (inventory.terminating.size === 0) return false;
  const reached = new Set<string>();
  for (const uid of inventory.terminating) {
    const o = inventory.objects.get(uid);
    if (!o) continue;
    if (hasCustom(o)) return true;
    if (o.apiVersion === 'v1' && o.kind === 'Namespace') reached.add(o.name);
    else if (o.namespace === '') return anyCustomFinalizer(inventory);
    else reached.add(o.namespace);
  }
  for (const ns of reached) {
    for (const uid of inventory.byNamespace.get(ns) ?? []) if (hasCustom(inventory.objects.get(uid)!)) return true;
  }
  return false;
}

/** Full LISTs of one workload resource (cluster-wide or in one namespace), or of some of its objects by name. */
export async function readWorkloads(
  client: ApiClient,
  resource: DiscoveredResource,
  namespace: string | undefined,
  signal: AbortSignal,
  names?: { namespace: string; name: string }[],
): Promise<unknown[]> {
  if (!names) return listInFull(client, collectionPath(resource, namespace), signal);
  const out: unknown[] = [];
  // By name with a fieldSelector: a LIST, so the same permission as the metadata-only LIST already granted.
  for (const n of names)
    out.push(...(await listInFull(client, collectionPath(resource, n.namespace), signal, { fieldSelector: `metadata.name=${n.name}` })));
  return out;
}

/** "this preview is incomplete: …" for workloads whose spec could not be read. */
export function workloadReadNote(resource: DiscoveredResource, namespace: string | undefined, error: unknown): string {
  const what = `${resource.resource}.${resource.group}${namespace ? ` in ${namespace}` : ''}`;
  const message = error instanceof Error ? error.message : String(error);
  const head =
    error instanceof ApiError && (error.status === 403 || error.status === 401)
      ? `cannot read the ${what} in full`
      : `reading the ${what} in full fails`;
  return `this preview is incomplete: ${head} (${message}), so which workload runs the controller of a custom finalizer is guessed without their container images`;
}

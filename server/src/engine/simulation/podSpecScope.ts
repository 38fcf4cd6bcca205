// Which namespaces' Pod specs a simulation needs when only the Pods' metadata was read (a live cluster is listed
// metadata-only): the pvc-protection controller keeps a claim while a Pod mounts it, and a metadata-only Pod
// does not say which claims it mounts (nor its node or phase). The source that read the metadata reads those
// Pods in full before simulating; this says where, conservatively and cheaply.

import type { Inventory } from '../inventory';

/** What a simulation deletes: a DeleteRequest or an object. `namespace` is "" for cluster-scoped kinds. */
export interface DeleteTarget {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/**
 * Namespaces that hold a PersistentVolumeClaim and a Pod whose spec was not read, and that the simulation of
 * deleting `targets` can reach: a namespaced target's own namespace (its dependents can only be there), a
 * Namespace target's content, every namespace for any other cluster-scoped target; and, for the baseline every
 * simulation is compared with, the namespaces of what is terminating already (every namespace when a
 * cluster-scoped object other than a Namespace is). Sorted.
 */
export function namespacesNeedingPodSpecs(inventory: Inventory, targets: DeleteTarget[]): string[] {
  const claims = new Set<string>();
  for (const pvc of inventory.ofKind('PersistentVolumeClaim')) if (pvc.apiVersion === 'v1') claims.add(pvc.namespace);
  if (claims.size === 0) return [];
  const unread = new Set<string>();
  for (const pod of inventory.ofKind('Pod')) {
    if (pod.apiVersion === 'v1' && pod.facts.specUnread && claims.has(pod.namespace)) unread.add(pod.namespace);
  }
  if (unread.size === 0) return [];
  const reached = new Set<string>();
  let everywhere = false;
  const reach = (o: DeleteTarget) => {
    if (o.apiVersion === 'v1' && o.kind === 'Namespace') reached.add(o.name);
    else if (o.namespace === '') everywhere = true;
    else reached.add(o.namespace);
  };
  for (const t of targets) reach(t);
  for (const uid of inventory.terminating) {
    const o = inventory.objects.get(uid);
    if (o) reach(o);
  }
  return [...unread].filter((ns) => everywhere || reached.has(ns)).sort();
}

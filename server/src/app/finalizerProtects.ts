// What a finalizer was protecting, for the warning of a way out that removes it and of a simulated removal
// (`kubectl gc simulate --remove-finalizer`): a claim's volume, a load balancer, an operator's external state.

import { describe, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type KubeObject } from '../engine/model';
import type { StuckEntry } from '../engine/simulation/types';
import { leftBehind } from './finalizerCatalogueWays';

/** What a finalizer was protecting, when we can tell: said as a warning, never as a certainty. */
export function protectedBy(o: KubeObject, finalizer: string, stuck: Pick<StuckEntry, 'blockedBy'>): string {
  switch (finalizer) {
    case FOREGROUND_FINALIZER:
      return `${describe(o)} goes before its blocking dependents: the garbage collector then deletes them in the background`;
    case ORPHAN_FINALIZER:
      return `${describe(o)} goes without orphaning its dependents: the garbage collector deletes them instead`;
    case 'kubernetes.io/pvc-protection':
      return `a Pod may still use the volume of ${describe(o)}: the claim goes while it is mounted, and its volume may be released or deleted (reclaim policy) with data still in use`;
    case 'kubernetes.io/pv-protection':
      return `${describe(o)} may still be bound to a claim: the volume goes while a claim (and a Pod) may use it`;
    case 'service.kubernetes.io/load-balancer-cleanup':
      return `the cloud load balancer of ${describe(o)} is not deleted: it keeps running (and costing) outside the cluster`;
  }
  // A catalogued finalizer: what its controller would have done, from the catalogue (the CRD's own: data in etcd).
  const known = leftBehind(o, finalizer);
  if (known) return known;
  const controller = stuck.blockedBy.find((r) => r.finalizer === finalizer)?.controller;
  return `what ${controller ?? 'the controller of ' + finalizer} was to clean up for ${describe(o)} (often outside Kubernetes: cloud resources, data, DNS records) is left behind`;
}

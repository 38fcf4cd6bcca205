// How the garbage collector finds the owner an ownerReference names (R34, R42–R46), as
// engine/analysis/analyze.ts checkReference does: map (apiVersion, kind) to a served kind, look the name up in
// the dependent's namespace (namespaced kinds) or cluster-wide, and only then compare the uid. The uid alone
// never finds an owner. Index lookups only: no scan of the inventory.

import type { Inventory } from '../inventory';
import type { KindInfo } from '../kinds/kindRegistry';
import type { KubeObject, OwnerReference } from '../model';

export type OwnerLookup =
  /** The GC resolves the reference: same kind and name where it looks, same uid. */
  | { state: 'found'; owner: KubeObject; info: KindInfo; namespace: string }
  /** Nothing serves the reference's apiVersion/kind: the GC retries the dependent forever (R46). */
  | { state: 'unresolvable-kind' }
  /** A cluster-scoped dependent names a namespaced kind: the GC cannot look it up (R45). */
  | { state: 'invalid-scope'; info: KindInfo }
  /**
   * Not found where the GC looks. `sameName` is what the lookup finds with another uid, `sameUid` the object
   * that holds the uid somewhere else (other namespace, kind or name): neither is this owner to the GC.
   */
  | { state: 'absent'; info: KindInfo; namespace: string; sameName?: KubeObject; sameUid?: KubeObject };

export function lookupOwner(inventory: Inventory, dependent: KubeObject, ref: OwnerReference): OwnerLookup {
  const info = inventory.kinds.restMapping(ref.apiVersion, ref.kind);
  if (!info) return { state: 'unresolvable-kind' };
  const ownKind = inventory.kindOf(dependent);
  if (ownKind && !ownKind.namespaced && info.namespaced) return { state: 'invalid-scope', info };
  const namespace = info.namespaced ? dependent.namespace : '';
  const byName = inventory.find(info.group, info.kind, namespace, ref.name);
  if (byName && byName.uid === ref.uid) return { state: 'found', owner: byName, info, namespace };
  const byUid = inventory.objects.get(ref.uid);
  return { state: 'absent', info, namespace, ...(byName ? { sameName: byName } : {}), ...(byUid ? { sameUid: byUid } : {}) };
}

/** The reference a lens shows: the controller reference if there is one, else the first. */
export function primaryReference(o: KubeObject): number {
  const i = o.ownerReferences.findIndex((r) => r.controller === true);
  return i >= 0 ? i : 0;
}

// How the garbage collector finds the owner an ownerReference names (R34, R42–R46), as
// engine/analysis/analyze.ts checkReference does: map (apiVersion, kind) to a served kind, look the name up in
// the dependent's namespace (namespaced kinds) or cluster-wide, and only then compare the uid. The uid alone
// never finds an owner. Index lookups only: no scan of the inventory.

import type { Inventory } from '../inventory';
import type { KindInfo } from '../kinds/kindRegistry';
import { splitApiVersion, type KubeObject, type OwnerReference } from '../model';

/**
 * `sameUid`, in every state but found: the object that holds the reference's uid under other coordinates (kind,
 * apiVersion, name or namespace). It is not the owner to the GC, but it is the one the reference meant.
 */
export type OwnerLookup =
  /** The GC resolves the reference: same kind and name where it looks, same uid. */
  | { state: 'found'; owner: KubeObject; info: KindInfo; namespace: string }
  /** Nothing serves the reference's apiVersion/kind: the GC retries the dependent forever (R46). */
  | { state: 'unresolvable-kind'; sameUid?: KubeObject }
  /** A cluster-scoped dependent names a namespaced kind: the GC cannot look it up (R45). */
  | { state: 'invalid-scope'; info: KindInfo; sameUid?: KubeObject }
  /** Not found where the GC looks. `sameName` is what the lookup finds with another uid. */
  | { state: 'absent'; info: KindInfo; namespace: string; sameName?: KubeObject; sameUid?: KubeObject };

export function lookupOwner(inventory: Inventory, dependent: KubeObject, ref: OwnerReference): OwnerLookup {
  const byUid = ref.uid ? inventory.objects.get(ref.uid) : undefined;
  const sameUid = byUid && byUid !== dependent ? { sameUid: byUid } : {};
  const info = inventory.kinds.restMapping(ref.apiVersion, ref.kind);
  if (!info) return { state: 'unresolvable-kind', ...sameUid };
  const ownKind = inventory.kindOf(dependent);
  if (ownKind && !ownKind.namespaced && info.namespaced) return { state: 'invalid-scope', info, ...sameUid };
  const namespace = info.namespaced ? dependent.namespace : '';
  const byName = inventory.find(info.group, info.kind, namespace, ref.name);
  if (byName && byName.uid === ref.uid) return { state: 'found', owner: byName, info, namespace };
  return { state: 'absent', info, namespace, ...(byName ? { sameName: byName } : {}), ...(byUid ? { sameUid: byUid } : {}) };
}

/**
 * How a reference's coordinates differ from those of `holder`, the object with its uid, as the GC would need
 * them to find it: "kind daemonset, not DaemonSet (kinds are case-sensitive)", "name web-old, not web",
 * "namespace shop, not storefront". `holderNamespaced`: whether the holder's kind is namespaced (undefined: unknown).
 */
export function coordinateDifferences(
  ref: OwnerReference,
  dependent: KubeObject,
  holder: KubeObject,
  holderNamespaced: boolean | undefined,
): string[] {
  const out: string[] = [];
  const refGroup = splitApiVersion(ref.apiVersion).group;
  const holderGroup = splitApiVersion(holder.apiVersion).group;
  if (refGroup !== holderGroup) {
    const caseOnly = refGroup.toLowerCase() === holderGroup.toLowerCase() ? ' (groups are case-sensitive)' : '';
    out.push(`apiVersion ${ref.apiVersion || '(none)'}, not ${holder.apiVersion}${caseOnly}`);
  }
  if (ref.kind !== holder.kind) {
    const caseOnly = ref.kind.toLowerCase() === holder.kind.toLowerCase() ? ' (kinds are case-sensitive)' : '';
    out.push(`kind ${ref.kind || '(none)'}, not ${holder.kind}${caseOnly}`);
  }
  if (ref.name !== holder.name) out.push(`name ${ref.name || '(none)'}, not ${holder.name}`);
  if (holderNamespaced && holder.namespace !== dependent.namespace) {
    out.push(`namespace: the GC looks in ${dependent.namespace || 'no namespace'}, the object is in ${holder.namespace}`);
  }
  return out;
}

/**
 * The reference with its apiVersion and kind written as `holder`'s when they differ only in case (the quick fix
 * of `kind: daemonset`); undefined when anything else differs or nothing does.
 */
export function caseCorrectedReference(ref: OwnerReference, holder: KubeObject): OwnerReference | undefined {
  if (ref.uid !== holder.uid || ref.name !== holder.name) return undefined;
  if (ref.kind.toLowerCase() !== holder.kind.toLowerCase() || ref.apiVersion.toLowerCase() !== holder.apiVersion.toLowerCase()) {
    return undefined;
  }
  if (ref.kind === holder.kind && ref.apiVersion === holder.apiVersion) return undefined;
  return { ...ref, apiVersion: holder.apiVersion, kind: holder.kind };
}

/** The reference a lens shows: the controller reference if there is one, else the first. */
export function primaryReference(o: KubeObject): number {
  const i = o.ownerReferences.findIndex((r) => r.controller === true);
  return i >= 0 ? i : 0;
}

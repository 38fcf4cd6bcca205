// What the GC has work for at start (R53.2–3), computed once per inventory version: terminating objects,
// virtual owners, references whose owner is in another namespace or has other coordinates. Everything
// else is a settled component the GC would leave alone until a deletion reaches it.

import { referenceMatches } from '../graph/graphNode';
import type { Inventory } from '../inventory';
import { FinalizerOwners } from './finalizerOwners';
import type { FinalizerOwnerRule } from './types';

export interface StartState {
  /** Uids whose components must be in the GC's graph from the start. */
  seeds: string[];
  /** Objects whose kind nothing serves: a real apiserver could not hold them (R54). */
  excluded: Set<string>;
  /** "namespace\u0000claim" → uids of the Pods that mount it. */
  claimUsers: Map<string, string[]>;
  /** Finalizer owners per configuration (JSON of the rules), built once per inventory version. */
  finalizerOwners: Map<string, FinalizerOwners>;
  /** The connected component (ownership links, both directions) of every uid in the graph. */
  componentOf: (uid: string) => readonly string[];
}

const cache = new WeakMap<Inventory, { version: number; state: StartState }>();

export function startState(inventory: Inventory): StartState {
  const hit = cache.get(inventory);
  if (hit && hit.version === inventory.version) return hit.state;
  const seeds = new Set<string>(inventory.terminating);
  const excluded = new Set<string>();
  const watched = new Map<string, boolean>();
  const isWatched = (apiVersion: string, kind: string) => {
    const key = `${apiVersion} ${kind}`;
    let w = watched.get(key);
    if (w === undefined) watched.set(key, (w = inventory.kindOf({ apiVersion, kind })?.gcWatched ?? false));
    return w;
  };
  for (const o of inventory.objects.values()) {
    if (!inventory.kindOf(o)) excluded.add(o.uid);
  }
  for (const node of inventory.graph.nodes.values()) {
    if (node.virtual) {
      seeds.add(node.identity.uid);
      continue;
    }
    for (const ref of node.owners) {
      const owner = inventory.graph.get(ref.uid);
      if (!owner) continue;
      const ownerObject = inventory.objects.get(ref.uid);
      const mismatch =
        (owner.identity.namespace !== '' && owner.identity.namespace !== node.identity.namespace) ||
        !referenceMatches(ref, owner.identity) ||
        !ownerObject || excluded.has(ref.uid) || !isWatched(ownerObject.apiVersion, ownerObject.kind);
      if (mismatch) {
        seeds.add(node.identity.uid);
        break;
      }
    }
  }
  const claimUsers = new Map<string, string[]>();
  for (const pod of inventory.ofKind('Pod')) {
    for (const c of pod.facts.claimNames ?? []) {
      const key = `${pod.namespace}\u0000${c}`;
      const list = claimUsers.get(key);
      if (list) list.push(pod.uid);
      else claimUsers.set(key, [pod.uid]);
    }
  }
  const state = { seeds: [...seeds], excluded, claimUsers, finalizerOwners: new Map(), componentOf: components(inventory) };
  cache.set(inventory, { version: inventory.version, state });
  return state;
}

/** Who removes which finalizer, for these rules; cached with the start state (it scores every workload). */
export function finalizerOwnersFor(inventory: Inventory, rules: FinalizerOwnerRule[] = []): FinalizerOwners {
  const state = startState(inventory);
  const key = JSON.stringify(rules);
  let owners = state.finalizerOwners.get(key);
  if (!owners) state.finalizerOwners.set(key, (owners = new FinalizerOwners((kind) => inventory.ofKind(kind), rules)));
  return owners;
}

/** Components of the static ownership graph, by union-find: computed once, looked up per write. */
function components(inventory: Inventory): (uid: string) => readonly string[] {
  const parent = new Map<string, string>();
  const find = (u: string): string => {
    let root = u;
    for (let p = parent.get(root); p !== undefined && p !== root; p = parent.get(root)) root = p;
    for (let cur = u, p = parent.get(cur); p !== undefined && p !== root; cur = p, p = parent.get(cur)) parent.set(cur, root);
    return root;
  };
  for (const node of inventory.graph.nodes.values()) {
    const uid = node.identity.uid;
    if (!parent.has(uid)) parent.set(uid, uid);
    for (const ref of node.owners) {
      if (!parent.has(ref.uid)) parent.set(ref.uid, ref.uid);
      const a = find(uid);
      const b = find(ref.uid);
      if (a !== b) parent.set(a, b);
    }
  }
  const members = new Map<string, string[]>();
  for (const uid of parent.keys()) {
    const root = find(uid);
    const list = members.get(root);
    if (list) list.push(uid);
    else members.set(root, [uid]);
  }
  return (uid) => (parent.has(uid) ? members.get(find(uid))! : [uid]);
}

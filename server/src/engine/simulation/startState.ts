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
  /** The PersistentVolumes, for the PV controller (built on first use). */
  volumes: () => VolumeIndex;
}

export interface VolumeIndex {
  /** "namespace\u0000claim" → the uids of the (v1) PersistentVolumes whose claimRef names it. */
  byClaim: Map<string, string[]>;
  /** PersistentVolume uid → its input order. */
  order: Map<string, number>;
  /** Released, or Bound to a claim that is not there: the only volumes the PV controller's first sync changes (R60). */
  unsettled: string[];
}

const cache = new WeakMap<Inventory, { version: number; state: StartState }>();

export function startState(inventory: Inventory): StartState {
  const hit = cache.get(inventory);
  if (hit && hit.version === inventory.version) return hit.state;
  // In the order a Set of them would keep, without the Set (200,000 seeds when every owner is missing).
  const seeds = [...inventory.terminating];
  const seed = (uid: string) => {
    if (!inventory.terminating.has(uid)) seeds.push(uid);
  };
  const excluded = new Set<string>();
  // apiVersion → kind → watched by the GC: no key string to build per reference.
  const watched = new Map<string, Map<string, boolean>>();
  const isWatched = (apiVersion: string, kind: string) => {
    let byKind = watched.get(apiVersion);
    if (!byKind) watched.set(apiVersion, (byKind = new Map()));
    let w = byKind.get(kind);
    if (w === undefined) byKind.set(kind, (w = inventory.kindOf({ apiVersion, kind })?.gcWatched ?? false));
    return w;
  };
  for (const o of inventory.objects.values()) {
    if (!inventory.kindOf(o)) excluded.add(o.uid);
  }
  for (const node of inventory.graph.nodes.values()) {
    if (node.virtual) {
      seed(node.identity.uid);
      continue;
    }
    for (const ref of node.owners) {
      const owner = inventory.graph.get(ref.uid);
      if (!owner) continue;
      const ownerObject = inventory.objects.get(ref.uid);
      const mismatch =
        (owner.identity.namespace !== '' && owner.identity.namespace !== node.identity.namespace) ||
        !referenceMatches(ref, owner.identity) ||
        !ownerObject ||
        excluded.has(ref.uid) ||
        !isWatched(ownerObject.apiVersion, ownerObject.kind);
      if (mismatch) {
        seed(node.identity.uid);
        break;
      }
    }
  }
  const claimUsers = new Map<string, string[]>();
  for (const pod of inventory.ofKind('Pod')) {
    // R59: an ephemeral volume's claim is named `<pod>-<volume>`.
    const ephemeral = pod.facts.ephemeralVolumes?.map((v) => `${pod.name}-${v}`) ?? [];
    for (const c of [...(pod.facts.claimNames ?? []), ...ephemeral]) {
      const key = `${pod.namespace}\u0000${c}`;
      const list = claimUsers.get(key);
      if (list) list.push(pod.uid);
      else claimUsers.set(key, [pod.uid]);
    }
  }
  let volumes: VolumeIndex | undefined;
  const state = {
    seeds,
    excluded,
    claimUsers,
    finalizerOwners: new Map(),
    componentOf: components(inventory),
    volumes: () => (volumes ??= volumeIndex(inventory, excluded)),
  };
  cache.set(inventory, { version: inventory.version, state });
  return state;
}

function volumeIndex(inventory: Inventory, excluded: Set<string>): VolumeIndex {
  const index: VolumeIndex = { byClaim: new Map(), order: new Map(), unsettled: [] };
  for (const pv of inventory.ofKind('PersistentVolume')) {
    if (pv.apiVersion !== 'v1' || excluded.has(pv.uid)) continue;
    index.order.set(pv.uid, index.order.size);
    const ref = pv.facts.claimRef;
    if (ref) {
      const key = `${ref.namespace}\u0000${ref.name}`;
      const list = index.byClaim.get(key);
      if (list) list.push(pv.uid);
      else index.byClaim.set(key, [pv.uid]);
    }
    if (pv.facts.phase === 'Released') {
      index.unsettled.push(pv.uid);
    } else if (pv.facts.phase === 'Bound' && ref) {
      const claim = inventory.find('', 'PersistentVolumeClaim', ref.namespace, ref.name);
      if (!claim || excluded.has(claim.uid) || (ref.uid && ref.uid !== claim.uid)) index.unsettled.push(pv.uid);
    }
  }
  return index;
}

/** Who removes which finalizer, for these rules; cached with the start state (it scores every workload). */
export function finalizerOwnersFor(
  inventory: Inventory,
  rules: FinalizerOwnerRule[] = [],
  hint?: string,
  trustGuesses = true,
): FinalizerOwners {
  const state = startState(inventory);
  const hinted = hint === undefined ? JSON.stringify(rules) : `${JSON.stringify(rules)}\u0000${hint}`;
  const key = trustGuesses ? hinted : `${hinted}\u0000untrusted`;
  let owners = state.finalizerOwners.get(key);
  if (!owners) state.finalizerOwners.set(key, (owners = new FinalizerOwners((kind) => inventory.ofKind(kind), rules, hint, trustGuesses)));
  return owners;
}

/**
 * Connected components of the static ownership graph (owners and dependents), found by a walk from the uid
 * asked for and remembered for every member: a simulation only asks for the components it touches, so this
 * costs what the simulation reaches, not the size of the input. Members are listed in the graph's order.
 */
function components(inventory: Inventory): (uid: string) => readonly string[] {
  const graph = inventory.graph;
  const memo = new Map<string, string[]>();
  return (uid) => {
    const hit = memo.get(uid);
    if (hit) return hit;
    if (!graph.get(uid)) return [uid];
    const seen = new Set<string>([uid]);
    const todo = [uid];
    while (todo.length) {
      const node = graph.get(todo.pop()!);
      if (!node) continue;
      for (const r of node.owners)
        if (!seen.has(r.uid)) {
          seen.add(r.uid);
          todo.push(r.uid);
        }
      for (const d of node.dependents)
        if (!seen.has(d.identity.uid)) {
          seen.add(d.identity.uid);
          todo.push(d.identity.uid);
        }
    }
    const members = graph.inOrder(seen);
    for (const m of members) memo.set(m, members);
    return members;
  };
}

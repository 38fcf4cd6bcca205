// What the GC has work for at start (R53.2–3), computed once per inventory version: terminating objects,
// virtual owners, references whose owner is in another namespace or has other coordinates. Everything
// else is a settled component the GC would leave alone until a deletion reaches it.

import { referenceMatches } from '../graph/graphNode';
import type { Inventory } from '../inventory';

export interface StartState {
  /** Uids whose components must be in the GC's graph from the start. */
  seeds: string[];
  /** Objects whose kind nothing serves: a real apiserver could not hold them (R54). */
  excluded: Set<string>;
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
  const state = { seeds: [...seeds], excluded };
  cache.set(inventory, { version: inventory.version, state });
  return state;
}

// The stuck cause in short, for the summary line: the end of a stuck object's why-chain (engine/simulation/explain.ts),
// read from its structure (the reason's type, finalizer, controller and the object it names), never from its words.
// "finalizer deadlock: Deployment kafka/strimzi-cluster-operator, whose controller removes kafka.strimzi.io/finalizer, is deleted first".

import { describe } from '../engine/model';
import type { BlockReason } from '../engine/simulation/types';
import { shortReason } from './impact';

/** What the simulation knows of the objects a why-chain names. */
export interface ChainContext {
  /** uids removed during the simulation. */
  deleted: ReadonlySet<string>;
  /** uids terminating at the end (stuck). */
  stuck: ReadonlySet<string>;
  /** uids of workloads at 0 replicas at the end (as given, or scaled by a request). */
  scaledToZero?: ReadonlySet<string>;
}

/** The first cause at the end of `reasons` (depth first), in a few words; undefined when there is none. */
export function stuckCause(reasons: readonly BlockReason[], context: ChainContext): string | undefined {
  const leaf = firstLeaf(reasons, undefined, 0);
  if (!leaf) return undefined;
  const { reason, parent } = leaf;
  if (reason.type === 'finalizer' && reason.finalizer !== undefined) {
    const f = reason.finalizer;
    const w = reason.object;
    if (w && reason.controller !== undefined) {
      const remover = `${describe(w)}, whose controller removes ${f},`;
      if (context.deleted.has(w.uid)) return `finalizer deadlock: ${remover} is deleted first`;
      if (context.stuck.has(w.uid)) return `${remover} is being deleted`;
      if (context.scaledToZero?.has(w.uid)) return `${remover} is scaled to 0 replicas`;
      // It is still there but not running: its Pods went first with its namespace.
      return `finalizer deadlock: ${remover} stops first, its Pods deleted with the namespace`;
    }
    if (reason.controller !== undefined) return `${f} is removed by ${reason.controller}, which does not run`;
    if (!w) return `nobody removes ${f}`;
  }
  // An object named without a reason of its own ("… is still in the namespace"): its holder's reason says more.
  if (reason.object && reason.controller === undefined && parent) return shortReason(parent);
  return shortReason(reason);
}

function firstLeaf(
  reasons: readonly BlockReason[],
  parent: BlockReason | undefined,
  depth: number,
): { reason: BlockReason; parent?: BlockReason } | undefined {
  const r = reasons[0];
  if (!r) return undefined;
  if (r.blockedBy?.length && depth < 12) return firstLeaf(r.blockedBy, r, depth + 1);
  return { reason: r, ...(parent ? { parent } : {}) };
}

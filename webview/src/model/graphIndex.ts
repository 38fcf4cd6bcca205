// The graph the host sent, indexed: nodes by uid, owner and dependent edges per node, connected components.
// Pure (no DOM): unit-tested in test/webview.

import type { GraphData, GraphEdgeData, GraphNodeData } from './protocolTypes';

export interface GraphIndex {
  readonly nodes: ReadonlyMap<string, GraphNodeData>;
  /** Uids in the order the host sent them (the engine's order): every tie is broken by it. */
  readonly order: readonly string[];
  readonly position: ReadonlyMap<string, number>;
  /** Dependent uid → its edges to owners that are in the graph. */
  readonly owners: ReadonlyMap<string, readonly GraphEdgeData[]>;
  /** Owner uid → the edges of its dependents that are in the graph. */
  readonly dependents: ReadonlyMap<string, readonly GraphEdgeData[]>;
  /** Uid → its connected component's number (ownership edges taken both ways). */
  readonly component: ReadonlyMap<string, number>;
}

const NONE: readonly GraphEdgeData[] = [];

export function indexGraph(graph: GraphData): GraphIndex {
  const nodes = new Map<string, GraphNodeData>();
  const order: string[] = [];
  const position = new Map<string, number>();
  for (const n of graph.nodes) {
    if (nodes.has(n.uid)) continue; // a duplicate uid: the first wins
    position.set(n.uid, order.length);
    nodes.set(n.uid, n);
    order.push(n.uid);
  }
  const owners = new Map<string, GraphEdgeData[]>();
  const dependents = new Map<string, GraphEdgeData[]>();
  const seen = new Set<string>();
  for (const e of graph.edges) {
    // Edges to objects outside the graph (a focused subset) are dropped; so are repeated references.
    if (!nodes.has(e.from) || !nodes.has(e.to)) continue;
    const key = `${e.from}\u0000${e.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    push(owners, e.from, e);
    push(dependents, e.to, e);
  }
  return { nodes, order, position, owners, dependents, component: components(order, owners, dependents) };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function components(order: string[], owners: Map<string, GraphEdgeData[]>, dependents: Map<string, GraphEdgeData[]>): Map<string, number> {
  const out = new Map<string, number>();
  let next = 0;
  for (const start of order) {
    if (out.has(start)) continue;
    const id = next++;
    const stack = [start];
    out.set(start, id);
    while (stack.length) {
      const uid = stack.pop()!;
      for (const e of owners.get(uid) ?? NONE)
        if (!out.has(e.to)) {
          out.set(e.to, id);
          stack.push(e.to);
        }
      for (const e of dependents.get(uid) ?? NONE)
        if (!out.has(e.from)) {
          out.set(e.from, id);
          stack.push(e.from);
        }
    }
  }
  return out;
}

export function ownersOf(index: GraphIndex, uid: string): readonly GraphEdgeData[] {
  return index.owners.get(uid) ?? NONE;
}

export function dependentsOf(index: GraphIndex, uid: string): readonly GraphEdgeData[] {
  return index.dependents.get(uid) ?? NONE;
}

/** The uids of the connected components of `uids` (those in the graph). */
export function componentsOf(index: GraphIndex, uids: Iterable<string>): Set<string> {
  const wanted = new Set<number>();
  for (const uid of uids) {
    const c = index.component.get(uid);
    if (c !== undefined) wanted.add(c);
  }
  const out = new Set<string>();
  if (wanted.size === 0) return out;
  for (const uid of index.order) if (wanted.has(index.component.get(uid)!)) out.add(uid);
  return out;
}

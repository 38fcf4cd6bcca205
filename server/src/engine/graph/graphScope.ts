// Which part of an ownership graph to show (kubeGcLens/graph and kubeGcLens/cluster/graph with `uid`, `namespace`,
// `limit`): one object's connected component, or one namespace's objects with their neighbours outside it, or all of
// it; at most `limit` nodes, chosen so that a cut keeps the top of each ownership tree (or what is nearest the focused
// object) and says how much was left out. Pure: an inventory in, uids out.

import type { Inventory } from '../inventory';
import type { GraphNode } from './graphNode';

export interface GraphScopeOptions {
  /** Only this object's connected component (`namespace` is then ignored). */
  uid?: string;
  /** Only this namespace's objects ("" for the cluster-scoped ones), their owners and dependents, and the Namespace. */
  namespace?: string;
  /** At most this many nodes (a positive integer; anything else is no limit). */
  limit?: number;
}

/** How many of a node's links lead outside the selection. */
export interface OmittedLinks {
  /** Owners it names that are not selected. */
  owners: number;
  /** Dependents that are not selected. */
  dependents: number;
}

export interface GraphSelection {
  /** The graph nodes to show, in the order to list them. */
  uids: string[];
  /** How many nodes the scope holds: `uids.length`, unless the limit cut it. */
  total: number;
  /** Selected nodes that have owners or dependents outside the selection (scope boundaries and cuts). */
  omitted: Map<string, OmittedLinks>;
}

const byOrder = (a: GraphNode, b: GraphNode) => a.order - b.order;

/** The owner nodes of `n` that exist in the graph, each once, in reference order. */
function ownerNodes(inv: Inventory, n: GraphNode): GraphNode[] {
  const out: GraphNode[] = [];
  for (const r of n.owners) {
    const o = inv.graph.get(r.uid);
    if (o && !out.includes(o)) out.push(o);
  }
  return out;
}

/** The nodes of a scope (before any limit) in graph order. */
function scopeNodes(inv: Inventory, opts: GraphScopeOptions): GraphNode[] {
  const graph = inv.graph;
  if (opts.uid !== undefined) {
    const start = graph.get(opts.uid);
    if (!start) return [];
    const seen = new Set<GraphNode>([start]);
    const stack = [start];
    while (stack.length) {
      const n = stack.pop()!;
      for (const o of ownerNodes(inv, n))
        if (!seen.has(o)) {
          seen.add(o);
          stack.push(o);
        }
      for (const d of n.dependents)
        if (!seen.has(d)) {
          seen.add(d);
          stack.push(d);
        }
    }
    return [...seen].sort(byOrder);
  }
  if (opts.namespace === undefined) return [...graph.nodes.values()];
  const ns = opts.namespace;
  const picked = new Set<GraphNode>();
  for (const uid of inv.byNamespace.get(ns) ?? []) {
    const n = graph.get(uid);
    if (!n) continue;
    picked.add(n);
  }
  // Virtual owners referenced from the namespace carry its namespace; they are neighbours below anyway.
  for (const n of [...picked]) {
    for (const o of ownerNodes(inv, n)) picked.add(o);
    for (const d of n.dependents) picked.add(d);
  }
  if (ns !== '') {
    const namespaceObject = inv.find('', 'Namespace', '', ns);
    const n = namespaceObject && graph.get(namespaceObject.uid);
    if (n) picked.add(n);
  }
  return [...picked].sort(byOrder);
}

/**
 * The order a cut follows. From a focused object: breadth first over owners and dependents (owners first at each
 * step), so what is nearest it stays. Otherwise: breadth first from the objects without owners in the scope, along
 * dependents, so every tree keeps its top (Deployments, then ReplicaSets, then Pods); objects caught in ownership
 * cycles with no such root after them; objects with neither owners nor dependents in the scope last.
 */
function cutOrder(inv: Inventory, nodes: GraphNode[], focus: GraphNode | undefined): GraphNode[] {
  const inScope = new Set(nodes);
  const owners = (n: GraphNode) => ownerNodes(inv, n).filter((o) => inScope.has(o));
  const dependents = (n: GraphNode) => [...n.dependents].filter((d) => inScope.has(d)).sort(byOrder);
  const order: GraphNode[] = [];
  const seen = new Set<GraphNode>();
  const walk = (starts: GraphNode[], next: (n: GraphNode) => GraphNode[]) => {
    const queue: GraphNode[] = [];
    for (const s of starts)
      if (!seen.has(s)) {
        seen.add(s);
        queue.push(s);
      }
    for (let i = 0; i < queue.length; i++) {
      order.push(queue[i]);
      for (const m of next(queue[i]))
        if (!seen.has(m)) {
          seen.add(m);
          queue.push(m);
        }
    }
  };
  if (focus) {
    walk([focus], (n) => [...owners(n), ...dependents(n)]);
    return order;
  }
  const isolated = new Set<GraphNode>();
  const roots: GraphNode[] = [];
  for (const n of nodes) {
    const hasOwner = owners(n).length > 0;
    if (!hasOwner && ![...n.dependents].some((d) => inScope.has(d))) isolated.add(n);
    else if (!hasOwner) roots.push(n);
  }
  walk(roots, dependents);
  for (const n of nodes) if (!seen.has(n) && !isolated.has(n)) walk([n], dependents);
  walk([...isolated], () => []);
  return order;
}

/** The nodes to show for a scope and limit, with how many the scope holds and the links each leaves out. */
export function selectGraph(inv: Inventory, opts: GraphScopeOptions = {}): GraphSelection {
  const limit = typeof opts.limit === 'number' && Number.isInteger(opts.limit) && opts.limit > 0 ? opts.limit : undefined;
  const nodes = scopeNodes(inv, opts);
  const total = nodes.length;
  let chosen = nodes;
  if (limit !== undefined && total > limit) {
    const focus = opts.uid !== undefined ? inv.graph.get(opts.uid) : undefined;
    chosen = cutOrder(inv, nodes, focus).slice(0, limit);
  }
  const omitted = new Map<string, OmittedLinks>();
  // The whole graph, uncut, leaves nothing out.
  if (opts.uid !== undefined || opts.namespace !== undefined || chosen.length < total) {
    const selected = new Set(chosen);
    for (const n of chosen) {
      let ownersOut = 0;
      for (const o of ownerNodes(inv, n)) if (!selected.has(o)) ownersOut++;
      let dependentsOut = 0;
      for (const d of n.dependents) if (!selected.has(d)) dependentsOut++;
      if (ownersOut || dependentsOut) omitted.set(n.identity.uid, { owners: ownersOut, dependents: dependentsOut });
    }
  }
  return { uids: chosen.map((n) => n.identity.uid), total, omitted };
}

export interface NamespaceCount {
  /** "" for the cluster-scoped objects. */
  namespace: string;
  objects: number;
}

/**
 * Objects per namespace ("" holds the cluster-scoped ones), the largest first, then by name; namespaces that exist as
 * Namespace objects but hold nothing are listed with 0.
 */
export function namespaceCounts(inv: Inventory): { objects: number; namespaces: NamespaceCount[] } {
  const counts = new Map<string, number>();
  for (const [ns, uids] of inv.byNamespace) if (uids.size) counts.set(ns, uids.size);
  for (const o of inv.ofKind('Namespace')) if (o.apiVersion === 'v1' && o.namespace === '' && !counts.has(o.name)) counts.set(o.name, 0);
  const namespaces = [...counts]
    .map(([namespace, objects]) => ({ namespace, objects }))
    .sort((a, b) => b.objects - a.objects || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
  return { objects: inv.objects.size, namespaces };
}

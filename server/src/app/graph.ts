// The ownership graph a front end draws: a scope of an inventory, with each object's findings and why it is stuck.

import type { Finding } from '../engine/analysis/findingTypes';
import type { Inventory } from '../engine/inventory';
import { namespaceCounts, selectGraph, type GraphScopeOptions, type GraphSelection } from '../engine/graph/graphScope';
import type { GraphData, GraphEdgeData, GraphNodeData, GraphParams, GraphSummary } from '../../../shared/src/protocol';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { locationOf } from './objects';
import type { SimulationSettings } from './simulationCache';
import { terminatingItems } from './stuck';

/** A request's GraphParams (validated at the boundary: customRequests.ts) as the engine's scope; an empty uid is no focus. */
export function graphScopeOf(p: GraphParams): GraphScopeOptions {
  return {
    ...(p.uid ? { uid: p.uid } : {}),
    ...(p.namespace !== undefined ? { namespace: p.namespace } : {}),
    ...(p.limit !== undefined ? { limit: p.limit } : {}),
  };
}

/**
 * The ownership graph of an inventory (the workspace's or the live cluster's) for a selection (engine/graph/graphScope:
 * whole, one object's connected component, one namespace; cut at a limit), with the findings on each object and, for
 * objects that cannot finish being deleted, why (`stuck`). Only edges between selected nodes are sent; a node with
 * links outside the selection says how many (`omitted`), and a cut answer says so (`truncated`).
 */
export function graphData(
  inventory: Inventory,
  selection: GraphSelection,
  findings: Iterable<Finding>,
  stuck: ReadonlyMap<string, string> = new Map(),
): GraphData {
  const graph = inventory.graph;
  const findingsByUid = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = findingsByUid.get(f.object.uid);
    if (list) list.push(f);
    else findingsByUid.set(f.object.uid, [f]);
  }
  const shown = new Set(selection.uids);
  const nodes: GraphNodeData[] = [];
  const edges: GraphEdgeData[] = [];
  for (const uid of selection.uids) {
    const node = graph.get(uid);
    if (!node) continue;
    const o = inventory.objects.get(uid);
    const own = findingsByUid.get(uid) ?? [];
    const why = stuck.get(uid);
    const omitted = selection.omitted.get(uid);
    nodes.push({
      ...node.identity,
      state: node.virtual ? 'virtual' : node.deletingDependents ? 'deleting-dependents' : node.beingDeleted ? 'being-deleted' : 'present',
      finalizers: o ? [...o.finalizers] : [],
      findings: [...new Set(own.map((f) => f.code))],
      location: locationOf(o),
      ...(why !== undefined ? { stuck: why } : {}),
      ...(own.length ? { findingMessages: own.map((f) => ({ code: f.code, message: f.message })) } : {}),
      ...(omitted ? { omitted: { ...omitted } } : {}),
    });
    for (const r of node.owners) {
      if (!shown.has(r.uid)) continue;
      edges.push({ from: uid, to: r.uid, controller: r.controller === true, blockOwnerDeletion: r.blockOwnerDeletion === true });
    }
  }
  return { nodes, edges, ...(nodes.length < selection.total ? { truncated: { shown: nodes.length, total: selection.total } } : {}) };
}

/** The workspace's graph: its findings, and the stuck reasons of the objects terminating now that cannot finish. */
export function workspaceGraph(model: WorkspaceModel, options: SimulationSettings, scope: GraphScopeOptions = {}): GraphData {
  const findings = model.allFindings();
  const stuck = new Map<string, string>();
  if (model.inventory.terminating.size)
    for (const item of terminatingItems(model.inventory, options, undefined)) stuck.set(item.uid, item.reason);
  return graphData(model.inventory, selectGraph(model.inventory, scope), findings, stuck);
}

/** Objects per namespace (kubeGcLens/cluster/graphSummary). */
export function graphSummary(inventory: Inventory): GraphSummary {
  return namespaceCounts(inventory);
}

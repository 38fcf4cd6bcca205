// The ownership graph a front end draws: a scope of an inventory, with each object's findings and why it is stuck.

import type { Finding } from '../engine/analysis/findingTypes';
import type { Inventory } from '../engine/inventory';
import { namespaceCounts, selectGraph, type GraphScopeOptions, type GraphSelection } from '../engine/graph/graphScope';
import type {
  BlockReason,
  GraphData,
  GraphEdgeData,
  GraphNodeData,
  GraphParams,
  GraphSummary,
  StuckItem,
} from '../../../shared/src/protocol';
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

/** Why each object that cannot finish being deleted is stuck: its one sentence and its why-chain. */
export type StuckNotes = ReadonlyMap<string, { reason: string; blockedBy: readonly BlockReason[] }>;

/** The stuck items (app/stuck.ts) by uid, for graphData. */
export function stuckNotes(items: Iterable<StuckItem>): Map<string, { reason: string; blockedBy: readonly BlockReason[] }> {
  const out = new Map<string, { reason: string; blockedBy: readonly BlockReason[] }>();
  for (const item of items) out.set(item.uid, { reason: item.reason, blockedBy: item.blockedBy });
  return out;
}

/** At most this many blockers per node (a why-chain rarely names more than a few). */
const MAX_BLOCKERS = 50;

/** The objects a why-chain names (a blocking dependent, the workload of a finalizer's controller…), each once. */
export function blockerUids(self: string, chain: readonly BlockReason[]): string[] {
  const out = new Set<string>();
  const walk = (list: readonly BlockReason[]): void => {
    for (const r of list) {
      if (out.size >= MAX_BLOCKERS) return;
      if (r.object?.uid && r.object.uid !== self) out.add(r.object.uid);
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  walk(chain);
  return [...out];
}

/** At most this many blockers are added to a namespace's graph. */
const MAX_ADDED_BLOCKERS = 200;

/**
 * A graph selection (engine/graph/graphScope) and, for a namespace's scope, the objects outside it that the why-chains
 * of its stuck objects name (the operator whose finalizer a stuck object waits for, in its own namespace): so that
 * Show in Graph on a Namespace shows what blocks it, on a live cluster too. Other scopes are returned as they are.
 */
export function selectWithBlockers(inventory: Inventory, scope: GraphScopeOptions, stuck: StuckNotes): GraphSelection {
  const selection = selectGraph(inventory, scope);
  if (scope.namespace === undefined || scope.uid !== undefined || stuck.size === 0) return selection;
  const have = new Set(selection.uids);
  const added: string[] = [];
  for (const uid of selection.uids) {
    const why = stuck.get(uid);
    if (!why) continue;
    for (const b of blockerUids(uid, why.blockedBy)) {
      if (added.length >= MAX_ADDED_BLOCKERS) break;
      if (have.has(b) || !inventory.graph.get(b)) continue;
      have.add(b);
      added.push(b);
    }
  }
  return added.length ? { ...selection, uids: [...selection.uids, ...added], total: selection.total + added.length } : selection;
}

/**
 * The ownership graph of an inventory (the workspace's or the live cluster's) for a selection (engine/graph/graphScope:
 * whole, one object's connected component, one namespace; cut at a limit), with the findings on each object and, for
 * objects that cannot finish being deleted, why (`stuck`) and the objects their why-chain names (`blockedBy`). Only
 * edges between selected nodes are sent; a node with
 * links outside the selection says how many (`omitted`), and a cut answer says so (`truncated`).
 */
export function graphData(
  inventory: Inventory,
  selection: GraphSelection,
  findings: Iterable<Finding>,
  stuck: StuckNotes = new Map(),
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
    const blockers = why ? blockerUids(uid, why.blockedBy) : [];
    const omitted = selection.omitted.get(uid);
    nodes.push({
      ...node.identity,
      state: node.virtual ? 'virtual' : node.deletingDependents ? 'deleting-dependents' : node.beingDeleted ? 'being-deleted' : 'present',
      finalizers: o ? [...o.finalizers] : [],
      findings: [...new Set(own.map((f) => f.code))],
      location: locationOf(o),
      ...(why !== undefined ? { stuck: why.reason } : {}),
      ...(blockers.length ? { blockedBy: blockers } : {}),
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
  const stuck = model.inventory.terminating.size ? stuckNotes(terminatingItems(model.inventory, options, undefined)) : new Map();
  return graphData(model.inventory, selectWithBlockers(model.inventory, scope, stuck), findings, stuck);
}

/** Objects per namespace (kubeGcLens/cluster/graphSummary). */
export function graphSummary(inventory: Inventory): GraphSummary {
  return namespaceCounts(inventory);
}

// The custom requests (protocol.ts) answered from the workspace model: simulate, objects, objectAt, stuck,
// graph. Pure functions of the model; the connection wiring is in server.ts.

import type { Finding } from '../engine/analysis/findingTypes';
import type { Inventory } from '../engine/inventory';
import type { KubeObject, NamespaceCondition, ObjectIdentity } from '../engine/model';
import { heldConditions } from '../engine/simulation/namespaceConditions';
import type { BlockReason, ControllersMode, FinalizerOwnerRule } from '../engine/simulation/types';
import type {
  GraphData, GraphEdgeData, GraphNodeData, GraphParams, GraphSummary, ObjectSummary, PolicyChoice, SimulateReport, SourceLocation, StuckItem,
} from '../protocol';
import { namespaceCounts, selectGraph, type GraphScopeOptions, type GraphSelection } from '../engine/graph/graphScope';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { impactTitle, summarizeImpact, targetOutcome } from './impact';
import { baselineSimulation, deletionSimulation } from './simulationCache';

export interface EngineOptions {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
  /** The Kubernetes version whose behaviour to follow: a live cluster's own; the newest followed otherwise. */
  kubeVersion?: string;
}

export function locationOf(o: KubeObject | undefined): SourceLocation | undefined {
  const r = o?.source?.ranges;
  if (!o?.source || !r) return undefined;
  return { uri: o.source.file, range: r.name ?? r.object };
}

export function summaryOf(o: KubeObject): ObjectSummary {
  return {
    apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid,
    syntheticUid: o.syntheticUid === true,
    beingDeleted: o.deletionTimestamp !== undefined,
    finalizers: [...o.finalizers],
    ownerCount: o.ownerReferences.length,
    location: locationOf(o),
  };
}

/** Simulate Delete on an inventory (the workspace's or the live cluster's); `notes` are added to the result's. */
export function simulateDelete(inventory: Inventory, uid: string, policy: PolicyChoice, options: EngineOptions, notes: string[] = []): SimulateReport | null {
  const o = inventory.objects.get(uid);
  if (!o) return null;
  const result = deletionSimulation(inventory, o, policy, options);
  const baseline = baselineSimulation(inventory, options);
  const locations: Record<string, SourceLocation> = {};
  const note = (id: ObjectIdentity | undefined) => {
    if (!id || locations[id.uid]) return;
    const loc = locationOf(inventory.objects.get(id.uid));
    if (loc) locations[id.uid] = loc;
  };
  note(o);
  for (const d of result.deleted) note(d);
  for (const d of result.orphaned) note(d);
  for (const s of result.stuck) {
    note(s);
    const walk = (reasons: typeof s.blockedBy): void => {
      for (const r of reasons) {
        note(r.object);
        if (r.blockedBy) walk(r.blockedBy);
      }
    };
    walk(s.blockedBy);
  }
  for (const step of result.steps) note(step.target);
  const { deleted, orphaned, stuck, steps, aborted, kubernetesVersion } = result;
  const allNotes = notes.length ? [...result.notes, ...notes] : result.notes;
  const summary = summarizeImpact(result, uid, baseline);
  const outcome = targetOutcome(result, uid, baseline);
  return {
    target: { apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid },
    policy,
    controllers: options.controllers,
    result: { deleted, orphaned, stuck, steps, notes: allNotes, ...(aborted ? { aborted } : {}), kubernetesVersion },
    locations,
    summary,
    outcome,
    title: impactTitle(summary, { kind: o.kind, outcome }),
    anyway: {
      deleted: intersect(deleted, baseline.deleted, uid),
      stuck: intersect(stuck, baseline.stuck, uid),
    },
  };
}

/** Uids of `list` that are also in `baseline`, the target excepted. */
function intersect(list: ObjectIdentity[], baseline: ObjectIdentity[], target: string): string[] {
  const before = new Set(baseline.map((b) => b.uid));
  return list.filter((x) => x.uid !== target && before.has(x.uid)).map((x) => x.uid);
}

/** Objects terminating now that cannot finish, then predicted deadlocks, each once. */
export function stuckItems(model: WorkspaceModel, options: EngineOptions): StuckItem[] {
  // A manifest has no clock: ages are measured against the newest timestamp in the input.
  const items = terminatingItems(model.inventory, options, newestTimestamp(model.inventory.objects.values()));
  for (const f of model.predictions()) {
    if (f.code !== 'finalizer-deadlock' && f.code !== 'foreground-deadlock') continue;
    const o = model.inventory.objects.get(f.object.uid);
    if (!o) continue;
    items.push({ object: summaryOf(o), kind: f.code, reason: f.message, blockedBy: [] });
  }
  return items;
}

/**
 * Terminating objects of an inventory that cannot finish (the no-DELETE simulation says so), aged against `now`
 * (ms); with `slowAfterSeconds`, also those that can finish but have been terminating longer (kind "slow").
 */
export function terminatingItems(inv: Inventory, options: EngineOptions, now: number | undefined, slowAfterSeconds?: number): StuckItem[] {
  const items: StuckItem[] = [];
  if (!inv.terminating.size) return items;
  const result = baselineSimulation(inv, options);
  const ageOf = (o: KubeObject) => {
    const since = o.deletionTimestamp ? Date.parse(o.deletionTimestamp) : NaN;
    return Number.isFinite(since) && now !== undefined && now >= since ? Math.round((now - since) / 1000) : undefined;
  };
  const listed = new Set<string>();
  for (const s of result.stuck) {
    const o = inv.objects.get(s.uid);
    if (!o) continue;
    listed.add(o.uid);
    const age = ageOf(o);
    items.push({
      object: summaryOf(o), kind: 'stuck', reason: s.reason, blockedBy: s.blockedBy, locations: reasonLocations(inv, s.blockedBy),
      ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}),
      ...(age !== undefined ? { ageSeconds: age } : {}),
      ...conditionsOf(o),
    });
  }
  if (slowAfterSeconds !== undefined) {
    for (const uid of inv.terminating) {
      const o = inv.objects.get(uid);
      const age = o && !listed.has(uid) ? ageOf(o) : undefined;
      if (!o || age === undefined || age < slowAfterSeconds) continue;
      const waits = o.finalizers.length ? `waits for finalizer${o.finalizers.length > 1 ? 's' : ''} ${o.finalizers.join(', ')}` : 'is still being removed';
      const reported = conditionsOf(o).namespaceConditions;
      items.push({
        object: summaryOf(o), kind: 'slow', blockedBy: [], deletionTimestamp: o.deletionTimestamp, ageSeconds: age,
        reason: reported
          ? `terminating for ${Math.round(age / 60)} min and ${waits}; its namespace controller reports ${reported.map((c) => c.type).join(', ')}`
          : `terminating for ${Math.round(age / 60)} min and ${waits}: the controllers that should finish it are running, so it is still cleaning up or stuck for a reason not visible in the metadata`,
        ...(reported ? { namespaceConditions: reported } : {}),
      });
    }
  }
  return items;
}

/** A Namespace's conditions that hold, as StuckItem carries them (nothing for other objects or when none hold). */
function conditionsOf(o: KubeObject): { namespaceConditions?: NamespaceCondition[] } {
  if (o.apiVersion !== 'v1' || o.kind !== 'Namespace') return {};
  const held = heldConditions(o);
  return held.length ? { namespaceConditions: held } : {};
}

/** Where each object named in a why-chain is written, so the client can reveal it. */
function reasonLocations(inv: Inventory, reasons: BlockReason[]): Record<string, SourceLocation> {
  const out: Record<string, SourceLocation> = {};
  const walk = (list: BlockReason[]): void => {
    for (const r of list) {
      const loc = r.object && !out[r.object.uid] ? locationOf(inv.objects.get(r.object.uid)) : undefined;
      if (loc) out[r.object!.uid] = loc;
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  walk(reasons);
  return out;
}

/**
 * The input has no clock: "age" is measured against the newest creation or deletion timestamp in it,
 * i.e. how long the object had been terminating when the dump was taken.
 */
function newestTimestamp(objects: Iterable<KubeObject>): number | undefined {
  let newest: number | undefined;
  for (const o of objects) {
    for (const t of [o.creationTimestamp, o.deletionTimestamp]) {
      if (!t) continue;
      const ms = Date.parse(t);
      if (Number.isFinite(ms) && (newest === undefined || ms > newest)) newest = ms;
    }
  }
  return newest;
}

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
export function graphData(inventory: Inventory, selection: GraphSelection, findings: Iterable<Finding>, stuck: ReadonlyMap<string, string> = new Map()): GraphData {
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
export function workspaceGraph(model: WorkspaceModel, options: EngineOptions, scope: GraphScopeOptions = {}): GraphData {
  const findings = model.allFindings();
  const stuck = new Map<string, string>();
  if (model.inventory.terminating.size) for (const item of terminatingItems(model.inventory, options, undefined)) stuck.set(item.object.uid, item.reason);
  return graphData(model.inventory, selectGraph(model.inventory, scope), findings, stuck);
}

/** Objects per namespace (kubeGcLens/cluster/graphSummary). */
export function graphSummary(inventory: Inventory): GraphSummary {
  return namespaceCounts(inventory);
}

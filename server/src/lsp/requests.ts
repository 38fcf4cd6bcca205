// The custom requests (protocol.ts) answered from the workspace model: simulate, objects, objectAt, stuck,
// graph. Pure functions of the model; the connection wiring is in server.ts.

import type { Finding } from '../engine/analysis/findingTypes';
import type { KubeObject, ObjectIdentity } from '../engine/model';
import type { BlockReason, ControllersMode, FinalizerOwnerRule } from '../engine/simulation/types';
import type {
  GraphData, GraphEdgeData, GraphNodeData, ObjectSummary, PolicyChoice, SimulateReport, SourceLocation, StuckItem,
} from '../protocol';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { impactTitle, summarizeImpact, targetOutcome } from './impact';
import { baselineSimulation, deletionSimulation } from './simulationCache';

export interface EngineOptions {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
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

export function simulateDelete(model: WorkspaceModel, uid: string, policy: PolicyChoice, options: EngineOptions): SimulateReport | null {
  const o = model.inventory.objects.get(uid);
  if (!o) return null;
  const result = deletionSimulation(model.inventory, o, policy, options);
  const baseline = baselineSimulation(model.inventory, options);
  const locations: Record<string, SourceLocation> = {};
  const note = (id: ObjectIdentity | undefined) => {
    if (!id || locations[id.uid]) return;
    const loc = locationOf(model.inventory.objects.get(id.uid));
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
  const { deleted, orphaned, stuck, steps, notes, aborted } = result;
  const summary = summarizeImpact(result, uid, baseline);
  const outcome = targetOutcome(result, uid, baseline);
  return {
    target: { apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid },
    policy,
    controllers: options.controllers,
    result: { deleted, orphaned, stuck, steps, notes, ...(aborted ? { aborted } : {}) },
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
  const items: StuckItem[] = [];
  const inv = model.inventory;
  if (inv.terminating.size) {
    const result = baselineSimulation(inv, options);
    const newest = newestTimestamp(inv.objects.values());
    for (const s of result.stuck) {
      const o = inv.objects.get(s.uid);
      if (!o) continue;
      const since = o.deletionTimestamp ? Date.parse(o.deletionTimestamp) : NaN;
      items.push({
        object: summaryOf(o), kind: 'stuck', reason: s.reason, blockedBy: s.blockedBy, locations: reasonLocations(model, s.blockedBy),
        ...(o.deletionTimestamp ? { deletionTimestamp: o.deletionTimestamp } : {}),
        ...(Number.isFinite(since) && newest !== undefined && newest >= since ? { ageSeconds: Math.round((newest - since) / 1000) } : {}),
      });
    }
  }
  for (const f of model.predictions()) {
    if (f.code !== 'finalizer-deadlock' && f.code !== 'foreground-deadlock') continue;
    const o = inv.objects.get(f.object.uid);
    if (!o) continue;
    items.push({ object: summaryOf(o), kind: f.code, reason: f.message, blockedBy: [] });
  }
  return items;
}

/** Where each object named in a why-chain is written, so the client can reveal it. */
function reasonLocations(model: WorkspaceModel, reasons: BlockReason[]): Record<string, SourceLocation> {
  const out: Record<string, SourceLocation> = {};
  const walk = (list: BlockReason[]): void => {
    for (const r of list) {
      const loc = r.object && !out[r.object.uid] ? locationOf(model.inventory.objects.get(r.object.uid)) : undefined;
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

/** The ownership graph, whole or the connected component of one uid. */
export function graphData(model: WorkspaceModel, focus?: string): GraphData {
  const graph = model.inventory.graph;
  let uids: Iterable<string>;
  if (focus) {
    const seen = new Set<string>();
    const todo = graph.get(focus) ? [focus] : [];
    while (todo.length) {
      const uid = todo.pop()!;
      if (seen.has(uid)) continue;
      seen.add(uid);
      const node = graph.get(uid);
      if (!node) continue;
      for (const r of node.owners) todo.push(r.uid);
      for (const d of node.dependents) todo.push(d.identity.uid);
    }
    uids = seen;
  } else {
    uids = graph.nodes.keys();
  }
  const findingsByUid = new Map<string, Finding[]>();
  for (const f of model.allFindings()) {
    const list = findingsByUid.get(f.object.uid);
    if (list) list.push(f);
    else findingsByUid.set(f.object.uid, [f]);
  }
  const nodes: GraphNodeData[] = [];
  const edges: GraphEdgeData[] = [];
  for (const uid of uids) {
    const node = graph.get(uid);
    if (!node) continue;
    const o = model.inventory.objects.get(uid);
    nodes.push({
      ...node.identity,
      state: node.virtual ? 'virtual' : node.deletingDependents ? 'deleting-dependents' : node.beingDeleted ? 'being-deleted' : 'present',
      finalizers: o ? [...o.finalizers] : [],
      findings: [...new Set((findingsByUid.get(uid) ?? []).map((f) => f.code))],
      location: locationOf(o),
    });
    for (const r of node.owners) {
      edges.push({ from: uid, to: r.uid, controller: r.controller === true, blockOwnerDeletion: r.blockOwnerDeletion === true });
    }
  }
  return { nodes, edges };
}

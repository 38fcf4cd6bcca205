// Live objects as read-only documents (`kube-gc-lens-live:` URIs, shared/src/wire/liveDocuments.ts): the server renders an object's
// metadata as the GC sees it, the client shows it, and when the editor opens it the server keeps a parsed copy
// for positions only. Hover and code lenses then read the live inventory through an ObjectModel whose objects
// carry those positions. These documents are never part of the workspace model.

import { stringify } from 'yaml';
import type { Inventory } from '../engine/inventory';
import { describe, type KubeObject, type ObjectIdentity } from '../engine/model';
import type { BlockReason } from '../engine/simulation/types';
import {
  LIVE_NAME_LINE,
  liveObjectLocation,
  liveUidOf,
  type GraphData,
  type ObjectSummary,
  type RequestsReport,
  type SimulateReport,
  type SourceLocation,
  type StuckItem,
} from '../../../shared/src/protocol';
import { parseManifestText } from '../sources/manifests/parseManifest';
import { contains, type ObjectModel } from '../workspace/workspaceModel';

/** The document text of live object `uid` (a short note when it is not in the live graph). */
export function renderLiveObject(o: KubeObject | undefined, uid: string, context: string | undefined): string {
  if (!context)
    return `# Not connected to a cluster: this live object (uid ${uid}) cannot be shown.\n# Run "Kubernetes GC: Connect to Cluster" and open it again.\n`;
  if (!o)
    return `# uid ${uid} is not in the live graph of context ${context}: it was deleted, or it is outside what the connection lists.\n`;
  const metadata: Record<string, unknown> = { name: o.name };
  if (o.namespace) metadata.namespace = o.namespace;
  metadata.uid = o.uid;
  if (o.creationTimestamp) metadata.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) metadata.deletionTimestamp = o.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined) metadata.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  if (o.labels && Object.keys(o.labels).length) metadata.labels = o.labels;
  if (o.finalizers.length) metadata.finalizers = o.finalizers;
  if (o.ownerReferences.length) metadata.ownerReferences = o.ownerReferences;
  const doc: Record<string, unknown> = { apiVersion: o.apiVersion, kind: o.kind, metadata, ...specAndStatus(o) };
  const what = o.facts.specUnread ? 'metadata only, as the garbage collector lists it' : 'metadata and the fields the simulation reads';
  // Exactly two comment lines: LIVE_NAME_LINE counts on them.
  const header = `# Live ${describe(o)} in context ${context} (read-only: ${what}).\n# Follows the cluster's watch; hover an ownerReference or a finalizer, or use the lens to simulate its deletion.\n`;
  return header + stringify(doc, { lineWidth: 0 });
}

/**
 * Where renderLiveObject writes a terminating object's deletionTimestamp (0-based line): after name, namespace, uid
 * and creationTimestamp, in that order. Spares parsing the text to place a stuck object's diagnostic.
 */
export function deletionTimestampRange(o: KubeObject): {
  start: { line: number; character: number };
  end: { line: number; character: number };
} {
  const line = LIVE_NAME_LINE + 1 + (o.namespace ? 1 : 0) + 1 + (o.creationTimestamp ? 1 : 0);
  const key = '  deletionTimestamp: ';
  return { start: { line, character: key.length }, end: { line, character: key.length + (o.deletionTimestamp?.length ?? 0) } };
}

/** The spec/status facts the simulation read from a full object, written back where they came from. */
function specAndStatus(o: KubeObject): Record<string, unknown> {
  const f = o.facts;
  const spec: Record<string, unknown> = {};
  const status: Record<string, unknown> = {};
  if (f.namespaceFinalizers?.length) spec.finalizers = f.namespaceFinalizers;
  if (f.nodeName) spec.nodeName = f.nodeName;
  if (f.terminationGracePeriodSeconds !== undefined) spec.terminationGracePeriodSeconds = f.terminationGracePeriodSeconds;
  if (f.claimNames?.length) spec.volumes = f.claimNames.map((claimName) => ({ persistentVolumeClaim: { claimName } }));
  if (f.volumeName) spec.volumeName = f.volumeName;
  if (f.phase) status.phase = f.phase;
  // A Namespace's conditions: what its namespace controller reported, which the why-chain reads.
  if (f.namespaceConditions?.length) status.conditions = f.namespaceConditions;
  return { ...(Object.keys(spec).length ? { spec } : {}), ...(Object.keys(status).length ? { status } : {}) };
}

/** The open live documents: a parsed copy of each, for positions. */
export class LiveDocuments {
  private readonly docs = new Map<string, KubeObject | undefined>();

  has(uri: string): boolean {
    return this.docs.has(uri);
  }

  set(uri: string, text: string): void {
    const parsed = parseManifestText(text, uri).objects[0];
    this.docs.set(uri, parsed && parsed.uid === liveUidOf(uri) ? parsed : undefined);
  }

  delete(uri: string): void {
    this.docs.delete(uri);
  }

  /** The live inventory seen through the open documents: an object of one carries that document's positions. */
  model(inventory: Inventory, context: string): ObjectModel {
    const objectsIn = (uri: string): KubeObject[] => {
      const parsed = this.docs.get(uri);
      const live = parsed && inventory.objects.get(parsed.uid);
      // The document may lag behind the watch for a moment: positions are only trusted while the lists line up.
      if (!live || !parsed.source?.ranges) return [];
      return [{ ...live, source: parsed.source }];
    };
    return {
      inventory,
      objectsIn,
      objectAt: (uri, position) => objectsIn(uri).find((o) => contains(o.source!.ranges!.object, position)),
      findingsOf: () => [],
      liveLocation: (o) => liveObjectLocation(o, context),
    };
  }
}

/** A click on a live owner opens its own live document. */
export function liveRevealTarget(
  context: string,
): (o: KubeObject) => [string, { start: { line: number; character: number }; end: { line: number; character: number } }] {
  return (o) => {
    const loc = liveObjectLocation(o, context);
    return [loc.uri, loc.range];
  };
}

/** A live graph's nodes located at their live documents (virtual nodes are not objects: they have none). */
export function withLiveGraphLocations(graph: GraphData, context: string | undefined): GraphData {
  if (!context) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((n) => (n.state === 'virtual' || n.location ? n : { ...n, location: liveObjectLocation(n, context) })),
  };
}

/**
 * Fills in where the live objects of a result are shown: their live documents (a summary's `location`, a stuck
 * item's `locations`, a report's `locations`), so every "reveal" opens the object.
 */
export function withLiveLocations<T extends ObjectSummary | StuckItem | SimulateReport | RequestsReport | null>(
  x: T,
  context: string | undefined,
): T {
  if (!x || !context) return x;
  const at = (o: ObjectIdentity) => liveObjectLocation(o, context);
  if ('syntheticUid' in x && !('state' in x)) return { ...x, location: x.location ?? at(x) };
  const locations: Record<string, SourceLocation> = { ...x.locations };
  const note = (o: ObjectIdentity | undefined) => {
    if (o?.uid) locations[o.uid] ??= at(o); // a request refused with 404 names no object
  };
  const walk = (reasons: BlockReason[]): void => {
    for (const r of reasons) {
      note(r.object);
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  if ('state' in x) {
    walk(x.blockedBy);
    return { ...x, location: x.location ?? at(x), locations };
  }
  const r = x as SimulateReport | RequestsReport;
  const named = 'target' in r ? [r.target] : r.targets.flatMap((t) => (t.uid !== undefined ? [{ ...t, uid: t.uid }] : []));
  for (const o of [...named, ...r.deleted, ...r.orphaned, ...r.stuck, ...r.steps.map((s) => s.target)]) note(o);
  for (const s of r.stuck) walk(s.blockedBy);
  return { ...r, locations } as T;
}

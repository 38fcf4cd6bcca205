// The one protocol module: every custom LSP request/notification and every shape they carry, typed once
// and imported by the server (server/src/lsp), the VS Code client (client/) and the webview (webview/).
// Methods are namespaced `kubeGcLens/…`. Shapes are plain JSON; ranges are 0-based as in LSP.
// Changing a shape is a versioned change (see CHANGELOG.md, "Protocol").

import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { Finding, FindingCode } from './engine/analysis/findingTypes';
import type { NamespaceCondition, ObjectIdentity, Range } from './engine/model';
// Type-only: the shapes the cluster layer already defines (erased from every bundle).
import type { ContextInfo } from './sources/cluster/kubeconfig';
import type { LiveStatus } from './sources/cluster/liveCluster';
import type {
  BlockReason, ControllersMode, DeletedEntry, FinalizerOwnerRule, OrphanedEntry, PropagationPolicy, SimulationStep, StuckEntry,
} from './engine/simulation/types';
import { parseControllers } from './engine/simulation/controllerSet';

import { PROTOCOL_VERSION } from '../../shared/src/protocolVersion';

export { PROTOCOL_VERSION };

// ------------------------------------------------------------------------------------------------
// Shared shapes

/** Where an object (or one of its parts) is written: a document URI and a 0-based range. */
export interface SourceLocation {
  uri: string;
  range: Range;
}

/** One object of the workspace, as lists and quick picks show it. */
export interface ObjectSummary extends ObjectIdentity {
  /** The uid was made up for a hand-written manifest (no metadata.uid). */
  syntheticUid: boolean;
  beingDeleted: boolean;
  finalizers: string[];
  ownerCount: number;
  location?: SourceLocation;
}

/** "API default" sends no propagationPolicy, so the per-type default applies (R5). */
export type PolicyChoice = 'default' | PropagationPolicy;

/** The settings section `kubeGcLens` (package.json documents every field). */
export interface KubeGcLensSettings {
  simulation: { controllers: ControllersMode };
  finalizerOwners: FinalizerOwnerRule[];
  /** Per finding/load-problem code: a severity, or "off" to drop it. Codes not named keep their default. */
  severity: Partial<Record<string, SeveritySetting>>;
  files: { include: string[]; exclude: string[] };
  /** The live cluster: only what the server uses (the client reads the connection settings itself). */
  cluster: { stuckAfterMinutes: number };
}

export type SeveritySetting = 'error' | 'warning' | 'information' | 'hint' | 'off';

export const DEFAULT_SETTINGS: KubeGcLensSettings = {
  simulation: { controllers: 'builtin' },
  finalizerOwners: [],
  severity: {},
  files: { include: ['**/*.yaml', '**/*.yml', '**/*.json'], exclude: ['**/node_modules/**', '**/.git/**'] },
  cluster: { stuckAfterMinutes: 10 },
};

// ------------------------------------------------------------------------------------------------
// kubeGcLens/simulate: what deleting one object does (client → server)

export interface SimulateParams {
  uid: string;
  policy: PolicyChoice;
  /** Defaults to the `kubeGcLens.simulation.controllers` setting. */
  controllers?: ControllersMode;
}

/**
 * Why an object is in a report's list: `request`, a consequence of the DELETE(s); `settling`, the garbage collector
 * does it to the input as given anyway (absent owners, objects already terminating), with no DELETE at all.
 */
export type Cause = 'request' | 'settling';

/** The version of the Report shape (`kubectl gc simulate -o json` prints it as `version`). */
export const REPORT_VERSION = 2;

/** What became of the object one request named. */
export interface TargetReport {
  /** The request's index in the plan (0 for a single DELETE). */
  request: number;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** Absent when the input holds no such object. */
  uid?: string;
  outcome: TargetOutcome;
}

/**
 * What a simulation means, the same for every front end (server/src/app/report.ts builds it): `kubectl gc simulate
 * -o json`, the editor's Simulate Delete report and the graph's playback. Version 1's fields (the simulation
 * result's) keep their place; each list entry gains its `cause`.
 */
export interface Report {
  version: typeof REPORT_VERSION;
  /** One line, what the request causes: "Deleting Deployment shop/web: 5 objects deleted (…), 0 stuck, 0 orphaned". */
  summary: string;
  targets: TargetReport[];
  /** The counts the summary gives: caused by the request(s), not what the GC does anyway. */
  counts: ImpactSummary;
  deleted: (DeletedEntry & { cause: Cause })[];
  orphaned: (OrphanedEntry & { cause: Cause })[];
  stuck: (StuckEntry & { cause: Cause })[];
  steps: SimulationStep[];
  notes: string[];
  /** Set when the step bound was reached: the result is partial. */
  aborted?: string;
  /** The Kubernetes version whose behaviour the simulation followed. */
  kubernetesVersion?: string;
  /** Who acted: `builtin`, `gc` or a kube-controller-manager list. */
  controllers: ControllersMode;
}

/** kubeGcLens/simulate (v3: the Report itself, with what the editor needs besides). */
export interface SimulateReport extends Report {
  target: ObjectIdentity;
  policy: PolicyChoice;
  /** uid → where the object is written, for every object the report names. */
  locations: Record<string, SourceLocation>;
  outcome: TargetOutcome;
  /** The same one line as the code lens, e.g. "Delete: also 1 ReplicaSet, 3 Pods · 1 stuck (pvc-protection)". */
  title: string;
}

export interface ImpactSummary {
  /** kind → how many objects of it are deleted because of this DELETE (the target included; garbage the GC collects anyway is not). */
  deletedByKind: Record<string, number>;
  orphaned: number;
  stuck: number;
  /** The first stuck object's first blocking reason, e.g. "pvc-protection". */
  stuckBecause?: string;
}

/** What became of the object the DELETE named; `collected`: the GC removes it even without the DELETE. */
export type TargetOutcome = 'deleted' | 'collected' | 'stuck' | 'rejected' | 'unchanged';

export const SimulateRequest = new RequestType<SimulateParams, SimulateReport | null, void>('kubeGcLens/simulate');

// ------------------------------------------------------------------------------------------------
// kubeGcLens/objects: every object of the workspace (client → server)

export interface ObjectsParams {
  /** Only objects written in this document. */
  uri?: string;
}

export const ObjectsRequest = new RequestType<ObjectsParams, ObjectSummary[], void>('kubeGcLens/objects');

/** The object whose manifest contains a position (the cursor), if any. */
export interface ObjectAtParams {
  uri: string;
  position: { line: number; character: number };
}

export const ObjectAtRequest = new RequestType<ObjectAtParams, ObjectSummary | null, void>('kubeGcLens/objectAt');

// ------------------------------------------------------------------------------------------------
// kubeGcLens/stuck: objects being deleted that cannot finish, and predicted deadlocks (client → server)

/**
 * (v3: the object's fields at the top, as `kubectl gc stuck -o json` has always printed them; `state` was `kind`.)
 * One answer for the editor's Stuck Objects and `kubectl gc stuck` (server/src/app/stuck.ts).
 */
export interface StuckItem extends ObjectSummary {
  /**
   * `stuck`: terminating now and cannot finish; `slow`: terminating longer than the threshold but able to finish;
   * the deadlocks are predicted: what a DELETE would leave hanging.
   */
  state: 'stuck' | 'slow' | 'finalizer-deadlock' | 'foreground-deadlock';
  /** One sentence for a person. */
  reason: string;
  /** The why-chain: finalizer → controller → its state; foreground wait → dependent → its reason. */
  blockedBy: BlockReason[];
  /** Its deletionTimestamp, or null when it is not terminating (a predicted deadlock). */
  since: string | null;
  /** Seconds since deletionTimestamp, when known relative to the newest timestamp in the input. */
  ageSeconds?: number;
  /**
   * uid → where it is written, for the objects `blockedBy` names (a blocking dependent, a controller's workload),
   * so the client can reveal them. Optional: without it only the root object (`object.location`) is revealable.
   */
  locations?: Record<string, SourceLocation>;
  /**
   * A Namespace's status conditions that hold (status "True"), as its namespace controller last reported them
   * (NamespaceContentRemaining, NamespaceFinalizersRemaining, NamespaceDeletionDiscoveryFailure, …): what the
   * cluster says, beside the engine's why-chain. Only on Namespaces that have some.
   */
  namespaceConditions?: NamespaceCondition[];
}

export const StuckRequest = new RequestType0<StuckItem[], void>('kubeGcLens/stuck');

// ------------------------------------------------------------------------------------------------
// kubeGcLens/graph: the ownership graph, whole or one object's connected component (client → server)

export interface GraphParams {
  /** Focus: only this object's connected component (`namespace` is then ignored). */
  uid?: string;
  /**
   * (v2 addition) Only this namespace's objects (`""`: the cluster-scoped ones), plus the objects outside it that
   * they name as owners or that name them (a cluster-scoped owner, a namespaced dependent of a cluster-scoped
   * object), so every edge of the namespace's objects is there; and the Namespace object itself.
   */
  namespace?: string;
  /**
   * (v2 addition) At most this many nodes. When the graph (or scope) holds more, the answer keeps owners before their
   * dependents, breadth first (from `uid` when given, else from the objects without owners; objects with neither
   * owners nor dependents last), sends only the edges between the nodes it keeps and says so in `truncated`.
   */
  limit?: number;
}

export interface GraphNodeData extends ObjectIdentity {
  state: 'present' | 'virtual' | 'being-deleted' | 'deleting-dependents';
  finalizers: string[];
  findings: FindingCode[];
  location?: SourceLocation;
  /** (v2 addition) Why it cannot finish being deleted, when it is stuck terminating now or predicted to deadlock. */
  stuck?: string;
  /** (v2 addition) The findings on it, one sentence each (`findings` has their codes). */
  findingMessages?: { code: FindingCode; message: string }[];
  /**
   * (v2 addition) How many of its owners and dependents this answer leaves out: they are outside the `namespace`
   * asked for, or `limit` cut them. Only on nodes that have some.
   */
  omitted?: { owners: number; dependents: number };
}

export interface GraphEdgeData {
  /** Dependent uid. */
  from: string;
  /** Owner uid. */
  to: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
}

export interface GraphData {
  nodes: GraphNodeData[];
  edges: GraphEdgeData[];
  /** (v2 addition) Only when `limit` cut the answer: the nodes sent and how many the scope holds. */
  truncated?: { shown: number; total: number };
}

export const GraphRequest = new RequestType<GraphParams, GraphData, void>('kubeGcLens/graph');

/** kubeGcLens/cluster/graph (v2 addition): the same on the live graph; nodes' `location` are their live documents. */
export const ClusterGraphRequest = new RequestType<GraphParams, GraphData, void>('kubeGcLens/cluster/graph');

/** (v2 addition) How many objects each namespace holds, for choosing a graph's scope. */
export interface GraphSummary {
  /** Every object (virtual owners are not objects). */
  objects: number;
  /** Namespaces (`""`: the cluster-scoped objects) with their object counts, the largest first, then by name. */
  namespaces: { namespace: string; objects: number }[];
}

/** kubeGcLens/cluster/graphSummary (v2 addition): object counts per namespace of the live graph. */
export const ClusterGraphSummaryRequest = new RequestType0<GraphSummary, void>('kubeGcLens/cluster/graphSummary');

/**
 * The most nodes the VS Code client asks a live graph's scope for (`limit`); a live cluster of more objects is shown
 * one scope at a time. The webview draws 5,000 objects in about a quarter of a second and pans them at 60 frames per
 * second (README, Performance).
 */
export const GRAPH_LIMIT = 5000;

// ------------------------------------------------------------------------------------------------
// kubeGcLens/check: re-read the workspace from disk and report every finding (client → server)

export interface CheckResult {
  files: number;
  objects: number;
  findings: Finding[];
  problems: number;
}

export const CheckRequest = new RequestType0<CheckResult, void>('kubeGcLens/check');

// ------------------------------------------------------------------------------------------------
// kubeGcLens/status: what the server holds (server → client, after every change)

export interface ServerStatus {
  protocolVersion: number;
  state: 'loading' | 'ready';
  files: number;
  objects: number;
  /** Findings of every code, after severity settings. */
  findings: number;
  stuck: number;
  /** Documents that could not be read or parsed (each has its own diagnostic). */
  problems: number;
}

export const StatusNotification = new NotificationType<ServerStatus>('kubeGcLens/status');

// ------------------------------------------------------------------------------------------------
// The live cluster (protocol version 2 adds these; nothing above changed). Read-only: the server only ever
// sends GET requests to the cluster. Off until the client asks to connect.

/** One kubeconfig context, for Select Context: `{name, cluster, user, namespace?, server?, current}`. */
export type ClusterContext = ContextInfo;

export interface ClusterContextsResult {
  contexts: ClusterContext[];
  /** Why there are none (no kubeconfig, unreadable kubeconfig). */
  error?: string;
}

/** kubeGcLens/cluster/contexts: the contexts of the kubeconfig the server would use (client → server). */
export const ClusterContextsRequest = new RequestType<{ kubeconfig?: string }, ClusterContextsResult, void>('kubeGcLens/cluster/contexts');

export interface ClusterConnectParams {
  /** A kubeconfig context; the kubeconfig's current one when absent. */
  context?: string;
  /** Namespaces to watch; all when absent or empty. Cluster-scoped resources are always watched. */
  namespaces?: string[];
  /** An explicit kubeconfig file; else KUBECONFIG, else ~/.kube/config (as kubectl). */
  kubeconfig?: string;
  /** May the kubeconfig run commands (exec plugins)? The client says true only in a trusted workspace. */
  allowExec: boolean;
  /** The total deadline of each request (a LIST page), retries included; 0 = none; 60 when absent. Watches are not cut. */
  requestTimeoutSeconds?: number;
}

/**
 * The connection as the status bar shows it: context, server, namespaces, sync state, resources listed/watched,
 * object count, problems (each also noted in every result it affects), requests and bytes so far.
 */
export type ClusterStatus = LiveStatus;

/** kubeGcLens/cluster/connect: list and watch a cluster; resolves once everything is listed (client → server). */
export const ClusterConnectRequest = new RequestType<ClusterConnectParams, ClusterStatus, void>('kubeGcLens/cluster/connect');

/** kubeGcLens/cluster/disconnect: stop watching; live results go away (client → server). */
export const ClusterDisconnectRequest = new RequestType0<null, void>('kubeGcLens/cluster/disconnect');

/** kubeGcLens/cluster/status: the connection changed (server → client); null when disconnected. */
export const ClusterStatusNotification = new NotificationType<ClusterStatus | null>('kubeGcLens/cluster/status');

/** kubeGcLens/cluster/simulate: Simulate Delete on the live graph (same report; `result.notes` says what is incomplete). */
export const ClusterSimulateRequest = new RequestType<SimulateParams, SimulateReport | null, void>('kubeGcLens/cluster/simulate');

/**
 * kubeGcLens/cluster/stuck: live objects with a deletionTimestamp that cannot finish, or that have been
 * terminating longer than `stuckAfterMinutes` (kind "slow": still cleaning up, or stuck for a reason the
 * simulation cannot see). ageSeconds is measured against the current time.
 */
export const ClusterStuckRequest = new RequestType<{ stuckAfterMinutes?: number }, StuckItem[], void>('kubeGcLens/cluster/stuck');

/**
 * Which live objects: those of one namespace, those that match a query, at most `limit` of them. `query` and `limit`
 * are additions (protocol still version 2): without them kubeGcLens/cluster/objects answers as before.
 */
export interface ClusterObjectsParams {
  /** Only the objects of this namespace. */
  namespace?: string;
  /**
   * Only the objects that match: every whitespace-separated word, case-insensitive, occurs in `Kind namespace/name
   * group` (`pod web`, `shop/web`, `apps`), or is the start of the uid (a word of 8 characters or more). With a query
   * or a limit the answer is ordered: objects a word names exactly (name, namespace/name, uid) first, then those whose
   * name starts with a word, then the rest; within each by namespace, kind and name (server/src/engine/objectSearch.ts).
   */
  query?: string;
  /** At most this many objects, the first in that order. kubeGcLens/cluster/objects: all when absent; searchObjects: 200. */
  limit?: number;
}

/** kubeGcLens/cluster/objects: every live object, or those of one namespace (`query`, `limit`: see above). */
export const ClusterObjectsRequest = new RequestType<ClusterObjectsParams, ObjectSummary[], void>('kubeGcLens/cluster/objects');

/** The first `limit` matches and how many objects match in all (a picker says "200 of 12,345 matches"). */
export interface ClusterObjectSearchResult {
  items: ObjectSummary[];
  total: number;
}

/** searchObjects answers at most this many objects when the request names no limit. */
export const DEFAULT_SEARCH_LIMIT = 200;

/**
 * kubeGcLens/cluster/searchObjects (a version 2 addition): the live objects that match a query, as
 * kubeGcLens/cluster/objects orders them, capped at `limit` (default 200), with the number of matches in all.
 * For pickers on large clusters: a query costs the server one pass over the live objects, the answer stays small.
 */
export const ClusterSearchObjectsRequest = new RequestType<ClusterObjectsParams, ClusterObjectSearchResult, void>('kubeGcLens/cluster/searchObjects');

// ------------------------------------------------------------------------------------------------
// Live objects as read-only documents (protocol version 2). Their text is the object's metadata as the garbage
// collector sees it (plus the few spec/status fields the simulation reads), rendered by the server; the client
// serves it through a content provider for the `kube-gc-lens-live:` scheme. Hover, code lenses (Simulate Delete
// on the live graph) and diagnostics (stuck live objects, in the Problems panel) work on them; they are never part
// of the workspace.

export const LIVE_SCHEME = 'kube-gc-lens-live';

/** 0-based line of `metadata.name` in a live document (two comment lines, apiVersion, kind, metadata:). */
export const LIVE_NAME_LINE = 5;

/** `kube-gc-lens-live:/<context>/<namespace or _cluster>/<Kind.group>/<name>.yaml?uid=<uid>`: the uid identifies it. */
export function liveObjectUri(o: ObjectIdentity, context: string): string {
  const group = o.apiVersion.includes('/') ? `.${o.apiVersion.slice(0, o.apiVersion.indexOf('/'))}` : '';
  const parts = [context, o.namespace || '_cluster', `${o.kind}${group}`, `${o.name}.yaml`].map(encodeURIComponent);
  return `${LIVE_SCHEME}:/${parts.join('/')}?uid=${encodeURIComponent(o.uid)}`;
}

/** The uid a live document shows, or undefined for any other URI. */
export function liveUidOf(uri: string): string | undefined {
  if (!uri.startsWith(`${LIVE_SCHEME}:`)) return undefined;
  const q = uri.indexOf('?');
  if (q < 0) return undefined;
  let query: string;
  try {
    // VS Code's Uri.toString() encodes the query's `=` (`uid%3D…`): decode the query before reading it.
    query = decodeURIComponent(uri.slice(q + 1).replace(/#.*$/, ''));
  } catch {
    return undefined;
  }
  const m = /(?:^|&)uid=([^&]*)/.exec(query);
  return m ? m[1] : undefined;
}

/** Where a live object's name is in its document (for reveal links; the exact columns do not matter). */
export function liveObjectLocation(o: ObjectIdentity, context: string): SourceLocation {
  return {
    uri: liveObjectUri(o, context),
    range: { start: { line: LIVE_NAME_LINE, character: 2 }, end: { line: LIVE_NAME_LINE, character: 8 + o.name.length } },
  };
}

/** kubeGcLens/cluster/document: the text of a live document (a note when the object is gone or nothing is connected). */
export const ClusterDocumentRequest = new RequestType<{ uri: string }, { text: string }, void>('kubeGcLens/cluster/document');

// ------------------------------------------------------------------------------------------------
// The ownership graph webview (protocol version 2 adds these): messages between the extension (the host,
// client/src/graph) and the webview (webview/src), posted with postMessage. The webview imports this module for
// types only (`import type`), so no LSP library enters its bundle. The webview says `ready` first (messages posted
// before it listens are lost) and again after every reload (a hidden webview is torn down): the host then sends the
// current graph, and the last simulation if any.

/** Where the graph comes from: the workspace's manifests, or the connected live cluster. */
export type GraphSource = { kind: 'workspace' } | { kind: 'cluster'; context: string };

/**
 * (v2 addition) Which part of a graph a panel shows: all of it, one namespace's objects and their neighbours
 * (`namespace: ""`: the cluster-scoped objects), or one object's connected component. The VS Code client shows a
 * live cluster of more than GRAPH_LIMIT objects one scope at a time.
 */
export type GraphScope = { kind: 'all' } | { kind: 'namespace'; namespace: string } | { kind: 'object'; uid: string };

/** The export formats; the webview renders the content, the host asks where to save it. */
export type GraphExportFormat = 'svg' | 'png' | 'dot';

/** How to draw nodes: `auto` picks SVG up to a node count and canvas above it (see ARCHITECTURE.md). */
export type GraphRenderer = 'auto' | 'svg' | 'canvas';

/** Host → webview. */
export type HostToWebviewMessage =
  /**
   * The graph to show (replaces the previous one; nodes that stay keep their positions). `revision` grows. `scope`
   * (v2 addition, live graphs): which part of the cluster it is; another scope, like another source, resets the view.
   */
  | { type: 'graph'; source: GraphSource; graph: GraphData; revision: number; renderer?: GraphRenderer; scope?: GraphScope }
  /** Select this object and show its connected component only (Show in Graph). */
  | { type: 'focus'; uid: string }
  /**
   * A simulated deletion to play out on the graph (step slider, fading removals, cut orphan edges, stuck
   * highlighted). `id` names this simulation: sent again after a reload, the webview keeps the step it was at.
   */
  | { type: 'simulation'; report: SimulateReport; id: number }
  /** Something the user should know (the graph could not be read, not connected any more…); `undefined` clears it. */
  | { type: 'notice'; message?: string; severity?: 'info' | 'warning' | 'error' };

/** Webview → host. */
export type WebviewToHostMessage =
  /** The page listens: send the current state. `protocolVersion` is the webview's PROTOCOL_VERSION. */
  | { type: 'ready'; protocolVersion: typeof PROTOCOL_VERSION }
  /** Reveal this object in its manifest (or open its live document). */
  | { type: 'reveal'; uid: string }
  /** Simulate deleting this object with this policy, on the graph's source; the answer is a `simulation` message. */
  | { type: 'simulate'; uid: string; policy: PolicyChoice }
  /** Show the last simulation's full report (the Simulate Delete report view). */
  | { type: 'openReport' }
  /** Save what is shown: SVG or DOT text, or a PNG as base64. `name` is a suggested file name (no folder). */
  | { type: 'export'; format: GraphExportFormat; data: string; name: string }
  /** Read the graph again now. */
  | { type: 'refresh' }
  /** (v2 addition) Let the user choose another scope (the host asks which namespace, with their object counts). */
  | { type: 'pickScope' }
  /** An error inside the webview, for the extension's log. */
  | { type: 'error'; message: string };

/** The command other extensions, hovers, lenses, views and reports use: `kubeGcLens.showInGraph(ShowInGraphArgs)`. */
export const SHOW_IN_GRAPH_COMMAND = 'kubeGcLens.showInGraph';

export interface ShowInGraphArgs {
  uid: string;
  /** Default: the workspace. */
  source?: 'workspace' | 'cluster';
  /** Also simulate deleting it with this policy and play the result out. */
  policy?: PolicyChoice;
}

// ------------------------------------------------------------------------------------------------
// What each client → server request's params must be. The server checks them before any handler runs and answers
// JSON-RPC InvalidParams (-32602) naming the first bad field, e.g. "kubeGcLens/simulate: params.uid must be a
// string". One table (REQUEST_PARAMS) holds every request's validator, each typed against that request's params (an
// invariant phantom type), so a shape changed without its validator does not compile. No library: the client bundles
// this module and the webview imports it for types only. Unknown fields are ignored (older servers, newer clients).
// The server receives no custom notifications (kubeGcLens/status and cluster/status go to the client).

/** Checks one value: undefined when it is fine, else the first problem, naming `path` (e.g. "params.uid"). */
export interface Validator<T> {
  (value: unknown, path: string): string | undefined;
  /** Never set: ties the validator to exactly the type it accepts. */
  readonly accepts?: (value: T) => T;
}

const check = <T>(ok: (v: unknown) => boolean, what: string): Validator<T> => (v, path) => (ok(v) ? undefined : `${path} must be ${what}`);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = check<string>((v) => typeof v === 'string', 'a string');
export const bool = check<boolean>((v) => typeof v === 'boolean', 'a boolean');
/** An integer ≥ min (JSON has one number type: 3.0 is 3). */
export const int = (min: number) => check<number>((v) => Number.isSafeInteger(v) && (v as number) >= min, `an integer, at least ${min}`);
/** A finite number ≥ min. */
export const num = (min: number) => check<number>((v) => typeof v === 'number' && Number.isFinite(v) && v >= min, `a number, at least ${min}`);
export const oneOf = <T extends string>(...values: T[]): Validator<T> =>
  check<T>((v) => (values as unknown[]).includes(v), `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
/** Absent is fine; null is not (a field either is there with its type or is left out). */
export const optional = <T>(v: Validator<T>): Validator<T | undefined> => (x, path) => (x === undefined ? undefined : v(x, path));

export function arr<T>(item: Validator<T>): Validator<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) return `${path} must be an array`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object with these fields (every field of T must have a validator, optional ones included). */
export function obj<T extends object>(fields: { [K in keyof Required<T>]: Validator<T[K]> }): Validator<T> {
  return (v, path) => {
    if (!isRecord(v)) return `${path} must be an object`;
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const problem = (fields[key] as Validator<unknown>)(v[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** A request without params: absent, null or an empty object or array (clients differ), or any object. */
const noParams: Validator<void> = (v, path) =>
  v === undefined || v === null || isRecord(v) || (Array.isArray(v) && v.length === 0) ? undefined : `${path} must be absent (this request takes none)`;

const policyChoice = oneOf<PolicyChoice>('default', 'Background', 'Foreground', 'Orphan');
/** `builtin`, `gc` or a kube-controller-manager --controllers list (controllerSet.ts). */
const controllersSpec: Validator<ControllersMode> = (v, path) => {
  const what = `${path} must be "builtin", "gc" or a kube-controller-manager --controllers list`;
  if (typeof v !== 'string') return what;
  const parsed = parseControllers(v);
  return 'error' in parsed ? `${what} (${parsed.error})` : undefined;
};
const simulateParams = obj<SimulateParams>({ uid: str, policy: policyChoice, controllers: optional(controllersSpec) });
const graphParams = obj<GraphParams>({ uid: optional(str), namespace: optional(str), limit: optional(int(1)) });
const clusterObjectsParams = obj<ClusterObjectsParams>({ namespace: optional(str), query: optional(str), limit: optional(int(0)) });

/** The params of every client → server request, by method: "params" is checked as a whole, then field by field. */
export const REQUEST_PARAMS: ReadonlyMap<string, (params: unknown) => string | undefined> = new Map([
  rule(SimulateRequest, simulateParams),
  rule(ObjectsRequest, obj<ObjectsParams>({ uri: optional(str) })),
  rule(ObjectAtRequest, obj<ObjectAtParams>({ uri: str, position: obj<ObjectAtParams['position']>({ line: int(0), character: int(0) }) })),
  rule0(StuckRequest),
  rule(GraphRequest, graphParams),
  rule(ClusterGraphRequest, graphParams),
  rule0(ClusterGraphSummaryRequest),
  rule0(CheckRequest),
  rule(ClusterContextsRequest, obj<{ kubeconfig?: string }>({ kubeconfig: optional(str) })),
  rule(ClusterConnectRequest, obj<ClusterConnectParams>({
    context: optional(str), namespaces: optional(arr(str)), kubeconfig: optional(str), allowExec: bool,
    requestTimeoutSeconds: optional(num(0)),
  })),
  rule0(ClusterDisconnectRequest),
  rule(ClusterSimulateRequest, simulateParams),
  rule(ClusterStuckRequest, obj<{ stuckAfterMinutes?: number }>({ stuckAfterMinutes: optional(num(0)) })),
  rule(ClusterObjectsRequest, clusterObjectsParams),
  rule(ClusterSearchObjectsRequest, clusterObjectsParams),
  rule(ClusterDocumentRequest, obj<{ uri: string }>({ uri: str })),
]);

function rule<P>(type: RequestType<P, unknown, void>, params: Validator<NoInfer<P>>): [string, (params: unknown) => string | undefined] {
  return [type.method, (v) => params(v, 'params')];
}

function rule0(type: RequestType0<unknown, void>): [string, (params: unknown) => string | undefined] {
  return [type.method, (v) => noParams(v, 'params')];
}

/** The first problem with a request's params ("kubeGcLens/simulate: params.uid must be a string"), or undefined. */
export function validateRequestParams(method: string, params: unknown): string | undefined {
  const validate = REQUEST_PARAMS.get(method);
  if (!validate) return `${method}: not a request of this protocol`;
  const problem = validate(params);
  return problem && `${method}: ${problem}`;
}

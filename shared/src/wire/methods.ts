// Every custom method of the editor protocol, with its direction and the types it carries. Plain data: the server
// (server/src/lsp/methods.ts) and the VS Code client (client/src/lazyClient.ts) bind them to their LSP libraries.
// Methods are namespaced `kubeGcLens/…`. Changing a shape is a versioned change (CHANGELOG.md, Protocol).

import type { GraphData, GraphParams, GraphSummary } from './graph';
import type { ObjectSummary } from './objects';
import type { RequestsReport, SimulateParams, SimulateReport, SimulateRequestsParams, StuckItem } from './simulation';
import type { ApplyWayOutParams, ApplyWayOutResult } from './wayOutActions';
import type {
  CheckResult,
  ClusterConnectParams,
  ClusterContextsResult,
  ClusterObjectSearchResult,
  ClusterObjectsParams,
  ClusterStatus,
  ServerStatus,
} from './status';

/** A request the client sends and the server answers. `P` and `R` are never set: they carry the types. */
export interface RequestDescriptor<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly direction: 'client → server';
  /** 0: the request takes no params. */
  readonly params: 0 | 1;
  readonly types?: (params: P) => R;
}

/** A notification the server sends to the client. */
export interface NotificationDescriptor<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly direction: 'server → client';
  readonly types?: (params: P) => void;
}

/** The params and the answer a request descriptor carries (a front end's handler signature follows from them). */
export type ParamsOf<D> = D extends RequestDescriptor<infer P, infer _R> ? P : never;
export type ResultOf<D> = D extends RequestDescriptor<infer _P, infer R> ? R : never;

const request = <P, R>(method: string): RequestDescriptor<P, R> => ({ kind: 'request', method, direction: 'client → server', params: 1 });
const request0 = <R>(method: string): RequestDescriptor<void, R> => ({ kind: 'request', method, direction: 'client → server', params: 0 });
const notification = <P>(method: string): NotificationDescriptor<P> => ({ kind: 'notification', method, direction: 'server → client' });

export interface ObjectsParams {
  /** Only objects written in this document. */
  uri?: string;
}

/** The object whose manifest contains a position (the cursor), if any. */
export interface ObjectAtParams {
  uri: string;
  position: { line: number; character: number };
}

/** What deleting one object does: the Report (null: no such object). */
export const SimulateRequest = request<SimulateParams, SimulateReport | null>('kubeGcLens/simulate');
/** What any requests do (DELETEs and changes, as a plan's `requests`): their Report. A version 3 addition. */
export const SimulateRequestsRequest = request<SimulateRequestsParams, RequestsReport>('kubeGcLens/simulateRequests');
/** Every object of the workspace. */
export const ObjectsRequest = request<ObjectsParams, ObjectSummary[]>('kubeGcLens/objects');
export const ObjectAtRequest = request<ObjectAtParams, ObjectSummary | null>('kubeGcLens/objectAt');
/** Objects being deleted that cannot finish (or are slow), and predicted deadlocks. */
export const StuckRequest = request0<StuckItem[]>('kubeGcLens/stuck');
/** The ownership graph, whole, one object's connected component, or one namespace's. */
export const GraphRequest = request<GraphParams, GraphData>('kubeGcLens/graph');
/** Re-read the workspace from disk and report every finding. */
export const CheckRequest = request0<CheckResult>('kubeGcLens/check');
/** What the server holds, after every change. */
export const StatusNotification = notification<ServerStatus>('kubeGcLens/status');

export const ClusterContextsRequest = request<{ kubeconfig?: string }, ClusterContextsResult>('kubeGcLens/cluster/contexts');
export const ClusterConnectRequest = request<ClusterConnectParams, ClusterStatus>('kubeGcLens/cluster/connect');
export const ClusterDisconnectRequest = request0<null>('kubeGcLens/cluster/disconnect');
export const ClusterStatusNotification = notification<ClusterStatus | null>('kubeGcLens/cluster/status');
export const ClusterSimulateRequest = request<SimulateParams, SimulateReport | null>('kubeGcLens/cluster/simulate');
export const ClusterSimulateRequestsRequest = request<SimulateRequestsParams, RequestsReport>('kubeGcLens/cluster/simulateRequests');
export const ClusterStuckRequest = request<{ stuckAfterMinutes?: number }, StuckItem[]>('kubeGcLens/cluster/stuck');
export const ClusterObjectsRequest = request<ClusterObjectsParams, ObjectSummary[]>('kubeGcLens/cluster/objects');
export const ClusterSearchObjectsRequest = request<ClusterObjectsParams, ClusterObjectSearchResult>('kubeGcLens/cluster/searchObjects');
/** The ownership graph of the live cluster; nodes' `location` are their live documents. */
export const ClusterGraphRequest = request<GraphParams, GraphData>('kubeGcLens/cluster/graph');
/** Object counts per namespace of the live graph. */
export const ClusterGraphSummaryRequest = request0<GraphSummary>('kubeGcLens/cluster/graphSummary');
/** The text of a live document (a note when the object is gone or nothing is connected). */
export const ClusterDocumentRequest = request<{ uri: string }, { text: string }>('kubeGcLens/cluster/document');
/**
 * Sends one way out of a stuck live object (a JSON patch), dry run first; only when the server's own
 * `kubeGcLens.cluster.allowWrites` is on. The only request of the protocol that changes a cluster.
 */
export const ClusterApplyWayOutRequest = request<ApplyWayOutParams, ApplyWayOutResult>('kubeGcLens/cluster/applyWayOut');

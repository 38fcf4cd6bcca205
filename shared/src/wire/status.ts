// What the server reports besides answers: the workspace check, its status, the live cluster's.

import type { Range, ObjectIdentity, ObjectSummary } from './objects';

export interface Finding {
  /** A stable code (docs/findings.md). */
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  object: ObjectIdentity;
  /** Which part of the object it is about. */
  location:
    | { kind: 'object' }
    | { kind: 'ownerReference'; index: number; field?: 'apiVersion' | 'kind' | 'name' | 'uid' | 'controller' | 'blockOwnerDeletion' }
    | { kind: 'finalizer'; index: number }
    | { kind: 'deletionTimestamp' };
  file?: string;
  range?: Range;
  related: { message: string; object?: ObjectIdentity; file?: string; range?: Range }[];
}

export interface CheckResult {
  files: number;
  objects: number;
  findings: Finding[];
  problems: number;
}

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

// ------------------------------------------------------------------------------------------------
// The live cluster (protocol version 2 adds these). Read-only: the server only ever sends GET requests to the
// cluster. Off until the client asks to connect.

/** A kubeconfig context. */
export interface ClusterContext {
  name: string;
  cluster: string;
  user: string;
  namespace?: string;
  server?: string;
  current: boolean;
}

/** What the connection to a live cluster is doing, and what could not be read. */
export interface ClusterStatus {
  context: string;
  server: string;
  /** Every namespace, or the chosen ones. */
  namespaces: 'all' | string[];
  state: 'connecting' | 'listing' | 'listed' | 'watching' | 'degraded' | 'disconnected';
  resources: { total: number; listed: number; watching: number };
  objects: number;
  problems: { kind: 'forbidden' | 'failing' | 'discovery'; resource: string; namespace?: string; message: string }[];
  requests: number;
  bytes: number;
  /** Bumped on every change to the live graph: a client refreshes what it shows when it changes. */
  version: number;
  /** Set when the connection failed as a whole (discovery unreachable). */
  error?: string;
  /** (Additive.) Which cluster the connection reaches, as last read: at connect, after a failure, every minute. */
  identity?: ClusterIdentity;
  /** (Additive.) Lists of everything, or of one resource, from scratch for a `ClusterRelist` reason; 0 until one. */
  relists?: number;
  /** (Additive.) The last of those relists, and why. */
  lastRelist?: ClusterRelist;
}

/** A cluster's identity: the kube-system Namespace's uid (what Argo CD and Velero use as a cluster id) and version. */
export interface ClusterIdentity {
  /** The kube-system Namespace's uid; absent when it could not be read (`problem` says why): writes are then refused. */
  uid?: string;
  /** The server's gitVersion (`v1.37.2`), from /version. */
  serverVersion?: string;
  /** `1.37`: the Kubernetes version simulations follow. */
  kubeVersion?: string;
  problem?: string;
}

/**
 * Why the live view listed again from scratch: `cluster-changed` (another kube-system uid behind the same server),
 * `resource-version-too-large` (a watch's resourceVersion is newer than the server's: "Too large resource version"),
 * `watches-silent` (every watch received nothing, not even a bookmark, for longer than the bound). docs/reliability.md.
 */
export interface ClusterRelist {
  reason: 'cluster-changed' | 'resource-version-too-large' | 'watches-silent';
  message: string;
  /** ISO 8601. */
  at: string;
}

export interface ClusterContextsResult {
  contexts: ClusterContext[];
  /** Why there are none (no kubeconfig, unreadable kubeconfig). */
  error?: string;
}

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

/**
 * kubeGcLens/cluster/stuck: live objects with a deletionTimestamp that cannot finish, or that have been
 * terminating longer than `stuckAfterMinutes` (kind "slow": still cleaning up, or stuck for a reason the
 * simulation cannot see). ageSeconds is measured against the current time.
 */

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

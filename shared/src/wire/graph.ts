// The ownership graph as the editor asks for it and the webview draws it.

import type { ObjectIdentity, SourceLocation } from './objects';

/** A finding's stable code (docs/findings.md lists them). */
export type FindingCode = string;

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
  /**
   * (v3 addition) With `stuck`: the uids of the objects its why-chain names (a dependent a foreground deletion waits
   * for, the workload of the controller that should remove a finalizer…), which may be outside this answer.
   */
  blockedBy?: string[];
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

/** (v2 addition) How many objects each namespace holds, for choosing a graph's scope. */
export interface GraphSummary {
  /** Every object (virtual owners are not objects). */
  objects: number;
  /** Namespaces (`""`: the cluster-scoped objects) with their object counts, the largest first, then by name. */
  namespaces: { namespace: string; objects: number }[];
}

/**
 * The most nodes the VS Code client asks a live graph's scope for (`limit`); a live cluster of more objects is shown
 * one scope at a time. The webview draws 5,000 objects in about a quarter of a second and pans them at 60 frames per
 * second (README, Performance).
 */
export const GRAPH_LIMIT = 5000;

// The ownership graph as data, in the shape of kube-controller-manager's
// /debug/controllers/garbagecollector/graph dump (`kubectl-gc graph -o json`; -o dot writes the same).

export interface GraphSnapshotNode {
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  /** A synthetic vertex the dump writes for an owner uid with no node at all (rare, see FORMAT.md). */
  missing: boolean;
  beingDeleted: boolean;
  deletingDependents: boolean;
  /** Referenced as an owner but never observed. */
  virtual: boolean;
}

export interface GraphSnapshotEdge {
  /** Dependent uid. */
  from: string;
  /** Owner uid. */
  to: string;
}

export interface GraphSnapshot {
  nodes: GraphSnapshotNode[];
  edges: GraphSnapshotEdge[];
}

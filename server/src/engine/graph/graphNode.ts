// A node of the ownership graph, the same record kube-controller-manager's GC keeps in uidToNode (R18).

import type { ObjectIdentity, OwnerReference } from '../model';

const NO_DEPENDENTS: ReadonlySet<GraphNode> = new Set();

export class GraphNode {
  /** Owners as last observed on the object (its ownerReferences). Empty for virtual nodes. */
  owners: OwnerReference[] = [];
  /** Allocated on the first dependent: most nodes (Pods, ConfigMaps…) never have one. */
  private deps?: Set<GraphNode>;
  beingDeleted = false;
  deletingDependents = false;
  /** Position in the graph's insertion order (OwnershipGraph sets it), for deterministic listings. */
  order = 0;

  constructor(
    public identity: ObjectIdentity,
    /** Referenced as an owner but never observed. */
    public virtual: boolean,
  ) {}

  /** Nodes whose owners name this uid. */
  get dependents(): ReadonlySet<GraphNode> {
    return this.deps ?? NO_DEPENDENTS;
  }

  addDependent(n: GraphNode): void {
    (this.deps ??= new Set()).add(n);
  }

  /** True if `n` was a dependent. */
  deleteDependent(n: GraphNode): boolean {
    return this.deps?.delete(n) ?? false;
  }

  /** A copy with its own dependents set: the GC replaces nodes instead of mutating them (R20, R27). */
  clone(): GraphNode {
    const c = new GraphNode({ ...this.identity }, this.virtual);
    c.owners = this.owners;
    if (this.deps) c.deps = new Set(this.deps);
    c.beingDeleted = this.beingDeleted;
    c.deletingDependents = this.deletingDependents;
    return c;
  }

  /** Dependents that hold a blocking reference (blockOwnerDeletion: true) to this node (R38). */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents) {
      for (const ref of dep.owners) {
        if (ref.uid === this.identity.uid && ref.blockOwnerDeletion === true) out.push(dep);
      }
    }
    return out;
  }
}

/** The reference's coordinates match the identity (namespace is not part of a reference). */
export function referenceMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

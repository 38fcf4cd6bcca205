// The ownership graph of a set of objects as they are (no deletion in progress): what the GC's
// GraphBuilder holds once its informers have synced. Updated one object at a time, so the editor can
// re-analyse on every keystroke without rebuilding it.

import { splitApiVersion, type ObjectIdentity, type OwnerReference, FOREGROUND_FINALIZER } from '../model';
import { GraphNode } from './graphNode';
import type { GraphSnapshot, GraphSnapshotNode } from './graphSnapshot';

export interface ObservedObject {
  identity: ObjectIdentity;
  owners: OwnerReference[];
  terminating: boolean;
  finalizers: string[];
}

export class OwnershipGraph {
  readonly nodes = new Map<string, GraphNode>();
  private created = 0;

  /** The given uids in the order their nodes entered the graph (the order of `nodes`); unknown uids last. */
  inOrder(uids: Iterable<string>): string[] {
    const at = (u: string) => this.nodes.get(u)?.order ?? Number.MAX_SAFE_INTEGER;
    return [...uids].sort((a, b) => at(a) - at(b));
  }

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Adds or updates an observed object. Cost is proportional to its references, not to the graph. */
  upsert(o: ObservedObject): GraphNode {
    let node = this.nodes.get(o.identity.uid);
    if (!node) {
      node = new GraphNode(o.identity, false);
      node.order = this.created++;
      this.nodes.set(o.identity.uid, node);
      this.link(node, o.owners);
    } else {
      node.identity = o.identity;
      node.virtual = false;
      const before = new Set(node.owners.map((r) => r.uid));
      const after = new Set(o.owners.map((r) => r.uid));
      this.unlink(
        node,
        [...before].filter((u) => !after.has(u)),
      );
      node.owners = o.owners;
      this.link(
        node,
        o.owners.filter((r) => !before.has(r.uid)),
      );
    }
    node.owners = o.owners;
    // A snapshot view: unlike the GC's one-way flags, these follow the object as it is now.
    node.beingDeleted = o.terminating;
    node.deletingDependents = o.terminating && o.finalizers.includes(FOREGROUND_FINALIZER);
    return node;
  }

  /** Removes an object. If others still reference it, it stays as a virtual node, as the GC would see it. */
  remove(uid: string): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    this.unlink(node, [...new Set(node.owners.map((r) => r.uid))]);
    node.owners = [];
    if (node.dependents.size === 0) {
      this.nodes.delete(uid);
      return;
    }
    const [first] = node.dependents;
    const ref = first.owners.find((r) => r.uid === uid)!;
    node.identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid, namespace: first.identity.namespace };
    node.virtual = true;
    node.beingDeleted = false;
    node.deletingDependents = false;
  }

  private link(node: GraphNode, refs: OwnerReference[]): void {
    for (const ref of refs) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        // Virtual owner: the reference's coordinates plus the dependent's namespace (R22).
        owner = new GraphNode(
          { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: node.identity.namespace },
          true,
        );
        owner.order = this.created++;
        this.nodes.set(ref.uid, owner);
      }
      owner.addDependent(node);
    }
  }

  private unlink(node: GraphNode, ownerUids: string[]): void {
    for (const uid of ownerUids) {
      const owner = this.nodes.get(uid);
      if (!owner) continue;
      owner.deleteDependent(node);
      // Unlike the GC (which waits for a virtual delete event), drop virtual owners nobody references.
      if (owner.virtual && owner.dependents.size === 0) this.nodes.delete(uid);
    }
  }

  /** Uids connected to `uids` through owner and dependent links, in both directions (the dump's ?uid=). */
  component(uids: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const stack = [...uids].filter((u) => this.nodes.has(u));
    while (stack.length) {
      const uid = stack.pop()!;
      if (seen.has(uid)) continue;
      seen.add(uid);
      const n = this.nodes.get(uid)!;
      for (const r of n.owners) if (this.nodes.has(r.uid) && !seen.has(r.uid)) stack.push(r.uid);
      for (const d of n.dependents) if (!seen.has(d.identity.uid)) stack.push(d.identity.uid);
    }
    return seen;
  }

  /**
   * The graph as kube-controller-manager's debug endpoint dumps it: nodes without owners or dependents are
   * left out, nodes sorted by uid, edges (dependent → owner) sorted.
   */
  snapshot(only?: Set<string>): GraphSnapshot {
    const nodes: GraphSnapshotNode[] = [];
    const edges: { from: string; to: string }[] = [];
    for (const n of this.nodes.values()) {
      if (only && !only.has(n.identity.uid)) continue;
      if (n.owners.length === 0 && n.dependents.size === 0) continue;
      const { group, version } = splitApiVersion(n.identity.apiVersion);
      nodes.push({
        group,
        version,
        kind: n.identity.kind,
        namespace: n.identity.namespace,
        name: n.identity.name,
        uid: n.identity.uid,
        missing: false,
        beingDeleted: n.beingDeleted,
        deletingDependents: n.deletingDependents,
        virtual: n.virtual,
      });
      for (const r of n.owners) edges.push({ from: n.identity.uid, to: r.uid });
    }
    const byteCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    nodes.sort((a, b) => byteCompare(a.uid, b.uid));
    edges.sort((a, b) => byteCompare(a.from, b.from) || byteCompare(a.to, b.to));
    return { nodes, edges };
  }
}

// Which part of the ownership graph kubeGcLens/graph and kubeGcLens/cluster/graph send (engine/graph/graphScope.ts):
// a namespace with its neighbours outside it, one object's component, the whole graph; a limit that keeps the top of
// each ownership tree (or what is nearest a focused object) and counts what it left out; objects per namespace.
import { describe, expect, it } from 'vitest';
import { buildInventory, type Inventory } from '../../server/src/engine/inventory';
import type { KubeObject, OwnerReference } from '../../server/src/engine/model';
import { namespaceCounts, selectGraph } from '../../server/src/engine/graph/graphScope';

const obj = (
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  uid: string,
  owners: OwnerReference[] = [],
): KubeObject => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid,
  ownerReferences: owners,
  finalizers: [],
  facts: {},
});
const ref = (apiVersion: string, kind: string, name: string, uid: string): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion: true,
});

/**
 * Two namespaces: shop (a Deployment → ReplicaSet → 3 Pods, a ConfigMap, a Pod whose ReplicaSet is gone, a Pod owned by
 * the cluster-scoped Node), and team (a ConfigMap owned by a ClusterRole that also owns one in shop); the Namespace
 * objects, the Node, the ClusterRole.
 */
function cluster(): Inventory {
  return buildInventory([
    obj('v1', 'Namespace', '', 'shop', 'ns-shop'),
    obj('v1', 'Namespace', '', 'team', 'ns-team'),
    obj('v1', 'Namespace', '', 'empty', 'ns-empty'),
    obj('v1', 'Node', '', 'node-1', 'node-1'),
    obj('rbac.authorization.k8s.io/v1', 'ClusterRole', '', 'shared', 'cr'),
    obj('apps/v1', 'Deployment', 'shop', 'web', 'd'),
    obj('apps/v1', 'ReplicaSet', 'shop', 'web-1', 'rs', [ref('apps/v1', 'Deployment', 'web', 'd')]),
    obj('v1', 'Pod', 'shop', 'web-1-a', 'p1', [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs')]),
    obj('v1', 'Pod', 'shop', 'web-1-b', 'p2', [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs')]),
    obj('v1', 'Pod', 'shop', 'web-1-c', 'p3', [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs')]),
    obj('v1', 'ConfigMap', 'shop', 'settings', 'cm'),
    obj('v1', 'Pod', 'shop', 'stray', 'p-stray', [ref('apps/v1', 'ReplicaSet', 'gone', 'rs-gone')]),
    obj('v1', 'Pod', 'shop', 'kube-proxy-node-1', 'p-mirror', [ref('v1', 'Node', 'node-1', 'node-1')]),
    obj('v1', 'ConfigMap', 'shop', 'rbac-a', 'cm-a', [ref('rbac.authorization.k8s.io/v1', 'ClusterRole', 'shared', 'cr')]),
    obj('v1', 'ConfigMap', 'team', 'rbac-b', 'cm-b', [ref('rbac.authorization.k8s.io/v1', 'ClusterRole', 'shared', 'cr')]),
  ]);
}

const sorted = (xs: string[]) => [...xs].sort();

describe('selectGraph', () => {
  it('without a scope: every node (virtual owners included) in graph order, nothing omitted', () => {
    const inv = cluster();
    const s = selectGraph(inv);
    expect(s.uids).toEqual([...inv.graph.nodes.keys()]);
    expect(s.total).toBe(inv.graph.nodes.size);
    expect(s.omitted.size).toBe(0);
  });

  it('a namespace: its objects, their owners and dependents outside it, and the Namespace; the links left out counted', () => {
    const s = selectGraph(cluster(), { namespace: 'shop' });
    expect(sorted(s.uids)).toEqual(
      sorted(['ns-shop', 'd', 'rs', 'p1', 'p2', 'p3', 'cm', 'p-stray', 'rs-gone', 'p-mirror', 'node-1', 'cm-a', 'cr']),
    );
    expect(s.total).toBe(s.uids.length);
    // The ClusterRole's other dependent is in team; nothing else leaves the scope.
    expect([...s.omitted]).toEqual([['cr', { owners: 0, dependents: 1 }]]);
  });

  it('the cluster-scoped objects ("") with their namespaced dependents', () => {
    const s = selectGraph(cluster(), { namespace: '' });
    expect(sorted(s.uids)).toEqual(sorted(['ns-shop', 'ns-team', 'ns-empty', 'node-1', 'cr', 'p-mirror', 'cm-a', 'cm-b']));
    expect(s.omitted.size).toBe(0);
  });

  it('an unknown namespace is empty', () => {
    expect(selectGraph(cluster(), { namespace: 'nope' })).toEqual({ uids: [], total: 0, omitted: new Map() });
  });

  it("one object's connected component, whatever the namespace asked (uid wins)", () => {
    const s = selectGraph(cluster(), { uid: 'p2', namespace: 'team' });
    expect(s.uids).toEqual(['d', 'rs', 'p1', 'p2', 'p3']);
    expect(s.total).toBe(5);
    expect(s.omitted.size).toBe(0);
    expect(selectGraph(cluster(), { uid: 'missing' }).uids).toEqual([]);
  });

  it('a limit on a namespace keeps the top of each tree, isolated objects last, and counts what it cut', () => {
    const s = selectGraph(cluster(), { namespace: 'shop', limit: 7 });
    expect(s.total).toBe(13);
    // Roots first (in graph order: Node, ClusterRole, Deployment, the virtual ReplicaSet), then their dependents, breadth first.
    expect(s.uids).toEqual(['node-1', 'cr', 'd', 'rs-gone', 'p-mirror', 'cm-a', 'rs']);
    expect(s.omitted.get('rs')).toEqual({ owners: 0, dependents: 3 });
    expect(s.omitted.get('rs-gone')).toEqual({ owners: 0, dependents: 1 });
    expect(s.omitted.get('cr')).toEqual({ owners: 0, dependents: 1 });
    // The ConfigMap and the Namespace, with neither owners nor dependents, come after every tree.
    const all = selectGraph(cluster(), { namespace: 'shop', limit: 12 });
    expect(all.uids.slice(-1)).toEqual(['ns-shop']);
    expect(all.uids).not.toContain('cm');
  });

  it('a limit on a component keeps what is nearest the object: its owners first', () => {
    const s = selectGraph(cluster(), { uid: 'p2', limit: 3 });
    expect(s.uids).toEqual(['p2', 'rs', 'd']);
    expect(s.total).toBe(5);
    expect(s.omitted.get('rs')).toEqual({ owners: 0, dependents: 2 });
    expect(s.omitted.has('p2')).toBe(false);
  });

  it('a giant fan-out (an owner with 20,000 dependents) is cut, its owner kept (its time: npm run bench, live graph)', () => {
    const objects = [obj('apps/v1', 'ReplicaSet', 'big', 'huge', 'rs-huge')];
    for (let i = 0; i < 20_000; i++)
      objects.push(obj('v1', 'Pod', 'big', `huge-${i}`, `p-${i}`, [ref('apps/v1', 'ReplicaSet', 'huge', 'rs-huge')]));
    const inv = buildInventory(objects);
    const s = selectGraph(inv, { uid: 'p-19999', limit: 5000 });
    expect(s.uids.slice(0, 3)).toEqual(['p-19999', 'rs-huge', 'p-0']);
    expect(s.uids).toHaveLength(5000);
    expect(s.total).toBe(20_001);
    expect(s.omitted.get('rs-huge')).toEqual({ owners: 0, dependents: 15_001 });
    const ns = selectGraph(inv, { namespace: 'big', limit: 100 });
    expect(ns.uids[0]).toBe('rs-huge');
    expect(ns.total).toBe(20_001);
  });

  it('objects in an ownership cycle (no root) still come before isolated ones', () => {
    const inv = buildInventory([
      obj('v1', 'ConfigMap', 'x', 'alone', 'alone'),
      obj('v1', 'ConfigMap', 'x', 'a', 'a', [ref('v1', 'ConfigMap', 'b', 'b')]),
      obj('v1', 'ConfigMap', 'x', 'b', 'b', [ref('v1', 'ConfigMap', 'a', 'a')]),
    ]);
    expect(selectGraph(inv, { namespace: 'x', limit: 2 }).uids).toEqual(['a', 'b']);
  });

  it('ignores a limit that is not a positive integer', () => {
    const inv = cluster();
    for (const limit of [0, -3, 2.5, Number.NaN]) expect(selectGraph(inv, { namespace: 'shop', limit }).uids).toHaveLength(13);
  });
});

describe('namespaceCounts', () => {
  it('objects per namespace, the largest first, empty Namespaces with 0', () => {
    expect(namespaceCounts(cluster())).toEqual({
      objects: 15,
      namespaces: [
        { namespace: 'shop', objects: 9 },
        { namespace: '', objects: 5 },
        { namespace: 'team', objects: 1 },
        { namespace: 'empty', objects: 0 },
      ],
    });
  });
});

// Which namespaces' Pods a simulation on a metadata-only graph (a live cluster) must read in full first: those
// holding a PersistentVolumeClaim and a Pod whose spec is unknown, that the deletion or the baseline can reach.

import { describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/engine/inventory';
import type { KubeObject } from '../../server/src/engine/model';
import { namespacesNeedingPodSpecs } from '../../server/src/engine/simulation/podSpecScope';

function o(kind: string, namespace: string, name: string, more: Partial<KubeObject> = {}): KubeObject {
  const apiVersion = kind === 'Deployment' ? 'apps/v1' : kind === 'ClusterRole' ? 'rbac.authorization.k8s.io/v1' : 'v1';
  return {
    apiVersion,
    kind,
    namespace,
    name,
    uid: `${kind}-${namespace}-${name}`,
    ownerReferences: [],
    finalizers: [],
    facts: {},
    ...more,
  };
}
const unreadPod = (namespace: string, name = 'p') => o('Pod', namespace, name, { facts: { specUnread: true } });
const readPod = (namespace: string) => o('Pod', namespace, 'read', { facts: { nodeName: 'n', claimNames: ['data'] } });
const claim = (namespace: string, more: Partial<KubeObject> = {}) => o('PersistentVolumeClaim', namespace, 'data', more);
const target = (x: KubeObject) => ({ apiVersion: x.apiVersion, kind: x.kind, namespace: x.namespace, name: x.name });

/** Three namespaces with claims and unread Pods, one without claims, one whose Pods were read. */
function cluster(extra: KubeObject[] = []) {
  return buildInventory([
    o('Namespace', '', 'a'),
    o('Namespace', '', 'b'),
    o('Namespace', '', 'c'),
    o('Namespace', '', 'plain'),
    o('Namespace', '', 'known'),
    claim('a'),
    unreadPod('a'),
    claim('b'),
    unreadPod('b'),
    claim('c'),
    unreadPod('c'),
    unreadPod('plain'),
    o('Deployment', 'plain', 'web'),
    claim('known'),
    readPod('known'),
    ...extra,
  ]);
}

describe('namespacesNeedingPodSpecs', () => {
  it('a namespaced target: its own namespace, only if it holds a claim and an unread Pod', () => {
    const inv = cluster([o('Deployment', 'a', 'db')]);
    expect(namespacesNeedingPodSpecs(inv, [target(o('Deployment', 'a', 'db'))])).toEqual(['a']);
    expect(namespacesNeedingPodSpecs(inv, [target(o('Deployment', 'plain', 'web'))])).toEqual([]);
    expect(namespacesNeedingPodSpecs(inv, [target(readPod('known'))])).toEqual([]);
  });

  it('a Namespace target: its content; another cluster-scoped target: every namespace that qualifies', () => {
    const inv = cluster();
    expect(namespacesNeedingPodSpecs(inv, [target(o('Namespace', '', 'b'))])).toEqual(['b']);
    expect(namespacesNeedingPodSpecs(inv, [target(o('ClusterRole', '', 'admin'))])).toEqual(['a', 'b', 'c']);
  });

  it('the baseline: namespaces of what is terminating already, every one when a cluster-scoped object is', () => {
    const terminatingClaim = cluster([
      claim('c', {
        name: 'old',
        uid: 'old-claim',
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['kubernetes.io/pvc-protection'],
      }),
    ]);
    expect(namespacesNeedingPodSpecs(terminatingClaim, [target(o('Deployment', 'a', 'db'))])).toEqual(['a', 'c']);
    const terminatingRole = cluster([
      o('ClusterRole', '', 'gone', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['example.com/x'] }),
    ]);
    expect(namespacesNeedingPodSpecs(terminatingRole, [])).toEqual(['a', 'b', 'c']);
  });

  it('nothing to read without claims, or on manifests (every Pod spec known)', () => {
    expect(namespacesNeedingPodSpecs(buildInventory([unreadPod('a'), o('Namespace', '', 'a')]), [target(o('Namespace', '', 'a'))])).toEqual(
      [],
    );
    expect(namespacesNeedingPodSpecs(buildInventory([claim('a'), readPod('a')]), [target(o('Namespace', '', 'a'))])).toEqual([]);
  });
});

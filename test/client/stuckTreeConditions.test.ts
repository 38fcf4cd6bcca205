// The Stuck Objects tree shows a Namespace's status conditions (those that hold) as children, after the
// engine's why-chain: what the cluster's namespace controller says beside what the simulation says is left.

import { describe, expect, it } from 'vitest';
import type { NamespaceCondition } from '../../server/src/engine/model';
import type { StuckItem } from '../../shared/src/protocol';
import { childrenOf, stuckRoots } from '../../client/src/logic/stuckTree';

const ns = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'legacy-mq', uid: 'uid-ns' };
const cluster = { apiVersion: 'rabbitmq.com/v1beta1', kind: 'RabbitmqCluster', namespace: 'legacy-mq', name: 'orders', uid: 'uid-orders' };

const discovery: NamespaceCondition = {
  type: 'NamespaceDeletionDiscoveryFailure',
  status: 'True',
  reason: 'DiscoveryFailed',
  message: 'Discovery failed for some groups, 1 failing: metrics.k8s.io/v1beta1: stale GroupVersion discovery',
  lastTransitionTime: '2026-11-14T09:12:50Z',
};
const remaining: NamespaceCondition = {
  type: 'NamespaceContentRemaining',
  status: 'True',
  reason: 'SomeResourcesRemain',
  message: 'Some resources are remaining: rabbitmqclusters.rabbitmq.com has 1 resource instances',
};
const finalizersOnly: NamespaceCondition = { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain' };

const summary = (o: typeof ns) => ({ ...o, syntheticUid: false, beingDeleted: true, finalizers: [], ownerCount: 0 });

const stuck: StuckItem = {
  ...summary(ns),
  state: 'stuck',
  reason:
    'Namespace legacy-mq stays Terminating: NamespaceContentRemaining: Some resources are remaining: RabbitmqCluster has 1 resource instances',
  since: '2026-11-14T09:12:44Z',
  ageSeconds: 600,
  blockedBy: [
    {
      type: 'namespace-content',
      finalizer: 'kubernetes',
      controller: 'namespace-controller',
      message: 'NamespaceContentRemaining: Some resources are remaining: RabbitmqCluster has 1 resource instances',
      blockedBy: [
        { type: 'finalizer', object: cluster, message: 'RabbitmqCluster legacy-mq/orders is still in the namespace (Terminating)' },
      ],
      conditions: [discovery, remaining, finalizersOnly],
    },
  ],
  namespaceConditions: [discovery, remaining, finalizersOnly],
};

describe("a Namespace's conditions in the Stuck Objects tree", () => {
  it('are children of its root, in stored order, after the why-chain', () => {
    const [root] = stuckRoots([stuck]);
    expect(root.hasChildren).toBe(true);
    const children = childrenOf(root);
    expect(children.map((c) => [c.label, c.description, c.icon, c.contextValue, c.hasChildren])).toEqual([
      [
        'namespace content',
        'NamespaceContentRemaining: Some resources are remaining: RabbitmqCluster has 1 resource instances',
        'folder',
        'reason',
        true,
      ],
      ['NamespaceDeletionDiscoveryFailure', discovery.message, 'warning', 'reason', false],
      ['NamespaceContentRemaining', remaining.message, 'info', 'reason', false],
      ['NamespaceFinalizersRemaining', 'SomeFinalizersRemain', 'info', 'reason', false],
    ]);
    expect(children[1].id).toBe('stuck:uid-ns/condition:NamespaceDeletionDiscoveryFailure');
    expect(children[1].tooltip).toBe(
      [
        'NamespaceDeletionDiscoveryFailure: True (DiscoveryFailed)',
        discovery.message,
        'Since 2026-11-14T09:12:50Z',
        "Reported by the namespace controller in the Namespace's status.conditions",
      ].join('\n'),
    );
    // The why-chain below is unchanged, and does not repeat the conditions.
    expect(childrenOf(children[0]).map((c) => c.label)).toEqual(['RabbitmqCluster legacy-mq/orders']);
  });

  it('a "slow" Namespace (no why-chain): the sentence, then its conditions', () => {
    const slow: StuckItem = {
      ...summary(ns),
      state: 'slow',
      blockedBy: [],
      ageSeconds: 1200,
      since: '2026-11-14T09:12:44Z',
      reason: 'terminating for 20 min and is still being removed; its namespace controller reports NamespaceDeletionDiscoveryFailure',
      namespaceConditions: [discovery],
    };
    expect(childrenOf(stuckRoots([slow])[0]).map((c) => c.label)).toEqual([slow.reason, 'NamespaceDeletionDiscoveryFailure']);
  });

  it('items without conditions keep their children as before', () => {
    const plain: StuckItem = { ...stuck, namespaceConditions: undefined };
    expect(childrenOf(stuckRoots([plain])[0]).map((c) => c.label)).toEqual(['namespace content']);
  });
});

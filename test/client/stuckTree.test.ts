// The Stuck Objects tree model: roots from StuckItems, the why-chain as children.

import { describe, expect, it } from 'vitest';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { ObjectSummary, SourceLocation, StuckItem } from '../../shared/src/protocol';
import { childrenOf, stuckRoots, type StuckTreeNode } from '../../client/src/logic/stuckTree';

const id = (kind: string, namespace: string, name: string, apiVersion = 'v1'): ObjectIdentity => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid: `uid-${name}`,
});
const at = (file: string, line: number): SourceLocation => ({
  uri: `file:///ws/${file}`,
  range: { start: { line, character: 0 }, end: { line, character: 5 } },
});
const summaryOf = (o: ObjectIdentity, extra: Partial<ObjectSummary> = {}): ObjectSummary => ({
  ...o,
  syntheticUid: false,
  beingDeleted: true,
  finalizers: [],
  ownerCount: 0,
  ...extra,
});

const kafka = id('Kafka', 'kafka', 'cluster', 'kafka.strimzi.io/v1beta2');
const operator = id('Deployment', 'kafka', 'strimzi-cluster-operator', 'apps/v1');
const ns = id('Namespace', '', 'kafka');

const items: StuckItem[] = [
  {
    ...summaryOf(kafka, { finalizers: ['kafka.strimzi.io/finalizer'], location: at('kafka.yaml', 3) }),
    state: 'stuck',
    reason: 'Kafka kafka/cluster stays Terminating: its controller Deployment kafka/strimzi-cluster-operator is being deleted',
    since: '2024-05-01T10:00:00Z',
    ageSeconds: 273600,
    blockedBy: [
      {
        type: 'finalizer',
        finalizer: 'kafka.strimzi.io/finalizer',
        controller: 'Deployment kafka/strimzi-cluster-operator',
        object: operator,
        step: 4,
        message: 'its controller Deployment kafka/strimzi-cluster-operator is being deleted (since step 4)',
        blockedBy: [
          {
            type: 'namespace-content',
            finalizer: 'kubernetes',
            controller: 'namespace-controller',
            message: 'NamespaceContentRemaining: Some resources are remaining: Kafka has 1 resource instances',
            blockedBy: [{ type: 'finalizer', object: kafka, message: 'Kafka kafka/cluster is still in the namespace (Terminating)' }],
          },
        ],
      },
    ],
    locations: { [operator.uid]: at('operator.yaml', 0) },
  },
  {
    ...summaryOf(ns, { beingDeleted: false }),
    state: 'finalizer-deadlock',
    reason: 'Deleting Namespace kafka deletes the controller that removes kafka.strimzi.io/finalizer.',
    blockedBy: [],
    since: null,
  },
];

/** The fields a test reads, without the shared `locations` map. */
const shape = (n: StuckTreeNode) => ({
  id: n.id,
  label: n.label,
  description: n.description,
  icon: n.icon,
  contextValue: n.contextValue,
  hasChildren: n.hasChildren,
  ...(n.uid !== undefined ? { uid: n.uid } : {}),
});

describe('stuckRoots', () => {
  it('makes one root per item: name, kind of problem and age, a tooltip, reveal when written somewhere', () => {
    const roots = stuckRoots(items);
    expect(roots.map(shape)).toEqual([
      {
        id: 'stuck:uid-cluster',
        label: 'Kafka kafka/cluster',
        description: 'stuck terminating · 3d 4h',
        icon: 'watch',
        contextValue: 'object.revealable',
        hasChildren: true,
        uid: 'uid-cluster',
      },
      {
        id: 'finalizer-deadlock:uid-kafka',
        label: 'Namespace kafka',
        description: 'predicted finalizer deadlock',
        icon: 'lock',
        contextValue: 'object',
        hasChildren: true,
        uid: 'uid-kafka',
      },
    ]);
    expect(roots[0].location).toEqual(at('kafka.yaml', 3));
    expect(roots[0].warning).toBe(true);
    expect(roots[0].tooltip).toBe(
      [
        'Kafka kafka/cluster (kafka.strimzi.io/v1beta2)',
        'Kafka kafka/cluster stays Terminating: its controller Deployment kafka/strimzi-cluster-operator is being deleted',
        'Terminating since 2024-05-01T10:00:00Z, 3d 4h before the newest timestamp in the input',
        'Finalizers: kafka.strimzi.io/finalizer',
        'Written in kafka.yaml:4',
      ].join('\n'),
    );
  });

  it('says a stuck item whose finish rests on a guessed controller is not proven, with the guess in its tooltip', () => {
    const guess = 'finishes if Deployment web/bank-gateway is its controller (guessed from the words "bank" …)';
    const [root] = stuckRoots([{ ...items[0], guess, reason: `Not proven to finish: Kafka kafka/cluster ${guess}` }]);
    expect(root.description).toBe('not proven to finish (guessed controller) · 3d 4h');
    expect(root.tooltip.split('\n')[1]).toBe(`Not proven to finish: Kafka kafka/cluster ${guess}`);
    expect(root.warning).toBe(true);
  });

  it('keeps ids unique when an object is listed twice', () => {
    expect(stuckRoots([items[1], items[1]]).map((n) => n.id)).toEqual(['finalizer-deadlock:uid-kafka', 'finalizer-deadlock:uid-kafka#1']);
  });
});

describe('childrenOf', () => {
  it('walks the why-chain: finalizer → controller state → the objects it waits for', () => {
    const [root] = stuckRoots(items);
    const [finalizer] = childrenOf(root);
    expect(shape(finalizer)).toEqual({
      id: 'stuck:uid-cluster/0',
      label: 'finalizer kafka.strimzi.io/finalizer',
      description: 'its controller Deployment kafka/strimzi-cluster-operator is being deleted (since step 4)',
      icon: 'lock',
      contextValue: 'object.revealable',
      hasChildren: true,
      uid: 'uid-strimzi-cluster-operator',
    });
    expect(finalizer.location).toEqual(at('operator.yaml', 0));
    expect(finalizer.tooltip).toBe(
      [
        'its controller Deployment kafka/strimzi-cluster-operator is being deleted (since step 4)',
        'Finalizer: kafka.strimzi.io/finalizer',
        'Controller: Deployment kafka/strimzi-cluster-operator',
        'Object: Deployment kafka/strimzi-cluster-operator (uid uid-strimzi-cluster-operator)',
        'Step: 4',
        'Written in operator.yaml:1',
      ].join('\n'),
    );

    const [content] = childrenOf(finalizer);
    expect(shape(content)).toEqual({
      id: 'stuck:uid-cluster/0/0',
      label: 'namespace content',
      description: 'NamespaceContentRemaining: Some resources are remaining: Kafka has 1 resource instances',
      icon: 'folder',
      contextValue: 'reason',
      hasChildren: true,
    });

    const [member] = childrenOf(content);
    // An object link: the object is the label, its role the description; not written in `locations`, so no reveal.
    expect(shape(member)).toEqual({
      id: 'stuck:uid-cluster/0/0/0',
      label: 'Kafka kafka/cluster',
      description: 'is still in the namespace (Terminating)',
      icon: 'lock',
      contextValue: 'object',
      hasChildren: false,
      uid: 'uid-cluster',
    });
    expect(childrenOf(member)).toEqual([]);
  });

  it('shows the reason sentence under a predicted deadlock that has no chain', () => {
    const [, deadlock] = stuckRoots(items);
    expect(childrenOf(deadlock).map(shape)).toEqual([
      {
        id: 'finalizer-deadlock:uid-kafka/note',
        label: 'Deleting Namespace kafka deletes the controller that removes kafka.strimzi.io/finalizer.',
        description: '',
        icon: 'info',
        contextValue: 'reason',
        hasChildren: false,
      },
    ]);
  });

  it('stops at a bounded depth on a looping chain', () => {
    const loop: StuckItem['blockedBy'][number] = {
      type: 'waiting-for-dependents',
      finalizer: 'foregroundDeletion',
      controller: 'garbage-collector',
      message: 'waits',
    };
    loop.blockedBy = [loop];
    // A uid may contain `/` (synthetic uids do): depth is counted, not read from the id.
    const object = summaryOf({ ...ns, uid: 'synthetic:core/Namespace/-/a/b/c' });
    const [root] = stuckRoots([{ ...items[1], ...object, state: 'foreground-deadlock', blockedBy: [loop] }]);
    let node = root;
    let depth = 0;
    while (node.hasChildren) {
      node = childrenOf(node)[0];
      depth++;
    }
    expect(depth).toBe(12);
    expect(node.depth).toBe(12);
    expect(node.label).toBe('waiting for dependents');
  });
});

// app/graph.ts: what blocks a stuck object travels with the graph (`blockedBy`), and a namespace's graph brings the
// blockers that live outside it, so Show in Graph on a Namespace shows them on a live cluster too.

import { describe, expect, it } from 'vitest';
import { blockerUids, graphData, selectWithBlockers } from '../../server/src/app/graph';
import { buildInventory } from '../../server/src/engine/inventory';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import type { BlockReason } from '../../shared/src/protocol';

const YAML = `
apiVersion: v1
kind: Namespace
metadata: { name: legacy-mq, uid: ns-1, deletionTimestamp: "2026-11-01T00:00:00Z" }
spec: { finalizers: [kubernetes] }
---
apiVersion: rabbitmq.com/v1beta1
kind: RabbitmqCluster
metadata:
  name: orders
  namespace: legacy-mq
  uid: mq-1
  deletionTimestamp: "2026-11-01T00:00:00Z"
  finalizers: [deletion.finalizers.rabbitmqclusters.rabbitmq.com]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: rabbitmq-cluster-operator, namespace: rabbitmq-system, uid: op-1 }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: unrelated, namespace: rabbitmq-system, uid: cm-1 }
`;

const operator = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'rabbitmq-system',
  name: 'rabbitmq-cluster-operator',
  uid: 'op-1',
};
const mq = { apiVersion: 'rabbitmq.com/v1beta1', kind: 'RabbitmqCluster', namespace: 'legacy-mq', name: 'orders', uid: 'mq-1' };
const mqBlockers: BlockReason[] = [
  {
    type: 'finalizer',
    message: 'waits for finalizer deletion.finalizers.rabbitmqclusters.rabbitmq.com',
    blockedBy: [{ type: 'finalizer', message: 'its controller runs in', object: operator }],
  },
];
const stuck = new Map([
  [
    'ns-1',
    {
      reason: 'waits for its content',
      blockedBy: [{ type: 'namespace-content', message: 'content', object: mq, blockedBy: mqBlockers }] as BlockReason[],
    },
  ],
  ['mq-1', { reason: 'waits for finalizer', blockedBy: mqBlockers }],
]);

describe('the graph carries what blocks stuck objects', () => {
  const inventory = buildInventory(parseManifestText(YAML, 'x.yaml').objects, {});

  it('names each object of a why-chain once, never the object itself', () => {
    expect(blockerUids('ns-1', stuck.get('ns-1')!.blockedBy)).toEqual(['mq-1', 'op-1']);
    expect(blockerUids('mq-1', [{ type: 'finalizer', message: 'x', object: mq }])).toEqual([]);
  });

  it("a namespace's graph brings its blockers from other namespaces, and nothing else of theirs", () => {
    const selection = selectWithBlockers(inventory, { namespace: 'legacy-mq' }, stuck);
    expect(selection.uids).toContain('op-1');
    expect(selection.uids).not.toContain('cm-1');
    const graph = graphData(inventory, selection, [], stuck);
    expect(graph.nodes.find((n) => n.uid === 'ns-1')!.blockedBy).toEqual(['mq-1', 'op-1']);
    expect(graph.nodes.find((n) => n.uid === 'op-1')!.blockedBy).toBeUndefined();
    expect(graph.truncated).toBeUndefined();
    // Other scopes are what the engine selects.
    expect(selectWithBlockers(inventory, { uid: 'ns-1' }, stuck).uids).toEqual(['ns-1']);
    expect(selectWithBlockers(inventory, { namespace: 'legacy-mq' }, new Map()).uids).not.toContain('op-1');
  });
});

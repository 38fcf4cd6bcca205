// Graphs and simulation reports for the webview's tests (pure and in Chromium) and its benchmark.

import { simulateReportOf } from '../reports/simulateReports';
import type { GraphData, GraphEdgeData, GraphNodeData, SimulateReport } from '../../shared/src/protocol';

type NodeInit = Partial<GraphNodeData> & { uid: string; kind: string; name: string };

export function node(init: NodeInit): GraphNodeData {
  return {
    apiVersion: init.kind === 'Pod' || init.kind === 'Namespace' || init.kind === 'ConfigMap' ? 'v1' : 'apps/v1',
    namespace: 'shop',
    state: 'present',
    finalizers: [],
    findings: [],
    ...init,
  };
}

export function edge(from: string, to: string, controller = true, blockOwnerDeletion = true): GraphEdgeData {
  return { from, to, controller, blockOwnerDeletion };
}

const loc = (line: number) => ({ uri: 'file:///ws/web.yaml', range: { start: { line, character: 8 }, end: { line, character: 11 } } });

/** Deployment web → ReplicaSet web-1 → Pods web-1-a, -b, -c; a ConfigMap alone. */
export function deploymentTree(): GraphData {
  return {
    nodes: [
      node({ uid: 'd1', kind: 'Deployment', name: 'web', location: loc(3) }),
      node({ uid: 'rs1', kind: 'ReplicaSet', name: 'web-1', location: loc(20) }),
      node({ uid: 'p1', kind: 'Pod', name: 'web-1-a', location: loc(40) }),
      node({ uid: 'p2', kind: 'Pod', name: 'web-1-b', location: loc(60) }),
      node({ uid: 'p3', kind: 'Pod', name: 'web-1-c', location: loc(80) }),
      node({ uid: 'cm1', kind: 'ConfigMap', name: 'settings', location: loc(100) }),
    ],
    edges: [edge('rs1', 'd1'), edge('p1', 'rs1'), edge('p2', 'rs1'), edge('p3', 'rs1')],
  };
}

/** Every state the legend shows: virtual owner, being deleted, deleting dependents, stuck, dangling, findings; a cycle; two owners. */
export function statesGraph(): GraphData {
  return {
    nodes: [
      node({ uid: 'ghost', kind: 'ReplicaSet', name: 'old-rs', state: 'virtual' }),
      node({
        uid: 'orphan',
        kind: 'Pod',
        name: 'old-pod',
        findings: ['dangling-owner'],
        findingMessages: [{ code: 'dangling-owner', message: 'The owner ReplicaSet old-rs is not in the input.' }],
      }),
      node({ uid: 'ns', kind: 'Namespace', name: 'legacy', namespace: '', state: 'being-deleted', finalizers: ['kubernetes'] }),
      node({ uid: 'fg', kind: 'Deployment', name: 'fg', state: 'deleting-dependents', finalizers: ['foregroundDeletion'] }),
      node({ uid: 'fgrs', kind: 'ReplicaSet', name: 'fg-1' }),
      node({
        uid: 'mq',
        kind: 'RabbitmqCluster',
        name: 'orders',
        namespace: 'legacy',
        state: 'being-deleted',
        finalizers: ['deletion.finalizers.rabbitmqclusters.rabbitmq.com'],
        stuck: 'waits for finalizer deletion.finalizers.rabbitmqclusters.rabbitmq.com, whose controller is not running',
        findings: ['stuck-terminating'],
      }),
      node({ uid: 'a', kind: 'ConfigMap', name: 'cycle-a', findings: ['ownership-cycle'] }),
      node({ uid: 'b', kind: 'ConfigMap', name: 'cycle-b', findings: ['ownership-cycle'] }),
      node({ uid: 'o1', kind: 'Service', name: 'owner-one', apiVersion: 'v1' }),
      node({ uid: 'o2', kind: 'Service', name: 'owner-two', apiVersion: 'v1' }),
      node({ uid: 'shared', kind: 'EndpointSlice', name: 'shared', apiVersion: 'discovery.k8s.io/v1' }),
    ],
    edges: [
      edge('orphan', 'ghost'),
      edge('fgrs', 'fg'),
      edge('a', 'b', false, false),
      edge('b', 'a', false, false),
      edge('shared', 'o1', true, true),
      edge('shared', 'o2', false, false),
    ],
  };
}

/** A ReplicaSet with `n` Pods (a fan-out that collapses above 12). */
export function fanOut(n: number): GraphData {
  const nodes = [node({ uid: 'rs', kind: 'ReplicaSet', name: 'big' })];
  const edges: GraphEdgeData[] = [];
  for (let i = 0; i < n; i++) {
    nodes.push(node({ uid: `pod-${i}`, kind: 'Pod', name: `big-${String(i).padStart(4, '0')}` }));
    edges.push(edge(`pod-${i}`, 'rs'));
  }
  return { nodes, edges };
}

export const HOSTILE_NAME = '<img src=x onerror=alert(1)>';

/** Names, kinds, namespaces and finding messages that would be markup if inserted as HTML. */
export function hostileGraph(): GraphData {
  return {
    nodes: [
      node({ uid: 'h1', kind: 'Deployment', name: HOSTILE_NAME, namespace: '<script>alert(2)</script>' }),
      node({
        uid: 'h2',
        kind: '<svg onload=alert(3)>',
        name: 'x"><img src=y onerror=alert(4)>',
        namespace: '<b>ns</b>',
        findings: ['dangling-owner'],
        findingMessages: [{ code: 'dangling-owner', message: '<iframe src="javascript:alert(5)"></iframe>' }],
        finalizers: ['<style>*{display:none}</style>'],
        stuck: '<a href="javascript:alert(6)">why</a>',
      }),
    ],
    edges: [edge('h2', 'h1')],
  };
}

/** Deleting Deployment web (Background): the GC deletes the ReplicaSet, then the Pods; p3 is stuck; cm orphaned. */
export function deploymentReport(): SimulateReport {
  const id = (uid: string, kind: string, name: string) => ({
    apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
    kind,
    namespace: 'shop',
    name,
    uid,
  });
  const d = id('d1', 'Deployment', 'web');
  const rs = id('rs1', 'ReplicaSet', 'web-1');
  const p1 = id('p1', 'Pod', 'web-1-a');
  const p2 = id('p2', 'Pod', 'web-1-b');
  const p3 = id('p3', 'Pod', 'web-1-c');
  return simulateReportOf({
    target: d,
    policy: 'Background',
    controllers: 'builtin',
    result: {
      steps: [
        { step: 1, actor: 'apiserver', action: 'delete', target: d, detail: 'propagationPolicy=Background' },
        { step: 2, actor: 'apiserver', action: 'remove', target: d, detail: '' },
        { step: 3, actor: 'garbage-collector', action: 'delete', target: rs, detail: 'owner gone' },
        { step: 4, actor: 'apiserver', action: 'remove', target: rs, detail: '' },
        { step: 5, actor: 'garbage-collector', action: 'delete', target: p1, detail: 'owner gone' },
        { step: 6, actor: 'garbage-collector', action: 'delete', target: p2, detail: 'owner gone' },
        { step: 7, actor: 'garbage-collector', action: 'delete', target: p3, detail: 'owner gone' },
        { step: 8, actor: 'kubelet', action: 'remove', target: p1, detail: '' },
        { step: 9, actor: 'kubelet', action: 'remove', target: p2, detail: '' },
      ],
      deleted: [
        { ...d, step: 2 },
        { ...rs, step: 4 },
        { ...p1, step: 8 },
        { ...p2, step: 9 },
      ],
      orphaned: [],
      stuck: [
        { ...p3, finalizers: ['example.com/hold'], reason: 'waits for finalizer example.com/hold, which nobody removes', blockedBy: [] },
      ],
      notes: [],
    },
    locations: {},
    counts: { deletedByKind: { Deployment: 1, ReplicaSet: 1, Pod: 2 }, orphaned: 0, stuck: 1, stuckBecause: 'finalizer' },
    outcome: 'deleted',
    title: 'Delete: also 1 ReplicaSet, 2 Pods · 1 stuck (finalizer)',
  });
}

/** Deleting the ReplicaSet with Orphan: its Pods' references are cut. */
export function orphanReport(): SimulateReport {
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-1', uid: 'rs1' };
  const pod = (uid: string, name: string) => ({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name, uid });
  return simulateReportOf({
    target: rs,
    policy: 'Orphan',
    controllers: 'builtin',
    result: {
      steps: [
        { step: 1, actor: 'apiserver', action: 'add-finalizer', target: rs, detail: 'orphan' },
        { step: 2, actor: 'garbage-collector', action: 'patch-owner-references', target: pod('p1', 'web-1-a'), detail: 'remove rs1' },
        { step: 3, actor: 'garbage-collector', action: 'patch-owner-references', target: pod('p2', 'web-1-b'), detail: 'remove rs1' },
        { step: 4, actor: 'garbage-collector', action: 'patch-owner-references', target: pod('p3', 'web-1-c'), detail: 'remove rs1' },
        { step: 5, actor: 'garbage-collector', action: 'remove-finalizer', target: rs, detail: 'orphan' },
        { step: 6, actor: 'apiserver', action: 'remove', target: rs, detail: '' },
      ],
      deleted: [{ ...rs, step: 6 }],
      orphaned: [
        { ...pod('p1', 'web-1-a'), ownerUID: 'rs1' },
        { ...pod('p2', 'web-1-b'), ownerUID: 'rs1' },
        { ...pod('p3', 'web-1-c'), ownerUID: 'rs1' },
      ],
      stuck: [],
      notes: [],
    },
    locations: {},
    counts: { deletedByKind: { ReplicaSet: 1 }, orphaned: 3, stuck: 0 },
    outcome: 'deleted',
    title: 'Delete: only this ReplicaSet · orphans 3',
  });
}

/**
 * A cluster-like graph of about `n` objects, none collapsed (each ReplicaSet has 3 Pods): Deployments → ReplicaSets →
 * Pods, a few StatefulSets with Pods and PVCs, and loose ConfigMaps; some being deleted, some stuck, some dangling.
 */
export function largeGraph(n: number): GraphData {
  const nodes: GraphNodeData[] = [];
  const edges: GraphEdgeData[] = [];
  let i = 0;
  const ns = (k: number) => `team-${k % 40}`;
  while (nodes.length < n) {
    const k = i++;
    const namespace = ns(k);
    const left = n - nodes.length;
    if (k % 10 === 9 || left < 5) {
      nodes.push(node({ uid: `cm-${k}`, kind: 'ConfigMap', name: `config-${k}`, namespace }));
      continue;
    }
    const d = `d-${k}`;
    const rs = `rs-${k}`;
    nodes.push(node({ uid: d, kind: 'Deployment', name: `app-${k}`, namespace, state: k % 50 === 3 ? 'deleting-dependents' : 'present' }));
    nodes.push(node({ uid: rs, kind: 'ReplicaSet', name: `app-${k}-5d8f7`, namespace }));
    edges.push(edge(rs, d));
    for (let p = 0; p < 3; p++) {
      const uid = `p-${k}-${p}`;
      const stuck = k % 97 === 5 && p === 0;
      nodes.push(
        node({
          uid,
          kind: 'Pod',
          name: `app-${k}-5d8f7-${p}`,
          namespace,
          state: stuck ? 'being-deleted' : 'present',
          ...(stuck ? { stuck: 'waits for the kubelet', findings: ['stuck-terminating'] } : {}),
        }),
      );
      edges.push(edge(uid, rs));
    }
  }
  return { nodes, edges };
}

/** Deleting Deployment `d-<k>` of largeGraph: its ReplicaSet and 3 Pods go, in order (Background). */
export function largeGraphReport(k: number): SimulateReport {
  const id = (uid: string, kind: string, name: string) => ({
    apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
    kind,
    namespace: `team-${k % 40}`,
    name,
    uid,
  });
  const d = id(`d-${k}`, 'Deployment', `app-${k}`);
  const rs = id(`rs-${k}`, 'ReplicaSet', `app-${k}-5d8f7`);
  const pods = [0, 1, 2].map((p) => id(`p-${k}-${p}`, 'Pod', `app-${k}-5d8f7-${p}`));
  const steps = [
    { step: 1, actor: 'apiserver', action: 'delete' as const, target: d, detail: 'propagationPolicy=Background' },
    { step: 2, actor: 'apiserver', action: 'remove' as const, target: d, detail: '' },
    { step: 3, actor: 'garbage-collector', action: 'delete' as const, target: rs, detail: 'owner gone' },
    { step: 4, actor: 'apiserver', action: 'remove' as const, target: rs, detail: '' },
    ...pods.map((p, i) => ({ step: 5 + i, actor: 'garbage-collector', action: 'delete' as const, target: p, detail: 'owner gone' })),
  ];
  return simulateReportOf({
    target: d,
    policy: 'Background',
    controllers: 'builtin',
    result: {
      steps,
      deleted: [{ ...d, step: 2 }, { ...rs, step: 4 }, ...pods.map((p, i) => ({ ...p, step: 5 + i }))],
      orphaned: [],
      stuck: [],
      notes: [],
    },
    locations: {},
    counts: { deletedByKind: { Deployment: 1, ReplicaSet: 1, Pod: 3 }, orphaned: 0, stuck: 0 },
    outcome: 'deleted',
    title: 'Delete: also 1 ReplicaSet, 3 Pods',
  });
}

/**
 * Namespaces as a cluster has them: `legacy-mq` terminating, stuck on a RabbitmqCluster whose finalizer the operator
 * in `rabbitmq-system` should remove (the why-chains name it: `blockedBy`); `shop` with a Deployment tree and 40 Pods
 * of one ReplicaSet (a collapsed fan-out); `billing`; and cluster-scoped objects.
 */
export function namespacedGraph(): GraphData {
  const nodes: GraphNodeData[] = [];
  const edges: GraphEdgeData[] = [];
  const ns = (name: string, extra: Partial<GraphNodeData> = {}) =>
    nodes.push(node({ uid: `ns-${name}`, kind: 'Namespace', name, namespace: '', ...extra }));
  ns('legacy-mq', {
    state: 'being-deleted',
    finalizers: ['kubernetes'],
    stuck: 'waits for its content: RabbitmqCluster legacy-mq/orders',
    blockedBy: ['mq-orders', 'op-deploy'],
  });
  ns('rabbitmq-system');
  ns('shop');
  ns('billing');
  nodes.push(
    node({
      uid: 'mq-orders',
      kind: 'RabbitmqCluster',
      apiVersion: 'rabbitmq.com/v1beta1',
      name: 'orders',
      namespace: 'legacy-mq',
      state: 'being-deleted',
      finalizers: ['deletion.finalizers.rabbitmqclusters.rabbitmq.com'],
      stuck: 'waits for finalizer deletion.finalizers.rabbitmqclusters.rabbitmq.com, which the operator removes',
      findings: ['stuck-terminating'],
      blockedBy: ['op-deploy'],
    }),
    node({ uid: 'mq-sts', kind: 'StatefulSet', name: 'orders-server', namespace: 'legacy-mq' }),
    node({ uid: 'mq-cm', kind: 'ConfigMap', name: 'orders-plugins', namespace: 'legacy-mq' }),
    node({ uid: 'op-deploy', kind: 'Deployment', name: 'rabbitmq-cluster-operator', namespace: 'rabbitmq-system' }),
    node({ uid: 'op-rs', kind: 'ReplicaSet', name: 'rabbitmq-cluster-operator-6d4f9', namespace: 'rabbitmq-system' }),
    node({ uid: 'd-web', kind: 'Deployment', name: 'web' }),
    node({ uid: 'rs-web', kind: 'ReplicaSet', name: 'web-7d9f8c6b5' }),
    node({ uid: 'bill-cm', kind: 'ConfigMap', name: 'rates', namespace: 'billing' }),
    node({ uid: 'bill-secret', kind: 'Secret', apiVersion: 'v1', name: 'stripe', namespace: 'billing' }),
    node({
      uid: 'crd-mq',
      kind: 'CustomResourceDefinition',
      apiVersion: 'apiextensions.k8s.io/v1',
      name: 'rabbitmqclusters.rabbitmq.com',
      namespace: '',
    }),
  );
  edges.push(edge('mq-sts', 'mq-orders'), edge('mq-cm', 'mq-orders'), edge('op-rs', 'op-deploy'), edge('rs-web', 'd-web'));
  for (let i = 0; i < 40; i++) {
    nodes.push(node({ uid: `web-pod-${i}`, kind: 'Pod', name: `web-7d9f8c6b5-${(1000 + i * 37).toString(36)}` }));
    edges.push(edge(`web-pod-${i}`, 'rs-web'));
  }
  return { nodes, edges };
}

// Small live-cluster states for the API test server: a shop namespace with a Deployment tree, a ConfigMap,
// a Secret and an Event (which the GC does not watch). Uids are readable on purpose.

import type { KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';

type Obj = Record<string, unknown>;
interface Ref {
  apiVersion: string;
  kind: string;
  metadata: { name: string; uid: string };
}
const T = '2026-11-20T08:00:00Z';

const ownerRef = (o: Ref) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name,
  uid: o.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

export const ns = (name: string, uid: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid, creationTimestamp: T },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

export const deployment = (namespace: string, name: string, uid: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace, uid, creationTimestamp: T },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: `example/${name}:1` }] } },
  },
});

export const replicaSet = (namespace: string, name: string, uid: string, owner?: Ref) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace, uid, creationTimestamp: T, ...(owner ? { ownerReferences: [ownerRef(owner)] } : {}) },
  spec: { replicas: 1 },
});

export interface PodOptions {
  owner?: Ref;
  deletionTimestamp?: string;
  finalizers?: string[];
  /** PersistentVolumeClaims it mounts (one volume each). */
  claims?: string[];
  labels?: Record<string, string>;
  phase?: string;
}

export const pod = (namespace: string, name: string, uid: string, opts: PodOptions = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    uid,
    creationTimestamp: T,
    ...(opts.labels ? { labels: opts.labels } : {}),
    ...(opts.owner ? { ownerReferences: [ownerRef(opts.owner)] } : {}),
    ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp, deletionGracePeriodSeconds: 30 } : {}),
    ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
  },
  spec: {
    nodeName: 'node-1',
    terminationGracePeriodSeconds: 30,
    containers: [{ name: 'c', image: 'example/web:1' }],
    ...(opts.claims ? { volumes: opts.claims.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })) } : {}),
  },
  status: { phase: opts.phase ?? 'Running' },
});

/** A bound PersistentVolumeClaim with the pvc-protection finalizer the apiserver adds; terminating with `deletionTimestamp`. */
export const pvc = (namespace: string, name: string, uid: string, opts: { deletionTimestamp?: string } = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: {
    name,
    namespace,
    uid,
    creationTimestamp: T,
    finalizers: ['kubernetes.io/pvc-protection'],
    ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp } : {}),
  },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: `pv-${name}` },
  status: { phase: 'Bound' },
});

/** A Namespace being deleted, with the status conditions its namespace controller wrote. */
export const terminatingNs = (name: string, uid: string, conditions: Obj[]): Obj => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid, creationTimestamp: T, deletionTimestamp: '2026-11-20T09:00:00Z' },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Terminating', conditions },
});

const CT = '2026-11-20T09:00:06Z';
/** What the deleter writes while discovery of metrics.k8s.io fails and a Pod waits for a finalizer. */
export const STUCK_NAMESPACE_CONDITIONS = [
  {
    type: 'NamespaceDeletionDiscoveryFailure',
    status: 'True',
    reason: 'DiscoveryFailed',
    lastTransitionTime: CT,
    message:
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
  },
  {
    type: 'NamespaceDeletionGroupVersionParsingFailure',
    status: 'False',
    reason: 'ParsedGroupVersions',
    lastTransitionTime: CT,
    message: 'All legacy kube types successfully parsed',
  },
  {
    type: 'NamespaceDeletionContentFailure',
    status: 'False',
    reason: 'ContentDeleted',
    lastTransitionTime: CT,
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  {
    type: 'NamespaceContentRemaining',
    status: 'True',
    reason: 'SomeResourcesRemain',
    lastTransitionTime: CT,
    message: 'Some resources are remaining: pods. has 1 resource instances',
  },
  {
    type: 'NamespaceFinalizersRemaining',
    status: 'True',
    reason: 'SomeFinalizersRemain',
    lastTransitionTime: CT,
    message: 'Some content in the namespace has finalizers remaining: storage.acme.io/protect in 1 resource instances',
  },
];

export const configMap = (namespace: string, name: string, uid: string): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid, creationTimestamp: T },
  data: { key: 'value' },
});

export function seedShop(server: KubeApiServer): void {
  const web = deployment('shop', 'web', 'd-web');
  const rs = replicaSet('shop', 'web-rs', 'rs-web', web);
  server.add(ns('shop', 'ns-shop'));
  server.add(web);
  server.add(rs);
  server.add(pod('shop', 'web-1', 'p-web-1', { owner: rs }));
  server.add(configMap('shop', 'settings', 'cm-settings'));
  server.add({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'token', namespace: 'shop', uid: 's-token', creationTimestamp: T },
    type: 'Opaque',
  });
  server.add({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-1.1', namespace: 'shop', uid: 'ev-1', creationTimestamp: T },
    reason: 'Scheduled',
  });
}

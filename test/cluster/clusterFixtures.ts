// Small live-cluster states for the API test server: a shop namespace with a Deployment tree, a ConfigMap,
// a Secret and an Event (which the GC does not watch). Uids are readable on purpose.

import type { KubeApiServer } from '../kubeApiServer/kubeApiServer';

type Obj = Record<string, unknown>;
interface Ref { apiVersion: string; kind: string; metadata: { name: string; uid: string } }
const T = '2026-11-20T08:00:00Z';

const ownerRef = (o: Ref) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: true });

export const ns = (name: string, uid: string): Obj => ({
  apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid, creationTimestamp: T }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' },
});

export const deployment = (namespace: string, name: string, uid: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace, uid, creationTimestamp: T },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: `example/${name}:1` }] } } },
});

export const replicaSet = (namespace: string, name: string, uid: string, owner?: Ref) => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: { name, namespace, uid, creationTimestamp: T, ...(owner ? { ownerReferences: [ownerRef(owner)] } : {}) },
  spec: { replicas: 1 },
});

export const pod = (namespace: string, name: string, uid: string, opts: { owner?: Ref; deletionTimestamp?: string; finalizers?: string[] } = {}): Obj => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name, namespace, uid, creationTimestamp: T,
    ...(opts.owner ? { ownerReferences: [ownerRef(opts.owner)] } : {}),
    ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp, deletionGracePeriodSeconds: 30 } : {}),
    ...(opts.finalizers ? { finalizers: opts.finalizers } : {}),
  },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'example/web:1' }] },
  status: { phase: 'Running' },
});

export const configMap = (namespace: string, name: string, uid: string): Obj => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid, creationTimestamp: T }, data: { key: 'value' },
});

export function seedShop(server: KubeApiServer): void {
  const web = deployment('shop', 'web', 'd-web');
  const rs = replicaSet('shop', 'web-rs', 'rs-web', web);
  server.add(ns('shop', 'ns-shop'));
  server.add(web);
  server.add(rs);
  server.add(pod('shop', 'web-1', 'p-web-1', { owner: rs }));
  server.add(configMap('shop', 'settings', 'cm-settings'));
  server.add({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token', namespace: 'shop', uid: 's-token', creationTimestamp: T }, type: 'Opaque' });
  server.add({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-1.1', namespace: 'shop', uid: 'ev-1', creationTimestamp: T }, reason: 'Scheduled' });
}

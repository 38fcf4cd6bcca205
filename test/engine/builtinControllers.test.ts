// Realistic mode (`controllers: 'builtin'`): what a user means by "what happens if I delete this".
// Besides the apiserver (Part A) and the garbage collector (Parts C–F), the kubelet finishes graceful Pod
// deletion, the namespace controller empties and finalizes Namespaces, pvc/pv-protection release volumes,
// the apiextensions CRD cleanup deletes custom resources, and the controller behind each custom finalizer
// removes it for as long as its workload keeps running. Expectations come from docs/gc-semantics.md and
// from how those Kubernetes controllers behave; the strict twins (R53) sit next to the realistic ones where
// the difference is the point.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../helpers/scenario';
import {
  type ObjectSpec,
  type OwnerReference,
  type Container,
  DELETING,
  manifests,
  ctl,
  obj,
  cm,
  deploy,
  rs,
  namespace,
  pod,
  workloadSpec,
  pv,
  pvc,
  crd,
} from '../helpers/manifests';
import { remainingOf, stuckOf, removedAt, sorted } from '../helpers/results';
import type { BlockReason, StuckEntry } from '../../server/src/engine/simulation/types';

const builtin = { controllers: 'builtin' } as const;

const PVC_PROTECTION = 'kubernetes.io/pvc-protection';
const PV_PROTECTION = 'kubernetes.io/pv-protection';
const CRD_CLEANUP = 'customresourcecleanup.apiextensions.k8s.io';
const ACTORS_THAT_ARE_NOT_CONTROLLERS = ['apiserver', 'garbage-collector', 'namespace-controller', 'kubelet'];

/**
 * What a Namespace's 'namespace-content' reasons name, with the reasons given for each. The brief fixes the
 * type and that the remaining objects are named with their own reasons, not the nesting: a remaining object
 * may be the `object` of the namespace-content reason itself or of one of its direct sub-reasons.
 */
function contentItems(e: StuckEntry): { object: NonNullable<BlockReason['object']>; reasons: BlockReason[] }[] {
  const items: { object: NonNullable<BlockReason['object']>; reasons: BlockReason[] }[] = [];
  for (const b of e.blockedBy.filter((x) => x.type === 'namespace-content')) {
    if (b.object) items.push({ object: b.object, reasons: b.blockedBy ?? [] });
    else for (const c of b.blockedBy ?? []) if (c.object) items.push({ object: c.object, reasons: [c, ...(c.blockedBy ?? [])] });
  }
  return items;
}

function contentNamed(e: StuckEntry): string[] {
  return sorted(contentItems(e).map((i) => `${i.object.kind}/${i.object.name}`));
}

function contentReason(e: StuckEntry, kind: string, name: string): { object: NonNullable<BlockReason['object']>; reasons: BlockReason[] } {
  const item = contentItems(e).find((i) => i.object.kind === kind && i.object.name === name);
  if (!item) throw new Error(`${e.kind}/${e.name} has no namespace-content reason naming ${kind}/${name}: ${JSON.stringify(e.blockedBy)}`);
  return item;
}

// ---------------------------------------------------------------------------------------------------------
// Fixtures

/** The container of the many single-container Pods whose image does not matter. */
const C: Container = { name: 'c', image: 'c:1' };

const NS_SHOP = manifests(namespace('shop', { phase: 'Active' }));
const TERMINATING_SHOP = manifests(namespace('shop', { ...DELETING, phase: 'Terminating' }));

/** Deployment web -> ReplicaSet web-7d4b9 -> two scheduled Pods, as the controllers write them. */
function webApp(podB: Partial<ObjectSpec> = {}): string {
  const labels = { app: 'web' };
  const nginx: Container = { name: 'web', image: 'nginx:1.27' };
  const spec = workloadSpec(labels, [nginx], { replicas: 2 });
  const web = deploy('web', 'shop', { extra: { spec } });
  const set = rs('web-7d4b9', 'shop', { uid: 'uid-web-rs', labels, owners: [ctl(web)], extra: { spec } });
  const webPod = (name: string, uid: string, nodeName: string, more: Partial<ObjectSpec> = {}) =>
    pod(name, 'shop', {
      uid,
      labels,
      owners: [ctl(set)],
      nodeName,
      containers: [nginx],
      phase: 'Running',
      ...more,
    });
  return manifests(
    web,
    set,
    webPod('web-7d4b9-aaaaa', 'uid-web-pod-a', 'node-1'),
    webPod('web-7d4b9-bbbbb', 'uid-web-pod-b', 'node-2', podB),
  );
}

const WEB = webApp();

const SHOP_EXTRAS = manifests(
  cm('web-config', 'shop', { extra: { data: { mode: 'prod' } } }),
  obj('v1', 'Service', 'shop', 'web', { uid: 'uid-web-svc', extra: { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } } }),
);

/** Something in another namespace, which deleting shop must not touch. */
const OTHER_NS = manifests(namespace('other', { phase: 'Active' }), cm('web-config', 'other', { uid: 'uid-other-config' }));

// Strimzi: the operator and the custom resources carrying its finalizer in one namespace.
const STRIMZI_CRD = crd('kafka.strimzi.io', 'Kafka', 'kafkas', 'Namespaced', [{ name: 'v1beta2', served: true, storage: true }], {
  uid: 'uid-crd-kafka',
  shortNames: ['k'],
});

const STRIMZI_CONTAINER: Container = { name: 'strimzi-cluster-operator', image: 'quay.io/strimzi/operator:0.45.0' };

function strimziOperator(): ObjectSpec[] {
  const spec = workloadSpec({ name: 'strimzi-cluster-operator' }, [STRIMZI_CONTAINER], { replicas: 1 });
  const op = deploy('strimzi-cluster-operator', 'kafka', { uid: 'uid-op', extra: { spec } });
  const set = rs('strimzi-cluster-operator-6d5f8', 'kafka', { uid: 'uid-op-rs', owners: [ctl(op)], extra: { spec } });
  const opPod = pod('strimzi-cluster-operator-6d5f8-x2x9q', 'kafka', {
    uid: 'uid-op-pod',
    owners: [ctl(set)],
    nodeName: 'node-1',
    containers: [STRIMZI_CONTAINER],
    phase: 'Running',
  });
  return [namespace('kafka', { phase: 'Active' }), op, set, opPod];
}

function strimziResources(): ObjectSpec[] {
  const kafka = (name: string, uid: string, replicas: number) =>
    obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', name, {
      uid,
      finalizers: ['kafka.strimzi.io/finalizer'],
      extra: { spec: { kafka: { replicas } } },
    });
  const a = kafka('my-cluster', 'uid-kafka-a', 3);
  const config = cm('my-cluster-kafka-config', 'kafka', {
    uid: 'uid-kafka-a-config',
    owners: [ctl(a)],
    extra: { data: { 'server.properties': '' } },
  });
  return [a, kafka('other-cluster', 'uid-kafka-b', 1), config];
}

const STRIMZI = manifests(STRIMZI_CRD, ...strimziOperator(), ...strimziResources());

/**
 * A controller whose workload gives no hint of the finalizer it owns: only finalizerOwners can name it. The
 * options change the Widget's namespace and finalizers, or the controller-manager Deployment.
 */
function acme(o: { widgetNamespace?: string; widgetFinalizers?: string[]; manager?: Partial<ObjectSpec> } = {}): string {
  const { widgetNamespace = 'apps', widgetFinalizers = ['acme.io/cleanup'], manager = {} } = o;
  return manifests(
    crd('example.org', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }], { uid: 'uid-crd-widget' }),
    deploy('controller-manager', 'ops', {
      uid: 'uid-manager',
      extra: { spec: workloadSpec({ app: 'manager' }, [{ name: 'manager', image: 'registry.local/manager:1.0' }]) },
      ...manager,
    }),
    obj('example.org/v1', 'Widget', widgetNamespace, 'blue', { uid: 'uid-widget-blue', finalizers: widgetFinalizers, extra: { spec: {} } }),
  );
}

const ACME = acme();

const ACME_OWNER = { finalizer: 'acme.io/*', workload: { kind: 'Deployment', namespace: 'ops', name: 'controller-manager' } };

// ---------------------------------------------------------------------------------------------------------

describe('kubelet: graceful Pod deletion is finished (R6, R8, R9)', () => {
  const POD = manifests(
    pod('api', 'default', {
      uid: 'uid-pod-api',
      nodeName: 'node-1',
      grace: 45,
      containers: [{ name: 'api', image: 'api:1' }],
      phase: 'Running',
    }),
  );

  it('R6/R8: a scheduled Pod deleted with a grace period is removed once the kubelet sends its grace-0 DELETE', () => {
    const r = scenario(POD).simulate([del('v1', 'Pod', 'default', 'api', 'Background')], builtin);
    expect(names(r.deleted)).toEqual(['Pod/api']);
    expect(r.remaining).toEqual([]);
    expect(r.stuck).toEqual([]);
    expect(r.steps.some((s) => s.actor === 'kubelet' && s.action === 'delete' && s.target.uid === 'uid-pod-api')).toBe(true);
  });

  it('R8 strict twin: without a kubelet the same Pod stays Terminating (graceful-termination)', () => {
    const r = scenario(POD).simulate([del('v1', 'Pod', 'default', 'api', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(stuckOf(r, 'Pod', 'api').blockedBy.map((b) => b.type)).toContain('graceful-termination');
    expect(r.steps.some((s) => s.actor === 'kubelet')).toBe(false);
  });

  it('R6/R8: a request with its own gracePeriodSeconds is also finished by the kubelet', () => {
    const r = scenario(POD).simulate([del('v1', 'Pod', 'default', 'api', null, { gracePeriodSeconds: 5 })], builtin);
    expect(names(r.deleted)).toEqual(['Pod/api']);
    expect(r.stuck).toEqual([]);
  });

  it('R6: a Pod never scheduled is removed at once, without any kubelet step', () => {
    const r = scenario(manifests(pod('pending', 'default', { uid: 'uid-pod-pending', containers: [C], phase: 'Pending' }))).simulate(
      [del('v1', 'Pod', 'default', 'pending', 'Background')],
      builtin,
    );
    expect(names(r.deleted)).toEqual(['Pod/pending']);
    expect(r.steps.some((s) => s.actor === 'kubelet')).toBe(false);
  });

  it('R9: after the kubelet grace-0 DELETE a Pod with a remaining foreign finalizer stays, stuck on that finalizer', () => {
    const r = scenario(
      manifests(
        pod('held', 'default', {
          uid: 'uid-pod-held',
          finalizers: ['example.com/hold'],
          nodeName: 'node-1',
          containers: [C],
          phase: 'Running',
        }),
      ),
    ).simulate([del('v1', 'Pod', 'default', 'held', 'Background')], builtin);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'held')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    const e = stuckOf(r, 'Pod', 'held');
    expect(e.blockedBy).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'example.com/hold' })]));
    // The kubelet did its part: the Pod no longer waits for a grace period, only for the finalizer.
    expect(e.blockedBy.map((b) => b.type)).not.toContain('graceful-termination');
  });

  it('R53: with no request, a Pod already in graceful termination in the input is finished by the kubelet', () => {
    const leaving = pod('leaving', 'default', {
      uid: 'uid-pod-leaving',
      deletionTimestamp: '2024-05-01T10:00:30Z',
      deletionGracePeriodSeconds: 30,
      nodeName: 'node-1',
      containers: [C],
      phase: 'Running',
    });
    const r = scenario(manifests(leaving)).simulate([], builtin);
    expect(names(r.deleted)).toEqual(['Pod/leaving']);
    expect(r.remaining).toEqual([]);
  });
});

describe('Deployment -> ReplicaSet -> Pods cascade (R35, R38 with the kubelet)', () => {
  it('R35 (iii) Background: the Deployment goes first, then the ReplicaSet, then the Pods', () => {
    const r = scenario(manifests(NS_SHOP, WEB)).simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Background')], builtin);
    expect(names(r.deleted).slice(0, 2)).toEqual(['Deployment/web', 'ReplicaSet/web-7d4b9']);
    expect(sorted(names(r.deleted).slice(2))).toEqual(['Pod/web-7d4b9-aaaaa', 'Pod/web-7d4b9-bbbbb']);
    expect(names(r.remaining)).toEqual(['Namespace/shop']);
    expect(r.stuck).toEqual([]);
    expect(r.orphaned).toEqual([]);
  });

  it('R38 Foreground: the Pods go first, then the ReplicaSet, then the Deployment (the kubelet finishes the Pods)', () => {
    const r = scenario(manifests(NS_SHOP, WEB)).simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], builtin);
    expect(sorted(names(r.deleted).slice(0, 2))).toEqual(['Pod/web-7d4b9-aaaaa', 'Pod/web-7d4b9-bbbbb']);
    expect(names(r.deleted).slice(2)).toEqual(['ReplicaSet/web-7d4b9', 'Deployment/web']);
    expect(names(r.remaining)).toEqual(['Namespace/shop']);
    expect(r.stuck).toEqual([]);
  });

  it('R50.1 in builtin mode: one Pod with a finalizer nobody removes holds the whole Foreground chain', () => {
    const yaml = manifests(NS_SHOP, webApp({ finalizers: ['example.com/hold'] }));
    const r = scenario(yaml).simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], builtin);
    expect(names(r.deleted)).toEqual(['Pod/web-7d4b9-aaaaa']);
    expect(remainingOf(r, 'Pod', 'web-7d4b9-bbbbb')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(stuckOf(r, 'Pod', 'web-7d4b9-bbbbb').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'example.com/hold' })]),
    );
    expect(remainingOf(r, 'ReplicaSet', 'web-7d4b9')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(stuckOf(r, 'ReplicaSet', 'web-7d4b9').blockedBy.map((b) => b.type)).toContain('waiting-for-dependents');
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(stuckOf(r, 'Deployment', 'web').blockedBy.map((b) => b.type)).toContain('waiting-for-dependents');
  });

  it('R50.3 strict twin: Foreground without a kubelet leaves the Pods Terminating and both owners waiting', () => {
    const r = scenario(manifests(NS_SHOP, WEB)).simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ReplicaSet', 'web-7d4b9')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'Pod', 'web-7d4b9-aaaaa')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(stuckOf(r, 'Pod', 'web-7d4b9-aaaaa').blockedBy.map((b) => b.type)).toContain('graceful-termination');
    expect(stuckOf(r, 'ReplicaSet', 'web-7d4b9').blockedBy.map((b) => b.type)).toContain('waiting-for-dependents');
    expect(stuckOf(r, 'Deployment', 'web').blockedBy.map((b) => b.type)).toContain('waiting-for-dependents');
  });
});

describe('Job deleted without a policy (R5)', () => {
  const migrate: Container = { name: 'migrate', image: 'migrate:1' };
  const job = obj('batch/v1', 'Job', 'default', 'migrate', {
    uid: 'uid-job',
    extra: { spec: { template: { spec: { restartPolicy: 'Never', containers: [migrate] } } } },
  });
  const JOB = manifests(
    job,
    pod('migrate-x7k2p', 'default', {
      uid: 'uid-job-pod',
      labels: { 'job-name': 'migrate' },
      owners: [ctl(job)],
      nodeName: 'node-1',
      restartPolicy: 'Never',
      containers: [migrate],
      phase: 'Succeeded',
    }),
  );

  it('R5: a bare batch/v1 Job DELETE orphans its Pods even with the built-in controllers running', () => {
    const r = scenario(JOB).simulate([del('batch/v1', 'Job', 'default', 'migrate')], builtin);
    expect(names(r.deleted)).toEqual(['Job/migrate']);
    expect(r.orphaned).toEqual([expect.objectContaining({ kind: 'Pod', name: 'migrate-x7k2p', ownerUID: 'uid-job' })]);
    expect(remainingOf(r, 'Pod', 'migrate-x7k2p')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(r.stuck).toEqual([]);
  });

  it('R5 contrast: the same Job deleted with Background (kubectl default) takes its Pods along', () => {
    const r = scenario(JOB).simulate([del('batch/v1', 'Job', 'default', 'migrate', 'Background')], builtin);
    expect(names(r.deleted)).toEqual(['Job/migrate', 'Pod/migrate-x7k2p']);
    expect(r.orphaned).toEqual([]);
    expect(r.remaining).toEqual([]);
  });
});

describe('StatefulSet and its volumeClaimTemplates PVCs (pvc-protection)', () => {
  const postgres: Container = { name: 'db', image: 'postgres:16' };
  const sts = (retainPolicy: 'Retain' | 'Delete') =>
    obj('apps/v1', 'StatefulSet', 'data', 'db', {
      uid: 'uid-sts',
      extra: {
        spec: workloadSpec({ app: 'db' }, [postgres], {
          serviceName: 'db',
          replicas: 2,
          persistentVolumeClaimRetentionPolicy: { whenDeleted: retainPolicy, whenScaled: 'Retain' },
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        }),
      },
    });
  const owner: OwnerReference = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    name: 'db',
    uid: 'uid-sts',
    controller: true,
    blockOwnerDeletion: true,
  };
  const stsPod = (ordinal: number) =>
    pod(`db-${ordinal}`, 'data', {
      owners: [owner],
      nodeName: `node-${ordinal}`,
      containers: [postgres],
      claims: [{ volume: 'data', claimName: `data-db-${ordinal}` }],
      phase: 'Running',
    });
  const stsPvc = (ordinal: number, owned: boolean) =>
    pvc(`data-db-${ordinal}`, 'data', { labels: { app: 'db' }, owners: owned ? [owner] : [] });

  it('R41: volumeClaimTemplates PVCs are not owned by the StatefulSet by default, so deleting it leaves them', () => {
    const r = scenario(manifests(sts('Retain'), stsPod(0), stsPod(1), stsPvc(0, false), stsPvc(1, false))).simulate(
      [del('apps/v1', 'StatefulSet', 'data', 'db', 'Background')],
      builtin,
    );
    expect(names(r.deleted)[0]).toBe('StatefulSet/db');
    expect(sorted(names(r.deleted))).toEqual(['Pod/db-0', 'Pod/db-1', 'StatefulSet/db']);
    expect(sorted(names(r.remaining))).toEqual(['PersistentVolumeClaim/data-db-0', 'PersistentVolumeClaim/data-db-1']);
    expect(remainingOf(r, 'PersistentVolumeClaim', 'data-db-0')).toMatchObject({ beingDeleted: false, finalizers: [PVC_PROTECTION] });
    expect(r.stuck).toEqual([]);
  });

  it('R35 + pvc-protection: PVCs owned by the StatefulSet (whenDeleted: Delete) go, each only after the Pod that mounts it', () => {
    const r = scenario(manifests(sts('Delete'), stsPod(0), stsPod(1), stsPvc(0, true), stsPvc(1, true))).simulate(
      [del('apps/v1', 'StatefulSet', 'data', 'db', 'Background')],
      builtin,
    );
    expect(sorted(names(r.deleted))).toEqual([
      'PersistentVolumeClaim/data-db-0',
      'PersistentVolumeClaim/data-db-1',
      'Pod/db-0',
      'Pod/db-1',
      'StatefulSet/db',
    ]);
    expect(names(r.deleted)[0]).toBe('StatefulSet/db');
    expect(removedAt(r, 'PersistentVolumeClaim', 'data-db-0')).toBeGreaterThan(removedAt(r, 'Pod', 'db-0'));
    expect(removedAt(r, 'PersistentVolumeClaim', 'data-db-1')).toBeGreaterThan(removedAt(r, 'Pod', 'db-1'));
    expect(r.remaining).toEqual([]);
  });

  it('R10 strict twin: the owned PVCs are deleted by the GC but nobody removes pvc-protection', () => {
    const r = scenario(manifests(sts('Delete'), stsPod(0), stsPod(1), stsPvc(0, true), stsPvc(1, true))).simulate([
      del('apps/v1', 'StatefulSet', 'data', 'db', 'Background'),
    ]);
    expect(names(r.deleted)).toEqual(['StatefulSet/db']);
    for (const pvc of ['data-db-0', 'data-db-1']) {
      expect(remainingOf(r, 'PersistentVolumeClaim', pvc)).toMatchObject({ beingDeleted: true, finalizers: [PVC_PROTECTION] });
      expect(stuckOf(r, 'PersistentVolumeClaim', pvc).blockedBy).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: PVC_PROTECTION })]),
      );
    }
  });
});

describe('pvc-protection and pv-protection', () => {
  const PVC = manifests(pvc('data', 'app', { uid: 'uid-pvc-data', volumeName: 'pv-data' }));
  const podMounting = (ns: string, claim: string) =>
    manifests(
      pod('user', ns, {
        uid: `uid-pod-user-${ns}`,
        nodeName: 'node-1',
        containers: [C],
        claims: [{ volume: 'v', claimName: claim }],
        phase: 'Running',
      }),
    );
  const PV = (claimNamespace: string, claimName: string, claimUid: string) =>
    manifests(
      pv('pv-data', {
        finalizers: [PV_PROTECTION],
        reclaimPolicy: 'Retain',
        claimRef: { namespace: claimNamespace, name: claimName, uid: claimUid },
        phase: 'Bound',
      }),
    );

  it('pvc-protection: a terminating PVC mounted by a scheduled Pod stays while the Pod exists', () => {
    const r = scenario(manifests(PVC, podMounting('app', 'data'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'app', 'data', 'Background')],
      builtin,
    );
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'PersistentVolumeClaim', 'data')).toMatchObject({ beingDeleted: true, finalizers: [PVC_PROTECTION] });
    expect(stuckOf(r, 'PersistentVolumeClaim', 'data').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: PVC_PROTECTION })]),
    );
    expect(remainingOf(r, 'Pod', 'user')).toMatchObject({ beingDeleted: false });
  });

  it('pvc-protection: once the Pod that mounts it is deleted, the PVC goes after it', () => {
    const r = scenario(manifests(PVC, podMounting('app', 'data'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'app', 'data', 'Background'), del('v1', 'Pod', 'app', 'user', 'Background')],
      builtin,
    );
    expect(names(r.deleted)).toEqual(['Pod/user', 'PersistentVolumeClaim/data']);
    expect(r.remaining).toEqual([]);
  });

  it('pvc-protection: Pods mounting another claim, or a same-named claim in another namespace, do not hold the PVC', () => {
    const r = scenario(manifests(PVC, podMounting('app', 'logs'), podMounting('elsewhere', 'data'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'app', 'data', 'Background')],
      builtin,
    );
    expect(names(r.deleted)).toEqual(['PersistentVolumeClaim/data']);
    expect(r.stuck).toEqual([]);
  });

  it('R10 strict twin: with no pvc-protection controller, an unused PVC still stays Terminating', () => {
    const r = scenario(PVC).simulate([del('v1', 'PersistentVolumeClaim', 'app', 'data', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(stuckOf(r, 'PersistentVolumeClaim', 'data').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: PVC_PROTECTION })]),
    );
  });

  it('pv-protection: a terminating PV bound to an existing PVC stays', () => {
    const r = scenario(manifests(PVC, PV('app', 'data', 'uid-pvc-data'))).simulate(
      [del('v1', 'PersistentVolume', '', 'pv-data', 'Background')],
      builtin,
    );
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'PersistentVolume', 'pv-data')).toMatchObject({ beingDeleted: true, finalizers: [PV_PROTECTION] });
    expect(stuckOf(r, 'PersistentVolume', 'pv-data').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: PV_PROTECTION })]),
    );
    expect(remainingOf(r, 'PersistentVolumeClaim', 'data')).toMatchObject({ beingDeleted: false });
  });

  it('pv-protection: once its PVC is deleted (and released by pvc-protection) the PV goes too', () => {
    const r = scenario(manifests(PVC, PV('app', 'data', 'uid-pvc-data'))).simulate(
      [del('v1', 'PersistentVolume', '', 'pv-data', 'Background'), del('v1', 'PersistentVolumeClaim', 'app', 'data', 'Background')],
      builtin,
    );
    expect(names(r.deleted)).toEqual(['PersistentVolumeClaim/data', 'PersistentVolume/pv-data']);
    expect(r.remaining).toEqual([]);
  });

  it('pv-protection: a PV whose claimRef names a PVC that does not exist is not bound, it goes at once', () => {
    const r = scenario(PV('app', 'gone', 'uid-pvc-gone')).simulate([del('v1', 'PersistentVolume', '', 'pv-data', 'Background')], builtin);
    expect(names(r.deleted)).toEqual(['PersistentVolume/pv-data']);
    expect(r.stuck).toEqual([]);
  });

  it('R10 strict twin: with no pv-protection controller the unbound PV stays Terminating', () => {
    const r = scenario(PV('app', 'gone', 'uid-pvc-gone')).simulate([del('v1', 'PersistentVolume', '', 'pv-data', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(stuckOf(r, 'PersistentVolume', 'pv-data').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: PV_PROTECTION })]),
    );
  });
});

describe('namespace controller (R11)', () => {
  it('R11: deleting a Namespace deletes everything in it, then the Namespace itself goes last', () => {
    const r = scenario(manifests(NS_SHOP, WEB, SHOP_EXTRAS, OTHER_NS)).simulate(
      [del('v1', 'Namespace', '', 'shop', 'Background')],
      builtin,
    );
    expect(sorted(names(r.deleted))).toEqual(
      sorted([
        'ConfigMap/web-config',
        'Deployment/web',
        'Namespace/shop',
        'Pod/web-7d4b9-aaaaa',
        'Pod/web-7d4b9-bbbbb',
        'ReplicaSet/web-7d4b9',
        'Service/web',
      ]),
    );
    expect(names(r.deleted).at(-1)).toBe('Namespace/shop');
    // Another namespace is untouched.
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/web-config', 'Namespace/other']);
    expect(remainingOf(r, 'ConfigMap', 'web-config')).toMatchObject({ namespace: 'other', uid: 'uid-other-config', beingDeleted: false });
    expect(r.stuck).toEqual([]);
    // Objects without owners are only ever deleted by the namespace controller (the GC never touches them, R41).
    const nsDeletes = r.steps.filter((s) => s.actor === 'namespace-controller' && s.action === 'delete').map((s) => s.target.uid);
    expect(nsDeletes).toEqual(expect.arrayContaining(['uid-web', 'uid-web-config', 'uid-web-svc']));
    expect(
      r.steps.some((s) => s.actor === 'namespace-controller' && s.action === 'remove-finalizer' && s.target.uid === 'uid-ns-shop'),
    ).toBe(true);
    expect(r.steps.some((s) => s.actor === 'kubelet' && s.target.uid === 'uid-web-pod-a')).toBe(true);
  });

  it('R11 strict twin: without a namespace controller the Namespace stays Terminating and its contents are untouched', () => {
    const r = scenario(manifests(NS_SHOP, WEB, SHOP_EXTRAS)).simulate([del('v1', 'Namespace', '', 'shop', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(names(r.stuck)).toEqual(['Namespace/shop']);
    expect(stuckOf(r, 'Namespace', 'shop').blockedBy.map((b) => b.type)).toContain('namespace-controller');
    expect(remainingOf(r, 'Namespace', 'shop')).toMatchObject({ beingDeleted: true });
    for (const e of r.remaining.filter((x) => x.kind !== 'Namespace')) expect(e.beingDeleted).toBe(false);
    expect(r.remaining).toHaveLength(7);
    expect(r.steps.some((s) => s.actor === 'namespace-controller')).toBe(false);
  });

  it('R11: a hand-written Namespace without uid gets spec.finalizers [kubernetes] as the apiserver adds it on create', () => {
    const yaml = manifests(
      `
apiVersion: v1
kind: Namespace
metadata: {name: scratch}
`,
      cm('notes', 'scratch'),
    );
    // Strict: the `kubernetes` finalizer nobody processes keeps the Namespace, its content stays.
    const strict = scenario(yaml).simulate([del('v1', 'Namespace', '', 'scratch', 'Background')]);
    expect(strict.deleted).toEqual([]);
    expect(stuckOf(strict, 'Namespace', 'scratch').blockedBy.map((b) => b.type)).toContain('namespace-controller');
    expect(remainingOf(strict, 'ConfigMap', 'notes')).toMatchObject({ beingDeleted: false });
    // Realistic: the namespace controller empties it, then finalizes it.
    const real = scenario(yaml).simulate([del('v1', 'Namespace', '', 'scratch', 'Background')], builtin);
    expect(names(real.deleted)).toEqual(['ConfigMap/notes', 'Namespace/scratch']);
    expect(real.remaining).toEqual([]);
  });

  it('R11: the namespace controller deletes with Background, so a Job in it does not orphan its Pods first (no R5 default)', () => {
    const report: Container = { name: 'r', image: 'r:1' };
    const job = obj('batch/v1', 'Job', 'batch', 'report', {
      extra: { spec: { template: { spec: { restartPolicy: 'Never', containers: [report] } } } },
    });
    const jobPod = pod('report-abcde', 'batch', {
      uid: 'uid-report-pod',
      owners: [ctl(job)],
      nodeName: 'node-1',
      restartPolicy: 'Never',
      containers: [report],
      phase: 'Running',
    });
    const r = scenario(manifests(namespace('batch', { phase: 'Active' }), job, jobPod)).simulate(
      [del('v1', 'Namespace', '', 'batch', 'Background')],
      builtin,
    );
    expect(sorted(names(r.deleted))).toEqual(['Job/report', 'Namespace/batch', 'Pod/report-abcde']);
    expect(names(r.deleted).at(-1)).toBe('Namespace/batch');
    expect(r.orphaned).toEqual([]);
    expect(r.steps.some((s) => s.action === 'patch-owner-references' && s.target.uid === 'uid-report-pod')).toBe(false);
    expect(r.steps.some((s) => s.action === 'add-finalizer' && s.target.uid === 'uid-report')).toBe(false);
  });

  it('R11 + pvc-protection: a PVC mounted by a Pod in the namespace goes after the Pod, then the Namespace', () => {
    const r = scenario(
      manifests(
        NS_SHOP,
        pvc('cache', 'shop'),
        pod('cache-user', 'shop', { nodeName: 'node-1', containers: [C], claims: [{ volume: 'v', claimName: 'cache' }], phase: 'Running' }),
      ),
    ).simulate([del('v1', 'Namespace', '', 'shop', 'Background')], builtin);
    expect(names(r.deleted)).toEqual(['Pod/cache-user', 'PersistentVolumeClaim/cache', 'Namespace/shop']);
    expect(r.remaining).toEqual([]);
  });

  it('R11: content that cannot go keeps the Namespace Terminating, stuck on namespace-content naming it with its own reason', () => {
    const r = scenario(manifests(NS_SHOP, WEB, cm('held', 'shop', { finalizers: ['example.com/hold'] }))).simulate(
      [del('v1', 'Namespace', '', 'shop', 'Background')],
      builtin,
    );
    // Everything else in the namespace went.
    expect(sorted(names(r.deleted))).toEqual(
      sorted(['Deployment/web', 'ReplicaSet/web-7d4b9', 'Pod/web-7d4b9-aaaaa', 'Pod/web-7d4b9-bbbbb']),
    );
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/held', 'Namespace/shop']);
    expect(remainingOf(r, 'ConfigMap', 'held')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(remainingOf(r, 'Namespace', 'shop')).toMatchObject({ beingDeleted: true });
    expect(sorted(names(r.stuck))).toEqual(['ConfigMap/held', 'Namespace/shop']);
    expect(stuckOf(r, 'ConfigMap', 'held').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'example.com/hold' })]),
    );
    const ns = stuckOf(r, 'Namespace', 'shop');
    expect(contentNamed(ns)).toEqual(['ConfigMap/held']);
    expect(contentReason(ns, 'ConfigMap', 'held').object).toMatchObject({ namespace: 'shop', uid: 'uid-held' });
    expect(contentReason(ns, 'ConfigMap', 'held').reasons).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'example.com/hold' })]),
    );
    // The namespace controller never removed `kubernetes`.
    expect(r.steps.some((s) => s.action === 'remove-finalizer' && s.target.uid === 'uid-ns-shop')).toBe(false);
  });

  it('R11/R53: with no request, a Namespace already Terminating in the input is emptied and finalized', () => {
    const r = scenario(manifests(TERMINATING_SHOP, SHOP_EXTRAS)).simulate([], builtin);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/web-config', 'Namespace/shop', 'Service/web']);
    expect(names(r.deleted).at(-1)).toBe('Namespace/shop');
    expect(r.remaining).toEqual([]);
  });

  it('R11/R53 strict twin: the already Terminating Namespace stays, stuck on namespace-controller', () => {
    const r = scenario(manifests(TERMINATING_SHOP, SHOP_EXTRAS)).simulate([]);
    expect(r.deleted).toEqual([]);
    expect(names(r.stuck)).toEqual(['Namespace/shop']);
    expect(stuckOf(r, 'Namespace', 'shop').blockedBy.map((b) => b.type)).toContain('namespace-controller');
  });
});

describe('custom finalizers: removed iff the controller that owns them keeps running', () => {
  it('R10 in builtin mode: a custom finalizer no controller in the input can own is never removed', () => {
    const r = scenario(manifests(cm('held', 'default', { finalizers: ['example.com/hold'] }))).simulate(
      [del('v1', 'ConfigMap', 'default', 'held', 'Background')],
      builtin,
    );
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'held')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(stuckOf(r, 'ConfigMap', 'held').blockedBy).toEqual([
      expect.objectContaining({ type: 'finalizer', finalizer: 'example.com/hold' }),
    ]);
  });

  it('default guess: the operator whose CRD group, name and image match the finalizer domain removes it while it runs', () => {
    const r = scenario(STRIMZI).simulate([del('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', 'Background')], builtin);
    // Background: the Kafka goes first, then the GC collects what it owned.
    expect(names(r.deleted)).toEqual(['Kafka/my-cluster', 'ConfigMap/my-cluster-kafka-config']);
    expect(r.stuck).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'strimzi-cluster-operator')).toMatchObject({ beingDeleted: false });
    expect(remainingOf(r, 'Kafka', 'other-cluster')).toMatchObject({ beingDeleted: false, finalizers: ['kafka.strimzi.io/finalizer'] });
    const removal = r.steps.find((s) => s.action === 'remove-finalizer' && s.target.uid === 'uid-kafka-a');
    expect(removal).toBeDefined();
    expect(ACTORS_THAT_ARE_NOT_CONTROLLERS).not.toContain(removal!.actor);
    // The controller was guessed, an assumption the result must state.
    expect(r.notes.length).toBeGreaterThan(0);
  });

  it('R10 strict twin: in strict mode the same Kafka stays Terminating on the operator finalizer', () => {
    const r = scenario(STRIMZI).simulate([del('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Kafka', 'my-cluster')).toMatchObject({ beingDeleted: true, finalizers: ['kafka.strimzi.io/finalizer'] });
    expect(stuckOf(r, 'Kafka', 'my-cluster').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'kafka.strimzi.io/finalizer' })]),
    );
    // Its ConfigMap has a solid (terminating, non-foreground) owner: kept (R34).
    expect(remainingOf(r, 'ConfigMap', 'my-cluster-kafka-config')).toMatchObject({ beingDeleted: false });
  });

  it('finalizerOwners running: false overrides the guess: the finalizer is never removed although the operator runs', () => {
    const r = scenario(STRIMZI).simulate([del('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', 'Background')], {
      ...builtin,
      finalizerOwners: [{ finalizer: 'kafka.strimzi.io/*', running: false }],
    });
    expect(r.deleted).toEqual([]);
    expect(stuckOf(r, 'Kafka', 'my-cluster').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'kafka.strimzi.io/finalizer' })]),
    );
  });

  it('without hints in the input, a finalizer has no controller and stays', () => {
    const r = scenario(ACME).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], builtin);
    expect(r.deleted).toEqual([]);
    expect(stuckOf(r, 'Widget', 'blue').blockedBy).toEqual([expect.objectContaining({ type: 'finalizer', finalizer: 'acme.io/cleanup' })]);
  });

  it('finalizerOwners with a prefix rule names the workload: while it runs the finalizer is removed', () => {
    const r = scenario(ACME).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [ACME_OWNER],
    });
    expect(names(r.deleted)).toEqual(['Widget/blue']);
    expect(r.stuck).toEqual([]);
    const removal = r.steps.find((s) => s.action === 'remove-finalizer' && s.target.uid === 'uid-widget-blue');
    expect(removal).toBeDefined();
    expect(ACTORS_THAT_ARE_NOT_CONTROLLERS).not.toContain(removal!.actor);
  });

  it('finalizerOwners with an exact name matches only that finalizer', () => {
    const workload = ACME_OWNER.workload;
    const exact = scenario(ACME).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [{ finalizer: 'acme.io/cleanup', workload }],
    });
    expect(names(exact.deleted)).toEqual(['Widget/blue']);
    const other = scenario(ACME).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [{ finalizer: 'acme.io/clean', workload }],
    });
    expect(other.deleted).toEqual([]);
    expect(names(other.stuck)).toEqual(['Widget/blue']);
  });

  it('a prefix rule covers only its own domain: the other finalizer of the same object stays', () => {
    const yaml = acme({ widgetFinalizers: ['acme.io/cleanup', 'other.example/keep'] });
    const r = scenario(yaml).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [ACME_OWNER],
    });
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Widget', 'blue')).toMatchObject({ beingDeleted: true, finalizers: ['other.example/keep'] });
    const e = stuckOf(r, 'Widget', 'blue');
    expect(e.blockedBy).toEqual([expect.objectContaining({ type: 'finalizer', finalizer: 'other.example/keep' })]);
  });

  it('finalizerOwners external: true declares a controller outside the input that keeps running', () => {
    const r = scenario(ACME).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [{ finalizer: 'acme.io/*', external: true }],
    });
    expect(names(r.deleted)).toEqual(['Widget/blue']);
    expect(r.stuck).toEqual([]);
  });

  it('a controller whose workload was deleted first no longer runs: the chain names the workload and the step', () => {
    const r = scenario(ACME).simulate(
      [
        del('apps/v1', 'Deployment', 'ops', 'controller-manager', 'Background'),
        del('example.org/v1', 'Widget', 'apps', 'blue', 'Background'),
      ],
      { ...builtin, finalizerOwners: [ACME_OWNER] },
    );
    expect(names(r.deleted)).toEqual(['Deployment/controller-manager']);
    expect(remainingOf(r, 'Widget', 'blue')).toMatchObject({ beingDeleted: true, finalizers: ['acme.io/cleanup'] });
    const reason = stuckOf(r, 'Widget', 'blue').blockedBy.find((b) => b.type === 'finalizer');
    expect(reason).toMatchObject({
      finalizer: 'acme.io/cleanup',
      object: { kind: 'Deployment', namespace: 'ops', name: 'controller-manager', uid: 'uid-manager' },
    });
    expect(typeof reason!.step).toBe('number');
    expect(r.steps.some((s) => s.step === reason!.step && s.target.uid === 'uid-manager')).toBe(true);
  });

  it('a controller whose workload is itself being deleted is not running', () => {
    const yaml = acme({ manager: { ...DELETING, finalizers: ['example.net/keep'] } });
    const r = scenario(yaml).simulate([del('example.org/v1', 'Widget', 'apps', 'blue', 'Background')], {
      ...builtin,
      finalizerOwners: [ACME_OWNER],
    });
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Widget', 'blue')).toMatchObject({ beingDeleted: true, finalizers: ['acme.io/cleanup'] });
    expect(stuckOf(r, 'Widget', 'blue').blockedBy).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'finalizer',
          finalizer: 'acme.io/cleanup',
          object: expect.objectContaining({ uid: 'uid-manager' }),
        }),
      ]),
    );
  });
});

describe('THE classic deadlock: deleting the namespace that runs the operator of its own custom resources', () => {
  it('R11 + custom finalizer: the namespace controller deletes the operator too, the CRs and the Namespace hang forever', () => {
    const r = scenario(STRIMZI).simulate([del('v1', 'Namespace', '', 'kafka', 'Background')], builtin);

    // The operator and everything without the finalizer went.
    expect(sorted(names(r.deleted))).toEqual(
      sorted([
        'ConfigMap/my-cluster-kafka-config',
        'Deployment/strimzi-cluster-operator',
        'Pod/strimzi-cluster-operator-6d5f8-x2x9q',
        'ReplicaSet/strimzi-cluster-operator-6d5f8',
      ]),
    );
    expect(sorted(names(r.remaining))).toEqual(
      sorted(['CustomResourceDefinition/kafkas.kafka.strimzi.io', 'Kafka/my-cluster', 'Kafka/other-cluster', 'Namespace/kafka']),
    );
    expect(sorted(names(r.stuck))).toEqual(sorted(['Kafka/my-cluster', 'Kafka/other-cluster', 'Namespace/kafka']));
    expect(remainingOf(r, 'CustomResourceDefinition', 'kafkas.kafka.strimzi.io')).toMatchObject({ beingDeleted: false });

    // Each CR: its finalizer's controller is the operator workload, which was deleted.
    for (const [name, uid] of [
      ['my-cluster', 'uid-kafka-a'],
      ['other-cluster', 'uid-kafka-b'],
    ]) {
      expect(remainingOf(r, 'Kafka', name)).toMatchObject({ uid, beingDeleted: true, finalizers: ['kafka.strimzi.io/finalizer'] });
      const reason = stuckOf(r, 'Kafka', name).blockedBy.find((b) => b.type === 'finalizer');
      expect(reason).toMatchObject({
        finalizer: 'kafka.strimzi.io/finalizer',
        object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'strimzi-cluster-operator', uid: 'uid-op' },
      });
      expect(typeof reason!.step).toBe('number');
      expect(r.steps.some((s) => s.step === reason!.step && s.target.uid === 'uid-op')).toBe(true);
    }

    // The Namespace waits for exactly those CRs, each with its own reason.
    const ns = stuckOf(r, 'Namespace', 'kafka');
    expect(ns.blockedBy.map((b) => b.type)).not.toContain('namespace-controller');
    expect(contentNamed(ns)).toEqual(['Kafka/my-cluster', 'Kafka/other-cluster']);
    expect(contentReason(ns, 'Kafka', 'my-cluster').reasons).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: 'kafka.strimzi.io/finalizer' })]),
    );
    expect(r.steps.some((s) => s.action === 'remove-finalizer' && (s.target.uid === 'uid-kafka-a' || s.target.uid === 'uid-kafka-b'))).toBe(
      false,
    );
  });

  it('contrast: deleting the CRs first while the operator runs, then the Namespace, removes everything in it', () => {
    const r = scenario(STRIMZI).simulate(
      [
        del('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', 'Background'),
        del('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'other-cluster', 'Background'),
        del('v1', 'Namespace', '', 'kafka', 'Background'),
      ],
      builtin,
    );
    expect(names(r.deleted).slice(0, 3)).toEqual(['Kafka/my-cluster', 'ConfigMap/my-cluster-kafka-config', 'Kafka/other-cluster']);
    expect(names(r.deleted).at(-1)).toBe('Namespace/kafka');
    expect(names(r.remaining)).toEqual(['CustomResourceDefinition/kafkas.kafka.strimzi.io']);
    expect(r.stuck).toEqual([]);
  });

  it('contrast: with the operator declared external (running outside the namespace) the namespace deletion completes', () => {
    const r = scenario(STRIMZI).simulate([del('v1', 'Namespace', '', 'kafka', 'Background')], {
      ...builtin,
      finalizerOwners: [{ finalizer: 'kafka.strimzi.io/*', external: true }],
    });
    expect(names(r.deleted).at(-1)).toBe('Namespace/kafka');
    expect(names(r.remaining)).toEqual(['CustomResourceDefinition/kafkas.kafka.strimzi.io']);
    expect(r.stuck).toEqual([]);
  });

  it('contrast: an operator in another namespace keeps running while the namespace of its CRs is deleted', () => {
    const r = scenario(manifests(acme({ widgetNamespace: 'team' }), namespace('team', { phase: 'Active' }))).simulate(
      [del('v1', 'Namespace', '', 'team', 'Background')],
      { ...builtin, finalizerOwners: [ACME_OWNER] },
    );
    expect(names(r.deleted)).toEqual(['Widget/blue', 'Namespace/team']);
    expect(sorted(names(r.remaining))).toEqual(['CustomResourceDefinition/widgets.example.org', 'Deployment/controller-manager']);
    expect(r.stuck).toEqual([]);
  });

  it('R11 strict twin: in strict mode the Namespace is stuck on namespace-controller and nothing in it is touched', () => {
    const r = scenario(STRIMZI).simulate([del('v1', 'Namespace', '', 'kafka', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(names(r.stuck)).toEqual(['Namespace/kafka']);
    expect(stuckOf(r, 'Namespace', 'kafka').blockedBy.map((b) => b.type)).toContain('namespace-controller');
    expect(remainingOf(r, 'Deployment', 'strimzi-cluster-operator')).toMatchObject({ beingDeleted: false });
    expect(remainingOf(r, 'Kafka', 'my-cluster')).toMatchObject({ beingDeleted: false, finalizers: ['kafka.strimzi.io/finalizer'] });
  });
});

describe('CustomResourceDefinition deletion (CRD cleanup)', () => {
  const widgetA = obj('example.com/v1', 'Widget', 'default', 'a', { uid: 'uid-widget-a' });
  const WIDGETS = manifests(
    crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }]),
    widgetA,
    obj('example.com/v1', 'Widget', 'team', 'b', { uid: 'uid-widget-b' }),
    cm('a-state', 'default', { owners: [ctl(widgetA)] }),
    cm('unrelated', 'default'),
  );

  it('CRD cleanup: deleting a CRD deletes all its custom resources (and the GC their dependents), the CRD goes last', () => {
    const r = scenario(WIDGETS).simulate(
      [del('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', 'Background')],
      builtin,
    );
    expect(sorted(names(r.deleted))).toEqual(
      sorted(['CustomResourceDefinition/widgets.example.com', 'Widget/a', 'Widget/b', 'ConfigMap/a-state']),
    );
    const crdAt = removedAt(r, 'CustomResourceDefinition', 'widgets.example.com');
    expect(crdAt).toBeGreaterThan(removedAt(r, 'Widget', 'a'));
    expect(crdAt).toBeGreaterThan(removedAt(r, 'Widget', 'b'));
    expect(removedAt(r, 'ConfigMap', 'a-state')).toBeGreaterThan(removedAt(r, 'Widget', 'a'));
    expect(names(r.remaining)).toEqual(['ConfigMap/unrelated']);
    // The cleanup finalizer the apiserver added is removed once the instances are gone.
    expect(r.steps.some((s) => s.action === 'remove-finalizer' && s.target.uid === 'uid-crd-widgets')).toBe(true);
  });

  it('CRD cleanup strict twin: without the cleanup controller the CRD stays Terminating on its cleanup finalizer, CRs untouched', () => {
    const r = scenario(WIDGETS).simulate([
      del('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', 'Background'),
    ]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'CustomResourceDefinition', 'widgets.example.com')).toMatchObject({
      beingDeleted: true,
      finalizers: [CRD_CLEANUP],
    });
    expect(stuckOf(r, 'CustomResourceDefinition', 'widgets.example.com').blockedBy).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'finalizer', finalizer: CRD_CLEANUP })]),
    );
    expect(remainingOf(r, 'Widget', 'a')).toMatchObject({ beingDeleted: false });
    expect(remainingOf(r, 'Widget', 'b')).toMatchObject({ beingDeleted: false });
  });
});

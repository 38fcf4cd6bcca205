// Findings: what the analysis reports about manifests without deleting anything (s.findings()).
// One or more tests per Finding.code, checking code, severity, the object and the location; and that clean,
// realistic input yields no finding at all. Expectations come from docs/gc-semantics.md: admission
// rejections (R12, R13, R15, R52) are errors; references the GC resolves as dangling get the dependent
// deleted (R34, R43, R46); unmappable references and scope mistakes are never collected (R45, R46, R50).

import { describe, it, expect } from 'vitest';
import { scenario } from '../helpers/scenario';
import {
  type Container,
  type ObjectSpec,
  type OwnerReference,
  DELETING,
  manifests,
  ref,
  ctl,
  obj,
  cm,
  deploy,
  rs,
  clusterRole,
  namespace,
  pod,
  workloadSpec,
  pv,
  pvc,
  crd,
} from '../helpers/manifests';
import type { Finding, FindingCode } from '../../server/src/engine/analysis/findingTypes';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { buildInventory } from '../../server/src/engine/inventory';
import { analyze } from '../../server/src/engine/analysis/analyze';

function codesOf(fs: Finding[]): string[] {
  return fs.map((f) => `${f.code} on ${f.object.kind}/${f.object.name}`);
}

/** The one finding with this code on this object; fails with the list of what was found otherwise. */
function findingOn(fs: Finding[], code: FindingCode, kind: string, name: string): Finding {
  const hits = fs.filter((f) => f.code === code && f.object.kind === kind && f.object.name === name);
  if (hits.length === 0) throw new Error(`no ${code} on ${kind}/${name}; found: ${codesOf(fs).join('; ') || 'nothing'}`);
  return hits[0];
}

function hasCode(fs: Finding[], code: FindingCode, name?: string): boolean {
  return fs.some((f) => f.code === code && (name === undefined || f.object.name === name));
}

const NOT_INFO = ['error', 'warning'];

// ---------------------------------------------------------------------------------------------------------
// Clean input

const NGINX: Container = { name: 'web', image: 'nginx:1.27' };
const POSTGRES: Container = { name: 'db', image: 'postgres:16' };

function cleanInput(): ObjectSpec[] {
  const webSpec = workloadSpec({ app: 'web' }, [NGINX], { replicas: 2 });
  const web = deploy('web', 'shop', { extra: { spec: webSpec } });
  const webRs = rs('web-7d4b9', 'shop', { uid: 'uid-web-rs', owners: [ctl(web)], extra: { spec: webSpec } });
  const svc = obj('v1', 'Service', 'shop', 'web', {
    uid: 'uid-web-svc',
    extra: { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
  });
  const db = obj('apps/v1', 'StatefulSet', 'shop', 'db', {
    extra: {
      spec: workloadSpec({ app: 'db' }, [POSTGRES], {
        serviceName: 'db',
        replicas: 1,
        volumeClaimTemplates: [
          { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
        ],
      }),
    },
  });
  const jobSpec = { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'r', image: 'report:1' }] } } };
  const cron = obj('batch/v1', 'CronJob', 'shop', 'report', {
    uid: 'uid-cron',
    extra: { spec: { schedule: '0 * * * *', jobTemplate: { spec: jobSpec } } },
  });
  const node = obj('v1', 'Node', undefined, 'node-1');
  const blue = obj('widgets.example.com/v1', 'Widget', 'shop', 'blue', {
    uid: 'uid-widget-blue',
    finalizers: ['widgets.example.com/cleanup'],
    extra: { spec: {} },
  });
  return [
    namespace('shop', { phase: 'Active' }),
    web,
    webRs,
    pod('web-7d4b9-aaaaa', 'shop', {
      uid: 'uid-web-pod-a',
      owners: [ctl(webRs)],
      nodeName: 'node-1',
      containers: [NGINX],
      phase: 'Running',
    }),
    svc,
    obj('discovery.k8s.io/v1', 'EndpointSlice', 'shop', 'web-x1b2c', {
      uid: 'uid-web-eps',
      owners: [ctl(svc)],
      extra: { addressType: 'IPv4', endpoints: [] },
    }),
    db,
    pod('db-0', 'shop', {
      owners: [ctl(db)],
      nodeName: 'node-1',
      containers: [POSTGRES],
      claims: [{ volume: 'data', claimName: 'data-db-0' }],
      phase: 'Running',
    }),
    pvc('data-db-0', 'shop', { volumeName: 'pv-db-0' }),
    pv('pv-db-0', {
      finalizers: ['kubernetes.io/pv-protection'],
      claimRef: { namespace: 'shop', name: 'data-db-0', uid: 'uid-data-db-0' },
      phase: 'Bound',
    }),
    cron,
    obj('batch/v1', 'Job', 'shop', 'report-28500000', { uid: 'uid-job', owners: [ctl(cron)], extra: { spec: jobSpec } }),
    node,
    pod('static-web-node-1', 'kube-system', {
      uid: 'uid-mirror-pod',
      owners: [ref(node, { controller: true })],
      nodeName: 'node-1',
      containers: [NGINX],
      phase: 'Running',
    }),
    clusterRole('widget-reader', {
      uid: 'uid-cr-reader',
      extra: { rules: [{ apiGroups: ['widgets.example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }] },
    }),
    crd('widgets.example.com', 'Widget', 'widgets', 'Namespaced', [
      { name: 'v1', served: true, storage: true },
      { name: 'v1beta1', served: true, storage: false },
    ]),
    deploy('widget-operator', 'widget-system', {
      extra: { spec: workloadSpec({ app: 'widget-operator' }, [{ name: 'manager', image: 'ghcr.io/example/widget-operator:1.2.0' }]) },
    }),
    blue,
    cm('blue-state', 'shop', { owners: [ctl(blue)] }),
  ];
}

/** A realistic, consistent set of manifests: a web app, a database, a CronJob, a mirror Pod and an operator. */
const CLEAN = manifests(...cleanInput());

// ---------------------------------------------------------------------------------------------------------
// Fixtures shared by several tests

/** The container of the many single-container Pods whose image does not matter. */
const C: Container = { name: 'c', image: 'c:1' };

/** The Strimzi CRD, its operator running in `operatorNamespace` and one Kafka (in kafka) carrying its finalizer. */
function strimzi(operatorNamespace: string, kafka: Partial<ObjectSpec> = {}): ObjectSpec[] {
  const operator: Container = { name: 'strimzi-cluster-operator', image: 'quay.io/strimzi/operator:0.45.0' };
  return [
    crd('kafka.strimzi.io', 'Kafka', 'kafkas', 'Namespaced', [{ name: 'v1beta2', served: true, storage: true }], { uid: 'uid-crd-kafka' }),
    deploy('strimzi-cluster-operator', operatorNamespace, {
      uid: 'uid-op',
      extra: { spec: workloadSpec({ name: 'strimzi-cluster-operator' }, [operator]) },
    }),
    obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', {
      uid: 'uid-kafka',
      ...kafka,
      finalizers: ['kafka.strimzi.io/finalizer'],
      extra: { spec: {} },
    }),
  ];
}

describe('clean input', () => {
  it('a realistic, consistent set of manifests yields no finding at all', () => {
    expect(codesOf(scenario(CLEAN).findings())).toEqual([]);
  });

  it('R44: namespaced dependents of a cluster-scoped owner are valid (no finding)', () => {
    const tenant = obj('example.com/v1', 'Tenant', undefined, 'acme', { uid: 'uid-tenant' });
    const fs = scenario(
      manifests(
        tenant,
        cm('tenant-a', 'a', { uid: 'uid-cm-a', owners: [ref(tenant)] }),
        cm('tenant-b', 'b', { uid: 'uid-cm-b', owners: [ref(tenant)] }),
      ),
    ).findings();
    expect(codesOf(fs)).toEqual([]);
  });

  it('R46: a reference through a served non-preferred version of the owner CRD resolves like a correct one (no finding)', () => {
    const versions = [
      { name: 'v2', served: true, storage: true },
      { name: 'v1', served: true, storage: false },
    ];
    const gizmo = obj('example.com/v2', 'Gizmo', 'default', 'g', { uid: 'uid-gizmo' });
    const viaV1 = cm('g-state', 'default', { owners: [ref(gizmo, { apiVersion: 'example.com/v1' })] });
    const fs = scenario(manifests(crd('example.com', 'Gizmo', 'gizmos', 'Namespaced', versions), gizmo, viaV1)).findings();
    expect(codesOf(fs)).toEqual([]);
  });

  it('R54: a custom kind without CRD is served at the apiVersion its objects use, references to it are fine', () => {
    const thing = obj('example.com/v1', 'Thing', 'default', 't', { uid: 'uid-thing' });
    const fs = scenario(manifests(thing, obj('v1', 'Secret', 'default', 't-secret', { owners: [ctl(thing)] }))).findings();
    expect(codesOf(fs)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('dangling-owner (R34.4: owner absent -> the GC deletes the dependent)', () => {
  it('R34: owner uid absent and no object of that kind/name in the namespace -> error on the reference', () => {
    const gone: OwnerReference = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'web-old',
      uid: 'uid-rs-gone',
      controller: true,
      blockOwnerDeletion: true,
    };
    const fs = scenario(
      manifests(pod('web-old-abcde', 'shop', { uid: 'uid-pod', owners: [gone], nodeName: 'node-1', containers: [C] })),
    ).findings();
    const f = findingOn(fs, 'dangling-owner', 'Pod', 'web-old-abcde');
    expect(f.severity).toBe('error');
    expect(f.object).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-old-abcde', uid: 'uid-pod' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'owner-uid-mismatch')).toBe(false);
  });

  it('R34: the location points at the dangling reference, here the second one', () => {
    const node = obj('v1', 'Node', undefined, 'node-1');
    const gone: OwnerReference = { apiVersion: 'v1', kind: 'Secret', name: 'gone', uid: 'uid-secret-gone' };
    const fs = scenario(manifests(node, cm('two-owners', 'default', { uid: 'uid-cm', owners: [ref(node), gone] }))).findings();
    const f = findingOn(fs, 'dangling-owner', 'ConfigMap', 'two-owners');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
    expect(fs.filter((x) => x.code === 'dangling-owner')).toHaveLength(1);
  });

  it('R42: a namesake owner in ANOTHER namespace does not count: still dangling, not a uid mismatch', () => {
    const web = deploy('web', 'b', { uid: 'uid-web-b' });
    const fs = scenario(
      manifests(
        web,
        rs('web-7d4b9', 'a', { uid: 'uid-rs-a', owners: [ref(web, { uid: 'uid-web-a', controller: true, blockOwnerDeletion: true })] }),
      ),
    ).findings();
    const f = findingOn(fs, 'dangling-owner', 'ReplicaSet', 'web-7d4b9');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'owner-uid-mismatch')).toBe(false);
  });

  it('R30: an object already being deleted keeps its dangling reference: the message does not say the GC deletes it', () => {
    const gone: OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-old', uid: 'uid-rs-gone', controller: true };
    const fs = scenario(manifests(pod('leaving', 'shop', { owners: [gone], nodeName: 'node-1', containers: [C], ...DELETING }))).findings();
    const f = findingOn(fs, 'dangling-owner', 'Pod', 'leaving');
    expect(f.message).toContain('is already being deleted: the GC leaves its references alone.');
    expect(f.message).not.toContain('as soon as it sees it');
  });
});

describe('owner-uid-mismatch (R34.4: found by name with another uid -> dangling)', () => {
  it('R34: an owner of that kind/name exists in the namespace with another uid (manifests exported from another cluster)', () => {
    const web = deploy('web', 'shop', { uid: 'uid-web-new' });
    const fs = scenario(
      manifests(
        web,
        rs('web-7d4b9', 'shop', { uid: 'uid-rs', owners: [ref(web, { uid: 'uid-web-old', controller: true, blockOwnerDeletion: true })] }),
      ),
    ).findings();
    const f = findingOn(fs, 'owner-uid-mismatch', 'ReplicaSet', 'web-7d4b9');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ kind: 'ReplicaSet', namespace: 'shop', uid: 'uid-rs' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R42: a cluster-scoped owner is looked up cluster-wide: a Node of that name with another uid is a mismatch', () => {
    const node = obj('v1', 'Node', undefined, 'node-1', { uid: 'uid-node-1-rebuilt' });
    const mirror = pod('static-web-node-1', 'kube-system', {
      uid: 'uid-mirror',
      owners: [ref(node, { uid: 'uid-node-1-before', controller: true })],
      nodeName: 'node-1',
      containers: [C],
    });
    const fs = scenario(manifests(node, mirror)).findings();
    const f = findingOn(fs, 'owner-uid-mismatch', 'Pod', 'static-web-node-1');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });
});

describe('owner-coordinates-mismatch (R46: the uid exists under other coordinates -> dangling)', () => {
  const WEB = deploy('web', 'shop');

  it('R46 wrong-kind-reference-to-existing-uid: the ref says v1 Secret for a uid that is a Deployment', () => {
    const fs = scenario(manifests(WEB, cm('cm', 'shop', { owners: [ref(WEB, { apiVersion: 'v1', kind: 'Secret' })] }))).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'ConfigMap', 'cm');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(f.object).toMatchObject({ uid: 'uid-cm', namespace: 'shop' });
  });

  it('R46 right-uid-wrong-name: the ref names the Deployment web-old with the uid of web', () => {
    const settings: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', uid: 'uid-settings-gone' };
    const wrongName = ref(WEB, { name: 'web-old', controller: true, blockOwnerDeletion: true });
    const fs = scenario(manifests(WEB, rs('web-7d4b9', 'shop', { uid: 'uid-rs', owners: [settings, wrongName] }))).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'ReplicaSet', 'web-7d4b9');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });

  it('R46: a Deployment reference whose uid is a ReplicaSet (another kind in the same group)', () => {
    const set = rs('web-7d4b9', 'shop', { uid: 'uid-rs' });
    const fs = scenario(manifests(set, pod('p', 'shop', { owners: [ref(set, { kind: 'Deployment' })], containers: [C] }))).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(f.message).toContain(
      'uid uid-rs belongs to ReplicaSet shop/web-7d4b9, not to Deployment web-7d4b9 (kind Deployment, not ReplicaSet).',
    );
  });
});

describe('owner-namespace-mismatch (R43)', () => {
  it('R43 namespaced-child-owner-uid-in-other-namespace: the uid is a namespaced object in another namespace', () => {
    const web = deploy('web', 'b');
    const fs = scenario(manifests(web, cm('web-config', 'a', { uid: 'uid-cm-a', owners: [ref(web)] }))).findings();
    const f = findingOn(fs, 'owner-namespace-mismatch', 'ConfigMap', 'web-config');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'a', uid: 'uid-cm-a' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    // The real owner and its namespace are fine.
    expect(fs.some((x) => x.object.uid === 'uid-web')).toBe(false);
  });
});

describe('cluster-scoped-dependent-of-namespaced-owner (R45)', () => {
  it('R45 cluster-scoped-child-of-existing-namespaced-owner: a ClusterRole owned by a Deployment', () => {
    const op = deploy('operator', 'ops', { uid: 'uid-op' });
    const fs = scenario(manifests(op, clusterRole('operator-role', { uid: 'uid-cr', owners: [ctl(op)], extra: { rules: [] } }))).findings();
    const f = findingOn(fs, 'cluster-scoped-dependent-of-namespaced-owner', 'ClusterRole', 'operator-role');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: '', uid: 'uid-cr' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
  });

  it('R45: with the namespaced owner absent it is still a scope error, never dangling (the GC never deletes it)', () => {
    const parent = clusterRole('parent', { extra: { rules: [] } });
    const binding = obj('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', undefined, 'binding', {
      uid: 'uid-crb',
      owners: [ref(parent), { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'uid-cm-gone' }],
      extra: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [] },
    });
    const fs = scenario(manifests(binding, parent)).findings();
    const f = findingOn(fs, 'cluster-scoped-dependent-of-namespaced-owner', 'ClusterRoleBinding', 'binding');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
    expect(hasCode(fs, 'dangling-owner', 'binding')).toBe(false);
  });
});

describe('unresolvable-owner-kind (R46, R54: the GC retries forever, never collects)', () => {
  const podOwnedBy = (owner: OwnerReference) => manifests(deploy('web', 'shop'), pod('p', 'shop', { owners: [owner], containers: [C] }));

  it('R46 unresolvable-apiversion-kind-never-collected: extensions/v1beta1 Deployment (retired version)', () => {
    const fs = scenario(podOwnedBy({ apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'web', uid: 'uid-web' })).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'shop', uid: 'uid-p' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R46: v1 ReplicaSet (a kind in the wrong group)', () => {
    const fs = scenario(podOwnedBy({ apiVersion: 'v1', kind: 'ReplicaSet', name: 'web-7d4b9', uid: 'uid-rs-gone' })).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R54: lower-case apps/v1 daemonset (kinds are case-sensitive)', () => {
    const fs = scenario(podOwnedBy({ apiVersion: 'apps/v1', kind: 'daemonset', name: 'agent', uid: 'uid-ds-gone' })).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R54: a lower-case kind whose uid is an object of the workspace: the message names it, says how the reference differs, and asks', () => {
    // OpenShift 4.8's ingress canary: `kind: daemonset` with the uid of the real DaemonSet.
    const ds = obj('apps/v1', 'DaemonSet', 'openshift-ingress-canary', 'ingress-canary', { uid: 'uid-ds' });
    const svc = obj('v1', 'Service', 'openshift-ingress-canary', 'ingress-canary', {
      owners: [ref(ds, { kind: 'daemonset', controller: true })],
    });
    const f = findingOn(scenario(manifests(ds, svc)).findings(), 'unresolvable-owner-kind', 'Service', 'ingress-canary');
    expect(f.message).toBe(
      'Nothing serves apps/v1 daemonset: the GC cannot resolve this reference and retries Service openshift-ingress-canary/ingress-canary forever, ' +
        'so it is never collected and its other references are never cleaned up. Its uid uid-ds belongs to DaemonSet openshift-ingress-canary/ingress-canary, ' +
        'which this reference names differently: kind daemonset, not DaemonSet (kinds are case-sensitive). Did you mean DaemonSet?',
    );
    expect(f.message).not.toContain('not found');
    expect(f.related.map((r) => r.object?.uid)).toEqual(['uid-ds']);
  });

  it('R54: a lower-case kind and group, in another namespace and with another name: every difference is named', () => {
    const ds = obj('apps/v1', 'DaemonSet', 'agents', 'node-agent', { uid: 'uid-ds' });
    const p = pod('p', 'shop', { owners: [{ apiVersion: 'Apps/v1', kind: 'daemonset', name: 'agent', uid: 'uid-ds' }], containers: [C] });
    const f = findingOn(scenario(manifests(ds, p)).findings(), 'unresolvable-owner-kind', 'Pod', 'p');
    expect(f.message).toContain(
      'Its uid uid-ds belongs to DaemonSet agents/node-agent, which this reference names differently: apiVersion Apps/v1, not apps/v1 (groups are case-sensitive); ' +
        'kind daemonset, not DaemonSet (kinds are case-sensitive); name agent, not node-agent; namespace: the GC looks in shop, the object is in agents.',
    );
    // The name differs too: correcting the case alone would not resolve it, so no "did you mean".
    expect(f.message).not.toContain('Did you mean');
  });

  it('R54: a custom kind referenced at a version no CRD and no object serves', () => {
    const thing = obj('example.com/v1', 'Thing', 'default', 't', { uid: 'uid-thing' });
    const keep: OwnerReference = { apiVersion: 'v1', kind: 'Secret', name: 'keep', uid: 'uid-keep-gone' };
    const fs = scenario(
      manifests(thing, cm('t-state', 'default', { owners: [keep, ref(thing, { apiVersion: 'example.com/v2' })] })),
    ).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'ConfigMap', 't-state');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });
});

describe('multiple-controllers (R13)', () => {
  /** Pod p, owned by ConfigMap cfg (controller: false) and by each of `controllers` with controller: true. */
  const podControlledBy = (...controllers: ObjectSpec[]) => {
    const cfg = cm('cfg', 'default');
    const owners = [ref(cfg, { controller: false }), ...controllers.map((c) => ref(c, { controller: true }))];
    return manifests(...controllers, cfg, pod('p', 'default', { owners, containers: [C] }));
  };

  it('R13: two references with controller: true are rejected at admission; the second offender is flagged', () => {
    const fs = scenario(podControlledBy(rs('a', 'default', { uid: 'uid-rs-a' }), rs('b', 'default', { uid: 'uid-rs-b' }))).findings();
    const f = findingOn(fs, 'multiple-controllers', 'Pod', 'p');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-p' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 2 });
    expect(fs.filter((x) => x.code === 'multiple-controllers')).toHaveLength(1);
  });

  it('R13: one controller among several owners is fine', () => {
    const fs = scenario(podControlledBy(rs('a', 'default', { uid: 'uid-rs-a' }))).findings();
    expect(codesOf(fs)).toEqual([]);
  });
});

describe('invalid-owner-reference (R12)', () => {
  const withRefs = (refs: string[]) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: uid-web}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: default
  uid: uid-cm
  ownerReferences:
${refs.map((r) => `  - ${r}`).join('\n')}
`;
  const GOOD = '{apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web}';

  const cases: [string, string][] = [
    ['missing uid', '{apiVersion: apps/v1, kind: Deployment, name: web}'],
    ['missing kind', '{apiVersion: apps/v1, name: web, uid: uid-web}'],
    ['missing name', '{apiVersion: apps/v1, kind: Deployment, uid: uid-web}'],
    ['missing apiVersion', '{kind: Deployment, name: web, uid: uid-web}'],
    ['unparseable apiVersion', '{apiVersion: apps/v1/extra, kind: Deployment, name: web, uid: uid-web}'],
    ['empty version', "{apiVersion: 'apps/', kind: Deployment, name: web, uid: uid-web}"],
    ['core v1 Event as owner', '{apiVersion: v1, kind: Event, name: ev, uid: uid-event}'],
  ];
  for (const [what, ref] of cases) {
    it(`R12: ${what} is rejected at admission (error on that reference)`, () => {
      const fs = scenario(withRefs([GOOD, ref])).findings();
      const f = findingOn(fs, 'invalid-owner-reference', 'ConfigMap', 'cm');
      expect(f.severity).toBe('error');
      expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-cm' });
      expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
    });
  }

  it('R12: an events.k8s.io Event is not a banned owner', () => {
    const ev = obj('events.k8s.io/v1', 'Event', 'default', 'ev', { uid: 'uid-event', extra: { reason: 'Test' } });
    const fs = scenario(manifests(ev, cm('cm', 'default', { owners: [ref(ev)] }))).findings();
    expect(hasCode(fs, 'invalid-owner-reference')).toBe(false);
  });
});

describe('invalid-finalizers (R15, R52)', () => {
  it('R52: orphan and foregroundDeletion together are rejected at admission', () => {
    const fs = scenario(manifests(cm('both', 'default', { finalizers: ['example.com/keep', 'orphan', 'foregroundDeletion'] }))).findings();
    const f = findingOn(fs, 'invalid-finalizers', 'ConfigMap', 'both');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-both' });
    expect(f.location.kind).toBe('finalizer');
    // It points at one of the two GC finalizers, not at the foreign one.
    expect([1, 2]).toContain((f.location as { index: number }).index);
  });

  it('R15: one GC finalizer alone is fine', () => {
    const fs = scenario(manifests(cm('one', 'default', { finalizers: ['orphan'] }))).findings();
    expect(hasCode(fs, 'invalid-finalizers')).toBe(false);
  });

  it('R15: a finalizer name that is not a qualified name is rejected at admission', () => {
    const fs = scenario(manifests(cm('badname', 'default', { finalizers: ['example.com/ok', 'not a valid name!'] }))).findings();
    const f = findingOn(fs, 'invalid-finalizers', 'ConfigMap', 'badname');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'finalizer', index: 1 });
  });
});

describe('ownership-cycle (R41: stable, nothing is ever collected)', () => {
  it('R41 two-object-cycle-no-deletion: A owns B and B owns A', () => {
    const a = cm('a', 'default');
    const b = cm('b', 'default', { owners: [ref(a)] });
    a.owners = [ref(b)];
    const fs = scenario(manifests(a, b)).findings();
    const cycle = fs.filter((f) => f.code === 'ownership-cycle');
    expect(cycle.length).toBeGreaterThan(0);
    for (const f of cycle) {
      expect(['uid-a', 'uid-b']).toContain(f.object.uid);
      expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
      expect(f.severity).toBe('warning');
    }
    expect(hasCode(fs, 'foreground-deadlock')).toBe(false);
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R41 self-reference-no-deletion: an object that names itself as owner', () => {
    const me = cm('me', 'default');
    me.owners = [ref(me)];
    const fs = scenario(manifests(me)).findings();
    const f = findingOn(fs, 'ownership-cycle', 'ConfigMap', 'me');
    expect(f.severity).toBe('warning');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    // Not blocking: a Foreground delete of it does not deadlock.
    expect(hasCode(fs, 'foreground-deadlock')).toBe(false);
  });
});

describe('foreground-deadlock (R50)', () => {
  it('R50.4 self-reference-blocking-foreground-deadlock: a self reference with blockOwnerDeletion: true', () => {
    const other = obj('v1', 'Secret', 'default', 'other');
    const me = cm('me', 'default');
    me.owners = [ref(other), ref(me, { blockOwnerDeletion: true })];
    const fs = scenario(manifests(me, other)).findings();
    const f = findingOn(fs, 'foreground-deadlock', 'ConfigMap', 'me');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ uid: 'uid-me' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });

  const BLOCKER = (block: boolean) => {
    const web = deploy('web', 'shop');
    const owners = [ref(web, { controller: true, blockOwnerDeletion: block })];
    return manifests(web, rs('web-old', 'shop', { uid: 'uid-rs-old', ...DELETING, finalizers: ['example.com/hold'], owners }));
  };

  it('R50.2 blocking-dependent-already-terminating: a blocker stuck on a foreign finalizer nobody removes', () => {
    const fs = scenario(BLOCKER(true)).findings();
    const f = fs.find((x) => x.code === 'foreground-deadlock');
    expect(f, codesOf(fs).join('; ')).toBeDefined();
    expect(NOT_INFO).toContain(f!.severity);
    expect(['uid-web', 'uid-rs-old']).toContain(f!.object.uid);
    // The other side of the deadlock is named.
    const other = f!.object.uid === 'uid-web' ? 'uid-rs-old' : 'uid-web';
    expect(f!.related.some((x) => x.object?.uid === other)).toBe(true);
  });

  it('R47 non-blocking-dependents-do-not-block: the same terminating dependent without blockOwnerDeletion is no deadlock', () => {
    const fs = scenario(BLOCKER(false)).findings();
    expect(hasCode(fs, 'foreground-deadlock')).toBe(false);
    // It is still stuck on its own finalizer.
    expect(hasCode(fs, 'stuck-terminating', 'web-old')).toBe(true);
  });
});

describe('finalizer-deadlock (operator and its custom resources in one namespace)', () => {
  it('deleting the namespace would delete the operator with its CRs: the CR finalizer is flagged', () => {
    const fs = scenario(manifests(namespace('kafka', { phase: 'Active' }), ...strimzi('kafka'))).findings();
    const f = findingOn(fs, 'finalizer-deadlock', 'Kafka', 'my-cluster');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toEqual({
      apiVersion: 'kafka.strimzi.io/v1beta2',
      kind: 'Kafka',
      namespace: 'kafka',
      name: 'my-cluster',
      uid: 'uid-kafka',
    });
    expect(f.location).toMatchObject({ kind: 'finalizer', index: 0 });
    // Nothing is terminating yet: nothing is stuck now.
    expect(hasCode(fs, 'stuck-terminating')).toBe(false);
  });

  it('the operator in its own namespace: no deadlock', () => {
    const fs = scenario(manifests(namespace('kafka', { phase: 'Active' }), ...strimzi('strimzi-system'))).findings();
    expect(hasCode(fs, 'finalizer-deadlock')).toBe(false);
  });
});

describe('stuck-terminating (already terminating in the input, cannot finish)', () => {
  const TERMINATING_SHOP = namespace('shop', { ...DELETING, phase: 'Terminating' });

  it('R10: a terminating object whose custom finalizer no controller in the input owns', () => {
    const fs = scenario(manifests(cm('held', 'default', { ...DELETING, finalizers: ['example.com/hold'] }))).findings();
    const f = findingOn(fs, 'stuck-terminating', 'ConfigMap', 'held');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-held' });
    expect(['finalizer', 'deletionTimestamp']).toContain(f.location.kind);
    if (f.location.kind === 'finalizer') expect(f.location.index).toBe(0);
  });

  it('R11: a Terminating Namespace whose content cannot go', () => {
    const fs = scenario(manifests(TERMINATING_SHOP, cm('held', 'shop', { finalizers: ['example.com/hold'] }))).findings();
    const f = findingOn(fs, 'stuck-terminating', 'Namespace', 'shop');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: '', uid: 'uid-ns-shop' });
    expect(['finalizer', 'deletionTimestamp', 'object']).toContain(f.location.kind);
    // The content itself is not terminating yet: only the Namespace is reported stuck.
    expect(hasCode(fs, 'stuck-terminating', 'held')).toBe(false);
  });

  it('R11 contrast: a Terminating Namespace whose content can go is not stuck', () => {
    const fs = scenario(manifests(TERMINATING_SHOP, cm('plain', 'shop'))).findings();
    expect(hasCode(fs, 'stuck-terminating')).toBe(false);
  });

  it('contrast: a terminating object whose finalizer controller runs elsewhere is not stuck', () => {
    const fs = scenario(manifests(...strimzi('strimzi-system', DELETING))).findings();
    expect(hasCode(fs, 'stuck-terminating')).toBe(false);
  });
});

describe('conflicting-copies', () => {
  const COPY = (finalizers: string, label: string) => `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
  uid: uid-settings
  labels: {tier: ${label}}
  finalizers: ${finalizers}
data: {a: '1'}
`;

  it('the same uid in two documents with different content', () => {
    const fs = scenario(`${COPY('[]', 'gold')}\n---\n${COPY('[example.com/keep]', 'silver')}`).findings();
    const f = findingOn(fs, 'conflicting-copies', 'ConfigMap', 'settings');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-settings' });
    expect(f.location).toEqual({ kind: 'object' });
  });

  it('the same uid under two different names is conflicting too', () => {
    const fs = scenario(manifests(cm('one', 'default', { uid: 'uid-same' }), cm('two', 'default', { uid: 'uid-same' }))).findings();
    const f = fs.find((x) => x.code === 'conflicting-copies');
    expect(f, codesOf(fs).join('; ')).toBeDefined();
    expect(f!.object.uid).toBe('uid-same');
  });

  it('names the object and each copy by its file name: no made-up uid, no URI (the related information links the file)', () => {
    const noUid = (finalizers: string) => COPY(finalizers, 'gold').replace('  uid: uid-settings\n', '');
    const at = (uri: string, text: string) => parseManifestText(text, uri).objects;
    const objects = [
      ...at('file:///work/repo/base/settings%20v1.yaml', noUid('[]')),
      ...at('file:///work/repo/overlay/settings.yaml', noUid('[example.com/keep]')),
    ];
    const f = analyze(buildInventory(objects, { defaultNamespace: 'default' })).find((x) => x.code === 'conflicting-copies')!;
    expect(f.message).toBe(
      'ConfigMap default/settings appears twice with different content (metadata.finalizers): the copy in settings v1.yaml is used, this one in settings.yaml is ignored.',
    );
    expect(f.related[0].file).toBe('file:///work/repo/base/settings%20v1.yaml');
    // Both in one file: its documents are told apart.
    const one = scenario(`${noUid('[]')}\n---\n${noUid('[example.com/keep]')}`).findings();
    expect(findingOn(one, 'conflicting-copies', 'ConfigMap', 'settings').message).toContain(
      'the copy in document 1 of scenario.yaml is used, this one in document 2 of scenario.yaml is ignored.',
    );
  });

  it("the same uid under two names: both objects named, and the uid (the objects' own)", () => {
    const fs = scenario(manifests(cm('one', 'default', { uid: 'uid-same' }), cm('two', 'default', { uid: 'uid-same' }))).findings();
    expect(fs.find((x) => x.code === 'conflicting-copies')!.message).toBe(
      'ConfigMap default/two has the uid uid-same of ConfigMap default/one, with different content (metadata.name): a cluster holds one object per uid, so ConfigMap default/one in document 1 of scenario.yaml is used and this copy in document 2 of scenario.yaml is ignored.',
    );
  });

  it('two identical copies of one object are not a conflict', () => {
    const fs = scenario(`${COPY('[]', 'gold')}\n---\n${COPY('[]', 'gold')}`).findings();
    expect(hasCode(fs, 'conflicting-copies')).toBe(false);
  });
});

describe('R16: the optional OwnerReferencesPermissionEnforcement plugin decides who may write a reference, not what the GC does', () => {
  // Off in the upstream default plugins: a blockOwnerDeletion reference is accepted from anyone, and honoured.
  const owner = cm('owner', 'default');
  const dependent = cm('dependent', 'default', { owners: [ref(owner, { blockOwnerDeletion: true })], finalizers: ['example.com/hold'] });
  const s = scenario(manifests(owner, dependent));

  it('R16: blockOwnerDeletion on a reference is no admission error', () => {
    expect(s.findings().filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('R16: a Foreground DELETE of the owner waits for that dependent whoever set the flag', () => {
    const r = s.simulate([{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'owner', propagationPolicy: 'Foreground' }]);
    expect(r.stuck.map((x) => `${x.kind}/${x.name}`).sort()).toEqual(['ConfigMap/dependent', 'ConfigMap/owner']);
  });
});

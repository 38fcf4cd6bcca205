// Findings: what the analysis reports about manifests without deleting anything (s.findings()).
// One or more tests per Finding.code, checking code, severity, the object and the location; and that clean,
// realistic input yields no finding at all. Expectations come from docs/gc-semantics.md: admission
// rejections (R12, R13, R15, R52) are errors; references the GC resolves as dangling get the dependent
// deleted (R34, R43, R46); unmappable references and scope mistakes are never collected (R45, R46, R50).

import { describe, it, expect } from 'vitest';
import { scenario } from '../helpers/scenario';
import type { Finding, FindingCode } from '../../server/src/engine/analysis/findingTypes';

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

const CLEAN = `
apiVersion: v1
kind: Namespace
metadata: {name: shop, uid: uid-ns-shop}
spec: {finalizers: [kubernetes]}
status: {phase: Active}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: uid-web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: 'nginx:1.27'}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d4b9
  namespace: shop
  uid: uid-web-rs
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web, controller: true, blockOwnerDeletion: true}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: 'nginx:1.27'}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-7d4b9-aaaaa
  namespace: shop
  uid: uid-web-pod-a
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-7d4b9, uid: uid-web-rs, controller: true, blockOwnerDeletion: true}
spec:
  nodeName: node-1
  containers: [{name: web, image: 'nginx:1.27'}]
status: {phase: Running}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop, uid: uid-web-svc}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-x1b2c
  namespace: shop
  uid: uid-web-eps
  ownerReferences:
  - {apiVersion: v1, kind: Service, name: web, uid: uid-web-svc, controller: true, blockOwnerDeletion: true}
addressType: IPv4
endpoints: []
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop, uid: uid-db}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: 'postgres:16'}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: db-0
  namespace: shop
  uid: uid-db-0
  ownerReferences:
  - {apiVersion: apps/v1, kind: StatefulSet, name: db, uid: uid-db, controller: true, blockOwnerDeletion: true}
spec:
  nodeName: node-1
  containers: [{name: db, image: 'postgres:16'}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data-db-0}}]
status: {phase: Running}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-db-0, namespace: shop, uid: uid-data-db-0, finalizers: [kubernetes.io/pvc-protection]}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  volumeName: pv-db-0
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-db-0, uid: uid-pv-db-0, finalizers: [kubernetes.io/pv-protection]}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {kind: PersistentVolumeClaim, namespace: shop, name: data-db-0, uid: uid-data-db-0}
  hostPath: {path: /data}
status: {phase: Bound}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: shop, uid: uid-cron}
spec:
  schedule: '0 * * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: r, image: 'report:1'}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: report-28500000
  namespace: shop
  uid: uid-job
  ownerReferences:
  - {apiVersion: batch/v1, kind: CronJob, name: report, uid: uid-cron, controller: true, blockOwnerDeletion: true}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: r, image: 'report:1'}]
---
apiVersion: v1
kind: Node
metadata: {name: node-1, uid: uid-node-1}
---
apiVersion: v1
kind: Pod
metadata:
  name: static-web-node-1
  namespace: kube-system
  uid: uid-mirror-pod
  ownerReferences:
  - {apiVersion: v1, kind: Node, name: node-1, uid: uid-node-1, controller: true}
spec:
  nodeName: node-1
  containers: [{name: web, image: 'nginx:1.27'}]
status: {phase: Running}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: widget-reader, uid: uid-cr-reader}
rules: [{apiGroups: [widgets.example.com], resources: [widgets], verbs: [get, list, watch]}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.widgets.example.com, uid: uid-crd-widgets}
spec:
  group: widgets.example.com
  scope: Namespaced
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1beta1, served: true, storage: false}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: widget-operator, namespace: widget-system, uid: uid-widget-operator}
spec:
  selector: {matchLabels: {app: widget-operator}}
  template:
    metadata: {labels: {app: widget-operator}}
    spec: {containers: [{name: manager, image: 'ghcr.io/example/widget-operator:1.2.0'}]}
---
apiVersion: widgets.example.com/v1
kind: Widget
metadata: {name: blue, namespace: shop, uid: uid-widget-blue, finalizers: [widgets.example.com/cleanup]}
spec: {}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: blue-state
  namespace: shop
  uid: uid-blue-state
  ownerReferences:
  - {apiVersion: widgets.example.com/v1, kind: Widget, name: blue, uid: uid-widget-blue, controller: true, blockOwnerDeletion: true}
`;

describe('clean input', () => {
  it('a realistic, consistent set of manifests yields no finding at all', () => {
    expect(codesOf(scenario(CLEAN).findings())).toEqual([]);
  });

  it('R44: namespaced dependents of a cluster-scoped owner are valid (no finding)', () => {
    const fs = scenario(`
apiVersion: example.com/v1
kind: Tenant
metadata: {name: acme, uid: uid-tenant}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: tenant-a
  namespace: a
  uid: uid-cm-a
  ownerReferences: [{apiVersion: example.com/v1, kind: Tenant, name: acme, uid: uid-tenant}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: tenant-b
  namespace: b
  uid: uid-cm-b
  ownerReferences: [{apiVersion: example.com/v1, kind: Tenant, name: acme, uid: uid-tenant}]
`).findings();
    expect(codesOf(fs)).toEqual([]);
  });

  it('R46: a reference through a served non-preferred version of the owner CRD resolves like a correct one (no finding)', () => {
    const fs = scenario(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com, uid: uid-crd-gizmos}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gizmo, listKind: GizmoList, plural: gizmos, singular: gizmo}
  versions:
  - {name: v2, served: true, storage: true}
  - {name: v1, served: true, storage: false}
---
apiVersion: example.com/v2
kind: Gizmo
metadata: {name: g, namespace: default, uid: uid-gizmo}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: g-state
  namespace: default
  uid: uid-g-state
  ownerReferences: [{apiVersion: example.com/v1, kind: Gizmo, name: g, uid: uid-gizmo}]
`).findings();
    expect(codesOf(fs)).toEqual([]);
  });

  it('R54: a custom kind without CRD is served at the apiVersion its objects use, references to it are fine', () => {
    const fs = scenario(`
apiVersion: example.com/v1
kind: Thing
metadata: {name: t, namespace: default, uid: uid-thing}
---
apiVersion: v1
kind: Secret
metadata:
  name: t-secret
  namespace: default
  uid: uid-t-secret
  ownerReferences: [{apiVersion: example.com/v1, kind: Thing, name: t, uid: uid-thing, controller: true, blockOwnerDeletion: true}]
`).findings();
    expect(codesOf(fs)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('dangling-owner (R34.4: owner absent -> the GC deletes the dependent)', () => {
  it('R34: owner uid absent and no object of that kind/name in the namespace -> error on the reference', () => {
    const fs = scenario(`
apiVersion: v1
kind: Pod
metadata:
  name: web-old-abcde
  namespace: shop
  uid: uid-pod
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-old, uid: uid-rs-gone, controller: true, blockOwnerDeletion: true}
spec: {nodeName: node-1, containers: [{name: c, image: 'c:1'}]}
`).findings();
    const f = findingOn(fs, 'dangling-owner', 'Pod', 'web-old-abcde');
    expect(f.severity).toBe('error');
    expect(f.object).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-old-abcde', uid: 'uid-pod' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'owner-uid-mismatch')).toBe(false);
  });

  it('R34: the location points at the dangling reference, here the second one', () => {
    const fs = scenario(`
apiVersion: v1
kind: Node
metadata: {name: node-1, uid: uid-node-1}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: two-owners
  namespace: default
  uid: uid-cm
  ownerReferences:
  - {apiVersion: v1, kind: Node, name: node-1, uid: uid-node-1}
  - {apiVersion: v1, kind: Secret, name: gone, uid: uid-secret-gone}
`).findings();
    const f = findingOn(fs, 'dangling-owner', 'ConfigMap', 'two-owners');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
    expect(fs.filter((x) => x.code === 'dangling-owner')).toHaveLength(1);
  });

  it('R42: a namesake owner in ANOTHER namespace does not count: still dangling, not a uid mismatch', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: b, uid: uid-web-b}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d4b9
  namespace: a
  uid: uid-rs-a
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web-a, controller: true, blockOwnerDeletion: true}
`).findings();
    const f = findingOn(fs, 'dangling-owner', 'ReplicaSet', 'web-7d4b9');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'owner-uid-mismatch')).toBe(false);
  });
});

describe('owner-uid-mismatch (R34.4: found by name with another uid -> dangling)', () => {
  it('R34: an owner of that kind/name exists in the namespace with another uid (manifests exported from another cluster)', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: uid-web-new}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d4b9
  namespace: shop
  uid: uid-rs
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web-old, controller: true, blockOwnerDeletion: true}
`).findings();
    const f = findingOn(fs, 'owner-uid-mismatch', 'ReplicaSet', 'web-7d4b9');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ kind: 'ReplicaSet', namespace: 'shop', uid: 'uid-rs' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R42: a cluster-scoped owner is looked up cluster-wide: a Node of that name with another uid is a mismatch', () => {
    const fs = scenario(`
apiVersion: v1
kind: Node
metadata: {name: node-1, uid: uid-node-1-rebuilt}
---
apiVersion: v1
kind: Pod
metadata:
  name: static-web-node-1
  namespace: kube-system
  uid: uid-mirror
  ownerReferences:
  - {apiVersion: v1, kind: Node, name: node-1, uid: uid-node-1-before, controller: true}
spec: {nodeName: node-1, containers: [{name: c, image: 'c:1'}]}
`).findings();
    const f = findingOn(fs, 'owner-uid-mismatch', 'Pod', 'static-web-node-1');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });
});

describe('owner-coordinates-mismatch (R46: the uid exists under other coordinates -> dangling)', () => {
  const DEPLOY = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: uid-web}
`;

  it('R46 wrong-kind-reference-to-existing-uid: the ref says v1 Secret for a uid that is a Deployment', () => {
    const fs = scenario(`${DEPLOY}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: shop
  uid: uid-cm
  ownerReferences:
  - {apiVersion: v1, kind: Secret, name: web, uid: uid-web}
`).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'ConfigMap', 'cm');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(f.object).toMatchObject({ uid: 'uid-cm', namespace: 'shop' });
  });

  it('R46 right-uid-wrong-name: the ref names the Deployment web-old with the uid of web', () => {
    const fs = scenario(`${DEPLOY}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d4b9
  namespace: shop
  uid: uid-rs
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: settings, uid: uid-settings-gone}
  - {apiVersion: apps/v1, kind: Deployment, name: web-old, uid: uid-web, controller: true, blockOwnerDeletion: true}
`).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'ReplicaSet', 'web-7d4b9');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });

  it('R46: a Deployment reference whose uid is a ReplicaSet (another kind in the same group)', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web-7d4b9, namespace: shop, uid: uid-rs}
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: shop
  uid: uid-p
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web-7d4b9, uid: uid-rs}
spec: {containers: [{name: c, image: 'c:1'}]}
`).findings();
    const f = findingOn(fs, 'owner-coordinates-mismatch', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
  });
});

describe('owner-namespace-mismatch (R43)', () => {
  it('R43 namespaced-child-owner-uid-in-other-namespace: the uid is a namespaced object in another namespace', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: b, uid: uid-web}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: a
  uid: uid-cm-a
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web}
`).findings();
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
    const fs = scenario(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: ops, uid: uid-op}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: operator-role
  uid: uid-cr
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: operator, uid: uid-op, controller: true, blockOwnerDeletion: true}
rules: []
`).findings();
    const f = findingOn(fs, 'cluster-scoped-dependent-of-namespaced-owner', 'ClusterRole', 'operator-role');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: '', uid: 'uid-cr' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
  });

  it('R45: with the namespaced owner absent it is still a scope error, never dangling (the GC never deletes it)', () => {
    const fs = scenario(`
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: binding
  uid: uid-crb
  ownerReferences:
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: parent, uid: uid-parent}
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: uid-cm-gone}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: parent, uid: uid-parent}
rules: []
`).findings();
    const f = findingOn(fs, 'cluster-scoped-dependent-of-namespaced-owner', 'ClusterRoleBinding', 'binding');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
    expect(hasCode(fs, 'dangling-owner', 'binding')).toBe(false);
  });
});

describe('unresolvable-owner-kind (R46, R54: the GC retries forever, never collects)', () => {
  const pod = (ref: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: uid-web}
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: shop
  uid: uid-p
  ownerReferences:
  - ${ref}
spec: {containers: [{name: c, image: 'c:1'}]}
`;

  it('R46 unresolvable-apiversion-kind-never-collected: extensions/v1beta1 Deployment (retired version)', () => {
    const fs = scenario(pod('{apiVersion: extensions/v1beta1, kind: Deployment, name: web, uid: uid-web}')).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'shop', uid: 'uid-p' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R46: v1 ReplicaSet (a kind in the wrong group)', () => {
    const fs = scenario(pod('{apiVersion: v1, kind: ReplicaSet, name: web-7d4b9, uid: uid-rs-gone}')).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R54: lower-case apps/v1 daemonset (kinds are case-sensitive)', () => {
    const fs = scenario(pod('{apiVersion: apps/v1, kind: daemonset, name: agent, uid: uid-ds-gone}')).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'Pod', 'p');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    expect(hasCode(fs, 'dangling-owner')).toBe(false);
  });

  it('R54: a custom kind referenced at a version no CRD and no object serves', () => {
    const fs = scenario(`
apiVersion: example.com/v1
kind: Thing
metadata: {name: t, namespace: default, uid: uid-thing}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: t-state
  namespace: default
  uid: uid-t-state
  ownerReferences:
  - {apiVersion: v1, kind: Secret, name: keep, uid: uid-keep-gone}
  - {apiVersion: example.com/v2, kind: Thing, name: t, uid: uid-thing}
`).findings();
    const f = findingOn(fs, 'unresolvable-owner-kind', 'ConfigMap', 't-state');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });
});

describe('multiple-controllers (R13)', () => {
  it('R13: two references with controller: true are rejected at admission; the second offender is flagged', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: a, namespace: default, uid: uid-rs-a}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: b, namespace: default, uid: uid-rs-b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: default, uid: uid-cfg}
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
  uid: uid-p
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: cfg, uid: uid-cfg, controller: false}
  - {apiVersion: apps/v1, kind: ReplicaSet, name: a, uid: uid-rs-a, controller: true}
  - {apiVersion: apps/v1, kind: ReplicaSet, name: b, uid: uid-rs-b, controller: true}
spec: {containers: [{name: c, image: 'c:1'}]}
`).findings();
    const f = findingOn(fs, 'multiple-controllers', 'Pod', 'p');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-p' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 2 });
    expect(fs.filter((x) => x.code === 'multiple-controllers')).toHaveLength(1);
  });

  it('R13: one controller among several owners is fine', () => {
    const fs = scenario(`
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: a, namespace: default, uid: uid-rs-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: default, uid: uid-cfg}
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
  uid: uid-p
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: cfg, uid: uid-cfg, controller: false}
  - {apiVersion: apps/v1, kind: ReplicaSet, name: a, uid: uid-rs-a, controller: true}
spec: {containers: [{name: c, image: 'c:1'}]}
`).findings();
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
    const fs = scenario(`
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: ev, namespace: default, uid: uid-event}
reason: Test
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
  namespace: default
  uid: uid-cm
  ownerReferences: [{apiVersion: events.k8s.io/v1, kind: Event, name: ev, uid: uid-event}]
`).findings();
    expect(hasCode(fs, 'invalid-owner-reference')).toBe(false);
  });
});

describe('invalid-finalizers (R15, R52)', () => {
  it('R52: orphan and foregroundDeletion together are rejected at admission', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata: {name: both, namespace: default, uid: uid-both, finalizers: [example.com/keep, orphan, foregroundDeletion]}
`).findings();
    const f = findingOn(fs, 'invalid-finalizers', 'ConfigMap', 'both');
    expect(f.severity).toBe('error');
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-both' });
    expect(f.location.kind).toBe('finalizer');
    // It points at one of the two GC finalizers, not at the foreign one.
    expect([1, 2]).toContain((f.location as { index: number }).index);
  });

  it('R15: one GC finalizer alone is fine', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata: {name: one, namespace: default, uid: uid-one, finalizers: [orphan]}
`).findings();
    expect(hasCode(fs, 'invalid-finalizers')).toBe(false);
  });

  it('R15: a finalizer name that is not a qualified name is rejected at admission', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata: {name: badname, namespace: default, uid: uid-badname, finalizers: [example.com/ok, 'not a valid name!']}
`).findings();
    const f = findingOn(fs, 'invalid-finalizers', 'ConfigMap', 'badname');
    expect(f.severity).toBe('error');
    expect(f.location).toMatchObject({ kind: 'finalizer', index: 1 });
  });
});

describe('ownership-cycle (R41: stable, nothing is ever collected)', () => {
  it('R41 two-object-cycle-no-deletion: A owns B and B owns A', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: default
  uid: uid-a
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: b, uid: uid-b}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: default
  uid: uid-b
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: a, uid: uid-a}]
`).findings();
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
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: me
  namespace: default
  uid: uid-me
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: me, uid: uid-me}]
`).findings();
    const f = findingOn(fs, 'ownership-cycle', 'ConfigMap', 'me');
    expect(f.severity).toBe('warning');
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 0 });
    // Not blocking: a Foreground delete of it does not deadlock.
    expect(hasCode(fs, 'foreground-deadlock')).toBe(false);
  });
});

describe('foreground-deadlock (R50)', () => {
  it('R50.4 self-reference-blocking-foreground-deadlock: a self reference with blockOwnerDeletion: true', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: me
  namespace: default
  uid: uid-me
  ownerReferences:
  - {apiVersion: v1, kind: Secret, name: other, uid: uid-other}
  - {apiVersion: v1, kind: ConfigMap, name: me, uid: uid-me, blockOwnerDeletion: true}
---
apiVersion: v1
kind: Secret
metadata: {name: other, namespace: default, uid: uid-other}
`).findings();
    const f = findingOn(fs, 'foreground-deadlock', 'ConfigMap', 'me');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ uid: 'uid-me' });
    expect(f.location).toMatchObject({ kind: 'ownerReference', index: 1 });
  });

  const BLOCKER = (block: boolean) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: uid-web}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-old
  namespace: shop
  uid: uid-rs-old
  deletionTimestamp: '2024-05-01T10:00:00Z'
  finalizers: [example.com/hold]
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: uid-web, controller: true, blockOwnerDeletion: ${block}}
`;

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
  const STRIMZI = (operatorNamespace: string) => `
apiVersion: v1
kind: Namespace
metadata: {name: kafka, uid: uid-ns-kafka}
spec: {finalizers: [kubernetes]}
status: {phase: Active}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: kafkas.kafka.strimzi.io, uid: uid-crd-kafka}
spec:
  group: kafka.strimzi.io
  scope: Namespaced
  names: {kind: Kafka, listKind: KafkaList, plural: kafkas, singular: kafka}
  versions:
  - {name: v1beta2, served: true, storage: true}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: strimzi-cluster-operator, namespace: ${operatorNamespace}, uid: uid-op}
spec:
  selector: {matchLabels: {name: strimzi-cluster-operator}}
  template:
    metadata: {labels: {name: strimzi-cluster-operator}}
    spec:
      containers:
      - {name: strimzi-cluster-operator, image: 'quay.io/strimzi/operator:0.45.0'}
---
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata: {name: my-cluster, namespace: kafka, uid: uid-kafka, finalizers: [kafka.strimzi.io/finalizer]}
spec: {}
`;

  it('deleting the namespace would delete the operator with its CRs: the CR finalizer is flagged', () => {
    const fs = scenario(STRIMZI('kafka')).findings();
    const f = findingOn(fs, 'finalizer-deadlock', 'Kafka', 'my-cluster');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toEqual({ apiVersion: 'kafka.strimzi.io/v1beta2', kind: 'Kafka', namespace: 'kafka', name: 'my-cluster', uid: 'uid-kafka' });
    expect(f.location).toMatchObject({ kind: 'finalizer', index: 0 });
    // Nothing is terminating yet: nothing is stuck now.
    expect(hasCode(fs, 'stuck-terminating')).toBe(false);
  });

  it('the operator in its own namespace: no deadlock', () => {
    const fs = scenario(STRIMZI('strimzi-system')).findings();
    expect(hasCode(fs, 'finalizer-deadlock')).toBe(false);
  });
});

describe('stuck-terminating (already terminating in the input, cannot finish)', () => {
  it('R10: a terminating object whose custom finalizer no controller in the input owns', () => {
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  namespace: default
  uid: uid-held
  deletionTimestamp: '2024-05-01T10:00:00Z'
  finalizers: [example.com/hold]
`).findings();
    const f = findingOn(fs, 'stuck-terminating', 'ConfigMap', 'held');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: 'default', uid: 'uid-held' });
    expect(['finalizer', 'deletionTimestamp']).toContain(f.location.kind);
    if (f.location.kind === 'finalizer') expect(f.location.index).toBe(0);
  });

  it('R11: a Terminating Namespace whose content cannot go', () => {
    const fs = scenario(`
apiVersion: v1
kind: Namespace
metadata: {name: shop, uid: uid-ns-shop, deletionTimestamp: '2024-05-01T10:00:00Z'}
spec: {finalizers: [kubernetes]}
status: {phase: Terminating}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: held, namespace: shop, uid: uid-held, finalizers: [example.com/hold]}
`).findings();
    const f = findingOn(fs, 'stuck-terminating', 'Namespace', 'shop');
    expect(NOT_INFO).toContain(f.severity);
    expect(f.object).toMatchObject({ namespace: '', uid: 'uid-ns-shop' });
    expect(['finalizer', 'deletionTimestamp', 'object']).toContain(f.location.kind);
    // The content itself is not terminating yet: only the Namespace is reported stuck.
    expect(hasCode(fs, 'stuck-terminating', 'held')).toBe(false);
  });

  it('R11 contrast: a Terminating Namespace whose content can go is not stuck', () => {
    const fs = scenario(`
apiVersion: v1
kind: Namespace
metadata: {name: shop, uid: uid-ns-shop, deletionTimestamp: '2024-05-01T10:00:00Z'}
spec: {finalizers: [kubernetes]}
status: {phase: Terminating}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: plain, namespace: shop, uid: uid-plain}
`).findings();
    expect(hasCode(fs, 'stuck-terminating')).toBe(false);
  });

  it('contrast: a terminating object whose finalizer controller runs elsewhere is not stuck', () => {
    const fs = scenario(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: kafkas.kafka.strimzi.io, uid: uid-crd-kafka}
spec:
  group: kafka.strimzi.io
  scope: Namespaced
  names: {kind: Kafka, listKind: KafkaList, plural: kafkas, singular: kafka}
  versions:
  - {name: v1beta2, served: true, storage: true}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: strimzi-cluster-operator, namespace: strimzi-system, uid: uid-op}
spec:
  selector: {matchLabels: {name: strimzi-cluster-operator}}
  template:
    metadata: {labels: {name: strimzi-cluster-operator}}
    spec:
      containers:
      - {name: strimzi-cluster-operator, image: 'quay.io/strimzi/operator:0.45.0'}
---
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: my-cluster
  namespace: kafka
  uid: uid-kafka
  deletionTimestamp: '2024-05-01T10:00:00Z'
  finalizers: [kafka.strimzi.io/finalizer]
spec: {}
`).findings();
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
    const fs = scenario(`
apiVersion: v1
kind: ConfigMap
metadata: {name: one, namespace: default, uid: uid-same}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: two, namespace: default, uid: uid-same}
`).findings();
    const f = fs.find((x) => x.code === 'conflicting-copies');
    expect(f, codesOf(fs).join('; ')).toBeDefined();
    expect(f!.object.uid).toBe('uid-same');
  });

  it('two identical copies of one object are not a conflict', () => {
    const fs = scenario(`${COPY('[]', 'gold')}\n---\n${COPY('[]', 'gold')}`).findings();
    expect(hasCode(fs, 'conflicting-copies')).toBe(false);
  });
});

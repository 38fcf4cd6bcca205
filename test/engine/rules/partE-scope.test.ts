// Part E of docs/gc-semantics.md (R42–R46): where the GC looks an owner up, and what happens when an
// ownerReference's scope or coordinates are wrong. Strict simulation (R53). Expectations come from the
// rule text and Kubernetes' garbagecollector.go (isDangling, classifyReferences, attemptToDeleteWorker)
// and graph_builder.go, never from the engine's output.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { type OwnerReference, type ObjectSpec, manifests, ref, ctl, cm, deploy, rs, clusterRole, pv, crd } from '../../helpers/manifests';
import { remainingOf, stuckOf, removedAt, sorted, blockTypes, waitedOn, expectKept } from '../../helpers/results';

/** The codes of what the analysis reports on one object. */
const findingCodesOn = (s: ReturnType<typeof scenario>, kind: string, name: string) =>
  s
    .findings()
    .filter((f) => f.object.kind === kind && f.object.name === name)
    .map((f) => f.code);

// ---------------------------------------------------------------------------------------------------

describe('R42: where an owner is looked up', () => {
  it("R42: a namespaced owner kind is looked up in the dependent's namespace: a namesake there with another uid makes the reference dangling", () => {
    const web1 = deploy('web', 'ns1', { uid: 'uid-web-ns1' });
    const web2 = deploy('web', 'ns2', { uid: 'uid-web-ns2' });
    const good = cm('good', 'ns1', { owners: [ref(web1)] });
    // Names the ns1 Deployment's uid, but lives in ns2: GET web in ns2 finds uid-web-ns2.
    const bad = cm('bad', 'ns2', { owners: [ref(web1)] });
    const s = scenario(manifests(web1, web2, good, bad));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/bad']);
    expectKept(r, 'ConfigMap', 'good', ['uid-web-ns1']);
    expectKept(r, 'Deployment', 'web', []);
    expect(
      r.remaining
        .filter((x) => x.kind === 'Deployment')
        .map((x) => x.namespace)
        .sort(),
    ).toEqual(['ns1', 'ns2']);
  });

  it("R42: a cluster-scoped owner kind is looked up cluster-wide, whatever the dependent's namespace", () => {
    const owner = clusterRole('reader');
    const a = cm('a', 'ns1', { owners: [ctl(owner)] });
    const b = cm('b', 'kube-system', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, a, b));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ConfigMap', 'a', ['uid-reader']);
    expectKept(r, 'ConfigMap', 'b', ['uid-reader']);
    expect(r.steps).toEqual([]);
  });
});

describe('R43: namespaced dependent, namespaced owner in another namespace', () => {
  it("R43 namespaced-child-owner-uid-in-other-namespace: the owner is absent from the child's namespace, so the child is collected", () => {
    const web = deploy('web', 'ns2');
    const child = cm('child', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(web, child));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/child']);
    expect(r.remaining).toMatchObject([{ kind: 'Deployment', name: 'web', namespace: 'ns2', beingDeleted: false }]);
    expect(r.steps.filter((x) => x.action === 'delete')).toMatchObject([
      { actor: 'garbage-collector', target: { kind: 'ConfigMap', name: 'child', namespace: 'ns1' } },
    ]);
  });

  it('R43 cross-namespace-reference-does-not-hurt-valid-children: the bad child goes, the real owner and its valid children stay', () => {
    const web = deploy('web', 'ns2');
    const webRs = rs('web-rs', 'ns2', { owners: [ctl(web)] });
    const sidecar = cm('web-extra', 'ns2', { owners: [ref(web)] });
    const bad = cm('bad', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(bad, web, webRs, sidecar));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/bad']);
    expectKept(r, 'Deployment', 'web', []);
    expectKept(r, 'ReplicaSet', 'web-rs', ['uid-web']);
    expectKept(r, 'ConfigMap', 'web-extra', ['uid-web']);
    // The absent-owner cache is keyed by namespace (R37): the owner is still a live owner for ns2.
    const later = s.simulate([del('apps/v1', 'Deployment', 'ns2', 'web', 'Foreground')]);
    expect(removedAt(later, 'ReplicaSet', 'web-rs')).toBeLessThan(removedAt(later, 'Deployment', 'web'));
    expect(sorted(names(later.deleted))).toEqual(['ConfigMap/bad', 'ConfigMap/web-extra', 'Deployment/web', 'ReplicaSet/web-rs']);
  });

  it('R43: a child whose only other owner is solid keeps that owner; only the cross-namespace reference is removed', () => {
    const far = deploy('far', 'ns2');
    const near = deploy('near', 'ns1');
    const child = cm('child', 'ns1', { owners: [ref(far), ref(near)] });
    const s = scenario(manifests(far, near, child));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ConfigMap', 'child', ['uid-near']);
  });

  it('R43: the analysis flags the cross-namespace reference', () => {
    const web = deploy('web', 'ns2');
    const child = cm('child', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(web, child));
    expect(findingCodesOn(s, 'ConfigMap', 'child')).toContain('owner-namespace-mismatch');
  });
});

describe('R44: namespaced dependent, cluster-scoped owner', () => {
  it('R44 namespaced-children-of-cluster-scoped-owners: children of present cluster-scoped owners are kept in any namespace; a child of a missing one is collected', () => {
    const reader = clusterRole('reader');
    const vol = pv('pv-data');
    const s = scenario(
      manifests(
        reader,
        vol,
        cm('ns1-reader-cfg', 'ns1', { owners: [ctl(reader)] }),
        cm('ns2-reader-cfg', 'ns2', { owners: [ref(reader)] }),
        cm('ns2-pv-cfg', 'ns2', { owners: [ctl(vol)] }),
        cm('ns1-ghost-cfg', 'ns1', {
          owners: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'ghost', uid: 'uid-ghost' }],
        }),
      ),
    );
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/ns1-ghost-cfg']);
    expectKept(r, 'ConfigMap', 'ns1-reader-cfg', ['uid-reader']);
    expectKept(r, 'ConfigMap', 'ns2-reader-cfg', ['uid-reader']);
    expectKept(r, 'ConfigMap', 'ns2-pv-cfg', ['uid-pv-data']);
  });

  it('R44: children in two namespaces of the same missing cluster-scoped owner are both collected', () => {
    const ghost: OwnerReference = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'ghost',
      uid: 'uid-ghost',
      controller: true,
      blockOwnerDeletion: true,
    };
    const s = scenario(manifests(cm('a', 'ns1', { owners: [ghost] }), cm('b', 'ns2', { owners: [ghost] })));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/a', 'ConfigMap/b']);
    expect(r.remaining).toEqual([]);
  });

  it('R44 cluster-scoped-owner-background-cascade: a Background delete of a cluster-scoped owner collects its children in every namespace', () => {
    const reader = clusterRole('reader');
    const s = scenario(
      manifests(reader, cm('a', 'ns1', { owners: [ctl(reader)] }), cm('b', 'ns2', { owners: [ref(reader)] }), cm('unrelated', 'ns1')),
    );
    const r = s.simulate([del('rbac.authorization.k8s.io/v1', 'ClusterRole', '', 'reader', 'Background')]);
    expect(names(r.deleted)[0]).toBe('ClusterRole/reader');
    expect(sorted(names(r.deleted))).toEqual(['ClusterRole/reader', 'ConfigMap/a', 'ConfigMap/b']);
    expect(r.orphaned).toEqual([]);
    expectKept(r, 'ConfigMap', 'unrelated', []);
  });

  it('R44 custom-cluster-scoped-owner-of-children-in-two-namespaces: a Foreground delete of a cluster-scoped custom owner waits for its children in both namespaces', () => {
    const tenant: ObjectSpec = { apiVersion: 'tenancy.example.com/v1', kind: 'Tenant', name: 'acme', uid: 'uid-acme' };
    const s = scenario(
      manifests(
        crd('tenancy.example.com', 'Tenant', 'tenants', 'Cluster', [{ name: 'v1', served: true, storage: true }]),
        tenant,
        cm('acme-quota', 'team-a', { owners: [ctl(tenant)] }),
        cm('acme-quota', 'team-b', { uid: 'uid-acme-quota-b', owners: [ctl(tenant)] }),
      ),
    );
    const r = s.simulate([del('tenancy.example.com/v1', 'Tenant', '', 'acme', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/acme-quota', 'ConfigMap/acme-quota', 'Tenant/acme']);
    expect(sorted(r.deleted.filter((d) => d.kind === 'ConfigMap').map((d) => d.namespace))).toEqual(['team-a', 'team-b']);
    expect(names(r.remaining)).toEqual(['CustomResourceDefinition/tenants.tenancy.example.com']);
  });

  it('R44: a custom cluster-scoped owner that is missing makes its namespaced children dangling', () => {
    const s = scenario(
      manifests(
        crd('tenancy.example.com', 'Tenant', 'tenants', 'Cluster', [{ name: 'v1', served: true, storage: true }]),
        cm('x', 'team-a', { owners: [{ apiVersion: 'tenancy.example.com/v1', kind: 'Tenant', name: 'gone', uid: 'uid-gone' }] }),
      ),
    );
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/x']);
  });
});

describe('R45: cluster-scoped dependent, namespaced owner kind', () => {
  it('R45 cluster-scoped-child-of-existing-namespaced-owner: never collected, not at start and not after the owner is deleted', () => {
    const web = deploy('web', 'ns1');
    const child = clusterRole('web-reader', { owners: [ctl(web)] });
    const s = scenario(manifests(web, child));
    const start = s.simulate([]);
    expect(start.deleted).toEqual([]);
    expectKept(start, 'ClusterRole', 'web-reader', ['uid-web']);
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expectKept(r, 'ClusterRole', 'web-reader', ['uid-web']);
    expect(r.steps.filter((x) => x.target.kind === 'ClusterRole')).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });

  it('R45 cluster-scoped-bad-child-and-namespaced-good-child-missing-parent: the namespaced child is collected, the cluster-scoped one is not', () => {
    const parent: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'uid-parent' };
    const badChild = clusterRole('bad-child', { owners: [parent] });
    const goodChild = cm('good-child', 'ns1', { owners: [parent] });
    const s = scenario(manifests(badChild, goodChild));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/good-child']);
    expectKept(r, 'ClusterRole', 'bad-child', ['uid-parent']);
    expect(r.aborted).toBeUndefined();
  });

  it('R45 cluster-scoped-bad-child-and-namespaced-good-child-missing-parent (good child first in the input)', () => {
    const parent: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'uid-parent' };
    const s = scenario(manifests(cm('good-child', 'ns1', { owners: [parent] }), clusterRole('bad-child', { owners: [parent] })));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/good-child']);
    expectKept(r, 'ClusterRole', 'bad-child', ['uid-parent']);
  });

  it('R45 cluster-scoped-bad-child-and-namespaced-good-child-present-parent: both kept while the parent lives; after it is deleted only the good child is collected', () => {
    const parent = cm('parent', 'ns1');
    const badChild = clusterRole('bad-child', { owners: [ref(parent)] });
    const goodChild = cm('good-child', 'ns1', { owners: [ref(parent)] });
    const s = scenario(manifests(badChild, goodChild, parent));
    const start = s.simulate([]);
    expect(start.deleted).toEqual([]);
    expectKept(start, 'ClusterRole', 'bad-child', ['uid-parent']);
    expectKept(start, 'ConfigMap', 'good-child', ['uid-parent']);
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'parent', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/parent', 'ConfigMap/good-child']);
    expectKept(r, 'ClusterRole', 'bad-child', ['uid-parent']);
  });

  it('R45 cluster-scoped-custom-child-survives-namespaced-owner-deletion: a cluster-scoped custom resource owned by a namespaced Deployment outlives it', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const child: ObjectSpec = {
      apiVersion: 'policy.example.com/v1',
      kind: 'ClusterPolicy',
      name: 'web-policy',
      uid: 'uid-web-policy',
      owners: [ref(web)],
    };
    const s = scenario(
      manifests(
        crd('policy.example.com', 'ClusterPolicy', 'clusterpolicies', 'Cluster', [{ name: 'v1', served: true, storage: true }]),
        web,
        webRs,
        child,
      ),
    );
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs']);
    expectKept(r, 'ClusterPolicy', 'web-policy', ['uid-web']);
  });

  it('R45: a blocking cluster-scoped child of a namespaced owner is never deleted, so a Foreground delete of the owner waits forever', () => {
    const web = deploy('web', 'ns1');
    const child = clusterRole('web-reader', { owners: [ctl(web)] });
    const s = scenario(manifests(web, child));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expectKept(r, 'ClusterRole', 'web-reader', ['uid-web']);
    const st = stuckOf(r, 'Deployment', 'web');
    expect(blockTypes(st)).toContain('waiting-for-dependents');
    expect(waitedOn(st)).toEqual(['ClusterRole/web-reader']);
    expect(r.aborted).toBeUndefined();
  });

  it('R45: a cluster-scoped child of a namespaced custom kind is never collected, even when that owner is missing', () => {
    const s = scenario(
      manifests(
        crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }]),
        clusterRole('widget-reader', { owners: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'gone', uid: 'uid-gone' }] }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ClusterRole', 'widget-reader', ['uid-gone']);
  });

  it('R45: the analysis flags a cluster-scoped dependent of a namespaced owner kind', () => {
    const web = deploy('web', 'ns1');
    const s = scenario(manifests(web, clusterRole('web-reader', { owners: [ctl(web)] })));
    expect(findingCodesOn(s, 'ClusterRole', 'web-reader')).toContain('cluster-scoped-dependent-of-namespaced-owner');
  });
});

describe('R46: coordinate mismatches on an existing uid', () => {
  it('R46 wrong-kind-reference-to-existing-uid: a served but wrong kind (v1 Secret for a Deployment uid) is dangling; the correct sibling is untouched', () => {
    const web = deploy('web', 'ns1');
    const wrong = cm('wrong', 'ns1', { owners: [ref(web, { apiVersion: 'v1', kind: 'Secret' })] });
    const right = cm('right', 'ns1', { owners: [ref(web)] });
    const s = scenario(manifests(wrong, web, right));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/wrong']);
    expectKept(r, 'ConfigMap', 'right', ['uid-web']);
    expectKept(r, 'Deployment', 'web', []);
  });

  it('R46 wrong-kind-reference-to-existing-uid (apps/v1 Deployment naming a ReplicaSet uid): dangling, collected; the ReplicaSet and its Pods stay', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-7d9c', 'ns1', { owners: [ctl(web)] });
    const wrong = cm('wrong', 'ns1', { owners: [ref(webRs, { apiVersion: 'apps/v1', kind: 'Deployment' })] });
    const s = scenario(manifests(web, webRs, wrong));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/wrong']);
    expectKept(r, 'ReplicaSet', 'web-7d9c', ['uid-web']);
  });

  it('R46 resolvable-wrong-kind-same-name-and-uid: right name and uid under a resolvable but wrong kind is dangling', () => {
    const web = deploy('web', 'ns1');
    // There is also a ReplicaSet called "web", with its own uid: the GET by the reference's kind finds another uid.
    const webRs = rs('web', 'ns1', { uid: 'uid-web-rs', owners: [ctl(web)] });
    const wrong = cm('wrong', 'ns1', { owners: [ref(web, { kind: 'ReplicaSet' })] });
    const wrongNoNamesake = cm('wrong-2', 'ns1', { owners: [ref(web, { kind: 'StatefulSet' })] });
    const s = scenario(manifests(web, webRs, wrong, wrongNoNamesake));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/wrong', 'ConfigMap/wrong-2']);
    expectKept(r, 'ReplicaSet', 'web', ['uid-web']);
    expectKept(r, 'Deployment', 'web', []);
  });

  it('R46 right-uid-wrong-name: the right uid under a wrong name is dangling; a correct sibling is untouched', () => {
    const web = deploy('web', 'ns1');
    const wrong = cm('wrong', 'ns1', { owners: [ref(web, { name: 'web-old' })] });
    const right = cm('right', 'ns1', { owners: [ref(web)] });
    const s = scenario(manifests(web, wrong, right));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/wrong']);
    expectKept(r, 'ConfigMap', 'right', ['uid-web']);
  });

  it('R46 right-uid-wrong-name: the wrong name points at another live object of that kind: still dangling (uid differs)', () => {
    const web = deploy('web', 'ns1');
    const api = deploy('api', 'ns1');
    const wrong = cm('wrong', 'ns1', { owners: [ref(web, { name: 'api' })] });
    const s = scenario(manifests(web, api, wrong));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/wrong']);
  });

  it('R46 unresolvable-apiversion-kind-never-collected: unmappable references (retired version, unknown group, kind in the wrong group) are never collected, even when the owner is missing', () => {
    const s = scenario(
      manifests(
        cm('retired', 'ns1', { owners: [{ apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'gone', uid: 'uid-gone-1' }] }),
        cm('unknown-group', 'ns1', { owners: [{ apiVersion: 'nowhere.example.org/v1', kind: 'Thing', name: 'gone', uid: 'uid-gone-2' }] }),
        cm('wrong-group', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'ReplicaSet', name: 'gone', uid: 'uid-gone-3' }] }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ConfigMap', 'retired', ['uid-gone-1']);
    expectKept(r, 'ConfigMap', 'unknown-group', ['uid-gone-2']);
    expectKept(r, 'ConfigMap', 'wrong-group', ['uid-gone-3']);
    expect(r.steps).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });

  it('R46 unresolvable-reference-blocks-classification-of-the-rest: one unmappable reference stops the GC from deciding anything about the item', () => {
    const live = cm('live', 'ns1');
    const unmappable: OwnerReference = { apiVersion: 'nowhere.example.org/v1', kind: 'Thing', name: 't', uid: 'uid-thing' };
    const dangling: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone' };
    const s = scenario(
      manifests(
        live,
        // Only dangling + unmappable: would be garbage, but the error aborts classification.
        cm('a', 'ns1', { owners: [unmappable, dangling] }),
        // Dangling first, then unmappable: same.
        cm('b', 'ns1', { owners: [dangling, unmappable] }),
        // Solid + dangling + unmappable: the dangling reference would be patched away (R35 i), but is not.
        cm('c', 'ns1', { owners: [ref(live), dangling, unmappable] }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(r.orphaned).toEqual([]);
    expectKept(r, 'ConfigMap', 'a', ['uid-thing', 'uid-gone']);
    expectKept(r, 'ConfigMap', 'b', ['uid-gone', 'uid-thing']);
    expectKept(r, 'ConfigMap', 'c', ['uid-live', 'uid-gone', 'uid-thing']);
    expect(r.steps.filter((x) => x.action === 'patch-owner-references')).toEqual([]);
  });

  it('R46 reference-through-unserved-apiversion-survives-owner-deletion: a reference via extensions/v1beta1 to a live apps/v1 Deployment is never resolved, so the child outlives the Deployment', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const legacy = cm('legacy', 'ns1', { owners: [ref(web, { apiVersion: 'extensions/v1beta1' })] });
    const s = scenario(manifests(web, webRs, legacy));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs']);
    expectKept(r, 'ConfigMap', 'legacy', ['uid-web']);
    expect(r.aborted).toBeUndefined();
  });

  it('R46 unknown-owner-type: a reference to a kind nobody serves (no CRD, no objects of it) is never collected', () => {
    const s = scenario(
      manifests(
        cm('cfg', 'ns1', {
          owners: [
            {
              apiVersion: 'widgets.acme.io/v1alpha1',
              kind: 'Gizmo',
              name: 'g1',
              uid: 'uid-g1',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ConfigMap', 'cfg', ['uid-g1']);
    expect(r.stuck).toEqual([]);
  });

  it('R46: a blocking dependent whose reference is unmappable is never deleted, so a Foreground delete of the real owner waits on it forever', () => {
    const web = deploy('web', 'ns1');
    const legacy = cm('legacy', 'ns1', {
      owners: [ref(web, { apiVersion: 'extensions/v1beta1', controller: true, blockOwnerDeletion: true })],
    });
    const s = scenario(manifests(web, legacy));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expectKept(r, 'ConfigMap', 'legacy', ['uid-web']);
    expect(blockTypes(stuckOf(r, 'Deployment', 'web'))).toContain('waiting-for-dependents');
  });

  it('R46: a served, non-preferred version of a custom resource resolves like a correct reference', () => {
    const widget: ObjectSpec = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'ns1', uid: 'uid-w' };
    const s = scenario(
      manifests(
        crd('example.com', 'Widget', 'widgets', 'Namespaced', [
          { name: 'v1', served: true, storage: true },
          { name: 'v1beta1', served: true, storage: false },
        ]),
        widget,
        cm('via-beta', 'ns1', { owners: [ref(widget, { apiVersion: 'example.com/v1beta1' })] }),
      ),
    );
    const start = s.simulate([]);
    expect(start.deleted).toEqual([]);
    expectKept(start, 'ConfigMap', 'via-beta', ['uid-w']);
    const r = s.simulate([del('example.com/v1', 'Widget', 'ns1', 'w', 'Background')]);
    expect(names(r.deleted)).toEqual(['Widget/w', 'ConfigMap/via-beta']);
  });

  it('R46: the analysis flags unmappable and mismatched coordinates', () => {
    const web = deploy('web', 'ns1');
    const s = scenario(
      manifests(
        web,
        cm('unmappable', 'ns1', { owners: [ref(web, { apiVersion: 'extensions/v1beta1' })] }),
        cm('wrong-kind', 'ns1', { owners: [ref(web, { apiVersion: 'v1', kind: 'Secret' })] }),
      ),
    );
    expect(findingCodesOn(s, 'ConfigMap', 'unmappable')).toContain('unresolvable-owner-kind');
    expect(findingCodesOn(s, 'ConfigMap', 'wrong-kind')).toContain('owner-coordinates-mismatch');
  });
});

// Part G of docs/gc-semantics.md (R53–R54): the strict simulation contract. Only the apiserver and the
// garbage collector act; the GC first runs on the state as given, then each request is applied in order
// and settles; built-ins are served at GA versions only, custom kinds at the versions their CRD (or,
// without a CRD, their objects) use. Expectations come from the rule text, never from the engine's output.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { type OwnerReference, DELETING, manifests, ref, ctl, cm, deploy, rs, namespace, pod, crd } from '../../helpers/manifests';
import { remainingOf, stuckOf, removedAt, sorted, blockTypes, expectKept, expectRejected } from '../../helpers/results';

// ---------------------------------------------------------------------------------------------------

describe('R53: quiescence semantics of the strict simulation', () => {
  it('R53: with no request the GC runs on the state as given: a dependent whose owner uid is absent is deleted', () => {
    const s = scenario(
      manifests(
        cm('orphan-cfg', 'ns1', {
          owners: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone', uid: 'uid-gone', controller: true, blockOwnerDeletion: true },
          ],
        }),
        cm('plain-cfg', 'ns1'),
      ),
    );
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/orphan-cfg']);
    expect(r.steps.filter((x) => x.action === 'delete')).toMatchObject([
      { actor: 'garbage-collector', target: { kind: 'ConfigMap', name: 'orphan-cfg' } },
    ]);
    expectKept(r, 'ConfigMap', 'plain-cfg', []);
  });

  it('R53: with no request the GC collects a whole dangling chain (owner missing → ReplicaSet → Pods), top down', () => {
    const ghost: OwnerReference = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      uid: 'uid-web',
      controller: true,
      blockOwnerDeletion: true,
    };
    const webRs = rs('web-rs', 'ns1', { owners: [ghost] });
    const s = scenario(
      manifests(webRs, pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] }), pod('web-rs-b', 'ns1', { owners: [ctl(webRs)] })),
    );
    const r = s.simulate([]);
    expect(names(r.deleted)[0]).toBe('ReplicaSet/web-rs');
    expect(sorted(names(r.deleted))).toEqual(['Pod/web-rs-a', 'Pod/web-rs-b', 'ReplicaSet/web-rs']);
    expect(r.remaining).toEqual([]);
  });

  it('R53: with no request a healthy state is left exactly as given', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)], nodeName: 'node-1', phase: 'Running' });
    const s = scenario(manifests(web, webRs, p, cm('settings', 'ns1', { finalizers: ['example.com/keep'] })));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(r.orphaned).toEqual([]);
    expect(r.stuck).toEqual([]);
    expect(r.steps).toEqual([]);
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/settings', 'Deployment/web', 'Pod/web-rs-a', 'ReplicaSet/web-rs']);
    expect(remainingOf(r, 'ConfigMap', 'settings')).toMatchObject({ beingDeleted: false, finalizers: ['example.com/keep'] });
    expectKept(r, 'ReplicaSet', 'web-rs', ['uid-web']);
    expectKept(r, 'Pod', 'web-rs-a', ['uid-web-rs']);
  });

  it('R53/R25: an object Terminating in the input with foregroundDeletion is processed at start: dependents first, then the owner', () => {
    const web = deploy('web', 'ns1', { finalizers: ['foregroundDeletion'], ...DELETING, deletionGracePeriodSeconds: 0 });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['Pod/web-rs-a', 'ReplicaSet/web-rs', 'Deployment/web']);
    expect(r.remaining).toEqual([]);
  });

  it('R53/R25: an object Terminating in the input with orphan is processed at start: dependents orphaned, owner removed', () => {
    const web = deploy('web', 'ns1', { finalizers: ['orphan'], ...DELETING, deletionGracePeriodSeconds: 0 });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expectKept(r, 'ReplicaSet', 'web-rs', []);
    expectKept(r, 'Pod', 'web-rs-a', ['uid-web-rs']);
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
  });

  it('R53/R25: a Terminating owner whose foregroundDeletion waits on a stuck blocking dependent stays, and so does the dependent', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['foregroundDeletion'], ...DELETING, deletionGracePeriodSeconds: 0 });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/hold'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    // The GC deleted the dependent (it has a waiting owner), which now hangs on its foreign finalizer.
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(blockTypes(stuckOf(r, 'ConfigMap', 'owner'))).toContain('waiting-for-dependents');
    expect(blockTypes(stuckOf(r, 'ConfigMap', 'dep'))).toEqual(['finalizer']);
  });

  it('R53/R25: a Terminating object with foregroundDeletion and a foreign finalizer, without dependents, loses only foregroundDeletion', () => {
    const s = scenario(
      manifests(
        cm('lonely', 'ns1', { finalizers: ['example.com/hold', 'foregroundDeletion'], ...DELETING, deletionGracePeriodSeconds: 0 }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'lonely')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(r.steps).toMatchObject([
      { actor: 'garbage-collector', action: 'remove-finalizer', target: { kind: 'ConfigMap', name: 'lonely' } },
    ]);
  });

  it('R53.1: a Pod without spec.terminationGracePeriodSeconds uses 30, so a scheduled one is not removed at once', () => {
    const s = scenario(
      manifests(
        pod('defaulted', 'ns1', { nodeName: 'node-1', phase: 'Running' }),
        pod('zero', 'ns1', { nodeName: 'node-1', phase: 'Running', grace: 0 }),
      ),
    );
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'defaulted', 'Background'), del('v1', 'Pod', 'ns1', 'zero', 'Background')]);
    expect(names(r.deleted)).toEqual(['Pod/zero']);
    expect(remainingOf(r, 'Pod', 'defaulted')).toMatchObject({ beingDeleted: true });
    expect(blockTypes(stuckOf(r, 'Pod', 'defaulted'))).toEqual(['graceful-termination']);
  });

  it('R53.3: references that only retry on REST-mapping errors do not keep the run going (quiescence, no abort)', () => {
    const s = scenario(
      manifests(
        cm('a', 'ns1', { owners: [{ apiVersion: 'extensions/v1beta1', kind: 'Deployment', name: 'old', uid: 'uid-old' }] }),
        cm('b', 'ns1', {
          owners: [{ apiVersion: 'nowhere.example.org/v1', kind: 'Thing', name: 't', uid: 'uid-t', blockOwnerDeletion: true }],
        }),
      ),
    );
    const r = s.simulate([]);
    expect(r.aborted).toBeUndefined();
    expect(r.deleted).toEqual([]);
    expectKept(r, 'ConfigMap', 'a', ['uid-old']);
    expectKept(r, 'ConfigMap', 'b', ['uid-t']);
  });

  it('R53.4: requests are applied in order, each after the previous one settled (the second finds its target already collected: 404)', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([
      del('apps/v1', 'Deployment', 'ns1', 'web', 'Background'),
      del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Orphan'),
    ]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs', 'Pod/web-rs-a']);
    expectRejected(r, 404);
    expect(r.steps[r.steps.length - 1]).toMatchObject({ action: 'reject', target: { kind: 'ReplicaSet', name: 'web-rs' } });
    expect(r.orphaned).toEqual([]);
  });

  it('R53.4: an Orphan delete settles before the next request: the orphaned ReplicaSet is then deleted on its own, with its Pods', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] });
    const other = rs('other-rs', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(web, webRs, p, other));
    const r = s.simulate([
      del('apps/v1', 'Deployment', 'ns1', 'web', 'Orphan'),
      del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Background'),
    ]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs', 'Pod/web-rs-a']);
    expectKept(r, 'ReplicaSet', 'other-rs', []);
    expect(r.steps.filter((x) => x.action === 'reject')).toEqual([]);
  });

  it('R53.4: a request to an object that an earlier request made Terminating still applies to the settled state', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/hold'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background'), del('v1', 'ConfigMap', 'ns1', 'dep', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/dep']);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });

  it('R53.5: "stuck" is exactly the remaining objects that are terminating', () => {
    const owner = rs('web-rs', 'ns1');
    const s = scenario(
      manifests(
        owner,
        pod('web-rs-a', 'ns1', { owners: [ctl(owner)], nodeName: 'node-1', phase: 'Running' }),
        cm('held', 'ns1', { finalizers: ['example.com/hold'] }),
        cm('fine', 'ns1'),
        cm('dep', 'ns1', { owners: [ref(owner)], finalizers: ['example.com/other'] }),
      ),
    );
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'held', null)]);
    const terminating = r.remaining.filter((x) => x.beingDeleted).map((x) => `${x.kind}/${x.name}`);
    expect(sorted(names(r.stuck))).toEqual(sorted(terminating));
    expect(sorted(names(r.stuck))).toEqual(['ConfigMap/dep', 'ConfigMap/held', 'Pod/web-rs-a', 'ReplicaSet/web-rs']);
    for (const st of r.stuck) {
      expect(st.blockedBy.length, `${st.kind}/${st.name} has a reason`).toBeGreaterThan(0);
      expect(st.finalizers).toEqual(remainingOf(r, st.kind, st.name).finalizers);
    }
    expectKept(r, 'ConfigMap', 'fine', []);
  });

  it('R53: strict mode — no kubelet, no namespace controller, no finalizer controllers act on Terminating input objects', () => {
    const ns = namespace('old', { ...DELETING, phase: 'Terminating' });
    const s = scenario(
      manifests(
        ns,
        pod('leaving', 'ns1', { nodeName: 'node-1', phase: 'Running', ...DELETING, deletionGracePeriodSeconds: 30 }),
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          name: 'data',
          namespace: 'ns1',
          uid: 'uid-data',
          finalizers: ['kubernetes.io/pvc-protection'],
          ...DELETING,
        },
        cm('custom', 'ns1', { finalizers: ['example.com/cleanup'], ...DELETING }),
      ),
    );
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(r.steps).toEqual([]);
    expect(sorted(names(r.stuck))).toEqual(['ConfigMap/custom', 'Namespace/old', 'PersistentVolumeClaim/data', 'Pod/leaving']);
    expect(blockTypes(stuckOf(r, 'Namespace', 'old'))).toContain('namespace-controller');
    expect(blockTypes(stuckOf(r, 'Pod', 'leaving'))).toEqual(['graceful-termination']);
    expect(remainingOf(r, 'PersistentVolumeClaim', 'data').finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(remainingOf(r, 'ConfigMap', 'custom').finalizers).toEqual(['example.com/cleanup']);
  });

  it('R53: the strict mode is the default of scenario().simulate and equals controllers: "gc"', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const req = [del('v1', 'Pod', 'ns1', 'api-0', 'Background')];
    const a = s.simulate(req);
    const b = s.simulate(req, { controllers: 'gc' });
    expect(a.remaining).toEqual(b.remaining);
    expect(a.deleted).toEqual([]);
    expect(b.deleted).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R63: several requests at once (back to back)', () => {
  it("R63/R71: an Orphan DELETE of a ReplicaSet sent right after its Deployment's Background DELETE beats the cascade: the Pods survive, orphaned", () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-a', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const requests = [del('apps/v1', 'Deployment', 'ns1', 'web', 'Background'), del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Orphan')];
    const r = s.simulate(requests, { arrival: 'back-to-back' });
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs']);
    expectKept(r, 'Pod', 'web-rs-a', []);
    expect(r.orphaned).toMatchObject([{ kind: 'Pod', name: 'web-rs-a', ownerUID: 'uid-web-rs' }]);
    expect(r.steps.filter((x) => x.action === 'reject')).toEqual([]);
    // Both requests are applied before the GC's first step; settled, the same two cascade (R53.4).
    const firstGc = r.steps.findIndex((x) => x.actor === 'garbage-collector');
    expect(r.steps.slice(0, firstGc).map((x) => x.request)).toEqual([0, 0, 1, 1]);
    expect(r.notes.join('\n')).toMatch(
      /^Timing-dependent: requests sent back to back often all reach the apiserver before the garbage collector acts/m,
    );
    expect(names(s.simulate(requests).deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs', 'Pod/web-rs-a']);
  });

  it('R63: the steps of each request carry its index, and nothing the GC does carries one (settled and back to back)', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const gone = cm('gone', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'uid-x' }] });
    const s = scenario(manifests(web, webRs, gone, cm('other', 'ns1')));
    for (const arrival of ['settled', 'back-to-back'] as const) {
      const r = s.simulate(
        [del('apps/v1', 'Deployment', 'ns1', 'web', 'Background'), del('v1', 'ConfigMap', 'ns1', 'other', 'Background')],
        { arrival },
      );
      expect(r.steps[0]).toMatchObject({ actor: 'garbage-collector', target: { name: 'gone' } });
      expect(r.steps[0].request).toBeUndefined();
      expect(r.steps.filter((x) => x.request !== undefined).map((x) => `${x.request} ${x.action} ${x.target.name}`)).toEqual([
        '0 delete web',
        '0 remove web',
        '1 delete other',
        '1 remove other',
      ]);
      expect(r.steps.filter((x) => x.actor !== 'apiserver').every((x) => x.request === undefined)).toBe(true);
    }
  });
});

describe('R54: the served set in strict mode', () => {
  it('R54: built-ins are served only at GA versions: DELETE through a retired beta version is a 404 and changes nothing', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const cron = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', namespace: 'ns1', uid: 'uid-nightly' };
    const s = scenario(manifests(web, webRs, cron));
    for (const req of [
      del('extensions/v1beta1', 'Deployment', 'ns1', 'web', null),
      del('apps/v1beta2', 'Deployment', 'ns1', 'web', null),
      del('apps/v1beta1', 'Deployment', 'ns1', 'web', 'Background'),
      del('batch/v1beta1', 'CronJob', 'ns1', 'nightly', null),
      del('extensions/v1beta1', 'ReplicaSet', 'ns1', 'web-rs', 'Orphan'),
    ]) {
      const r = s.simulate([req]);
      expect(r.steps, `${req.apiVersion} ${req.kind}`).toHaveLength(1);
      expectRejected(r, 404);
      expect(r.deleted).toEqual([]);
      expect(r.remaining).toEqual(s.simulate([]).remaining);
    }
  });

  it('R54: a kind in the wrong group (v1 ReplicaSet) is not served: DELETE is a 404', () => {
    const s = scenario(manifests(rs('web-rs', 'ns1')));
    const r = s.simulate([del('v1', 'ReplicaSet', 'ns1', 'web-rs', 'Background')]);
    expectRejected(r, 404);
    expect(r.deleted).toEqual([]);
  });

  it('R54: references through unserved built-in versions are unmappable; GA references (incl. rbac.authorization.k8s.io/v1) resolve', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', name: 'web-role', namespace: 'ns1', uid: 'uid-web-role' };
    const s = scenario(
      manifests(
        web,
        webRs,
        role,
        cm('via-ga', 'ns1', { owners: [ref(web)] }),
        cm('via-rbac', 'ns1', { owners: [ref(role)] }),
        cm('via-beta', 'ns1', { owners: [ref(web, { apiVersion: 'apps/v1beta2' })] }),
        cm('via-v1-replicaset', 'ns1', { owners: [ref(webRs, { apiVersion: 'v1' })] }),
      ),
    );
    const start = s.simulate([]);
    expect(start.deleted).toEqual([]);
    const r = s.simulate([
      del('apps/v1', 'Deployment', 'ns1', 'web', 'Background'),
      del('rbac.authorization.k8s.io/v1', 'Role', 'ns1', 'web-role', 'Background'),
    ]);
    expect(sorted(names(r.deleted))).toEqual([
      'ConfigMap/via-ga',
      'ConfigMap/via-rbac',
      'Deployment/web',
      'ReplicaSet/web-rs',
      'Role/web-role',
    ]);
    expect(removedAt(r, 'Deployment', 'web')).toBeLessThan(removedAt(r, 'ConfigMap', 'via-ga'));
    expect(removedAt(r, 'Role', 'web-role')).toBeLessThan(removedAt(r, 'ConfigMap', 'via-rbac'));
    expectKept(r, 'ConfigMap', 'via-beta', ['uid-web']);
    expectKept(r, 'ConfigMap', 'via-v1-replicaset', ['uid-web-rs']);
  });

  it('R54: a custom kind without a CRD is served exactly at the apiVersion its objects use', () => {
    const gizmo = { apiVersion: 'gadgets.acme.io/v1', kind: 'Gizmo', name: 'g1', namespace: 'ns1', uid: 'uid-g1' };
    const s = scenario(
      manifests(
        gizmo,
        cm('same-version', 'ns1', { owners: [ref(gizmo)] }),
        cm('other-version', 'ns1', { owners: [ref(gizmo, { apiVersion: 'gadgets.acme.io/v2' })] }),
      ),
    );
    const start = s.simulate([]);
    expect(start.deleted).toEqual([]);
    expectKept(start, 'ConfigMap', 'same-version', ['uid-g1']);

    const r = s.simulate([del('gadgets.acme.io/v1', 'Gizmo', 'ns1', 'g1', 'Background')]);
    expect(names(r.deleted)).toEqual(['Gizmo/g1', 'ConfigMap/same-version']);
    expectKept(r, 'ConfigMap', 'other-version', ['uid-g1']);

    const wrongVersion = s.simulate([del('gadgets.acme.io/v2', 'Gizmo', 'ns1', 'g1', 'Background')]);
    expectRejected(wrongVersion, 404);
    expect(wrongVersion.deleted).toEqual([]);
  });

  it('R54: a kind nobody serves (no CRD, no objects) cannot be deleted: 404', () => {
    const s = scenario(manifests(cm('settings', 'ns1')));
    const r = s.simulate([del('gadgets.acme.io/v1', 'Gizmo', 'ns1', 'g1', 'Background')]);
    expectRejected(r, 404);
    expect(r.steps).toHaveLength(1);
  });

  it('R54: a CRD serves its kind at its served versions only; a version with served: false is unmappable', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'ns1', uid: 'uid-w' };
    const s = scenario(
      manifests(
        crd('example.com', 'Widget', 'widgets', 'Namespaced', [
          { name: 'v1', served: true, storage: true },
          { name: 'v1beta1', served: true, storage: false },
          { name: 'v1alpha1', served: false, storage: false },
        ]),
        widget,
        cm('via-v1', 'ns1', { owners: [ref(widget)] }),
        cm('via-beta', 'ns1', { owners: [ref(widget, { apiVersion: 'example.com/v1beta1' })] }),
        cm('via-alpha', 'ns1', { owners: [ref(widget, { apiVersion: 'example.com/v1alpha1' })] }),
      ),
    );
    expect(s.simulate([]).deleted).toEqual([]);
    const alpha = s.simulate([del('example.com/v1alpha1', 'Widget', 'ns1', 'w', 'Background')]);
    expectRejected(alpha, 404);
    expect(alpha.deleted).toEqual([]);

    // Deleting through a served, non-storage version works.
    const r = s.simulate([del('example.com/v1beta1', 'Widget', 'ns1', 'w', 'Background')]);
    expect(names(r.deleted)[0]).toBe('Widget/w');
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/via-beta', 'ConfigMap/via-v1', 'Widget/w']);
    expectKept(r, 'ConfigMap', 'via-alpha', ['uid-w']);
  });

  it("R54: a CRD's declared scope decides where its owners are looked up (Cluster: cluster-wide; Namespaced: the dependent's namespace)", () => {
    const tenant = { apiVersion: 'tenancy.example.com/v1', kind: 'Tenant', name: 'acme', uid: 'uid-acme' };
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', namespace: 'ns1', uid: 'uid-w' };
    const s = scenario(
      manifests(
        crd('tenancy.example.com', 'Tenant', 'tenants', 'Cluster', [{ name: 'v1', served: true, storage: true }]),
        crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }]),
        tenant,
        widget,
        cm('tenant-child', 'ns2', { owners: [ref(tenant)] }),
        cm('widget-child-same-ns', 'ns1', { owners: [ref(widget)] }),
        cm('widget-child-other-ns', 'ns2', { owners: [ref(widget)] }),
      ),
    );
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/widget-child-other-ns']);
    expectKept(r, 'ConfigMap', 'tenant-child', ['uid-acme']);
    expectKept(r, 'ConfigMap', 'widget-child-same-ns', ['uid-w']);
  });

  it('R54: a DELETE through a CRD kind whose CRD declares it cluster-scoped works without a namespace', () => {
    const tenant = { apiVersion: 'tenancy.example.com/v1', kind: 'Tenant', name: 'acme', uid: 'uid-acme' };
    const s = scenario(
      manifests(crd('tenancy.example.com', 'Tenant', 'tenants', 'Cluster', [{ name: 'v1', served: true, storage: true }]), tenant),
    );
    const r = s.simulate([del('tenancy.example.com/v1', 'Tenant', '', 'acme', 'Background')]);
    expect(names(r.deleted)).toEqual(['Tenant/acme']);
  });
});

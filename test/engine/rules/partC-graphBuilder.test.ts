// Part C of docs/gc-semantics.md (R17–R28): the GraphBuilder. The graph itself is not part of the API, so every
// rule is checked through its outcome — who is deleted, patched or kept — in scenarios whose outcome would
// differ if the rule were implemented wrongly. Expectations come from gc-semantics.md and from Kubernetes'
// graph_builder.go / garbagecollector.go, never from the engine's output. Strict mode (--controllers=gc):
// only the apiserver and the GC act.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { type OwnerReference, HOLD, TERMINATING, manifests, ref, bref, obj, cm, pod, busybox } from '../../helpers/manifests';
import { remainingOf, stuckOf, refUids, sorted, orphanedPairs, blockedBy, gcSteps, stepIndex, expectOrder } from '../../helpers/results';

// =========================================================================================================
describe('R17 what the GC watches: Events are ignored', () => {
  const owner = cm('owner', 'ns1');
  const child = cm('child', 'ns1', { owners: [bref(owner)] });
  const coreEvent = (owners: OwnerReference[]) =>
    obj('v1', 'Event', 'ns1', 'owner.17f3a1', {
      owners,
      extra: {
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns1', name: 'owner' },
        reason: 'Synced',
        message: 'synced',
        type: 'Normal',
      },
    });
  const newEvent = (owners: OwnerReference[]) =>
    obj('events.k8s.io/v1', 'Event', 'ns1', 'owner.17f3a2', {
      owners,
      extra: {
        regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns1', name: 'owner' },
        reason: 'Synced',
        note: 'synced',
        type: 'Normal',
        action: 'Sync',
        reportingController: 'example.com/syncer',
        reportingInstance: 'syncer-1',
        eventTime: '2025-01-01T00:00:00.000000Z',
      },
    });

  it('R17: Events (core and events.k8s.io) whose owner is deleted are never collected, while a ConfigMap child is', () => {
    const s = scenario(manifests(owner, child, coreEvent([bref(owner)]), newEvent([ref(owner)])));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner', 'ConfigMap/child']);
    expect(sorted(names(r.remaining))).toEqual(['Event/owner.17f3a1', 'Event/owner.17f3a2']);
    expect(refUids(r.remaining[0])).toEqual(['uid-owner']);
    expect(refUids(r.remaining[1])).toEqual(['uid-owner']);
    expect(r.steps.filter((st) => st.target.kind === 'Event')).toEqual([]);
    expect(r.stuck).toEqual([]);
  });

  it('R17: an Event whose owner never existed is left alone at start-up', () => {
    const ghost: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' };
    const s = scenario(manifests(coreEvent([ghost]), newEvent([ghost])));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(sorted(names(r.remaining))).toEqual(['Event/owner.17f3a1', 'Event/owner.17f3a2']);
    expect(gcSteps(r)).toEqual([]);
  });

  it('R17: a blocking reference from an Event does not hold a Foreground delete of its owner', () => {
    const s = scenario(manifests(owner, coreEvent([bref(owner)])));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    expect(remainingOf(r, 'Event', 'owner.17f3a1')).toMatchObject({
      beingDeleted: false,
      ownerReferences: [{ uid: 'uid-owner', blockOwnerDeletion: true }],
    });
    expect(r.stuck).toEqual([]);
  });

  it('R17: Orphan deletion does not patch Events (the GC never sees them as dependents)', () => {
    const s = scenario(manifests(owner, child, coreEvent([bref(owner)])));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    expect(refUids(remainingOf(r, 'Event', 'owner.17f3a1'))).toEqual(['uid-owner']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'child'))).toEqual([]);
    expect(orphanedPairs(r)).toEqual(['ConfigMap/child<-uid-owner']);
  });
});

// =========================================================================================================
describe('R18 node model: beingDeleted and deletingDependents are one-way flags', () => {
  it('R18: deletingDependents stays set after foregroundDeletion was removed, so the cycle breaker still fires on it later', () => {
    // x is Foreground-deleted first: no blocking dependents, so the GC drops foregroundDeletion and x stays
    // Terminating on its foreign finalizer, still marked deletingDependents. Deleting o with Foreground then
    // reaches i (owner o waiting, dependent x "deleting its dependents") → unblock i's references → o finishes.
    const o = cm('o', 'ns1');
    const i = cm('i', 'ns1', { owners: [bref(o)] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: [HOLD] });
    const s = scenario(manifests(o, i, x));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'x', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(gcSteps(r, 'remove-finalizer', 'x').length).toBeGreaterThan(0);
    expect(names(r.deleted)).toContain('ConfigMap/o');
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({
      finalizers: [HOLD],
      beingDeleted: true,
      ownerReferences: [{ uid: 'uid-i', blockOwnerDeletion: true }],
    });
    expect(gcSteps(r, 'patch-owner-references', 'i').length).toBeGreaterThan(0);
    // i's DELETE, conflicting with that patch, is retried while o still waits: Foreground, so i waits for x (R36).
    expect(remainingOf(r, 'ConfigMap', 'i')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: false }],
    });
    expect(r.stuck.map((e) => e.name)).not.toContain('o');
  });
});

// =========================================================================================================
describe('R19 identity of an observed object uses the preferred version', () => {
  it('R19: a reference through a served non-preferred version of a CRD resolves like one through the preferred version', () => {
    const crd = obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'widgets.example.com', {
      extra: {
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
            {
              name: 'v1beta1',
              served: true,
              storage: false,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
    });
    const w = obj('example.com/v1', 'Widget', 'ns1', 'w', { extra: { spec: { size: 1 } } });
    const viaPreferred = cm('via-v1', 'ns1', { owners: [bref(w)] });
    const viaBeta = cm('via-v1beta1', 'ns1', { owners: [bref(w, { apiVersion: 'example.com/v1beta1' })] });
    const viaUnserved = cm('via-v2', 'ns1', { owners: [bref(w, { apiVersion: 'example.com/v2' })] });
    const s = scenario(manifests(crd, w, viaPreferred, viaBeta, viaUnserved));

    const atStart = s.simulate([]);
    expect(atStart.deleted).toEqual([]);
    expect(atStart.aborted).toBeUndefined();

    const r = s.simulate([del('example.com/v1', 'Widget', 'ns1', 'w', 'Background')]);
    expect(names(r.deleted)[0]).toBe('Widget/w');
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/via-v1', 'ConfigMap/via-v1beta1', 'Widget/w']);
    // v2 is not served: REST-mapping error on every attempt, never collected (R46).
    expect(refUids(remainingOf(r, 'ConfigMap', 'via-v2'))).toEqual(['uid-w']);
    expect(r.aborted).toBeUndefined();
  });
});

// =========================================================================================================
describe('R20 first observation of a uid that only existed as a virtual node', () => {
  it('R20/R27 wrong-kind-reference-to-existing-uid: the wrongly-kinded dependent is collected, the owner, its correct dependent and the namesake are untouched', () => {
    // Dependents come first so that the Deployment's uid is first known as a virtual node.
    const web = obj('apps/v1', 'Deployment', 'ns1', 'web', { extra: { spec: { replicas: 1 } } });
    const bad = cm('bad', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'Secret', name: 'web', uid: 'uid-web', blockOwnerDeletion: true }] });
    const good = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', {
      owners: [bref(web, { controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    // A real Secret named web exists (another uid): the GC's GET by the reference's kind/name finds the wrong uid.
    const secret = obj('v1', 'Secret', 'ns1', 'web', { uid: 'uid-secret-web', extra: { type: 'Opaque' } });
    const secretChild = cm('secret-child', 'ns1', { owners: [bref(secret)] });
    const s = scenario(manifests(bad, good, secretChild, web, secret));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/bad']);
    expect(refUids(remainingOf(r, 'ReplicaSet', 'web-5d8f'))).toEqual(['uid-web']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'secret-child'))).toEqual(['uid-secret-web']);
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/secret-child', 'Deployment/web', 'ReplicaSet/web-5d8f', 'Secret/web']);
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
  });

  it('R20/R43 namespaced-child-owner-uid-in-other-namespace: the child in the wrong namespace is collected, the owner and its valid child are not', () => {
    const owner = obj('v1', 'ConfigMap', 'ns2', 'owner');
    const good = obj('v1', 'ConfigMap', 'ns2', 'good', { owners: [bref(owner)] });
    const bad = obj('v1', 'ConfigMap', 'ns1', 'bad', { owners: [bref(owner)] });
    const s = scenario(manifests(bad, good, owner));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/bad']);
    expect(r.deleted[0].namespace).toBe('ns1');
    expect(refUids(remainingOf(r, 'ConfigMap', 'good'))).toEqual(['uid-owner']);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ namespace: 'ns2', beingDeleted: false });
  });

  it('R20/R45 cluster-scoped-bad-child-and-namespaced-good-child-present-parent: nothing is collected while the parent lives; after it goes only the good child follows', () => {
    const parent = obj('apps/v1', 'Deployment', 'ns1', 'parent', { extra: { spec: { replicas: 1 } } });
    const bad = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'bad', { owners: [ref(parent)], extra: { rules: [] } });
    const good = cm('good', 'ns1', { owners: [ref(parent)] });
    const s = scenario(manifests(bad, good, parent));

    const atStart = s.simulate([]);
    expect(atStart.deleted).toEqual([]);
    expect(gcSteps(atStart, 'patch-owner-references')).toEqual([]);

    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'parent', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/parent', 'ConfigMap/good']);
    expect(remainingOf(r, 'ClusterRole', 'bad')).toMatchObject({
      namespace: '',
      beingDeleted: false,
      ownerReferences: [{ uid: 'uid-parent' }],
    });
    expect(r.stuck).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });
});

// =========================================================================================================
describe('R21 add of an unknown uid: flags come from the object as observed', () => {
  it('R21: a dependent observed Terminating with only a foreign finalizer is not deletingDependents: no cycle breaker, the Foreground chain waits forever', () => {
    // Contrast with R18/R49: here x never had foregroundDeletion when the graph saw it.
    const o = cm('o', 'ns1');
    const i = cm('i', 'ns1', { owners: [bref(o)] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(o, i, x));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ConfigMap', 'i')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: true }],
    });
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'i'));
    expect(stuckOf(r, 'ConfigMap', 'i').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'x'));
    expect(stuckOf(r, 'ConfigMap', 'x').blockedBy).toContainEqual(blockedBy('finalizer'));
  });
});

// =========================================================================================================
describe('R22 linking a dependent to its owners', () => {
  it('R22: dependents of uids that are nowhere in the input get virtual owners, verified absent, and are collected at start-up', () => {
    const owner = cm('owner', 'ns1');
    const keeper = cm('keeper', 'ns1', { owners: [bref(owner)] });
    const lostCm = cm('lost-cm', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone-cm', uid: 'uid-gone-cm' }] });
    // Cluster-scoped owner kind: the virtual node carries the dependent's namespace, the lookup is cluster-wide.
    const lostCr = cm('lost-cr', 'ns1', {
      owners: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'gone-cr', uid: 'uid-gone-cr' }],
    });
    const lostBoth = cm('lost-both', 'ns1', {
      owners: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone-a', uid: 'uid-gone-a', blockOwnerDeletion: true },
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone-b', uid: 'uid-gone-b', controller: true },
      ],
    });
    const s = scenario(manifests(owner, keeper, lostCm, lostCr, lostBoth));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/lost-both', 'ConfigMap/lost-cm', 'ConfigMap/lost-cr']);
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/keeper', 'ConfigMap/owner']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'keeper'))).toEqual(['uid-owner']);
  });

  it('R22: a cluster-scoped owner of children in two namespaces is a valid owner; deleting it collects both', () => {
    const reader = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'reader', { extra: { rules: [] } });
    const a = obj('v1', 'ConfigMap', 'ns1', 'a', { owners: [bref(reader)] });
    const b = obj('v1', 'ConfigMap', 'ns2', 'b', { owners: [ref(reader)] });
    const s = scenario(manifests(a, b, reader));
    expect(s.simulate([]).deleted).toEqual([]);
    const r = s.simulate([del('rbac.authorization.k8s.io/v1', 'ClusterRole', '', 'reader', 'Background')]);
    expect(names(r.deleted)[0]).toBe('ClusterRole/reader');
    expect(sorted(names(r.deleted))).toEqual(['ClusterRole/reader', 'ConfigMap/a', 'ConfigMap/b']);
    expect(r.remaining).toEqual([]);
  });
});

// =========================================================================================================
describe('R23 add/update of a known uid', () => {
  it('R23: an owner first known as a virtual node and then observed Terminating with foregroundDeletion still waits for its blocking dependent, then goes', () => {
    const o = cm('o', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const s = scenario(manifests(c, o)); // dependent first: o's uid starts virtual
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/c', 'ConfigMap/o']);
    expect(r.remaining).toEqual([]);
  });
});

// =========================================================================================================
describe('R24 unblocking owners on reference edits', () => {
  it("R24/R35 solid-owner-does-not-block-waiting-owner: the dependent drops only the waiting owner's reference, which lets that owner finish", () => {
    const waiting = cm('waiting', 'ns1');
    const solid = cm('solid', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(waiting), bref(solid)] });
    const s = scenario(manifests(waiting, solid, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'waiting', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/waiting']);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({
      beingDeleted: false,
      finalizers: [],
      ownerReferences: [{ uid: 'uid-solid', blockOwnerDeletion: true }],
    });
    expect(remainingOf(r, 'ConfigMap', 'solid')).toMatchObject({ beingDeleted: false });
    expect(gcSteps(r, 'patch-owner-references', 'c').length).toBeGreaterThan(0);
    expect(gcSteps(r, 'delete', 'c')).toEqual([]);
    expect(orphanedPairs(r)).toEqual(['ConfigMap/c<-uid-waiting']);
    expect(r.stuck).toEqual([]);
  });

  it('R24/R49 two-object-cycle-foreground: the cycle breaker unblocks the other member, the deleted one finishes first, then the other', () => {
    const a = cm('a', 'ns1');
    const b = cm('b', 'ns1');
    a.owners = [bref(b)];
    b.owners = [bref(a)];
    const s = scenario(manifests(a, b));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'a', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/a', 'ConfigMap/b']);
    expect(r.remaining).toEqual([]);
    const patchB = stepIndex(
      r,
      (st) => st.actor === 'garbage-collector' && st.action === 'patch-owner-references' && st.target.name === 'b',
    );
    const deleteB = stepIndex(r, (st) => st.actor === 'garbage-collector' && st.action === 'delete' && st.target.name === 'b');
    expect(patchB).toBeGreaterThanOrEqual(0);
    expect(deleteB).toBeGreaterThan(patchB);
    expect(gcSteps(r, 'patch-owner-references', 'a')).toEqual([]);
  });
});

// =========================================================================================================
describe('R25 deletion transitions (processTransitions)', () => {
  it('R25 already-terminating-with-foreground-finalizer-at-start: dependents are collected, the owner goes after its blocking dependent', () => {
    const o = cm('o', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const blocking = cm('blocking', 'ns1', { owners: [bref(o)] });
    const loose = cm('loose', 'ns1', { owners: [ref(o)] });
    const s = scenario(manifests(o, blocking, loose));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/blocking', 'ConfigMap/loose', 'ConfigMap/o']);
    expectOrder(names(r.deleted), 'ConfigMap/blocking', 'ConfigMap/o');
    expect(r.remaining).toEqual([]);
    expect(gcSteps(r, 'remove-finalizer', 'o').length).toBeGreaterThan(0);
  });

  it('R25 already-terminating-with-orphan-finalizer-at-start: every dependent loses its reference, then the owner goes', () => {
    const o = cm('o', 'ns1', { finalizers: ['orphan'], ...TERMINATING });
    const c1 = cm('c1', 'ns1', { owners: [bref(o, { controller: true })] });
    const c2 = cm('c2', 'ns1', { owners: [ref(o)] });
    const s = scenario(manifests(o, c1, c2));
    const r = s.simulate([]);
    // R53.2: the graph is complete before workers start, so the orphan worker sees both dependents.
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'c1')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(remainingOf(r, 'ConfigMap', 'c2')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/c1<-uid-o', 'ConfigMap/c2<-uid-o']);
    const lastPatch = Math.max(
      ...['c1', 'c2'].map((n) =>
        stepIndex(r, (st) => st.actor === 'garbage-collector' && st.action === 'patch-owner-references' && st.target.name === n),
      ),
    );
    const unfinalize = stepIndex(r, (st) => st.actor === 'garbage-collector' && st.action === 'remove-finalizer' && st.target.name === 'o');
    expect(lastPatch).toBeGreaterThanOrEqual(0);
    expect(unfinalize).toBeGreaterThan(lastPatch);
  });

  it('R25: an object Terminating at start with only a foreign finalizer triggers nothing; its dependents stay', () => {
    const o = cm('o', 'ns1', { finalizers: [HOLD], ...TERMINATING });
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-o' }] });
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(gcSteps(r)).toEqual([]);
  });
});

// =========================================================================================================
describe('R26 informer delete event', () => {
  it("R26: an owner's removal queues its dependents: a Background cascade removes Deployment, ReplicaSet, Pod in that order", () => {
    const d = obj('apps/v1', 'Deployment', 'ns1', 'web', { extra: { spec: { replicas: 1 } } });
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', {
      owners: [bref(d, { controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    const p = pod('web-5d8f-x2x7q', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox() });
    const s = scenario(manifests(d, rs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-5d8f', 'Pod/web-5d8f-x2x7q']);
    expect(r.remaining).toEqual([]);
    expect(gcSteps(r, 'delete').map((st) => st.target.name)).toEqual(['web-5d8f', 'web-5d8f-x2x7q']);
  });

  it('R26: the removal of a blocking dependent wakes the owner waiting for it', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const g = cm('g', 'ns1', { owners: [bref(c)] });
    const s = scenario(manifests(o, c, g));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/g', 'ConfigMap/c', 'ConfigMap/o']);
    expect(r.stuck).toEqual([]);
  });
});

// =========================================================================================================
describe('R27 virtual delete events', () => {
  it('R27: dependents that disagree about the kind of a missing uid are all collected', () => {
    const asCm = cm('as-configmap', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }] });
    const asSecret = cm('as-secret', 'ns1', { owners: [{ apiVersion: 'v1', kind: 'Secret', name: 'ghost', uid: 'uid-ghost' }] });
    const asDeploy = cm('as-deployment', 'ns1', {
      owners: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'ghost', uid: 'uid-ghost' }],
    });
    const s = scenario(manifests(asCm, asSecret, asDeploy));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/as-configmap', 'ConfigMap/as-deployment', 'ConfigMap/as-secret']);
    expect(r.remaining).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });

  it('R27/R45 cluster-scoped-bad-child-and-namespaced-good-child-missing-parent: the good child is collected, the cluster-scoped one never', () => {
    const parentRef: OwnerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'parent', uid: 'uid-parent' };
    const bad = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'bad', { owners: [parentRef], extra: { rules: [] } });
    const good = cm('good', 'ns1', { owners: [parentRef] });
    for (const order of [
      [bad, good],
      [good, bad],
    ]) {
      const r = scenario(manifests(...order)).simulate([]);
      expect(names(r.deleted)).toEqual(['ConfigMap/good']);
      expect(remainingOf(r, 'ClusterRole', 'bad')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-parent' }] });
      expect(gcSteps(r, undefined, 'bad')).toEqual([]);
      expect(r.aborted).toBeUndefined();
    }
  });
});

// =========================================================================================================
describe('R28 graph invariants (observed through later decisions)', () => {
  it('R28: a dependent removed earlier no longer counts as a blocker of its owner', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'c', 'Background'), del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/c', 'ConfigMap/o']);
    expect(r.stuck).toEqual([]);
  });

  it('R28: a dependent orphaned from one owner still blocks, and is collected for, its other owner', () => {
    const o1 = cm('o1', 'ns1');
    const o2 = cm('o2', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o1), bref(o2)] });
    const s = scenario(manifests(o1, o2, c));
    const first = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o1', 'Orphan')]);
    expect(names(first.deleted)).toEqual(['ConfigMap/o1']);
    expect(refUids(remainingOf(first, 'ConfigMap', 'c'))).toEqual(['uid-o2']);
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o1', 'Orphan'), del('v1', 'ConfigMap', 'ns1', 'o2', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o1', 'ConfigMap/c', 'ConfigMap/o2']);
    expect(r.remaining).toEqual([]);
  });
});

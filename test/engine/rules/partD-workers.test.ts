// Part D of docs/gc-semantics.md (R29–R41): the GC workers — attemptToDeleteItem, classification of references,
// the decision between patching and deleting, foreground waiting, finalizer removal and orphaning. Every
// expectation is derived from gc-semantics.md and Kubernetes' garbagecollector.go / operations.go / patch.go,
// never from the engine's output. Strict mode (--controllers=gc): only the apiserver and the GC act.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { type OwnerReference, HOLD, TERMINATING, manifests, ref, bref, obj, cm, pod, busybox } from '../../helpers/manifests';
import { remainingOf, stuckOf, refUids, sorted, orphanedPairs, blockedBy, gcSteps, stepIndex, expectOrder } from '../../helpers/results';

// =========================================================================================================
describe('R29 queue handling around attemptToDeleteItem', () => {
  it('R29: an owner that exists but is never observed (an events.k8s.io Event) is polled: its dependent is kept, then collected once the owner is deleted', () => {
    const ev = obj('events.k8s.io/v1', 'Event', 'ns1', 'web.17f3a1', {
      extra: {
        regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns1', name: 'c' },
        reason: 'Synced',
        note: 'synced',
        type: 'Normal',
        action: 'Sync',
        reportingController: 'example.com/syncer',
        reportingInstance: 'syncer-1',
        eventTime: '2025-01-01T00:00:00.000000Z',
      },
    });
    const c = cm('c', 'ns1', { owners: [ref(ev)] });
    const s = scenario(manifests(ev, c));

    const atStart = s.simulate([]);
    expect(atStart.deleted).toEqual([]);
    expect(refUids(remainingOf(atStart, 'ConfigMap', 'c'))).toEqual(['uid-web.17f3a1']);
    expect(atStart.aborted).toBeUndefined();

    const r = s.simulate([del('events.k8s.io/v1', 'Event', 'ns1', 'web.17f3a1', 'Background')]);
    expect(names(r.deleted)).toEqual(['Event/web.17f3a1', 'ConfigMap/c']);
    expect(r.remaining).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });

  it('R29: a cluster-scoped dependent of a namespaced kind is dropped without retry: the run ends, the dependent stays', () => {
    const parent = obj('apps/v1', 'Deployment', 'ns1', 'parent', { extra: { spec: { replicas: 1 } } });
    const bad = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'bad', { owners: [ref(parent)], extra: { rules: [] } });
    const s = scenario(manifests(parent, bad));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'parent', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/parent']);
    expect(remainingOf(r, 'ClusterRole', 'bad')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-parent' }] });
    expect(r.aborted).toBeUndefined();
  });
});

// =========================================================================================================
describe('R30 attemptToDeleteItem leaves terminating objects alone', () => {
  it("R30: a terminating dependent's references are never patched, not even a dangling one next to a solid owner", () => {
    const p = cm('p', 'ns1');
    const c = cm('c', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }, ref(p)],
      finalizers: [HOLD],
      ...TERMINATING,
    });
    const s = scenario(manifests(p, c));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(refUids(remainingOf(r, 'ConfigMap', 'c'))).toEqual(['uid-ghost', 'uid-p']);
    expect(gcSteps(r, undefined, 'c')).toEqual([]);
  });

  it('R30: a terminating dependent is not re-deleted when its owner is deleted Background', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: true, finalizers: [HOLD], ownerReferences: [{ uid: 'uid-o' }] });
    expect(gcSteps(r, undefined, 'c')).toEqual([]);
    expect(stuckOf(r, 'ConfigMap', 'c').blockedBy).toContainEqual(blockedBy('finalizer'));
  });
});

// =========================================================================================================
describe('R31 the item itself is confirmed by a GET', () => {
  it('R31: an owner name now held by another uid is verified absent: the stale dependent goes, the namesake and its dependent stay', () => {
    const namesake = cm('web', 'ns1', { uid: 'uid-web-new' });
    const stale = cm('stale', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web', uid: 'uid-web-old', blockOwnerDeletion: true }],
    });
    const fresh = cm('fresh', 'ns1', { owners: [bref(namesake)] });
    const s = scenario(manifests(stale, fresh, namesake));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/stale']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'fresh'))).toEqual(['uid-web-new']);
    // The namesake is still a live owner for the GC: a Foreground delete of it waits for its dependent first.
    const r2 = s.simulate([del('v1', 'ConfigMap', 'ns1', 'web', 'Foreground')]);
    expectOrder(names(r2.deleted), 'ConfigMap/stale', 'ConfigMap/fresh', 'ConfigMap/web');
  });
});

// =========================================================================================================
describe('R32 items waiting for their dependents only run processDeletingDependentsItem', () => {
  it('R32: an owner deleting its dependents is not classified: its own dangling reference is not patched while it waits', () => {
    const p = cm('p', 'ns1');
    const o = cm('o', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }, ref(p)],
      finalizers: ['foregroundDeletion'],
      ...TERMINATING,
    });
    const c = cm('c', 'ns1', { owners: [bref(o)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(p, o, c));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(refUids(remainingOf(r, 'ConfigMap', 'o'))).toEqual(['uid-ghost', 'uid-p']);
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'c'));
  });
});

// =========================================================================================================
describe('R34 classifying references', () => {
  it('R34 owner-same-name-different-uid: a ReplicaSet of a re-created Deployment (same name, new uid) is collected', () => {
    const web = obj('apps/v1', 'Deployment', 'ns1', 'web', { uid: 'uid-web-v2', extra: { spec: { replicas: 1 } } });
    const oldRs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-old', {
      owners: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-web-v1', controller: true, blockOwnerDeletion: true }],
      extra: { spec: { replicas: 1 } },
    });
    const newRs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-new', {
      owners: [bref(web, { controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    const s = scenario(manifests(web, oldRs, newRs));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ReplicaSet/web-old']);
    expect(refUids(remainingOf(r, 'ReplicaSet', 'web-new'))).toEqual(['uid-web-v2']);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: false });
  });

  it('R34 resolvable-wrong-kind-same-name-and-uid: a reference with the right name and uid but another served kind is dangling', () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', { extra: { spec: { replicas: 1 } } });
    const wrong = cm('wrong', 'ns1', {
      owners: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web-5d8f', uid: 'uid-web-5d8f', blockOwnerDeletion: true }],
    });
    const right = cm('right', 'ns1', { owners: [bref(rs)] });
    const s = scenario(manifests(rs, wrong, right));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/wrong']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'right'))).toEqual(['uid-web-5d8f']);
    expect(remainingOf(r, 'ReplicaSet', 'web-5d8f')).toMatchObject({ beingDeleted: false });
  });

  it("R34 right-uid-wrong-name: a reference with the owner's uid but another name is dangling", () => {
    const owner = cm('web', 'ns1');
    const typo = cm('typo', 'ns1', { owners: [bref(owner, { name: 'wbe' })] });
    const right = cm('right', 'ns1', { owners: [bref(owner)] });
    const s = scenario(manifests(owner, typo, right));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/typo']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'right'))).toEqual(['uid-web']);
  });

  it('R34 unresolvable-apiversion-kind-never-collected: a reference through a retired apiVersion is never resolved, even after the owner is gone', () => {
    const web = obj('apps/v1', 'Deployment', 'ns1', 'web', { extra: { spec: { replicas: 1 } } });
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', {
      owners: [bref(web, { apiVersion: 'extensions/v1beta1', controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    const s = scenario(manifests(web, rs));
    const atStart = s.simulate([]);
    expect(atStart.deleted).toEqual([]);
    expect(atStart.aborted).toBeUndefined();
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expect(remainingOf(r, 'ReplicaSet', 'web-5d8f')).toMatchObject({
      beingDeleted: false,
      ownerReferences: [{ apiVersion: 'extensions/v1beta1', uid: 'uid-web' }],
    });
    expect(gcSteps(r, undefined, 'web-5d8f')).toEqual([]);
    expect(r.aborted).toBeUndefined();
  });

  it('R34 unresolvable-reference-blocks-classification-of-the-rest: one unmappable reference stops the dangling one from being removed, before and after the solid owner goes', () => {
    const solid = cm('solid', 'ns1');
    const c = cm('c', 'ns1', {
      owners: [
        ref(solid),
        { apiVersion: 'unknown.group/v1', kind: 'Thing', name: 't', uid: 'uid-t' },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' },
      ],
    });
    const s = scenario(manifests(solid, c));
    const atStart = s.simulate([]);
    expect(atStart.deleted).toEqual([]);
    expect(refUids(remainingOf(atStart, 'ConfigMap', 'c'))).toEqual(['uid-solid', 'uid-t', 'uid-ghost']);
    expect(gcSteps(atStart, 'patch-owner-references')).toEqual([]);
    expect(atStart.aborted).toBeUndefined();

    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'solid', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/solid']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'c'))).toEqual(['uid-solid', 'uid-t', 'uid-ghost']);
    expect(gcSteps(r, undefined, 'c')).toEqual([]);
  });

  it('R34: an owner Terminating only because of a foreign finalizer is solid: the dependent keeps it and drops the dangling one', () => {
    const o = cm('o', 'ns1', { finalizers: [HOLD], ...TERMINATING });
    const q = cm('q', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o), bref(q)] });
    const s = scenario(manifests(o, q, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'q', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/q']);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-o' }] });
    expect(gcSteps(r, 'delete', 'c')).toEqual([]);
  });

  it('R34: a Pod owner in graceful termination (no kubelet) is solid', () => {
    const p = pod('runner', 'ns1', { ...busybox('node-1') });
    const q = cm('q', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(p), bref(q)] });
    const s = scenario(manifests(p, q, c));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'runner', 'Background'), del('v1', 'ConfigMap', 'ns1', 'q', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/q']);
    expect(remainingOf(r, 'Pod', 'runner')).toMatchObject({ beingDeleted: true });
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-runner' }] });
  });
});

// =========================================================================================================
describe("R35 deciding: patch, Foreground delete, or delete by the item's own finalizers", () => {
  it('R35 one-dangling-one-solid-owner-at-startup: the dangling reference is patched away, the object stays', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost', blockOwnerDeletion: true }, bref(o)],
    });
    const s = scenario(manifests(o, c));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({
      beingDeleted: false,
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: true }],
    });
    expect(gcSteps(r, 'patch-owner-references', 'c').length).toBeGreaterThan(0);
    expect(gcSteps(r, 'delete')).toEqual([]);
  });

  it('R35 foreground-chain-all-blocking: Deployment → ReplicaSet → Pod go bottom-up, the ReplicaSet deleted Foreground without any patch', () => {
    const d = obj('apps/v1', 'Deployment', 'ns1', 'web', { extra: { spec: { replicas: 1 } } });
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', {
      owners: [bref(d, { controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    const p = pod('web-5d8f-x2x7q', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox() });
    const s = scenario(manifests(d, rs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    // Pod before ReplicaSet proves the GC deleted the ReplicaSet with Foreground (R35 ii).
    expect(names(r.deleted)).toEqual(['Pod/web-5d8f-x2x7q', 'ReplicaSet/web-5d8f', 'Deployment/web']);
    expect(r.remaining).toEqual([]);
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
    expect(sorted(gcSteps(r, 'delete').map((st) => st.target.name))).toEqual(['web-5d8f', 'web-5d8f-x2x7q']);
  });

  it('R35 waiting-plus-dangling-owner-is-garbage: no solid owner, no dependents → the item is deleted, not patched', () => {
    const o = cm('o', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const c = cm('c', 'ns1', { owners: [bref(o), { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/c', 'ConfigMap/o']);
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
    expect(gcSteps(r, 'delete', 'c').length).toBe(1);
  });

  it('R35 gc-deletes-orphaned-object-honouring-its-foreground-finalizer: garbage carrying foregroundDeletion is deleted Foreground, its dependent goes first', () => {
    const c = cm('c', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }],
      finalizers: ['foregroundDeletion'],
    });
    const g = cm('g', 'ns1', { owners: [bref(c)] });
    const s = scenario(manifests(c, g));
    const r = s.simulate([]);
    // Background would remove c at once (R4 drops the GC finalizer), then g: the order tells the policy.
    expect(names(r.deleted)).toEqual(['ConfigMap/g', 'ConfigMap/c']);
    expect(r.remaining).toEqual([]);
  });

  it('R35 gc-deletes-orphaned-object-honouring-its-orphan-finalizer: garbage carrying orphan is deleted Orphan, its dependent is kept', () => {
    const c = cm('c', 'ns1', {
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: 'uid-ghost' }],
      finalizers: ['orphan'],
    });
    const g = cm('g', 'ns1', { owners: [bref(c, { controller: true })] });
    const s = scenario(manifests(c, g));
    const r = s.simulate([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/c']);
    expect(remainingOf(r, 'ConfigMap', 'g')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/g<-uid-c']);
  });

  it('R35 null-policy-cronjob-background-and-gc-explicit-policy: a bare CronJob DELETE is Background and the GC deletes the Job with an explicit Background, not the batch/v1 orphan default', () => {
    const cj = obj('batch/v1', 'CronJob', 'ns1', 'nightly', {
      extra: {
        spec: {
          schedule: '0 0 * * *',
          jobTemplate: {
            spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'busybox:1.36' }] } } },
          },
        },
      },
    });
    const job = obj('batch/v1', 'Job', 'ns1', 'nightly-28958400', {
      owners: [bref(cj, { controller: true })],
      extra: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'app', image: 'busybox:1.36' }] } } } },
    });
    const jobPod = pod('nightly-28958400-abcde', 'ns1', { owners: [bref(job, { controller: true })], ...busybox() });
    const s = scenario(manifests(cj, job, jobPod));
    const r = s.simulate([del('batch/v1', 'CronJob', 'ns1', 'nightly', null)]);
    expect(names(r.deleted)).toEqual(['CronJob/nightly', 'Job/nightly-28958400', 'Pod/nightly-28958400-abcde']);
    expect(r.orphaned).toEqual([]);
    expect(r.remaining).toEqual([]);
  });

  it('R35(ii): before its Foreground delete the item gets blockOwnerDeletion:false on every blocking reference; a non-blocking one is left as it was (strategic merge patch)', () => {
    // o1 and o2 wait (Terminating with foregroundDeletion at start); i has a dependent x that is deleting its
    // dependents (observed with foregroundDeletion) → cycle breaker. i keeps a foreign finalizer so it remains
    // whichever way the following DELETE ends (R36).
    const o1 = cm('o1', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const o2 = cm('o2', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const i = cm('i', 'ns1', { owners: [bref(o1), ref(o2)], finalizers: ['example.com/keep'] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: ['foregroundDeletion', HOLD], ...TERMINATING });
    const s = scenario(manifests(o1, o2, i, x));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/o1', 'ConfigMap/o2']);
    const left = remainingOf(r, 'ConfigMap', 'i');
    expect(left).toMatchObject({ beingDeleted: true, ownerReferences: [{ uid: 'uid-o1', blockOwnerDeletion: false }, { uid: 'uid-o2' }] });
    expect(left.ownerReferences[1].blockOwnerDeletion).toBeUndefined();
    expect(left.finalizers).toContain('example.com/keep');
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    const patch = stepIndex(
      r,
      (st) => st.actor === 'garbage-collector' && st.action === 'patch-owner-references' && st.target.name === 'i',
    );
    const gcDelete = stepIndex(r, (st) => st.actor === 'garbage-collector' && st.action === 'delete' && st.target.name === 'i');
    expect(patch).toBeGreaterThanOrEqual(0);
    expect(gcDelete).toBeGreaterThan(patch);
  });

  it('R35(ii): for a custom resource (JSON merge patch fallback) every reference gets an explicit blockOwnerDeletion:false', () => {
    const o1 = cm('o1', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const o2 = cm('o2', 'ns1', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const i = obj('example.com/v1', 'Gadget', 'ns1', 'i', {
      owners: [bref(o1), ref(o2)],
      finalizers: ['example.com/keep'],
      extra: { spec: { size: 1 } },
    });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: ['foregroundDeletion', HOLD], ...TERMINATING });
    const s = scenario(manifests(o1, o2, i, x));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/o1', 'ConfigMap/o2']);
    expect(remainingOf(r, 'Gadget', 'i')).toMatchObject({
      beingDeleted: true,
      ownerReferences: [
        { uid: 'uid-o1', blockOwnerDeletion: false },
        { uid: 'uid-o2', blockOwnerDeletion: false },
      ],
    });
    expect(gcSteps(r, 'patch-owner-references', 'i').length).toBeGreaterThan(0);
  });
});

// =========================================================================================================
describe('R36 how the GC issues its DELETE', () => {
  it("R36/R70: the cycle breaker's Foreground DELETE conflicts with its own unblock patch and is retried before the owner it unblocked is re-examined: the item waits Terminating for its dependent (a note says a real cluster races the two)", () => {
    // The 409 (owners changed) is retried at once, while o still waits: same branch, a no-op patch, then the
    // Foreground DELETE. o then finishes (i no longer blocks it); i waits for x forever.
    const o = cm('o', 'ns1');
    const i = cm('i', 'ns1', { owners: [bref(o)] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: ['foregroundDeletion', HOLD], ...TERMINATING });
    const s = scenario(manifests(o, i, x));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'i')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: false }],
    });
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    const deletes = r.steps.filter((st) => st.actor === 'garbage-collector' && st.action === 'delete' && st.target.name === 'i');
    expect(deletes.map((st) => st.detail)).toEqual([expect.stringMatching(/Foreground/)]);
    expect(stepIndex(r, (st) => st.action === 'reject' && st.target.name === 'i')).toBeLessThan(
      stepIndex(r, (st) => st.action === 'remove' && st.target.name === 'o'),
    );
    // The owner's own worker races that retry on a real cluster (R70): the report says so.
    expect(r.notes.join('\n')).toMatch(
      /^Timing-dependent: the GC's Foreground DELETE of ConfigMap ns1\/i conflicted with its own change of its ownerReferences; .* the owner's worker races that retry/m,
    );
  });

  it('R36 foreground-chain-meets-deleting-dependents: a Foreground chain a ← b ← c, c already waiting for its stuck dependent, leaves b Terminating and removes only a', () => {
    // c was deleted Foreground earlier and waits for d (held by a foreign finalizer). Deleting a (Foreground)
    // reaches b: owner waiting, dependent c deleting its dependents → cycle breaker; b's retried DELETE is
    // Foreground, so b waits for c. Retrying only after a had gone would wrongly delete b Background.
    const a = cm('a', 'ns1');
    const b = cm('b', 'ns1', { owners: [bref(a)] });
    const c = cm('c', 'ns1', { owners: [bref(b)], finalizers: ['foregroundDeletion'], ...TERMINATING });
    const d = cm('d', 'ns1', { owners: [bref(c)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(a, b, c, d));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'a', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/a']);
    expect(remainingOf(r, 'ConfigMap', 'b')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-a', blockOwnerDeletion: false }],
    });
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ConfigMap', 'd')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(sorted(r.stuck.map((e) => e.name))).toEqual(['b', 'c', 'd']);
  });
});

// =========================================================================================================
describe('R37 the absent-owner cache is keyed by coordinates and namespace', () => {
  it('R37 two-children-of-same-missing-owner: both children are collected', () => {
    const gone: OwnerReference = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'web-5d8f',
      uid: 'uid-web-5d8f',
      controller: true,
      blockOwnerDeletion: true,
    };
    const p1 = pod('web-5d8f-aaaaa', 'ns1', { owners: [gone], ...busybox() });
    const p2 = pod('web-5d8f-bbbbb', 'ns1', { owners: [gone], ...busybox() });
    const s = scenario(manifests(p1, p2));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['Pod/web-5d8f-aaaaa', 'Pod/web-5d8f-bbbbb']);
    expect(r.remaining).toEqual([]);
  });

  it('R37 cross-namespace-reference-does-not-hurt-valid-children: caching the owner as absent in ns1 does not make it absent for its child in ns2', () => {
    const shared = obj('v1', 'ConfigMap', 'ns2', 'shared');
    const helper = obj('v1', 'ConfigMap', 'ns2', 'helper');
    const good = obj('v1', 'ConfigMap', 'ns2', 'good', { owners: [bref(shared), bref(helper)] });
    const bad = obj('v1', 'ConfigMap', 'ns1', 'bad', { owners: [bref(shared)] });
    const s = scenario(manifests(bad, shared, helper, good));
    // Start-up collects bad (its owner is absent in ns1); the helper's deletion later re-classifies good.
    const r = s.simulate([del('v1', 'ConfigMap', 'ns2', 'helper', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/bad', 'ConfigMap/helper']);
    expect(remainingOf(r, 'ConfigMap', 'good')).toMatchObject({
      namespace: 'ns2',
      beingDeleted: false,
      ownerReferences: [{ uid: 'uid-shared' }],
    });
    expect(remainingOf(r, 'ConfigMap', 'shared')).toMatchObject({ namespace: 'ns2', beingDeleted: false });
  });

  it('R37: a missing cluster-scoped owner is absent cluster-wide: its children in two namespaces are both collected', () => {
    const gone: OwnerReference = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'gone', uid: 'uid-gone' };
    const a = obj('v1', 'ConfigMap', 'ns1', 'a', { owners: [gone] });
    const b = obj('v1', 'ConfigMap', 'ns2', 'b', { owners: [gone] });
    const s = scenario(manifests(a, b));
    const r = s.simulate([]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/a', 'ConfigMap/b']);
  });
});

// =========================================================================================================
describe('R38 processDeletingDependentsItem', () => {
  it('R38 foreground-mixed-blockownerdeletion: all dependents are collected, the owner waits only for the blocking one', () => {
    const o = cm('o', 'ns1');
    const blocking = cm('blocking', 'ns1', { owners: [bref(o)] });
    const explicitFalse = cm('explicit-false', 'ns1', { owners: [ref(o, { blockOwnerDeletion: false })] });
    const unset = cm('unset', 'ns1', { owners: [ref(o)] });
    const s = scenario(manifests(o, blocking, explicitFalse, unset));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/blocking', 'ConfigMap/explicit-false', 'ConfigMap/o', 'ConfigMap/unset']);
    expectOrder(names(r.deleted), 'ConfigMap/blocking', 'ConfigMap/o');
    expect(r.remaining).toEqual([]);
  });

  it('R38: a blocking dependent that is itself deleting its dependents is left to finish; the owner goes when it does', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const g = cm('g', 'ns1', { owners: [bref(c)], finalizers: [HOLD] });
    const s = scenario(manifests(o, c, g));
    // c is already waiting for g when o is deleted; g's finalizer never goes, so c and o wait.
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'c', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: true }],
    });
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'c'));
    expect(gcSteps(r, 'delete', 'c')).toEqual([]);
  });
});

// =========================================================================================================
describe('R39 removeFinalizer removes exactly one finalizer', () => {
  it('R39: after a Foreground delete the GC removes only foregroundDeletion; the foreign finalizers keep their order', () => {
    const o = cm('o', 'ns1', { finalizers: ['example.com/a', 'example.com/b'] });
    const s = scenario(manifests(o));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/a', 'example.com/b'] });
    expect(gcSteps(r, 'remove-finalizer', 'o').length).toBe(1);
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('finalizer'));
  });

  it('R39: after orphaning the GC removes only orphan; the foreign finalizer stays', () => {
    const o = cm('o', 'ns1', { finalizers: ['example.com/a'] });
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Orphan')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/a'] });
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ ownerReferences: [] });
  });
});

// =========================================================================================================
describe('R40 orphaning', () => {
  it("R40 orphan-policy-strips-references: every direct dependent loses every reference with the owner's uid, then the owner's orphan finalizer goes", () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', { extra: { spec: { replicas: 2 } } });
    const keep = cm('keep', 'ns1');
    const p1 = pod('web-5d8f-aaaaa', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox() });
    const p2 = pod('web-5d8f-bbbbb', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox() });
    const shared = cm('shared', 'ns1', { owners: [ref(rs), bref(keep)] });
    const twice = cm('twice', 'ns1', { owners: [bref(rs, { controller: true }), ref(rs)] }); // duplicate uid (R14 accepts it)
    const grandchild = cm('grandchild', 'ns1', { owners: [bref(shared)] });
    const s = scenario(manifests(rs, keep, p1, p2, shared, twice, grandchild));
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['ReplicaSet/web-5d8f']);
    expect(refUids(remainingOf(r, 'Pod', 'web-5d8f-aaaaa'))).toEqual([]);
    expect(refUids(remainingOf(r, 'Pod', 'web-5d8f-bbbbb'))).toEqual([]);
    expect(refUids(remainingOf(r, 'ConfigMap', 'shared'))).toEqual(['uid-keep']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'twice'))).toEqual([]);
    expect(refUids(remainingOf(r, 'ConfigMap', 'grandchild'))).toEqual(['uid-shared']); // only direct dependents are touched
    expect(orphanedPairs(r)).toEqual([
      'ConfigMap/shared<-uid-web-5d8f',
      'ConfigMap/twice<-uid-web-5d8f',
      'Pod/web-5d8f-aaaaa<-uid-web-5d8f',
      'Pod/web-5d8f-bbbbb<-uid-web-5d8f',
    ]);
    const patched = ['web-5d8f-aaaaa', 'web-5d8f-bbbbb', 'shared', 'twice'].map((n) =>
      stepIndex(r, (st) => st.actor === 'garbage-collector' && st.action === 'patch-owner-references' && st.target.name === n),
    );
    patched.forEach((i) => expect(i).toBeGreaterThanOrEqual(0));
    const unfinalize = stepIndex(
      r,
      (st) => st.actor === 'garbage-collector' && st.action === 'remove-finalizer' && st.target.name === 'web-5d8f',
    );
    expect(unfinalize).toBeGreaterThan(Math.max(...patched));
    expect(gcSteps(r, undefined, 'grandchild')).toEqual([]);
    expect(gcSteps(r, 'delete')).toEqual([]);
  });

  it('R40 orphan-delete-ignores-blockownerdeletion: a blocking reference does not hold an Orphan delete', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o, { controller: true })] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/c<-uid-o']);
    expect(r.stuck).toEqual([]);
  });

  it('R40 orphaning-patches-terminating-dependents-too: a Terminating dependent loses its reference as well', () => {
    const o = cm('o', 'ns1');
    const dying = cm('dying', 'ns1', { owners: [bref(o)], finalizers: [HOLD], ...TERMINATING });
    const live = cm('live', 'ns1', { owners: [ref(o)] });
    const s = scenario(manifests(o, dying, live));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'dying')).toMatchObject({ beingDeleted: true, finalizers: [HOLD], ownerReferences: [] });
    expect(remainingOf(r, 'ConfigMap', 'live')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/dying<-uid-o', 'ConfigMap/live<-uid-o']);
  });
});

// =========================================================================================================
describe('R41 (and R33) the GC never touches objects without owners; stable cycles stay', () => {
  it('R41 two-object-cycle-no-deletion: two live objects owning each other are left alone', () => {
    const a = cm('a', 'ns1');
    const b = cm('b', 'ns1');
    a.owners = [bref(b)];
    b.owners = [bref(a)];
    const r = scenario(manifests(a, b)).simulate([]);
    expect(r.deleted).toEqual([]);
    expect(refUids(remainingOf(r, 'ConfigMap', 'a'))).toEqual(['uid-b']);
    expect(refUids(remainingOf(r, 'ConfigMap', 'b'))).toEqual(['uid-a']);
    expect(gcSteps(r)).toEqual([]);
  });

  it('R41 self-reference-no-deletion: an object owning itself is left alone', () => {
    const a = cm('a', 'ns1');
    a.owners = [bref(a, { controller: true })];
    const r = scenario(manifests(a)).simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'a')).toMatchObject({ beingDeleted: false, finalizers: [], ownerReferences: [{ uid: 'uid-a' }] });
    expect(gcSteps(r)).toEqual([]);
  });

  it('R33/R41: objects without owners are never touched by the GC, whatever finalizers they carry, while a cascade runs next to them', () => {
    const withFg = cm('with-foreground', 'ns1', { finalizers: ['foregroundDeletion'] });
    const withOrphan = cm('with-orphan', 'ns1', { finalizers: ['orphan'] });
    const withForeign = cm('with-foreign', 'ns1', { finalizers: [HOLD] });
    const dyingForeign = cm('dying-foreign', 'ns1', { finalizers: [HOLD], ...TERMINATING });
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)] });
    const s = scenario(manifests(withFg, withOrphan, withForeign, dyingForeign, o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o', 'ConfigMap/c']);
    expect(remainingOf(r, 'ConfigMap', 'with-foreground')).toMatchObject({ beingDeleted: false, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ConfigMap', 'with-orphan')).toMatchObject({ beingDeleted: false, finalizers: ['orphan'] });
    expect(remainingOf(r, 'ConfigMap', 'with-foreign')).toMatchObject({ beingDeleted: false, finalizers: [HOLD] });
    expect(remainingOf(r, 'ConfigMap', 'dying-foreign')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    // The GC's only target is c (its delete, and the removal that follows it); no ownerless object is touched.
    expect([...new Set(gcSteps(r).map((st) => st.target.name))]).toEqual(['c']);
  });

  it('R41: an ownerless object is modified by the GC only to remove its own GC finalizer', () => {
    const o = cm('o', 'ns1', { finalizers: [HOLD] });
    const s = scenario(manifests(o));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Orphan')]);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(gcSteps(r).map((st) => `${st.action} ${st.target.name}`)).toEqual(['remove-finalizer o']);
  });
});

// Part F of docs/gc-semantics.md (R47–R52): where the real GC is best-effort — Foreground deletion finishing
// while dependents remain, the cycle breaker's false positives, deadlocks nothing breaks, outcomes that depend
// on timing, and manifest-only states. Expectations come from gc-semantics.md and Kubernetes'
// garbagecollector.go / graph_builder.go / registry/store.go, never from the engine's output. Strict mode
// (--controllers=gc): only the apiserver and the GC act — no kubelet, no controller for foreign finalizers.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { HOLD, TERMINATING, manifests, ref, bref, obj, cm, pod, busybox } from '../../helpers/manifests';
import { remainingOf, stuckOf, isRemaining, sorted, orphanedPairs, allBlockTypes, blockedBy, gcSteps } from '../../helpers/results';

// =========================================================================================================
describe('R47 Foreground deletion can finish while dependents remain', () => {
  it('R47 non-blocking-dependents-do-not-block: the owner goes; non-blocking dependents are collected or, if stuck, stay', () => {
    const o = cm('o', 'ns1');
    const explicitFalse = cm('explicit-false', 'ns1', { owners: [ref(o, { blockOwnerDeletion: false })] });
    const unset = cm('unset', 'ns1', { owners: [ref(o)] });
    const stuck = cm('stuck', 'ns1', { owners: [ref(o, { blockOwnerDeletion: false })], finalizers: [HOLD] });
    const s = scenario(manifests(o, explicitFalse, unset, stuck));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(sorted(names(r.deleted))).toEqual(['ConfigMap/explicit-false', 'ConfigMap/o', 'ConfigMap/unset']);
    expect(sorted(names(r.remaining))).toEqual(['ConfigMap/stuck']);
    expect(remainingOf(r, 'ConfigMap', 'stuck')).toMatchObject({
      beingDeleted: true,
      finalizers: [HOLD],
      ownerReferences: [{ uid: 'uid-o' }],
    });
    expect(r.stuck.map((e) => e.name)).toEqual(['stuck']);
    expect(stuckOf(r, 'ConfigMap', 'stuck').blockedBy).toContainEqual(blockedBy('finalizer'));
  });

  it('R47: a dependent with a solid co-owner is not deleted; only its reference to the waiting owner is removed', () => {
    const o = cm('o', 'ns1');
    const p = cm('p', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o, { controller: true }), ref(p)] });
    const s = scenario(manifests(o, p, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-p' }] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/c<-uid-o']);
    expect(gcSteps(r, 'delete')).toEqual([]);
  });
});

// =========================================================================================================
describe('R48/R51 orphaning at start-up races with the graph', () => {
  it('R48/R51: an object already Terminating with orphan at start-up has dependents the orphan worker may not have seen yet: flagged in notes', () => {
    const o = cm('o', 'ns1', { finalizers: ['orphan'], ...TERMINATING });
    const c1 = cm('c1', 'ns1', { owners: [bref(o, { controller: true })] });
    const c2 = cm('c2', 'ns1', { owners: [ref(o)] });
    const s = scenario(manifests(o, c1, c2));
    const r = s.simulate([]);
    expect(names(r.deleted)).toContain('ConfigMap/o'); // in every interleaving the orphan finalizer goes
    expect(r.notes.length).toBeGreaterThan(0);
  });
});

// =========================================================================================================
describe('R49 the cycle breaker has false positives', () => {
  it('R49 cycle-detector-false-positive-lets-owner-finish-early: a dependent stuck after starting Foreground deletion unblocks the waiting owner, which finishes while the subtree remains', () => {
    // x once started Foreground deletion (observed with foregroundDeletion) and is now held by a foreign
    // finalizer: it stays deletingDependents (R18). It does not lead back to o, yet i's references get unblocked.
    const o = cm('o', 'ns1');
    const i = cm('i', 'ns1', { owners: [bref(o)] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: ['foregroundDeletion', HOLD], ...TERMINATING });
    const s = scenario(manifests(o, i, x));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toContain('ConfigMap/o');
    expect(r.stuck.map((e) => e.name)).not.toContain('o');
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({ beingDeleted: true, finalizers: [HOLD], ownerReferences: [{ uid: 'uid-i' }] });
    expect(gcSteps(r, 'patch-owner-references', 'i').length).toBeGreaterThan(0);
    expect(remainingOf(r, 'ConfigMap', 'i')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: false }],
    });
  });

  it('R49: with a foreign finalizer on the unblocked item, the owner finishes and the item stays Terminating with unblocked references', () => {
    const o = cm('o', 'ns1');
    const i = cm('i', 'ns1', { owners: [bref(o)], finalizers: ['example.com/keep'] });
    const x = cm('x', 'ns1', { owners: [bref(i)], finalizers: ['foregroundDeletion', HOLD], ...TERMINATING });
    const s = scenario(manifests(o, i, x));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/o']);
    expect(remainingOf(r, 'ConfigMap', 'i')).toMatchObject({
      beingDeleted: true,
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: false }],
    });
    expect(remainingOf(r, 'ConfigMap', 'i').finalizers).toContain('example.com/keep');
    expect(remainingOf(r, 'ConfigMap', 'x')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
  });

  it('R49/R36 three-object-cycle-foreground: the cycle breaker fires on the member whose dependent is the deleted object; all three go: b, then a, then c', () => {
    // a owns b, b owns c, c owns a; every reference blocking. Deleting a (Foreground) deletes b Foreground; c
    // (owner b waiting, dependent a deleting its dependents) is unblocked, and its DELETE, conflicting with that
    // patch, is retried at once while b still waits (R36): c is deleted Foreground and waits for a. b then has no
    // blocker and goes, so a has none and goes, and c goes last.
    const a = cm('a', 'ns1');
    const b = cm('b', 'ns1');
    const c = cm('c', 'ns1');
    b.owners = [bref(a)];
    c.owners = [bref(b)];
    a.owners = [bref(c)];
    const s = scenario(manifests(a, b, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'a', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/b', 'ConfigMap/a', 'ConfigMap/c']);
    expect(r.remaining).toEqual([]);
    expect(gcSteps(r, 'delete', 'c').map((st) => st.detail)).toEqual([expect.stringMatching(/Foreground/)]);
    expect(gcSteps(r, 'patch-owner-references', 'c').length).toBeGreaterThan(0);
    expect(gcSteps(r, 'patch-owner-references', 'b')).toEqual([]);
    expect(gcSteps(r, 'patch-owner-references', 'a')).toEqual([]);
  });
});

// =========================================================================================================
describe('R50 deadlocks that are not broken automatically', () => {
  it('R38/R50 blocking-dependent-with-foreign-finalizer-blocks-forever: the GC deletes the dependent, it stays Terminating, the owner waits forever', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)], finalizers: [HOLD] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(gcSteps(r, 'delete', 'c').length).toBe(1);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({
      beingDeleted: true,
      finalizers: [HOLD],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: true }],
    });
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'c'));
    expect(stuckOf(r, 'ConfigMap', 'c').blockedBy).toContainEqual(expect.objectContaining({ type: 'finalizer', finalizer: HOLD }));
  });

  it('R50 foreground-chain-stuck-on-foreign-finalizer: the wait propagates up a chain of Foreground deletes', () => {
    const d = obj('apps/v1', 'Deployment', 'ns1', 'web', { extra: { spec: { replicas: 1 } } });
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', {
      owners: [bref(d, { controller: true })],
      extra: { spec: { replicas: 1 } },
    });
    const p = pod('web-5d8f-x2x7q', 'ns1', { owners: [bref(rs, { controller: true })], finalizers: [HOLD], ...busybox() });
    const s = scenario(manifests(d, rs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'ReplicaSet', 'web-5d8f')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'Pod', 'web-5d8f-x2x7q')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    expect(sorted(r.stuck.map((e) => `${e.kind}/${e.name}`))).toEqual(['Deployment/web', 'Pod/web-5d8f-x2x7q', 'ReplicaSet/web-5d8f']);
    expect(stuckOf(r, 'Deployment', 'web').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'web-5d8f'));
    expect(stuckOf(r, 'ReplicaSet', 'web-5d8f').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'web-5d8f-x2x7q'));
    expect(stuckOf(r, 'Pod', 'web-5d8f-x2x7q').blockedBy).toContainEqual(blockedBy('finalizer'));
  });

  it('R30/R50 blocking-dependent-already-terminating: the GC neither re-deletes nor patches it, the owner waits forever', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [bref(o)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(gcSteps(r, undefined, 'c')).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({
      beingDeleted: true,
      finalizers: [HOLD],
      ownerReferences: [{ uid: 'uid-o', blockOwnerDeletion: true }],
    });
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(stuckOf(r, 'ConfigMap', 'o').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'c'));
  });

  it('R50 foreground-waits-for-graceful-pod-without-kubelet: the blocking Pod stays in graceful termination and its owner waits', () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', { extra: { spec: { replicas: 1 } } });
    const p = pod('web-5d8f-x2x7q', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox('node-1') });
    const s = scenario(manifests(rs, p));
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(gcSteps(r, 'delete', 'web-5d8f-x2x7q').length).toBe(1);
    expect(remainingOf(r, 'Pod', 'web-5d8f-x2x7q')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(remainingOf(r, 'ReplicaSet', 'web-5d8f')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(stuckOf(r, 'ReplicaSet', 'web-5d8f').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'web-5d8f-x2x7q'));
    expect(stuckOf(r, 'Pod', 'web-5d8f-x2x7q').blockedBy).toContainEqual(blockedBy('graceful-termination'));
    expect(r.steps.filter((st) => st.actor === 'kubelet')).toEqual([]);
  });

  it('R50 gc-initiated-graceful-pod-deletion-hangs: after a Background delete the GC deletes the scheduled Pod, which stays Terminating', () => {
    const rs = obj('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', { extra: { spec: { replicas: 1 } } });
    const p = pod('web-5d8f-x2x7q', 'ns1', { owners: [bref(rs, { controller: true })], ...busybox('node-1') });
    const s = scenario(manifests(rs, p));
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-5d8f', 'Background')]);
    expect(names(r.deleted)).toEqual(['ReplicaSet/web-5d8f']);
    expect(gcSteps(r, 'delete', 'web-5d8f-x2x7q').length).toBe(1);
    expect(remainingOf(r, 'Pod', 'web-5d8f-x2x7q')).toMatchObject({
      beingDeleted: true,
      finalizers: [],
      ownerReferences: [{ uid: 'uid-web-5d8f' }],
    });
    expect(r.stuck.map((e) => `${e.kind}/${e.name}`)).toEqual(['Pod/web-5d8f-x2x7q']);
    expect(stuckOf(r, 'Pod', 'web-5d8f-x2x7q').blockedBy).toContainEqual(blockedBy('graceful-termination'));
  });

  it('R50 self-reference-blocking-foreground-deadlock: an object that blocks itself never finishes a Foreground delete', () => {
    const a = cm('a', 'ns1');
    a.owners = [bref(a, { controller: true })];
    const s = scenario(manifests(a));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'a', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'a')).toMatchObject({
      beingDeleted: true,
      finalizers: ['foregroundDeletion'],
      ownerReferences: [{ uid: 'uid-a', blockOwnerDeletion: true }],
    });
    expect(stuckOf(r, 'ConfigMap', 'a').blockedBy).toContainEqual(blockedBy('waiting-for-dependents', 'a'));
    expect(gcSteps(r, 'patch-owner-references')).toEqual([]);
    expect(gcSteps(r, 'remove-finalizer')).toEqual([]);
  });

  it('R50: the same self reference does not deadlock when it is non-blocking, nor under a Background delete', () => {
    const loose = cm('loose', 'ns1');
    loose.owners = [ref(loose, { controller: true })];
    const tight = cm('tight', 'ns1');
    tight.owners = [bref(tight, { controller: true })];
    const s = scenario(manifests(loose, tight));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'loose', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'tight', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/loose', 'ConfigMap/tight']);
    expect(r.stuck).toEqual([]);
  });

  it('R50 (item 5): a blocking dependent whose other reference is unresolvable is never deleted, so its owner waits forever', () => {
    const o = cm('o', 'ns1');
    const c = cm('c', 'ns1', { owners: [{ apiVersion: 'unknown.group/v1', kind: 'Thing', name: 't', uid: 'uid-t' }, bref(o)] });
    const s = scenario(manifests(o, c));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-t' }, { uid: 'uid-o' }] });
    expect(gcSteps(r, undefined, 'c')).toEqual([]);
    const why = stuckOf(r, 'ConfigMap', 'o').blockedBy;
    expect(why).toContainEqual(blockedBy('waiting-for-dependents', 'c'));
    expect(allBlockTypes(why)).toContain('unresolvable-owner');
    expect(r.aborted).toBeUndefined();
  });

  it('R50 (item 6): a cluster-scoped blocking dependent of a namespaced owner is never deleted, so its owner waits forever', () => {
    const parent = obj('apps/v1', 'Deployment', 'ns1', 'parent', { extra: { spec: { replicas: 1 } } });
    const bad = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'bad', { owners: [bref(parent)], extra: { rules: [] } });
    const s = scenario(manifests(parent, bad));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'parent', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ClusterRole', 'bad')).toMatchObject({ beingDeleted: false, ownerReferences: [{ uid: 'uid-parent' }] });
    const why = stuckOf(r, 'Deployment', 'parent').blockedBy;
    expect(why).toContainEqual(blockedBy('waiting-for-dependents', 'bad'));
    expect(allBlockTypes(why)).toContain('invalid-scope');
  });
});

// =========================================================================================================
describe('R51 outcomes that depend on timing', () => {
  it('R51: Foreground owner, non-blocking intermediate with a stuck blocking dependent: the intermediate ends Terminating or deleted depending on order → notes', () => {
    const o = cm('o', 'ns1');
    const mid = cm('mid', 'ns1', { owners: [ref(o, { blockOwnerDeletion: false })] });
    const leaf = cm('leaf', 'ns1', { owners: [bref(mid)], finalizers: [HOLD] });
    const s = scenario(manifests(o, mid, leaf));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'o', 'Foreground')]);
    // Certain in every interleaving: o goes (nothing blocks it), leaf is deleted and held by its finalizer.
    expect(names(r.deleted)).toContain('ConfigMap/o');
    expect(remainingOf(r, 'ConfigMap', 'leaf')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
    if (isRemaining(r, 'ConfigMap', 'mid'))
      expect(remainingOf(r, 'ConfigMap', 'mid')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(r.notes.length).toBeGreaterThan(0);
  });
});

// =========================================================================================================
describe('R52 both GC finalizers on one object (manifest-only state)', () => {
  const o = cm('o', 'ns1', { finalizers: ['orphan', 'foregroundDeletion'], ...TERMINATING });
  const c = cm('c', 'ns1', { owners: [ref(o)] });

  it('R52: the analysis reports the object as invalid input (admission error invalid-finalizers)', () => {
    const fs = scenario(manifests(o, c)).findings();
    expect(fs).toContainEqual(
      expect.objectContaining({
        code: 'invalid-finalizers',
        severity: 'error',
        object: expect.objectContaining({ kind: 'ConfigMap', name: 'o' }),
      }),
    );
  });

  it('R52: the GC orphans (orphan wins), removes only orphan, and foregroundDeletion is never removed when nothing re-queues the object', () => {
    const s = scenario(manifests(o, c));
    const r = s.simulate([]);
    expect(remainingOf(r, 'ConfigMap', 'c')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(orphanedPairs(r)).toEqual(['ConfigMap/c<-uid-o']);
    expect(remainingOf(r, 'ConfigMap', 'o')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(r.stuck.map((e) => e.name)).toEqual(['o']);
    expect(r.deleted).toEqual([]);
  });
});

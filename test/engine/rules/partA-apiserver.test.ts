// Part A of docs/gc-semantics.md (R1–R11): what kube-apiserver does with a DELETE, driven through the
// strict simulation (R53: only the apiserver and the garbage collector act). Expectations come from the
// rule text and from Kubernetes' registry/store.go, rest/delete.go and the per-type strategies, never from
// the engine's output.

import { describe, it, expect } from 'vitest';
import { scenario, del, names } from '../../helpers/scenario';
import { type ObjectSpec, DELETING, manifests, ref, ctl, obj, cm, deploy, rs, namespace, pod, crd } from '../../helpers/manifests';
import { remainingOf, stuckOf, removedAt, refUids, sorted, blockTypes, waitedOn, stepsWhere, expectRejected } from '../../helpers/results';
import type { PropagationPolicy } from '../../../server/src/engine/simulation/types';

// ---------------------------------------------------------------------------------------------------

describe('R1: DeleteOptions are validated before anything else', () => {
  const web = deploy('web', 'ns1');
  const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
  const settings = cm('settings', 'ns1', { resourceVersion: '100' });
  const s = scenario(manifests(web, webRs, settings));

  it('R1: orphanDependents together with propagationPolicy is rejected with 422 and changes nothing', () => {
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background', { orphanDependents: true })]);
    expectRejected(r, 422, s);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: false, finalizers: [] });
  });

  it('R1: orphanDependents=false together with propagationPolicy=Foreground is rejected with 422 as well', () => {
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground', { orphanDependents: false })]);
    expectRejected(r, 422, s);
  });

  it('R1: a propagationPolicy other than Foreground/Background/Orphan is rejected with 422', () => {
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Cascade' as PropagationPolicy)]);
    expectRejected(r, 422, s);
  });

  it('R1: options are validated before the object is looked up (both-set options on a missing object give 422, not 404)', () => {
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'does-not-exist', 'Orphan', { orphanDependents: true })]);
    expectRejected(r, 422, s);
  });

  it('R1: a uid precondition that does not match the stored object gives 409 and leaves the store untouched', () => {
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background', { preconditions: { uid: 'uid-someone-else' } })]);
    expectRejected(r, 409, s);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs').ownerReferences.map((x) => x.uid)).toEqual(['uid-web']);
  });

  it('R1: a resourceVersion precondition that does not match the stored object gives 409', () => {
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Background', { preconditions: { resourceVersion: '99' } })]);
    expectRejected(r, 409, s);
  });

  it('R1: a matching uid precondition is accepted and the delete proceeds', () => {
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Background', { preconditions: { uid: 'uid-settings' } })]);
    expect(names(r.deleted)).toEqual(['ConfigMap/settings']);
    expect(r.steps.some((x) => x.action === 'reject')).toBe(false);
  });

  it('R1: deleting an object that does not exist gives 404', () => {
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'nope', 'Background')]);
    expectRejected(r, 404, s);
  });

  it('R1: deleting an object of that name in another namespace gives 404', () => {
    const r = s.simulate([del('v1', 'ConfigMap', 'ns2', 'settings', 'Background')]);
    expectRejected(r, 404, s);
  });

  it('R1: a negative gracePeriodSeconds is treated as 1, so a scheduled Pod is not removed at once (strict mode keeps it Terminating)', () => {
    const p = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = p.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background', { gracePeriodSeconds: -5 })]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(blockTypes(stuckOf(r, 'Pod', 'api-0'))).toContain('graceful-termination');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R2–R4: which GC finalizer a DELETE leaves on the object', () => {
  it('R2: orphanDependents=true orphans even through apps/v1, whose Deployment default is background', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(web, webRs));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', null, { orphanDependents: true })]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
  });

  it('R2: orphanDependents=false beats the orphan default of a batch/v1 Job (background: Job first, then its Pod)', () => {
    const job: ObjectSpec = { apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', namespace: 'ns1', uid: 'uid-migrate' };
    const p = pod('migrate-abc', 'ns1', { owners: [ctl(job)] });
    const s = scenario(manifests(job, p));
    const r = s.simulate([del('batch/v1', 'Job', 'ns1', 'migrate', null, { orphanDependents: false })]);
    expect(names(r.deleted)).toEqual(['Job/migrate', 'Pod/migrate-abc']);
    expect(r.orphaned).toEqual([]);
  });

  it('R3: orphanDependents=false is never foreground, even when the object already carries foregroundDeletion: the finalizer is dropped and the delete is background', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['foregroundDeletion'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', null, { orphanDependents: false })]);
    // Background: the owner leaves storage at once, the dependent is collected afterwards.
    expect(names(r.deleted)).toEqual(['ConfigMap/owner', 'ConfigMap/dep']);
  });

  it('R3: a Background request on an object carrying foregroundDeletion drops it (owner before dependent)', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['foregroundDeletion'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner', 'ConfigMap/dep']);
  });

  it('R2/R3: a bare DELETE follows the first GC finalizer already on the object (stored orphan on a ConfigMap → orphan)', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/audit', 'orphan'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', null)]);
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    // The orphan finalizer was honoured and removed; the foreign one stays forever (R10).
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/audit'] });
    expect(r.orphaned).toMatchObject([{ kind: 'ConfigMap', name: 'dep', ownerUID: 'uid-owner' }]);
  });

  it('R4 foreground-request-replaces-orphan-finalizer: a stored orphan finalizer is replaced by foregroundDeletion on a Foreground request', () => {
    const web = deploy('web', 'ns1', { finalizers: ['orphan'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['Pod/web-rs-x1', 'ReplicaSet/web-rs', 'Deployment/web']);
    expect(r.orphaned).toEqual([]);
    expect(r.remaining).toEqual([]);
  });

  it('R4 orphan-request-replaces-foreground-finalizer: a stored foregroundDeletion is swapped for orphan on an Orphan request', () => {
    const web = deploy('web', 'ns1', { finalizers: ['foregroundDeletion'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false, ownerReferences: [], finalizers: [] });
    // Orphaning only touches direct dependents (R40).
    expect(refUids(remainingOf(r, 'Pod', 'web-rs-x1'))).toEqual(['uid-web-rs']);
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
  });

  it('R4 explicit-background-overrides-orphan-finalizer: a stored orphan finalizer is dropped on a Background request', () => {
    const web = deploy('web', 'ns1', { finalizers: ['orphan'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs', 'Pod/web-rs-x1']);
    expect(r.orphaned).toEqual([]);
    expect(r.remaining).toEqual([]);
  });

  it('R4: the other finalizers keep their order and the GC finalizer is appended at the end (held by a stuck blocking dependent)', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/first', 'orphan', 'example.com/second'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/hold'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({
      beingDeleted: true,
      finalizers: ['example.com/first', 'example.com/second', 'foregroundDeletion'],
    });
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(refUids(remainingOf(r, 'ConfigMap', 'dep'))).toEqual(['uid-owner']);
    expect(blockTypes(stuckOf(r, 'ConfigMap', 'owner'))).toContain('waiting-for-dependents');
  });

  it('R4: orphanDependents=false drops a stored orphan finalizer and keeps the others in order', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/a', 'orphan', 'example.com/b'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', null, { orphanDependents: false })]);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/a', 'example.com/b'] });
    // Terminating without foregroundDeletion: a solid owner (R10/R34), the dependent is kept and not orphaned.
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: false });
    expect(refUids(remainingOf(r, 'ConfigMap', 'dep'))).toEqual(['uid-owner']);
    expect(r.orphaned).toEqual([]);
    expect(r.deleted).toEqual([]);
  });

  it('R4: when the rewritten finalizer set equals the stored set, the stored list (and its order) is kept', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['foregroundDeletion', 'example.com/a'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/hold'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion', 'example.com/a'] });
  });

  it('R4 stress-collections-policy-matrix: every (stored GC finalizer × request options) pair resolves per R2–R4', () => {
    type Mode = 'foreground' | 'background' | 'orphan';
    const stored: Record<string, string[]> = { none: [], orphan: ['orphan'], fg: ['foregroundDeletion'] };
    const requests: Record<string, { policy: PropagationPolicy | null; orphanDependents?: boolean }> = {
      fore: { policy: 'Foreground' },
      back: { policy: 'Background' },
      orph: { policy: 'Orphan' },
      bare: { policy: null },
      odtrue: { policy: null, orphanDependents: true },
      odfalse: { policy: null, orphanDependents: false },
    };
    const expected = (st: string, rq: string): Mode => {
      if (rq === 'fore') return 'foreground';
      if (rq === 'back' || rq === 'odfalse') return 'background';
      if (rq === 'orph' || rq === 'odtrue') return 'orphan';
      // bare: first stored GC finalizer, else the ConfigMap default (background)
      return st === 'orphan' ? 'orphan' : st === 'fg' ? 'foreground' : 'background';
    };
    const objs: ObjectSpec[] = [];
    const reqs = [];
    const cases: { owner: string; mode: Mode }[] = [];
    for (const st of Object.keys(stored)) {
      for (const rq of Object.keys(requests)) {
        const owner = cm(`o-${st}-${rq}`, 'matrix', { finalizers: stored[st] });
        objs.push(owner);
        objs.push(cm(`o-${st}-${rq}-blocking`, 'matrix', { owners: [ctl(owner)] }));
        objs.push(cm(`o-${st}-${rq}-plain`, 'matrix', { owners: [ref(owner)] }));
        const q = requests[rq];
        reqs.push(
          del(
            'v1',
            'ConfigMap',
            'matrix',
            owner.name,
            q.policy,
            q.orphanDependents === undefined ? {} : { orphanDependents: q.orphanDependents },
          ),
        );
        cases.push({ owner: owner.name, mode: expected(st, rq) });
      }
    }
    const s = scenario(manifests(...objs));
    const r = s.simulate(reqs);
    expect(r.steps.filter((x) => x.action === 'reject')).toEqual([]);
    const orphanedNames: string[] = [];
    for (const c of cases) {
      const ownerAt = removedAt(r, 'ConfigMap', c.owner);
      if (c.mode === 'orphan') {
        for (const d of [`${c.owner}-blocking`, `${c.owner}-plain`]) {
          expect(remainingOf(r, 'ConfigMap', d), `${d}`).toMatchObject({ beingDeleted: false, ownerReferences: [] });
          orphanedNames.push(d);
        }
      } else {
        const blockingAt = removedAt(r, 'ConfigMap', `${c.owner}-blocking`);
        removedAt(r, 'ConfigMap', `${c.owner}-plain`);
        if (c.mode === 'foreground') expect(blockingAt, `${c.owner}: blocking dependent goes first`).toBeLessThan(ownerAt);
        else expect(ownerAt, `${c.owner}: owner goes first`).toBeLessThan(blockingAt);
      }
    }
    expect(sorted(r.orphaned.map((o) => o.name))).toEqual(sorted(orphanedNames));
    expect(r.remaining.every((x) => orphanedNames.includes(x.name))).toBe(true);
    expect(r.stuck).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R5: per-type default policy of a bare DELETE', () => {
  it('R5 null-policy-replicationcontroller-orphans: a bare DELETE of a v1 ReplicationController orphans its Pods', () => {
    const rc: ObjectSpec = { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', namespace: 'ns1', uid: 'uid-legacy' };
    const p1 = pod('legacy-a', 'ns1', { owners: [ctl(rc)] });
    const p2 = pod('legacy-b', 'ns1', { owners: [ctl(rc)] });
    const s = scenario(manifests(rc, p1, p2));
    const r = s.simulate([del('v1', 'ReplicationController', 'ns1', 'legacy', null)]);
    expect(names(r.deleted)).toEqual(['ReplicationController/legacy']);
    for (const n of ['legacy-a', 'legacy-b']) expect(remainingOf(r, 'Pod', n)).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(sorted(r.orphaned.map((o) => `${o.kind}/${o.name}@${o.ownerUID}`))).toEqual([
      'Pod/legacy-a@uid-legacy',
      'Pod/legacy-b@uid-legacy',
    ]);
  });

  it('R5 null-policy-batch-v1-job-orphans: a bare DELETE of a batch/v1 Job orphans its Pods', () => {
    const job: ObjectSpec = { apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', namespace: 'ns1', uid: 'uid-migrate' };
    const p = pod('migrate-abc', 'ns1', { owners: [ctl(job)], phase: 'Succeeded', nodeName: 'node-1' });
    const s = scenario(manifests(job, p));
    const r = s.simulate([del('batch/v1', 'Job', 'ns1', 'migrate', null)]);
    expect(names(r.deleted)).toEqual(['Job/migrate']);
    expect(remainingOf(r, 'Pod', 'migrate-abc')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(r.orphaned).toMatchObject([{ kind: 'Pod', name: 'migrate-abc', ownerUID: 'uid-migrate' }]);
  });

  it('R5 null-policy-apps-v1-deployment-is-background: a bare DELETE of an apps/v1 Deployment is background', () => {
    const web = deploy('web', 'ns1');
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', null)]);
    // Background, not foreground (R3.5): the Deployment leaves first, then the GC collects downwards.
    expect(names(r.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-rs', 'Pod/web-rs-x1']);
    expect(r.orphaned).toEqual([]);
  });

  it('R5 null-policy-cronjob-background-and-gc-explicit-policy: a bare CronJob DELETE is background, and the GC deletes the Job with an explicit Background policy, so the Job orphan default never applies', () => {
    const cron: ObjectSpec = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', namespace: 'ns1', uid: 'uid-nightly' };
    const job: ObjectSpec = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'nightly-28500000',
      namespace: 'ns1',
      uid: 'uid-nightly-job',
      owners: [ctl(cron)],
    };
    const p = pod('nightly-28500000-q', 'ns1', { owners: [ctl(job)] });
    const s = scenario(manifests(cron, job, p));
    const r = s.simulate([del('batch/v1', 'CronJob', 'ns1', 'nightly', null)]);
    expect(names(r.deleted)).toEqual(['CronJob/nightly', 'Job/nightly-28500000', 'Pod/nightly-28500000-q']);
    expect(r.orphaned).toEqual([]);
    expect(stepsWhere(r, { kind: 'Job', name: 'nightly-28500000', actor: 'garbage-collector', action: 'delete' })).toHaveLength(1);
  });

  it('R5 existing-orphan-finalizer-beats-resource-default: a Deployment carrying orphan is orphaned by a bare DELETE', () => {
    const web = deploy('web', 'ns1', { finalizers: ['orphan'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', null)]);
    expect(names(r.deleted)).toEqual(['Deployment/web']);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(remainingOf(r, 'Pod', 'web-rs-x1')).toMatchObject({ beingDeleted: false });
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
  });

  it('R5 existing-foreground-finalizer-beats-job-orphan-default: a Job carrying foregroundDeletion is deleted in foreground by a bare DELETE', () => {
    const job: ObjectSpec = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'migrate',
      namespace: 'ns1',
      uid: 'uid-migrate',
      finalizers: ['foregroundDeletion'],
    };
    const p = pod('migrate-abc', 'ns1', { owners: [ctl(job)] });
    const s = scenario(manifests(job, p));
    const r = s.simulate([del('batch/v1', 'Job', 'ns1', 'migrate', null)]);
    expect(names(r.deleted)).toEqual(['Pod/migrate-abc', 'Job/migrate']);
    expect(r.orphaned).toEqual([]);
  });

  it('R5: a bare DELETE through GA versions is background for ReplicaSet, DaemonSet, StatefulSet and a custom resource', () => {
    const owners: ObjectSpec[] = [
      rs('lone-rs', 'ns1'),
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', namespace: 'ns1', uid: 'uid-agent' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', namespace: 'ns1', uid: 'uid-db' },
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'gadget', namespace: 'ns1', uid: 'uid-gadget' },
    ];
    const pods = owners.map((o) => pod(`${o.name}-0`, 'ns1', { owners: [ctl(o)] }));
    const s = scenario(
      manifests(crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }]), ...owners, ...pods),
    );
    const r = s.simulate(owners.map((o) => del(o.apiVersion, o.kind, 'ns1', o.name, null)));
    expect(r.orphaned).toEqual([]);
    for (const o of owners) expect(removedAt(r, o.kind, o.name)).toBeLessThan(removedAt(r, 'Pod', `${o.name}-0`));
    expect(names(r.remaining)).toEqual(['CustomResourceDefinition/widgets.example.com']);
  });

  it('R5: the GC deletes a ReplicationController it collects with an explicit Background policy, so its Pods are collected too', () => {
    const holder = cm('holder', 'ns1');
    const rc: ObjectSpec = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'legacy',
      namespace: 'ns1',
      uid: 'uid-legacy',
      owners: [ctl(holder)],
    };
    const p = pod('legacy-a', 'ns1', { owners: [ctl(rc)] });
    const s = scenario(manifests(holder, rc, p));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'holder', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/holder', 'ReplicationController/legacy', 'Pod/legacy-a']);
    expect(r.orphaned).toEqual([]);
    expect(stepsWhere(r, { kind: 'ReplicationController', name: 'legacy', actor: 'garbage-collector', action: 'delete' })).toHaveLength(1);
  });

  it('R5: Events never get GC finalizers (Foreground and Orphan requests on Events held by a foreign finalizer)', () => {
    const ev = (name: string): ObjectSpec =>
      obj('v1', 'Event', 'ns1', name, {
        finalizers: ['example.com/keep'],
        extra: { involvedObject: { kind: 'Pod', name: 'api-0', namespace: 'ns1' }, reason: 'Started', message: 'started' },
      });
    const s = scenario(manifests(ev('ev-fore'), ev('ev-orphan'), ev('ev-od')));
    const r = s.simulate([
      del('v1', 'Event', 'ns1', 'ev-fore', 'Foreground'),
      del('v1', 'Event', 'ns1', 'ev-orphan', 'Orphan'),
      del('v1', 'Event', 'ns1', 'ev-od', null, { orphanDependents: true }),
    ]);
    for (const n of ['ev-fore', 'ev-orphan', 'ev-od']) {
      expect(remainingOf(r, 'Event', n)).toMatchObject({ beingDeleted: true, finalizers: ['example.com/keep'] });
    }
    expect(r.steps.filter((x) => x.action === 'add-finalizer' || x.action === 'remove-finalizer')).toEqual([]);
  });

  it('R5: an Event without finalizers leaves storage at once even on a Foreground request (no foregroundDeletion to wait on)', () => {
    const s = scenario(manifests(obj('v1', 'Event', 'ns1', 'ev', { extra: { reason: 'Started', message: 'started' } })));
    const r = s.simulate([del('v1', 'Event', 'ns1', 'ev', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['Event/ev']);
    expect(r.steps.filter((x) => x.actor === 'garbage-collector')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R6: graceful deletion of Pods', () => {
  it('R6: a Pod that was never scheduled (no spec.nodeName) is removed at once', () => {
    const s = scenario(manifests(pod('pending', 'ns1', { phase: 'Pending' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'pending', 'Background')]);
    expect(names(r.deleted)).toEqual(['Pod/pending']);
    expect(r.remaining).toEqual([]);
  });

  it('R6: a scheduled Pod is only marked Terminating; with no kubelet (strict mode) it stays', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(blockTypes(stuckOf(r, 'Pod', 'api-0'))).toEqual(['graceful-termination']);
  });

  it('R6: a Succeeded Pod is removed at once even when it is scheduled', () => {
    const s = scenario(manifests(pod('done', 'ns1', { nodeName: 'node-1', phase: 'Succeeded' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'done', 'Background')]);
    expect(names(r.deleted)).toEqual(['Pod/done']);
  });

  it('R6: a Failed Pod is removed at once even when it is scheduled', () => {
    const s = scenario(manifests(pod('crashed', 'ns1', { nodeName: 'node-1', phase: 'Failed' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'crashed', null)]);
    expect(names(r.deleted)).toEqual(['Pod/crashed']);
  });

  it('R6: gracePeriodSeconds 0 in the request removes a scheduled Pod at once', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background', { gracePeriodSeconds: 0 })]);
    expect(names(r.deleted)).toEqual(['Pod/api-0']);
  });

  it('R6: spec.terminationGracePeriodSeconds 0 removes a scheduled Pod at once when the request names no period', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running', grace: 0 })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background')]);
    expect(names(r.deleted)).toEqual(['Pod/api-0']);
  });

  it('R6: the request period overrides spec.terminationGracePeriodSeconds (0 in the spec, 30 in the request → stays Terminating)', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running', grace: 0 })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background', { gracePeriodSeconds: 30 })]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true });
  });

  it('R6: only Pods are graceful: gracePeriodSeconds on a ConfigMap does not delay its removal', () => {
    const s = scenario(manifests(cm('settings', 'ns1')));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Background', { gracePeriodSeconds: 60 })]);
    expect(names(r.deleted)).toEqual(['ConfigMap/settings']);
  });

  it('R6: GC-collected Pods follow the same split: unscheduled ones go, scheduled ones stay Terminating', () => {
    const owner = rs('web-rs', 'ns1');
    const s = scenario(
      manifests(
        owner,
        pod('web-rs-pending', 'ns1', { owners: [ctl(owner)], phase: 'Pending' }),
        pod('web-rs-running', 'ns1', { owners: [ctl(owner)], nodeName: 'node-1', phase: 'Running' }),
        pod('web-rs-done', 'ns1', { owners: [ctl(owner)], nodeName: 'node-1', phase: 'Succeeded' }),
      ),
    );
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Background')]);
    expect(names(r.deleted)[0]).toBe('ReplicaSet/web-rs');
    expect(sorted(names(r.deleted))).toEqual(['Pod/web-rs-done', 'Pod/web-rs-pending', 'ReplicaSet/web-rs']);
    expect(names(r.remaining)).toEqual(['Pod/web-rs-running']);
    expect(remainingOf(r, 'Pod', 'web-rs-running')).toMatchObject({ beingDeleted: true, finalizers: [] });
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R7: repeated DELETE of an object that is already terminating', () => {
  it('R7 double-foreground-delete-with-foreign-finalizer: the second Foreground DELETE re-adds foregroundDeletion, which the GC removes again', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/hold'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/dep']);
    expect(r.steps.filter((x) => x.action === 'reject')).toEqual([]);
    expect(stepsWhere(r, { kind: 'ConfigMap', name: 'owner', actor: 'apiserver', action: 'delete' })).toHaveLength(2);
    // Each accepted Foreground request left foregroundDeletion on the owner; each time the GC took it away.
    expect(stepsWhere(r, { kind: 'ConfigMap', name: 'owner', actor: 'garbage-collector', action: 'remove-finalizer' })).toHaveLength(2);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(blockTypes(stuckOf(r, 'ConfigMap', 'owner'))).toEqual(['finalizer']);
  });

  it('R7: a Foreground DELETE of an owner already Terminating on a foreign finalizer (deleted Background before) re-adds foregroundDeletion and its dependents are collected', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/hold'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const first = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background')]);
    // After the Background request alone: the owner is Terminating but solid, its dependent stays (R10).
    expect(first.deleted).toEqual([]);
    expect(remainingOf(first, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: false });
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background'), del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/dep']);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });

  it('R7: the same holds for an owner that is Terminating in the input (no GC finalizer, foreign finalizer only)', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/hold'], ...DELETING, deletionGracePeriodSeconds: 0 });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    expect(s.simulate([]).deleted).toEqual([]);
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/dep']);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });

  it('R7: an Orphan DELETE of an owner waiting in foreground on a stuck dependent swaps foregroundDeletion for orphan and the owner goes', () => {
    const owner = cm('owner', 'ns1');
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/hold'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'owner', 'Orphan')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    // R40: terminating dependents are patched too.
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'], ownerReferences: [] });
    expect(r.orphaned).toMatchObject([{ kind: 'ConfigMap', name: 'dep', ownerUID: 'uid-owner' }]);
  });

  it('R7: a Background DELETE of an owner waiting in foreground drops foregroundDeletion and the owner goes at once', () => {
    const owner = cm('owner', 'ns1');
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/hold'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Foreground'), del('v1', 'ConfigMap', 'ns1', 'owner', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    // The dependent was already Terminating (R30): nothing more happens to it, it keeps its finalizer.
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });

  it('R7: a repeated DELETE of a Pod still inside its grace period changes nothing (no foregroundDeletion is added, dependents stay)', () => {
    const p = pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' });
    const dep = cm('api-0-cache', 'ns1', { owners: [ctl(p)] });
    const s = scenario(manifests(p, dep));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background'), del('v1', 'Pod', 'ns1', 'api-0', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(remainingOf(r, 'ConfigMap', 'api-0-cache')).toMatchObject({ beingDeleted: false });
    expect(refUids(remainingOf(r, 'ConfigMap', 'api-0-cache'))).toEqual(['uid-api-0']);
    expect(stepsWhere(r, { kind: 'Pod', name: 'api-0', action: 'add-finalizer' })).toEqual([]);
  });

  it('R7: a repeated DELETE with a shorter grace period (0) finishes a Terminating Pod', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = s.simulate([
      del('v1', 'Pod', 'ns1', 'api-0', 'Background'),
      del('v1', 'Pod', 'ns1', 'api-0', null, { gracePeriodSeconds: 0 }),
    ]);
    expect(names(r.deleted)).toEqual(['Pod/api-0']);
    expect(r.remaining).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R8: outcome of a DELETE after the finalizer rewrite', () => {
  it('R8: a non-graceful object with a finalizer left is only marked Terminating', () => {
    const s = scenario(manifests(cm('settings', 'ns1', { finalizers: ['example.com/hold'] })));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ConfigMap', 'settings')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    const st = stuckOf(r, 'ConfigMap', 'settings');
    expect(blockTypes(st)).toEqual(['finalizer']);
    expect(st.blockedBy[0].finalizer).toBe('example.com/hold');
  });

  it('R8: a non-graceful object without finalizers leaves storage at once, through the apiserver alone', () => {
    const s = scenario(manifests(cm('settings', 'ns1')));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Orphan')]);
    // Orphan on an object without dependents still adds the orphan finalizer, which the GC then removes;
    // with Background the apiserver removes it by itself:
    const b = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Background')]);
    expect(names(b.deleted)).toEqual(['ConfigMap/settings']);
    expect(b.steps.filter((x) => x.actor !== 'apiserver')).toEqual([]);
    expect(names(r.deleted)).toEqual(['ConfigMap/settings']);
  });

  it('R8 graceful-pod-deletion-without-kubelet: a scheduled Pod deleted directly stays Terminating with no finalizers', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', null)]);
    expect(r.deleted).toEqual([]);
    expect(r.remaining).toMatchObject([{ kind: 'Pod', name: 'api-0', beingDeleted: true, finalizers: [] }]);
    expect(blockTypes(stuckOf(r, 'Pod', 'api-0'))).toEqual(['graceful-termination']);
  });

  it('R8 gc-initiated-graceful-pod-deletion-hangs: the GC deletes a scheduled Pod of a Background-deleted ReplicaSet, and the Pod stays Terminating', () => {
    const owner = rs('web-rs', 'ns1');
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(owner)], nodeName: 'node-1', phase: 'Running' });
    const s = scenario(manifests(owner, p));
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Background')]);
    expect(names(r.deleted)).toEqual(['ReplicaSet/web-rs']);
    expect(stepsWhere(r, { kind: 'Pod', name: 'web-rs-x1', actor: 'garbage-collector', action: 'delete' })).toHaveLength(1);
    expect(remainingOf(r, 'Pod', 'web-rs-x1')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(blockTypes(stuckOf(r, 'Pod', 'web-rs-x1'))).toEqual(['graceful-termination']);
  });

  it('R8 foreground-waits-for-graceful-pod-without-kubelet: a Foreground owner waits forever for its Terminating Pod', () => {
    const owner = rs('web-rs', 'ns1');
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(owner)], nodeName: 'node-1', phase: 'Running' });
    const s = scenario(manifests(owner, p));
    const r = s.simulate([del('apps/v1', 'ReplicaSet', 'ns1', 'web-rs', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: true, finalizers: ['foregroundDeletion'] });
    expect(remainingOf(r, 'Pod', 'web-rs-x1')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(refUids(remainingOf(r, 'Pod', 'web-rs-x1'))).toEqual(['uid-web-rs']);
    const owned = stuckOf(r, 'ReplicaSet', 'web-rs');
    expect(blockTypes(owned)).toContain('waiting-for-dependents');
    expect(waitedOn(owned)).toEqual(['Pod/web-rs-x1']);
    expect(blockTypes(stuckOf(r, 'Pod', 'web-rs-x1'))).toEqual(['graceful-termination']);
  });

  it('R8: a Pod that was never scheduled but carries a foreign finalizer stays Terminating with that finalizer', () => {
    const s = scenario(manifests(pod('pending', 'ns1', { finalizers: ['example.com/hold'] })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'pending', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'pending')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(blockTypes(stuckOf(r, 'Pod', 'pending'))).toEqual(['finalizer']);
  });

  it('R8: a scheduled Pod with a foreign finalizer keeps it while Terminating', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running', finalizers: ['example.com/hold'] })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R9: removal through finalizer removal', () => {
  it('R9: when the GC removes the last finalizer (foregroundDeletion) of a terminating ConfigMap, it leaves storage', () => {
    const s = scenario(manifests(cm('settings', 'ns1')));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'settings', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/settings']);
    const removeFin = stepsWhere(r, { kind: 'ConfigMap', name: 'settings', actor: 'garbage-collector', action: 'remove-finalizer' });
    expect(removeFin).toHaveLength(1);
    expect(r.deleted[0].step).toBeGreaterThanOrEqual(removeFin[0].step);
  });

  it('R9: an unscheduled Pod deleted in Foreground leaves storage once its foregroundDeletion is removed (grace period 0)', () => {
    const s = scenario(manifests(pod('pending', 'ns1')));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'pending', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['Pod/pending']);
  });

  it('R9: a scheduled Pod whose foregroundDeletion is removed does not leave storage: its grace period is still positive', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running' })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', 'Foreground')]);
    expect(r.deleted).toEqual([]);
    expect(stepsWhere(r, { kind: 'Pod', name: 'api-0', actor: 'garbage-collector', action: 'remove-finalizer' })).toHaveLength(1);
    expect(remainingOf(r, 'Pod', 'api-0')).toMatchObject({ beingDeleted: true, finalizers: [] });
    expect(blockTypes(stuckOf(r, 'Pod', 'api-0'))).toEqual(['graceful-termination']);
  });

  it('R9: removing the orphan finalizer of an owner that keeps a foreign one does not remove it', () => {
    const owner = cm('owner', 'ns1', { finalizers: ['example.com/hold'] });
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Orphan')]);
    expect(r.deleted).toEqual([]);
    expect(stepsWhere(r, { kind: 'ConfigMap', name: 'owner', actor: 'garbage-collector', action: 'remove-finalizer' })).toHaveLength(1);
    expect(remainingOf(r, 'ConfigMap', 'owner')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R10: foreign finalizers are never removed by the GC', () => {
  it('R10 background-delete-of-owner-with-foreign-finalizer: the owner stays Terminating and, being solid, keeps its dependents', () => {
    const web = deploy('web', 'ns1', { finalizers: ['example.com/hold'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Background')]);
    expect(r.deleted).toEqual([]);
    expect(r.orphaned).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false });
    expect(refUids(remainingOf(r, 'ReplicaSet', 'web-rs'))).toEqual(['uid-web']);
    expect(remainingOf(r, 'Pod', 'web-rs-x1')).toMatchObject({ beingDeleted: false });
    const st = stuckOf(r, 'Deployment', 'web');
    expect(blockTypes(st)).toEqual(['finalizer']);
    expect(st.blockedBy[0].finalizer).toBe('example.com/hold');
    expect(names(r.stuck)).toEqual(['Deployment/web']);
  });

  it('R10 orphan-delete-of-owner-with-foreign-finalizer: dependents are orphaned, only orphan is removed, the owner stays', () => {
    const web = deploy('web', 'ns1', { finalizers: ['example.com/hold'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const s = scenario(manifests(web, webRs));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Orphan')]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(blockTypes(stuckOf(r, 'Deployment', 'web'))).toEqual(['finalizer']);
  });

  it('R10 terminating-with-orphan-and-foreign-finalizer: an owner Terminating in the input with orphan and a foreign finalizer is orphaned at start and keeps the foreign one', () => {
    const web = deploy('web', 'ns1', { finalizers: ['example.com/hold', 'orphan'], ...DELETING, deletionGracePeriodSeconds: 0 });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Deployment', 'web')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/hold'] });
    expect(remainingOf(r, 'ReplicaSet', 'web-rs')).toMatchObject({ beingDeleted: false, ownerReferences: [] });
    expect(refUids(remainingOf(r, 'Pod', 'web-rs-x1'))).toEqual(['uid-web-rs']);
    expect(r.orphaned).toMatchObject([{ kind: 'ReplicaSet', name: 'web-rs', ownerUID: 'uid-web' }]);
  });

  it('R10: a Foreground delete of an owner with a foreign finalizer collects its dependents and removes only foregroundDeletion', () => {
    const web = deploy('web', 'ns1', { finalizers: ['example.com/hold'] });
    const webRs = rs('web-rs', 'ns1', { owners: [ctl(web)] });
    const p = pod('web-rs-x1', 'ns1', { owners: [ctl(webRs)] });
    const s = scenario(manifests(web, webRs, p));
    const r = s.simulate([del('apps/v1', 'Deployment', 'ns1', 'web', 'Foreground')]);
    expect(names(r.deleted)).toEqual(['Pod/web-rs-x1', 'ReplicaSet/web-rs']);
    expect(r.remaining).toMatchObject([{ kind: 'Deployment', name: 'web', beingDeleted: true, finalizers: ['example.com/hold'] }]);
  });

  it('R10: a dependent with a foreign finalizer collected by the GC keeps it and stays Terminating', () => {
    const owner = cm('owner', 'ns1');
    const dep = cm('dep', 'ns1', { owners: [ctl(owner)], finalizers: ['example.com/a', 'example.com/b'] });
    const s = scenario(manifests(owner, dep));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns1', 'owner', 'Background')]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    expect(remainingOf(r, 'ConfigMap', 'dep')).toMatchObject({ beingDeleted: true, finalizers: ['example.com/a', 'example.com/b'] });
    expect(r.steps.filter((x) => x.actor === 'garbage-collector' && x.action === 'remove-finalizer')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R11: Namespaces', () => {
  it('R11: a deleted Namespace stays Terminating in strict mode (namespace-controller) and its contents are untouched', () => {
    const s = scenario(
      manifests(
        namespace('shop'),
        cm('settings', 'shop'),
        deploy('web', 'shop'),
        pod('api-0', 'shop', { nodeName: 'node-1', phase: 'Running' }),
      ),
    );
    const r = s.simulate([del('v1', 'Namespace', '', 'shop', null)]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Namespace', 'shop')).toMatchObject({ namespace: '', beingDeleted: true });
    expect(blockTypes(stuckOf(r, 'Namespace', 'shop'))).toContain('namespace-controller');
    for (const [k, n] of [
      ['ConfigMap', 'settings'],
      ['Deployment', 'web'],
      ['Pod', 'api-0'],
    ]) {
      expect(remainingOf(r, k, n), `${k}/${n}`).toMatchObject({ beingDeleted: false });
    }
    expect(names(r.stuck)).toEqual(['Namespace/shop']);
    expect(r.steps.filter((x) => x.target.kind !== 'Namespace')).toEqual([]);
  });

  it('R11: a Namespace already Terminating in the input stays, with its contents, when no request is made', () => {
    const s = scenario(manifests(namespace('old', { ...DELETING, phase: 'Terminating' }), cm('leftover', 'old')));
    const r = s.simulate([]);
    expect(r.deleted).toEqual([]);
    expect(remainingOf(r, 'Namespace', 'old')).toMatchObject({ beingDeleted: true });
    expect(blockTypes(stuckOf(r, 'Namespace', 'old'))).toContain('namespace-controller');
    expect(remainingOf(r, 'ConfigMap', 'leftover')).toMatchObject({ beingDeleted: false });
  });
});

// ---------------------------------------------------------------------------------------------------

describe('R55: default, kube-system and kube-public may not be deleted', () => {
  const s = scenario(
    manifests(
      namespace('default'),
      namespace('kube-system'),
      namespace('kube-public'),
      namespace('kube-node-lease'),
      cm('settings', 'default'),
      cm('lease-cm', 'kube-node-lease'),
    ),
  );

  for (const name of ['default', 'kube-system', 'kube-public']) {
    it(`R55: DELETE Namespace ${name} is refused with 403 (NamespaceLifecycle admission) and changes nothing`, () => {
      for (const policy of [null, 'Background', 'Foreground', 'Orphan'] as const) {
        const r = s.simulate([del('v1', 'Namespace', '', name, policy)]);
        expectRejected(r, 403, s);
        expect(r.steps[0].detail).toBe(`403: namespaces "${name}" is forbidden: this namespace may not be deleted`);
      }
    });
  }

  it('R55: the lookup and the preconditions come first (404 for a missing one, 409 for a wrong uid)', () => {
    expectRejected(scenario(manifests(cm('x', 'ns1'))).simulate([del('v1', 'Namespace', '', 'default', null)]), 404);
    expectRejected(s.simulate([{ ...del('v1', 'Namespace', '', 'default', null), preconditions: { uid: 'other' } }]), 409);
  });

  it('R55: any other namespace, kube-node-lease included, is deleted as usual', () => {
    const r = s.simulate([del('v1', 'Namespace', '', 'kube-node-lease', null)], { controllers: 'builtin' });
    expect(r.steps.filter((x) => x.action === 'reject')).toEqual([]);
    expect(names(r.deleted)).toEqual(expect.arrayContaining(['Namespace/kube-node-lease', 'ConfigMap/lease-cm']));
  });
});

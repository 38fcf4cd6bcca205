// Divergences the differential check (docs/fidelity.md) found between the simulation and the real garbage
// collector, each minimised to the objects that matter and named after its rule and its seed. Pure engine: these
// run without a control plane. The seed replays the original on one: `npm run fidelity -- --seed N`.

import { describe, expect, it } from 'vitest';
import { del, names, scenario } from '../helpers/scenario';
import {
  bref,
  clusterRole,
  cm,
  HOLD,
  manifests,
  namespace,
  obj,
  pvc,
  pod,
  ref,
  TERMINATING,
  type OwnerReference,
} from '../helpers/manifests';

describe('fidelity regressions (strict mode)', () => {
  it('R27, seed 221: dependents in two namespaces name one absent uid differently and cannot go: the simulation ends, as the real GC settles', () => {
    // The real GC alternates the virtual owner between the two identities every few ms forever, changing nothing;
    // the simulation used to do the same until its step bound.
    const absent = 'uid-absent-rc';
    const asPodSees: OwnerReference = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'rc',
      uid: absent,
      blockOwnerDeletion: true,
    };
    const asClaimSees: OwnerReference = { ...asPodSees, name: 'rc-x' };
    const unservable: OwnerReference = { apiVersion: 'nothere.example.com/v1', kind: 'Thing', name: 'thing', uid: 'uid-thing' };
    const s = scenario(
      manifests(
        namespace('ns0'),
        namespace('ns1'),
        pod('held', 'ns1', { owners: [asPodSees, unservable], finalizers: [HOLD] }),
        pvc('claim', 'ns0', { owners: [asClaimSees], finalizers: ['kubernetes.io/pvc-protection'], ...TERMINATING }),
        obj('v1', 'ConfigMap', 'ns0', 'bystander'),
      ),
    );
    const r = s.simulate([del('v1', 'ConfigMap', 'ns0', 'bystander', 'Background')]);
    expect(r.aborted).toBeUndefined();
    expect(names(r.deleted)).toEqual(['ConfigMap/bystander']);
    expect(names(r.stuck)).toEqual(['PersistentVolumeClaim/claim']);
  });

  // Races the real GC runs (20 workers, a Go map of dependents): the simulation shows one order and must say the
  // outcome is timing-dependent, as Kubernetes gave the other one when the scenario ran again.
  // The R51 kind of note: a dependent that does not block its owner deleted in the foreground.
  const racy = (r: { notes: string[] }) =>
    r.notes.filter((n) => n.startsWith('Timing-dependent: ') && /\b(does|do) not block (its owner|it)\b/.test(n));

  it('R51, seed 1130: a non-blocking dependent with a blocking dependent of its own, of an owner deleted in the foreground, is a race', () => {
    const owner = pod('owner', 'ns');
    const job = obj('batch/v1', 'Job', 'ns', 'job', { owners: [ref(owner)] });
    // The dependents are listed before their owner, so the simulation reaches the Job only after the owner is gone.
    const s = scenario(manifests(job, pvc('claim', 'ns', { owners: [bref(job)], finalizers: ['kubernetes.io/pvc-protection'] }), owner));
    const r = s.simulate([del('v1', 'Pod', 'ns', 'owner', 'Foreground')]);
    expect(racy(r)).toEqual([expect.stringContaining('Job ns/job')]);
  });

  it('R51, seeds 697 and 1376: a non-blocking dependent of an owner that stays on another finalizer after its foreground wait is a race', () => {
    const keep = { finalizers: ['kubernetes.io/pv-protection'] };
    for (const order of ['dependent first', 'owner first'] as const) {
      const owner = cm('owner', 'ns', keep);
      const dependent = cm('dependent', 'ns', { owners: [ref(owner)] });
      const s = scenario(manifests(...(order === 'owner first' ? [owner, dependent] : [dependent, owner])));
      const r = s.simulate([del('v1', 'ConfigMap', 'ns', 'owner', 'Foreground')]);
      expect(racy(r), order).toHaveLength(1);
      expect(racy(r)[0], order).toContain('ConfigMap ns/dependent');
    }
  });

  it('R51, seed 7313579 (controllers mode): a non-blocking dependent of a Namespace deleted in the foreground (it stays on its spec.finalizers) is a race', () => {
    // The owner's worker drops foregroundDeletion at once (nothing blocks it); a dependent's worker that reads the
    // Namespace after that finds it solid and keeps the reference, as Kubernetes did; before, it drops the reference.
    const ns0 = namespace('ns0');
    const role = clusterRole('role');
    const job = obj('batch/v1', 'Job', 'ns1', 'job', { owners: [ref(role), ref(ns0)] });
    const r = scenario(manifests(namespace('ns1'), ns0, role, job)).simulate([del('v1', 'Namespace', '', 'ns0', 'Foreground')]);
    expect(racy(r)).toEqual([expect.stringContaining('Job ns1/job does not block its owner Namespace ns0')]);
  });

  it('R72, seed 4750868: a blocking dependent created after its owner started waiting for its dependents is timing-dependent', () => {
    // Kubernetes, running since before the dependent appeared, never looked at it: it kept its reference to the
    // waiting owner. The simulation, like a freshly started GC, drops it (R35 (i): another owner is solid) and says so.
    const since = '2026-11-26T06:55:59Z';
    const owner = obj('v1', 'ReplicationController', 'ns', 'rc', {
      finalizers: ['foregroundDeletion'],
      deletionTimestamp: since,
      creationTimestamp: '2026-11-26T06:55:58Z',
    });
    const solid = cm('solid', 'ns');
    const late = pod('late', 'ns', { owners: [bref(owner), ref(solid)], creationTimestamp: '2026-11-26T06:56:05Z' });
    // In the owner's own second the order is unknown: no note (a dependent created first was seen).
    const sameSecond = pod('same-second', 'ns', { owners: [bref(owner), ref(solid)], creationTimestamp: since });
    const early = pod('early', 'ns', { owners: [bref(owner), ref(solid)], creationTimestamp: '2026-11-26T06:55:58Z' });
    const r = scenario(manifests(owner, solid, late, sameSecond, early)).simulate([]);
    const notes = r.notes.filter((n) => n.startsWith('Timing-dependent: ') && n.includes('started waiting for its dependents'));
    expect(notes).toEqual([expect.stringContaining('Pod ns/late was created after ReplicationController ns/rc')]);
  });

  it('R51, seed 882: a non-blocking dependent of a scheduled Pod deleted in the foreground (it stays for its kubelet) is a race', () => {
    const owner = pod('owner', 'ns', { nodeName: 'node-1' });
    const dependent = cm('dependent', 'ns', { owners: [ref(owner)] });
    const r = scenario(manifests(owner, dependent)).simulate([del('v1', 'Pod', 'ns', 'owner', 'Foreground')]);
    expect(racy(r)).toEqual([expect.stringContaining('ConfigMap ns/dependent')]);
  });
});

// Part H of docs/gc-semantics.md (R56–R62) and the project's rules found beside them (docs/gc-rules.md, R80–R81):
// the built-in controllers and the apiserver's special registries, in `builtin` mode and with kube-controller-manager
// lists. Expectations come from the rule text and from Kubernetes 1.37.2's code (namespace deleter, CRD registry,
// pvc/pv-protection, the PV controller, rest/delete.go), each confirmed on the real control plane by
// test/cluster/realServerRules.test.ts, never from the engine's output.

import { describe, expect, it } from 'vitest';
import { del, names, scenario } from '../../helpers/scenario';
import { HOLD, TERMINATING, cm, crd, deploy, manifests, namespace, obj, pod, pv, pvc, type ObjectSpec } from '../../helpers/manifests';
import { remainingOf, stepsWhere, stuckOf } from '../../helpers/results';
import type { SimulationResult } from '../../../server/src/engine/simulation/types';

/** The oracle's controllers (test/controlplane's default): no kubelet, no provisioner, no operator. */
const KCM =
  'garbage-collector-controller,namespace-controller,persistentvolumeclaim-protection-controller,persistentvolume-protection-controller,persistentvolume-binder-controller';
const builtin = { controllers: 'builtin' } as const;
const gone = (r: SimulationResult, kind: string, name: string) => r.deleted.some((d) => d.kind === kind && d.name === name);
const present = (r: SimulationResult, kind: string, name: string) => r.remaining.some((d) => d.kind === kind && d.name === name);
const nsWith = (name: string, finalizers: string[] | undefined, more: Partial<ObjectSpec> = {}) =>
  namespace(name, { ...more, extra: finalizers === undefined ? {} : { spec: finalizers.length ? { finalizers } : {} } });

describe('R56: Namespace DELETE and spec.finalizers', () => {
  it('R56: the first DELETE of a Namespace whose spec.finalizers is empty does not remove it, and its content stays', () => {
    const s = scenario(manifests(nsWith('done', []), cm('settings', 'done')));
    const r = s.simulate([del('v1', 'Namespace', '', 'done')], builtin);
    expect(remainingOf(r, 'Namespace', 'done').beingDeleted).toBe(true);
    expect(remainingOf(r, 'ConfigMap', 'settings').beingDeleted).toBe(false);
    expect(stuckOf(r, 'Namespace', 'done').reason).toMatch(/spec.finalizers is empty/);
  });

  it('R56: a second DELETE once spec.finalizers is empty removes it (the generic registry path)', () => {
    const s = scenario(manifests(nsWith('done', [])));
    const r = s.simulate([del('v1', 'Namespace', '', 'done'), del('v1', 'Namespace', '', 'done')], builtin);
    expect(names(r.deleted)).toEqual(['Namespace/done']);
  });

  it('R56: a Namespace with spec.finalizers holding only another finalizer still has its content deleted, and stays Terminating', () => {
    const s = scenario(manifests(nsWith('other', ['example.com/x']), cm('settings', 'other')));
    const r = s.simulate([del('v1', 'Namespace', '', 'other')], builtin);
    expect(gone(r, 'ConfigMap', 'settings')).toBe(true);
    const ns = stuckOf(r, 'Namespace', 'other');
    expect(ns.blockedBy.map((b) => b.finalizer)).toEqual(['example.com/x']);
    expect(ns.reason).toMatch(/removes only "kubernetes"/);
  });

  it('R56: a Namespace manifest with a uid but no spec is not read as finalized (create always adds kubernetes)', () => {
    const s = scenario(manifests(nsWith('team', undefined), cm('settings', 'team')));
    const strict = s.simulate([del('v1', 'Namespace', '', 'team')]);
    expect(stuckOf(strict, 'Namespace', 'team').blockedBy.map((b) => b.type)).toEqual(['namespace-controller']);
    const real = s.simulate([del('v1', 'Namespace', '', 'team')], builtin);
    expect(names(real.deleted)).toEqual(['ConfigMap/settings', 'Namespace/team']);
  });

  it('R56: `spec: {}` on a Namespace with a uid is finalized, as the apiserver stores one whose finalizers were all removed', () => {
    const s = scenario(manifests(nsWith('done', []), cm('settings', 'done')));
    const r = s.simulate([del('v1', 'Namespace', '', 'done')], { controllers: KCM });
    expect(remainingOf(r, 'ConfigMap', 'settings').beingDeleted).toBe(false);
  });
});

describe('R57: the namespace deleter', () => {
  const scheduled = pod('api-0', 'team', { nodeName: 'node-1', phase: 'Running' });
  const world = manifests(namespace('team'), scheduled, cm('settings', 'team'), deploy('web', 'team'));

  it('R57: from 1.33 Pods go first and nothing else is touched while one remains (no kubelet: the Pod stays Terminating)', () => {
    const r = scenario(world).simulate([del('v1', 'Namespace', '', 'team')], { controllers: KCM });
    expect(remainingOf(r, 'Pod', 'api-0').beingDeleted).toBe(true);
    expect(remainingOf(r, 'ConfigMap', 'settings').beingDeleted).toBe(false);
    expect(remainingOf(r, 'Deployment', 'web').beingDeleted).toBe(false);
    expect(r.kubernetesVersion).toBe('1.37');
  });

  it('R57: before 1.33 (kube-version 1.32) every resource type is deleted in the same pass', () => {
    const r = scenario(world).simulate([del('v1', 'Namespace', '', 'team')], { controllers: KCM, kubeVersion: '1.32' });
    expect(remainingOf(r, 'Pod', 'api-0').beingDeleted).toBe(true);
    expect(gone(r, 'ConfigMap', 'settings')).toBe(true);
    expect(gone(r, 'Deployment', 'web')).toBe(true);
    expect(r.kubernetesVersion).toBe('1.32');
  });

  it('R57: with a kubelet (builtin) the Pod is gone before anything else is deleted, then the Namespace goes', () => {
    const r = scenario(world).simulate([del('v1', 'Namespace', '', 'team')], builtin);
    const order = names(r.deleted);
    expect(order).toEqual(['Pod/api-0', 'ConfigMap/settings', 'Deployment/web', 'Namespace/team']);
    const podRemoved = r.deleted.find((d) => d.kind === 'Pod')!.step;
    const firstOther = stepsWhere(r, { actor: 'namespace-controller', action: 'delete' }).find((st) => st.target.kind !== 'Pod')!.step;
    expect(podRemoved).toBeLessThan(firstOther);
  });

  it('R57: only kubernetes is removed from spec.finalizers; another one keeps the Namespace Terminating after its content is gone', () => {
    const s = scenario(manifests(nsWith('team', ['kubernetes', 'example.com/x']), cm('settings', 'team')));
    const r = s.simulate([del('v1', 'Namespace', '', 'team')], builtin);
    expect(gone(r, 'ConfigMap', 'settings')).toBe(true);
    expect(stepsWhere(r, { actor: 'namespace-controller', action: 'remove-finalizer' }).map((st) => st.detail)).toEqual([
      expect.stringMatching(/^spec.finalizers kubernetes:/),
    ]);
    expect(stuckOf(r, 'Namespace', 'team').blockedBy.map((b) => b.finalizer)).toEqual(['example.com/x']);
  });

  it('R57: a Namespace whose spec.finalizers is empty is left alone by the deleter (finalized)', () => {
    const s = scenario(manifests(nsWith('done', [], { ...TERMINATING, finalizers: [HOLD] }), cm('settings', 'done')));
    const r = s.simulate([], builtin);
    expect(remainingOf(r, 'ConfigMap', 'settings').beingDeleted).toBe(false);
  });

  describe('R57: the operator deadlock follows the version', () => {
    const kafkaCrd = crd('kafka.strimzi.io', 'Kafka', 'kafkas', 'Namespaced', [{ name: 'v1beta2', served: true, storage: true }]);
    const operator = deploy('strimzi-cluster-operator', 'kafka');
    const cluster = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: ['kafka.strimzi.io/finalizer'] });
    const s = scenario(manifests(kafkaCrd, namespace('kafka'), operator, cluster));

    it('R57: from 1.33 the deadlock is certain: the finding says so and the operator is explained as stopped with its Pods', () => {
      const f = s.findings({ controllers: 'builtin' }).find((x) => x.code === 'finalizer-deadlock');
      expect(f?.message).toMatch(/^Deleting namespace kafka deadlocks \(Kubernetes 1\.37\): the namespace controller deletes the Pods of/);
      const r = s.simulate([del('v1', 'Namespace', '', 'kafka')], builtin);
      expect(stuckOf(r, 'Kafka', 'my-cluster').finalizers).toEqual(['kafka.strimzi.io/finalizer']);
      expect(r.notes.some((n) => /^Timing-dependent \(Kubernetes /.test(n))).toBe(false);
    });

    it('R57: before 1.33 it is a race: the finding and a note say so', () => {
      const f = s.findings({ controllers: 'builtin', kubeVersion: '1.32' }).find((x) => x.code === 'finalizer-deadlock');
      expect(f?.message).toMatch(/can deadlock \(Kubernetes 1\.32: a race\)/);
      const r = s.simulate([del('v1', 'Namespace', '', 'kafka')], { ...builtin, kubeVersion: '1.32' });
      expect(r.notes.find((n) => /^Timing-dependent \(Kubernetes 1\.32\): /.test(n))).toMatch(
        /strimzi-cluster-operator may still remove kafka.strimzi.io\/finalizer/,
      );
    });
  });
});

describe('R58: CustomResourceDefinition DELETE', () => {
  const widgets = crd('example.com', 'Widget', 'widgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }]);
  const w1 = obj('example.com/v1', 'Widget', 'ns1', 'w1');
  const s = scenario(manifests(widgets, w1));

  for (const policy of ['Orphan', 'Foreground'] as const) {
    it(`R58: the first DELETE ignores propagationPolicy ${policy}: only the cleanup finalizer is added`, () => {
      const r = s.simulate([del('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', policy)]);
      expect(remainingOf(r, 'CustomResourceDefinition', 'widgets.example.com')).toMatchObject({
        beingDeleted: true,
        finalizers: ['customresourcecleanup.apiextensions.k8s.io'],
      });
    });
  }

  it('R58: the apiextensions-apiserver deletes the instances, then removes its finalizer and the CRD goes', () => {
    const r = s.simulate([del('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', 'Orphan')], {
      controllers: KCM,
    });
    expect(names(r.deleted)).toEqual(['Widget/w1', 'CustomResourceDefinition/widgets.example.com']);
  });

  it('R80: a repeated DELETE of a terminating CRD adds no GC finalizer either (Foreground)', () => {
    const held = scenario(
      manifests(
        crd('example.com', 'Gadget', 'gadgets', 'Namespaced', [{ name: 'v1', served: true, storage: true }], {
          ...TERMINATING,
          finalizers: [HOLD, 'customresourcecleanup.apiextensions.k8s.io'],
        }),
      ),
    );
    const r = held.simulate([del('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'gadgets.example.com', 'Foreground')]);
    expect(remainingOf(r, 'CustomResourceDefinition', 'gadgets.example.com').finalizers).toEqual([
      HOLD,
      'customresourcecleanup.apiextensions.k8s.io',
    ]);
  });
});

describe('R59: pvc-protection', () => {
  const claim = (name: string, more: Partial<ObjectSpec> = {}) => pvc(name, 'ns1', more);
  const delClaim = (name: string) => del('v1', 'PersistentVolumeClaim', 'ns1', name);

  it('R59: an unscheduled Pod does not hold the claim', () => {
    const s = scenario(manifests(claim('data'), pod('web', 'ns1', { claims: [{ volume: 'v', claimName: 'data' }] })));
    expect(gone(s.simulate([delClaim('data')], { controllers: KCM }), 'PersistentVolumeClaim', 'data')).toBe(true);
  });

  it('R59: a scheduled Pod that Succeeded (or Failed) still holds a persistentVolumeClaim volume', () => {
    for (const phase of ['Succeeded', 'Failed']) {
      const s = scenario(
        manifests(claim('data'), pod('job', 'ns1', { nodeName: 'node-1', phase, claims: [{ volume: 'v', claimName: 'data' }] })),
      );
      const r = s.simulate([delClaim('data')], { controllers: KCM });
      expect(stuckOf(r, 'PersistentVolumeClaim', 'data').finalizers).toEqual(['kubernetes.io/pvc-protection']);
    }
  });

  const ephemeralPod = (more: Partial<ObjectSpec> = {}) =>
    obj('v1', 'Pod', 'ns1', 'eph', {
      ...more,
      extra: {
        spec: {
          nodeName: 'node-1',
          containers: [{ name: 'c', image: 'busybox' }],
          volumes: [{ name: 'data', ephemeral: { volumeClaimTemplate: { spec: {} } } }],
        },
      },
    });
  const ephemeralClaim = (controller: boolean) =>
    claim('eph-data', {
      owners: [{ apiVersion: 'v1', kind: 'Pod', name: 'eph', uid: 'uid-eph', ...(controller ? { controller: true } : {}) }],
    });

  it('R59: an ephemeral volume holds the claim made for its Pod while the Pod is not shut down', () => {
    const r = scenario(manifests(ephemeralPod(), ephemeralClaim(true))).simulate([delClaim('eph-data')], { controllers: KCM });
    expect(stuckOf(r, 'PersistentVolumeClaim', 'eph-data').finalizers).toEqual(['kubernetes.io/pvc-protection']);
  });

  it('R59: a shut-down Pod (deletionTimestamp, grace 0, kept by a finalizer) no longer holds its ephemeral claim', () => {
    const r = scenario(manifests(ephemeralPod({ ...TERMINATING, finalizers: [HOLD] }), ephemeralClaim(true))).simulate(
      [delClaim('eph-data')],
      { controllers: KCM },
    );
    expect(gone(r, 'PersistentVolumeClaim', 'eph-data')).toBe(true);
  });

  it('R59: a claim of the ephemeral name that the Pod does not control is not held by it', () => {
    const r = scenario(manifests(ephemeralPod(), ephemeralClaim(false))).simulate([delClaim('eph-data')], { controllers: KCM });
    expect(gone(r, 'PersistentVolumeClaim', 'eph-data')).toBe(true);
  });

  it('R59: pvc-protection does not run unless listed: the claim keeps its finalizer', () => {
    const r = scenario(manifests(claim('data'))).simulate([delClaim('data')], { controllers: 'garbage-collector-controller' });
    expect(stuckOf(r, 'PersistentVolumeClaim', 'data').reason).toMatch(/does not run with --controllers=garbage-collector-controller/);
  });
});

describe('R60: pv-protection and reclaim', () => {
  const bound = (name: string, reclaimPolicy: string, more: Partial<ObjectSpec> = {}) =>
    pv(name, {
      reclaimPolicy,
      phase: 'Bound',
      claimRef: { namespace: 'ns1', name: `c-${name}`, uid: `uid-c-${name}` },
      finalizers: ['kubernetes.io/pv-protection'],
      ...more,
    });
  const claimFor = (name: string) => pvc(`c-${name}`, 'ns1', { volumeName: name });

  it('R60: pv-protection keeps its finalizer while the PV is Bound, and releases it once the phase is not Bound', () => {
    const s = scenario(
      manifests(bound('held', 'Retain'), claimFor('held'), pv('free', { phase: 'Released', finalizers: ['kubernetes.io/pv-protection'] })),
    );
    const r = s.simulate([del('v1', 'PersistentVolume', '', 'held'), del('v1', 'PersistentVolume', '', 'free')], { controllers: KCM });
    expect(stuckOf(r, 'PersistentVolume', 'held').reason).toMatch(/the volume is Bound/);
    expect(gone(r, 'PersistentVolume', 'free')).toBe(true);
  });

  it('R60: when its claim goes the PV controller releases the PV; Retain keeps it Released', () => {
    const r = scenario(manifests(bound('keep', 'Retain'), claimFor('keep'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'ns1', 'c-keep')],
      { controllers: KCM },
    );
    expect(stepsWhere(r, { actor: 'persistentvolume-controller', action: 'update-status' }).map((st) => st.detail)).toEqual([
      'status.phase Released: its claim ns1/c-keep is gone',
    ]);
    expect(remainingOf(r, 'PersistentVolume', 'keep').beingDeleted).toBe(false);
  });

  it('R60: with reclaimPolicy Delete the released PV is deleted (builtin: by its provisioner, said as an assumption)', () => {
    const r = scenario(manifests(bound('vol', 'Delete'), claimFor('vol'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'ns1', 'c-vol')],
      builtin,
    );
    expect(names(r.deleted)).toEqual(['PersistentVolumeClaim/c-vol', 'PersistentVolume/vol']);
    expect(r.notes.some((n) => n.startsWith('Assumed: their volume plugins delete PersistentVolumes once released'))).toBe(true);
  });

  it('R60: an externally provisioned volume stays Released with a controllers list (no provisioner runs), and the output says why', () => {
    const text = manifests(bound('ext', 'Delete'), claimFor('ext')).replace(
      /^  name: ext$/m,
      '  name: ext\n  annotations:\n    pv.kubernetes.io/provisioned-by: example.com/csi',
    );
    expect(text).toContain('provisioned-by');
    const r = scenario(text).simulate([del('v1', 'PersistentVolumeClaim', 'ns1', 'c-ext')], { controllers: KCM });
    expect(present(r, 'PersistentVolume', 'ext')).toBe(true);
    expect(r.notes).toContain(
      'PersistentVolumes provisioned by example.com/csi stay Released: that external provisioner deletes them (reclaimPolicy Delete), and no provisioner runs with --controllers=' +
        KCM +
        '.',
    );
  });

  it('R60: without the PV controller nothing releases the volume', () => {
    const r = scenario(manifests(bound('keep', 'Delete'), claimFor('keep'))).simulate(
      [del('v1', 'PersistentVolumeClaim', 'ns1', 'c-keep')],
      { controllers: 'garbage-collector-controller,persistentvolumeclaim-protection-controller' },
    );
    expect(stepsWhere(r, { action: 'update-status' })).toEqual([]);
    expect(present(r, 'PersistentVolume', 'keep')).toBe(true);
  });
});

describe("R81: the external provisioner's finalizer", () => {
  const csi = (more: Partial<ObjectSpec>) =>
    pv('pvc-1', {
      reclaimPolicy: 'Delete',
      phase: 'Released',
      finalizers: ['kubernetes.io/pv-protection', 'external-provisioner.volume.kubernetes.io/finalizer'],
      ...more,
    });

  it("R81: builtin assumes the provisioner runs: a released CSI volume is deleted and its provisioner's finalizer removed", () => {
    const r = scenario(manifests(csi({}))).simulate([], builtin);
    expect(names(r.deleted)).toEqual(['PersistentVolume/pvc-1']);
    expect(r.notes.filter((n) => n.includes('PersistentVolumes'))).toHaveLength(1);
  });

  it("R81: with a kube-controller-manager list nobody removes the provisioner's finalizer", () => {
    const r = scenario(manifests(csi(TERMINATING))).simulate([], { controllers: KCM });
    expect(stuckOf(r, 'PersistentVolume', 'pvc-1').finalizers).toEqual(['external-provisioner.volume.kubernetes.io/finalizer']);
  });
});

describe('R61: kinds without a GC policy', () => {
  it('R61: a DELETE of an Event still strips a GC finalizer (orphan) and adds none', () => {
    const event = obj('v1', 'Event', 'ns1', 'e1', { finalizers: [HOLD, 'orphan'], extra: { involvedObject: { kind: 'Pod', name: 'x' } } });
    const r = scenario(manifests(event)).simulate([del('v1', 'Event', 'ns1', 'e1', 'Foreground')]);
    expect(remainingOf(r, 'Event', 'e1')).toMatchObject({ beingDeleted: true, finalizers: [HOLD] });
  });
});

describe("R62: shortening a terminating Pod's grace period", () => {
  it('R62: a second DELETE with a shorter grace period moves deletionTimestamp earlier (old time − old period + new period)', () => {
    const s = scenario(manifests(pod('api-0', 'ns1', { nodeName: 'node-1', phase: 'Running', grace: 300 })));
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0'), del('v1', 'Pod', 'ns1', 'api-0', null, { gracePeriodSeconds: 10 })], {
      now: '2026-01-01T00:00:00Z',
    });
    const second = stepsWhere(r, { action: 'delete' })[1];
    expect(second.detail).toMatch(/grace period 10s; deletionTimestamp moved earlier to 2026-01-01T00:00:10Z;/);
  });

  it('R62: never into the past: an expired grace period becomes now, with 1s left for the kubelet', () => {
    const s = scenario(
      manifests(
        pod('api-0', 'ns1', {
          nodeName: 'node-1',
          phase: 'Running',
          deletionTimestamp: '2025-12-31T23:59:00Z',
          deletionGracePeriodSeconds: 30,
        }),
      ),
    );
    const r = s.simulate([del('v1', 'Pod', 'ns1', 'api-0', null, { gracePeriodSeconds: 5 })], { now: '2026-01-01T00:00:00Z' });
    expect(stepsWhere(r, { action: 'delete' })[0].detail).toMatch(
      /grace period 1s; deletionTimestamp moved earlier to 2026-01-01T00:00:00Z/,
    );
  });
});

// The impact summary and the lens title (server/src/app/impact.ts), from hand-made simulation results.

import { describe, expect, it } from 'vitest';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { SimulationResult, StuckEntry } from '../../server/src/engine/simulation/types';
import { impactTitle, shortFinalizer, summarizeImpact, targetOutcome } from '../../server/src/app/impact';

const id = (kind: string, name: string): ObjectIdentity => ({ apiVersion: 'v1', kind, namespace: 'shop', name, uid: `uid-${name}` });
const gone = (kind: string, name: string, step: number) => ({ ...id(kind, name), step });
const stuck = (kind: string, name: string, finalizer: string): StuckEntry => ({
  ...id(kind, name),
  finalizers: [finalizer],
  reason: `${kind} shop/${name} stays Terminating`,
  blockedBy: [{ type: 'finalizer', finalizer, message: `nobody removes ${finalizer}` }],
});

function result(parts: Partial<SimulationResult>): SimulationResult {
  return { deleted: [], orphaned: [], remaining: [], stuck: [], steps: [], notes: [], ...parts };
}

describe('summarizeImpact', () => {
  const deletion = result({
    deleted: [
      gone('Deployment', 'web', 1),
      gone('ReplicaSet', 'web-1', 3),
      gone('Pod', 'web-1-a', 5),
      gone('Pod', 'web-1-b', 6),
      gone('ConfigMap', 'junk', 2),
    ],
    orphaned: [
      { ...id('Secret', 'tls'), ownerUID: 'uid-web' },
      { ...id('Secret', 'tls'), ownerUID: 'uid-web-1' },
      { ...id('Service', 'old'), ownerUID: 'uid-gone' },
    ],
    stuck: [stuck('PersistentVolumeClaim', 'data', 'kubernetes.io/pvc-protection'), stuck('Namespace', 'elsewhere', 'kubernetes')],
  });
  const baseline = result({
    deleted: [gone('ConfigMap', 'junk', 2)],
    orphaned: [{ ...id('Service', 'old'), ownerUID: 'uid-gone' }],
    stuck: [stuck('Namespace', 'elsewhere', 'kubernetes')],
  });

  it('counts by kind in deletion order (target included), orphaned objects once, and the first stuck reason', () => {
    expect(summarizeImpact(deletion, 'uid-web', baseline)).toEqual({
      deletedByKind: { Deployment: 1, ReplicaSet: 1, Pod: 2 },
      orphaned: 1,
      stuck: 1,
      stuckBecause: 'pvc-protection',
    });
  });

  it('counts everything without a baseline', () => {
    expect(summarizeImpact(deletion, 'uid-web')).toEqual({
      deletedByKind: { Deployment: 1, ConfigMap: 1, ReplicaSet: 1, Pod: 2 },
      orphaned: 2,
      stuck: 2,
      stuckBecause: 'pvc-protection',
    });
  });

  it("names the target's own reason when the target is stuck", () => {
    const r = result({ stuck: [stuck('Pod', 'web-1-a', 'example.com/hold'), stuck('Deployment', 'web', 'foregroundDeletion')] });
    expect(summarizeImpact(r, 'uid-web').stuckBecause).toBe('foregroundDeletion');
  });
});

describe('targetOutcome', () => {
  it('tells deleted, collected anyway, stuck, rejected and unchanged apart', () => {
    const r = result({
      deleted: [gone('Pod', 'a', 2), gone('Pod', 'b', 1)],
      stuck: [stuck('Pod', 'c', 'example.com/hold')],
      steps: [{ step: 1, actor: 'apiserver', action: 'reject', target: id('Event', 'e'), detail: '404: not found' }],
    });
    const baseline = result({ deleted: [gone('Pod', 'b', 1)] });
    expect(['a', 'b', 'c', 'e', 'f'].map((n) => targetOutcome(r, `uid-${n}`, baseline))).toEqual([
      'deleted',
      'collected',
      'stuck',
      'rejected',
      'unchanged',
    ]);
  });
});

describe('impactTitle', () => {
  const summary = (deletedByKind: Record<string, number>, more: { orphaned?: number; stuck?: number; stuckBecause?: string } = {}) => ({
    deletedByKind,
    orphaned: more.orphaned ?? 0,
    stuck: more.stuck ?? 0,
    ...(more.stuckBecause ? { stuckBecause: more.stuckBecause } : {}),
  });

  it('counts what goes besides the object itself', () => {
    expect(
      impactTitle(summary({ Deployment: 1, ReplicaSet: 1, Pod: 3 }, { stuck: 1, stuckBecause: 'pvc-protection' }), {
        kind: 'Deployment',
        outcome: 'deleted',
      }),
    ).toBe('Delete: also 1 ReplicaSet, 3 Pods · 1 stuck (pvc-protection)');
    expect(impactTitle(summary({ Pod: 4 }), { kind: 'Pod', outcome: 'deleted' })).toBe('Delete: also 3 Pods');
    expect(impactTitle(summary({ ConfigMap: 1 }), { kind: 'ConfigMap', outcome: 'deleted' })).toBe('Delete: only this ConfigMap');
    expect(impactTitle(summary({ Job: 1 }, { orphaned: 2 }), { kind: 'Job', outcome: 'deleted' })).toBe(
      'Delete: only this Job · 2 orphaned',
    );
  });

  it('names a stuck target first, then what goes and what else is stuck', () => {
    expect(
      impactTitle(summary({ Pod: 2 }, { stuck: 3, stuckBecause: 'foregroundDeletion' }), { kind: 'Deployment', outcome: 'stuck' }),
    ).toBe('Delete: stays Terminating (foregroundDeletion) · deletes 2 Pods · 2 more stuck');
    expect(
      impactTitle(summary({}, { stuck: 1, stuckBecause: 'pvc-protection' }), { kind: 'PersistentVolumeClaim', outcome: 'stuck' }),
    ).toBe('Delete: stays Terminating (pvc-protection)');
  });

  it('says when nothing happens', () => {
    expect(impactTitle(summary({}), { kind: 'Event', outcome: 'rejected' })).toBe('Delete: rejected by the apiserver');
    expect(impactTitle(summary({}), { kind: 'Pod', outcome: 'unchanged' })).toBe('Delete: nothing changes');
    expect(impactTitle(summary({ Pod: 2 }), { kind: 'Pod', outcome: 'collected' })).toBe('Delete: the GC deletes it anyway · also 1 Pod');
  });

  it('names at most four kinds', () => {
    expect(
      impactTitle(summary({ Namespace: 1, Deployment: 2, ReplicaSet: 2, Pod: 6, Service: 2, Secret: 3, Ingress: 1 }), {
        kind: 'Namespace',
        outcome: 'deleted',
      }),
    ).toBe('Delete: also 2 Deployments, 2 ReplicaSets, 6 Pods, 2 Services, 4 more');
  });
});

describe('shortFinalizer', () => {
  it("drops the domain of Kubernetes' own finalizers only", () => {
    expect(
      [
        'kubernetes.io/pvc-protection',
        'batch.kubernetes.io/job-tracking',
        'foregroundDeletion',
        'kafka.strimzi.io/finalizer',
        'customresourcecleanup.apiextensions.k8s.io',
      ].map(shortFinalizer),
    ).toEqual([
      'pvc-protection',
      'job-tracking',
      'foregroundDeletion',
      'kafka.strimzi.io/finalizer',
      'customresourcecleanup.apiextensions.k8s.io',
    ]);
  });
});

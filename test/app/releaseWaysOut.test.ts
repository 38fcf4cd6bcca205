// The usual real fixes among the ways out: finished Pods deleted to release a claim (R87), a platform's entry of a
// Namespace's spec.finalizers removed through /finalize (R88); each simulated and ranked above skipping a cleanup.

import { describe, expect, it } from 'vitest';
import { waysOut } from '../../server/src/app/waysOut';
import { manifests, namespace, pod, pvc, TERMINATING } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const mounting = (name: string, phase: string, more: Parameters<typeof pod>[2] = {}) =>
  pod(name, 'shop', { nodeName: 'node-1', phase, claims: [{ volume: 'data', claimName: 'data' }], ...more });

describe('R87: a claim kept by Pods that finished', () => {
  it('deletes the finished Pods (caution), ranked above removing pvc-protection (dangerous); the claim goes', () => {
    const claim = pvc('data', 'shop', TERMINATING);
    const s = scenario(manifests(namespace('shop'), claim, mounting('backup-1', 'Succeeded'), mounting("it's-2", 'Failed')));
    const ways = waysOut(s.inventory, claim.uid, BUILTIN);
    expect(ways.map((w) => w.risk)).toEqual(['caution', 'dangerous']);
    expect(ways[0].title).toBe(
      'Delete the 2 finished Pods that still reference PersistentVolumeClaim shop/data: pvc-protection counts a Pod that has ended (Succeeded or Failed) until it is deleted',
    );
    expect(ways[0].command).toBe(`kubectl delete pod/backup-1 'pod/it'\\''s-2' -n shop`);
    expect(ways[0].warning).toBe(
      `their logs and final status go with them (backup-1: Succeeded, it's-2: Failed); nothing that runs is stopped`,
    );
    expect(ways[0].outcome.deleted.map((d) => d.name).sort()).toEqual(['backup-1', 'data', "it's-2"]);
    expect(ways[0].requests?.map((r) => [r.verb ?? 'delete', r.name])).toEqual([
      ['delete', 'backup-1'],
      ['delete', "it's-2"],
    ]);
    expect(ways[1].title).toBe('Remove the finalizer kubernetes.io/pvc-protection from PersistentVolumeClaim shop/data');
  });

  it('offers no deletion while a Pod that has not finished uses the claim too', () => {
    const claim = pvc('data', 'shop', TERMINATING);
    const s = scenario(manifests(namespace('shop'), claim, mounting('done', 'Succeeded'), mounting('web', 'Running')));
    const ways = waysOut(s.inventory, claim.uid, BUILTIN);
    expect(ways.map((w) => w.risk)).toEqual(['dangerous']);
  });
});

describe('R88: a Namespace held by a platform entry of spec.finalizers', () => {
  it('removes that entry through /finalize (dangerous, with what its controller would have cleaned), and the namespace goes', () => {
    const ns = namespace('legacy', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['openshift.io/origin'] } } });
    const s = scenario(manifests(ns));
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    expect(ways.map((w) => [w.risk, w.title])).toEqual([
      [
        'dangerous',
        'Remove openshift.io/origin from the spec.finalizers of namespace legacy (through /finalize): the controller of openshift.io has not removed it',
      ],
    ]);
    expect(ways[0].command).toBe(
      `kubectl get namespace/legacy -o json | jq '.spec.finalizers -= ["openshift.io/origin"]' | kubectl replace --raw /api/v1/namespaces/legacy/finalize -f -`,
    );
    expect(ways[0].warning).toMatch(/^the controller of openshift\.io removes openshift\.io\/origin once it has cleaned up/);
    expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['legacy']);
    expect(ways[0].requests).toEqual([
      { verb: 'remove-finalizer', apiVersion: 'v1', kind: 'Namespace', name: 'legacy', finalizer: 'openshift.io/origin' },
    ]);
  });

  it('quotes a hostile entry as one shell word inside the jq program', () => {
    const ns = namespace('legacy', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ["x.io/a'b"] } } });
    const ways = waysOut(scenario(manifests(ns)).inventory, ns.uid, BUILTIN);
    expect(ways[0].command).toContain(`jq '.spec.finalizers -= ["x.io/a'\\''b"]'`);
  });
});

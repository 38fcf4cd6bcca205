// controllerSet.ts: --controllers as kube-controller-manager reads its own flag (IsControllerEnabled, aliases,
// disabled-by-default controllers, the known-name check), plus the project's builtin and gc.
import { describe, expect, it } from 'vitest';
import { controllerSet, parseControllers, type ControllerSet } from '../../server/src/engine/simulation/controllerSet';

const set = (spec: string): ControllerSet => {
  const parsed = parseControllers(spec);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
};
const modelled = (s: ControllerSet) => ({
  gc: s.garbageCollector,
  ns: s.namespace,
  pvc: s.pvcProtection,
  pv: s.pvProtection,
  binder: s.pvBinder,
  kubelet: s.kubelet,
  crd: s.crdCleanup,
});

describe('--controllers', () => {
  it('gc is strict (R53: not even the CRD cleanup); builtin is everything plus a kubelet', () => {
    expect(modelled(set('gc'))).toEqual({ gc: true, ns: false, pvc: false, pv: false, binder: false, kubelet: false, crd: false });
    expect(modelled(set('builtin'))).toEqual({ gc: true, ns: true, pvc: true, pv: true, binder: true, kubelet: true, crd: true });
    expect(set('gc').strict && set('builtin').realCluster).toBe(true);
  });

  it("a list runs exactly the controllers it names, the apiserver's CRD cleanup, and no kubelet", () => {
    expect(modelled(set('garbage-collector-controller,namespace-controller'))).toEqual({
      gc: true,
      ns: true,
      pvc: false,
      pv: false,
      binder: false,
      kubelet: false,
      crd: true,
    });
  });

  it('* turns on every controller on by default; -name turns one off; the first explicit choice wins', () => {
    expect(modelled(set('*,-namespace-controller'))).toMatchObject({ gc: true, ns: false, pvc: true });
    expect(set('namespace-controller,-namespace-controller').namespace).toBe(true);
    expect(set('*').runs('bootstrap-signer-controller')).toBe(false); // disabled by default
    expect(set('*,bootstrap-signer-controller').runs('bootstrap-signer-controller')).toBe(true);
  });

  it('old names (aliases) mean their controller', () => {
    expect(modelled(set('garbagecollector,namespace,pvc-protection,pv-protection,persistentvolume-binder'))).toMatchObject({
      gc: true,
      ns: true,
      pvc: true,
      pv: true,
      binder: true,
    });
    expect(set('*,-garbagecollector').garbageCollector).toBe(false);
  });

  it("an unknown name is refused with kube-controller-manager's message; so is an empty list", () => {
    expect(parseControllers('red-controller')).toEqual({
      error: '"red-controller" is not in the list of known controllers (kube-controller-manager v1.37\'s names, or builtin or gc)',
    });
    expect(parseControllers('-red-controller')).toHaveProperty('error');
    expect(parseControllers(' , ')).toEqual({ error: 'the controller list is empty' });
    expect(() => controllerSet('nope')).toThrow(/nope/);
  });
});

describe('predictions follow the controllers list', () => {
  it('a blocking dependent held by a built-in finalizer deadlocks a Foreground delete only where that controller is not listed', async () => {
    const { scenario } = await import('../helpers/scenario');
    const { manifests, obj, ctl } = await import('../helpers/manifests');
    const job = obj('batch/v1', 'Job', 'ns1', 'backup');
    const held = obj('v1', 'Pod', 'ns1', 'backup-1', { finalizers: ['batch.kubernetes.io/job-tracking'], owners: [ctl(job)] });
    const s = scenario(manifests(job, held));
    const deadlock = (controllers: string) =>
      s
        .findings({ controllers })
        .filter((f) => f.code === 'foreground-deadlock')
        .map((f) => f.message);
    expect(deadlock('garbage-collector-controller')).toEqual([
      expect.stringMatching(/finalizer batch.kubernetes.io\/job-tracking is never removed with --controllers=garbage-collector-controller/),
    ]);
    expect(deadlock('garbage-collector-controller,job-controller')).toEqual([]);
  });
});

// Part H of docs/gc-semantics.md (R56–R62) and docs/gc-rules.md's R80 and R81 on the real control plane (test/controlplane:
// Kubernetes v1.37.2's kube-apiserver and kube-controller-manager with its default controllers: garbage collector,
// namespace, pvc/pv-protection, PV binder; no kubelet, no provisioner). Each test sets up its own namespace, reads its
// world back as kubectl sees it, asks `kubectl-gc simulate -f` with exactly those controllers what the same DELETEs
// do, sends them for real and compares. Waits are bounded by tries (helpers/controlPlane.ts `until`), never timed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import type { RealItem } from '../helpers/realCluster';
import type { SimulationResult } from '../../server/src/engine/simulation/types';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
/** The control plane's default --controllers, which the simulation is told too. */
const KCM =
  'garbage-collector-controller,namespace-controller,persistentvolumeclaim-protection-controller,persistentvolume-protection-controller,persistentvolume-binder-controller';
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerRules.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-rules-'));
let plane: ControlPlane;
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
const apply = (yaml: string) => kubectl(['apply', '-f', '-'], yaml);

interface Item extends RealItem {
  metadata: RealItem['metadata'] & { deletionGracePeriodSeconds?: number };
  status?: RealItem['status'] & { phase?: string };
}

/** One object, or undefined once it is gone. */
function get(ref: string, namespace?: string): Item | undefined {
  const out = kubectl(['get', ref, ...(namespace ? ['-n', namespace] : []), '-o', 'json', '--ignore-not-found']);
  return out.trim() ? (JSON.parse(out) as Item) : undefined;
}

/** The scenario's objects as kubectl reads them (full objects, status included), as one List file. */
function readWorld(name: string, refs: { ref: string; namespace?: string }[]): string {
  const items = refs.map(({ ref, namespace }) => get(ref, namespace)).filter((x): x is Item => x !== undefined);
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return file;
}

/** `kubectl-gc simulate -f WORLD … --controllers=KCM -o json`. */
function simulate(world: string, args: string[]): SimulationResult {
  const r = spawnSync(process.execPath, [CLI, 'simulate', '-f', world, ...args, `--controllers=${KCM}`, '-o', 'json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`simulate ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as SimulationResult;
}

/** What became of an object: gone, or its finalizers and whether it is terminating; the same shape both sides. */
type Fate = 'gone' | { terminating: boolean; finalizers: string[] };
const realFate = (ref: string, namespace?: string): Fate => {
  const o = get(ref, namespace);
  return o ? { terminating: o.metadata.deletionTimestamp !== undefined, finalizers: o.metadata.finalizers ?? [] } : 'gone';
};
const simFate = (r: SimulationResult, kind: string, name: string): Fate => {
  const o = r.remaining.find((x) => x.kind === kind && x.name === name);
  return o ? { terminating: o.beingDeleted, finalizers: o.finalizers } : 'gone';
};

const serviceAccount = (ns: string) => `apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: ${ns}}\n`;

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('Part H on the real control plane, compared with the simulation', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ controllers: KCM });
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('R57: Pods go first; while one remains (no kubelet here) nothing else in the namespace is touched', async () => {
    const ns = 'r57-ordered';
    apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\n${serviceAccount(ns)}---
apiVersion: v1\nkind: Pod\nmetadata: {name: api-0, namespace: ${ns}}\nspec: {nodeName: node-1, automountServiceAccountToken: false, containers: [{name: c, image: busybox}]}
---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}}\n`);
    const world = readWorld(ns, [
      { ref: `namespace/${ns}` },
      { ref: 'pod/api-0', namespace: ns },
      { ref: 'configmap/settings', namespace: ns },
      { ref: 'serviceaccount/default', namespace: ns },
    ]);
    const sim = simulate(world, [`namespace/${ns}`]);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    // The deleter's pass that deleted the Pod wrote the namespace's conditions before returning without touching the rest.
    await until(
      'the namespace controller has made a pass',
      () => (get(`namespace/${ns}`)?.status?.conditions ?? []).length > 0 && get('pod/api-0', ns)?.metadata.deletionTimestamp !== undefined,
    );
    for (const [kind, ref] of [
      ['Pod', 'pod/api-0'],
      ['ConfigMap', 'configmap/settings'],
      ['ServiceAccount', 'serviceaccount/default'],
    ]) {
      expect(realFate(ref, ns), ref).toEqual(simFate(sim, kind, ref.split('/')[1]));
    }
    expect(realFate('configmap/settings', ns)).toEqual({ terminating: false, finalizers: [] });
    expect(sim.kubernetesVersion).toBe('1.37');
    // Once the Pod goes (as a kubelet would make it go), the rest is deleted and the namespace with it.
    kubectl(['delete', 'pod', 'api-0', '-n', ns, '--grace-period=0', '--force']);
    await until('the namespace is gone', () => get(`namespace/${ns}`) === undefined, 600);
  });

  it('R56: a Namespace whose spec.finalizers holds only another finalizer has its content deleted and stays Terminating', async () => {
    const ns = 'r56-other';
    apply(
      `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}}\n`,
    );
    const finalized = { ...get(`namespace/${ns}`)!, spec: { finalizers: ['example.com/x'] } };
    kubectl(['replace', '--raw', `/api/v1/namespaces/${ns}/finalize`, '-f', '-'], JSON.stringify(finalized));
    const world = readWorld(ns, [{ ref: `namespace/${ns}` }, { ref: 'configmap/settings', namespace: ns }]);
    const sim = simulate(world, [`namespace/${ns}`]);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    await until('the ConfigMap is gone', () => get('configmap/settings', ns) === undefined);
    expect(simFate(sim, 'ConfigMap', 'settings')).toBe('gone');
    expect(realFate(`namespace/${ns}`)).toEqual(simFate(sim, 'Namespace', ns));
    expect(get(`namespace/${ns}`)!.spec?.finalizers).toEqual(['example.com/x']);
    expect(sim.stuck.find((s) => s.kind === 'Namespace')?.blockedBy.map((b) => b.finalizer)).toEqual(['example.com/x']);
  });

  it('R56: the first DELETE of a Namespace with empty spec.finalizers leaves it Terminating with its content; a second DELETE removes it', async () => {
    const ns = 'r56-empty';
    apply(
      `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}}\n`,
    );
    kubectl(
      ['replace', '--raw', `/api/v1/namespaces/${ns}/finalize`, '-f', '-'],
      JSON.stringify({ ...get(`namespace/${ns}`)!, spec: { finalizers: [] } }),
    );
    const world = readWorld(ns, [{ ref: `namespace/${ns}` }, { ref: 'configmap/settings', namespace: ns }]);
    const once = simulate(world, [`namespace/${ns}`]);
    const planFile = path.join(dir, `${ns}-plan.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        deletes: [
          { apiVersion: 'v1', kind: 'Namespace', name: ns },
          { apiVersion: 'v1', kind: 'Namespace', name: ns },
        ],
      }),
    );
    const twice = simulate(world, ['--plan', planFile]);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    expect(realFate(`namespace/${ns}`)).toEqual(simFate(once, 'Namespace', ns));
    expect(realFate(`namespace/${ns}`)).toEqual({ terminating: true, finalizers: [] });
    // The deleter finds it finalized and does nothing: its ConfigMap stays, not even marked.
    expect(realFate('configmap/settings', ns)).toEqual(simFate(once, 'ConfigMap', 'settings'));
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    expect(realFate(`namespace/${ns}`)).toBe('gone');
    expect(simFate(twice, 'Namespace', ns)).toBe('gone');
  });

  it('R58 and R80: a CRD DELETE ignores the propagation policy, the first and the repeated one; its instances go first', async () => {
    const ns = 'r58';
    apply(`apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.r58.example.com, finalizers: [example.com/keep]}
spec:\n  group: r58.example.com\n  scope: Namespaced\n  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`);
    await until('the CRD is served', () => kubectl(['api-resources', '--api-group=r58.example.com', '-o', 'name']).includes('gadgets'));
    // The instance's own finalizer holds the cleanup (and so the CRD's finalizers) still while both DELETEs arrive.
    apply(`apiVersion: r58.example.com/v1\nkind: Gadget\nmetadata: {name: g1, namespace: ${ns}, finalizers: [example.com/hold]}\n`);
    const world = readWorld(ns, [
      { ref: 'crd/gadgets.r58.example.com' },
      { ref: `namespace/${ns}` },
      { ref: 'gadget.r58.example.com/g1', namespace: ns },
    ]);
    const planFile = path.join(dir, `${ns}-plan.json`);
    const crdDelete = (propagationPolicy: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name: 'gadgets.r58.example.com',
      propagationPolicy,
    });
    writeFileSync(planFile, JSON.stringify({ deletes: [crdDelete('Orphan'), crdDelete('Foreground')] }));
    const sim = simulate(world, ['--plan', planFile]);
    kubectl(['delete', 'crd', 'gadgets.r58.example.com', '--cascade=orphan', '--wait=false']);
    await until(
      'the CRD finalizer controller has deleted the instance',
      () => get('gadget.r58.example.com/g1', ns)?.metadata.deletionTimestamp !== undefined,
    );
    expect(realFate('crd/gadgets.r58.example.com')).toEqual({
      terminating: true,
      finalizers: ['example.com/keep', 'customresourcecleanup.apiextensions.k8s.io'],
    });
    kubectl(['delete', 'crd', 'gadgets.r58.example.com', '--cascade=foreground', '--wait=false']);
    expect(realFate('crd/gadgets.r58.example.com')).toEqual({
      terminating: true,
      finalizers: ['example.com/keep', 'customresourcecleanup.apiextensions.k8s.io'],
    });
    expect(realFate('crd/gadgets.r58.example.com')).toEqual(simFate(sim, 'CustomResourceDefinition', 'gadgets.r58.example.com'));
    expect(realFate('gadget.r58.example.com/g1', ns)).toEqual(simFate(sim, 'Gadget', 'g1'));
    // Once the instance goes, the cleanup finalizer goes and only the CRD's own finalizer holds it.
    kubectl(['patch', 'gadget.r58.example.com', 'g1', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await until('the cleanup finalizer is removed', () => (get('crd/gadgets.r58.example.com')?.metadata.finalizers ?? []).length === 1);
    expect(realFate('crd/gadgets.r58.example.com')).toEqual({ terminating: true, finalizers: ['example.com/keep'] });
  });

  it('R59: pvc-protection: an unscheduled Pod does not hold its claim, a Succeeded one does, and so does an ephemeral volume', async () => {
    const ns = 'r59';
    const claim = (name: string, owner = '') =>
      `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}, namespace: ${ns}${owner}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: none}\n`;
    const podYaml = (name: string, node: string, volume: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: ${ns}}\nspec: {${node}automountServiceAccountToken: false, containers: [{name: c, image: busybox}], volumes: [${volume}]}\n`;
    apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\n${serviceAccount(ns)}---\n${claim('unsched')}---\n${claim('done')}---
${podYaml('unsched', '', '{name: v, persistentVolumeClaim: {claimName: unsched}}')}---
${podYaml('done', 'nodeName: node-1, ', '{name: v, persistentVolumeClaim: {claimName: done}}')}---
${podYaml('eph', 'nodeName: node-1, ', '{name: data, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: none}}}}')}`);
    kubectl(['patch', 'pod', 'done', '-n', ns, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Succeeded"}}']);
    // No ephemeral-volume controller runs here: the claim it would make, controlled by the Pod.
    apply(
      claim(
        'eph-data',
        `, ownerReferences: [{apiVersion: v1, kind: Pod, name: eph, uid: ${get('pod/eph', ns)!.metadata.uid}, controller: true}]`,
      ),
    );
    const claims = ['unsched', 'done', 'eph-data'];
    const world = readWorld(ns, [
      ...claims.map((c) => ({ ref: `pvc/${c}`, namespace: ns })),
      ...['unsched', 'done', 'eph'].map((p) => ({ ref: `pod/${p}`, namespace: ns })),
    ]);
    const sim = simulate(world, claims.map((c) => `pvc/${c}`).concat(['-n', ns]));
    kubectl(['delete', 'pvc', ...claims, '-n', ns, '--wait=false']);
    await until('the unused claim is gone', () => get('pvc/unsched', ns) === undefined);
    for (const c of claims) expect(realFate(`pvc/${c}`, ns), c).toEqual(simFate(sim, 'PersistentVolumeClaim', c));
    expect(simFate(sim, 'PersistentVolumeClaim', 'done')).toEqual({ terminating: true, finalizers: ['kubernetes.io/pvc-protection'] });
    expect(simFate(sim, 'PersistentVolumeClaim', 'eph-data')).toEqual({ terminating: true, finalizers: ['kubernetes.io/pvc-protection'] });
  });

  it("R60 and R81: when its claim goes the PV controller releases a PV: Retain stays Released, Delete is deleted by the in-tree hostPath plugin, an external provisioner's waits", async () => {
    const ns = 'r60';
    const tag = path.basename(dir);
    const volume = (
      name: string,
      policy: string,
      annotations = '',
    ) => `apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ${name}${annotations}}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: ${policy}, storageClassName: manual, hostPath: {path: /tmp/${tag}-${name}}, claimRef: {namespace: ${ns}, name: c-${name}}}
---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c-${name}, namespace: ${ns}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: manual, volumeName: ${name}}\n`;
    const pvs = ['r60-retain', 'r60-delete', 'r60-external'];
    apply(
      `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\n${volume(pvs[0], 'Retain')}---\n${volume(pvs[1], 'Delete')}---\n${volume(pvs[2], 'Delete', ', annotations: {pv.kubernetes.io/provisioned-by: example.com/csi}')}`,
    );
    await until('the volumes are Bound', () => pvs.every((p) => get(`pv/${p}`)?.status?.phase === 'Bound'));
    const world = readWorld(ns, [...pvs.map((p) => ({ ref: `pv/${p}` })), ...pvs.map((p) => ({ ref: `pvc/c-${p}`, namespace: ns }))]);
    const sim = simulate(world, pvs.map((p) => `pvc/c-${p}`).concat(['-n', ns]));
    kubectl(['delete', 'pvc', ...pvs.map((p) => `c-${p}`), '-n', ns, '--wait=false']);
    await until(
      'the Delete volume is gone and the others Released',
      () =>
        get('pv/r60-delete') === undefined &&
        get('pv/r60-retain')?.status?.phase === 'Released' &&
        get('pv/r60-external')?.status?.phase === 'Released',
    );
    for (const p of pvs) expect(realFate(`pv/${p}`), p).toEqual(simFate(sim, 'PersistentVolume', p));
    expect(sim.notes).toContain(
      `PersistentVolumes provisioned by example.com/csi stay Released: that external provisioner deletes them (reclaimPolicy Delete), and no provisioner runs with --controllers=${KCM}.`,
    );
    expect(
      sim.steps
        .filter((s) => s.action === 'update-status')
        .map((s) => s.target.name)
        .sort(),
    ).toEqual([...pvs].sort());
  });

  it('R61: a DELETE of an Event strips its GC finalizer although Events have no GC policy', () => {
    const ns = 'r61';
    apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\napiVersion: v1\nkind: Event\nmetadata: {name: e1, namespace: ${ns}, finalizers: [example.com/hold, orphan]}
involvedObject: {kind: Pod, name: x, namespace: ${ns}}\nreason: Test\nmessage: test\n`);
    const world = readWorld(ns, [{ ref: 'event/e1', namespace: ns }]);
    const sim = simulate(world, ['event/e1', '-n', ns, '--cascade=foreground']);
    kubectl(['delete', 'event', 'e1', '-n', ns, '--cascade=foreground', '--wait=false']);
    expect(realFate('event/e1', ns)).toEqual(simFate(sim, 'Event', 'e1'));
    expect(realFate('event/e1', ns)).toEqual({ terminating: true, finalizers: ['example.com/hold'] });
  });

  it('R62: a shorter grace period on a terminating Pod moves its deletionTimestamp earlier by the difference', () => {
    const ns = 'r62';
    apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n---\n${serviceAccount(ns)}---
apiVersion: v1\nkind: Pod\nmetadata: {name: api-0, namespace: ${ns}}\nspec: {nodeName: node-1, terminationGracePeriodSeconds: 300, automountServiceAccountToken: false, containers: [{name: c, image: busybox}]}\n`);
    const world = readWorld(ns, [{ ref: 'pod/api-0', namespace: ns }]);
    const planFile = path.join(dir, `${ns}-plan.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        deletes: [
          { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'api-0' },
          { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'api-0', gracePeriodSeconds: 10 },
        ],
      }),
    );
    const sim = simulate(world, ['--plan', planFile]);
    kubectl(['delete', 'pod', 'api-0', '-n', ns, '--wait=false']);
    const first = Date.parse(get('pod/api-0', ns)!.metadata.deletionTimestamp!);
    kubectl(['delete', 'pod', 'api-0', '-n', ns, '--grace-period=10', '--wait=false']);
    const second = get('pod/api-0', ns)!.metadata;
    expect((first - Date.parse(second.deletionTimestamp!)) / 1000).toBe(290);
    expect(second.deletionGracePeriodSeconds).toBe(10);
    // The simulation's clock starts at 2025-01-01T00:00:00Z: the first DELETE sets +300 s, the second +10 s.
    expect(sim.steps.filter((s) => s.action === 'delete').map((s) => s.detail)[1]).toMatch(
      /grace period 10s; deletionTimestamp moved earlier to 2025-01-01T00:00:10Z/,
    );
  });

  it("the live path follows the cluster's /version: simulate says which version's behaviour it shows", () => {
    const r = spawnSync(process.execPath, [CLI, 'simulate', 'namespace/r61', '--kubeconfig', plane.kubeconfig], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Kubernetes 1.37 behaviour (the cluster's /version)");
    const json = spawnSync(
      process.execPath,
      [CLI, 'simulate', 'namespace/r61', '--kubeconfig', plane.kubeconfig, '--kube-version', '1.32', '-o', 'json'],
      { encoding: 'utf8' },
    );
    expect((JSON.parse(json.stdout) as SimulationResult).kubernetesVersion).toBe('1.32');
  });
});

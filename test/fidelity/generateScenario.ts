// Seeded scenario generator for differential testing against the real garbage collector (issue 15): small worlds
// of 2–40 objects in 1–3 namespaces plus cluster-scoped objects, with owner references valid and broken in every
// way the GC distinguishes, finalizers, terminating objects, and one to three DELETE requests. The same seed always
// gives the same scenario. Names carry the scenario's id, so that many scenarios share one control plane.
//
// Left out on purpose, because the real GC is racy there (docs/fidelity.md): an object carrying both GC finalizers,
// and an object already terminating with a GC finalizer (orphan or foregroundDeletion) when the world is created.

import type { Manifest } from '../../testkit/cluster/seedCluster';
import { prng } from '../sources/helpers';

/** The fixed CRDs every scenario may use (installed once per control plane): Widget (namespaced), Gadget (cluster). */
export const FIDELITY_GROUP = 'fidelity.kube-gc-lens.test';
export const SCENARIO_LABEL = `${FIDELITY_GROUP}/scenario`;
export const HOLD = 'example.com/hold';

export interface ScenarioRequest {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  propagationPolicy: 'Foreground' | 'Background' | 'Orphan' | null;
}

export interface Scenario {
  id: string;
  seed: number;
  /** Owners need not come first: the seeder orders them. uids are placeholders the seeder maps to real ones. */
  objects: Manifest[];
  requests: ScenarioRequest[];
}

interface KindSpec {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** The rest of a valid object of this kind (the real apiserver validates). */
  body(name: string, rnd: () => number): Manifest;
  weight: number;
}

const container = [{ name: 'c', image: 'registry.example/app:1' }];
const podTemplate = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: container } });

const KINDS: KindSpec[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', namespaced: true, weight: 6, body: () => ({ data: { k: 'v' } }) },
  { apiVersion: 'v1', kind: 'Secret', namespaced: true, weight: 2, body: () => ({ type: 'Opaque' }) },
  { apiVersion: 'v1', kind: 'Service', namespaced: true, weight: 1, body: () => ({ spec: { ports: [{ port: 80 }], clusterIP: 'None' } }) },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespaced: true,
    weight: 2,
    body: (n) => ({ spec: { replicas: 0, selector: { matchLabels: { app: n } }, template: podTemplate(n) } }),
  },
  {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    namespaced: true,
    weight: 3,
    body: (n) => ({ spec: { replicas: 0, selector: { matchLabels: { app: n } }, template: podTemplate(n) } }),
  },
  {
    apiVersion: 'batch/v1',
    kind: 'Job',
    namespaced: true,
    weight: 2,
    body: (n) => ({ spec: { suspend: true, template: { ...podTemplate(n), spec: { containers: container, restartPolicy: 'Never' } } } }),
  },
  {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    namespaced: true,
    weight: 2,
    body: (n) => ({ spec: { replicas: 0, selector: { app: n }, template: podTemplate(n) } }),
  },
  { apiVersion: 'v1', kind: 'Pod', namespaced: true, weight: 5, body: () => ({ spec: { containers: container } }) },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    weight: 2,
    body: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' } }),
  },
  { apiVersion: `${FIDELITY_GROUP}/v1`, kind: 'Widget', namespaced: true, weight: 3, body: () => ({ spec: { size: 1 } }) },
  {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    namespaced: false,
    weight: 1,
    body: () => ({
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/tmp/pv' },
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
      },
    }),
  },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', namespaced: false, weight: 1, body: () => ({ rules: [] }) },
  { apiVersion: `${FIDELITY_GROUP}/v1`, kind: 'Gadget', namespaced: false, weight: 2, body: () => ({ spec: { size: 1 } }) },
];

/** A Pod's status.phase as its kubelet would have written it; undefined leaves the server's Pending. */
const PHASES = [undefined, undefined, 'Running', 'Succeeded', 'Failed'] as const;

/** The CRDs of Widget and Gadget, to install once per control plane. */
export function fidelityCrds(): Manifest[] {
  const crd = (kind: string, plural: string, scope: 'Namespaced' | 'Cluster'): Manifest => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${FIDELITY_GROUP}` },
    spec: {
      group: FIDELITY_GROUP,
      scope,
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  return [crd('Widget', 'widgets', 'Namespaced'), crd('Gadget', 'gadgets', 'Cluster')];
}

/** One scenario from its seed; `id` becomes part of every name (lower-case letters and digits). */
export function generateScenario(seed: number, id = `s${seed}`): Scenario {
  const rnd = prng(seed); // mulberry32: the same scenario from a seed on every machine
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const chance = (p: number) => rnd() < p;
  const weighted = (): KindSpec => {
    const total = KINDS.reduce((s, k) => s + k.weight, 0);
    let r = rnd() * total;
    for (const k of KINDS) if ((r -= k.weight) < 0) return k;
    return KINDS[0];
  };
  let uidCounter = 0;
  const placeholder = () => `${id}-uid-${uidCounter++}`;
  const label = { [SCENARIO_LABEL]: id };

  const namespaces = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, i) => `${id}-ns${i}`);
  const objects: Manifest[] = namespaces.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, uid: placeholder(), labels: label },
  }));
  const count = 2 + Math.floor(rnd() * 38);
  for (let i = 0; i < count; i++) {
    const spec = weighted();
    const name = `${id}-${spec.kind.toLowerCase()}-${i}`;
    const metadata: Manifest = { name, uid: placeholder(), labels: label };
    if (spec.namespaced) metadata.namespace = pick(namespaces);
    objects.push({ apiVersion: spec.apiVersion, kind: spec.kind, metadata, ...spec.body(name, rnd) });
  }
  const content = objects.slice(namespaces.length);

  // Pods: scheduled or not (no kubelet runs: a scheduled Pod's DELETE is graceful and never finishes unless the Pod
  // has ended), in any phase, some using a claim of their namespace. Phases come from a stream of their own, so a
  // seed keeps the objects, references and requests it had before phases were generated.
  const phases = prng(seed ^ 0x5eed9a5e);
  for (const pod of content.filter((o) => o.kind === 'Pod')) {
    if (chance(0.4)) pod.spec.nodeName = 'node-1';
    const phase = PHASES[Math.floor(phases() * PHASES.length)];
    if (phase) pod.status = { phase };
    const claims = content.filter((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.namespace === pod.metadata.namespace);
    if (claims.length > 0 && chance(0.5)) {
      pod.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: pick(claims).metadata.name } }];
    }
  }
  // Claims and volumes, bound to each other or not. A storage class of the scenario's own keeps the PV binder (in
  // controllers mode) from binding a claim of one scenario to a volume of another.
  for (const o of content)
    if (o.kind === 'PersistentVolume' || o.kind === 'PersistentVolumeClaim') o.spec.storageClassName = `fidelity-${id}`;
  const pvs = content.filter((o) => o.kind === 'PersistentVolume');
  for (const claim of content.filter((o) => o.kind === 'PersistentVolumeClaim')) {
    if (pvs.length > 0 && chance(0.5)) {
      const pv = pick(pvs);
      if (!pv.spec.claimRef) {
        claim.spec.volumeName = pv.metadata.name;
        pv.spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name };
      }
    }
  }

  for (const o of content) {
    if (chance(0.55)) o.metadata.ownerReferences = ownerReferences(o);
    const finalizers: string[] = [];
    if (chance(0.12)) finalizers.push(HOLD);
    if (chance(0.1)) finalizers.push(pick(['foregroundDeletion', 'orphan']));
    if (chance(0.04)) finalizers.push(pick(['kubernetes.io/pvc-protection', 'kubernetes.io/pv-protection']));
    if (finalizers.length > 0) o.metadata.finalizers = finalizers;
    // Already terminating: held by a custom finalizer (a GC finalizer there is the start-up race, left out).
    if (chance(0.08) && !finalizers.some((f) => f === 'foregroundDeletion' || f === 'orphan')) {
      o.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
      o.metadata.finalizers = [...new Set([HOLD, ...finalizers])];
    }
  }
  for (const ns of objects.slice(0, namespaces.length)) {
    if (chance(0.1)) ns.spec = { finalizers: ['kubernetes', `${FIDELITY_GROUP}/cleanup`] };
  }

  function ownerReferences(dependent: Manifest): Manifest[] {
    const refs: Manifest[] = [];
    const n = chance(0.8) ? 1 : 2 + Math.floor(rnd() * 2);
    let controllerGiven = false;
    for (let i = 0; i < n; i++) {
      const ref = reference(dependent);
      if (!ref) continue;
      // The apiserver allows one controller reference per object.
      if (!controllerGiven && chance(0.4)) {
        ref.controller = true;
        controllerGiven = true;
      }
      if (chance(0.5)) ref.blockOwnerDeletion = true;
      if (!refs.some((r) => r.uid === ref.uid)) refs.push(ref);
    }
    return refs;
  }

  function reference(dependent: Manifest): Manifest | undefined {
    const sameNs = (o: Manifest) => !o.metadata.namespace || o.metadata.namespace === dependent.metadata.namespace;
    const candidates = objects.filter((o) => o !== dependent && (dependent.metadata.namespace ? sameNs(o) : !o.metadata.namespace));
    const valid = (o: Manifest) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid });
    const r = rnd();
    if (r < 0.55 && candidates.length > 0) return valid(pick(candidates));
    if (r < 0.62) return valid(dependent); // self-reference
    if (r < 0.7) return { apiVersion: 'v1', kind: 'ConfigMap', name: `${id}-gone-${uidCounter}`, uid: placeholder() }; // dangling
    const other = pick(objects.filter((o) => o !== dependent));
    if (!other) return undefined;
    if (r < 0.77) return { ...valid(other), uid: placeholder() }; // uid mismatch: the name exists, not that uid
    if (r < 0.83) return { ...valid(other), name: `${other.metadata.name}-x` }; // name mismatch
    if (r < 0.88) return { ...valid(other), kind: other.kind === 'ConfigMap' ? 'Secret' : 'ConfigMap', apiVersion: 'v1' }; // kind mismatch
    if (r < 0.94) return valid(other); // maybe in another namespace, or a namespaced owner of a cluster-scoped object
    return { apiVersion: 'nothere.example.com/v1', kind: 'Thing', name: other.metadata.name, uid: other.metadata.uid }; // unservable
  }

  const requests: ScenarioRequest[] = [];
  const deletable = objects.filter((o) => o.kind !== 'Namespace' || chance(0.3));
  for (let i = 0, n = 1 + Math.floor(rnd() * 3); i < n && deletable.length > 0; i++) {
    const target = pick(deletable);
    requests.push({
      apiVersion: target.apiVersion,
      kind: target.kind,
      namespace: target.metadata.namespace ?? '',
      name: target.metadata.name,
      propagationPolicy: pick(['Foreground', 'Background', 'Orphan', null] as const),
    });
  }
  return { id, seed, objects, requests };
}

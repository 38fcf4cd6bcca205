// The controllers besides the GC that finish deletions in a real cluster (`--controllers=builtin`): the
// kubelet, the namespace controller, pvc/pv-protection, the CRD cleanup, the built-in controllers that own
// well-known finalizers, and each custom finalizer's controller while its workload keeps running.
// In strict mode (`--controllers=gc`, R53) none of them acts.

import {
  CRD_CLEANUP_FINALIZER, NAMESPACE_FINALIZER, PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER,
  describe, isGcFinalizer, maybeScheduled, splitApiVersion, type KubeObject,
} from '../model';
import type { ApiServer } from './apiServer';
import type { FinalizerOwners } from './finalizerOwners';
import { describeCondition, finalizeBlocker } from './namespaceConditions';
import type { ObjectStore } from './objectStore';
import type { Timeline } from './timeline';
import type { ControllersMode } from './types';

/** Finalizers whose controllers are modelled one by one below rather than as "remove when running". */
const MODELLED = new Set([PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER, CRD_CLEANUP_FINALIZER]);

export class Controllers {
  constructor(
    private readonly mode: ControllersMode,
    private readonly store: ObjectStore,
    private readonly api: ApiServer,
    private readonly owners: FinalizerOwners,
    private readonly timeline: Timeline,
  ) {}

  /** One turn of every controller. True when the store changed. */
  runOnce(): boolean {
    if (this.mode === 'gc') return false;
    const before = this.store.writes;
    const pods: KubeObject[] = [];
    const namespaces: KubeObject[] = [];
    const withFinalizers: string[] = [];
    for (const uid of this.store.terminating) {
      const o = this.store.get(uid)!;
      if (isCore(o, 'Pod')) pods.push(o);
      else if (isCore(o, 'Namespace')) namespaces.push(o);
      if (o.finalizers.length) withFinalizers.push(uid);
    }
    // Kubelets first, then the namespace controller, then finalizer owners: one turn each, in this order.
    for (const pod of pods) this.kubelet(pod);
    for (const ns of namespaces) {
      const current = this.store.get(ns.uid);
      if (current) this.namespaceController(current);
    }
    for (const uid of withFinalizers) {
      const o = this.store.get(uid);
      if (o && o.finalizers.length) this.finalizerControllers(o);
    }
    return this.store.writes !== before;
  }

  /** The kubelet stops the containers and sends the grace-0 DELETE that ends graceful deletion. */
  private kubelet(pod: KubeObject): void {
    if (!maybeScheduled(pod) || !pod.deletionGracePeriodSeconds) return;
    this.api.delete('kubelet', {
      apiVersion: 'v1', kind: 'Pod', namespace: pod.namespace, name: pod.name, gracePeriodSeconds: 0, preconditions: { uid: pod.uid },
    }, `the kubelet on ${pod.facts.nodeName ?? 'its node'} stopped the containers`);
  }

  /**
   * The namespace controller: deletes everything in the namespace (Background, every sync, as the
   * namespaced-resources deleter does), and once nothing is left removes `kubernetes` from spec.finalizers,
   * unless its status says its passes fail on discovery (see namespaceConditions.ts).
   */
  private namespaceController(ns: KubeObject): void {
    if (!(ns.facts.namespaceFinalizers ?? []).includes(NAMESPACE_FINALIZER)) return;
    const content: KubeObject[] = [];
    for (const o of this.store.objectsInNamespace(ns.name)) {
      // A repeated Background DELETE of an object already terminating changes something only when it
      // carries a GC finalizer (R7 drops it); skipping the others saves work without changing the outcome.
      if (o.deletionTimestamp !== undefined && !o.finalizers.some(isGcFinalizer)) continue;
      content.push(o);
    }
    // Each DELETE changes only its own object, so everything collected above is still stored when its turn comes.
    for (const o of byDiscoveryOrder(content)) {
      this.api.delete('namespace-controller', {
        apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, propagationPolicy: 'Background', preconditions: { uid: o.uid },
      }, `namespace ${ns.name} is being deleted`);
    }
    if (this.store.hasObjectsIn(ns.name)) return;
    const blocker = finalizeBlocker(ns);
    if (blocker) {
      // Its pass ends in the error its status reports: the content goes, the namespace stays.
      this.timeline.note(`Assumed: Namespace ${ns.name} stays Terminating while its namespace controller keeps reporting ${describeCondition(blocker)}`);
      return;
    }
    this.api.removeNamespaceFinalizer('namespace-controller', ns.uid, NAMESPACE_FINALIZER, 'all content of the namespace is gone');
  }

  private finalizerControllers(o: KubeObject): void {
    for (const f of o.finalizers) {
      if (isGcFinalizer(f)) continue;
      const current = this.store.get(o.uid);
      if (!current || !current.finalizers.includes(f)) return;
      if (f === PVC_PROTECTION_FINALIZER && isCore(current, 'PersistentVolumeClaim')) {
        const users = podsUsingClaim(this.store, current);
        if (users.length === 0) this.api.removeFinalizer('pvc-protection-controller', current.uid, f, 'no Pod uses the claim any more');
        continue;
      }
      if (f === PV_PROTECTION_FINALIZER && isCore(current, 'PersistentVolume')) {
        if (!boundClaim(this.store, current)) this.api.removeFinalizer('pv-protection-controller', current.uid, f, 'the volume is not bound to a claim');
        continue;
      }
      if (f === CRD_CLEANUP_FINALIZER && current.facts.crd) {
        this.crdCleanup(current);
        continue;
      }
      if (MODELLED.has(f)) continue;
      const owner = this.owners.ownerOf(f);
      if (owner.type === 'builtin') {
        this.api.removeFinalizer(owner.controller, current.uid, f, 'done');
      } else if (owner.type === 'external') {
        this.api.removeFinalizer('external controller', current.uid, f, 'configured as running outside the input');
      } else if (owner.type === 'workload') {
        const w = this.store.get(owner.workload.uid);
        if (w && w.deletionTimestamp === undefined) {
          this.api.removeFinalizer(`controller ${describe(owner.workload)}`, current.uid, f, `cleanup done by the controller running in ${describe(owner.workload)}`);
          if (owner.how === 'guessed') this.timeline.note(`Assumed: ${f} is removed by ${describe(owner.workload)} (${owner.why}). Configure finalizerOwners if another workload owns it.`);
        }
      }
    }
  }

  /** The apiextensions-apiserver's finalizer controller: deletes every instance, then lets the CRD go. */
  private crdCleanup(crd: KubeObject): void {
    const { group, kind } = crd.facts.crd!;
    const instances = instancesOf(this.store, group, kind);
    for (const o of instances) {
      if (o.deletionTimestamp !== undefined) continue;
      this.api.delete('apiextensions-apiserver', {
        apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, propagationPolicy: null, preconditions: { uid: o.uid },
      }, `its CustomResourceDefinition ${crd.name} is being deleted`);
    }
    if (instancesOf(this.store, group, kind).length === 0) {
      this.api.removeFinalizer('apiextensions-apiserver', crd.uid, CRD_CLEANUP_FINALIZER, 'every instance is gone');
    }
  }
}

export function isCore(o: { apiVersion: string; kind: string }, kind: string): boolean {
  return o.apiVersion === 'v1' && o.kind === kind;
}

export function podsUsingClaim(store: ObjectStore, pvc: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const uid of store.podsMountingClaim(pvc.namespace, pvc.name)) {
    const p = store.get(uid);
    if (p && isCore(p, 'Pod') && p.facts.phase !== 'Succeeded' && p.facts.phase !== 'Failed') out.push(p);
  }
  return out;
}

/** The claim a PersistentVolume is still bound to, if it exists. */
export function boundClaim(store: ObjectStore, pv: KubeObject): KubeObject | undefined {
  const ref = pv.facts.claimRef;
  if (!ref || (pv.facts.phase !== undefined && pv.facts.phase !== 'Bound')) return undefined;
  const pvc = store.getByName('', 'PersistentVolumeClaim', ref.namespace, ref.name);
  return pvc && (!ref.uid || ref.uid === pvc.uid) ? pvc : undefined;
}

export function instancesOf(store: ObjectStore, group: string, kind: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const o of store.ofKind(kind)) if (splitApiVersion(o.apiVersion).group === group) out.push(o);
  return out;
}

/**
 * The namespace deleter's order: resource by resource as discovery lists them (core group first, then groups
 * alphabetically; kinds alphabetically), objects of one resource in input order. Bucketing, not sorting:
 * a namespace can hold tens of thousands of objects but only a few dozen resources.
 */
function byDiscoveryOrder(objects: KubeObject[]): KubeObject[] {
  // group → kind → objects: one bucket per resource, in first-seen order inside it.
  const buckets = new Map<string, Map<string, KubeObject[]>>();
  for (const o of objects) {
    const group = splitApiVersion(o.apiVersion).group;
    let kinds = buckets.get(group);
    if (!kinds) buckets.set(group, kinds = new Map());
    const list = kinds.get(o.kind);
    if (list) list.push(o);
    else kinds.set(o.kind, [o]);
  }
  // The core group first, then the others by name; kinds by name within a group.
  const groups = [...buckets.keys()].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const ordered: KubeObject[] = [];
  for (const g of groups) {
    const kinds = buckets.get(g)!;
    for (const k of [...kinds.keys()].sort()) for (const o of kinds.get(k)!) ordered.push(o);
  }
  return ordered;
}

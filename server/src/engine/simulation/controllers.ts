// The controllers besides the GC that finish deletions (Part H of gc-semantics.md): in a real cluster
// (`--controllers=builtin`) the kubelet, the namespace controller, pvc/pv-protection, the PV controller and volume
// provisioners, the CRD cleanup, the built-in controllers that own well-known finalizers, and each custom
// finalizer's controller while its workload keeps running; with a kube-controller-manager list, only those it
// names and the apiserver's CRD cleanup. In strict mode (`--controllers=gc`, R53) none of them acts.

import {
  CRD_CLEANUP_FINALIZER,
  NAMESPACE_FINALIZER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  describe,
  isGcFinalizer,
  maybeScheduled,
  splitApiVersion,
  type KubeObject,
} from '../model';
import type { ApiServer } from './apiServer';
import type { ControllerSet } from './controllerSet';
import type { FinalizerOwners } from './finalizerOwners';
import { describeCondition, finalizeBlocker } from './namespaceConditions';
import { heldContentFailures } from './contentFailures';
import { describeReported } from './webhookFailures';
import { blockingWebhooks, unavailableApiServices, type AdmissionRequest } from './clusterBlockers';
import type { ObjectStore, WatchEvent } from './objectStore';
import type { VolumeIndex } from './startState';
import type { Timeline } from './timeline';
import { kubeVersionText, orderedNamespaceDeletion, type KubeVersion } from './kubeVersion';

/** A CSI external-provisioner's finalizer on the volumes it provisioned (R81). */
const EXTERNAL_PROVISIONER_FINALIZER = 'external-provisioner.volume.kubernetes.io/finalizer';

/** Finalizers whose controllers are modelled one by one below rather than as "remove when running". */
const MODELLED = new Set([PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER, CRD_CLEANUP_FINALIZER]);

export class Controllers {
  /** PersistentVolumes whose volume or claim changed since the PV controller's last turn. */
  private readonly pvsToSync = new Set<string>();
  private pvFirstTurn = true;

  constructor(
    private readonly set: ControllerSet,
    private readonly store: ObjectStore,
    private readonly api: ApiServer,
    private readonly owners: FinalizerOwners,
    private readonly timeline: Timeline,
    private readonly version: KubeVersion,
    private readonly volumes: () => VolumeIndex,
  ) {
    if (set.pvBinder) store.watch((e) => this.observe(e));
  }

  /** The PV controller's informers: a volume is synced again only when it or its claim changed. */
  private observe(e: WatchEvent): void {
    if (isCore(e.obj, 'PersistentVolume')) this.pvsToSync.add(e.obj.uid);
    else if (isCore(e.obj, 'PersistentVolumeClaim'))
      for (const pv of this.volumes().byClaim.get(`${e.obj.namespace}\u0000${e.obj.name}`) ?? []) this.pvsToSync.add(pv);
  }

  /** One turn of every controller. True when the store changed. */
  runOnce(): boolean {
    if (this.set.strict) return false;
    const before = this.store.writes;
    if (this.set.pvBinder) this.persistentVolumeController();
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
    if (this.set.kubelet) for (const pod of pods) this.kubelet(pod);
    if (this.set.namespace)
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

  /**
   * The PV controller (R60, R81): a Bound volume whose claim is gone becomes Released; with reclaimPolicy Delete its
   * volume plugin or external provisioner then deletes it (assumed in builtin mode, where provisioners run; with a
   * controllers list only kube-controller-manager's in-tree plugins do, and an external provisioner is not there).
   */
  private persistentVolumeController(): void {
    // Only the volumes a sync can change: at first those the input leaves unsettled, then those an event touched
    // (a scan of every volume on every turn was a quarter of a 20,000-object namespace deletion).
    const index = this.volumes();
    if (this.pvFirstTurn) {
      this.pvFirstTurn = false;
      for (const uid of index.unsettled) this.pvsToSync.add(uid);
    }
    if (this.pvsToSync.size === 0) return;
    const uids = [...this.pvsToSync].sort((a, b) => index.order.get(a)! - index.order.get(b)!);
    this.pvsToSync.clear();
    for (const uid of uids) {
      const pv = this.store.get(uid);
      if (!pv) continue;
      const phase = volumePhase(this.store, pv, this.set);
      if (phase === 'Bound' && pv.facts.claimRef && !claimOf(this.store, pv)) {
        const ref = pv.facts.claimRef;
        this.api.updateStatus('persistentvolume-controller', pv.uid, 'Released', `its claim ${ref.namespace}/${ref.name} is gone`);
        continue;
      }
      if (phase !== 'Released' || pv.deletionTimestamp !== undefined || pv.facts.reclaimPolicy !== 'Delete') continue;
      const external =
        (pv.facts.provisionedBy !== undefined && !pv.facts.provisionedBy.startsWith('kubernetes.io/')) ||
        pv.finalizers.includes(EXTERNAL_PROVISIONER_FINALIZER);
      // One note per provisioner, not per volume: a cluster can release thousands at once.
      const by = pv.facts.provisionedBy;
      if (!this.set.realCluster && external) {
        this.timeline.note(
          `PersistentVolumes provisioned by ${by ?? 'a CSI external provisioner'} stay Released: that external provisioner deletes them (reclaimPolicy Delete), and no provisioner runs with --controllers=${this.set.spec}.`,
        );
        continue;
      }
      this.timeline.note(
        this.set.realCluster
          ? `Assumed: ${by ? `the provisioner ${by} deletes the PersistentVolumes it provisioned` : 'their volume plugins delete PersistentVolumes'} once released (reclaimPolicy Delete); provisioners are not modelled: where one does not run, its volumes stay Released.`
          : 'Assumed: an in-tree volume plugin of kube-controller-manager deletes released PersistentVolumes with reclaimPolicy Delete (its hostPath plugin does for paths under /tmp); where none can, the volume goes Failed instead.',
      );
      this.api.delete(
        'persistentvolume-controller',
        {
          apiVersion: 'v1',
          kind: 'PersistentVolume',
          namespace: '',
          name: pv.name,
          propagationPolicy: null,
          preconditions: { uid: pv.uid },
        },
        'reclaimPolicy Delete: the released volume is deleted',
      );
    }
  }

  /** The kubelet stops the containers and sends the grace-0 DELETE that ends graceful deletion. */
  private kubelet(pod: KubeObject): void {
    if (!maybeScheduled(pod) || !pod.deletionGracePeriodSeconds || !this.admitted({ operation: 'DELETE', object: pod })) return;
    this.api.delete(
      'kubelet',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: pod.namespace,
        name: pod.name,
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.uid },
      },
      `the kubelet on ${pod.facts.nodeName ?? 'its node'} stopped the containers`,
      pod,
    );
  }

  /** R75: whether admission lets the request through (no failurePolicy: Fail webhook without a backend intercepts it). */
  private admitted(req: AdmissionRequest): boolean {
    const hooks = this.hasWebhooks ? blockingWebhooks(this.store, req) : [];
    return hooks.length === 0;
  }

  /** The input holds a webhook configuration (most do not: then no request is checked). */
  private get hasWebhooks(): boolean {
    if (this.webhookConfigs === undefined) {
      this.webhookConfigs = false;
      for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'])
        for (const c of this.store.ofKind(kind)) if (c.facts.webhooks?.length) this.webhookConfigs = true;
    }
    return this.webhookConfigs;
  }
  private webhookConfigs: boolean | undefined;

  /**
   * The namespace controller (R57): a Namespace whose spec.finalizers is empty is finalized and left alone; any
   * other has its content deleted (Background, every sync, as the namespaced-resources deleter does), Pods first
   * from 1.33 on, and once nothing is left `kubernetes` (only) is removed from spec.finalizers, unless its status
   * says its passes fail on discovery (see namespaceConditions.ts).
   */
  private namespaceController(ns: KubeObject): void {
    const spec = ns.facts.namespaceFinalizers ?? [];
    if (spec.length === 0) return;
    const ordered = orderedNamespaceDeletion(this.version);
    const pods: KubeObject[] = [];
    const content: KubeObject[] = [];
    for (const o of this.store.objectsInNamespace(ns.name)) {
      if (ordered && isCore(o, 'Pod')) pods.push(o);
      // A repeated Background DELETE of an object already terminating changes something only when it
      // carries a GC finalizer (R7 drops it); skipping the others saves work without changing the outcome.
      if (o.deletionTimestamp !== undefined && !o.finalizers.some(isGcFinalizer)) continue;
      if (!ordered || !isCore(o, 'Pod')) content.push(o);
    }
    const why = `namespace ${ns.name} is being deleted`;
    const del = (o: KubeObject) =>
      this.admitted({ operation: 'DELETE', object: o }) &&
      this.api.delete(
        'namespace-controller',
        {
          apiVersion: o.apiVersion,
          kind: o.kind,
          namespace: o.namespace,
          name: o.name,
          propagationPolicy: 'Background',
          preconditions: { uid: o.uid },
        },
        why,
        o,
      );
    if (pods.length) {
      // R57 (OrderedNamespaceDeletion, 1.33+): Pods go first; nothing else is touched while one remains.
      for (const p of pods) if (p.deletionTimestamp === undefined || p.finalizers.some(isGcFinalizer)) del(p);
      for (const p of pods) if (this.store.get(p.uid)) return;
    }
    if (!ordered) this.noteUnorderedRace(ns, content);
    // Each DELETE changes only its own object, so everything collected above is still stored when its turn comes.
    for (const o of byDiscoveryOrder(content)) del(o);
    if (this.store.hasObjectsIn(ns.name)) return;
    if (!spec.includes(NAMESPACE_FINALIZER)) return;
    // R74: an unavailable APIService fails every pass's discovery; R75: a webhook may reject the finalize UPDATE.
    if (unavailableApiServices(this.store).length || !this.admitted({ operation: 'UPDATE', object: ns, subresource: 'finalize' })) return;
    // R83: its content-failure condition names a webhook that still rejects the deleter's DELETEs.
    const reported = heldContentFailures(ns, this.store);
    if (reported.length) {
      for (const r of reported.filter((f) => !f.blocker))
        this.timeline.note(
          `Assumed: Namespace ${ns.name} stays Terminating while its namespace controller keeps reporting ${describeReported(r.failure)} (no configuration of that webhook is in the input)`,
        );
      return;
    }
    const blocker = finalizeBlocker(ns, this.store);
    if (blocker) {
      // Its pass ends in the error its status reports: the content goes, the namespace stays.
      this.timeline.note(
        `Assumed: Namespace ${ns.name} stays Terminating while its namespace controller keeps reporting ${describeCondition(blocker)}`,
      );
      return;
    }
    this.api.removeNamespaceFinalizer('namespace-controller', ns.uid, NAMESPACE_FINALIZER, 'all content of the namespace is gone');
  }

  /**
   * Before 1.33 the deleter walks resource types in Go map order, so an operator deleted in the same pass as the
   * objects that carry its finalizer may or may not remove them first (R51, R57): the simulation shows the
   * outcome where it does not, and says so.
   */
  private noteUnorderedRace(ns: KubeObject, content: KubeObject[]): void {
    const deleted = new Set(content.map((o) => o.uid));
    for (const o of content) {
      for (const f of o.finalizers) {
        if (isGcFinalizer(f) || MODELLED.has(f)) continue;
        const owner = this.owners.ownerOf(f, o);
        if (owner.type !== 'workload' || !deleted.has(owner.workload.uid)) continue;
        this.timeline.note(
          `Timing-dependent (Kubernetes ${kubeVersionText(this.version)}): before 1.33 the namespace controller deletes every resource type of namespace ${ns.name} in one pass, in no fixed order, so ${describe(owner.workload)} may still remove ${f} from ${describe(o)} before its Pods stop. This simulation shows the outcome where it does not (from 1.33 on, Pods go first and that outcome is certain).`,
        );
      }
    }
  }

  private finalizerControllers(o: KubeObject): void {
    for (const f of o.finalizers) {
      if (isGcFinalizer(f)) continue;
      const current = this.store.get(o.uid);
      if (!current || !current.finalizers.includes(f)) return;
      // R75: the finalizer-removing UPDATE of any controller goes through admission.
      if (!this.admitted({ operation: 'UPDATE', object: current })) return;
      if (f === PVC_PROTECTION_FINALIZER && isCore(current, 'PersistentVolumeClaim')) {
        if (!this.set.pvcProtection) continue;
        const users = podsUsingClaim(this.store, current);
        if (users.length === 0)
          this.api.removeFinalizer('pvc-protection-controller', current.uid, f, 'no scheduled Pod uses the claim any more');
        continue;
      }
      if (f === PV_PROTECTION_FINALIZER && isCore(current, 'PersistentVolume')) {
        if (!this.set.pvProtection) continue;
        if (!volumeBound(this.store, current, this.set))
          this.api.removeFinalizer(
            'pv-protection-controller',
            current.uid,
            f,
            `the volume is not Bound (phase ${volumePhase(this.store, current, this.set)})`,
          );
        continue;
      }
      if (f === CRD_CLEANUP_FINALIZER && current.facts.crd) {
        if (this.set.crdCleanup) this.crdCleanup(current);
        continue;
      }
      if (MODELLED.has(f)) continue;
      const owner = this.owners.ownerOf(f, current);
      if (owner.type === 'builtin') {
        if (this.set.realCluster || (owner.kcm !== undefined && this.set.runs(owner.kcm)))
          this.api.removeFinalizer(owner.controller, current.uid, f, 'done');
      } else if (!this.set.realCluster) {
        // A kube-controller-manager list runs no operator and nothing outside the control plane.
        continue;
      } else if (owner.type === 'external') {
        const why = owner.how === 'restored' ? 'its controller runs again' : 'configured as running outside the input';
        this.api.removeFinalizer('external controller', current.uid, f, why);
      } else if (owner.type === 'workload') {
        if (workloadRuns(this.store, owner.workload.uid, this.version)) {
          this.api.removeFinalizer(
            `controller ${describe(owner.workload)}`,
            current.uid,
            f,
            `cleanup done by the controller running in ${describe(owner.workload)}`,
          );
          if (owner.how === 'guessed')
            this.timeline.note(
              `Assumed: ${f} is removed by ${describe(owner.workload)} (${owner.why}). If another workload owns it, ${this.owners.hint}.`,
            );
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
      this.api.delete(
        'apiextensions-apiserver',
        {
          apiVersion: o.apiVersion,
          kind: o.kind,
          namespace: o.namespace,
          name: o.name,
          propagationPolicy: null,
          preconditions: { uid: o.uid },
        },
        `its CustomResourceDefinition ${crd.name} is being deleted`,
      );
    }
    if (instancesOf(this.store, group, kind).length === 0) {
      this.api.removeFinalizer('apiextensions-apiserver', crd.uid, CRD_CLEANUP_FINALIZER, 'every instance is gone');
    }
  }
}

export function isCore(o: { apiVersion: string; kind: string }, kind: string): boolean {
  return o.apiVersion === 'v1' && o.kind === kind;
}

/** R59: the Pods that keep a terminating claim (pvc-protection's podUsesPVCForDeletion). */
export function podsUsingClaim(store: ObjectStore, pvc: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const uid of store.podsMountingClaim(pvc.namespace, pvc.name)) {
    const p = store.get(uid);
    if (p && isCore(p, 'Pod') && podUsesClaim(p, pvc)) out.push(p);
  }
  return out;
}

function podUsesClaim(pod: KubeObject, pvc: KubeObject): boolean {
  // Only a scheduled Pod counts: the kubelet refuses to start one with a claim being deleted.
  if (!maybeScheduled(pod)) return false;
  if (pod.facts.claimNames?.includes(pvc.name)) return true;
  // An ephemeral volume counts while the Pod is not shut down, and only for the claim made for that Pod.
  const shutDown = pod.deletionTimestamp !== undefined && pod.deletionGracePeriodSeconds === 0;
  return (
    !shutDown &&
    (pod.facts.ephemeralVolumes ?? []).some((v) => `${pod.name}-${v}` === pvc.name) &&
    pvc.ownerReferences.some((r) => r.controller === true && r.uid === pod.uid)
  );
}

/**
 * A PersistentVolume's phase as the PV controller keeps it: as stored, or for a manifest without status what the
 * controller would set (Bound while its claim exists, else Available), or Pending (create's) where none runs.
 */
export function volumePhase(store: ObjectStore, pv: KubeObject, set: ControllerSet): string {
  if (pv.facts.phase !== undefined) return pv.facts.phase;
  if (!set.pvBinder) return 'Pending';
  return claimOf(store, pv) ? 'Bound' : 'Available';
}

/** R60: pv-protection keeps its finalizer only while the volume is Bound. */
export function volumeBound(store: ObjectStore, pv: KubeObject, set: ControllerSet): boolean {
  return volumePhase(store, pv, set) === 'Bound';
}

/** The claim a PersistentVolume names in spec.claimRef, if it is stored (with that uid, when given). */
export function claimOf(store: ObjectStore, pv: KubeObject): KubeObject | undefined {
  const ref = pv.facts.claimRef;
  if (!ref) return undefined;
  const pvc = store.getByName('', 'PersistentVolumeClaim', ref.namespace, ref.name);
  return pvc && (!ref.uid || ref.uid === pvc.uid) ? pvc : undefined;
}

/** The claim a PersistentVolume is still bound to, if it exists. */
export function boundClaim(store: ObjectStore, pv: KubeObject): KubeObject | undefined {
  if (pv.facts.phase !== undefined && pv.facts.phase !== 'Bound') return undefined;
  return claimOf(store, pv);
}

/**
 * Does the workload that runs a custom finalizer's controller still run it? Not once it is being deleted, nor
 * (R57, 1.33+) once its namespace is being emptied: its Pods go first and a terminating namespace admits no new
 * ones, so it is gone before anything else in the namespace is deleted.
 */
export function workloadRuns(store: ObjectStore, uid: string, version: KubeVersion): boolean {
  const w = store.get(uid);
  if (!w || w.deletionTimestamp !== undefined || w.facts.scaledToZero) return false;
  if (!w.namespace || !orderedNamespaceDeletion(version)) return true;
  const ns = store.getByName('', 'Namespace', '', w.namespace);
  return !(ns && ns.deletionTimestamp !== undefined && (ns.facts.namespaceFinalizers ?? []).length > 0);
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
    if (!kinds) buckets.set(group, (kinds = new Map()));
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

// What kube-apiserver does with the requests of a deletion (Part A of gc-semantics.md): DELETE with its
// options and finalizer rewrite, graceful Pod deletion, Namespace and CRD specifics, removal through an
// update that empties the finalizers, and the PATCHes the garbage collector sends.

import type { KindInfo, KindRegistry } from '../kinds/kindRegistry';
import {
  CRD_CLEANUP_FINALIZER,
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  describe,
  isGcFinalizer,
  maybeScheduled,
  splitApiVersion,
  type KubeObject,
  type ObjectIdentity,
  type OwnerReference,
} from '../model';
import type { ObjectStore } from './objectStore';
import type { SimulatedClock, Timeline } from './timeline';
import type { Actor, DeleteRequest, PropagationPolicy } from './types';

export interface RequestOutcome {
  status: number;
  message: string;
  /** The object after the request (undefined when it is gone or was never found). */
  object?: KubeObject;
  removed: boolean;
}

export type GetResult = { status: 200; object: KubeObject; info: KindInfo } | { status: 404; info: KindInfo } | { status: 'unmapped' };

/** R55: NamespaceLifecycle's immortal namespaces (k8s.io/apiserver admission/plugin/namespace/lifecycle). */
const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);
const POLICIES: PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

export class ApiServer {
  /** (group, kind) of custom kinds → uid of the CRD that serves them: a kind stops being served with its CRD. */
  private readonly crdOf = new Map<string, string>();

  constructor(
    private readonly store: ObjectStore,
    private readonly kinds: KindRegistry,
    private readonly timeline: Timeline,
    private readonly clock: SimulatedClock,
  ) {
    for (const o of store.ofKind('CustomResourceDefinition')) {
      if (o.facts.crd) this.crdOf.set(`${o.facts.crd.group}/${o.facts.crd.kind}`, o.uid);
    }
  }

  /** The REST mapping as it is now: kinds of a CRD that has left storage are no longer served. */
  resourceVersion(uid: string): number | undefined {
    return this.store.resourceVersion(uid);
  }

  restMapping(apiVersion: string, kind: string): KindInfo | undefined {
    const info = this.kinds.restMapping(apiVersion, kind);
    if (info?.origin === 'crd') {
      const crdUid = this.crdOf.get(`${info.group}/${info.kind}`);
      if (crdUid !== undefined && !this.store.get(crdUid)) return undefined;
    }
    return info;
  }

  /** GET by name. `uidHint` only makes the lookup cheaper: the answer is the object stored under that name. */
  get(apiVersion: string, kind: string, namespace: string, name: string, uidHint?: string): GetResult {
    const info = this.restMapping(apiVersion, kind);
    if (!info) return { status: 'unmapped' };
    const object = this.find(info, info.namespaced ? namespace : '', name, uidHint);
    return object ? { status: 200, object, info } : { status: 404, info };
  }

  private find(info: KindInfo, namespace: string, name: string, uidHint?: string, stored?: KubeObject): KubeObject | undefined {
    if (uidHint !== undefined) {
      const o = stored?.uid === uidHint && this.store.isStored(stored) ? stored : this.store.get(uidHint);
      if (o && o.name === name && o.namespace === namespace && o.kind === info.kind && splitApiVersion(o.apiVersion).group === info.group)
        return o;
    }
    return this.store.getByName(info.group, info.kind, namespace, name);
  }

  /** A DELETE request (R1–R11). Rejected requests are recorded as a 'reject' step and change nothing. */
  /** `stored`: the object the caller just read, which saves the lookup while it is still the stored one. */
  delete(actor: Actor, req: DeleteRequest, why?: string | (() => string), stored?: KubeObject): RequestOutcome {
    const policy = req.propagationPolicy ?? undefined;
    const target = (): ObjectIdentity => ({
      apiVersion: req.apiVersion,
      kind: req.kind,
      namespace: req.namespace,
      name: req.name,
      uid: req.preconditions?.uid ?? '',
    });
    // R1: DeleteOptions are validated before anything else.
    if (req.orphanDependents !== undefined && policy !== undefined) {
      return this.reject(actor, target(), 422, 'orphanDependents and propagationPolicy cannot both be set');
    }
    if (policy !== undefined && !POLICIES.includes(policy)) {
      return this.reject(actor, target(), 422, `propagationPolicy ${String(policy)} is not one of Foreground, Background, Orphan`);
    }
    const info = this.restMapping(req.apiVersion, req.kind);
    if (!info)
      return this.reject(
        actor,
        target(),
        404,
        `the server could not find the requested resource: ${req.apiVersion} ${req.kind} is not served`,
      );
    const obj = this.find(info, info.namespaced ? req.namespace : '', req.name, req.preconditions?.uid, stored);
    if (!obj) return this.reject(actor, target(), 404, `${describe(target())} not found`);
    if (req.preconditions?.uid !== undefined && req.preconditions.uid !== obj.uid) {
      return this.reject(
        actor,
        obj,
        409,
        `precondition failed: uid in precondition ${req.preconditions.uid}, uid in object meta ${obj.uid}`,
      );
    }
    if (
      req.preconditions?.resourceVersion !== undefined &&
      req.preconditions.resourceVersion !== String(this.store.resourceVersion(obj.uid))
    ) {
      return this.reject(actor, obj, 409, `precondition failed: resourceVersion ${req.preconditions.resourceVersion} does not match`);
    }
    // R55: the NamespaceLifecycle admission plugin refuses to delete these, whoever asks (after the lookup and the
    // preconditions: admission sees the stored object).
    if (info.group === '' && info.kind === 'Namespace' && IMMORTAL_NAMESPACES.has(obj.name)) {
      return this.reject(actor, obj, 403, `namespaces "${obj.name}" is forbidden: this namespace may not be deleted`);
    }
    const grace = req.gracePeriodSeconds === undefined ? undefined : req.gracePeriodSeconds < 0 ? 1 : req.gracePeriodSeconds;
    if (info.group === '' && info.kind === 'Namespace') return this.deleteNamespace(actor, obj, req, info);
    if (isCrd(info)) return this.deleteCustomResourceDefinition(actor, obj, req, info, why);
    return this.genericDelete(actor, obj, req, info, grace, why);
  }

  /**
   * R58: the CRD registry's Delete. The first DELETE only sets deletionTimestamp and adds the cleanup finalizer,
   * whatever the propagation policy (no orphan, no foregroundDeletion). R80: a repeated DELETE leaves the
   * finalizers as they are too (kube-apiserver 1.37.2 adds no GC finalizer to a terminating CRD).
   */
  private deleteCustomResourceDefinition(
    actor: Actor,
    obj: KubeObject,
    req: DeleteRequest,
    info: KindInfo,
    why?: string | (() => string),
  ): RequestOutcome {
    const whyText = typeof why === 'function' ? why() : why;
    const because = whyText ? `; why: ${whyText}` : '';
    if (obj.deletionTimestamp !== undefined) {
      if (obj.finalizers.length === 0)
        return this.removeNow(actor, obj, `${policyText(req, obj, info, this.kinds)}; no finalizers left, removed at once${because}`);
      return { status: 200, message: `${describe(obj)} is already terminating; nothing changes`, object: obj, removed: false };
    }
    const step = this.timeline.record(
      actor,
      'delete',
      obj,
      `${policyText(req, obj, info, this.kinds)}, which a CustomResourceDefinition ignores; condition Terminating${because}`,
    );
    this.timeline.deletionStartedAt.set(obj.uid, step);
    const finalizers = obj.finalizers.includes(CRD_CLEANUP_FINALIZER) ? obj.finalizers : [...obj.finalizers, CRD_CLEANUP_FINALIZER];
    if (finalizers !== obj.finalizers)
      this.timeline.record(
        actor,
        'add-finalizer',
        obj,
        `${CRD_CLEANUP_FINALIZER} (the apiextensions-apiserver deletes every instance first)`,
      );
    const written: KubeObject = { ...obj, deletionTimestamp: this.clock.at(), deletionGracePeriodSeconds: 0, finalizers };
    this.store.write(written);
    return { status: 200, message: 'deletion started', object: written, removed: false };
  }

  /** The generic registry's Delete (store.go): graceful deletion, the finalizer rewrite, the outcome table R8. */
  private genericDelete(
    actor: Actor,
    obj: KubeObject,
    req: DeleteRequest,
    info: KindInfo,
    grace: number | undefined,
    why?: string | (() => string),
  ): RequestOutcome {
    // Built only when a step keeps it (see Timeline.record).
    const because = () => {
      const text = typeof why === 'function' ? why() : why;
      return text ? `; why: ${text}` : '';
    };
    const graceful = info.group === '' && info.kind === 'Pod';
    let gracefulNow = false;
    let deletionTimestamp = obj.deletionTimestamp;
    let deletionGracePeriodSeconds = obj.deletionGracePeriodSeconds;
    let period = 0;
    if (graceful) {
      if (obj.deletionTimestamp !== undefined) {
        const current = obj.deletionGracePeriodSeconds;
        if (current !== undefined && current !== 0) {
          // R7: only a shorter grace period is honoured; anything else changes nothing at all.
          if (grace === undefined || grace >= current) {
            return {
              status: 200,
              message: `${describe(obj)} is already terminating gracefully (${current}s); nothing changes`,
              object: obj,
              removed: false,
            };
          }
          // R62: deletionTimestamp moves back by the old period and forward by the new one, never into the past
          // (then a graceful request keeps a period of 1s for the kubelet's final DELETE).
          gracefulNow = true;
          period = grace;
          const now = this.clock.at();
          const moved = shiftTimestamp(obj.deletionTimestamp, grace - current);
          if (moved === undefined || moved < now) {
            deletionTimestamp = now;
            if (period !== 0) period = 1;
          } else {
            deletionTimestamp = moved;
          }
          deletionGracePeriodSeconds = period;
        }
      } else {
        // R6: the grace period of a Pod's first DELETE.
        period = grace ?? obj.facts.terminationGracePeriodSeconds ?? 30;
        if (!maybeScheduled(obj) || obj.facts.phase === 'Succeeded' || obj.facts.phase === 'Failed') period = 0;
        if (period < 0) period = 1;
        gracefulNow = true;
        deletionTimestamp = this.clock.at(period);
        deletionGracePeriodSeconds = period;
      }
    }
    const rewrite = this.rewriteGcFinalizers(obj, req, info);
    const finalizers = rewrite.finalizers;
    if (!gracefulNow && obj.finalizers.length === 0 && !rewrite.changed) {
      return this.removeNow(actor, obj, () => `${policyText(req, obj, info, this.kinds)}; no finalizers, removed at once${because()}`);
    }
    if (!gracefulNow && finalizers.length === 0) {
      this.recordFinalizerRewrite(actor, obj, finalizers);
      return this.removeNow(actor, obj, () => `${policyText(req, obj, info, this.kinds)}; no finalizers left, removed at once${because()}`);
    }
    const patch: Partial<KubeObject> = { finalizers };
    if (gracefulNow) {
      patch.deletionTimestamp = deletionTimestamp;
      patch.deletionGracePeriodSeconds = deletionGracePeriodSeconds;
    } else {
      // markAsDeleting: the timestamp is only ever moved earlier; the grace period becomes 0.
      patch.deletionTimestamp = obj.deletionTimestamp ?? this.clock.at();
      patch.deletionGracePeriodSeconds = 0;
    }
    const wasTerminating = obj.deletionTimestamp !== undefined;
    const unchanged =
      wasTerminating &&
      !rewrite.changed &&
      patch.deletionTimestamp === obj.deletionTimestamp &&
      patch.deletionGracePeriodSeconds === obj.deletionGracePeriodSeconds;
    if (unchanged) return { status: 200, message: `${describe(obj)} is already terminating; nothing changes`, object: obj, removed: false };
    const detail = () => {
      const detailParts = [policyText(req, obj, info, this.kinds)];
      if (gracefulNow) detailParts.push(`grace period ${deletionGracePeriodSeconds}s`);
      if (wasTerminatingGracefully(obj) && patch.deletionTimestamp !== obj.deletionTimestamp)
        detailParts.push(`deletionTimestamp moved earlier to ${patch.deletionTimestamp}`);
      if (finalizers.length) detailParts.push(`waits for finalizers [${finalizers.join(', ')}]`);
      return detailParts.join('; ') + because();
    };
    const step = this.timeline.record(actor, 'delete', obj, detail);
    if (!wasTerminating) this.timeline.deletionStartedAt.set(obj.uid, step);
    this.recordFinalizerRewrite(actor, obj, finalizers);
    if (finalizers.length === 0 && gracefulNow && period === 0) {
      // R8: update, then immediate removal. Nothing can act between the two, so only the removal is written (and
      // the update is not even copied: the object removed is the stored one, as the update never reached storage).
      return this.removeNow(actor, obj, 'grace period 0 and no finalizers', true);
    }
    // `obj` is the stored object (every caller passes what it just read or wrote), so the patch applies to it.
    const written: KubeObject = { ...obj, ...patch };
    this.store.write(written);
    return { status: 200, message: 'deletion started', object: written, removed: false };
  }

  /** The Namespace registry's Delete (R11): phase Terminating, then removal only once spec.finalizers is empty. */
  private deleteNamespace(actor: Actor, obj: KubeObject, req: DeleteRequest, info: KindInfo): RequestOutcome {
    if (!obj.deletionTimestamp) {
      // Its own GC-finalizer rules: options decide, otherwise the existing finalizers stay as they are.
      const have = (f: string) => obj.finalizers.includes(f);
      const orphan =
        req.orphanDependents !== undefined
          ? req.orphanDependents
          : req.propagationPolicy
            ? req.propagationPolicy === 'Orphan'
            : have(ORPHAN_FINALIZER);
      const foreground =
        req.orphanDependents !== undefined
          ? !req.orphanDependents
          : req.propagationPolicy
            ? req.propagationPolicy === 'Foreground'
            : have(FOREGROUND_FINALIZER);
      let finalizers = obj.finalizers.filter((f) => !isGcFinalizer(f));
      if (orphan) finalizers = [...finalizers, ORPHAN_FINALIZER];
      if (foreground) finalizers = [...finalizers, FOREGROUND_FINALIZER];
      const specFinalizers = obj.facts.namespaceFinalizers ?? [];
      const step = this.timeline.record(
        actor,
        'delete',
        obj,
        `${policyText(req, obj, info, this.kinds)}; phase Terminating` +
          (specFinalizers.length ? `; waits for spec.finalizers [${specFinalizers.join(', ')}]` : ''),
      );
      this.timeline.deletionStartedAt.set(obj.uid, step);
      const current = { ...obj, deletionTimestamp: this.clock.at(), finalizers, facts: { ...obj.facts, phase: 'Terminating' } };
      this.recordFinalizerRewrite(actor, obj, finalizers);
      this.store.write(current);
      // R56: the first DELETE never removes a Namespace, whatever spec.finalizers holds.
      return { status: 200, message: 'namespace is terminating', object: current, removed: false };
    }
    if ((obj.facts.namespaceFinalizers ?? []).length > 0) {
      return { status: 200, message: 'namespace is terminating', object: obj, removed: false };
    }
    // R56: a later DELETE once spec.finalizers is empty goes through the generic registry.
    return this.genericDelete(actor, obj, req, info, req.gracePeriodSeconds);
  }

  /** R2–R4: which GC finalizers the object should carry after this request. */
  private rewriteGcFinalizers(obj: KubeObject, req: DeleteRequest, info: KindInfo): { finalizers: string[]; changed: boolean } {
    const policy = req.propagationPolicy ?? undefined;
    // Fast path for the common case: nothing to add and nothing to remove.
    if (obj.finalizers.length === 0 && req.orphanDependents === undefined && policy === 'Background')
      return { finalizers: obj.finalizers, changed: false };
    const typePolicy = this.kinds.defaultGcPolicy(req.apiVersion, info.kind);
    if (typePolicy === 'unsupported') {
      // R61: no GC finalizer is added, but the list is still rebuilt without them.
      if (!obj.finalizers.some(isGcFinalizer)) return { finalizers: obj.finalizers, changed: false };
      return { finalizers: obj.finalizers.filter((f) => !isGcFinalizer(f)), changed: true };
    }
    const firstGc = obj.finalizers.find(isGcFinalizer);
    let orphan: boolean;
    if (req.orphanDependents !== undefined) orphan = req.orphanDependents;
    else if (policy !== undefined) orphan = policy === 'Orphan';
    else if (firstGc !== undefined) orphan = firstGc === ORPHAN_FINALIZER;
    else orphan = typePolicy === 'orphan';
    let foreground: boolean;
    if (req.orphanDependents !== undefined) foreground = false;
    else if (policy !== undefined) foreground = policy === 'Foreground';
    else foreground = firstGc === FOREGROUND_FINALIZER;
    const finalizers = obj.finalizers.filter((f) => !isGcFinalizer(f));
    if (orphan) finalizers.push(ORPHAN_FINALIZER);
    if (foreground) finalizers.push(FOREGROUND_FINALIZER);
    const before = new Set(obj.finalizers);
    const after = new Set(finalizers);
    const changed = before.size !== after.size || [...after].some((f) => !before.has(f));
    return changed ? { finalizers, changed } : { finalizers: obj.finalizers, changed };
  }

  private recordFinalizerRewrite(actor: Actor, obj: KubeObject, finalizers: string[]): void {
    for (const f of finalizers) if (!obj.finalizers.includes(f)) this.timeline.record(actor, 'add-finalizer', obj, f);
    for (const f of obj.finalizers)
      if (!finalizers.includes(f))
        this.timeline.record(actor, 'remove-finalizer', obj, `${f} (replaced by the request's propagation policy)`);
  }

  /**
   * An update that removes one finalizer (what the GC and other controllers do). If the object is
   * terminating, its grace period is 0 or unset and no finalizer is left, it is removed instead (R9).
   */
  removeFinalizer(actor: Actor, uid: string, finalizer: string, why: string): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'already gone', removed: false };
    if (!obj.finalizers.includes(finalizer)) return { status: 200, message: 'finalizer already gone', object: obj, removed: false };
    const finalizers = obj.finalizers.filter((f) => f !== finalizer);
    this.timeline.record(actor, 'remove-finalizer', obj, `${finalizer}: ${why}`);
    return this.writeOrRemove(actor, { ...obj, finalizers }, obj);
  }

  /** The namespace controller's /finalize: removes one of spec.finalizers. */
  removeNamespaceFinalizer(actor: Actor, uid: string, finalizer: string, why: string): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'already gone', removed: false };
    const spec = obj.facts.namespaceFinalizers ?? [];
    if (!spec.includes(finalizer)) return { status: 200, message: 'finalizer already gone', object: obj, removed: false };
    this.timeline.record(actor, 'remove-finalizer', obj, `spec.finalizers ${finalizer}: ${why}`);
    return this.writeOrRemove(actor, { ...obj, facts: { ...obj.facts, namespaceFinalizers: spec.filter((f) => f !== finalizer) } }, obj);
  }

  /** A status update that sets status.phase (the PV controller's Released, R60). */
  updateStatus(actor: Actor, uid: string, phase: string, why: string): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'not found', removed: false };
    this.timeline.record(actor, 'update-status', obj, `status.phase ${phase}: ${why}`);
    const written = { ...obj, facts: { ...obj.facts, phase } };
    this.store.write(written);
    return { status: 200, message: 'updated', object: written, removed: false };
  }

  /** A scale of a workload (spec.replicas): at 0, the controller it runs stops (R73). */
  scale(actor: Actor, uid: string, replicas: number, why: string): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'not found', removed: false };
    this.timeline.record(actor, 'update-spec', obj, `spec.replicas ${replicas}: ${why}`);
    const { scaledToZero: _was, ...facts } = obj.facts;
    const written = { ...obj, facts: replicas === 0 ? { ...facts, scaledToZero: true as const } : facts };
    this.store.write(written);
    return { status: 200, message: 'scaled', object: written, removed: false };
  }

  /** A write of spec or status fields the engine keeps as facts (a webhook's failurePolicy, ready endpoints, an
   * APIService's Available condition). */
  patchFacts(
    actor: Actor,
    uid: string,
    facts: Partial<KubeObject['facts']>,
    action: 'update-spec' | 'update-status',
    detail: string,
  ): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'not found', removed: false };
    this.timeline.record(actor, action, obj, detail);
    const written = { ...obj, facts: { ...obj.facts, ...facts } };
    this.store.write(written);
    return { status: 200, message: 'patched', object: written, removed: false };
  }

  /** A PATCH of metadata.ownerReferences (the GC's orphaning, dangling-reference removal and unblocking). */
  patchOwnerReferences(actor: Actor, uid: string, ownerReferences: OwnerReference[], detail: string): RequestOutcome {
    const obj = this.store.get(uid);
    if (!obj) return { status: 404, message: 'not found', removed: false };
    if (JSON.stringify(obj.ownerReferences) === JSON.stringify(ownerReferences))
      return { status: 200, message: 'no change', object: obj, removed: false };
    this.timeline.record(actor, 'patch-owner-references', obj, detail);
    const written = { ...obj, ownerReferences };
    this.store.write(written);
    return { status: 200, message: 'patched', object: written, removed: false };
  }

  private writeOrRemove(actor: Actor, next: KubeObject, old: KubeObject): RequestOutcome {
    const graceOver = old.deletionGracePeriodSeconds === undefined || old.deletionGracePeriodSeconds === 0;
    const namespaceDone = !(old.kind === 'Namespace' && (next.facts.namespaceFinalizers ?? []).length > 0);
    if (old.deletionTimestamp !== undefined && next.finalizers.length === 0 && graceOver && namespaceDone) {
      return this.removeNow(actor, next, 'no finalizers left');
    }
    this.store.write(next);
    return { status: 200, message: 'updated', object: next, removed: false };
  }

  /** `terminating`: the removal follows a deletion that set a deletionTimestamp (R8), whether or not `obj` shows it. */
  private removeNow(
    actor: Actor,
    obj: KubeObject,
    detail: string | (() => string),
    terminating = obj.deletionTimestamp !== undefined,
  ): RequestOutcome {
    if (!this.timeline.deletionStartedAt.has(obj.uid) && !terminating) {
      const step = this.timeline.record(actor, 'delete', obj, detail);
      this.timeline.deletionStartedAt.set(obj.uid, step);
    }
    const step = this.timeline.record(actor, 'remove', obj, terminating ? detail : 'removed from storage');
    this.timeline.removedAt.set(obj.uid, step);
    const last = this.store.remove(obj.uid, obj) ?? obj;
    this.timeline.removed.push({ object: last, step });
    return { status: 200, message: 'removed', removed: true };
  }

  private reject(
    actor: Actor,
    target: KubeObject | { apiVersion: string; kind: string; namespace: string; name: string; uid: string },
    status: number,
    message: string,
  ): RequestOutcome {
    this.timeline.record(actor, 'reject', target, `${status}: ${message}`);
    return { status, message, removed: false };
  }
}

function wasTerminatingGracefully(o: KubeObject): boolean {
  return o.deletionTimestamp !== undefined && !!o.deletionGracePeriodSeconds;
}

function isCrd(info: KindInfo): boolean {
  return info.group === 'apiextensions.k8s.io' && info.kind === 'CustomResourceDefinition';
}

/** An RFC 3339 timestamp moved by some seconds, written as Kubernetes writes them; undefined if it does not parse. */
function shiftTimestamp(ts: string | undefined, seconds: number): string | undefined {
  if (ts === undefined) return undefined;
  // Most terminating Pods share their timestamps: parse and format each pair once.
  const key = `${ts}\u0000${seconds}`;
  let shifted = shiftedTimestamps.get(key);
  if (shifted === undefined) {
    const t = Date.parse(ts);
    shifted = Number.isNaN(t) ? null : new Date(t + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (shiftedTimestamps.size < 10_000) shiftedTimestamps.set(key, shifted);
  }
  return shifted ?? undefined;
}
const shiftedTimestamps = new Map<string, string | null>();

/** How the request's policy reads in a step, including where a default came from (R5). */
function policyText(req: DeleteRequest, obj: KubeObject, info: KindInfo, kinds: KindRegistry): string {
  if (req.orphanDependents !== undefined) return `orphanDependents=${req.orphanDependents} (deprecated option)`;
  if (req.propagationPolicy) return `propagationPolicy=${req.propagationPolicy}`;
  const existing = obj.finalizers.find(isGcFinalizer);
  if (existing && info.kind !== 'Namespace') return `no propagationPolicy: the object's existing ${existing} finalizer decides`;
  const def = kinds.defaultGcPolicy(req.apiVersion, info.kind);
  const { group } = splitApiVersion(req.apiVersion);
  const gv = group ? req.apiVersion : `${req.apiVersion} (core)`;
  return def === 'unsupported'
    ? 'no propagationPolicy (this type never gets GC finalizers)'
    : `no propagationPolicy: the default for ${info.kind} through ${gv} applies (${def === 'orphan' ? 'Orphan' : 'Background'})`;
}

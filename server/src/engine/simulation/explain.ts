// Why an object cannot finish: the chain a user needs to unblock it (finalizer → controller → its state;
// foreground wait → blocking dependent → its own reason; namespace → remaining content → its reasons, with the
// status conditions its namespace controller reported).

import {
  CRD_CLEANUP_FINALIZER,
  FOREGROUND_FINALIZER,
  NAMESPACE_FINALIZER,
  ORPHAN_FINALIZER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  describe,
  identityOf,
  splitApiVersion,
  type KubeObject,
  type NamespaceCondition,
  type ObjectIdentity,
} from '../model';
import { guessPlural } from '../kinds/kindRegistry';
import { claimOf, instancesOf, isCore, podsUsingClaim, volumePhase } from './controllers';
import { controllerSet, type ControllerSet } from './controllerSet';
import { catalogueEntry, controllerOf } from './finalizerCatalogue';
import type { FinalizerOwners } from './finalizerOwners';
import { describeCondition, finalizeBlocker, heldConditions } from './namespaceConditions';
import { heldContentFailures, type ContentFailure } from './contentFailures';
import { describeReported } from './webhookFailures';
import {
  blockingWebhooks,
  describeApiServiceBlocker,
  describeWebhookBlocker,
  unavailableApiServices,
  type AdmissionRequest,
  type ApiServiceBlocker,
  type PlannedFix,
  type WebhookBlocker,
} from './clusterBlockers';
import type { GarbageCollector } from './garbageCollector';
import type { ObjectStore } from './objectStore';
import type { Timeline } from './timeline';
import type { BlockReason, ControllersMode } from './types';

const MAX_DEPTH = 6;
const MAX_LISTED = 20;

export class Explainer {
  private readonly set: ControllerSet;

  constructor(
    mode: ControllersMode | ControllerSet,
    private readonly store: ObjectStore,
    private readonly gc: GarbageCollector,
    private readonly owners: FinalizerOwners,
    private readonly timeline: Timeline,
  ) {
    this.set = controllerSet(mode);
  }

  /** Reasons an object stays; empty when nothing holds it. */
  explain(o: KubeObject, seen = new Set<string>(), depth = 0): BlockReason[] {
    if (seen.has(o.uid) || depth > MAX_DEPTH) return [];
    seen = new Set(seen).add(o.uid);
    const out: BlockReason[] = [];
    if (o.deletionTimestamp === undefined) {
      // Not terminating: it stays because the GC cannot decide about it (R45, R46).
      const err = this.gc.lastError.get(o.uid);
      if (this.gc.invalidScope.has(o.uid))
        out.push({
          type: 'invalid-scope',
          message: `the GC never collects it: ${err ?? 'a cluster-scoped object cannot have a namespaced owner'}`,
        });
      else if (err) out.push({ type: 'unresolvable-owner', message: `the GC retries it forever: ${err}` });
      // In a terminating namespace the namespace controller must DELETE it (R75).
      if (o.namespace && this.set.namespace && this.terminatingNamespace(o.namespace))
        out.push(...this.webhookReasons({ operation: 'DELETE', object: o }));
      return out;
    }
    for (const f of o.finalizers) {
      if (f === FOREGROUND_FINALIZER) {
        out.push(...this.foregroundReasons(o, seen, depth));
        continue;
      }
      const r = this.finalizerReason(o, f, seen, depth);
      if (r) out.push(withCatalogue(r, o, f));
    }
    // A Pod in its grace period also waits for the kubelet, finalizers or not (R8, R9).
    if (isCore(o, 'Pod') && o.deletionGracePeriodSeconds) {
      // R84: the kubelet's closing DELETE (and a force delete) goes through admission: a webhook rejecting it comes first.
      const hooks = this.webhookReasons({ operation: 'DELETE', object: o });
      const rejected = hooks.length ? ', and the apiserver rejects the DELETE that ends it' : '';
      out.push(...hooks, {
        type: 'graceful-termination',
        message: !this.set.kubelet
          ? `waits for the kubelet on ${o.facts.nodeName ?? 'its node'} to confirm the containers stopped (grace period ${o.deletionGracePeriodSeconds}s); no kubelet runs with --controllers=${this.set.spec}`
          : `waits for the kubelet on ${o.facts.nodeName ?? 'its node'} (grace period ${o.deletionGracePeriodSeconds}s)${rejected}`,
        controller: 'kubelet',
      });
    }
    if (isCore(o, 'Namespace')) out.push(...this.namespaceSpecReasons(o, seen, depth));
    // Whoever removes a finalizer sends an UPDATE (a PATCH, to admission): a webhook may reject it (R75).
    else if (o.finalizers.length) out.push(...this.webhookReasons({ operation: 'UPDATE', object: o }));
    return out;
  }

  private terminatingNamespace(name: string): boolean {
    const ns = this.store.getByName('', 'Namespace', '', name);
    return ns !== undefined && ns.deletionTimestamp !== undefined && (ns.facts.namespaceFinalizers ?? []).length > 0;
  }

  /** R75: the webhooks that reject this request, one reason each. */
  private webhookReasons(req: AdmissionRequest): BlockReason[] {
    return blockingWebhooks(this.store, req).map((b) => webhookReason(b, req));
  }

  private finalizerReason(o: KubeObject, f: string, seen: Set<string>, depth: number): BlockReason | undefined {
    if (f === ORPHAN_FINALIZER)
      return {
        type: 'finalizer',
        finalizer: f,
        controller: 'garbage-collector',
        message: 'the GC has not finished orphaning its dependents',
      };
    const strict = !this.set.realCluster;
    if (f === PVC_PROTECTION_FINALIZER && isCore(o, 'PersistentVolumeClaim')) {
      if (!this.set.pvcProtection) return this.notRunning(f, 'pvc-protection-controller');
      const pods = podsUsingClaim(this.store, o);
      return {
        type: 'finalizer',
        finalizer: f,
        controller: 'pvc-protection-controller',
        message: `still mounted by ${pods.map((p) => describe(p)).join(', ') || 'a Pod'}`,
        blockedBy: pods.slice(0, MAX_LISTED).map((p) => this.objectReason(p, 'uses the claim', seen, depth)),
      };
    }
    if (f === PV_PROTECTION_FINALIZER && isCore(o, 'PersistentVolume')) {
      if (!this.set.pvProtection) return this.notRunning(f, 'pv-protection-controller');
      // R60: kept only while the volume is Bound.
      const pvc = claimOf(this.store, o);
      return {
        type: 'finalizer',
        finalizer: f,
        controller: 'pv-protection-controller',
        message: `the volume is ${volumePhase(this.store, o, this.set)}${pvc ? `, bound to ${describe(pvc)}` : ''}; pv-protection keeps it while it is Bound`,
        object: pvc && identityOf(pvc),
        blockedBy: pvc ? [this.objectReason(pvc, 'is bound to the volume', seen, depth)] : undefined,
      };
    }
    if (f === CRD_CLEANUP_FINALIZER && o.facts.crd) {
      if (!this.set.crdCleanup) return this.notRunning(f, "the apiextensions-apiserver's CRD finalizer controller");
      const left = instancesOf(this.store, o.facts.crd.group, o.facts.crd.kind);
      return {
        type: 'finalizer',
        finalizer: f,
        controller: 'apiextensions-apiserver',
        message: `${left.length} ${o.facts.crd.kind} instance(s) are still there`,
        blockedBy: left.slice(0, MAX_LISTED).map((x) => this.objectReason(x, 'is an instance', seen, depth)),
      };
    }
    const owner = this.owners.ownerOf(f, o);
    switch (owner.type) {
      case 'gc':
        return undefined;
      case 'builtin':
        return strict && !(owner.kcm !== undefined && this.set.runs(owner.kcm)) ? this.notRunning(f, owner.controller) : undefined;
      case 'external':
        return strict ? this.notRunning(f, 'its external controller') : undefined;
      case 'absent':
        // An untrusted guess: the verdict is the guess's condition, not "nobody".
        if (owner.guessed)
          return { type: 'finalizer', finalizer: f, message: `finishes if ${describe(owner.guessed)} is its controller (${owner.why})` };
        return { type: 'finalizer', finalizer: f, message: `nobody removes ${f}: ${owner.why}` };
      case 'workload': {
        const guessed = owner.how === 'guessed' ? ` (${owner.why})` : '';
        if (strict) return this.notRunning(f, `${describe(owner.workload)}${guessed}`);
        const w = this.store.get(owner.workload.uid);
        const removedAt = this.timeline.removedAt.get(owner.workload.uid);
        if (!w) {
          return {
            type: 'finalizer',
            finalizer: f,
            controller: describe(owner.workload),
            object: owner.workload,
            step: removedAt,
            message: removedAt
              ? `its controller ${describe(owner.workload)} was deleted at step ${removedAt}, so nobody removes ${f}${guessed}`
              : `its controller ${describe(owner.workload)} is gone, so nobody removes ${f}${guessed}`,
          };
        }
        if (w.deletionTimestamp === undefined && w.facts.scaledToZero) {
          return {
            type: 'finalizer',
            finalizer: f,
            controller: describe(owner.workload),
            object: owner.workload,
            message: `its controller ${describe(owner.workload)} is scaled to 0 replicas, so nobody removes ${f}${guessed}`,
          };
        }
        if (w.deletionTimestamp === undefined) {
          return {
            type: 'finalizer',
            finalizer: f,
            controller: describe(owner.workload),
            object: owner.workload,
            message: `its controller ${describe(owner.workload)} has stopped: namespace ${w.namespace} is being deleted, and its Pods go first (Kubernetes 1.33+), so nobody removes ${f}${guessed}`,
          };
        }
        const startedAt = this.timeline.deletionStartedAt.get(w.uid);
        return {
          type: 'finalizer',
          finalizer: f,
          controller: describe(owner.workload),
          object: owner.workload,
          step: startedAt,
          message: `its controller ${describe(owner.workload)} is being deleted${startedAt ? ` (since step ${startedAt})` : ''}${guessed}`,
          blockedBy: this.explain(w, seen, depth + 1),
        };
      }
    }
  }

  /** One reason per blocking dependent: foreground wait → blocking dependent → its own reasons. */
  private foregroundReasons(o: KubeObject, seen: Set<string>, depth: number): BlockReason[] {
    const node = this.gc.uidToNode.get(o.uid);
    const blocking = node ? node.blockingDependents() : [];
    const base = { type: 'waiting-for-dependents' as const, finalizer: FOREGROUND_FINALIZER, controller: 'garbage-collector' };
    if (blocking.some((d) => d.identity.uid === o.uid)) {
      return [
        {
          ...base,
          object: identityOf(o),
          message:
            'it is its own blocking dependent (self reference with blockOwnerDeletion: true); the GC never removes foregroundDeletion',
        },
      ];
    }
    if (blocking.length === 0) {
      return [
        {
          ...base,
          message:
            'no blocking dependent is left, but nothing makes the GC look at it again until an event arrives or kube-controller-manager restarts (no resync)',
        },
      ];
    }
    const unique = [...new Map(blocking.map((d) => [d.identity.uid, d])).values()];
    const reasons: BlockReason[] = unique.slice(0, MAX_LISTED).map((d) => {
      const dep = this.store.get(d.identity.uid);
      if (!dep) {
        return {
          ...base,
          object: d.identity,
          message: `foreground deletion waits for ${describe(d.identity)}, which is gone from storage but still in the GC's graph`,
        };
      }
      const inner = this.explain(dep, seen, depth + 1);
      const state = dep.deletionTimestamp ? 'Terminating' : 'not being deleted';
      return {
        ...base,
        object: identityOf(dep),
        message: `foreground deletion waits for the blocking dependent ${describe(dep)} (${state})`,
        blockedBy: inner.length ? inner : undefined,
      };
    });
    if (unique.length > MAX_LISTED) reasons.push({ ...base, message: `… and ${unique.length - MAX_LISTED} more blocking dependents` });
    return reasons;
  }

  /** R56/R57: what spec.finalizers holds, and who would remove it. */
  private namespaceSpecReasons(ns: KubeObject, seen: Set<string>, depth: number): BlockReason[] {
    const spec = ns.facts.namespaceFinalizers ?? [];
    if (spec.length === 0) {
      return ns.finalizers.length
        ? []
        : [
            {
              type: 'namespace-controller',
              controller: 'apiserver',
              message:
                'spec.finalizers is empty, so the namespace controller leaves it alone and its content is not deleted; only another DELETE removes it',
            },
          ];
    }
    const out: BlockReason[] = [];
    if (spec.includes(NAMESPACE_FINALIZER) || (this.set.namespace && this.store.hasObjectsIn(ns.name)))
      out.push(...[this.namespaceReason(ns, seen, depth)].flat());
    for (const f of spec) {
      if (f === NAMESPACE_FINALIZER) continue;
      out.push({
        type: 'finalizer',
        finalizer: f,
        message: `spec.finalizers holds ${f}: the namespace controller removes only "kubernetes", so whoever owns ${f} must finalize the namespace`,
      });
    }
    return out;
  }

  private namespaceReason(ns: KubeObject, seen: Set<string>, depth: number): BlockReason | BlockReason[] {
    // What the cluster's namespace controller last reported, beside what the simulation leaves.
    const held = heldConditions(ns);
    const conditions = held.length ? { conditions: held } : {};
    if (!this.set.namespace) {
      return {
        type: 'namespace-controller',
        finalizer: NAMESPACE_FINALIZER,
        controller: 'namespace-controller',
        message: `spec.finalizers still holds "kubernetes" and no namespace controller runs with --controllers=${this.set.spec}, so its content is never deleted`,
        ...conditions,
      };
    }
    const left = [...this.store.objectsInNamespace(ns.name)];
    // R74: while an APIService is unavailable every pass of the deleter ends in a discovery error.
    const apiServices = unavailableApiServices(this.store).map((b) => apiServiceReason(b, held));
    if (left.length === 0 && apiServices.length) return apiServices;
    // R83: what its content-failure condition reports of a webhook that still fails, beside what the input holds.
    const reported = contentFailureReasons(heldContentFailures(ns, this.store), held);
    if (left.length === 0) {
      const finalize: AdmissionRequest = { operation: 'UPDATE', object: ns, subresource: 'finalize' };
      const hooks = blockingWebhooks(this.store, finalize).map((b) => webhookReason(b, finalize));
      const more = reported.filter((r) => !r.object || !hooks.some((h) => h.object?.uid === r.object?.uid));
      if (hooks.length || more.length) return [...hooks, ...more];
    }
    const blocker = finalizeBlocker(ns, this.store);
    if (left.length === 0 && blocker) {
      return {
        type: 'namespace-controller',
        finalizer: NAMESPACE_FINALIZER,
        controller: 'namespace-controller',
        message: `its content is gone, but the namespace controller reports ${describeCondition(blocker)}; each of its passes ends in that error, so it never removes "kubernetes" from spec.finalizers until the failure clears`,
        ...conditions,
      };
    }
    const byResource = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const o of left) {
      const resource = this.resourceName(o);
      byResource.set(resource, (byResource.get(resource) ?? 0) + 1);
      for (const f of o.finalizers) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }
    // Worded and sorted as the namespace deleter writes its conditions (namespaceConditionUpdater.ProcessContentTotals),
    // but for its stray dot after a core resource ("configmaps."): this sentence is ours, a condition it quotes is not.
    const remaining = [...byResource]
      .map(([r, n]) => `${r} has ${n} resource instances`)
      .sort()
      .join(', ');
    const fins = [...finalizers]
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort()
      .join(', ');
    const content: BlockReason = {
      type: 'namespace-content',
      finalizer: NAMESPACE_FINALIZER,
      controller: 'namespace-controller',
      message:
        `NamespaceContentRemaining: Some resources are remaining: ${remaining || 'none'}` +
        (fins ? `. NamespaceFinalizersRemaining: Some content in the namespace has finalizers remaining: ${fins}` : ''),
      blockedBy: left.slice(0, MAX_LISTED).map((o) => this.objectReason(o, 'is still in the namespace', seen, depth)),
      ...conditions,
    };
    return apiServices.length || reported.length ? [content, ...reported, ...apiServices] : content;
  }

  /** `configmaps`, `deployments.apps`: resource and group as the namespace deleter names them, without its `%s.%s`'s dot for core. */
  private resourceName(o: KubeObject): string {
    const { group } = splitApiVersion(o.apiVersion);
    const plural = this.store.kinds.lookup(group, o.kind)?.plural ?? guessPlural(o.kind).plural;
    return group ? `${plural}.${group}` : plural;
  }

  private objectReason(o: KubeObject, role: string, seen: Set<string>, depth: number): BlockReason {
    const inner = this.explain(o, seen, depth + 1);
    const type = inner[0]?.type ?? 'finalizer';
    const state = o.deletionTimestamp ? 'Terminating' : 'not being deleted';
    // The inner reasons are the children of this link; the message only says who and in what state.
    return {
      type,
      object: identityOf(o) as ObjectIdentity,
      message: `${describe(o)} ${role} (${state})`,
      blockedBy: inner.length ? inner : undefined,
    };
  }

  private notRunning(f: string, controller: string): BlockReason {
    return {
      type: 'finalizer',
      finalizer: f,
      controller,
      message: `${f} is removed by ${controller}, which does not run with --controllers=${this.set.spec}`,
    };
  }
}

/** A catalogued finalizer's reason says what its controller does before removing it (a cleanup, or a deletion). */
function withCatalogue(r: BlockReason, o: KubeObject, f: string): BlockReason {
  const entry = f === CRD_CLEANUP_FINALIZER ? undefined : catalogueEntry(f, o);
  return entry ? { ...r, message: `${r.message}; before removing it, ${controllerOf(entry)} ${entry.does}` } : r;
}

/** One sentence for a stuck entry's `reason`. */
export function summarize(o: KubeObject, reasons: BlockReason[]): string {
  if (reasons.length === 0) return `${describe(o)} is terminating and nothing is left to finish it`;
  return `${describe(o)} stays Terminating: ${reasons.map((r) => r.message).join('; ')}`;
}

/** R74: one reason per unavailable APIService; the namespace's reported conditions ride on it. */
function apiServiceReason(b: ApiServiceBlocker, held: NamespaceCondition[]): BlockReason {
  return {
    type: 'unavailable-apiservice',
    finalizer: NAMESPACE_FINALIZER,
    controller: 'namespace-controller',
    object: identityOf(b.apiService),
    message: `${describeApiServiceBlocker(b)}: discovery of ${b.facts.group}/${b.facts.version} fails, so each pass of the namespace controller ends in that error and it never removes "kubernetes" from spec.finalizers`,
    fixes: publicFixes(b.fixes),
    ...(b.infrastructure ? { infrastructure: b.infrastructure } : {}),
    ...(held.length ? { conditions: held } : {}),
  };
}

function webhookReason(b: WebhookBlocker, req: AdmissionRequest): BlockReason {
  return {
    type: 'blocking-webhook',
    controller: 'apiserver',
    object: identityOf(b.configuration),
    message: describeWebhookBlocker(b, req),
    fixes: publicFixes(b.fixes),
    ...(b.infrastructure ? { infrastructure: b.infrastructure } : {}),
  };
}

/** R83: one reason per webhook failure the namespace controller reports and that still holds. */
function contentFailureReasons(failures: ContentFailure[], held: NamespaceCondition[]): BlockReason[] {
  return failures.map(({ failure, blocker }) => {
    const base = {
      finalizer: NAMESPACE_FINALIZER,
      ...(held.length ? { conditions: held } : {}),
    };
    if (!blocker)
      return {
        ...base,
        type: 'namespace-controller' as const,
        controller: 'namespace-controller',
        message: `${describeReported(failure)}; no configuration of webhook ${failure.webhook} is in the input, so the failure is taken to persist and the namespace controller never removes "kubernetes" from spec.finalizers`,
      };
    return {
      ...base,
      type: 'blocking-webhook' as const,
      controller: 'apiserver',
      object: identityOf(blocker.configuration),
      message: `${blocker.configuration.kind} ${blocker.configuration.name}'s webhook ${blocker.webhook.name} fails closed (failurePolicy: Fail), and ${blocker.why}: the apiserver rejects the namespace controller's DELETEs of the namespace's content, so it never removes "kubernetes" from spec.finalizers`,
      fixes: publicFixes(blocker.fixes),
      ...(blocker.infrastructure ? { infrastructure: blocker.infrastructure } : {}),
    };
  });
}

/** The fixes as a why-chain shows them: the requests behind them stay inside (app/waysOut.ts recomputes them). */
const publicFixes = (fixes: PlannedFix[]) => fixes.map(({ title, command, risk }) => ({ title, ...(command ? { command } : {}), risk }));

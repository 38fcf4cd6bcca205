// A plan's `requests` entries (shared/src/wire/planRequests.ts: the editor's kubeGcLens/simulateRequests, a way
// out's `requests`) to and from the engine's requests. A namespaced object named without a namespace is in the
// input's default namespace, as kubectl puts it.

import type { PlanRequest, PlanTarget } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import { splitApiVersion } from '../engine/model';
import { isChange, type ObjectRef, type UserRequest } from '../engine/simulation/changeRequest';

/** The engine's request for one plan entry, on `inventory`. */
export function userRequestOf(inventory: Inventory, p: PlanRequest): UserRequest {
  const ref = (t: PlanTarget): ObjectRef => {
    const info = inventory.kinds.lookup(splitApiVersion(t.apiVersion).group, t.kind);
    const namespace = info && !info.namespaced ? '' : t.namespace || (info ? inventory.defaultNamespace : '');
    return { apiVersion: t.apiVersion, kind: t.kind, namespace, name: t.name };
  };
  switch (p.verb) {
    case 'delete':
      return {
        ...ref(p),
        propagationPolicy: p.propagationPolicy ?? null,
        ...(p.orphanDependents != null ? { orphanDependents: p.orphanDependents } : {}),
        ...(p.gracePeriodSeconds != null ? { gracePeriodSeconds: p.gracePeriodSeconds } : {}),
      };
    case 'remove-finalizer':
      return { verb: p.verb, target: ref(p), finalizer: p.finalizer };
    case 'remove-owner-reference':
      return { verb: p.verb, target: ref(p), ownerUid: p.ownerUid };
    case 'set-owner-reference':
      return { verb: p.verb, target: ref(p), ownerUid: p.ownerUid, to: { ...p.to } };
    case 'scale':
      return { verb: p.verb, target: ref(p), replicas: p.replicas };
    case 'restore-controller': {
      const { apiVersion, kind, name } = p;
      const named = apiVersion !== undefined && kind !== undefined && name !== undefined;
      return { verb: p.verb, finalizer: p.finalizer, ...(named ? { for: ref({ apiVersion, kind, namespace: p.namespace, name }) } : {}) };
    }
    case 'restore-backend':
      return { verb: p.verb, target: ref(p) };
    case 'set-webhook-failure-policy':
      return { verb: p.verb, target: ref(p), webhook: p.webhook, failurePolicy: p.failurePolicy };
  }
}

/** The plan entry of one engine request (a DELETE's uid precondition has no plan spelling: the name says which). */
export function planRequestOf(r: UserRequest): PlanRequest {
  if (!isChange(r)) {
    return {
      verb: 'delete',
      ...target(r),
      ...(r.propagationPolicy ? { propagationPolicy: r.propagationPolicy } : {}),
      ...(r.orphanDependents !== undefined ? { orphanDependents: r.orphanDependents } : {}),
      ...(r.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: r.gracePeriodSeconds } : {}),
    };
  }
  switch (r.verb) {
    case 'remove-finalizer':
      return { verb: r.verb, ...target(r.target), finalizer: r.finalizer };
    case 'remove-owner-reference':
      return { verb: r.verb, ...target(r.target), ownerUid: r.ownerUid };
    case 'set-owner-reference': {
      const { apiVersion, kind, name, uid, controller, blockOwnerDeletion } = r.to;
      const to = {
        apiVersion,
        kind,
        name,
        uid,
        ...(controller !== undefined ? { controller } : {}),
        ...(blockOwnerDeletion !== undefined ? { blockOwnerDeletion } : {}),
      };
      return { verb: r.verb, ...target(r.target), ownerUid: r.ownerUid, to };
    }
    case 'scale':
      return { verb: r.verb, ...target(r.target), replicas: r.replicas };
    case 'restore-controller':
      return { verb: r.verb, ...(r.for ? target(r.for) : {}), finalizer: r.finalizer };
    case 'restore-backend':
      return { verb: r.verb, ...target(r.target) };
    case 'set-webhook-failure-policy':
      return { verb: r.verb, ...target(r.target), webhook: r.webhook, failurePolicy: r.failurePolicy };
  }
}

/** apiVersion, kind, namespace (left out when cluster-scoped) and name, in a plan's order. */
function target(r: ObjectRef): PlanTarget {
  return { apiVersion: r.apiVersion, kind: r.kind, ...(r.namespace ? { namespace: r.namespace } : {}), name: r.name };
}

// Requests besides DELETE that get a stuck deletion out (issue 18): the PATCHes a user or a tool sends, and a
// controller brought back. The apiserver applies each as it would (R9: an update that leaves a terminating object
// no finalizer removes it); the garbage collector and the controllers then react to the change like to any other.

import { describe, type ObjectIdentity, type OwnerReference } from '../model';
import type { ApiServer, RequestOutcome } from './apiServer';
import type { FinalizerOwners } from './finalizerOwners';
import type { ObjectStore } from './objectStore';
import type { Timeline } from './timeline';
import type { DeleteRequest } from './types';

/** Which object a change is sent to, as kubectl names it. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  /** "" for cluster-scoped kinds. */
  namespace: string;
  name: string;
}

export type ChangeRequest =
  /** `kubectl patch --type=json -p '[{"op":"remove","path":"/metadata/finalizers/N"}]'` (a Namespace's spec.finalizers: /finalize). */
  | { verb: 'remove-finalizer'; target: ObjectRef; finalizer: string }
  /** A PATCH that removes the ownerReference to `ownerUid`. */
  | { verb: 'remove-owner-reference'; target: ObjectRef; ownerUid: string }
  /** A PATCH that replaces the ownerReference to `ownerUid` with `to` (a fixed uid, kind or name). */
  | { verb: 'set-owner-reference'; target: ObjectRef; ownerUid: string; to: OwnerReference }
  /** `kubectl scale --replicas=N`: a workload scaled to 0 runs no controller. */
  | { verb: 'scale'; target: ObjectRef; replicas: number }
  /** The controller that removes `finalizer` runs again (its operator reinstalled, outside this input); `for`: the
   * object it is meant to release, which a report names. */
  | { verb: 'restore-controller'; finalizer: string; for?: ObjectRef };

export type ChangeVerb = ChangeRequest['verb'];

/** What a simulation applies, in order: DELETEs and changes. */
export type UserRequest = DeleteRequest | ChangeRequest;

/** A DELETE has no `verb`; every other request names its own. */
export function isChange(r: object): r is ChangeRequest {
  return 'verb' in r;
}

export interface ChangeContext {
  api: ApiServer;
  store: ObjectStore;
  owners: FinalizerOwners;
  timeline: Timeline;
}

const WHY = 'requested by the user';

/** Applies one change as the apiserver would; a target that is not there is a 404 'reject' step. */
export function applyChange(ctx: ChangeContext, req: ChangeRequest): RequestOutcome {
  const { api, timeline } = ctx;
  if (req.verb === 'restore-controller') {
    ctx.owners.restore(req.finalizer);
    const holder = [...ctx.store.terminating].map((uid) => ctx.store.get(uid)).find((o) => o?.finalizers.includes(req.finalizer));
    if (holder)
      timeline.record('apiserver', 'restore-controller', holder, `the controller that removes ${req.finalizer} runs again: ${WHY}`);
    else timeline.note(`The controller that removes ${req.finalizer} runs again; nothing terminating carries that finalizer.`);
    return { status: 200, message: 'restored', removed: false };
  }
  const found = api.get(req.target.apiVersion, req.target.kind, req.target.namespace, req.target.name);
  if (found.status !== 200) {
    const target: ObjectIdentity = { ...req.target, uid: '' };
    const status = found.status === 'unmapped' ? 404 : found.status;
    const message =
      found.status === 'unmapped'
        ? `the server doesn't have a resource type ${req.target.kind} in ${req.target.apiVersion}`
        : `${describe(target)} not found`;
    timeline.record('apiserver', 'reject', target, `${status}: ${message}`);
    return { status, message, removed: false };
  }
  const o = found.object;
  switch (req.verb) {
    case 'remove-finalizer':
      if (o.kind === 'Namespace' && (o.facts.namespaceFinalizers ?? []).includes(req.finalizer) && !o.finalizers.includes(req.finalizer))
        return api.removeNamespaceFinalizer('apiserver', o.uid, req.finalizer, WHY);
      return api.removeFinalizer('apiserver', o.uid, req.finalizer, WHY);
    case 'remove-owner-reference': {
      const left = o.ownerReferences.filter((r) => r.uid !== req.ownerUid);
      return api.patchOwnerReferences('apiserver', o.uid, left, `removed the reference to uid ${req.ownerUid}: ${WHY}`);
    }
    case 'set-owner-reference': {
      const refs = o.ownerReferences.map((r) => (r.uid === req.ownerUid ? req.to : r));
      return api.patchOwnerReferences(
        'apiserver',
        o.uid,
        refs,
        `set the reference to ${req.to.kind} ${req.to.name} (uid ${req.to.uid}): ${WHY}`,
      );
    }
    case 'scale':
      return api.scale('apiserver', o.uid, req.replicas, WHY);
  }
}

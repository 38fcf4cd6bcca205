// Requests besides DELETE that get a stuck deletion out (issue 18): the PATCHes a user or a tool sends, and a
// controller brought back. The apiserver applies each as it would (R9: an update that leaves a terminating object
// no finalizer removes it); the garbage collector and the controllers then react to the change like to any other.

import { describe, type KubeObject, type ObjectIdentity, type ServiceReference } from '../model';
import { blockingWebhooks, SERVICE_NAME_LABEL, type AdmissionRequest, type WebhookBlocker } from './clusterBlockers';
import type { ApiServer, RequestOutcome } from './apiServer';
import type { FinalizerOwners } from './finalizerOwners';
import type { ObjectStore } from './objectStore';
import type { Timeline } from './timeline';
import type { ChangeRequest, DeleteRequest } from './types';

export type { ChangeRequest, ChangeVerb, ObjectRef, UserRequest } from './types';

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
  if (req.verb === 'restore-backend')
    return req.target.kind === 'APIService'
      ? serveElsewhere(ctx, req.target.name)
      : restoreBackend(ctx, { namespace: req.target.namespace, name: req.target.name });
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
  const rejected = admission(ctx, req, o);
  if (rejected) return rejected;
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
    case 'set-webhook-failure-policy': {
      const hooks = o.facts.webhooks ?? [];
      const index = hooks.findIndex((h) => h.name === req.webhook);
      if (index < 0) {
        // The way out's JSON patch tests the webhook's name first: it fails when the webhooks changed.
        const message = `${describe(o)} has no webhook ${req.webhook}`;
        timeline.record('apiserver', 'reject', o, `422: ${message}`);
        return { status: 422, message, removed: false };
      }
      const webhooks = hooks.map((h, i) => (i === index ? { ...h, failurePolicy: req.failurePolicy } : h));
      return api.patchFacts(
        'apiserver',
        o.uid,
        { webhooks },
        'update-spec',
        `webhook ${req.webhook} failurePolicy ${req.failurePolicy}: ${WHY}`,
      );
    }
  }
}

/**
 * R84: a user's DELETE goes through admission too (a force delete as well): a failurePolicy: Fail webhook without a
 * backend that intercepts it rejects it. A target not found is left to the DELETE itself (its 404).
 */
export function deleteAdmission(ctx: ChangeContext, req: DeleteRequest): RequestOutcome | undefined {
  const found = ctx.api.get(req.apiVersion, req.kind, req.namespace, req.name);
  if (found.status !== 200) return undefined;
  return reject(ctx, found.object, blockingWebhooks(ctx.store, { operation: 'DELETE', object: found.object })[0]);
}

/** R75, R76: a user's PATCH is an UPDATE to admission: a failurePolicy: Fail webhook without a backend rejects it too. */
function admission(ctx: ChangeContext, req: ChangeRequest, o: KubeObject): RequestOutcome | undefined {
  const namespaceFinalize = req.verb === 'remove-finalizer' && o.kind === 'Namespace' && !o.finalizers.includes(req.finalizer);
  const subresource = namespaceFinalize ? 'finalize' : req.verb === 'scale' ? 'scale' : '';
  const review: AdmissionRequest = { operation: 'UPDATE', object: o, ...(subresource ? { subresource } : {}) };
  return reject(ctx, o, blockingWebhooks(ctx.store, review)[0]);
}

/** The apiserver's 500 when a fail-closed webhook cannot be called, as ErrCallingWebhook words it. */
function reject(ctx: ChangeContext, o: KubeObject, hook: WebhookBlocker | undefined): RequestOutcome | undefined {
  if (!hook) return undefined;
  const svc = hook.webhook.service!;
  const cause =
    hook.reported?.cause ??
    (hook.backend === 'missing' ? `service "${svc.name}" not found` : `no endpoints available for service "${svc.name}"`);
  const message = `Internal error occurred: failed calling webhook "${hook.webhook.name}": ${cause}`;
  ctx.timeline.record('apiserver', 'reject', o, `500: ${message}`);
  return { status: 500, message, removed: false };
}

/**
 * R76: the Pods behind a Service are back (restored outside the input). The EndpointSlice controller writes their
 * ready endpoints, kube-aggregator's availability controller marks the APIServices it serves Available, and a reader
 * would now see the Service ready wherever a webhook or APIService names it.
 */
function restoreBackend(ctx: ChangeContext, svc: ServiceReference): RequestOutcome {
  const { api, store, timeline } = ctx;
  const refused = namespaceLifecycle(ctx, svc);
  if (refused) return refused;
  const why = `the Pods behind Service ${svc.namespace}/${svc.name} are ready again: ${WHY}`;
  const same = (ref: ServiceReference | undefined) => ref?.namespace === svc.namespace && ref.name === svc.name;
  const ready = (ref: ServiceReference): ServiceReference => ({ ...ref, state: 'ready' });
  let touched = 0;
  for (const slice of [...store.ofKind('EndpointSlice')])
    if (slice.namespace === svc.namespace && slice.labels?.[SERVICE_NAME_LABEL] === svc.name && slice.facts.readyEndpoints === 0) {
      api.patchFacts('endpointslice-controller', slice.uid, { readyEndpoints: 1 }, 'update-status', `a ready endpoint: ${why}`);
      touched++;
    }
  const endpoints = store.getByName('', 'Endpoints', svc.namespace, svc.name);
  if (endpoints?.facts.readyEndpoints === 0) {
    api.patchFacts('endpoints-controller', endpoints.uid, { readyEndpoints: 1 }, 'update-status', `a ready address: ${why}`);
    touched++;
  }
  for (const a of [...store.ofKind('APIService')]) {
    const facts = a.facts.apiService;
    if (!facts || !same(facts.service)) continue;
    const apiService = {
      ...facts,
      service: ready(facts.service!),
      available: { status: 'True', reason: 'Passed', message: 'all checks passed' },
    };
    api.patchFacts(
      'apiserver',
      a.uid,
      { apiService },
      'update-status',
      `Available=True (kube-aggregator's availability controller): ${why}`,
    );
    touched++;
  }
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'])
    for (const c of [...store.ofKind(kind)]) {
      const hooks = c.facts.webhooks;
      // Not a write to the configuration: what a reader of the Service would see now.
      if (hooks?.some((h) => same(h.service)))
        store.write({
          ...c,
          facts: { ...c.facts, webhooks: hooks.map((h) => (same(h.service) ? { ...h, service: ready(h.service!) } : h)) },
        });
    }
  if (!touched) timeline.note(`Service ${svc.namespace}/${svc.name} has ready endpoints again (restored outside this input).`);
  return { status: 200, message: 'restored', removed: false };
}

/**
 * R77: NamespaceLifecycle refuses every CREATE in a namespace being deleted (403), or gone (404): the Pods behind a
 * Service there cannot come back, whoever would create them.
 */
function namespaceLifecycle(ctx: ChangeContext, svc: ServiceReference): RequestOutcome | undefined {
  const { store, timeline } = ctx;
  const ns = store.getByName('', 'Namespace', '', svc.namespace);
  const gone = !ns && store.atStart('', 'Namespace', '', svc.namespace) !== undefined;
  if (!gone && ns?.deletionTimestamp === undefined) return undefined;
  const [status, message] = gone
    ? [404, `namespaces "${svc.namespace}" not found`]
    : [403, `unable to create new content in namespace ${svc.namespace} because it is being terminated`];
  const target = store.getByName('', 'Service', svc.namespace, svc.name) ?? {
    apiVersion: 'v1',
    kind: 'Service',
    namespace: svc.namespace,
    name: svc.name,
    uid: '',
  };
  timeline.record(
    'apiserver',
    'reject',
    target,
    `${status}: ${message} (no Pod behind Service ${svc.namespace}/${svc.name} can be created)`,
  );
  return { status, message, removed: false };
}

/**
 * R86: an APIService served again by its add-on reinstalled outside the input, in a namespace that admits it, its
 * spec.service pointed there: kube-aggregator's availability controller marks it Available.
 */
function serveElsewhere(ctx: ChangeContext, name: string): RequestOutcome {
  const { api, store, timeline } = ctx;
  const a = store.getByName('apiregistration.k8s.io', 'APIService', '', name);
  const facts = a?.facts.apiService;
  if (!a || !facts?.service) {
    const message = a ? `APIService ${name} is served by kube-apiserver itself` : `apiservices.apiregistration.k8s.io "${name}" not found`;
    const status = a ? 422 : 404;
    timeline.record(
      'apiserver',
      'reject',
      a ?? { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', namespace: '', name, uid: '' },
      `${status}: ${message}`,
    );
    return { status, message, removed: false };
  }
  const apiService = {
    ...facts,
    service: { ...facts.service, state: 'ready' as const },
    available: { status: 'True', reason: 'Passed', message: 'all checks passed' },
  };
  return api.patchFacts(
    'apiserver',
    a.uid,
    { apiService },
    'update-status',
    `Available=True (kube-aggregator's availability controller): its add-on runs again outside namespace ${facts.service.namespace} and spec.service points at it: ${WHY}`,
  );
}

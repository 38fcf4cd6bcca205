// simulate's request flags besides DELETE, each checked against the input as a usage error that names the flag, its
// values and what is wrong (what the object does have): the plan's change requests (cli/plan.ts), from the command
// line. Simulated only: nothing is sent anywhere.

import type { KubeObject, OwnerReference } from '../engine/model';
import { SERVICE_NAME_LABEL } from '../engine/simulation/clusterBlockers';
import type { ChangeRequest, ObjectRef } from '../engine/simulation/changeRequest';
import { UsageError, type RequestFlag } from './args';
import { describeRef, splitTypeName, type Fail, type Resolver } from './resolver';

/** Finalizers a DELETE earlier on the same command line may add, so removing them needs no object holding them yet. */
const DELETE_FINALIZERS = ['foregroundDeletion', 'orphan'];
/** What `kubectl scale` scales among the built-in kinds (custom resources may have a scale subresource). */
const SCALABLE = ['apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', '/ReplicationController'];
const MAX_REPLICAS = 2 ** 31 - 1;
const WEBHOOK_CONFIGURATIONS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];
const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;

/** What each flag's first value is called, for its messages. */
const FIRST_VALUE: Record<string, string> = {
  'remove-finalizer': 'finalizer',
  'remove-owner-reference': 'owner uid',
  'set-owner-reference': 'OWNER_UID=TYPE/NAME',
  scale: 'replica count',
  'restore-controller': 'finalizer',
  'restore-backend': 'TYPE/NAME',
  'set-webhook-failure-policy': 'WEBHOOK=POLICY',
};

export function changeOf(r: RequestFlag, resolver: Resolver): ChangeRequest {
  const [value, typeName] = r.values;
  const fail: Fail = (why) => {
    throw new UsageError(`--${r.flag} ${r.values.join(' ')}: ${why}`);
  };
  if (!value) fail(`the ${FIRST_VALUE[r.flag] ?? 'value'} is empty`);
  if (r.flag === 'restore-controller') {
    const holder = resolver.holderOf(value);
    if (!holder) fail(`no object in the input carries the finalizer "${value}"`);
    return { verb: 'restore-controller', finalizer: value, for: refOf(holder!) };
  }
  if (r.flag === 'restore-backend') return restoreBackend(value, resolver, fail);
  if (r.flag === 'scale' && !(/^\d+$/.test(value) && Number(value) <= MAX_REPLICAS))
    fail(`the replica count must be a whole number, 0 or more (got "${value}")`);
  const target = splitTypeName(typeName);
  if (!target) return fail(`"${typeName}" is not TYPE/NAME (e.g. deployment/web)`);
  const { ref, object, info } = resolver.resolve(target.type, target.name, fail);
  switch (r.flag) {
    case 'remove-finalizer': {
      const held = [...object.finalizers, ...(object.facts.namespaceFinalizers ?? [])];
      if (!held.includes(value) && !DELETE_FINALIZERS.includes(value))
        fail(
          `${describeRef(ref)} has no finalizer "${value}"${held.length ? ` (its finalizers: ${[...new Set(held)].join(', ')})` : ' (it has none)'}`,
        );
      return { verb: 'remove-finalizer', target: ref, finalizer: value };
    }
    case 'remove-owner-reference':
      ownerReferenceOf(object, ref, value, fail);
      return { verb: 'remove-owner-reference', target: ref, ownerUid: value };
    case 'set-owner-reference':
      return setOwnerReference(value, ref, object, resolver, fail);
    case 'scale':
      if (info.origin === 'builtin' && !SCALABLE.includes(`${info.group}/${info.kind}`))
        fail(
          `a ${ref.kind} cannot be scaled (kubectl scale takes Deployments, ReplicaSets, StatefulSets, ReplicationControllers and custom resources with a scale subresource)`,
        );
      return { verb: 'scale', target: ref, replicas: Number(value) };
    case 'set-webhook-failure-policy':
      return setWebhookFailurePolicy(value, ref, object, info.group, fail);
    default:
      return fail('not a request flag');
  }
}

/** The object's ownerReference to `uid`; a usage error naming the references it does have. */
function ownerReferenceOf(object: KubeObject, ref: ObjectRef, uid: string, fail: Fail): OwnerReference {
  const found = object.ownerReferences.find((o) => o.uid === uid);
  if (found) return found;
  const refs = object.ownerReferences.map((o) => `${o.kind} ${o.name} (uid ${o.uid})`);
  return fail(
    `${describeRef(ref)} has no ownerReference to uid "${uid}"${refs.length ? ` (it refers to ${refs.join(', ')})` : ' (it has none)'}`,
  );
}

/**
 * `OWNER_UID=TYPE/NAME[@UID]`: the reference to OWNER_UID now names TYPE/NAME (in the object's namespace, or
 * cluster-scoped), its uid read from the input or given after `@`; controller and blockOwnerDeletion stay as they were.
 */
function setOwnerReference(value: string, ref: ObjectRef, object: KubeObject, resolver: Resolver, fail: Fail): ChangeRequest {
  const eq = value.indexOf('=');
  const owner = eq > 0 ? value.slice(eq + 1) : '';
  const at = owner.indexOf('@');
  const typeName = splitTypeName(at < 0 ? owner : owner.slice(0, at));
  const ownerUid = eq < 0 ? value : value.slice(0, eq);
  if (!typeName || at === owner.length - 1)
    fail(`"${value}" is not OWNER_UID=TYPE/NAME or OWNER_UID=TYPE/NAME@UID (e.g. ${ownerUid || 'OWNER_UID'}=deployment/web)`);
  const old = ownerReferenceOf(object, ref, ownerUid, fail);
  const { ref: to, info } = resolver.refOf(typeName!.type, typeName!.name, fail);
  if (info.namespaced && !ref.namespace)
    fail(`${describeRef(ref)} is cluster-scoped: a namespaced ${info.kind} cannot own it (the garbage collector would find no such owner)`);
  const found = resolver.inventory.find(info.group, info.kind, to.namespace, to.name);
  const given = at < 0 ? undefined : owner.slice(at + 1);
  if (!found && given === undefined)
    fail(
      `${describeRef(to)} is not in the input${info.namespaced ? ` (an owner is in its dependent's namespace, ${to.namespace})` : ''}: give its uid as ${ownerUid}=${typeName!.type}/${to.name}@UID`,
    );
  if (found && given !== undefined && given !== found.uid)
    fail(`${describeRef(to)} in the input has uid ${found.uid}, not ${given}: leave out @UID to use it`);
  const uid = given ?? found!.uid;
  if (uid === ownerUid) fail(`${describeRef(ref)} already refers to ${describeRef(to)} (uid ${uid})`);
  const reference: OwnerReference = {
    apiVersion: found?.apiVersion ?? to.apiVersion,
    kind: to.kind,
    name: to.name,
    uid,
    ...(old.controller !== undefined ? { controller: old.controller } : {}),
    ...(old.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: old.blockOwnerDeletion } : {}),
  };
  return { verb: 'set-owner-reference', target: ref, ownerUid, to: reference };
}

/**
 * `--restore-backend service/NAME`: a Service of the input, or one that an APIService, a webhook or an EndpointSlice
 * names; `apiservice/NAME`: an APIService of the input served again by its add-on reinstalled elsewhere (R86).
 */
function restoreBackend(typeName: string, resolver: Resolver, fail: Fail): ChangeRequest {
  const target = splitTypeName(typeName);
  if (!target) return fail(`"${typeName}" is not TYPE/NAME (e.g. service/metrics-server)`);
  const { ref, info } = resolver.refOf(target.type, target.name, fail);
  if (info.group === 'apiregistration.k8s.io' && info.kind === 'APIService') {
    const a = resolver.inventory.find(info.group, 'APIService', '', ref.name);
    if (!a) fail(`apiservices.apiregistration.k8s.io "${ref.name}" not found in the input`);
    else if (!a.facts.apiService?.service)
      fail(`APIService ${ref.name} is served by kube-apiserver itself (Local): it has no backend to restore`);
    return { verb: 'restore-backend', target: ref };
  }
  if (info.group !== '' || info.kind !== 'Service')
    fail(
      `a ${info.kind} is neither a Service nor an APIService: name the Service whose Pods come back (service/NAME), or the APIService served again from another namespace (apiservice/NAME)`,
    );
  const { inventory } = resolver;
  const named = (s: { namespace: string; name: string } | undefined) => s?.namespace === ref.namespace && s.name === ref.name;
  const known =
    inventory.find('', 'Service', ref.namespace, ref.name) ??
    [...inventory.ofKind('APIService')].find((a) => named(a.facts.apiService?.service)) ??
    WEBHOOK_CONFIGURATIONS.flatMap((k) => [...inventory.ofKind(k)]).find((c) => c.facts.webhooks?.some((h) => named(h.service))) ??
    [...inventory.ofKind('EndpointSlice')].find((s) => s.namespace === ref.namespace && s.labels?.[SERVICE_NAME_LABEL] === ref.name);
  if (!known)
    fail(
      `services "${ref.name}" not found in namespace "${ref.namespace}" in the input, and no APIService, webhook or EndpointSlice of the input names it`,
    );
  return { verb: 'restore-backend', target: ref };
}

/** `WEBHOOK=Ignore|Fail` on a Validating/MutatingWebhookConfiguration that has a webhook of that name. */
function setWebhookFailurePolicy(value: string, ref: ObjectRef, object: KubeObject, group: string, fail: Fail): ChangeRequest {
  if (group !== 'admissionregistration.k8s.io' || !WEBHOOK_CONFIGURATIONS.includes(ref.kind))
    fail(`a ${ref.kind} has no webhooks: name a ValidatingWebhookConfiguration or MutatingWebhookConfiguration`);
  const eq = value.lastIndexOf('=');
  const webhook = eq < 0 ? value : value.slice(0, eq);
  const policy = eq < 0 ? '' : value.slice(eq + 1);
  if (eq <= 0) fail(`"${value}" is not WEBHOOK=Ignore or WEBHOOK=Fail`);
  if (!(FAILURE_POLICIES as readonly string[]).includes(policy)) fail(`the failurePolicy must be Ignore or Fail (got "${policy}")`);
  const names = (object.facts.webhooks ?? []).map((h) => h.name);
  if (!names.includes(webhook))
    fail(`${describeRef(ref)} has no webhook "${webhook}"${names.length ? ` (its webhooks: ${names.join(', ')})` : ' (it has none)'}`);
  return { verb: 'set-webhook-failure-policy', target: ref, webhook, failurePolicy: policy as (typeof FAILURE_POLICIES)[number] };
}

const refOf = (o: KubeObject): ObjectRef => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name });

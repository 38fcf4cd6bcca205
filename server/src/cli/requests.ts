// What `kubectl gc simulate` is asked to do, from its command line: TYPE/NAME (or TYPE NAME …) DELETE targets and the
// request flags besides DELETE (`--remove-finalizer FINALIZER TYPE/NAME`, `--remove-owner-reference OWNER_UID
// TYPE/NAME`, `--scale REPLICAS TYPE/NAME`, `--restore-controller FINALIZER`), in command-line order, each resolved
// against the kinds and objects of the input as kubectl resolves them. Simulated only: nothing is sent anywhere.

import type { Inventory } from '../engine/inventory';
import type { KindInfo } from '../engine/kinds/kindRegistry';
import type { KubeObject } from '../engine/model';
import type { ChangeRequest, ObjectRef, UserRequest } from '../engine/simulation/changeRequest';
import type { DeleteRequest, PropagationPolicy } from '../engine/simulation/types';
import { UsageError, flag, type ParsedArgs, type RequestFlag } from './args';

/** Finalizers a DELETE earlier on the same command line may add, so removing them needs no object holding them yet. */
const DELETE_FINALIZERS = ['foregroundDeletion', 'orphan'];
/** What `kubectl scale` scales among the built-in kinds (custom resources may have a scale subresource). */
const SCALABLE = ['apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', '/ReplicationController'];
const MAX_REPLICAS = 2 ** 31 - 1;

/** The DELETE targets and the request flags, in the order they were given. */
export function requestsOf(args: ParsedArgs, inventory: Inventory, policy: PropagationPolicy | null): UserRequest[] {
  const resolver = new Resolver(inventory, flag(args, 'namespace') ?? inventory.defaultNamespace);
  // A request flag given after N positionals comes before the target at positional index N.
  const keyed: { key: number; request: UserRequest }[] = [
    ...deleteTargets(args.positional).map(({ index, type, name }) => ({
      key: index,
      request: resolver.deleteOf(type, name, policy),
    })),
    ...args.requests.map((r) => ({ key: r.afterPositionals - 0.5, request: changeOf(r, resolver) })),
  ];
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.request);
}

/** TYPE/NAME … or TYPE NAME …, as kubectl takes them, with each name's index among the positionals. */
function deleteTargets(pos: string[]): { index: number; type: string; name: string }[] {
  if (pos.length === 0) return [];
  if (pos[0].includes('/')) {
    return pos.map((p, index) => {
      const slash = p.indexOf('/');
      if (slash <= 0 || slash === p.length - 1)
        throw new UsageError(`"${p}" is not TYPE/NAME; use one form for all arguments (TYPE/NAME … or TYPE NAME …)`);
      return { index, type: p.slice(0, slash), name: p.slice(slash + 1) };
    });
  }
  if (pos.length < 2) throw new UsageError(`resource(s) were provided, but no name was specified: ${pos[0]} NAME`);
  return pos.slice(1).map((name, i) => {
    if (name.includes('/'))
      throw new UsageError(
        `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (${name})`,
      );
    return { index: i + 1, type: pos[0], name };
  });
}

function changeOf(r: RequestFlag, resolver: Resolver): ChangeRequest {
  const [value, typeName] = r.values;
  const given = `--${r.flag} ${r.values.join(' ')}`;
  const fail = (why: string): never => {
    throw new UsageError(`${given}: ${why}`);
  };
  if (!value)
    fail(`the ${r.flag === 'scale' ? 'replica count' : r.flag === 'remove-owner-reference' ? 'owner uid' : 'finalizer'} is empty`);
  if (r.flag === 'restore-controller') {
    const holder = resolver.holderOf(value);
    if (!holder) fail(`no object in the input carries the finalizer "${value}"`);
    return { verb: 'restore-controller', finalizer: value, for: refOf(holder!) };
  }
  if (r.flag === 'scale' && !(/^\d+$/.test(value) && Number(value) <= MAX_REPLICAS))
    fail(`the replica count must be a whole number, 0 or more (got "${value}")`);
  const slash = typeName.indexOf('/');
  if (slash <= 0 || slash === typeName.length - 1) fail(`"${typeName}" is not TYPE/NAME (e.g. deployment/web)`);
  const { ref, object } = resolver.resolve(typeName.slice(0, slash), typeName.slice(slash + 1), fail);
  switch (r.flag) {
    case 'remove-finalizer': {
      const held = [...object.finalizers, ...(object.facts.namespaceFinalizers ?? [])];
      if (!held.includes(value) && !DELETE_FINALIZERS.includes(value))
        fail(
          `${describeRef(ref)} has no finalizer "${value}"${held.length ? ` (its finalizers: ${[...new Set(held)].join(', ')})` : ' (it has none)'}`,
        );
      return { verb: 'remove-finalizer', target: ref, finalizer: value };
    }
    case 'remove-owner-reference': {
      if (!object.ownerReferences.some((o) => o.uid === value)) {
        const refs = object.ownerReferences.map((o) => `${o.kind} ${o.name} (uid ${o.uid})`);
        fail(
          `${describeRef(ref)} has no ownerReference to uid "${value}"${refs.length ? ` (it refers to ${refs.join(', ')})` : ' (it has none)'}`,
        );
      }
      return { verb: 'remove-owner-reference', target: ref, ownerUid: value };
    }
    case 'scale': {
      const info = resolver.kindOf(object);
      if (info?.origin === 'builtin' && !SCALABLE.includes(`${info.group}/${info.kind}`))
        fail(
          `a ${ref.kind} cannot be scaled (kubectl scale takes Deployments, ReplicaSets, StatefulSets, ReplicationControllers and custom resources with a scale subresource)`,
        );
      return { verb: 'scale', target: ref, replicas: Number(value) };
    }
    default:
      return fail('not a request flag');
  }
}

class Resolver {
  constructor(
    private readonly inventory: Inventory,
    private readonly namespace: string,
  ) {}

  kindOf(o: KubeObject): KindInfo | undefined {
    return this.inventory.kindOf(o);
  }

  deleteOf(type: string, name: string, policy: PropagationPolicy | null): DeleteRequest {
    const { ref } = this.resolve(type, name, (why) => {
      throw new UsageError(why);
    });
    return { ...ref, propagationPolicy: policy };
  }

  /** TYPE and NAME against the kinds the input serves and its objects (namespaced: in -n, else the default namespace). */
  resolve(type: string, name: string, fail: (why: string) => never): { ref: ObjectRef; object: KubeObject } {
    const info = this.inventory.kinds.resolveType(type)[0];
    if (!info) fail(`the server doesn't have a resource type "${type}"`);
    const ns = info!.namespaced ? this.namespace : '';
    const resource = info!.group ? `${info!.plural}.${info!.group}` : info!.plural;
    const object = this.inventory.find(info!.group, info!.kind, ns, name);
    if (!object)
      fail(`${resource} "${name}" not found${info!.namespaced ? ` in namespace "${ns}"` : ''} in the input${this.elsewhere(info!, name)}`);
    return {
      ref: { apiVersion: this.inventory.kinds.preferredApiVersion(info!), kind: info!.kind, namespace: ns, name },
      object: object!,
    };
  }

  /** The object a restored controller is meant to release: the first terminating one holding the finalizer, else any. */
  holderOf(finalizer: string): KubeObject | undefined {
    let any: KubeObject | undefined;
    for (const o of this.inventory.objects.values()) {
      if (!o.finalizers.includes(finalizer)) continue;
      if (o.deletionTimestamp !== undefined) return o;
      any ??= o;
    }
    return any;
  }

  /** "; it exists in namespace storefront: pass -n storefront" when the name is in other namespaces of the input. */
  private elsewhere(info: KindInfo, name: string): string {
    if (!info.namespaced) return '';
    const namespaces = [
      ...new Set(
        [...this.inventory.ofKind(info.kind)]
          .filter((o) => o.name === name && this.inventory.kindOf(o)?.group === info.group)
          .map((o) => o.namespace),
      ),
    ].sort();
    if (namespaces.length === 0) return '';
    if (namespaces.length === 1) return `; it exists in namespace ${namespaces[0]}: pass -n ${namespaces[0]}`;
    return `; it exists in namespaces ${namespaces.join(', ')}: pass -n with one of them`;
  }
}

const refOf = (o: KubeObject): ObjectRef => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name });
const describeRef = (r: ObjectRef) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** A plan's namespaced request without a namespace is in -n, else the input's default namespace, as kubectl puts it. */
export function withNamespace(request: UserRequest, inventory: Inventory, namespace: string): UserRequest {
  const place = (r: ObjectRef): ObjectRef => {
    const info = inventory.kinds.lookup(r.apiVersion.includes('/') ? r.apiVersion.split('/')[0] : '', r.kind);
    return info?.namespaced && !r.namespace ? { ...r, namespace } : r;
  };
  if (!('verb' in request)) return place(request) as DeleteRequest;
  if (request.verb === 'restore-controller') return request.for ? { ...request, for: place(request.for) } : request;
  return { ...request, target: place(request.target) };
}

// What the input tells of a Service's backend: Pods, endpoints, and its namespace's state. A fail-closed webhook or an
// aggregated APIService whose backend is down blocks a deletion (R74, R75, R83); this says when it is down.

import { splitApiVersion, type KubeObject, type ServiceReference } from '../model';
import type { KindRegistry } from '../kinds/kindRegistry';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** What a blocker lookup reads: the simulation's store or the input's inventory. */
export interface BlockerView {
  ofKind(kind: string): Iterable<KubeObject>;
  getByName(group: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  /** The objects of a kind as the input held them (what the input covers), when they differ from now. */
  ofKindAtStart?(kind: string): Iterable<KubeObject>;
  readonly kinds: KindRegistry;
}

/**
 * What the engine can tell of a Service's backend: `unknown` when the input holds nothing that says;
 * `namespace-terminating`: its namespace is being deleted and nothing ready is known there (R83);
 * `no-pods`: the input holds its Namespace and Pods, but no running Pod in that namespace, nor a workload to run one (R83);
 * `unreachable`: a Namespace's condition reports the apiserver failing to call it (R83).
 */
export type BackendState = 'ready' | 'no-endpoints' | 'missing' | 'unreachable' | 'namespace-terminating' | 'no-pods' | 'unknown';

/** A backend that does not answer: a fail-closed webhook calling it rejects what it intercepts. */
export const isDown = (state: BackendState) => state !== 'ready' && state !== 'unknown';

/** Whether the Service has a ready endpoint, none, or is missing, as far as the input tells. */
export function backendState(view: BlockerView, ref: ServiceReference): BackendState {
  if (ref.state) return ref.state;
  let known = false;
  let ready = 0;
  for (const s of view.ofKind('EndpointSlice')) {
    if (s.namespace !== ref.namespace || s.labels?.[SERVICE_NAME_LABEL] !== ref.name || s.facts.readyEndpoints === undefined) continue;
    known = true;
    ready += s.facts.readyEndpoints;
  }
  const endpoints = view.getByName('', 'Endpoints', ref.namespace, ref.name);
  if (endpoints?.facts.readyEndpoints !== undefined) {
    known = true;
    ready += endpoints.facts.readyEndpoints;
  }
  if (ready > 0) return 'ready';
  if (known) return 'no-endpoints';
  // R83: in a namespace being deleted its Pods are deleted and none can start again (R77): nothing ready is known
  // there, so nothing will answer.
  if (view.getByName('', 'Namespace', '', ref.namespace)?.deletionTimestamp !== undefined) return 'namespace-terminating';
  const svc = view.getByName('', 'Service', ref.namespace, ref.name);
  // No EndpointSlice or Endpoints for it, where the input holds them read in full for its namespace: a Service with a
  // selector always has them (empty when nothing is ready), so it is missing or without any backend. Without the
  // Service, where the input holds its namespace's Services, it is missing. Otherwise the input cannot tell.
  if (endpointsReadIn(view, ref.namespace)) return svc ? 'no-endpoints' : 'missing';
  if (!svc && servicesReadIn(view, ref.namespace)) return 'missing';
  // An emptied namespace: the input holds it and holds Pods, none of them running there.
  const pods = podNamespaces(view);
  if (pods.any && !pods.running.has(ref.namespace) && view.getByName('', 'Namespace', '', ref.namespace)) return 'no-pods';
  return 'unknown';
}

/** view → whether the input holds Pods, and the namespaces where one runs (neither terminating nor finished). */
const podsByView = new WeakMap<BlockerView, { any: boolean; running: Set<string> }>();

const POD_WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet'];

function podNamespaces(view: BlockerView): { any: boolean; running: Set<string> } {
  let known = podsByView.get(view);
  if (!known) {
    known = { any: false, running: new Set() };
    const atStart = (kind: string) => (view.ofKindAtStart ? view.ofKindAtStart(kind) : view.ofKind(kind));
    for (const p of atStart('Pod')) {
      if (splitApiVersion(p.apiVersion).group !== '') continue;
      known.any = true;
      const phase = p.facts.phase;
      if (p.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed') known.running.add(p.namespace);
    }
    // A workload that runs Pods, without them in the input: its namespace is applied from manifests (or still
    // starting), not emptied, so nothing says its Service has no Pod.
    for (const kind of POD_WORKLOADS)
      for (const w of atStart(kind))
        if (splitApiVersion(w.apiVersion).group === 'apps' && w.deletionTimestamp === undefined && !w.facts.scaledToZero)
          known.running.add(w.namespace);
    podsByView.set(view, known);
  }
  return known;
}

/** view → the namespaces whose Services the input holds (what it covers, not what the simulation left). */
const serviceNamespaces = new WeakMap<BlockerView, Set<string>>();

function servicesReadIn(view: BlockerView, namespace: string): boolean {
  let set = serviceNamespaces.get(view);
  if (!set) {
    set = new Set();
    for (const o of view.ofKindAtStart ? view.ofKindAtStart('Service') : view.ofKind('Service')) set.add(o.namespace);
    serviceNamespaces.set(view, set);
  }
  return set.has(namespace);
}

function endpointsReadIn(view: BlockerView, namespace: string): boolean {
  for (const kind of ['EndpointSlice', 'Endpoints'])
    for (const o of view.ofKind(kind)) if (o.namespace === namespace && o.facts.readyEndpoints !== undefined) return true;
  return false;
}

/** "its Service monitoring/adapter has no ready endpoints". */
export function backendClause(ref: ServiceReference, state: BackendState): string {
  const svc = `Service ${ref.namespace}/${ref.name}`;
  if (state === 'missing') return `its ${svc} does not exist`;
  if (state === 'unreachable') return `its ${svc} does not answer`;
  if (state === 'no-pods') return `its ${svc} has no Pod to serve it (the input holds none running in namespace ${ref.namespace})`;
  if (state === 'namespace-terminating')
    return `its ${svc} is in namespace ${ref.namespace}, which is being deleted, so nothing there can serve it again`;
  return `its ${svc} has no ready endpoints`;
}

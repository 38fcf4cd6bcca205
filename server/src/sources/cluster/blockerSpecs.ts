// The objects that can keep a Namespace from finishing outside ownership (issue 18), read in full on demand. The live
// graph lists APIServices, webhook configurations, Services and EndpointSlices metadata-only, as it lists everything:
// whether an APIService is Available, what a webhook intercepts and whether a Service has ready endpoints are in
// their spec and status. So once something is terminating (and before a simulation), the APIServices and webhook
// configurations are listed in full (a cluster has tens of them), and then, for only the Services that an unavailable
// APIService or a failurePolicy: Fail webhook names, that Service (by name) and its EndpointSlices (by the
// kubernetes.io/service-name label; v1 Endpoints by name where EndpointSlices are not served). GET only, each LIST
// bounded as every other (limits.ts), at most MAX_SERVICES Services.

import type { KubeObject, ServiceReference } from '../../engine/model';
import { ApiError, type ApiClient } from './apiClient';
import { collectionPath, forEachLimited, type DiscoveredResource } from './discovery';
import { listInFull } from './podSpecs';
import { toKubeObject } from './toKubeObject';

/** `group/resource` of what is read in full: the blockers themselves. */
export const BLOCKER_RESOURCES = new Set([
  'apiregistration.k8s.io/apiservices',
  'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations',
]);

/** At most this many Services are looked at (each is two small LISTs). */
export const MAX_SERVICES = 50;
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export interface BlockerRead {
  /** The blockers read in full, their Services' states set (ServiceReference.state). */
  objects: KubeObject[];
  /** EndpointSlices (or Endpoints) read in full, with readyEndpoints. */
  endpoints: KubeObject[];
  notes: string[];
}

export interface BlockerResources {
  blockers: DiscoveredResource[];
  services?: DiscoveredResource;
  endpointSlices?: DiscoveredResource;
  endpoints?: DiscoveredResource;
}

/** The Services whose backend decides whether something blocks: of unavailable APIServices and fail-closed webhooks. */
export function namedServices(objects: KubeObject[]): ServiceReference[] {
  const out = new Map<string, ServiceReference>();
  for (const o of objects) {
    const a = o.facts.apiService;
    if (a?.service && a.available && a.available.status !== 'True') out.set(`${a.service.namespace}/${a.service.name}`, a.service);
    for (const h of o.facts.webhooks ?? [])
      if (h.failurePolicy === 'Fail' && h.service) out.set(`${h.service.namespace}/${h.service.name}`, h.service);
  }
  return [...out.values()].slice(0, MAX_SERVICES);
}

export async function readBlockers(client: ApiClient, r: BlockerResources, context: string, signal: AbortSignal): Promise<BlockerRead> {
  const notes: string[] = [];
  const objects: KubeObject[] = [];
  await forEachLimited(r.blockers, 3, async (res) => {
    try {
      for (const item of await listInFull(client, collectionPath(res), signal)) {
        const o = toKubeObject(item, res, false, context);
        if (o) objects.push(o);
      }
    } catch (e) {
      if (signal.aborted) throw e;
      notes.push(note(`${res.resource}.${res.group}`, e));
    }
  });
  const states = new Map<string, ServiceReference['state']>();
  const endpoints: KubeObject[] = [];
  await forEachLimited(namedServices(objects), 4, async (svc) => {
    try {
      const read = await readBackend(client, r, svc, context, signal);
      if (!read) return;
      states.set(`${svc.namespace}/${svc.name}`, read.state);
      endpoints.push(...read.endpoints);
    } catch (e) {
      if (signal.aborted) throw e;
      notes.push(note(`the Service ${svc.namespace}/${svc.name} and its endpoints`, e));
    }
  });
  const withState = (s: ServiceReference): ServiceReference => {
    const state = states.get(`${s.namespace}/${s.name}`);
    return state ? { ...s, state } : s;
  };
  for (const o of objects) {
    const { apiService, webhooks } = o.facts;
    if (apiService?.service) o.facts = { ...o.facts, apiService: { ...apiService, service: withState(apiService.service) } };
    if (webhooks) o.facts = { ...o.facts, webhooks: webhooks.map((h) => (h.service ? { ...h, service: withState(h.service) } : h)) };
  }
  return { objects, endpoints, notes };
}

async function readBackend(
  client: ApiClient,
  r: BlockerResources,
  svc: ServiceReference,
  context: string,
  signal: AbortSignal,
): Promise<{ state: NonNullable<ServiceReference['state']>; endpoints: KubeObject[] } | undefined> {
  const byName = { fieldSelector: `metadata.name=${svc.name}` };
  const source = r.endpointSlices ?? r.endpoints;
  if (!r.services || !source) return undefined;
  const [services, items] = await Promise.all([
    listInFull(client, collectionPath(r.services, svc.namespace), signal, byName),
    listInFull(
      client,
      collectionPath(source, svc.namespace),
      signal,
      r.endpointSlices ? { labelSelector: `${SERVICE_NAME_LABEL}=${svc.name}` } : byName,
    ),
  ]);
  const endpoints = items.map((i) => toKubeObject(i, source, false, context)).filter((o): o is KubeObject => o !== undefined);
  const ready = endpoints.reduce((n, o) => n + (o.facts.readyEndpoints ?? 0), 0);
  return { state: ready > 0 ? 'ready' : services.length ? 'no-endpoints' : 'missing', endpoints };
}

function note(what: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const head =
    e instanceof ApiError && (e.status === 403 || e.status === 401) ? `cannot read ${what} in full` : `reading ${what} in full fails`;
  return `this preview is incomplete: ${head} (${message}), so whether it keeps a Namespace from finishing is unknown`;
}

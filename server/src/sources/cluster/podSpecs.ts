// Pods read in full on demand. The live graph lists Pods metadata-only (there are many, and the garbage
// collector needs nothing else), so which claims a Pod mounts, its node and its phase are unknown
// (facts.specUnread). Before a simulation that can reach a PersistentVolumeClaim, the Pods of the namespaces
// concerned are listed in full (GET, paginated) and their facts given to the live copies.

import type { ObjectFacts } from '../../engine/model';
import { ACCEPT_OBJECTS, ApiError, type ApiClient } from './apiClient';
import { collectionPath, forEachLimited, type DiscoveredResource } from './discovery';
import { listPage } from './reflector';

/** What one namespace's read gave: its Pods as served, or why there are none. */
export type PodRead = { namespace: string; items: unknown[] } | { namespace: string; error: ApiError };

const PAGE_SIZE = 500;
const CONCURRENCY = 4;

/** Full LISTs of `pods` in each namespace, a few at a time; one that fails is reported, the others still read. */
export async function readPods(client: ApiClient, pods: DiscoveredResource, namespaces: string[], signal: AbortSignal): Promise<PodRead[]> {
  const out: PodRead[] = [];
  await forEachLimited(namespaces, CONCURRENCY, async (namespace) => {
    try {
      out.push({ namespace, items: await listInFull(client, collectionPath(pods, namespace), signal) });
    } catch (e) {
      if (signal.aborted) throw e;
      out.push({
        namespace,
        error:
          e instanceof ApiError ? e : new ApiError(0, 'Error', e instanceof Error ? e.message : String(e), collectionPath(pods, namespace)),
      });
    }
  });
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace));
}

/**
 * A paginated full LIST of a built-in resource, its managedFields skipped (`query`: more parameters, e.g. a
 * fieldSelector); a continue token that expires midway (410) starts it over, once.
 */
export async function listInFull(
  client: ApiClient,
  path: string,
  signal: AbortSignal,
  query: Record<string, string> = {},
): Promise<unknown[]> {
  for (let attempt = 0; ; attempt++) {
    const items: unknown[] = [];
    let cont = '';
    const budget = client.listBudget(path);
    try {
      do {
        const q = new URLSearchParams({ ...query, limit: String(PAGE_SIZE) });
        if (cont) q.set('continue', cont);
        const page = listPage(
          await client.getJson<unknown>(`${path}?${q}`, ACCEPT_OBJECTS, signal, { withoutManagedFields: true, budget }),
          `${path}?${q}`,
        );
        for (const it of page.items) items.push(it);
        cont = page.continue;
      } while (cont);
      return items;
    } catch (e) {
      if (!(e instanceof ApiError && e.expired) || attempt > 0) throw e;
    }
  }
}

/**
 * The facts of a Pod read in full that no later update can change (the API refuses changes to a Pod's volumes
 * and grace period, and sets nodeName once): kept when a metadata-only event replaces the Pod. Its phase and
 * images can change, so they are not.
 */
export function lastingPodFacts(
  facts: ObjectFacts,
): Pick<ObjectFacts, 'claimNames' | 'ephemeralVolumes' | 'terminationGracePeriodSeconds' | 'nodeName'> {
  return {
    ...(facts.claimNames ? { claimNames: facts.claimNames } : {}),
    ...(facts.ephemeralVolumes ? { ephemeralVolumes: facts.ephemeralVolumes } : {}),
    ...(facts.terminationGracePeriodSeconds !== undefined ? { terminationGracePeriodSeconds: facts.terminationGracePeriodSeconds } : {}),
    ...(facts.nodeName ? { nodeName: facts.nodeName } : {}),
  };
}

/** "this preview is incomplete: …" for a namespace whose Pods could not be read in full. */
export function podReadNote(namespace: string, error: ApiError): string {
  const what = `so which PersistentVolumeClaims its Pods mount (and their nodes and phases) is unknown`;
  return error.status === 403 || error.status === 401
    ? `this preview is incomplete: cannot read the Pods in ${namespace} in full (${error.message}), ${what}`
    : `this preview is incomplete: reading the Pods in ${namespace} in full fails (${error.message}), ${what}`;
}

// API discovery as the garbage collector does it (GetDeletableResources): the server-preferred version of
// every resource, keeping those that support list, watch and delete, minus the GC's ignored resources
// (events). A group-version whose discovery fails (an aggregated API that is down) is reported and skipped,
// not fatal, as in kube-controller-manager. Asked as client-go asks: aggregated discovery (apidiscovery.k8s.io/v2,
// every group's resources in the answers to /api and /apis) where the server speaks it, else the legacy documents
// (one more GET per group/version); both give the same resources.

import { ACCEPT_JSON, ApiError, type ApiClient } from './apiClient';

export interface DiscoveredResource {
  group: string;
  version: string;
  /** The plural resource name, as in URLs. */
  resource: string;
  kind: string;
  namespaced: boolean;
  singular: string;
  shortNames: string[];
  verbs: string[];
}

export interface DiscoveryFailure {
  groupVersion: string;
  message: string;
}

export interface DiscoveryResult {
  /** Everything the GC would watch, in discovery order. */
  resources: DiscoveredResource[];
  failures: DiscoveryFailure[];
  /** All served group/versions per group, preferred first (the kind registry needs every served version). */
  servedVersions: Map<string, string[]>;
}

interface ApiResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  verbs?: string[];
  shortNames?: string[];
}

interface GroupVersionEntry {
  groupVersion: string;
  version: string;
}

interface ApiGroup {
  name: string;
  versions: GroupVersionEntry[];
  preferredVersion?: GroupVersionEntry;
}

/** client-go's Accept for /api and /apis: aggregated discovery, or the legacy documents from servers without it. */
export const ACCEPT_AGGREGATED_DISCOVERY = `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${ACCEPT_JSON}`;

export interface DiscoveryOptions {
  /** Ask for the legacy documents only (as a server without aggregated discovery answers). */
  legacy?: boolean;
}

/** Resources the garbage collector never watches (garbagecollector.DefaultIgnoredResources). */
const GC_IGNORED = new Set(['/events', 'events.k8s.io/events']);
const REQUIRED_VERBS = ['list', 'watch', 'delete'];
const DISCOVERY_CONCURRENCY = 8;

export async function discover(client: ApiClient, signal?: AbortSignal, options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const failures: DiscoveryFailure[] = [];
  const groups: ApiGroup[] = [];
  const lists = new Map<string, ApiResource[]>();
  const accept = options.legacy ? ACCEPT_JSON : ACCEPT_AGGREGATED_DISCOVERY;
  /** Group/versions named by legacy answers: their resources take one more GET each. */
  const jobs: { group: ApiGroup; gv: GroupVersionEntry }[] = [];
  // The core group (/api: only v1 in practice), then the named groups (/apis); each answer is aggregated or legacy.
  for (const root of ['/api', '/apis']) {
    const doc = await client.getJson<unknown>(root, accept, signal);
    if (isObj(doc) && doc.kind === 'APIGroupDiscoveryList') {
      for (const g of arrayAt(doc, 'items')) readAggregatedGroup(g, groups, lists, failures);
      continue;
    }
    const found: ApiGroup[] = [];
    if (root === '/api') {
      const coreVersions = arrayAt(doc, 'versions').filter((v): v is string => typeof v === 'string' && v !== '');
      found.push({
        name: '',
        versions: coreVersions.map((v) => ({ groupVersion: v, version: v })),
        preferredVersion: coreVersions[0] ? { groupVersion: coreVersions[0], version: coreVersions[0] } : undefined,
      });
    } else {
      found.push(...arrayAt(doc, 'groups').filter(isApiGroup));
    }
    groups.push(...found);
    for (const group of found) for (const gv of group.versions ?? []) jobs.push({ group, gv });
  }
  await forEachLimited(jobs, DISCOVERY_CONCURRENCY, async ({ group, gv }) => {
    const path = group.name === '' ? `/api/${gv.version}` : `/apis/${gv.groupVersion}`;
    try {
      const r = await client.getJson<unknown>(path, undefined, signal);
      lists.set(gv.groupVersion, arrayAt(r, 'resources').filter(isApiResource));
    } catch (e) {
      if (signal?.aborted) throw e;
      failures.push({
        groupVersion: gv.groupVersion,
        message: e instanceof ApiError ? `${e.message} (${e.status || e.reason})` : String(e),
      });
    }
  });

  // ServerPreferredResources: each group/resource from the preferred version, else the first version having it.
  const chosen = new Map<string, DiscoveredResource>();
  const servedVersions = new Map<string, string[]>();
  for (const group of groups) {
    const preferred = group.preferredVersion?.version ?? group.versions?.[0]?.version;
    const versions = (group.versions ?? []).map((v) => v.version);
    servedVersions.set(group.name, preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions);
    for (const gv of group.versions ?? []) {
      for (const r of lists.get(gv.groupVersion) ?? []) {
        if (r.name.includes('/')) continue; // a subresource
        const key = `${group.name}/${r.name}`;
        if (chosen.has(key) && gv.version !== preferred) continue;
        chosen.set(key, {
          group: group.name,
          version: gv.version,
          resource: r.name,
          kind: r.kind,
          namespaced: r.namespaced,
          singular: r.singularName || r.kind.toLowerCase(),
          shortNames: r.shortNames ?? [],
          verbs: r.verbs ?? [],
        });
      }
    }
  }
  const resources = [...chosen.entries()]
    .filter(([key, r]) => !GC_IGNORED.has(key) && REQUIRED_VERBS.every((v) => r.verbs.includes(v)))
    .map(([, r]) => r);
  failures.sort((a, b) => a.groupVersion.localeCompare(b.groupVersion));
  return { resources, failures, servedVersions };
}

// Discovery documents are the server's: entries of the wrong shape are passed over (what they would describe is not
// listed), never a TypeError that ends the connection.
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const arrayAt = (doc: unknown, key: string): unknown[] => (isObj(doc) && Array.isArray(doc[key]) ? doc[key] : []);
const isGroupVersion = (v: unknown): v is GroupVersionEntry =>
  isObj(v) && typeof v.groupVersion === 'string' && typeof v.version === 'string';

function isApiGroup(v: unknown): v is ApiGroup {
  if (!isObj(v) || typeof v.name !== 'string' || !Array.isArray(v.versions)) return false;
  v.versions = v.versions.filter(isGroupVersion);
  if (v.preferredVersion !== undefined && !isGroupVersion(v.preferredVersion)) delete v.preferredVersion;
  return true;
}

function isApiResource(v: unknown): v is ApiResource {
  if (!isObj(v) || typeof v.name !== 'string' || !v.name || typeof v.kind !== 'string' || !v.kind || typeof v.namespaced !== 'boolean')
    return false;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (v.verbs !== undefined && !strings(v.verbs)) return false;
  if (v.shortNames !== undefined && !strings(v.shortNames)) delete v.shortNames;
  if (v.singularName !== undefined && typeof v.singularName !== 'string') delete v.singularName;
  return true;
}

/**
 * One APIGroupDiscovery: its versions in preference order (the first is preferred), each with its resources. A version
 * marked Stale (an aggregated API that is down) is a failure, as client-go's "stale GroupVersion discovery".
 */
function readAggregatedGroup(g: unknown, groups: ApiGroup[], lists: Map<string, ApiResource[]>, failures: DiscoveryFailure[]): void {
  if (!isObj(g)) return;
  const name = isObj(g.metadata) && typeof g.metadata.name === 'string' ? g.metadata.name : '';
  const versions: GroupVersionEntry[] = [];
  for (const v of arrayAt(g, 'versions')) {
    if (!isObj(v) || typeof v.version !== 'string' || !v.version) continue;
    const groupVersion = name ? `${name}/${v.version}` : v.version;
    versions.push({ groupVersion, version: v.version });
    if (v.freshness === 'Stale') failures.push({ groupVersion, message: `stale GroupVersion discovery: ${groupVersion}` });
    else lists.set(groupVersion, arrayAt(v, 'resources').map(legacyResource).filter(isApiResource));
  }
  groups.push({ name, versions, preferredVersion: versions[0] });
}

/** An aggregated discovery resource in the legacy shape (the same facts, other names); checked by isApiResource. */
function legacyResource(r: unknown): unknown {
  if (!isObj(r)) return r;
  const scope = r.scope === 'Namespaced' ? true : r.scope === 'Cluster' ? false : undefined;
  return {
    name: r.resource,
    singularName: r.singularResource,
    namespaced: scope,
    kind: isObj(r.responseKind) ? r.responseKind.kind : undefined,
    verbs: r.verbs,
    shortNames: r.shortNames,
  };
}

/** Runs `fn` over `items` with at most `limit` at a time; the first rejection rejects the whole. */
export async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export const apiVersionOf = (r: { group: string; version: string }) => (r.group ? `${r.group}/${r.version}` : r.version);

/** The collection path of a resource, cluster-wide or in one namespace. */
export function collectionPath(r: DiscoveredResource, namespace?: string): string {
  const prefix = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return namespace !== undefined && r.namespaced
    ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`
    : `${prefix}/${r.resource}`;
}

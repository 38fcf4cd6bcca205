// What the test server serves: the built-in groups of a real kube-apiserver (test/fixtures/discovery, see SOURCES.md),
// plus the groups of the CustomResourceDefinitions stored, plus the group/versions made to fail (an aggregated API
// that is down). Renders both discovery formats: legacy (/api, /api/v1, /apis, /apis/{g}, /apis/{g}/{v}) and
// aggregated (apidiscovery.k8s.io/v2 and v2beta1 APIGroupDiscoveryList at /api and /apis).
import { readFixture } from './fixtures';

export interface SubresourceInfo {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

export interface ResourceInfo {
  group: string;
  version: string;
  /** the plural resource name, as in URLs */
  name: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: SubresourceInfo[];
  /** served for a CustomResourceDefinition (its LIST items keep apiVersion and kind; built-in ones do not) */
  custom?: boolean;
}

interface VersionEntry {
  version: string;
  resources: ResourceInfo[];
  /** failDiscovery(): listed, but its documents answer 503 (legacy) or it is marked Stale (aggregated) */
  stale: boolean;
}

interface GroupEntry {
  name: string;
  /** preferred version first */
  versions: VersionEntry[];
}

interface AggregatedKind {
  group: string;
  version: string;
  kind: string;
}
interface AggregatedResource {
  resource: string;
  responseKind: AggregatedKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: AggregatedKind; verbs: string[] }[];
}
interface AggregatedGroup {
  metadata: { name?: string; creationTimestamp?: null };
  versions: { version: string; resources: AggregatedResource[]; freshness?: string }[];
}
interface LegacyResource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

const STANDARD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function fromAggregated(group: string, version: string, r: AggregatedResource): ResourceInfo {
  return {
    group,
    version,
    name: r.resource,
    singularName: r.singularResource,
    kind: r.responseKind.kind,
    listKind: `${r.responseKind.kind}List`,
    namespaced: r.scope === 'Namespaced',
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    subresources: (r.subresources ?? []).map((s) => ({
      name: s.subresource,
      kind: s.responseKind.kind,
      ...(s.responseKind.group ? { group: s.responseKind.group } : {}),
      ...(s.responseKind.version ? { version: s.responseKind.version } : {}),
      verbs: s.verbs,
    })),
  };
}

/** Core v1 from the legacy document: subresources are separate `pods/status` entries there. */
function fromLegacyCore(resources: LegacyResource[]): ResourceInfo[] {
  const byName = new Map<string, ResourceInfo>();
  for (const r of resources) {
    if (r.name.includes('/')) continue;
    byName.set(r.name, {
      group: '',
      version: 'v1',
      name: r.name,
      singularName: r.singularName || r.kind.toLowerCase(),
      kind: r.kind,
      listKind: `${r.kind}List`,
      namespaced: r.namespaced,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
      subresources: [],
    });
  }
  for (const r of resources) {
    const [parent, sub] = r.name.split('/');
    if (sub === undefined) continue;
    byName.get(parent)?.subresources.push({
      name: sub,
      kind: r.kind,
      ...(r.group ? { group: r.group } : {}),
      ...(r.version ? { version: r.version } : {}),
      verbs: r.verbs,
    });
  }
  return [...byName.values()];
}

/** Kubernetes version priority (v1 > v1beta2 > v1beta1 > v1alpha1 > other), as the apiserver orders CRD versions. */
function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    return [m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The resources a CustomResourceDefinition (apiextensions.k8s.io/v1) serves, one per served version. */
function crdResources(crd: Record<string, unknown>): ResourceInfo[] {
  const spec = (crd.spec ?? {}) as Record<string, unknown>;
  const names = (spec.names ?? {}) as Record<string, unknown>;
  const group = spec.group;
  const plural = names.plural;
  const kind = names.kind;
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof kind !== 'string') {
    throw new Error('kubeApiServer: a CustomResourceDefinition needs spec.group, spec.names.plural and spec.names.kind');
  }
  const versions = Array.isArray(spec.versions) ? (spec.versions as Record<string, unknown>[]) : [];
  return versions
    .filter((v) => typeof v.name === 'string' && v.served !== false)
    .map((v) => {
      const sub = (v.subresources ?? {}) as Record<string, unknown>;
      const subresources: SubresourceInfo[] = [];
      if (sub.scale)
        subresources.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
      if (sub.status) subresources.push({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
      return {
        group,
        version: v.name as string,
        name: plural,
        singularName: typeof names.singular === 'string' ? names.singular : kind.toLowerCase(),
        kind,
        listKind: typeof names.listKind === 'string' ? names.listKind : `${kind}List`,
        namespaced: spec.scope !== 'Cluster',
        verbs: STANDARD_VERBS,
        ...(Array.isArray(names.shortNames) ? { shortNames: names.shortNames as string[] } : {}),
        ...(Array.isArray(names.categories) ? { categories: names.categories as string[] } : {}),
        subresources,
        custom: true,
      };
    });
}

function splitGroupVersion(gv: string): { group: string; version: string } {
  const slash = gv.indexOf('/');
  return slash < 0 ? { group: '', version: gv } : { group: gv.slice(0, slash), version: gv.slice(slash + 1) };
}

export class Discovery {
  private readonly builtin: GroupEntry[];
  private readonly core: ResourceInfo[];
  private readonly coreLegacy: unknown;
  private readonly crds = new Map<string, ResourceInfo[]>();
  private readonly failed = new Set<string>();
  private index?: {
    groups: GroupEntry[];
    byPath: Map<string, ResourceInfo>;
    byKind: Map<string, ResourceInfo>;
  };

  constructor() {
    const aggregated = JSON.parse(readFixture('discovery', 'aggregated_v2.json')) as { items: AggregatedGroup[] };
    this.builtin = aggregated.items.map((g) => {
      const name = g.metadata.name ?? '';
      return {
        name,
        versions: g.versions.map((v) => ({
          version: v.version,
          resources: v.resources.map((r) => fromAggregated(name, v.version, r)),
          stale: false,
        })),
      };
    });
    this.coreLegacy = JSON.parse(readFixture('discovery', 'api__v1.json'));
    this.core = fromLegacyCore((this.coreLegacy as { resources: LegacyResource[] }).resources);
  }

  // ---- state changes

  /** Registers (or re-registers, on update) the resources of a CustomResourceDefinition; returns them. */
  setCrd(crd: Record<string, unknown>): ResourceInfo[] {
    const resources = crdResources(crd);
    this.crds.set(String((crd.metadata as Record<string, unknown> | undefined)?.name ?? ''), resources);
    this.index = undefined;
    return resources;
  }

  deleteCrd(name: string): ResourceInfo[] {
    const resources = this.crds.get(name) ?? [];
    this.crds.delete(name);
    this.index = undefined;
    return resources;
  }

  failGroupVersion(gv: string): void {
    this.failed.add(gv);
    this.index = undefined;
  }

  clearFailures(): void {
    this.failed.clear();
    this.index = undefined;
  }

  // ---- lookups

  resource(group: string, version: string, name: string): ResourceInfo | undefined {
    return this.built().byPath.get(`${group}/${version}/${name}`);
  }

  /** The resource serving a kind of a group (in its preferred version), whatever version an object was written in. */
  resourceForKind(group: string, kind: string): ResourceInfo | undefined {
    return this.built().byKind.get(`${group}/${kind}`);
  }

  isFailed(group: string, version: string): boolean {
    return this.failed.has(group ? `${group}/${version}` : version);
  }

  // ---- legacy documents

  legacyApiVersions(serverAddress: string): unknown {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }

  legacyCoreResources(): unknown {
    return this.coreLegacy;
  }

  legacyGroupList(): unknown {
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: this.built()
        .groups.filter((g) => g.name !== '')
        .map((g) => legacyGroup(g)),
    };
  }

  legacyGroup(group: string): unknown {
    const g = this.built().groups.find((e) => e.name === group && group !== '');
    return g && { kind: 'APIGroup', apiVersion: 'v1', ...legacyGroup(g) };
  }

  legacyResourceList(group: string, version: string): unknown {
    const v = this.built()
      .groups.find((g) => g.name === group)
      ?.versions.find((e) => e.version === version);
    if (!v) return undefined;
    const resources: LegacyResource[] = [];
    for (const r of v.resources) {
      resources.push({
        name: r.name,
        singularName: r.singularName,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
      });
      for (const s of r.subresources) {
        resources.push({
          name: `${r.name}/${s.name}`,
          singularName: '',
          namespaced: r.namespaced,
          ...(s.group ? { group: s.group } : {}),
          ...(s.version ? { version: s.version } : {}),
          kind: s.kind,
          verbs: s.verbs,
        });
      }
    }
    return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
  }

  // ---- aggregated documents

  /** The APIGroupDiscoveryList of /api (core only) or /apis (every group), in apidiscovery.k8s.io/{version}. */
  aggregated(root: 'api' | 'apis', version: 'v2' | 'v2beta1'): unknown {
    const groups = this.built().groups.filter((g) => (root === 'api') === (g.name === ''));
    return {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `apidiscovery.k8s.io/${version}`,
      metadata: {},
      items: groups.map((g) => ({
        metadata: { ...(g.name ? { name: g.name } : {}), creationTimestamp: null },
        versions: g.versions.map((v) => ({
          version: v.version,
          resources: v.resources.map(aggregatedResource),
          freshness: v.stale ? 'Stale' : 'Current',
        })),
      })),
    };
  }

  // ---- the merged view, rebuilt after a change

  private built(): NonNullable<Discovery['index']> {
    if (this.index) return this.index;
    const groups: GroupEntry[] = [
      { name: '', versions: [{ version: 'v1', resources: this.core, stale: false }] },
      ...this.builtin.map((g) => ({ name: g.name, versions: g.versions.map((v) => ({ ...v })) })),
    ];
    const byName = new Map(groups.map((g) => [g.name, g]));
    const added: GroupEntry[] = [];
    for (const resources of this.crds.values()) {
      for (const r of resources) {
        let g = byName.get(r.group);
        if (!g) {
          g = { name: r.group, versions: [] };
          byName.set(r.group, g);
          added.push(g);
        }
        let v = g.versions.find((e) => e.version === r.version);
        if (!v) g.versions.push((v = { version: r.version, resources: [], stale: false }));
        v.resources = [...v.resources.filter((e) => e.name !== r.name), r].sort((a, b) => (a.name < b.name ? -1 : 1));
      }
    }
    for (const g of added) g.versions.sort((a, b) => compareKubeVersions(a.version, b.version));
    added.sort((a, b) => (a.name < b.name ? -1 : 1));
    groups.push(...added);
    for (const gv of this.failed) {
      const { group, version } = splitGroupVersion(gv);
      let g = byName.get(group);
      if (!g) {
        g = { name: group, versions: [] };
        byName.set(group, g);
        groups.push(g);
      }
      const v = g.versions.find((e) => e.version === version);
      if (v) v.stale = true;
      else g.versions.push({ version, resources: [], stale: true });
    }
    const byPath = new Map<string, ResourceInfo>();
    const byKind = new Map<string, ResourceInfo>();
    for (const g of groups) {
      for (const v of g.versions) {
        for (const r of v.resources) {
          byPath.set(`${g.name}/${v.version}/${r.name}`, r);
          if (!byKind.has(`${g.name}/${r.kind}`)) byKind.set(`${g.name}/${r.kind}`, r);
        }
      }
    }
    return (this.index = { groups, byPath, byKind });
  }
}

function legacyGroup(g: GroupEntry): Record<string, unknown> {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v.version}`, version: v.version }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

function aggregatedResource(r: ResourceInfo): AggregatedResource {
  return {
    resource: r.name,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(r.subresources.length
      ? {
          subresources: r.subresources.map((s) => ({
            subresource: s.name,
            responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
            verbs: s.verbs,
          })),
        }
      : {}),
  };
}

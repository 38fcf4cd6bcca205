// What the cluster serves: the REST mapper the apiserver and the garbage collector consult.
// Built-in kinds come from real discovery documents (GA versions only, R54); custom kinds from the
// CustomResourceDefinitions in the input; any other kind is taken to be served exactly at the
// apiVersions its objects use and to be namespaced iff its objects carry a namespace.

import { BUILTIN_KINDS } from './builtinKinds';
import { splitApiVersion, type CrdFacts } from '../model';

export type KindOrigin = 'builtin' | 'crd' | 'inferred';

export interface KindInfo {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  /** Served versions, preferred first. The GC watches the preferred one (R17/R19). */
  servedVersions: string[];
  /** Listable, watchable and deletable: the GC keeps such objects in its graph (R17). */
  gcWatched: boolean;
  origin: KindOrigin;
}

/** The deletion policy the apiserver applies when a DELETE names none (R5). */
export type DefaultGcPolicy = 'orphan' | 'background' | 'unsupported';

/** Groups that belong to Kubernetes itself: a kind in them is never "inferred" from objects (R54). */
const RETIRED_BUILTIN_GROUPS = ['extensions'];

/** Per-type default orphaning, by the group-version of the request URL (R5). */
const ORPHAN_BY_DEFAULT: Record<string, string[]> = {
  ReplicationController: ['v1'],
  Job: ['batch/v1'],
  Deployment: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
  DaemonSet: ['extensions/v1beta1', 'apps/v1beta2'],
  StatefulSet: ['apps/v1beta1', 'apps/v1beta2'],
  CronJob: ['batch/v1beta1'],
};

/**
 * Kinds that moved to another group: the old group-version was an alias of the same storage, so an object a
 * dump lists through it (e.g. `extensions/v1beta1` DaemonSet from a pre-1.16 cluster) is the current kind.
 */
const MOVED_KINDS: Record<string, string> = {
  'extensions/DaemonSet': 'apps',
  'extensions/Deployment': 'apps',
  'extensions/ReplicaSet': 'apps',
  'extensions/Ingress': 'networking.k8s.io',
  'extensions/NetworkPolicy': 'networking.k8s.io',
  'extensions/PodSecurityPolicy': 'policy',
  'events.k8s.io/Event': 'events.k8s.io',
};

const key = (group: string, kind: string) => `${group}\u0000${kind}`;

/** kubectl's guess of a resource name from a kind (meta.UnsafeGuessKindToResource). */
export function guessPlural(kind: string): { plural: string; singular: string } {
  const singular = kind.toLowerCase();
  if (singular.endsWith('s')) return { plural: singular + 'es', singular };
  if (singular.endsWith('y')) return { plural: singular.slice(0, -1) + 'ies', singular };
  return { plural: singular + 's', singular };
}

export interface ObservedKind {
  apiVersion: string;
  kind: string;
  namespaced: boolean;
}

export class KindRegistry {
  private readonly byGroupKind = new Map<string, KindInfo>();
  /** group → kind → info: the hot lookup, without building a key string. */
  private readonly byGroup = new Map<string, Map<string, KindInfo>>();
  private readonly builtinGroups = new Set<string>(RETIRED_BUILTIN_GROUPS);
  /** Bumped whenever what a lookup answers may change, so callers can memoise answers. */
  revision = 0;

  constructor() {
    for (const [group, kind, plural, singular, shortNames, namespaced, versions, gcWatched] of BUILTIN_KINDS) {
      this.set({
        group,
        kind,
        plural,
        singular,
        shortNames,
        namespaced,
        servedVersions: [...versions],
        // Events are ignored by the GC even though they are deletable (R17, DefaultIgnoredResources).
        gcWatched: gcWatched && kind !== 'Event',
        origin: 'builtin',
      });
      this.builtinGroups.add(group);
    }
  }

  /** Registers what a CustomResourceDefinition in the input serves. A later CRD for the same kind wins. */
  addCrd(crd: CrdFacts): void {
    if (this.builtinGroups.has(crd.group)) return; // a CRD cannot shadow a built-in group
    this.set({
      group: crd.group,
      kind: crd.kind,
      plural: crd.plural,
      singular: crd.singular,
      shortNames: crd.shortNames,
      namespaced: crd.namespaced,
      servedVersions: [...crd.servedVersions],
      gcWatched: true,
      origin: 'crd',
    });
  }

  /**
   * Records a kind seen on an object. Unknown kinds outside Kubernetes' own groups become served at that
   * apiVersion; known kinds are left alone. Returns false when the object uses a version nothing serves.
   */
  observe(o: ObservedKind): boolean {
    const { group, version } = splitApiVersion(o.apiVersion);
    const known = this.lookup(group, o.kind);
    if (known) {
      if (known.origin === 'inferred') {
        if (!known.servedVersions.includes(version)) {
          known.servedVersions.push(version);
          this.revision++;
        }
        if (o.namespaced && !known.namespaced) {
          known.namespaced = true;
          this.revision++;
        }
        return true;
      }
      return known.servedVersions.includes(version);
    }
    if (this.builtinGroups.has(group) || !version) return false;
    const { plural, singular } = guessPlural(o.kind);
    this.set({
      group,
      kind: o.kind,
      plural,
      singular,
      shortNames: [],
      namespaced: o.namespaced,
      servedVersions: [version],
      gcWatched: true,
      origin: 'inferred',
    });
    return true;
  }

  /**
   * The apiVersion under which an object listed through a retired alias is served today, e.g.
   * `extensions/v1beta1` DaemonSet → `apps/v1`; undefined when the object's apiVersion needs no change.
   */
  currentApiVersion(apiVersion: string, kind: string): string | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    const known = this.lookup(group, kind);
    if (known) return known.servedVersions.includes(version) || known.origin !== 'builtin' ? undefined : this.preferredApiVersion(known);
    const moved = MOVED_KINDS[`${group}/${kind}`];
    const target = moved !== undefined ? this.lookup(moved, kind) : undefined;
    return target ? this.preferredApiVersion(target) : undefined;
  }

  /** The kind of (group, kind) whatever the version, if anything serves it. */
  lookup(group: string, kind: string): KindInfo | undefined {
    return this.byGroup.get(group)?.get(kind);
  }

  private set(info: KindInfo): void {
    this.revision++;
    this.byGroupKind.set(key(info.group, info.kind), info);
    let kinds = this.byGroup.get(info.group);
    if (!kinds) this.byGroup.set(info.group, (kinds = new Map()));
    kinds.set(info.kind, info);
  }

  /**
   * The REST mapping of (apiVersion, kind): defined only when that exact version serves that exact kind
   * (case-sensitive, as the RESTMapper is). Undefined means "unresolvable" (R46/R54).
   */
  restMapping(apiVersion: string, kind: string): KindInfo | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    if (!version || version.includes('/')) return undefined;
    const info = this.lookup(group, kind);
    return info && info.servedVersions.includes(version) ? info : undefined;
  }

  private readonly preferred = new WeakMap<KindInfo, string>();

  /**
   * The group-version the GC's informer watches for this kind. Memoised (asked once per object): a KindInfo's
   * first served version never changes, as observe() only appends versions and a new CRD makes a new KindInfo.
   */
  preferredApiVersion(info: KindInfo): string {
    let apiVersion = this.preferred.get(info);
    if (apiVersion === undefined) {
      apiVersion = info.group ? `${info.group}/${info.servedVersions[0]}` : info.servedVersions[0];
      this.preferred.set(info, apiVersion);
    }
    return apiVersion;
  }

  /** R5: the policy a DELETE without propagationPolicy gets, from the request's group-version. */
  defaultGcPolicy(requestApiVersion: string, kind: string): DefaultGcPolicy {
    const { group } = splitApiVersion(requestApiVersion);
    if (kind === 'Event' && (group === '' || group === 'events.k8s.io')) return 'unsupported';
    const orphaning = ORPHAN_BY_DEFAULT[kind];
    return orphaning?.includes(requestApiVersion) ? 'orphan' : 'background';
  }

  /**
   * Resolves a resource type as kubectl accepts it: Kind, plural, singular or short name, case-insensitive,
   * optionally qualified as `name.group` or `name.version.group`. Built-ins win ties, as in kubectl.
   */
  resolveType(typeName: string): KindInfo[] {
    const dot = typeName.indexOf('.');
    const name = (dot < 0 ? typeName : typeName.slice(0, dot)).toLowerCase();
    const qualifier = dot < 0 ? undefined : typeName.slice(dot + 1).toLowerCase();
    const matches: KindInfo[] = [];
    for (const info of this.byGroupKind.values()) {
      const names = [info.plural, info.singular, info.kind.toLowerCase(), ...info.shortNames.map((s) => s.toLowerCase())];
      if (!names.includes(name)) continue;
      if (qualifier !== undefined) {
        const g = info.group.toLowerCase();
        const ok = qualifier === g || info.servedVersions.some((v) => qualifier === (g ? `${v}.${g}` : v));
        if (!ok) continue;
      }
      matches.push(info);
    }
    const rank = (i: KindInfo) => (i.origin === 'builtin' ? 0 : i.origin === 'crd' ? 1 : 2);
    return matches.sort((a, b) => rank(a) - rank(b) || a.group.localeCompare(b.group));
  }

  all(): KindInfo[] {
    return [...this.byGroupKind.values()];
  }
}

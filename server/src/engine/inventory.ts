// The inventory: every object of the input, normalised as an apiserver would hold it, with the kinds the
// input makes served and the ownership graph over it. Sources produce raw KubeObjects; everything
// downstream (analysis, simulation, CLI, LSP) reads an Inventory.

import { KindRegistry, type KindInfo, type ObservedKind } from './kinds/kindRegistry';
import { OwnershipGraph } from './graph/ownershipGraph';
import {
  NAMESPACE_FINALIZER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  splitApiVersion,
  syntheticUid,
  type KubeObject,
  type ObjectIdentity,
  type ObjectSource,
} from './model';

export interface InventoryOptions {
  /** Where namespaced objects without metadata.namespace go, as `kubectl apply -n` would put them. */
  defaultNamespace?: string;
}

/** The same uid found twice with different content. */
export interface Conflict {
  uid: string;
  kept: KubeObject;
  other: KubeObject;
  /** Which fields differ, e.g. ["metadata.finalizers"]. */
  fields: string[];
}

interface KindResolution {
  apiVersion: string;
  kind: string;
  /** KindRegistry.revision when this was resolved. */
  revision: number;
  /** The apiVersion the object is served under today (differs only for retired aliases). */
  current: string;
  /** The group of `current`. */
  group: string;
  info: KindInfo | undefined;
  /** The group-version the GC's informer watches the kind at. */
  preferred: string | undefined;
}

export class Inventory {
  readonly objects = new Map<string, KubeObject>();
  readonly graph = new OwnershipGraph();
  readonly conflicts: Conflict[] = [];
  /**
   * name → uids of the objects with that name (any kind, any namespace; no key string to build per object),
   * namespace → uids ("" holds cluster-scoped objects) and kind → uids (CRD instances, workloads): only the
   * analysis and the simulation's controllers need them, so each is built on first use and kept current from
   * then on (a bulk load then pays for none of them).
   */
  private nameIndex: Map<string, string | string[]> | undefined;
  private namespaceIndex: Map<string, Set<string>> | undefined;
  /** namespace → its objects in input order, until the next change. */
  private namespaceObjects: Map<string, readonly KubeObject[]> | undefined;
  private kindIndex: Map<string, Set<string>> | undefined;
  /** Uids of objects that carry a deletionTimestamp. */
  readonly terminating = new Set<string>();
  /** Bumped on every change, so derived data (e.g. the simulation's start state) can be cached. */
  version = 0;
  readonly defaultNamespace: string;

  constructor(
    readonly kinds: KindRegistry,
    opts: InventoryOptions = {},
  ) {
    this.defaultNamespace = opts.defaultNamespace || 'default';
  }

  private get byName(): Map<string, string | string[]> {
    if (!this.nameIndex) {
      this.nameIndex = new Map();
      for (const o of this.objects.values()) addName(this.nameIndex, o);
    }
    return this.nameIndex;
  }

  get byNamespace(): ReadonlyMap<string, ReadonlySet<string>> {
    if (!this.namespaceIndex) {
      this.namespaceIndex = new Map();
      for (const o of this.objects.values()) addTo(this.namespaceIndex, o.namespace, o.uid);
    }
    return this.namespaceIndex;
  }

  get byKind(): ReadonlyMap<string, ReadonlySet<string>> {
    if (!this.kindIndex) {
      this.kindIndex = new Map();
      for (const o of this.objects.values()) addTo(this.kindIndex, o.kind, o.uid);
    }
    return this.kindIndex;
  }

  /** The objects of a namespace in input order (the simulation's namespace controller lists one every turn). */
  objectsIn(namespace: string): readonly KubeObject[] {
    const cache = (this.namespaceObjects ??= new Map());
    let list = cache.get(namespace);
    if (!list) {
      const objects: KubeObject[] = [];
      for (const uid of this.byNamespace.get(namespace) ?? []) objects.push(this.objects.get(uid)!);
      cache.set(namespace, (list = objects));
    }
    return list;
  }

  /** The object of (group, kind, namespace, name), whatever its uid. */
  find(group: string, kind: string, namespace: string, name: string): KubeObject | undefined {
    const entry = this.byName.get(name);
    if (entry === undefined) return undefined;
    const match = (uid: string) => {
      const o = this.objects.get(uid)!;
      return o.kind === kind && o.namespace === namespace && inGroup(o.apiVersion, group) ? o : undefined;
    };
    if (typeof entry === 'string') return match(entry);
    for (const uid of entry) {
      const o = match(uid);
      if (o) return o;
    }
    return undefined;
  }

  *ofKind(kind: string): IterableIterator<KubeObject> {
    for (const uid of this.byKind.get(kind) ?? []) yield this.objects.get(uid)!;
  }

  kindOf(o: { apiVersion: string; kind: string }): KindInfo | undefined {
    return this.resolve(o.apiVersion, o.kind).info;
  }

  /** The identity the GC's informer gives an object: its kind's preferred apiVersion (R19). */
  graphIdentity(o: KubeObject): ObjectIdentity {
    const { preferred } = this.resolve(o.apiVersion, o.kind);
    return { apiVersion: preferred ?? o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid };
  }

  /**
   * What the kinds say about (apiVersion, kind), remembered for the last pair asked: objects come grouped by
   * kind (a List, a file), so loading 100,000 objects asks the registry a few hundred times, not a million.
   */
  private resolve(apiVersion: string, kind: string): KindResolution {
    const last = this.lastResolved;
    if (last && last.apiVersion === apiVersion && last.kind === kind && last.revision === this.kinds.revision) return last;
    // An object listed through a retired alias (extensions/v1beta1 DaemonSet…) is the kind served today.
    const current = this.kinds.currentApiVersion(apiVersion, kind) ?? apiVersion;
    const group = splitApiVersion(current).group;
    const info = this.kinds.lookup(group, kind);
    const preferred = info ? this.kinds.preferredApiVersion(info) : undefined;
    return (this.lastResolved = { apiVersion, kind, revision: this.kinds.revision, current, group, info, preferred });
  }

  private lastResolved: KindResolution | undefined;

  /**
   * Adds or replaces one object (already normalised by normalize()). A second, different copy of a uid
   * that is already present from another source document is a conflict; the first copy is kept.
   */
  upsert(o: KubeObject): void {
    const existing = this.objects.get(o.uid);
    if (existing && existing !== o && !sameSourceDocument(existing.source, o.source)) {
      const fields = differingFields(existing, o);
      if (fields.length) this.conflicts.push({ uid: o.uid, kept: existing, other: o, fields });
      return;
    }
    if (existing) this.unindex(existing);
    this.version++;
    this.namespaceObjects = undefined;
    this.objects.set(o.uid, o);
    if (this.nameIndex) addName(this.nameIndex, o);
    if (this.namespaceIndex) addTo(this.namespaceIndex, o.namespace, o.uid);
    if (this.kindIndex) addTo(this.kindIndex, o.kind, o.uid);
    if (o.deletionTimestamp !== undefined) this.terminating.add(o.uid);
    if (o.kind === 'CustomResourceDefinition' && o.facts.crd) this.kinds.addCrd(o.facts.crd);
    this.graph.upsert({
      identity: this.graphIdentity(o),
      owners: o.ownerReferences,
      terminating: o.deletionTimestamp !== undefined,
      finalizers: o.finalizers,
    });
  }

  remove(uid: string): void {
    const o = this.objects.get(uid);
    if (!o) return;
    this.objects.delete(uid);
    this.unindex(o);
    this.version++;
    this.namespaceObjects = undefined;
    this.graph.remove(uid);
    for (let i = this.conflicts.length - 1; i >= 0; i--) if (this.conflicts[i].uid === uid) this.conflicts.splice(i, 1);
  }

  /**
   * Puts a raw object from a source into the shape the apiserver would store: namespace defaulted or
   * cleared by the kind's scope, a synthetic uid when there is none, uid-less ownerReferences pointed at
   * the synthetic uid of what they name, and the finalizers the apiserver adds on create for objects that
   * never went through one (hand-written manifests).
   */
  normalize(raw: KubeObject): KubeObject {
    const { current: apiVersion, group, info } = this.resolve(raw.apiVersion, raw.kind);
    const namespace = info ? (info.namespaced ? raw.namespace || this.defaultNamespace : '') : raw.namespace;
    // R56: a Namespace that shows no spec went through a create all the same, which adds `kubernetes`.
    const unfinalized = raw.kind === 'Namespace' && raw.apiVersion === 'v1' && raw.facts.namespaceFinalizers === undefined;
    // Most objects from a cluster need nothing: keep them as they are (no copy).
    if (apiVersion === raw.apiVersion && namespace === raw.namespace && raw.uid && !unfinalized && !raw.ownerReferences.some((r) => !r.uid))
      return raw;
    const o: KubeObject = { ...raw, apiVersion, namespace };
    if (unfinalized) o.facts = { ...o.facts, namespaceFinalizers: [NAMESPACE_FINALIZER] };
    if (!o.uid) {
      o.uid = syntheticUid(group, raw.kind, namespace, raw.name);
      o.syntheticUid = true;
      applyCreateDefaults(o);
    }
    if (o.ownerReferences.some((r) => !r.uid)) {
      o.ownerReferences = o.ownerReferences.map((r) => {
        if (r.uid) return r;
        const ownerGroup = splitApiVersion(r.apiVersion).group;
        const ownerInfo = this.kinds.lookup(ownerGroup, r.kind);
        const ownerNs = ownerInfo && !ownerInfo.namespaced ? '' : namespace;
        return { ...r, uid: syntheticUid(ownerGroup, r.kind, ownerNs, r.name) };
      });
    }
    return o;
  }

  private unindex(o: KubeObject): void {
    const names = this.nameIndex;
    const named = names?.get(o.name);
    if (named === o.uid) names!.delete(o.name);
    else if (Array.isArray(named)) {
      const rest = named.filter((u) => u !== o.uid);
      if (rest.length === 0) names!.delete(o.name);
      else names!.set(o.name, rest.length === 1 ? rest[0] : rest);
    }
    this.namespaceIndex?.get(o.namespace)?.delete(o.uid);
    this.kindIndex?.get(o.kind)?.delete(o.uid);
    this.terminating.delete(o.uid);
  }
}

/** What the apiserver and its admission plugins add on create (namespace lifecycle, storage-object-in-use). */
/** Whether an apiVersion (`v1`, `apps/v1`) belongs to the group (`""`, `apps`), without splitting it. */
function inGroup(apiVersion: string, group: string): boolean {
  if (group === '') return !apiVersion.includes('/');
  return apiVersion.length > group.length && apiVersion.charCodeAt(group.length) === 47 && apiVersion.startsWith(group);
}

function addName(index: Map<string, string | string[]>, o: KubeObject): void {
  const named = index.get(o.name);
  if (named === undefined) index.set(o.name, o.uid);
  else if (typeof named === 'string') index.set(o.name, [named, o.uid]);
  else named.push(o.uid);
}

function addTo(index: Map<string, Set<string>>, key: string, uid: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(uid);
}

function applyCreateDefaults(o: KubeObject): void {
  if (o.apiVersion === 'v1' && o.kind === 'Namespace' && o.facts.namespaceFinalizers === undefined) {
    o.facts = { ...o.facts, namespaceFinalizers: [NAMESPACE_FINALIZER] };
  }
  const protection =
    o.apiVersion === 'v1' && o.kind === 'PersistentVolumeClaim'
      ? PVC_PROTECTION_FINALIZER
      : o.apiVersion === 'v1' && o.kind === 'PersistentVolume'
        ? PV_PROTECTION_FINALIZER
        : undefined;
  if (protection && !o.finalizers.includes(protection)) o.finalizers = [...o.finalizers, protection];
}

function sameSourceDocument(a: ObjectSource | undefined, b: ObjectSource | undefined): boolean {
  if (!a || !b) return a === b;
  return a.file === b.file && a.docIndex === b.docIndex && a.itemPath.join('.') === b.itemPath.join('.');
}

function differingFields(a: KubeObject, b: KubeObject): string[] {
  const fields: [string, unknown, unknown][] = [
    ['apiVersion', a.apiVersion, b.apiVersion],
    ['kind', a.kind, b.kind],
    ['metadata.name', a.name, b.name],
    ['metadata.namespace', a.namespace, b.namespace],
    ['metadata.ownerReferences', a.ownerReferences, b.ownerReferences],
    ['metadata.finalizers', a.finalizers, b.finalizers],
    ['metadata.deletionTimestamp', a.deletionTimestamp, b.deletionTimestamp],
    ['spec/status', a.facts, b.facts],
  ];
  return fields.filter(([, x, y]) => JSON.stringify(x) !== JSON.stringify(y)).map(([f]) => f);
}

/**
 * Builds the inventory of a whole input. Kinds are learnt first (built-ins, then every CRD, then the
 * kinds objects use), so that each object's scope is known before its namespace is normalised.
 */
export function buildInventory(raw: KubeObject[], opts: InventoryOptions = {}): Inventory {
  const kinds = new KindRegistry();
  // apiVersion → kind → bit 1 (seen without namespace) | bit 2 (seen with one): observe each combination once,
  // after every CRD is known (a CRD's scope beats what its objects suggest).
  const seen = new Map<string, Map<string, number>>();
  const observed: ObservedKind[] = [];
  let last: KubeObject | undefined;
  for (const o of raw) {
    // Objects come grouped by kind: most are like the one before.
    if (
      last &&
      o.apiVersion === last.apiVersion &&
      o.kind === last.kind &&
      (o.namespace === '') === (last.namespace === '') &&
      o.kind !== 'CustomResourceDefinition'
    )
      continue;
    last = o;
    if (o.kind === 'CustomResourceDefinition' && o.facts.crd && o.apiVersion.startsWith('apiextensions.k8s.io/')) kinds.addCrd(o.facts.crd);
    let byKind = seen.get(o.apiVersion);
    if (!byKind) seen.set(o.apiVersion, (byKind = new Map()));
    const bit = o.namespace !== '' ? 2 : 1;
    const bits = byKind.get(o.kind) ?? 0;
    if (bits & bit) continue;
    byKind.set(o.kind, bits | bit);
    observed.push({ apiVersion: o.apiVersion, kind: o.kind, namespaced: o.namespace !== '' });
  }
  for (const k of observed) kinds.observe(k);
  const inventory = new Inventory(kinds, opts);
  for (const o of raw) inventory.upsert(inventory.normalize(o));
  return inventory;
}

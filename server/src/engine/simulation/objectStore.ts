// The apiserver's storage during a simulation: a copy-on-write overlay over the inventory, so a
// simulation costs what it changes, not what the input holds. Each write is delivered to watchers as the
// informer event it would produce. A simulation never creates objects; it updates and removes them.

import type { Inventory } from '../inventory';
import type { KindRegistry } from '../kinds/kindRegistry';
import type { KubeObject } from '../model';

export type WatchEventType = 'add' | 'update' | 'delete';

export interface WatchEvent {
  type: WatchEventType;
  /** The new state; for deletes, the last stored state (what a tombstone carries). */
  obj: KubeObject;
  old?: KubeObject;
}

export class ObjectStore {
  /** uid → current state, or null once removed. Absent: unchanged from the inventory. */
  private readonly changed = new Map<string, KubeObject | null>();
  /** Uids of objects with a deletionTimestamp: what the controllers scan. */
  readonly terminating: Set<string>;
  private readonly resourceVersions = new Map<string, number>();
  private nextResourceVersion = 2;
  private removedCount = 0;
  /** namespace → objects removed from it, so "is anything left in it" needs no scan. */
  private readonly removedIn = new Map<string, number>();
  /** namespace → excluded objects in it, counted on first use. */
  private excludedIn: Map<string, number> | undefined;
  /** Bumped on every write: lets the scheduler tell "nothing changed since" (R53.3). */
  writes = 0;
  private readonly watchers: ((e: WatchEvent) => void)[] = [];
  /** Called before a write to an object, with its uid and what is stored now (the GC loads that part of its graph first). */
  beforeWrite: (uid: string, current: KubeObject | undefined) => void = () => undefined;

  constructor(
    private readonly base: Inventory,
    private readonly excluded: Set<string>,
    private readonly claimUsers: (namespace: string, claim: string) => string[],
  ) {
    this.terminating = new Set([...base.terminating].filter((u) => !excluded.has(u)));
  }

  /** The kinds the input's cluster serves (plural resource names for messages). */
  get kinds(): KindRegistry {
    return this.base.kinds;
  }

  watch(fn: (e: WatchEvent) => void): void {
    this.watchers.push(fn);
  }

  get(uid: string): KubeObject | undefined {
    if (this.changed.size) {
      const c = this.changed.get(uid);
      if (c !== undefined) return c ?? undefined;
    }
    return this.excluded.size && this.excluded.has(uid) ? undefined : this.base.objects.get(uid);
  }

  /**
   * Whether `o`, read from this store, is still what it holds under its uid: one lookup fewer than get for an input
   * object nobody changed (only input objects have no entry in `changed`).
   */
  isStored(o: KubeObject): boolean {
    const c = this.changed.get(o.uid);
    return c === undefined ? !(this.excluded.size && this.excluded.has(o.uid)) : c === o;
  }

  getByName(group: string, kind: string, namespace: string, name: string): KubeObject | undefined {
    const o = this.base.find(group, kind, namespace, name);
    return o && this.get(o.uid);
  }

  /** The object as the input held it, whatever the simulation did to it since. */
  atStart(group: string, kind: string, namespace: string, name: string): KubeObject | undefined {
    return this.base.find(group, kind, namespace, name);
  }

  /** The objects of a kind as the input held them. */
  ofKindAtStart(kind: string): Iterable<KubeObject> {
    return this.base.ofKind(kind);
  }

  resourceVersion(uid: string): number | undefined {
    return this.get(uid) ? (this.resourceVersions.get(uid) ?? 1) : undefined;
  }

  *inNamespace(namespace: string): IterableIterator<string> {
    for (const uid of this.base.byNamespace.get(namespace) ?? []) if (this.get(uid)) yield uid;
  }
  /**
   * The stored objects of a namespace, in input order. Nothing is ever created during a simulation, so the uids
   * found removed are dropped from the list kept per namespace: the namespace controller asks on every turn.
   */
  objectsInNamespace(namespace: string): KubeObject[] {
    const inputs = this.stillIn.get(namespace) ?? this.base.objectsIn(namespace);
    const kept: KubeObject[] = [];
    const out: KubeObject[] = [];
    for (const input of inputs) {
      const c = this.changed.get(input.uid);
      if (c === null || (c === undefined && this.excluded.size && this.excluded.has(input.uid))) continue;
      kept.push(input);
      out.push(c ?? input);
    }
    this.stillIn.set(namespace, kept);
    return out;
  }
  /** namespace → its input objects not yet found removed. */
  private readonly stillIn = new Map<string, readonly KubeObject[]>();

  /** Whether any object is still stored in the namespace, without scanning it. */
  hasObjectsIn(namespace: string): boolean {
    if (!this.excludedIn) {
      this.excludedIn = new Map();
      for (const uid of this.excluded) {
        const ns = this.base.objects.get(uid)?.namespace;
        if (ns) this.excludedIn.set(ns, (this.excludedIn.get(ns) ?? 0) + 1);
      }
    }
    const total = this.base.byNamespace.get(namespace)?.size ?? 0;
    return total - (this.excludedIn.get(namespace) ?? 0) - (this.removedIn.get(namespace) ?? 0) > 0;
  }

  *ofKind(kind: string): IterableIterator<KubeObject> {
    for (const uid of this.base.byKind.get(kind) ?? []) {
      const o = this.get(uid);
      if (o) yield o;
    }
  }

  /**
   * Uids of the Pods that mount a claim, at the start. A simulation never adds a volume to a Pod, so callers
   * only need to check that each one is still stored (pvc-protection asks this for every terminating claim).
   */
  podsMountingClaim(namespace: string, claim: string): string[] {
    return this.claimUsers(namespace, claim);
  }

  *all(): IterableIterator<KubeObject> {
    for (const [uid, o] of this.base.objects) {
      const c = this.changed.get(uid);
      if (c === null || (c === undefined && this.excluded.has(uid))) continue;
      yield c ?? o;
    }
  }

  get size(): number {
    return this.base.objects.size - this.excluded.size - this.removedCount;
  }

  write(o: KubeObject): void {
    const old = this.get(o.uid);
    this.beforeWrite(o.uid, old);
    this.changed.set(o.uid, o);
    if (o.deletionTimestamp !== undefined) this.terminating.add(o.uid);
    else this.terminating.delete(o.uid);
    this.resourceVersions.set(o.uid, this.nextResourceVersion++);
    this.writes++;
    for (const w of this.watchers) w({ type: old ? 'update' : 'add', obj: o, old });
  }

  /** `stored`: the object the caller holds, used while it is still the stored one (see isStored). */
  remove(uid: string, stored?: KubeObject): KubeObject | undefined {
    const o = stored?.uid === uid && this.isStored(stored) ? stored : this.get(uid);
    if (!o) return undefined;
    this.beforeWrite(uid, o);
    this.changed.set(uid, null);
    this.removedCount++;
    if (o.namespace) this.removedIn.set(o.namespace, (this.removedIn.get(o.namespace) ?? 0) + 1);
    this.terminating.delete(uid);
    this.writes++;
    for (const w of this.watchers) w({ type: 'delete', obj: o });
    return o;
  }
}

// The apiserver's storage during a simulation: objects by uid and by (group, kind, namespace, name), each
// write delivered to watchers as the informer event it would produce.

import { splitApiVersion, type KubeObject } from '../model';

export type WatchEventType = 'add' | 'update' | 'delete';

export interface WatchEvent {
  type: WatchEventType;
  /** The new state; for deletes, the last stored state (what a tombstone carries). */
  obj: KubeObject;
  old?: KubeObject;
}

const storeKey = (group: string, kind: string, namespace: string, name: string) => `${group}\u0000${kind}\u0000${namespace}\u0000${name}`;

export class ObjectStore {
  private readonly byUid = new Map<string, KubeObject>();
  private readonly byKey = new Map<string, string>();
  private readonly byNamespace = new Map<string, Set<string>>();
  /** Uids of objects with a deletionTimestamp: what the controllers scan. */
  readonly terminating = new Set<string>();
  private readonly resourceVersions = new Map<string, number>();
  private nextResourceVersion = 1;
  /** Bumped on every write: lets the scheduler tell "nothing changed since" (R53.3). */
  writes = 0;
  private readonly watchers: ((e: WatchEvent) => void)[] = [];

  watch(fn: (e: WatchEvent) => void): void {
    this.watchers.push(fn);
  }

  get(uid: string): KubeObject | undefined {
    return this.byUid.get(uid);
  }

  getByName(group: string, kind: string, namespace: string, name: string): KubeObject | undefined {
    const uid = this.byKey.get(storeKey(group, kind, namespace, name));
    return uid === undefined ? undefined : this.byUid.get(uid);
  }

  resourceVersion(uid: string): number | undefined {
    return this.resourceVersions.get(uid);
  }

  inNamespace(namespace: string): Iterable<string> {
    return this.byNamespace.get(namespace) ?? [];
  }

  all(): IterableIterator<KubeObject> {
    return this.byUid.values();
  }

  get size(): number {
    return this.byUid.size;
  }

  /** Initial load: no watch event (the GC builds its graph from a full list, R53.2). */
  load(o: KubeObject): void {
    this.index(o);
  }

  write(o: KubeObject): void {
    const old = this.byUid.get(o.uid);
    this.index(o);
    this.writes++;
    for (const w of this.watchers) w({ type: old ? 'update' : 'add', obj: o, old });
  }

  remove(uid: string): KubeObject | undefined {
    const o = this.byUid.get(uid);
    if (!o) return undefined;
    this.byUid.delete(uid);
    this.byKey.delete(storeKey(splitApiVersion(o.apiVersion).group, o.kind, o.namespace, o.name));
    this.byNamespace.get(o.namespace)?.delete(uid);
    this.terminating.delete(uid);
    this.resourceVersions.delete(uid);
    this.writes++;
    for (const w of this.watchers) w({ type: 'delete', obj: o });
    return o;
  }

  private index(o: KubeObject): void {
    this.byUid.set(o.uid, o);
    this.byKey.set(storeKey(splitApiVersion(o.apiVersion).group, o.kind, o.namespace, o.name), o.uid);
    let ns = this.byNamespace.get(o.namespace);
    if (!ns) this.byNamespace.set(o.namespace, (ns = new Set()));
    ns.add(o.uid);
    if (o.deletionTimestamp !== undefined) this.terminating.add(o.uid);
    else this.terminating.delete(o.uid);
    this.resourceVersions.set(o.uid, this.nextResourceVersion++);
  }
}

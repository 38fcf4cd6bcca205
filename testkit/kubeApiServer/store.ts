// The object store: one global resourceVersion (as etcd's revision), objects per resource kept in etcd's key order
// (`namespace/name`, or `name` for cluster-scoped resources), and the history of changes since the last compaction,
// which serves watches from a resourceVersion and paginated lists from the snapshot of their first page.
// Stored objects are never mutated: a change stores a new object, so old versions stay valid in the history.
import type { Obj, Predicate } from './selectors';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  /** `group/resource` */
  rkey: string;
  key: string;
  type: EventType;
  /** the object after the change (for DELETED: the last state, with the deletion's resourceVersion) */
  obj: Obj;
  /** the object before the change */
  prev?: Obj;
}

export interface ListOptions {
  /** only keys with this prefix (`namespace/`) */
  prefix?: string;
  filter?: Predicate;
  limit?: number;
  /** first key to return (a continue token's position) */
  start?: string;
  /** serve the state at this resourceVersion (a continue token's snapshot); current state if absent */
  atRv?: number;
}

export interface ListResult {
  items: Obj[];
  rv: number;
  /** where the next page starts, if there may be more */
  next?: string;
  remaining?: number;
}

export class Expired extends Error {}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class Bucket {
  readonly items = new Map<string, Obj>();
  private sorted: string[] | undefined = [];

  keys(): readonly string[] {
    return (this.sorted ??= [...this.items.keys()].sort());
  }

  set(key: string, obj: Obj, bulk: boolean): void {
    if (!this.items.has(key)) {
      if (bulk) this.sorted = undefined;
      else if (this.sorted) this.sorted.splice(lowerBound(this.sorted, key), 0, key);
    }
    this.items.set(key, obj);
  }

  delete(key: string): void {
    if (this.items.delete(key) && this.sorted) this.sorted.splice(lowerBound(this.sorted, key), 1);
  }
}

export class Store {
  /** the global resourceVersion: the revision of the last change */
  rv = 1;
  /** watches and continue tokens from before this resourceVersion are expired */
  private compactedRv = 0;
  private history: StoreEvent[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  onEvent(listener: (e: StoreEvent) => void): void {
    this.listeners.add(listener);
  }

  get(rkey: string, key: string): Obj | undefined {
    return this.buckets.get(rkey)?.items.get(key);
  }

  /** Every stored object of a resource, in key order. */
  all(rkey: string): Obj[] {
    const bucket = this.buckets.get(rkey);
    return bucket ? bucket.keys().map((k) => bucket.items.get(k) as Obj) : [];
  }

  resourceKeys(): string[] {
    return [...this.buckets.keys()];
  }

  /** Stores `obj` (a fresh object the store now owns) under a new resourceVersion and emits ADDED or MODIFIED. */
  put(rkey: string, key: string, obj: Obj, bulk = false): Obj {
    let bucket = this.buckets.get(rkey);
    if (!bucket) this.buckets.set(rkey, (bucket = new Bucket()));
    const prev = bucket.items.get(key);
    const rv = ++this.rv;
    (obj.metadata as Obj).resourceVersion = String(rv);
    bucket.set(key, obj, bulk);
    this.record({ rv, rkey, key, type: prev ? 'MODIFIED' : 'ADDED', obj, ...(prev ? { prev } : {}) });
    return obj;
  }

  delete(rkey: string, key: string): Obj | undefined {
    const bucket = this.buckets.get(rkey);
    const prev = bucket?.items.get(key);
    if (!bucket || !prev) return undefined;
    const rv = ++this.rv;
    bucket.delete(key);
    const obj = { ...prev, metadata: { ...(prev.metadata as Obj), resourceVersion: String(rv) } };
    this.record({ rv, rkey, key, type: 'DELETED', obj, prev });
    return obj;
  }

  /**
   * Forgets the history, as etcd compaction does. The resourceVersion moves on by one so that every resourceVersion
   * and continue token handed out before is too old, while lists made after it start a valid history again.
   */
  compact(): void {
    this.rv++;
    this.compactedRv = this.rv;
    this.history = [];
  }

  isExpired(rv: number): boolean {
    return rv < this.compactedRv;
  }

  /** The changes of a resource after `rv`; throws Expired when they are no longer known. */
  eventsSince(rkey: string, rv: number): StoreEvent[] {
    if (this.isExpired(rv)) throw new Expired(`too old resource version: ${rv} (${this.compactedRv})`);
    const out: StoreEvent[] = [];
    for (let i = this.firstEventAfter(rv); i < this.history.length; i++) {
      if (this.history[i].rkey === rkey) out.push(this.history[i]);
    }
    return out;
  }

  list(rkey: string, opts: ListOptions): ListResult {
    const bucket = this.buckets.get(rkey) ?? new Bucket();
    const atRv = opts.atRv ?? this.rv;
    if (this.isExpired(atRv)) throw new Expired(`too old resource version: ${atRv} (${this.compactedRv})`);
    // The state at atRv: the current one, with every key changed since put back as it was (or absent).
    const overlay = new Map<string, Obj | undefined>();
    if (atRv < this.rv) {
      for (const e of this.eventsSince(rkey, atRv)) if (!overlay.has(e.key)) overlay.set(e.key, e.prev);
    }
    let keys = bucket.keys();
    if (overlay.size > 0) {
      const gone = [...overlay.keys()].filter((k) => !bucket.items.has(k)).sort();
      if (gone.length > 0) keys = [...keys, ...gone].sort();
    }
    const valueAt = (k: string): Obj | undefined => (overlay.has(k) ? overlay.get(k) : bucket.items.get(k));

    const prefix = opts.prefix ?? '';
    const end = prefix ? lowerBound(keys, `${prefix}\uffff`) : keys.length;
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const items: Obj[] = [];
    let i = lowerBound(keys, opts.start && opts.start > prefix ? opts.start : prefix);
    for (; i < end && items.length < limit; i++) {
      const obj = valueAt(keys[i]);
      if (obj && (!opts.filter || opts.filter(obj))) items.push(obj);
    }
    const result: ListResult = { items, rv: atRv };
    if (i < end && items.length > 0) {
      result.next = `${keys[i - 1]}\u0000`;
      if (!opts.filter && overlay.size === 0) result.remaining = end - i;
    }
    return result;
  }

  private record(e: StoreEvent): void {
    this.history.push(e);
    for (const listener of this.listeners) listener(e);
  }

  private firstEventAfter(rv: number): number {
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid].rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

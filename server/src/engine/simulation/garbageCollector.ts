// kube-controller-manager's garbage collector: the GraphBuilder (Part C, R17–R28) and the
// attemptToDelete / attemptToOrphan workers (Part D, R29–R41), run single-threaded and deterministically.
// Function names follow garbagecollector.go and graph_builder.go so the two can be read side by side.

import { GraphNode, referenceMatches } from '../graph/graphNode';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, describe, type KubeObject, type ObjectIdentity, type OwnerReference } from '../model';
import type { KindRegistry } from '../kinds/kindRegistry';
import type { ApiServer } from './apiServer';
import type { WatchEvent } from './objectStore';
import type { Timeline } from './timeline';

const ACTOR = 'garbage-collector';

type GraphEvent =
  | { virtual: false; type: WatchEvent['type']; obj: KubeObject; old?: KubeObject; identity: ObjectIdentity }
  | { virtual: true; type: 'delete'; identity: ObjectIdentity };

/** A work queue that, like client-go's, ignores an item that is already waiting. */
class WorkQueue<T> {
  private items: T[] = [];
  private head = 0;
  private readonly waiting = new Set<T>();
  add(item: T): void {
    if (this.waiting.has(item)) return;
    this.waiting.add(item);
    this.items.push(item);
  }
  pop(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.waiting.delete(item);
    return item;
  }
  get length(): number {
    return this.items.length - this.head;
  }
}

/** The absent-owner cache: an LRU of identities verified absent, keyed with the namespace (R37). */
class AbsentOwnerCache {
  private readonly entries = new Map<string, true>();
  constructor(private readonly capacity = 500) {}
  /** The key of a reference's coordinates (apiVersion, kind, name, uid), to which a namespace is appended. */
  static coordinates(c: Omit<ObjectIdentity, 'namespace'>): string {
    return `${c.apiVersion}\u0000${c.kind}\u0000${c.name}\u0000${c.uid}\u0000`;
  }
  add(id: ObjectIdentity): void {
    this.addKey(AbsentOwnerCache.coordinates(id) + id.namespace);
  }
  addKey(k: string): void {
    this.entries.delete(k);
    this.entries.set(k, true);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
  has(id: ObjectIdentity): boolean {
    return this.hasKey(AbsentOwnerCache.coordinates(id) + id.namespace);
  }
  hasKey(k: string): boolean {
    if (!this.entries.has(k)) return false;
    this.entries.delete(k);
    this.entries.set(k, true);
    return true;
  }
}

class MarkerError {
  constructor(
    readonly kind: 'enqueuedVirtualDeleteEvent' | 'namespacedOwnerOfClusterScopedObject' | 'restMapping' | 'conflict',
    readonly message: string,
  ) {}
}

const DANGLING: { readonly dangling: true } = { dangling: true };

type Classification = { solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] };

export class GarbageCollector {
  readonly uidToNode = new Map<string, GraphNode>();
  private readonly graphChanges: GraphEvent[] = [];
  private graphChangesHead = 0;
  private readonly attemptToDelete = new WorkQueue<GraphNode>();
  private readonly attemptToOrphan = new WorkQueue<GraphNode>();
  /** Items re-added with rate limiting that must be retried (AddRateLimited after a re-key, R27). */
  private delayed: GraphNode[] = [];
  /** Items whose DELETE conflicted with the GC's own patch: retried before the work that patch queued (R36, R70). */
  private requeued: GraphNode[] = [];
  /** Items already retried once after a conflict: a second conflict waits for the backoff. */
  private readonly conflicted = new Set<GraphNode>();
  /** Items requeued after an error or a poll: retried only once the store has changed since (R29, R53.3). */
  private readonly parked = new Map<GraphNode, number>();
  /** Owners whose non-blocking dependents' race with their foreground finalizer was noted (R51). */
  private readonly racesNoted = new Set<string>();
  /** Per absent uid, the store version at which its virtual node last took another dependent's identity (R27). */
  private readonly alternatedAt = new Map<string, number>();
  private readonly absentOwnerCache = new AbsentOwnerCache();
  /** Last failure reason per uid, for the why-chains of items retried forever. */
  readonly lastError = new Map<string, string>();
  /** Dependents whose cluster-scoped object references a namespaced owner kind, dropped without retry (R45). */
  readonly invalidScope = new Set<string>();

  /**
   * The components whose part of the graph has been built (see ensureLoaded): the component's members array
   * (componentOf gives every member the same one), or the uid of a component of one. A Set of every loaded uid
   * would hold 200,000 entries when every owner is missing.
   */
  private readonly loaded = new Set<string | readonly string[]>();

  constructor(
    private readonly api: ApiServer,
    private readonly kinds: KindRegistry,
    private readonly timeline: Timeline,
    private readonly storeWrites: () => number,
    /** The connected component (initial ownership graph) of a uid, and the current object of a uid. */
    private readonly componentOf: (uid: string) => readonly string[],
    private readonly current: (uid: string) => KubeObject | undefined,
  ) {}

  /**
   * Builds the graph for the component of `uid` as the informers' initial list would have (R53.2), if it
   * is not built yet. Components that nothing touches are inert, so the simulation only builds what a
   * deletion reaches: the cost follows the change, not the size of the input.
   */
  ensureLoaded(uid: string, current?: KubeObject): void {
    const members = this.componentOf(uid);
    const key = members.length === 1 ? members[0] : members;
    if (this.loaded.has(key)) return;
    this.loaded.add(key);
    if (current === undefined) current = this.current(uid);
    const lone = members.length === 1 && members[0] === uid ? current : undefined;
    // A lone live object stays lone (a simulation adds no reference): its add event would change nothing, and
    // the event of the write that follows creates its node as R21 does (half the objects of a namespace deletion).
    if (lone && lone.ownerReferences.length === 0 && lone.deletionTimestamp === undefined) return;
    const added: GraphEvent[] = [];
    for (const u of members) {
      const o = u === uid ? current : this.current(u);
      const identity = o && this.watches(o);
      if (identity) added.push({ virtual: false, type: 'add', obj: o!, identity });
    }
    for (const e of added) this.processEvent(e);
  }

  /** Whether the GC watches this object's kind (R17): deletable resources, minus Events. */
  watches(o: KubeObject): ObjectIdentity | undefined {
    // By kind, not by uid: a simulation has a few dozen kinds and 100,000 uids.
    let byKind = this.preferredVersions.get(o.apiVersion);
    if (!byKind) this.preferredVersions.set(o.apiVersion, (byKind = new Map()));
    let preferred = byKind.get(o.kind);
    if (preferred === undefined) {
      const info = this.kinds.lookup(groupOf(o.apiVersion), o.kind);
      byKind.set(o.kind, (preferred = info && info.gcWatched ? this.kinds.preferredApiVersion(info) : null));
    }
    return preferred === null ? undefined : { apiVersion: preferred, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid };
  }

  /** apiVersion → kind → the preferred apiVersion the GC's informer reports, or null when it does not watch it. */
  private readonly preferredVersions = new Map<string, Map<string, string | null>>();

  /** Informer notification → graphChanges (R17). */
  observe(e: WatchEvent): void {
    const identity = this.watches(e.obj);
    if (identity) this.graphChanges.push({ virtual: false, type: e.type, obj: e.obj, old: e.old, identity });
  }

  /** Builds the graph of every component that holds work at start (R53.2), before workers start. */
  initialList(seeds: Iterable<string>): void {
    for (const uid of seeds) this.ensureLoaded(uid);
  }

  /**
   * Runs one unit of GC work. Graph changes are drained first, so workers always see an up-to-date graph.
   * Returns false when nothing is left that could change the store.
   */
  step(): boolean {
    if (this.processGraphChanges()) return true;
    const retry = this.requeued.shift();
    if (retry) {
      this.attemptToDeleteWorker(retry);
      return true;
    }
    const orphan = this.attemptToOrphan.pop();
    if (orphan) {
      this.attemptToOrphanWorker(orphan);
      return true;
    }
    const item = this.attemptToDelete.pop();
    if (item) {
      this.attemptToDeleteWorker(item);
      return true;
    }
    if (this.delayed.length) {
      for (const n of this.delayed) this.attemptToDelete.add(n);
      this.delayed = [];
      return true;
    }
    return false;
  }

  /** Retries parked items if the store changed since they failed; false when there is nothing to retry. */
  retryParked(): boolean {
    const writes = this.storeWrites();
    let any = false;
    for (const [node, at] of this.parked) {
      if (at === writes) continue;
      this.parked.delete(node);
      this.attemptToDelete.add(node);
      any = true;
    }
    return any;
  }

  get parkedItems(): GraphNode[] {
    return [...this.parked.keys()];
  }

  // ---------------------------------------------------------------- GraphBuilder (Part C)

  private processGraphChanges(): boolean {
    if (this.graphChangesHead >= this.graphChanges.length) return false;
    const event = this.graphChanges[this.graphChangesHead++];
    if (this.graphChangesHead === this.graphChanges.length) {
      this.graphChanges.length = 0;
      this.graphChangesHead = 0;
    }
    this.processEvent(event);
    return true;
  }

  private processEvent(event: GraphEvent): void {
    const uid = event.identity.uid;
    let existing = this.uidToNode.get(uid);
    // R20: first real observation of a uid that was only known as a virtual node.
    if (existing && !event.virtual && existing.virtual) {
      const observed = event.identity;
      if (!sameId(observed, existing.identity)) {
        const { nonmatching } = partitionDependents([...existing.dependents], observed);
        for (const dep of nonmatching) {
          if (observed.namespace && dep.identity.namespace !== observed.namespace) this.reportInvalidNamespaceOwnerRef(dep, observed);
          this.attemptToDelete.add(dep);
        }
        existing = existing.clone();
        existing.identity = observed;
        this.uidToNode.set(uid, existing);
      }
      existing.virtual = false;
    }
    if (!event.virtual && (event.type === 'add' || event.type === 'update') && !existing) {
      // R21
      const terminating = event.obj.deletionTimestamp !== undefined;
      const node = new GraphNode(event.identity, false);
      node.owners = event.obj.ownerReferences;
      node.beingDeleted = terminating;
      node.deletingDependents = terminating && event.obj.finalizers.includes(FOREGROUND_FINALIZER);
      this.uidToNode.set(uid, node);
      this.addDependentToOwners(node, node.owners);
      this.processTransitions(event.old, event.obj, node);
    } else if (!event.virtual && (event.type === 'add' || event.type === 'update') && existing) {
      // R23
      if (existing.identity.apiVersion !== event.identity.apiVersion || existing.identity.kind !== event.identity.kind) {
        existing = this.replaceIdentity(existing, event.identity);
      }
      // Writes keep the ownerReferences array unless they change it: the same array means no difference.
      const { added, removed, changed } =
        existing.owners === event.obj.ownerReferences ? NO_DIFF : referencesDiffs(existing.owners, event.obj.ownerReferences);
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = event.obj.ownerReferences;
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (event.obj.deletionTimestamp !== undefined) existing.beingDeleted = true;
      this.processTransitions(event.old, event.obj, existing);
    } else if (event.type === 'delete') {
      if (!existing) return;
      this.processDelete(event, existing);
    }
  }

  /** R26 and R27. */
  private processDelete(event: GraphEvent, existing: GraphNode): void {
    let removeExistingNode = true;
    if (event.virtual) {
      const deleted = event.identity;
      if (existing.virtual) {
        const { matching, nonmatching } = partitionDependents([...existing.dependents], deleted);
        if (nonmatching.length > 0) {
          removeExistingNode = false;
          if (matching.length > 0) {
            this.absentOwnerCache.add(deleted);
            for (const dep of matching) this.attemptToDelete.add(dep);
          }
          if (sameId(existing.identity, deleted)) {
            const replacement = getAlternateOwnerIdentity(nonmatching, deleted);
            if (replacement) {
              const node = existing.clone();
              node.identity = replacement;
              this.uidToNode.set(node.identity.uid, node);
              // Dependents that name the uid differently and cannot go (terminating, or retried forever) make the
              // real GC alternate between their identities every few ms, changing nothing: once per store change.
              const writes = this.storeWrites();
              if (this.alternatedAt.get(node.identity.uid) === writes) this.parked.set(node, writes);
              else this.delayed.push(node);
              this.alternatedAt.set(node.identity.uid, writes);
            }
          }
        }
      } else if (!sameId(existing.identity, deleted)) {
        removeExistingNode = false;
        const { matching } = partitionDependents([...existing.dependents], deleted);
        if (matching.length > 0) {
          this.absentOwnerCache.add(deleted);
          for (const dep of matching) this.attemptToDelete.add(dep);
        }
      }
    }
    if (!removeExistingNode) return;
    this.uidToNode.delete(existing.identity.uid);
    this.removeDependentFromOwners(existing, existing.owners);
    if (existing.dependents.size > 0) this.absentOwnerCache.add(event.identity);
    for (const dep of existing.dependents) this.attemptToDelete.add(dep);
    for (const ref of existing.owners) {
      const owner = this.uidToNode.get(ref.uid);
      if (owner && owner.deletingDependents) this.attemptToDelete.add(owner);
    }
  }

  /** R23.1: the object is now observed through another group-version/kind; swap a copy in everywhere. */
  private replaceIdentity(node: GraphNode, identity: ObjectIdentity): GraphNode {
    const copy = node.clone();
    copy.identity = identity;
    this.uidToNode.set(identity.uid, copy);
    for (const ref of node.owners) {
      const owner = this.uidToNode.get(ref.uid);
      if (owner?.deleteDependent(node)) owner.addDependent(copy);
    }
    return copy;
  }

  /** R22. */
  private addDependentToOwners(n: GraphNode, owners: OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const ref of owners) {
      let owner = this.uidToNode.get(ref.uid);
      const found = owner !== undefined;
      if (!owner) {
        owner = new GraphNode(
          { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: n.identity.namespace },
          true,
        );
        this.uidToNode.set(ref.uid, owner);
      }
      owner.addDependent(n);
      if (!found) {
        this.attemptToDelete.add(owner);
      } else if (!potentiallyInvalid) {
        const ownerNamespaced = owner.identity.namespace !== '';
        if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
          if (!owner.virtual) this.reportInvalidNamespaceOwnerRef(n, owner.identity);
          potentiallyInvalid = true;
        } else if (!referenceMatches(ref, owner.identity)) {
          potentiallyInvalid = true;
        } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && owner.virtual) {
          // Issue 98040: maybe a namespaced kind referenced from a cluster-scoped child.
          potentiallyInvalid = true;
        }
      }
    }
    if (potentiallyInvalid) this.attemptToDelete.add(n);
  }

  private removeDependentFromOwners(n: GraphNode, owners: OwnerReference[]): void {
    for (const ref of owners) this.uidToNode.get(ref.uid)?.deleteDependent(n);
  }

  /** R24. */
  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      const node = this.uidToNode.get(ref.uid);
      if (node) this.attemptToDelete.add(node);
    }
    for (const c of changed) {
      if (c.oldRef.blockOwnerDeletion === true && c.newRef.blockOwnerDeletion !== true) {
        const node = this.uidToNode.get(c.newRef.uid);
        if (node) this.attemptToDelete.add(node);
      }
    }
  }

  /** R25. */
  private processTransitions(oldObj: KubeObject | undefined, newObj: KubeObject, n: GraphNode): void {
    if (deletionStartsWithFinalizer(oldObj, newObj, ORPHAN_FINALIZER)) {
      this.attemptToOrphan.add(n);
      return;
    }
    if (deletionStartsWithFinalizer(oldObj, newObj, FOREGROUND_FINALIZER)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.attemptToDelete.add(dep);
      this.attemptToDelete.add(n);
    }
  }

  private reportInvalidNamespaceOwnerRef(dependent: GraphNode, owner: ObjectIdentity): void {
    const ref = dependent.owners.find((r) => r.uid === owner.uid);
    const coords = ref ? `${ref.apiVersion}/${ref.kind}, name ${ref.name}, uid ${ref.uid}` : `uid ${owner.uid}`;
    this.timeline.note(
      `Warning OwnerRefInvalidNamespace on ${describe(dependent.identity)}: ownerRef [${coords}] does not exist in namespace "${dependent.identity.namespace}"`,
    );
  }

  // ---------------------------------------------------------------- attemptToDelete (Part D)

  /** R29. */
  private attemptToDeleteWorker(n: GraphNode): void {
    this.parked.delete(n);
    if (n.virtual) {
      const fromGraph = this.uidToNode.get(n.identity.uid);
      if (!fromGraph || !fromGraph.virtual) return;
    }
    // Current master refreshes the apiVersion/kind of stale queued copies from the graph (R23.1).
    const current = this.uidToNode.get(n.identity.uid);
    if (current && current !== n && !current.virtual && !n.virtual) n = current;
    let err: MarkerError | undefined;
    try {
      this.attemptToDeleteItem(n);
    } catch (e) {
      if (!(e instanceof MarkerError)) throw e;
      err = e;
    }
    if (err?.kind !== 'conflict') this.conflicted.delete(n);
    if (err?.kind === 'enqueuedVirtualDeleteEvent') return;
    if (err?.kind === 'namespacedOwnerOfClusterScopedObject') {
      this.invalidScope.add(n.identity.uid);
      this.lastError.set(n.identity.uid, err.message);
      return;
    }
    if (err?.kind === 'conflict') {
      this.lastError.set(n.identity.uid, err.message);
      if (this.conflicted.has(n)) {
        this.delayed.push(n); // not our own patch: wait for the backoff
      } else {
        this.conflicted.add(n);
        this.requeued.push(n);
      }
      return;
    }
    if (err) {
      this.lastError.set(n.identity.uid, err.message);
      this.parked.set(n, this.storeWrites());
      return;
    }
    this.lastError.delete(n.identity.uid);
    if (n.virtual) this.parked.set(n, this.storeWrites()); // poll until observed
  }

  /** R30–R35. Throws MarkerError for the outcomes the worker maps (R29). */
  private attemptToDeleteItem(item: GraphNode): void {
    if (item.beingDeleted && !item.deletingDependents) return; // R30
    const latest = this.getObject(item.identity); // R31
    if (!latest || latest.uid !== item.identity.uid) {
      this.enqueueVirtualDeleteEvent(item.identity);
      throw new MarkerError('enqueuedVirtualDeleteEvent', 'verified absent');
    }
    if (item.deletingDependents) {
      this.processDeletingDependentsItem(item); // R32
      return;
    }
    const ownerReferences = latest.ownerReferences;
    if (ownerReferences.length === 0) return; // R33
    const classified = { resourceVersion: this.api.resourceVersion(latest.uid), ownerReferences };
    const { solid, dangling, waiting } = this.classifyReferences(item, ownerReferences); // R34
    if (solid.length === 0 && waiting.some((r) => r.blockOwnerDeletion !== true) && item.blockingDependents().length > 0) {
      // R51: the waiting owner does not wait for this item, so whether the GC reaches it before the owner
      // is gone decides between a Foreground (R35 ii) and a Background (R35 iii) delete.
      const owner = waiting.find((r) => r.blockOwnerDeletion !== true)!;
      this.timeline.note(
        `Timing-dependent: ${describe(item.identity)} does not block its owner ${owner.kind} ${owner.name} but has blocking dependents of its own; ` +
          'in a real cluster it is deleted in the foreground or in the background depending on which worker gets there first.',
      );
    }
    for (const r of waiting) {
      // R51: an owner that stays once it drops foregroundDeletion is solid to a worker that gets here after it:
      // then nothing changes for this item.
      const owner = r.blockOwnerDeletion === true || r.uid === item.identity.uid ? undefined : this.current(r.uid);
      if (!owner || !staysAfterForeground(owner) || this.racesNoted.has(owner.uid)) continue;
      this.racesNoted.add(owner.uid);
      this.timeline.note(
        `Timing-dependent: ${describe(item.identity)} does not block its owner ${r.kind} ${r.name}, which stays once it stops waiting (other finalizers, a Namespace's spec.finalizers, or a graceful Pod deletion); ` +
          'in a real cluster the GC may reach it before (as here) or after that, and then keeps its reference and the object unchanged.',
      );
    }
    if (solid.length > 0) {
      // R35 (i)
      if (dangling.length === 0 && waiting.length === 0) return;
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      const kept = latest.ownerReferences.filter((r) => !drop.has(r.uid));
      const why = [
        ...dangling.map((r) => `${r.kind} ${r.name} (uid ${r.uid}) is absent`),
        ...waiting.map((r) => `${r.kind} ${r.name} is waiting for its dependents (foreground)`),
      ];
      this.patchOwnerReferences(latest, kept, `removed references: ${why.join('; ')}; a solid owner remains`);
      for (const uid of drop) this.timeline.lostReferences.push({ uid: latest.uid, ownerUID: uid });
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      // R35 (ii): the cycle breaker, with its false positives (R49).
      for (const dep of item.dependents) {
        if (dep.deletingDependents) {
          this.unblockOwnerReferences(latest, dep);
          break;
        }
      }
      this.deleteObject(
        item.identity,
        'Foreground',
        'an owner is waiting for its dependents (foreground) and this object has dependents of its own',
        classified,
      );
      return;
    }
    // R35 (iii)
    const policy = latest.finalizers.includes(ORPHAN_FINALIZER)
      ? 'Orphan'
      : latest.finalizers.includes(FOREGROUND_FINALIZER)
        ? 'Foreground'
        : 'Background';
    const why = () => {
      const reasons = [
        ...dangling.map((r) => `owner ${r.kind} ${r.name} (uid ${r.uid}) is absent`),
        ...waiting.map((r) => `owner ${r.kind} ${r.name} is being deleted in the foreground`),
      ];
      return `no solid owner left: ${reasons.join('; ')}`;
    };
    this.deleteObject(item.identity, policy, why, classified);
  }

  /** R34: the first error aborts the classification of the whole item. */
  private classifyReferences(item: GraphNode, refs: OwnerReference[]): Classification {
    const out: Classification = { solid: [], dangling: [], waiting: [] };
    for (const ref of refs) {
      const { dangling, owner } = this.isDangling(ref, item);
      if (dangling) out.dangling.push(ref);
      else if (owner!.deletionTimestamp !== undefined && owner!.finalizers.includes(FOREGROUND_FINALIZER)) out.waiting.push(ref);
      else out.solid.push(ref);
    }
    return out;
  }

  private isDangling(ref: OwnerReference, item: GraphNode): { dangling: boolean; owner?: KubeObject } {
    const coords = AbsentOwnerCache.coordinates(ref);
    if (this.absentOwnerCache.hasKey(coords)) return DANGLING;
    if (this.absentOwnerCache.hasKey(coords + item.identity.namespace)) return DANGLING;
    const info = this.api.restMapping(ref.apiVersion, ref.kind);
    if (!info) {
      throw new MarkerError(
        'restMapping',
        `unable to map ${ref.apiVersion}/${ref.kind} to a resource: no kind "${ref.kind}" is registered for version "${ref.apiVersion}"`,
      );
    }
    const cacheKey = info.namespaced ? coords + item.identity.namespace : coords;
    if (item.identity.namespace === '' && info.namespaced) {
      throw new MarkerError(
        'namespacedOwnerOfClusterScopedObject',
        `cluster-scoped object cannot have a namespaced owner (${ref.kind} ${ref.name})`,
      );
    }
    const got = this.api.get(ref.apiVersion, ref.kind, item.identity.namespace, ref.name, ref.uid);
    if (got.status === 404 || (got.status === 200 && got.object.uid !== ref.uid)) {
      this.absentOwnerCache.addKey(cacheKey);
      return DANGLING;
    }
    if (got.status !== 200) throw new MarkerError('restMapping', `unable to map ${ref.apiVersion}/${ref.kind}`);
    return { dangling: false, owner: got.object };
  }

  /** R31's GET: by the node's identity; a namespaced kind without a namespace is the R45 error. */
  private getObject(id: ObjectIdentity): KubeObject | undefined {
    const info = this.api.restMapping(id.apiVersion, id.kind);
    if (!info) throw new MarkerError('restMapping', `unable to map ${id.apiVersion}/${id.kind} to a resource`);
    if (info.namespaced && id.namespace === '') {
      throw new MarkerError(
        'namespacedOwnerOfClusterScopedObject',
        `${id.kind} is namespaced but ${id.name} was referenced without a namespace`,
      );
    }
    const got = this.api.get(id.apiVersion, id.kind, id.namespace, id.name, id.uid);
    return got.status === 200 ? got.object : undefined;
  }

  /** R38. */
  private processDeletingDependentsItem(item: GraphNode): void {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      this.noteNonBlockingRace(item);
      this.removeFinalizer(item, FOREGROUND_FINALIZER, 'no blocking dependent is left');
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep);
  }

  /**
   * R51: the owner's worker drops foregroundDeletion without waiting for its non-blocking dependents, and the real
   * GC's workers race it. A dependent reached first is handled as one of an owner waiting for its dependents
   * (reference removed, or deleted, Foreground if it has dependents); reached after, it finds the owner gone
   * (dangling) or staying (solid: nothing changes). Said where the two differ.
   */
  private noteNonBlockingRace(owner: GraphNode): void {
    const obj = this.getObject(owner.identity);
    if (!obj || obj.uid !== owner.identity.uid || this.racesNoted.has(obj.uid)) return;
    const stays = staysAfterForeground(obj);
    const racing = [...owner.dependents].filter(
      (dep) => dep.identity.uid !== owner.identity.uid && (stays || (dep.dependents.size > 0 && dep.owners.length === 1)),
    );
    if (racing.length === 0) return;
    this.racesNoted.add(obj.uid);
    const names =
      racing
        .slice(0, 3)
        .map((d) => describe(d.identity))
        .join(', ') + (racing.length > 3 ? ` and ${racing.length - 3} more` : '');
    this.timeline.note(
      `Timing-dependent: ${describe(owner.identity)} stops waiting without waiting for ${names}, which ${racing.length === 1 ? 'does' : 'do'} not block it; ` +
        `in a real cluster the GC may reach ${racing.length === 1 ? 'it' : 'them'} before or after the owner drops foregroundDeletion, and the owner then ` +
        `${stays ? 'stays (other finalizers, or a graceful Pod deletion): a reference kept instead of removed, or an object kept instead of deleted' : 'is gone (deleted in the background instead of the foreground)'}.`,
    );
  }

  /** R39. */
  private removeFinalizer(item: GraphNode, finalizer: string, why: string): void {
    const obj = this.getObject(item.identity);
    if (!obj || obj.uid !== item.identity.uid) return;
    this.api.removeFinalizer(ACTOR, obj.uid, finalizer, why);
  }

  /**
   * R36: always an explicit policy, with the uid and the resourceVersion that was classified as
   * preconditions. On a conflict with unchanged owners it retries once with the uid alone; if the owners
   * changed (e.g. by the GC's own unblock patch, R35 ii), the conflict goes back to the worker.
   */
  private deleteObject(
    id: ObjectIdentity,
    policy: 'Orphan' | 'Foreground' | 'Background',
    why: string | (() => string),
    classified: { resourceVersion: number | undefined; ownerReferences: OwnerReference[] },
  ): void {
    const request = { apiVersion: id.apiVersion, kind: id.kind, namespace: id.namespace, name: id.name, propagationPolicy: policy };
    let outcome = this.api.delete(
      ACTOR,
      {
        ...request,
        preconditions: {
          uid: id.uid,
          resourceVersion: classified.resourceVersion === undefined ? undefined : String(classified.resourceVersion),
        },
      },
      why,
    );
    if (outcome.status === 409) {
      const live = this.api.get(id.apiVersion, id.kind, id.namespace, id.name, id.uid);
      if (live.status === 200 && live.object.uid === id.uid && sameReferences(live.object.ownerReferences, classified.ownerReferences)) {
        outcome = this.api.delete(ACTOR, { ...request, preconditions: { uid: id.uid } }, why);
      } else if (live.status === 200) {
        this.timeline.note(
          `Timing-dependent: the GC's ${policy} DELETE of ${describe(id)} conflicted with its own change of its ownerReferences; ` +
            "it is retried at once and shown deleted while its owner still waits, but in a real cluster the owner's worker races that retry, " +
            'and when the owner goes first the object is deleted in the background instead.',
        );
        throw new MarkerError('conflict', `the DELETE of ${describe(id)} conflicted: its ownerReferences changed since it was classified`);
      }
    }
    if (outcome.status === 404) this.enqueueVirtualDeleteEvent(id);
  }

  /** R35 (ii)'s unblock patch: strategic merge flips the blocking references; JSON merge (custom resources) sets every one. */
  private unblockOwnerReferences(latest: KubeObject, deletingDependent: GraphNode): void {
    const info = this.kinds.lookup(groupOf(latest.apiVersion), latest.kind);
    const jsonMerge = !info || info.origin !== 'builtin';
    const refs = latest.ownerReferences.map((r) => (jsonMerge || r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
    this.patchOwnerReferences(
      latest,
      refs,
      `blockOwnerDeletion set to false (cycle breaker: dependent ${describe(deletingDependent.identity)} is itself deleting its dependents)`,
    );
  }

  private patchOwnerReferences(latest: KubeObject, refs: OwnerReference[], detail: string): void {
    this.api.patchOwnerReferences(ACTOR, latest.uid, refs, detail);
  }

  private enqueueVirtualDeleteEvent(identity: ObjectIdentity): void {
    this.graphChanges.push({ virtual: true, type: 'delete', identity });
  }

  // ---------------------------------------------------------------- attemptToOrphan (R40)

  private attemptToOrphanWorker(owner: GraphNode): void {
    const dependents = [...owner.dependents];
    for (const dep of dependents) {
      const obj = this.api.get(dep.identity.apiVersion, dep.identity.kind, dep.identity.namespace, dep.identity.name, dep.identity.uid);
      if (obj.status !== 200 || obj.object.uid !== dep.identity.uid) continue; // 404 ignored
      const kept = obj.object.ownerReferences.filter((r) => r.uid !== owner.identity.uid);
      if (kept.length === obj.object.ownerReferences.length) continue;
      this.patchOwnerReferences(obj.object, kept, `orphaned: reference to ${describe(owner.identity)} removed (orphan finalizer)`);
      this.timeline.lostReferences.push({ uid: obj.object.uid, ownerUID: owner.identity.uid });
    }
    try {
      this.removeFinalizer(owner, ORPHAN_FINALIZER, 'its dependents have been orphaned');
    } catch (e) {
      if (!(e instanceof MarkerError)) throw e;
      this.lastError.set(owner.identity.uid, e.message);
    }
  }
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function sameId(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion && a.namespace === b.namespace;
}

function deletionStartsWithFinalizer(oldObj: KubeObject | undefined, newObj: KubeObject, finalizer: string): boolean {
  if (newObj.deletionTimestamp === undefined || !newObj.finalizers.includes(finalizer)) return false;
  if (!oldObj) return true;
  return oldObj.deletionTimestamp === undefined || !oldObj.finalizers.includes(finalizer);
}

const NO_DIFF = {
  added: [] as OwnerReference[],
  removed: [] as OwnerReference[],
  changed: [] as { oldRef: OwnerReference; newRef: OwnerReference }[],
};

function referencesDiffs(old: OwnerReference[], now: OwnerReference[]) {
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const nowByUid = new Map(now.map((r) => [r.uid, r]));
  const added = now.filter((r) => !oldByUid.has(r.uid));
  const removed = old.filter((r) => !nowByUid.has(r.uid));
  const changed: { oldRef: OwnerReference; newRef: OwnerReference }[] = [];
  for (const r of now) {
    const o = oldByUid.get(r.uid);
    if (o && !sameReference(o, r)) changed.push({ oldRef: o, newRef: r });
  }
  return { added, removed, changed };
}

function sameReferences(a: OwnerReference[], b: OwnerReference[]): boolean {
  return a.length === b.length && a.every((r, i) => sameReference(r, b[i]));
}

function sameReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

/** Dependents whose reference to the uid matches the identity, and those that disagree (R20, R27). */
function partitionDependents(dependents: GraphNode[], owner: ObjectIdentity): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  const ownerNamespaced = owner.namespace !== '';
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (ownerNamespaced && owner.namespace !== dep.identity.namespace) {
      mismatch = true;
    } else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (referenceMatches(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/** Whether a terminating object outlives its foregroundDeletion: other finalizers, or a grace period a kubelet must end. */
function staysAfterForeground(o: KubeObject): boolean {
  const namespaceWaits = o.apiVersion === 'v1' && o.kind === 'Namespace' && (o.facts.namespaceFinalizers ?? []).length > 0; // R11
  return o.finalizers.some((f) => f !== FOREGROUND_FINALIZER) || (o.deletionGracePeriodSeconds ?? 0) > 0 || namespaceWaits;
}

/** R27: another identity the disagreeing dependents use for this uid. */
function getAlternateOwnerIdentity(deps: GraphNode[], absent: ObjectIdentity): ObjectIdentity | undefined {
  const clusterScoped = absent.namespace === '';
  const key = (r: ObjectIdentity) => `${r.apiVersion}\u0000${r.kind}\u0000${r.name}\u0000${r.uid}\u0000${r.namespace}`;
  const seen = new Set<string>([key(absent)]);
  let first: ObjectIdentity | undefined;
  let firstFollowing: ObjectIdentity | undefined;
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (referenceMatches(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace)) continue;
      const alt: ObjectIdentity = {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        name: ref.name,
        uid: ref.uid,
        namespace: dep.identity.namespace,
      };
      if (clusterScoped && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind) alt.namespace = '';
      if (seen.has(key(alt))) continue;
      seen.add(key(alt));
      if (!first || referenceLessThan(alt, first)) first = alt;
      if (referenceLessThan(absent, alt) && (!firstFollowing || referenceLessThan(alt, firstFollowing))) firstFollowing = alt;
    }
  }
  return firstFollowing ?? first;
}

function referenceLessThan(a: ObjectIdentity, b: ObjectIdentity): boolean {
  if (a.kind !== b.kind) return a.kind < b.kind;
  if (a.apiVersion !== b.apiVersion) return a.apiVersion < b.apiVersion;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace;
  if (a.name !== b.name) return a.name < b.name;
  return a.uid < b.uid;
}

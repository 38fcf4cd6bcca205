// The live cluster as an Inventory: discovery, one reflector per resource (metadata only, as the garbage
// collector's own informers). During the initial sync each resource's objects go into the inventory when its LIST is
// complete, with one change notification once every first LIST is over; only then do the watches start (each from
// its own LIST's resourceVersion, so nothing is missed), and every event is applied incrementally from then on.
// Discovery is refreshed periodically (CRDs come and go). Resources the user may not list, or that fail, are reported
// in the status and in `incompleteNotes()`; the rest keeps working. Which cluster it is (clusterIdentity.ts) is
// read at connect, after failures and periodically: another cluster behind the same URL, a resourceVersion the
// server never had, or every watch silent too long lists everything again. Read-only: see apiClient.ts.

import { Inventory } from '../../engine/inventory';
import { namespacesNeedingPodSpecs } from '../../engine/simulation/podSpecScope';
import { KindRegistry } from '../../engine/kinds/kindRegistry';
import type { KubeObject, ObjectFacts } from '../../engine/model';
import { ACCEPT_OBJECTS, ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ApiClient, type ApiError } from './apiClient';
import { discover, forEachLimited, type DiscoveredResource, type DiscoveryFailure } from './discovery';
import { lastingPodFacts, podReadNote, readPods } from './podSpecs';
import { BLOCKER_RESOURCES, readBlockers, type BlockerResources } from './blockerSpecs';

import { Reflector, type ReflectorState } from './reflector';
import { IdentityMonitor, type ClusterIdentity } from './clusterIdentity';
import type { LiveClusterOptions, LiveProblem, LiveStatus, SyncState } from './liveClusterTypes';
import { MalformedItems } from './malformedItems';
import { isMalformed, readLiveObject, toKubeObject, type ItemOrigin, type MalformedItem } from './toKubeObject';
import {
  anyCustomFinalizer,
  isCustomFinalizer,
  readWorkloads,
  terminatingReachesCustomFinalizer,
  WORKLOAD_RESOURCES,
  workloadReadNote,
} from './workloadSpecs';

/** Besides BLOCKER_RESOURCES, what a blocker read looks at: the Services they name and their endpoints. */
const BLOCKER_INPUTS: ReadonlySet<string> = new Set(['/services', 'discovery.k8s.io/endpointslices', '/endpoints']);

/**
 * Kinds listed in full rather than metadata only: the built-in controllers the simulation runs need their
 * spec or status (namespace finalizers, CRD names and scope, volume bindings), and a cluster has few of them
 * compared with Pods, ReplicaSets or Secrets. Workloads (WORKLOAD_RESOURCES) are listed metadata-only and their
 * images read on demand (workloadSpecs.ts), except by a one-shot reading (the CLI), which lists them in full: all
 * its commands but `graph` attribute custom finalizers.
 */
const FULL_OBJECT_RESOURCES = new Set([
  '/namespaces',
  '/persistentvolumes',
  '/persistentvolumeclaims',
  'apiextensions.k8s.io/customresourcedefinitions',
]);

/** At most this many workloads whose spec changed are read again by name; more, and their resource is listed again. */
const WORKLOAD_REREAD_BY_NAME = 20;

export type { LiveClusterOptions, LiveProblem, LiveStatus, SyncState } from './liveClusterTypes';

const resourceKey = (r: DiscoveredResource) => `${r.group}/${r.resource}`;
const CRD_RESOURCE = 'apiextensions.k8s.io/customresourcedefinitions';
/** How long CRD events and 404s are gathered before one rediscovery. */
const REDISCOVER_DELAY_MS = 1000;
const resourceName = (r: DiscoveredResource) => (r.group ? `${r.resource}.${r.group}` : r.resource);

interface Running {
  reflector: Reflector<KubeObject>;
  /** uid → object, what this reflector contributed to the inventory. */
  objects: Map<string, KubeObject>;
  abort: AbortController;
  done: Promise<void>;
  /** A workload resource listed metadata-only: its objects' images are read on demand. */
  workloads: boolean;
  /** Items left out because they are malformed: the last LIST's, and the watch's since. */
  malformed: MalformedItems;
  /** Those of the LIST in progress: they replace `malformed` when it completes. */
  listing: MalformedItems;
}

export class LiveCluster {
  readonly inventory: Inventory;
  readonly client: ApiClient;
  private readonly running = new Map<string, Running>();
  private discoveryFailures: DiscoveryFailure[] = [];
  private readonly abort = new AbortController();
  private rediscoverTimer: NodeJS.Timeout | undefined;
  private rediscoverPending: NodeJS.Timeout | undefined;
  /** The discovery in progress (or the last one): rediscoveries queue behind it. */
  private syncing: Promise<void> = Promise.resolve();
  /** What learnKind registered per group/kind, so a rediscovery registers only what changed. */
  private readonly learned = new Map<string, string>();
  /** uid → the facts of a Pod read in full (readPodSpecs) that no update can change; see podSpecs.ts. */
  private readonly podFacts = new Map<string, ObjectFacts>();
  /** uid → a workload's facts read in full (its images), valid while its metadata.generation is this one. */
  private readonly workloadFacts = new Map<string, { generation: number; facts: ObjectFacts }>();
  /** Set once a custom finalizer had to be attributed: from then on every workload's images are kept known. */
  private workloadsWanted = false;
  /** Workloads (uid) whose images are unknown while wanted: read again soon. */
  private readonly staleWorkloads = new Set<string>();
  private workloadReads: Promise<void> = Promise.resolve();
  private workloadRereadScheduled = false;
  /** Reads of the Pods beside what is terminating (readTerminatingPods), one after another. */
  private podReads: Promise<void> = Promise.resolve();
  private podReadScheduled = false;
  /** Why workload specs could not be read, while that lasts. */
  private workloadNotes: string[] = [];
  /** uid → the facts of an APIService, webhook configuration or EndpointSlice read in full (blockerSpecs.ts). */
  private readonly blockerFacts = new Map<string, ObjectFacts>();
  private blockerReads: Promise<void> = Promise.resolve();
  private blockerReadScheduled = false;
  /** Counts the events of the resources a blocker read covers (and objects starting to terminate). */
  private blockerInputs = 0;
  /** `blockerInputs` when the last blocker read began: a simulation reads again only after one of those changed. */
  private blockersReadAt = -1;
  /** Why the blockers could not be read, while that lasts. */
  private blockerNotes: string[] = [];
  /** The initial sync: no change notification and no watch until every first LIST is over. */
  private initialSync = true;
  /** Opened when the initial sync is over: the watches start then. */
  private readonly watchGate: Promise<void>;
  private openWatchGate!: () => void;
  private state: SyncState = 'connecting';
  private fatal: string | undefined;
  private lastStatusJson = '';
  /** Bumped on every change to the inventory. */
  version = 0;
  /** Which cluster this is, and the relists (a watching connection only). */
  private readonly monitor: IdentityMonitor | undefined;

  constructor(private readonly opts: LiveClusterOptions) {
    this.client = new ApiClient(opts.target, opts.limits);
    this.inventory = new Inventory(new KindRegistry(), { defaultNamespace: opts.target.namespace });
    this.watchGate = new Promise((resolve) => (this.openWatchGate = resolve));
    if (opts.watch !== false) {
      this.monitor = new IdentityMonitor({
        client: this.client,
        signal: this.abort.signal,
        checkEveryMs: opts.identityCheckMs,
        silentAfterMs: opts.silentWatchesRelistMs,
        watches: () => this.watchesHeard(),
        relist: (rediscover) => this.relistAll(rediscover),
        changed: () => this.emitStatus(),
      });
    }
  }

  /** Which cluster this connection reaches, as last read (undefined for a one-shot reading). */
  get identity(): ClusterIdentity | undefined {
    return this.monitor?.identity;
  }

  /** The kube-system uid of the cluster the live view was listed from (undefined: unknown). */
  get viewClusterUid(): string | undefined {
    return this.monitor?.viewUid;
  }

  /** Reads which cluster the connection reaches now (and lists everything again if it is another one). */
  async checkIdentity(): Promise<ClusterIdentity> {
    return this.monitor ? this.monitor.check(true) : {};
  }

  /** The resources holding these objects list again: a write was refused because one changed, so the view catches up. */
  relistHolding(uids: readonly string[]): void {
    if (this.abort.signal.aborted) return;
    for (const run of this.running.values()) if (uids.some((uid) => run.objects.has(uid))) run.reflector.relist();
  }

  /** Every reflector lists again from scratch (its LIST replaces what it held); `rediscover`: the API too. */
  private relistAll(rediscover: boolean): void {
    if (this.abort.signal.aborted) return;
    if (rediscover) {
      // Another cluster: none of the old one's objects exists there, nor what was read in full of them. The view holds
      // only what the new LISTs (and watches) bring from now on.
      for (const run of this.running.values()) {
        for (const uid of [...run.objects.keys()]) this.drop(run, uid);
        run.malformed = new MalformedItems();
      }
      this.podFacts.clear();
      this.workloadFacts.clear();
      this.blockerFacts.clear();
      this.staleWorkloads.clear();
      this.changed();
      void this.resync();
    }
    for (const run of this.running.values()) run.reflector.relist();
    this.emitStatus();
  }

  /** How many reflectors watch, and when the most recent of them last heard from the server. */
  private watchesHeard(): { watching: number; lastHeardAt: number } {
    let watching = 0;
    let lastHeardAt = 0;
    for (const run of this.running.values()) {
      if (run.reflector.state !== 'watching') continue;
      watching++;
      lastHeardAt = Math.max(lastHeardAt, run.reflector.lastHeardAt);
    }
    return { watching, lastHeardAt };
  }

  /** Discovers and lists everything; resolves when every first LIST has completed or failed. */
  async start(): Promise<void> {
    this.emitStatus();
    try {
      const first = this.syncResources();
      this.syncing = first.catch(() => undefined);
      await Promise.all([first, this.monitor?.start()]);
      this.emitStatus(); // with the identity, read beside the LISTs
    } catch (e) {
      this.fatal = e instanceof Error ? e.message : String(e);
      this.state = 'disconnected';
      this.emitStatus();
      throw e;
    }
    if (this.opts.rediscoverMs !== 0 && this.opts.watch !== false) {
      const every = this.opts.rediscoverMs ?? 5 * 60_000;
      this.rediscoverTimer = setInterval(() => void this.resync(), every);
      this.rediscoverTimer.unref?.();
    }
  }

  /** Stops every watch and request. The inventory keeps the last state. */
  async stop(): Promise<void> {
    this.monitor?.stop();
    if (this.rediscoverTimer) clearInterval(this.rediscoverTimer);
    if (this.rediscoverPending) clearTimeout(this.rediscoverPending);
    this.abort.abort();
    this.openWatchGate();
    for (const r of this.running.values()) r.abort.abort();
    this.client.close();
    await Promise.all([...this.running.values()].map((r) => r.done.catch(() => undefined)));
    this.state = 'disconnected';
    this.emitStatus();
  }

  status(): LiveStatus {
    const reflectors = [...this.running.values()].map((r) => r.reflector);
    const problems: LiveProblem[] = this.discoveryFailures.map((f) => ({
      kind: 'discovery',
      resource: f.groupVersion,
      message: f.message,
    }));
    for (const r of reflectors) {
      // A resource is a problem while its last LIST failed, or while its watch keeps failing.
      if (r.lastError && (!r.synced || r.state === 'backoff' || r.state === 'forbidden')) {
        const forbidden = r.lastError.status === 403 || r.lastError.status === 401;
        problems.push({
          kind: forbidden ? 'forbidden' : 'failing',
          resource: resourceName(r.resource),
          namespace: r.namespace,
          message: r.lastError.message,
        });
      }
    }
    const listed = reflectors.filter((r) => r.synced).length;
    const watching = reflectors.filter((r) => r.state === 'watching').length;
    let state = this.state;
    if (state === 'listing' || state === 'watching') {
      // A reflector waiting for the initial sync to end before it watches is listed (synced), not listing.
      state = reflectors.some((r) => r.state === 'pending' || (r.state === 'listing' && r.lists <= 1 && !r.synced))
        ? 'listing'
        : problems.length
          ? 'degraded'
          : 'watching';
    }
    return {
      context: this.opts.target.context,
      server: this.opts.target.server,
      namespaces: this.opts.namespaces ?? 'all',
      state,
      resources: { total: reflectors.length, listed, watching },
      objects: this.inventory.objects.size,
      problems,
      requests: this.client.stats.requests,
      bytes: this.client.stats.bytes,
      version: this.version,
      ...(this.fatal ? { error: this.fatal } : {}),
      ...(this.monitor ? { identity: this.monitor.identity, relists: this.monitor.relists } : {}),
      ...(this.monitor?.lastRelist ? { lastRelist: this.monitor.lastRelist } : {}),
    };
  }

  /** The kubeconfig context this connection reads. */
  get context(): string {
    return this.opts.target.context;
  }

  /**
   * A snapshot of what is known completely: `covers(group, kind, namespace)` is true when that kind is listed
   * there (cluster-wide, or in that namespace) and its last LIST succeeded. Absence proves nothing elsewhere.
   */
  coverage(): (group: string, kind: string, namespace: string) => boolean {
    const listed = new Map<string, Set<string | undefined>>();
    for (const r of this.running.values()) {
      if (!r.reflector.synced) continue;
      const key = `${r.reflector.resource.group}/${r.reflector.resource.kind}`;
      let scopes = listed.get(key);
      if (!scopes) listed.set(key, (scopes = new Set()));
      scopes.add(r.reflector.namespace);
    }
    return (group, kind, namespace) => {
      const scopes = listed.get(`${group}/${kind}`);
      return scopes !== undefined && (scopes.has(undefined) || scopes.has(namespace));
    };
  }

  /**
   * Sentences for every result the missing resources may affect ("this preview is incomplete: …"), and the workloads
   * whose spec the last read could not get (a custom finalizer's controller is then guessed without their images).
   */
  incompleteNotes(): string[] {
    return [
      ...this.status().problems.map((p) => {
        if (p.kind === 'discovery') return `this preview is incomplete: the API group ${p.resource} could not be discovered (${p.message})`;
        const where = p.namespace ? ` in ${p.namespace}` : '';
        return p.kind === 'forbidden'
          ? `this preview is incomplete: cannot list ${p.resource}${where} (${p.message})`
          : `this preview is incomplete: listing ${p.resource}${where} fails (${p.message})`;
      }),
      ...this.malformedNotes(),
      ...this.workloadNotes,
      ...this.blockerNotes,
    ];
  }

  /** "3 configmaps in team-a have malformed metadata and were left out (the first, "x": why)", per resource and namespace. */
  private malformedNotes(): string[] {
    return [...this.running.values()].flatMap((run) => (run.malformed.size ? run.malformed.notes(run.reflector.resource) : []));
  }

  /** Runs discovery and starts or stops reflectors to match it. */
  private async syncResources(): Promise<void> {
    const found = await discover(this.client, this.abort.signal);
    this.discoveryFailures = found.failures;
    for (const r of found.resources) this.learnKind(r, found.servedVersions.get(r.group) ?? [r.version]);
    const wanted = new Map<string, DiscoveredResource>();
    for (const r of found.resources) {
      const scopes = r.namespaced && this.opts.namespaces ? this.opts.namespaces : [undefined];
      for (const ns of scopes) wanted.set(`${resourceKey(r)}@${ns ?? ''}@${r.version}`, r);
    }
    // Resources gone from discovery (a CRD deleted): stop them and drop what they contributed.
    for (const [key, run] of this.running) {
      if (wanted.has(key)) continue;
      run.abort.abort();
      this.running.delete(key);
      for (const uid of run.objects.keys()) this.inventory.remove(uid);
      if (run.objects.size) this.changed();
    }
    if (this.state === 'connecting') this.state = 'listing';
    const added: Running[] = [];
    for (const [key, r] of wanted) {
      if (this.running.has(key)) continue;
      const ns = key.split('@')[1] || undefined;
      const run = this.startReflector(key, r, r.namespaced ? ns : undefined);
      added.push(run);
    }
    await this.listAll(added);
    if (this.initialSync) await this.endInitialSync();
    this.state = this.opts.watch === false ? 'listed' : 'watching';
    this.emitStatus();
  }

  /**
   * Every first LIST is over (complete or failed): one change notification for the whole graph, workload images read
   * if the terminating objects need them, and the watches start.
   */
  private async endInitialSync(): Promise<void> {
    this.initialSync = false;
    this.changed();
    if (this.hasWorkloadRuns() && terminatingReachesCustomFinalizer(this.inventory)) await this.ensureWorkloadSpecs(this.abort.signal);
    // A one-shot reading reads them when asked (readPodSpecs, before a simulation or the stuck list).
    if (this.opts.watch !== false && this.inventory.terminating.size) await this.readBlockerSpecs(this.abort.signal);
    if (this.opts.watch !== false) await this.readTerminatingPods();
    this.openWatchGate();
  }

  /** Starts the new reflectors' LISTs, at most `concurrency` at a time; resolves when all first LISTs are over. */
  private async listAll(runs: Running[]): Promise<void> {
    const limit = this.opts.concurrency ?? 6;
    let next = 0;
    const worker = async () => {
      while (next < runs.length) {
        await this.begin(runs[next++]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, runs.length) }, worker));
  }

  private startReflector(key: string, resource: DiscoveredResource, namespace: string | undefined): Running {
    const workloads = WORKLOAD_RESOURCES.has(resourceKey(resource)) && this.opts.watch !== false;
    const metadataOnly = !FULL_OBJECT_RESOURCES.has(resourceKey(resource)) && (workloads || !WORKLOAD_RESOURCES.has(resourceKey(resource)));
    const objects = new Map<string, KubeObject>();
    const abort = new AbortController();
    const context = this.opts.target.context;
    const isPods = resource.group === '' && resource.resource === 'pods';
    const blockerInput = BLOCKER_INPUTS.has(resourceKey(resource)) || BLOCKER_RESOURCES.has(resourceKey(resource));
    const read = (item: unknown, origin: ItemOrigin): KubeObject | MalformedItem => {
      if (blockerInput) this.blockerInputs++;
      const o = readLiveObject(item, resource, metadataOnly, context, origin);
      if (isMalformed(o) || !o.facts.specUnread) return o;
      const blocker = this.blockerFacts.get(o.uid);
      if (blocker) {
        // Read in full before: keep what it said until the read this change calls for.
        this.scheduleBlockerRead();
        return { ...o, facts: blocker };
      }
      if (isPods) {
        // A metadata-only copy of a Pod read in full keeps what cannot have changed; the rest is unknown again.
        const kept = this.podFacts.get(o.uid);
        return kept ? { ...o, facts: { ...o.facts, ...kept } } : o;
      }
      if (workloads) {
        // A workload whose spec is unchanged since it was read in full (same generation) has the facts of that read.
        const known = this.workloadFacts.get(o.uid);
        return known && o.generation === known.generation ? { ...o, facts: known.facts } : o;
      }
      return o;
    };
    const reflector = new Reflector<KubeObject>(
      this.client,
      resource,
      namespace,
      {
        listStart: () => {
          run.listing = new MalformedItems();
        },
        convert: (item) => {
          const o = read(item, 'list');
          if (!isMalformed(o)) return o;
          run.listing.add(o);
          return undefined;
        },
        replace: (listed) => {
          run.malformed = run.listing;
          run.listing = new MalformedItems();
          // During the initial sync a LIST goes into the inventory as soon as it is complete (this work then overlaps
          // the LISTs still in flight), but nothing is told until every first LIST is over.
          const seen = new Set<string>();
          for (const o of listed) {
            seen.add(o.uid);
            this.put(run, o);
          }
          for (const uid of [...objects.keys()]) {
            if (seen.has(uid)) continue;
            this.drop(run, uid);
          }
          if (!this.initialSync) this.changed();
        },
        event: (type, item) => {
          const o = read(item, 'watch');
          if (isMalformed(o)) {
            // Left out and named; a DELETED one that can be told is no longer there to be left out.
            if (type !== 'DELETED') run.malformed.add(o);
            else run.malformed.clear(o.namespace, o.name);
            this.emitStatus();
            return;
          }
          run.malformed.clear(o.namespace || undefined, o.name);
          if (type === 'DELETED') this.drop(run, o.uid);
          else this.put(run, o);
          this.changed();
          // A CRD created, changed or deleted changes what is served: discover again now, not at the next period.
          if (resourceKey(resource) === CRD_RESOURCE) this.rediscoverSoon();
        },
        state: (state: ReflectorState, error?: ApiError) => {
          // A resource that is no longer served (404: its CRD or aggregated API went away) ends with a rediscovery.
          if (error?.status === 404) this.rediscoverSoon();
          // A failure, then a reconnect: it may reach another cluster behind the same URL.
          if (state === 'backoff') this.monitor?.checkSoon();
          this.emitStatus();
        },
        resourceVersionTooLarge: (error) => this.monitor?.resourceVersionTooLarge(resourceName(resource), error.message),
      },
      {
        ...this.opts.reflector,
        watch: this.opts.watch,
        accept: metadataOnly ? ACCEPT_METADATA_LIST : ACCEPT_OBJECTS,
        watchAccept: metadataOnly ? ACCEPT_METADATA_WATCH : ACCEPT_OBJECTS,
        watchAfter: this.watchGate,
        // Everything listed in full is a built-in kind, but CRDs (whose schemas may name a field anything).
        withoutManagedFields: metadataOnly || resourceKey(resource) !== 'apiextensions.k8s.io/customresourcedefinitions',
      },
    );
    const run: Running = {
      reflector,
      objects,
      abort,
      done: Promise.resolve(),
      workloads,
      malformed: new MalformedItems(),
      listing: new MalformedItems(),
    };
    this.running.set(key, run);
    return run;
  }

  /** Starts a reflector; resolves when its first LIST is over (complete or failed). */
  private begin(run: Running): Promise<void> {
    const started = run.reflector.start(run.abort.signal);
    run.done = started.done;
    return started.listed;
  }

  /** Adds or replaces (live objects have no source document, so a new copy of a uid replaces the old one). */
  private put(run: Running, o: KubeObject): void {
    const before = run.objects.get(o.uid);
    run.objects.set(o.uid, o);
    this.inventory.upsert(this.inventory.normalize(o));
    if (run.workloads && o.facts.specUnread && this.workloadsWanted) {
      this.staleWorkloads.add(o.uid);
      this.scheduleWorkloadReread();
    }
    // Something starts terminating, or a Pod never read in full appears while something is: which claims the Pods
    // mount may matter. Not on every event: a Pod read once keeps its volumes and node (podFacts).
    const startsTerminating = o.deletionTimestamp !== undefined && before?.deletionTimestamp === undefined;
    const newPod = o.apiVersion === 'v1' && o.kind === 'Pod' && o.facts.specUnread === true && !this.podFacts.has(o.uid);
    if (this.inventory.terminating.size > 0 && (startsTerminating || newPod)) this.schedulePodRead();
    if (startsTerminating) {
      this.blockerInputs++;
      this.scheduleBlockerRead();
    }
    // A terminating object that can reach a custom finalizer: from now on workload images are needed.
    if (
      !this.workloadsWanted &&
      (o.deletionTimestamp !== undefined || (this.inventory.terminating.size > 0 && o.finalizers.some(isCustomFinalizer)))
    ) {
      this.scheduleWorkloadReread();
    }
  }

  private drop(run: Running, uid: string): void {
    this.podFacts.delete(uid);
    this.blockerFacts.delete(uid);
    this.workloadFacts.delete(uid);
    this.staleWorkloads.delete(uid);
    if (run.objects.delete(uid)) this.inventory.remove(uid);
  }

  /**
   * Custom and aggregated kinds are served as discovery says (built-in ones are already known). Registered again
   * only when that changed: each registration makes the inventory resolve every kind anew.
   */
  private learnKind(r: DiscoveredResource, versions: string[]): void {
    const crd = {
      group: r.group,
      kind: r.kind,
      plural: r.resource,
      singular: r.singular,
      shortNames: r.shortNames,
      namespaced: r.namespaced,
      servedVersions: versions.includes(r.version) ? [r.version, ...versions.filter((v) => v !== r.version)] : [r.version],
    };
    const key = `${r.group}/${r.kind}`;
    const signature = JSON.stringify(crd);
    if (this.learned.get(key) === signature) return;
    this.learned.set(key, signature);
    this.inventory.kinds.addCrd(crd);
  }

  /**
   * Reads the Pods of these namespaces in full (GET, paginated) and gives their live copies the facts that a
   * metadata-only LIST leaves unknown (claimNames, nodeName, phase, grace period, images); see podSpecs.ts.
   * Only Pods the live graph holds are updated (their metadata stays the watch's), so the graph still equals
   * the server's. Returns an "incomplete" sentence per namespace that could not be read.
   *
   * A simulation is next, so the workloads' images are made known too if some object carries a custom finalizer
   * (ensureWorkloadSpecs); what could not be read of them is in incompleteNotes().
   */
  async readPodSpecs(namespaces: string[], signal: AbortSignal = this.abort.signal): Promise<string[]> {
    if (this.blockersReadAt !== this.blockerInputs) await this.readBlockerSpecs(signal);
    if (this.hasWorkloadRuns() && anyCustomFinalizer(this.inventory)) await this.ensureWorkloadSpecs(signal);
    const runs = [...this.running.values()].filter((r) => r.reflector.resource.group === '' && r.reflector.resource.resource === 'pods');
    if (!namespaces.length || !runs.length) return [];
    const pods = runs[0].reflector.resource;
    const reads = await readPods(this.client, pods, namespaces, signal);
    const notes: string[] = [];
    let updated = 0;
    for (const read of reads) {
      if ('error' in read) {
        notes.push(podReadNote(read.namespace, read.error));
        continue;
      }
      for (const item of read.items) {
        const full = toKubeObject(item, pods, false, this.opts.target.context);
        const run = full && runs.find((r) => r.objects.has(full.uid));
        const current = full && this.inventory.objects.get(full.uid);
        // Gone since, or not seen yet: the watch decides what exists.
        if (!full || !run || !current) continue;
        this.podFacts.set(full.uid, lastingPodFacts(full.facts));
        this.put(run, { ...(run.objects.get(full.uid) ?? current), facts: full.facts });
        updated++;
      }
    }
    if (updated) this.changed();
    return notes;
  }

  /**
   * A watching connection keeps the Pods read in full where what is terminating can reach a claim (the namespaces
   * namespacesNeedingPodSpecs names without a target), so the stuck list and its Problems entries know what
   * pvc-protection waits for, as Simulate Delete does: without their volumes a claim a Pod mounts would look free.
   * Read at the first sync, then when something starts terminating or a new Pod appears (put): a few LISTs, not one
   * per watch event.
   */
  private readTerminatingPods(): Promise<void> {
    this.podReads = this.podReads
      .then(async () => {
        const namespaces = namespacesNeedingPodSpecs(this.inventory, []);
        if (namespaces.length && !this.abort.signal.aborted) await this.readPodSpecs(namespaces);
      })
      .catch(() => undefined);
    return this.podReads;
  }

  /** Soon (coalesced): readTerminatingPods. */
  private schedulePodRead(): void {
    if (this.podReadScheduled || this.initialSync || this.opts.watch === false || this.abort.signal.aborted) return;
    this.podReadScheduled = true;
    setTimeout(() => {
      this.podReadScheduled = false;
      if (!this.abort.signal.aborted) void this.readTerminatingPods();
    }, 0).unref?.();
  }

  /**
   * Resolves once the Pod reads for what is terminating, scheduled or running now, are over, and the blockers outside
   * ownership have been read since their inputs last changed (a webhook configuration or Service created or deleted
   * schedules no read of its own: only a change to one read in full does).
   */
  async terminatingPodsRead(): Promise<void> {
    if (this.podReadScheduled) await new Promise((r) => setTimeout(r, 0));
    let reads: Promise<void>;
    do {
      reads = this.podReads;
      await reads;
    } while (reads !== this.podReads);
    // The blockers outside ownership read meanwhile, too (scheduled as soon as something started terminating).
    if (this.blockerReadScheduled) await new Promise((r) => setTimeout(r, 0));
    await this.blockerReads;
    if (this.inventory.terminating.size && this.blockersReadAt !== this.blockerInputs) await this.readBlockerSpecs();
  }

  /**
   * Reads the blockers outside ownership in full (blockerSpecs.ts): APIServices, webhook configurations, and the
   * Services and EndpointSlices of only those they name; their live copies get the facts (the metadata stays the
   * watch's). One read at a time; the notes of the last one are in incompleteNotes().
   */
  readBlockerSpecs(signal: AbortSignal = this.abort.signal): Promise<void> {
    this.blockerReads = this.blockerReads.then(() => this.readBlockersNow(signal)).catch(() => undefined);
    return this.blockerReads;
  }

  private async readBlockersNow(signal: AbortSignal): Promise<void> {
    const inputs = this.blockerInputs;
    const runs = [...this.running.values()].filter((r) => r.reflector.synced);
    const find = (key: string) => runs.find((r) => resourceKey(r.reflector.resource) === key)?.reflector.resource;
    const resources: BlockerResources = {
      blockers: [
        ...new Map(
          runs
            .filter((r) => BLOCKER_RESOURCES.has(resourceKey(r.reflector.resource)))
            .map((r) => [resourceKey(r.reflector.resource), r.reflector.resource]),
        ).values(),
      ],
      services: find('/services'),
      endpointSlices: find('discovery.k8s.io/endpointslices'),
      endpoints: find('/endpoints'),
    };
    if (!resources.blockers.length || signal.aborted) return;
    const read = await readBlockers(this.client, resources, this.opts.target.context, signal);
    if (signal.aborted) return;
    this.blockerNotes = read.notes;
    let updated = 0;
    for (const full of [...read.objects, ...read.endpoints]) {
      const run = runs.find((r) => r.objects.has(full.uid));
      const current = run?.objects.get(full.uid);
      if (!run || !current) continue;
      this.blockerFacts.set(full.uid, full.facts);
      this.put(run, { ...current, facts: full.facts });
      updated++;
    }
    if (updated) this.changed();
    this.blockersReadAt = inputs;
  }

  /** Soon (coalesced), while something is terminating: readBlockerSpecs. */
  private scheduleBlockerRead(): void {
    if (this.blockerReadScheduled || this.initialSync || this.abort.signal.aborted || this.inventory.terminating.size === 0) return;
    this.blockerReadScheduled = true;
    setTimeout(() => {
      this.blockerReadScheduled = false;
      if (!this.abort.signal.aborted) void this.readBlockerSpecs();
    }, 0).unref?.();
  }

  private hasWorkloadRuns(): boolean {
    for (const r of this.running.values()) if (r.workloads) return true;
    return false;
  }

  /**
   * Makes the workloads' images known (every workload, read in full once; afterwards those whose spec changed) and
   * keeps them so for the rest of the connection. Resolves when the reads in flight are over; returns an
   * "incomplete" sentence per workload resource that could not be read (also in incompleteNotes()).
   */
  async ensureWorkloadSpecs(signal: AbortSignal = this.abort.signal): Promise<string[]> {
    if (!this.hasWorkloadRuns()) return [];
    if (!this.workloadsWanted) {
      this.workloadsWanted = true;
      this.chainWorkloadRead(() => this.readWorkloadSpecs(undefined, signal));
    } else if (this.staleWorkloads.size) {
      const uids = [...this.staleWorkloads];
      this.staleWorkloads.clear();
      this.chainWorkloadRead(() => this.readWorkloadSpecs(uids, signal));
    }
    // Reads scheduled meanwhile (a workload whose spec changed) are chained after: wait for them all.
    let reads: Promise<void>;
    do {
      reads = this.workloadReads;
      await reads;
    } while (reads !== this.workloadReads);
    return this.workloadNotes;
  }

  private chainWorkloadRead(read: () => Promise<void>): void {
    this.workloadReads = this.workloadReads.then(read).catch(() => undefined);
  }

  /**
   * Soon (coalesced): reads again the workloads whose images became unknown while wanted; or, before anything is
   * wanted, checks whether the terminating objects now need them.
   */
  private scheduleWorkloadReread(): void {
    if (this.workloadRereadScheduled || this.abort.signal.aborted || this.initialSync) return;
    this.workloadRereadScheduled = true;
    setTimeout(() => {
      this.workloadRereadScheduled = false;
      if (this.abort.signal.aborted) return;
      if (!this.workloadsWanted) {
        if (this.hasWorkloadRuns() && terminatingReachesCustomFinalizer(this.inventory)) void this.ensureWorkloadSpecs();
        return;
      }
      if (this.staleWorkloads.size === 0) return;
      const uids = [...this.staleWorkloads];
      this.staleWorkloads.clear();
      this.chainWorkloadRead(() => this.readWorkloadSpecs(uids, this.abort.signal));
    }, 0).unref?.();
  }

  /**
   * Reads workloads in full (all of them, or these uids) and gives the live copies their facts (images) when the
   * read is of the generation the live graph holds; a read of another generation is kept for the watch event that
   * brings it. The metadata stays the watch's, so the graph still equals the server's.
   */
  private async readWorkloadSpecs(uids: string[] | undefined, signal: AbortSignal): Promise<void> {
    const notes: string[] = [];
    let updated = 0;
    const jobs: { run: Running; names?: { namespace: string; name: string }[] }[] = [];
    for (const run of this.running.values()) {
      if (!run.workloads || !run.reflector.synced) continue;
      if (!uids) {
        jobs.push({ run });
        continue;
      }
      const names = uids
        .map((u) => run.objects.get(u))
        .filter((o): o is KubeObject => o !== undefined)
        .map((o) => ({ namespace: o.namespace, name: o.name }));
      if (names.length) jobs.push({ run, ...(names.length <= WORKLOAD_REREAD_BY_NAME ? { names } : {}) });
    }
    await forEachLimited(jobs, 3, async ({ run, names }) => {
      const { resource, namespace } = run.reflector;
      let items: unknown[];
      try {
        items = await readWorkloads(this.client, resource, namespace, signal, names);
      } catch (e) {
        if (signal.aborted) return;
        notes.push(workloadReadNote(resource, namespace, e));
        // Still unknown: try again with the next read.
        for (const o of run.objects.values()) if (o.facts.specUnread) this.staleWorkloads.add(o.uid);
        return;
      }
      for (const item of items) {
        const full = toKubeObject(item, resource, false, this.opts.target.context);
        if (!full || signal.aborted) continue;
        if (full.generation !== undefined) this.workloadFacts.set(full.uid, { generation: full.generation, facts: full.facts });
        const current = run.objects.get(full.uid);
        if (!current || !current.facts.specUnread || current.generation !== full.generation) continue;
        this.put(run, { ...current, facts: full.facts });
        updated++;
      }
    });
    if (signal.aborted) return;
    this.workloadNotes = notes;
    if (updated) this.changed();
  }

  /** A rediscovery after the one in progress (the first sync, the period's or an earlier trigger's), never beside it. */
  private resync(): Promise<void> {
    const next = this.syncing.then(() => (this.abort.signal.aborted ? undefined : this.syncResources())).catch(() => undefined);
    this.syncing = next;
    return next;
  }

  /** One rediscovery shortly after a burst of triggers (CRD events, 404s), unless stopped or one-shot. */
  private rediscoverSoon(): void {
    if (this.rediscoverPending || this.opts.watch === false || this.abort.signal.aborted) return;
    this.rediscoverPending = setTimeout(() => {
      this.rediscoverPending = undefined;
      void this.resync();
    }, REDISCOVER_DELAY_MS);
    this.rediscoverPending.unref?.();
  }

  private changed(): void {
    this.version++;
    this.opts.onChange?.();
  }

  private emitStatus(): void {
    if (!this.opts.onStatus) return;
    const s = this.status();
    const json = JSON.stringify({ ...s, requests: 0, bytes: 0 });
    if (json === this.lastStatusJson) return;
    this.lastStatusJson = json;
    this.opts.onStatus(s);
  }
}

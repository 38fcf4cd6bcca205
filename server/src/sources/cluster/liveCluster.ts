// The live cluster as an Inventory: discovery, one reflector per resource (metadata only, as the garbage
// collector's own informers), every event applied incrementally to the engine's inventory. Discovery is
// refreshed periodically (CRDs come and go). Resources the user may not list, or that fail, are reported in
// the status and in `incompleteNotes()`; the rest keeps working. Read-only: see apiClient.ts.

import { Inventory } from '../../engine/inventory';
import { KindRegistry } from '../../engine/kinds/kindRegistry';
import type { KubeObject, ObjectFacts } from '../../engine/model';
import { ACCEPT_JSON, ACCEPT_METADATA_LIST, ApiClient, type ApiError } from './apiClient';
import { discover, type DiscoveredResource, type DiscoveryFailure } from './discovery';
import type { ClusterTarget } from './kubeconfig';
import { lastingPodFacts, podReadNote, readPods } from './podSpecs';
import { Reflector, type ReflectorOptions, type ReflectorState } from './reflector';
import { toKubeObject } from './toKubeObject';

/**
 * Kinds listed in full rather than metadata only: the built-in controllers the simulation runs need their
 * spec or status (namespace finalizers, CRD names and scope, volume bindings, workload images), and a
 * cluster has few of them compared with Pods, ReplicaSets or Secrets.
 */
const FULL_OBJECT_RESOURCES = new Set([
  '/namespaces', '/persistentvolumes', '/persistentvolumeclaims', 'apiextensions.k8s.io/customresourcedefinitions',
  'apps/deployments', 'apps/statefulsets', 'apps/daemonsets',
]);

/** `listed`: a one-shot reading (watch: false) is complete; nothing is watched. */
export type SyncState = 'connecting' | 'listing' | 'listed' | 'watching' | 'degraded' | 'disconnected';

export interface LiveProblem {
  kind: 'forbidden' | 'failing' | 'discovery';
  /** "secrets", "widgets.example.com", or a group/version for discovery. */
  resource: string;
  namespace?: string;
  message: string;
}

export interface LiveStatus {
  context: string;
  server: string;
  /** Every namespace, or the chosen ones. */
  namespaces: 'all' | string[];
  state: SyncState;
  resources: { total: number; listed: number; watching: number };
  objects: number;
  problems: LiveProblem[];
  requests: number;
  bytes: number;
  /** Bumped on every change to the live graph: a client refreshes what it shows when it changes. */
  version: number;
  /** Set when the connection failed as a whole (discovery unreachable). */
  error?: string;
}

export interface LiveClusterOptions {
  target: ClusterTarget;
  /** Namespaces to watch; all when absent. Cluster-scoped resources are always watched. */
  namespaces?: string[];
  /** LISTs in flight at once. */
  concurrency?: number;
  /** Discovery refresh period (ms); 0 = never. */
  rediscoverMs?: number;
  /** false: LIST everything once, watch nothing (the CLI's one-shot reading). */
  watch?: boolean;
  reflector?: Omit<ReflectorOptions, 'accept'>;
  /** Called after every change to the inventory (coalesce it if it is expensive). */
  onChange?: () => void;
  onStatus?: (status: LiveStatus) => void;
}

const resourceKey = (r: DiscoveredResource) => `${r.group}/${r.resource}`;
const resourceName = (r: DiscoveredResource) => (r.group ? `${r.resource}.${r.group}` : r.resource);

interface Running {
  reflector: Reflector;
  /** uid → object, what this reflector contributed to the inventory. */
  objects: Map<string, KubeObject>;
  abort: AbortController;
  done: Promise<void>;
}

export class LiveCluster {
  readonly inventory: Inventory;
  readonly client: ApiClient;
  private readonly running = new Map<string, Running>();
  private discoveryFailures: DiscoveryFailure[] = [];
  private readonly abort = new AbortController();
  private rediscoverTimer: NodeJS.Timeout | undefined;
  /** What learnKind registered per group/kind, so a rediscovery registers only what changed. */
  private readonly learned = new Map<string, string>();
  /** uid → the facts of a Pod read in full (readPodSpecs) that no update can change; see podSpecs.ts. */
  private readonly podFacts = new Map<string, ObjectFacts>();
  private state: SyncState = 'connecting';
  private fatal: string | undefined;
  private lastStatusJson = '';
  /** Bumped on every change to the inventory. */
  version = 0;

  constructor(private readonly opts: LiveClusterOptions) {
    this.client = new ApiClient(opts.target);
    this.inventory = new Inventory(new KindRegistry(), { defaultNamespace: opts.target.namespace });
  }

  /** Discovers and lists everything; resolves when every first LIST has completed or failed. */
  async start(): Promise<void> {
    this.emitStatus();
    try {
      await this.syncResources();
    } catch (e) {
      this.fatal = e instanceof Error ? e.message : String(e);
      this.state = 'disconnected';
      this.emitStatus();
      throw e;
    }
    if (this.opts.rediscoverMs !== 0 && this.opts.watch !== false) {
      const every = this.opts.rediscoverMs ?? 5 * 60_000;
      this.rediscoverTimer = setInterval(() => void this.syncResources().catch(() => undefined), every);
      this.rediscoverTimer.unref?.();
    }
  }

  /** Stops every watch and request. The inventory keeps the last state. */
  async stop(): Promise<void> {
    if (this.rediscoverTimer) clearInterval(this.rediscoverTimer);
    this.abort.abort();
    for (const r of this.running.values()) r.abort.abort();
    this.client.close();
    await Promise.all([...this.running.values()].map((r) => r.done.catch(() => undefined)));
    this.state = 'disconnected';
    this.emitStatus();
  }

  status(): LiveStatus {
    const reflectors = [...this.running.values()].map((r) => r.reflector);
    const problems: LiveProblem[] = this.discoveryFailures.map((f) => ({ kind: 'discovery', resource: f.groupVersion, message: f.message }));
    for (const r of reflectors) {
      // A resource is a problem while its last LIST failed, or while its watch keeps failing.
      if (r.lastError && (!r.synced || r.state === 'backoff' || r.state === 'forbidden')) {
        const forbidden = r.lastError.status === 403 || r.lastError.status === 401;
        problems.push({ kind: forbidden ? 'forbidden' : 'failing', resource: resourceName(r.resource), namespace: r.namespace, message: r.lastError.message });
      }
    }
    const listed = reflectors.filter((r) => r.synced).length;
    const watching = reflectors.filter((r) => r.state === 'watching').length;
    let state = this.state;
    if (state === 'listing' || state === 'watching') {
      state = reflectors.some((r) => r.state === 'pending' || (r.state === 'listing' && r.lists <= 1)) ? 'listing' : problems.length ? 'degraded' : 'watching';
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

  /** Sentences for every result the missing resources may affect ("this preview is incomplete: …"). */
  incompleteNotes(): string[] {
    return this.status().problems.map((p) => {
      if (p.kind === 'discovery') return `this preview is incomplete: the API group ${p.resource} could not be discovered (${p.message})`;
      const where = p.namespace ? ` in ${p.namespace}` : '';
      return p.kind === 'forbidden'
        ? `this preview is incomplete: cannot list ${p.resource}${where} (${p.message})`
        : `this preview is incomplete: listing ${p.resource}${where} fails (${p.message})`;
    });
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
    this.state = this.opts.watch === false ? 'listed' : 'watching';
    this.emitStatus();
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
    const metadataOnly = !FULL_OBJECT_RESOURCES.has(resourceKey(resource));
    const objects = new Map<string, KubeObject>();
    const abort = new AbortController();
    const context = this.opts.target.context;
    const isPods = resource.group === '' && resource.resource === 'pods';
    const convert = (item: Record<string, unknown>) => {
      const o = toKubeObject(item, resource, metadataOnly, context);
      // A metadata-only copy of a Pod read in full keeps what cannot have changed; the rest is unknown again.
      const kept = o && isPods && o.facts.specUnread ? this.podFacts.get(o.uid) : undefined;
      return kept && o ? { ...o, facts: { ...o.facts, ...kept } } : o;
    };
    const reflector = new Reflector(this.client, resource, namespace, {
      replace: (items) => {
        const seen = new Set<string>();
        for (const item of items) {
          const o = convert(item);
          if (!o) continue;
          seen.add(o.uid);
          this.put(objects, o);
        }
        for (const uid of [...objects.keys()]) {
          if (seen.has(uid)) continue;
          objects.delete(uid);
          this.podFacts.delete(uid);
          this.inventory.remove(uid);
        }
        this.changed();
      },
      event: (type, item) => {
        const o = convert(item);
        if (!o) return;
        if (type === 'DELETED') {
          this.podFacts.delete(o.uid);
          if (objects.delete(o.uid)) this.inventory.remove(o.uid);
        } else {
          this.put(objects, o);
        }
        this.changed();
      },
      state: (_state: ReflectorState, _error?: ApiError) => this.emitStatus(),
    }, { ...this.opts.reflector, watch: this.opts.watch, accept: metadataOnly ? ACCEPT_METADATA_LIST : ACCEPT_JSON });
    const run: Running = { reflector, objects, abort, done: Promise.resolve() };
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
  private put(objects: Map<string, KubeObject>, o: KubeObject): void {
    objects.set(o.uid, o);
    this.inventory.upsert(this.inventory.normalize(o));
  }

  /**
   * Custom and aggregated kinds are served as discovery says (built-in ones are already known). Registered again
   * only when that changed: each registration makes the inventory resolve every kind anew.
   */
  private learnKind(r: DiscoveredResource, versions: string[]): void {
    const crd = {
      group: r.group, kind: r.kind, plural: r.resource, singular: r.singular, shortNames: r.shortNames,
      namespaced: r.namespaced, servedVersions: versions.includes(r.version) ? [r.version, ...versions.filter((v) => v !== r.version)] : [r.version],
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
   */
  async readPodSpecs(namespaces: string[], signal: AbortSignal = this.abort.signal): Promise<string[]> {
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
        this.put(run.objects, { ...current, facts: full.facts });
        updated++;
      }
    }
    if (updated) this.changed();
    return notes;
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

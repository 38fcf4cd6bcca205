// One resource kept current the way client-go's reflector does it: a paginated LIST (metadata only unless asked
// otherwise), then a WATCH from the list's resourceVersion with bookmarks. A 410 Gone (an expired continue
// token, or a watch from a compacted resourceVersion) relists; a dropped or ended watch resumes from the
// last resourceVersion seen, after a backoff when it failed; a watch silent for longer than its timeout allows (a
// connection that died unnoticed) is cut and resumed the same way. Every LIST replaces what the reflector had, so
// after any fault the consumer holds exactly the server's state: nothing lost, nothing left over. Each LIST page is
// converted as it arrives (the raw page is garbage at once); the first watch can be held back until the consumer says
// (the whole initial sync is over), and then starts from the LIST's resourceVersion, so nothing is missed meanwhile.
// As client-go's reflector, a resourceVersion newer than the server's ("Too large resource version": a cluster
// replaced behind the same URL, restored from a backup) also lists from scratch: a watch that ends having received
// nothing, not even a bookmark, asks the server whether it knows that resourceVersion (a one-item LIST "not older
// than" it), since a watch from a resourceVersion the server never had is silent, not refused. `relist()` lets the
// consumer start over too (LiveCluster: the cluster's identity changed, or every watch has been silent too long).

import { ApiError, statusCauses, type ApiClient, type ReadOptions, type WatchEvent } from './apiClient';
import { collectionPath, type DiscoveredResource } from './discovery';
import { serverText, sleep } from './limits';

export type ReflectorState = 'pending' | 'listing' | 'watching' | 'backoff' | 'forbidden' | 'stopped';

export interface ReflectorHandlers<T> {
  /** A LIST starts (or starts over): what `convert` noted of an earlier one is void. */
  listStart?(): void;
  /**
   * One served item (anything: it is the server's) to what the consumer keeps (undefined: skip it); called page by page
   * while a LIST runs.
   */
  convert(item: unknown): T | undefined;
  /** A complete LIST: these are everything there is (the consumer drops what is not among them). */
  replace(objects: T[]): void;
  /** One watch event (ADDED, MODIFIED or DELETED) with the object as served (anything: it is the server's). */
  event(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: unknown): void;
  /** State changes and the error behind them, for the status line and the "incomplete" notes. */
  state(state: ReflectorState, error?: ApiError): void;
  /** The server does not know the resourceVersion watched from (newer than its own): this lists from scratch. */
  resourceVersionTooLarge?(error: ApiError): void;
}

export interface ReflectorOptions {
  /** Accept of the LISTs. */
  accept: string;
  /** Accept of the watches (newline-delimited JSON events); the LISTs' if not given. */
  watchAccept?: string;
  /** Items per LIST page. */
  pageSize?: number;
  /** Delays after failures: the first, doubled each time up to the cap (ms). */
  backoffMs?: { initial: number; max: number };
  /** How often to retry a resource the user may not list (ms). */
  forbiddenRetryMs?: number;
  /** Server-side watch timeout, as client-go picks one between 5 and 10 minutes (s). */
  watchTimeoutSeconds?: number;
  /**
   * A watch that receives nothing (not even a bookmark) for its timeout plus this long is presumed dead (a
   * connection that died without the server or the network saying so): it is cut and resumed (ms).
   */
  watchIdleMarginMs?: number;
  /** false: LIST once and stop (a one-shot reading, as the CLI needs). */
  watch?: boolean;
  /**
   * The first watch waits for this (LiveCluster: until every resource's first LIST is over, so that watch
   * connections do not compete with the LISTs). It starts from the LIST's resourceVersion: nothing is lost.
   */
  watchAfter?: Promise<void>;
  /** Skip managedFields in the bytes before parsing (see managedFields.ts for when that is safe). */
  withoutManagedFields?: boolean;
}

/** A watch that ends sooner than this with nothing received is a failure (client-go's threshold). */
const SHORT_WATCH_MS = 1000;
const DEFAULTS = { pageSize: 500, backoffMs: { initial: 800, max: 30_000 }, forbiddenRetryMs: 5 * 60_000, watchIdleMarginMs: 30_000 };

export class Reflector<T> {
  state: ReflectorState = 'pending';
  lastError: ApiError | undefined;
  /** The resourceVersion the next watch starts from. */
  resourceVersion = '';
  lists = 0;
  watches = 0;
  /** Watches cut because nothing arrived for longer than their timeout allows. */
  idleWatches = 0;
  /** The last LIST succeeded: what the consumer holds is this resource's state (kept current while watching). */
  synced = false;
  /** When the server last said anything: a complete LIST, a watch event or bookmark (ms since the epoch; 0: never). */
  lastHeardAt = 0;
  /** LISTs from scratch because the resourceVersion was newer than the server's. */
  tooLargeRelists = 0;
  /** A relist asked for (relist()), and what interrupts the wait or request in progress for it. */
  private relistAsked = false;
  private interrupt = new AbortController();
  private readonly opts: Required<Omit<ReflectorOptions, 'watchAfter' | 'withoutManagedFields'>>;
  private readonly read: ReadOptions;
  private readonly watchAfter: Promise<void> | undefined;

  constructor(
    private readonly client: ApiClient,
    readonly resource: DiscoveredResource,
    /** A namespace to list in, or undefined for all namespaces (and for cluster-scoped resources). */
    readonly namespace: string | undefined,
    private readonly handlers: ReflectorHandlers<T>,
    opts: ReflectorOptions,
  ) {
    this.opts = {
      pageSize: opts.pageSize ?? DEFAULTS.pageSize,
      backoffMs: opts.backoffMs ?? DEFAULTS.backoffMs,
      forbiddenRetryMs: opts.forbiddenRetryMs ?? DEFAULTS.forbiddenRetryMs,
      watchTimeoutSeconds: opts.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
      watchIdleMarginMs: opts.watchIdleMarginMs ?? DEFAULTS.watchIdleMarginMs,
      accept: opts.accept,
      watchAccept: opts.watchAccept ?? opts.accept,
      watch: opts.watch ?? true,
    };
    this.watchAfter = opts.watchAfter;
    this.read = { withoutManagedFields: opts.withoutManagedFields === true };
  }

  get path(): string {
    return collectionPath(this.resource, this.namespace);
  }

  /** Lists once (resolves when the first LIST is complete or has failed), then keeps watching until aborted. */
  start(signal: AbortSignal): { listed: Promise<void>; done: Promise<void> } {
    let listedResolve!: () => void;
    const listed = new Promise<void>((r) => (listedResolve = r));
    const done = this.loop(signal, listedResolve).finally(() => {
      listedResolve();
      this.setState('stopped');
    });
    return { listed, done };
  }

  /** Lists again from scratch as soon as possible: a LIST, watch or wait in progress is cut. */
  relist(): void {
    this.relistAsked = true;
    this.interrupt.abort();
  }

  private setState(state: ReflectorState, error?: ApiError): void {
    if (error) this.lastError = error;
    else if (state === 'watching') this.lastError = undefined;
    if (state === this.state && !error) return;
    this.state = state;
    this.handlers.state(state, error);
  }

  private async loop(signal: AbortSignal, listed: () => void): Promise<void> {
    let delay = this.opts.backoffMs.initial;
    let needList = true;
    const outer = signal;
    while (!outer.aborted) {
      if (this.relistAsked || this.interrupt.signal.aborted) {
        this.relistAsked = false;
        this.interrupt = new AbortController();
        needList = true;
        this.resourceVersion = '';
      }
      // Each step can be cut by stop() or by relist().
      signal = AbortSignal.any([outer, this.interrupt.signal]);
      try {
        if (needList) {
          this.setState('listing');
          await this.list(signal);
          this.synced = true;
          this.lastError = undefined;
          needList = false;
          listed();
          if (!this.opts.watch) return;
          if (this.watchAfter) {
            await this.watchAfter;
            if (outer.aborted) return;
          }
        }
        this.setState('watching');
        const idleBefore = this.idleWatches;
        const progressed = await this.watch(signal);
        if (progressed) delay = this.opts.backoffMs.initial;
        // The server ended that watch having sent nothing at all: is its resourceVersion one the server has? (A throw
        // lists from scratch.) Not after a watch cut as dead: the server did not answer, so it is not asked again now.
        else if (this.idleWatches === idleBefore) await this.checkResourceVersion(signal);
        // The server ended the watch (its timeout), or it went silent for too long: resume from where it stopped,
        // at once (if the server is really gone, that watch fails and the backoff starts).
        continue;
      } catch (e) {
        if (outer.aborted) return;
        if (this.interrupt.signal.aborted) continue; // relist(): start over at the top
        const err = e instanceof ApiError ? e : new ApiError(0, 'Error', e instanceof Error ? e.message : String(e), this.path);
        if (err.resourceVersionTooLarge) {
          // client-go's reflector: the resourceVersion is unavailable, so list from scratch (resourceVersion "").
          this.tooLargeRelists++;
          this.handlers.resourceVersionTooLarge?.(err);
          needList = true;
          this.resourceVersion = '';
          continue;
        }
        if (err.expired) {
          // The resourceVersion or continue token is gone from the server's history: start over with a LIST.
          needList = true;
          this.resourceVersion = '';
          continue;
        }
        if (needList) this.synced = false;
        const final = err.reason === 'DeadlineExceeded' || err.retryAfterSeconds !== undefined;
        if (err.reason === 'TooLarge' || (final && !this.opts.watch)) {
          // Asking again brings the same answer (or the same wait, or the Retry-After the client already honoured):
          // once for a one-shot reading, rarely when watching.
          this.setState('backoff', err);
          listed();
          if (!this.opts.watch) return;
          await sleep(this.opts.forbiddenRetryMs, signal);
          needList = true;
          continue;
        }
        if (err.status === 403 || err.status === 401) {
          this.setState('forbidden', err);
          listed();
          if (!this.opts.watch) return;
          await sleep(this.opts.forbiddenRetryMs, signal);
          needList = true;
          continue;
        }
        this.setState('backoff', err);
        if (needList) listed(); // the first LIST failed: do not hold the whole sync up
        if (!this.opts.watch && this.lists >= 3) return; // one-shot: a few tries, then report it
        await sleep(delay, signal);
        delay = Math.min(delay * 2, this.opts.backoffMs.max);
      }
    }
  }

  /**
   * A complete paginated LIST, converted page by page; a continue token that expires midway (410) throws, and the
   * loop starts the LIST over (what was converted of it is dropped: the consumer sees complete LISTs only).
   */
  private async list(signal: AbortSignal): Promise<void> {
    const objects: T[] = [];
    let cont = '';
    let rv = '';
    this.lists++;
    this.handlers.listStart?.();
    const read = { ...this.read, budget: this.client.listBudget(this.path) };
    do {
      const q = new URLSearchParams({ limit: String(this.opts.pageSize) });
      if (cont) q.set('continue', cont);
      const path = `${this.path}?${q}`;
      const page = listPage(await this.client.getJson<unknown>(path, this.opts.accept, signal, read), path);
      for (const item of page.items) {
        const o = this.handlers.convert(item);
        if (o !== undefined) objects.push(o);
      }
      cont = page.continue;
      rv = page.resourceVersion ?? rv;
    } while (cont);
    this.resourceVersion = rv;
    this.lastHeardAt = Date.now();
    this.handlers.replace(objects);
  }

  /**
   * After a watch the server ended having delivered nothing (no event, no bookmark): asks for one item "not older
   * than" the watched resourceVersion. A server that never had it answers "Too large resource version" (kube-apiserver
   * after waiting 3 s for its cache), which the loop answers with a LIST from scratch; any other failure is left to the
   * next watch.
   */
  private async checkResourceVersion(signal: AbortSignal): Promise<void> {
    if (!this.resourceVersion) return;
    const q = new URLSearchParams({ limit: '1', resourceVersion: this.resourceVersion, resourceVersionMatch: 'NotOlderThan' });
    try {
      // An answer is not "heard" (lastHeardAt): a replaced cluster that has passed this resourceVersion answers too.
      await this.client.getJson<unknown>(`${this.path}?${q}`, this.opts.accept, signal, this.read);
    } catch (e) {
      if (e instanceof ApiError && e.resourceVersionTooLarge) throw e;
    }
  }

  /** One watch connection. Returns true if it delivered anything (the backoff then starts afresh). */
  private async watch(signal: AbortSignal): Promise<boolean> {
    const q = new URLSearchParams({
      watch: '1',
      allowWatchBookmarks: 'true',
      timeoutSeconds: String(this.opts.watchTimeoutSeconds),
    });
    if (this.resourceVersion) q.set('resourceVersion', this.resourceVersion);
    let progressed = false;
    const started = Date.now();
    /** An ERROR event (410 Gone after compaction…): the server ends the stream after it. */
    let failure: ApiError | undefined;
    this.watches++;
    // The server ends the watch at timeoutSeconds and sends bookmarks meanwhile: silence beyond that is a dead connection.
    const idleMs = this.opts.watchTimeoutSeconds * 1000 + this.opts.watchIdleMarginMs;
    try {
      await this.client.watch(
        `${this.path}?${q}`,
        this.opts.watchAccept,
        (e: WatchEvent) => {
          if (failure) return;
          if (e.type === 'ERROR') {
            const st = (isObject(e.object) ? e.object : {}) as { code?: unknown; reason?: unknown; message?: unknown };
            failure = new ApiError(
              typeof st.code === 'number' ? st.code : 0,
              typeof st.reason === 'string' && st.reason ? serverText(st.reason, 64) : 'Error',
              typeof st.message === 'string' && st.message ? serverText(st.message) : 'the watch reported an error',
              this.path,
              undefined,
              statusCauses(st),
            );
            // The server should end the stream now; one that does not is not waited for.
            throw failure;
          }
          const meta = isObject(e.object) && isObject(e.object.metadata) ? e.object.metadata : {};
          if (typeof meta.resourceVersion === 'string' && meta.resourceVersion) this.resourceVersion = meta.resourceVersion;
          progressed = true;
          this.lastHeardAt = Date.now();
          if (e.type === 'BOOKMARK') return;
          if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') this.handlers.event(e.type, e.object);
        },
        signal,
        idleMs,
        this.read,
      );
    } catch (e) {
      if (!failure && e instanceof ApiError && e.reason === 'Idle' && !signal.aborted) {
        this.idleWatches++;
        return progressed;
      }
      if (!failure) throw e;
    }
    if (failure) throw failure;
    // client-go's "very short watch": a server that ends every watch at once, having sent nothing, would otherwise be
    // asked again at once, in a loop. It is backed off as a failure instead.
    if (!progressed && Date.now() - started < SHORT_WATCH_MS) {
      throw new ApiError(0, 'ShortWatch', `the watch ${this.path} ended within a second with nothing received`, this.path);
    }
    return progressed;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A LIST page as served, checked: an object whose items are an array (each item is checked by the consumer), with a
 * string continue token and resourceVersion if any. Anything else is a BadResponse for the whole page.
 */
export function listPage(doc: unknown, path: string): { items: unknown[]; continue: string; resourceVersion?: string } {
  const bad = (what: string) => new ApiError(200, 'BadResponse', `the answer to GET ${path} is not a list: ${what}`, path);
  if (!isObject(doc)) throw bad(`it is ${doc === null ? 'null' : Array.isArray(doc) ? 'an array' : `a ${typeof doc}`}`);
  const items = doc.items ?? [];
  if (!Array.isArray(items)) throw bad('its items are not an array');
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  const cont = typeof meta.continue === 'string' ? meta.continue : '';
  const rv = typeof meta.resourceVersion === 'string' && meta.resourceVersion ? meta.resourceVersion : undefined;
  return { items, continue: cont, resourceVersion: rv };
}

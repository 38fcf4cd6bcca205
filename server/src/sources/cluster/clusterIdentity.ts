// Which cluster a connection reaches: the `kube-system` Namespace's uid (the cluster id Argo CD and Velero use; a
// cluster keeps it for life, a new one gets another) and the server's version. Read with GET at connect, after a
// watch fails (a reconnect may reach another cluster behind the same URL: `kind delete cluster && kind create
// cluster`, a restore, a load balancer moved) and periodically. When it changes, or when every watch has been silent
// too long, the monitor asks the live view to list everything again from scratch, as client-go's reflector relists,
// and records why (the status and the language server's log say it).

import { ACCEPT_JSON, ACCEPT_OBJECTS, ApiError, type ApiClient } from './apiClient';
import { sleep } from './limits';

export interface ClusterIdentity {
  /** The kube-system Namespace's uid; absent when it could not be read (`problem` says why). */
  uid?: string;
  /** The server's gitVersion (`v1.37.2`), from /version. */
  serverVersion?: string;
  /** `1.37`, as the simulation takes it. */
  kubeVersion?: string;
  /** Why the uid is unknown (forbidden, not found, unreachable). */
  problem?: string;
}

export type RelistReason = 'cluster-changed' | 'resource-version-too-large' | 'watches-silent';

export interface Relist {
  reason: RelistReason;
  /** One sentence: what was seen (the old and new uid, the resource and the server's words, how long silent). */
  message: string;
  /** When (ISO 8601). */
  at: string;
}

/** How often the identity is read while connected (ms): two small GETs. */
export const IDENTITY_CHECK_MS = 60_000;
/**
 * Every watch silent this long (no event, no bookmark) lists everything again (ms). kube-apiserver sends each watch a
 * bookmark about once a minute and ends it at its timeout (5–10 minutes, as client-go asks), so a healthy connection
 * never comes near it; a quiet cluster whose server sends no bookmarks relists at most this often.
 */
export const SILENT_WATCHES_RELIST_MS = 15 * 60_000;
/** Retries of a check that could not reach the server: the first delay, doubled up to the cap (ms). */
const RETRY_MS = { initial: 500, max: 30_000 };

const KUBE_SYSTEM = '/api/v1/namespaces/kube-system';

interface Reading {
  identity: ClusterIdentity;
  /** The server answered (a 403 or 404 included): the reading says something about the cluster. */
  answered: boolean;
  /** The server says there is no kube-system Namespace: not the cluster that had one. */
  notFound: boolean;
}

/** GET /api/v1/namespaces/kube-system and /version; never throws. */
export async function readClusterIdentity(client: ApiClient, signal?: AbortSignal): Promise<Reading> {
  const [ns, version] = await Promise.all([
    client.getJson<{ metadata?: { uid?: unknown } }>(KUBE_SYSTEM, ACCEPT_OBJECTS, signal).then(
      (doc) => ({ doc }),
      (e: unknown) => ({ error: e }),
    ),
    client.getJson<Record<string, unknown>>('/version', ACCEPT_JSON, signal).then(
      (doc) => doc,
      () => undefined,
    ),
  ]);
  const git = typeof version?.gitVersion === 'string' ? version.gitVersion.slice(0, 64) : undefined;
  const minor = git ? /^v?(\d+)\.(\d+)/.exec(git) : null;
  const versions = { ...(git ? { serverVersion: git } : {}), ...(minor ? { kubeVersion: `${minor[1]}.${minor[2]}` } : {}) };
  if ('doc' in ns) {
    const uid = ns.doc?.metadata?.uid;
    if (typeof uid === 'string' && uid) return { identity: { uid: uid.slice(0, 128), ...versions }, answered: true, notFound: false };
    return { identity: { ...versions, problem: `GET ${KUBE_SYSTEM} answered a Namespace without a uid` }, answered: true, notFound: false };
  }
  const e = ns.error;
  const message = e instanceof Error ? e.message : String(e);
  const answered = e instanceof ApiError && e.status > 0;
  const notFound = e instanceof ApiError && e.status === 404;
  return { identity: { ...versions, problem: `GET ${KUBE_SYSTEM} failed: ${message}` }, answered, notFound };
}

export interface IdentityMonitorOptions {
  client: ApiClient;
  signal: AbortSignal;
  /** Periodic check (ms); 0: only at connect and after failures. */
  checkEveryMs?: number;
  /** Every watch silent this long lists everything again (ms); 0: never. */
  silentAfterMs?: number;
  /** The watching reflectors and the last time any of them heard from the server (ms since the epoch). */
  watches(): { watching: number; lastHeardAt: number };
  /** Lists everything again from scratch (`rediscover`: the API itself may differ, as on another cluster). */
  relist(rediscover: boolean): void;
  /** The identity or the relists changed: the status did. */
  changed(): void;
}

export class IdentityMonitor {
  /** As last read (uid absent: the last reading could not tell). */
  identity: ClusterIdentity = {};
  /** The kube-system uid of the cluster the view was listed from: the last uid read. */
  viewUid: string | undefined;
  /** Relists of the whole view or of one resource for a reason below (410 Gone relists are the reflectors' own). */
  relists = 0;
  lastRelist: Relist | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<{ identity: ClusterIdentity; reached: boolean }> | undefined;
  private retrying = false;

  constructor(private readonly opts: IdentityMonitorOptions) {}

  /** The first reading (at connect); then the periodic checks start. */
  async start(): Promise<void> {
    const { identity } = await readClusterIdentity(this.opts.client, this.opts.signal);
    this.identity = identity;
    this.viewUid = identity.uid;
    const every = this.opts.checkEveryMs ?? IDENTITY_CHECK_MS;
    if (every > 0) {
      this.timer = setInterval(() => void this.tick(), every);
      this.timer.unref?.();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Reads the identity now (one reading at a time) and compares: another uid, or none where there was one because
   * the server says kube-system does not exist, is another cluster, and everything is listed again. Resolves with
   * the identity as now read (uid absent: unknown now, whatever was known before).
   */
  async check(fresh = false): Promise<ClusterIdentity> {
    // `fresh` (before a write): a reading already under way may have been answered before the server changed.
    if (fresh && this.checking) await this.checking;
    return (await this.compare()).identity;
  }

  private compare(): Promise<{ identity: ClusterIdentity; reached: boolean }> {
    this.checking ??= this.readAndCompare().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** After a failure (a watch or LIST that could not reach the server): check once it answers again. */
  checkSoon(): void {
    if (this.retrying || this.opts.signal.aborted) return;
    this.retrying = true;
    void (async () => {
      let delay = RETRY_MS.initial;
      try {
        while (!this.opts.signal.aborted) {
          await sleep(delay, this.opts.signal);
          if ((await this.compare()).reached || this.opts.signal.aborted) return;
          delay = Math.min(delay * 2, RETRY_MS.max);
        }
      } finally {
        this.retrying = false;
      }
    })();
  }

  /** A reflector's resourceVersion was newer than the server's: recorded, and the identity checked at once. */
  resourceVersionTooLarge(resource: string, message: string): void {
    this.record('resource-version-too-large', `${resource}: the server does not know the resourceVersion watched from (${message})`);
    void this.check();
  }

  private async readAndCompare(): Promise<{ identity: ClusterIdentity; reached: boolean }> {
    const { identity, answered, notFound } = await readClusterIdentity(this.opts.client, this.opts.signal);
    const reached = answered || identity.uid !== undefined;
    // Unreachable says nothing about which cluster it is: what was known stays (a write reads it again itself).
    if (!reached || this.opts.signal.aborted) return { identity, reached };
    const was = this.viewUid;
    // A 403 says nothing either; a 404 does: every cluster has kube-system, so this is not the one that had it.
    const replaced = was !== undefined && ((identity.uid !== undefined && identity.uid !== was) || notFound);
    const changed = JSON.stringify(this.identity) !== JSON.stringify(identity);
    this.identity = identity;
    if (identity.uid !== undefined) this.viewUid = identity.uid;
    else if (replaced) this.viewUid = undefined;
    if (replaced) {
      this.record(
        'cluster-changed',
        `the server now answers as another cluster: the kube-system Namespace's uid was ${was}, it is ${identity.uid ?? `unknown (${identity.problem})`}`,
      );
      this.opts.relist(true);
    } else if (changed) this.opts.changed();
    return { identity, reached };
  }

  /** Periodic: the identity, then whether every watch has been silent for too long. */
  private async tick(): Promise<void> {
    if (this.opts.signal.aborted) return;
    const before = this.relists;
    await this.check();
    const silentAfter = this.opts.silentAfterMs ?? SILENT_WATCHES_RELIST_MS;
    if (this.relists !== before || silentAfter <= 0 || this.opts.signal.aborted) return;
    const { watching, lastHeardAt } = this.opts.watches();
    const silentMs = Date.now() - lastHeardAt;
    if (watching === 0 || silentMs < silentAfter) return;
    this.record(
      'watches-silent',
      `none of the ${watching} watches has received anything, not even a bookmark, for ${Math.round(silentMs / 1000)} s (the bound is ${Math.round(silentAfter / 1000)} s)`,
    );
    this.opts.relist(false);
  }

  private record(reason: RelistReason, message: string): void {
    this.relists++;
    this.lastRelist = { reason, message, at: new Date().toISOString() };
    this.opts.changed();
  }
}

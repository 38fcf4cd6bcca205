// What a LiveCluster is given (its options) and what it reports (its status), apart from liveCluster.ts.

import type { ClusterIdentity, Relist } from './clusterIdentity';
import type { ClusterTarget } from './kubeconfig';
import type { ApiLimits } from './limits';
import type { ReflectorOptions } from './reflector';

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
  /** Which cluster this is: the kube-system Namespace's uid and the server's version (absent for a one-shot reading). */
  identity?: ClusterIdentity;
  /** Lists of everything (or of one resource) from scratch for a reason below; 0 until one happens. */
  relists?: number;
  /** The last of them, and why. */
  lastRelist?: Relist;
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
  /** Bytes per answer and per LIST, request deadline, retries (limits.ts); the defaults when absent. */
  limits?: ApiLimits;
  /** How often the cluster's identity is read (ms; clusterIdentity.ts's default when absent; 0: never periodically). */
  identityCheckMs?: number;
  /** Every watch silent this long lists everything again (ms; clusterIdentity.ts's default when absent; 0: never). */
  silentWatchesRelistMs?: number;
  /** Called after every change to the inventory (coalesce it if it is expensive). */
  onChange?: () => void;
  onStatus?: (status: LiveStatus) => void;
}

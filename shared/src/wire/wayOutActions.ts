// Doing a way out of a stuck deletion on a live cluster, only when asked (issue 18): the editor's one write. The
// server sends it only when `kubeGcLens.cluster.allowWrites` is on, re-simulates first, and sends a server-side
// dry run before the real PATCH (docs/editor.md, "Doing a way out").

/** kubeGcLens/cluster/applyWayOut: which way out of which live object, as the user saw it. */
export interface ApplyWayOutParams {
  /** The stuck live object. */
  uid: string;
  /** The way out's `command`, as shown: the server sends it only if re-simulating gives a way out with the same command. */
  command: string;
  /** The outcome summary the user confirmed: when given, re-simulating must give the same, or nothing is sent. */
  summary?: string;
  /** Only the dry run (`dryRun=All`): nothing is changed. */
  dryRunOnly?: boolean;
  /**
   * (Additive.) The kube-system uid of the cluster the row was computed on (StuckItem.clusterUid): nothing is sent
   * unless the cluster the connection reaches now has it. Without it, the cluster must still be the one the live view
   * was listed from; either way an identity that cannot be read refuses.
   */
  clusterUid?: string;
}

/** A request that was, or was not, sent. */
export interface SentPatch {
  method: 'PATCH';
  /** The URL path with its query (`…/finalizers?dryRun=All`). */
  path: string;
  /** The JSON patch, as sent. */
  body: string;
  /** (Additive.) The uid of the object it is for: its first op tests it, and its User-Agent names it. */
  uid?: string;
}

/**
 * What happened: `refused` nothing was sent (writes off, not connected, the way out is gone or changed); `dry-run`
 * the dry run's answer (a refusal stops there; `dryRunOnly` ends there); `patch` the real PATCH's answer.
 */
export interface ApplyWayOutResult {
  ok: boolean;
  stage: 'refused' | 'dry-run' | 'patch';
  /** The HTTP status (0: not sent, or no answer). */
  status: number;
  /** The apiserver's own message on a refusal (verbatim, cut at 500 characters), else what was done. */
  message: string;
  /** The requests sent, in order. */
  sent: SentPatch[];
  /**
   * (Additive.) The apiserver refused the patch's preconditions: the object is gone, was replaced (another uid) or
   * changed since the way out was shown (its resourceVersion, its finalizers, its replicas). Nothing was changed; the
   * client refreshes what it shows and says so.
   */
  objectChanged?: boolean;
}

// A way out goes only to the cluster its row was computed on: the kube-system Namespace's uid, read again just before
// sending (sources/cluster/clusterIdentity.ts), must be the row's and the live view's. A cluster replaced behind the
// same URL (or one whose identity cannot be read) gets nothing, not even the dry run.

import type { ApplyWayOutParams } from '../../../shared/src/protocol';
import type { ClusterIdentity } from '../sources/cluster/clusterIdentity';

export interface WayOutCluster {
  /** The kube-system uid of the cluster the live view was listed from (undefined: never known). */
  viewUid: string | undefined;
  /** As read just now. */
  now: ClusterIdentity;
}

/** Why nothing may be sent to this cluster, or undefined when it is the row's. */
export function clusterRefusal(p: ApplyWayOutParams, cluster: WayOutCluster): string | undefined {
  const { now, viewUid } = cluster;
  if (now.uid === undefined)
    return `Which cluster this connection reaches cannot be told (${now.problem ?? 'the kube-system Namespace has no uid'}), so nothing was sent: a way out goes only to the cluster it was computed on.`;
  if (p.clusterUid !== undefined && p.clusterUid !== now.uid)
    return `This row was computed on another cluster (kube-system uid ${p.clusterUid}; the connection now reaches ${now.uid}), so nothing was sent. Refresh and look again.`;
  if (viewUid !== now.uid)
    return `The server now answers as another cluster (kube-system uid ${now.uid}; the live view was listed from ${viewUid ?? 'an unknown one'}), so nothing was sent. The view lists everything again: look again once it has.`;
  return undefined;
}

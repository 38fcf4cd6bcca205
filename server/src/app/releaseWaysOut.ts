// Ways out that are the usual real fix, not a skipped cleanup: delete the finished Pods that keep a claim's
// pvc-protection (R87), and remove a platform's entry from a Namespace's spec.finalizers through /finalize (R88).

import type { WayOutRisk } from '../../../shared/src/protocol';
import type { Inventory } from '../engine/inventory';
import { describe, maybeScheduled, splitApiVersion, type KubeObject } from '../engine/model';
import { pasteable, shellWord, urlPathSegment } from '../engine/shellWord';
import type { UserRequest } from '../engine/simulation/changeRequest';
import type { DeleteRequest } from '../engine/simulation/types';

/** What waysOut.ts simulates and ranks (a part of its Candidate). */
export interface ReleaseCandidate {
  requests: UserRequest[];
  title: string;
  risk: WayOutRisk;
  command: string;
  warning?: string;
}

const PVC_PROTECTION = 'kubernetes.io/pvc-protection';
/** The namespace controller's own entry of spec.finalizers (R57). */
export const NAMESPACE_FINALIZER = 'kubernetes';

const isFinished = (pod: KubeObject) => pod.facts.phase === 'Succeeded' || pod.facts.phase === 'Failed';

/**
 * R87: a terminating claim kept by pvc-protection only because Pods that finished (Succeeded or Failed) still name it
 * in a volume: deleting them is the fix (a terminal Pod's DELETE needs no kubelet, R6). None when a Pod that has not
 * finished uses it too, or when none of them finished: `object` is each Pod as the ways out find it.
 */
export function deleteFinishedPods(
  inventory: Inventory,
  claim: KubeObject,
  object: (uid: string) => KubeObject | undefined,
): ReleaseCandidate | undefined {
  if (claim.apiVersion !== 'v1' || claim.kind !== 'PersistentVolumeClaim' || !claim.finalizers.includes(PVC_PROTECTION)) return undefined;
  const finished: KubeObject[] = [];
  for (const read of inventory.objectsIn(claim.namespace ?? '')) {
    if (read.apiVersion !== 'v1' || read.kind !== 'Pod' || !read.facts.claimNames?.includes(claim.name)) continue;
    const pod = object(read.uid);
    if (!pod || !maybeScheduled(pod)) continue;
    // A Pod already being deleted is not deleted again; one still running keeps the claim whatever else goes.
    if (!isFinished(pod) || pod.deletionTimestamp !== undefined) return undefined;
    finished.push(pod);
  }
  if (!finished.length) return undefined;
  const requests: DeleteRequest[] = finished.map((p) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: p.namespace ?? '',
    name: p.name,
    preconditions: { uid: p.uid },
  }));
  const names = finished.map((p) => shellWord(`pod/${p.name}`)).join(' ');
  const which = finished.length === 1 ? `the finished ${describe(finished[0])}` : `the ${finished.length} finished Pods`;
  return {
    requests,
    title: `Delete ${which} that still reference${finished.length === 1 ? 's' : ''} ${describe(claim)}: pvc-protection counts a Pod that has ended (Succeeded or Failed) until it is deleted`,
    risk: 'caution',
    command: pasteable(`kubectl delete ${names} -n ${shellWord(claim.namespace ?? '')}`),
    warning: `their logs and final status go with them (${finished.map((p) => `${p.name}: ${p.facts.phase}`).join(', ')}); nothing that runs is stopped`,
  };
}

/**
 * R88: a terminating Namespace held by an entry of spec.finalizers other than `kubernetes` (a platform's, such as
 * OpenShift's `openshift.io/origin`): that entry removed through the /finalize subresource, each one its own way out.
 */
export function removeNamespaceSpecFinalizers(ns: KubeObject): ReleaseCandidate[] {
  if (ns.kind !== 'Namespace' || splitApiVersion(ns.apiVersion).group !== '') return [];
  const finalize = shellWord(`/api/v1/namespaces/${urlPathSegment(ns.name)}/finalize`);
  return (ns.facts.namespaceFinalizers ?? [])
    .filter((f) => f !== NAMESPACE_FINALIZER && !ns.finalizers.includes(f))
    .map((f) => {
      const slash = f.indexOf('/');
      const owner = slash > 0 ? `the controller of ${f.slice(0, slash)}` : `the controller that owns ${f}`;
      return {
        requests: [{ verb: 'remove-finalizer', target: refOf(ns), finalizer: f }],
        title: `Remove ${f} from the spec.finalizers of namespace ${ns.name} (through /finalize): ${owner} has not removed it`,
        risk: 'dangerous',
        command: pasteable(
          `kubectl get ${shellWord(`namespace/${ns.name}`)} -o json | jq ${shellWord(`.spec.finalizers -= [${JSON.stringify(f)}]`)} | kubectl replace --raw ${finalize} -f -`,
        ),
        warning: `${owner} removes ${f} once it has cleaned up what it keeps for the namespace (objects of its own APIs, or records outside the cluster, such as a platform's project or policy records); removed by hand, whatever it had not cleaned stays behind, and an object of an API it serves may stay in etcd until a namespace named ${ns.name} is created again`,
      };
    });
}

const refOf = (o: KubeObject) => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name });

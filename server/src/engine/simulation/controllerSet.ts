// Who acts besides the apiserver: `gc` (strict, R53), `builtin` (a real cluster: kube-controller-manager's
// controllers, the kubelet, volume provisioners, each custom finalizer's controller) or a list in
// kube-controller-manager's own --controllers spelling, for a control plane that runs exactly those controllers
// (and the apiserver's own: the CRD finalizer) and nothing else (no kubelet, no provisioner, no operator).

/** kube-controller-manager v1.37's controllers (cmd/kube-controller-manager/names), as its flag validates them. */
const KCM_CONTROLLERS = [
  'serviceaccount-token-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'endpointslice-mirroring-controller',
  'replicationcontroller-controller',
  'pod-garbage-collector-controller',
  'resourcequota-controller',
  'namespace-controller',
  'serviceaccount-controller',
  'garbage-collector-controller',
  'daemonset-controller',
  'job-controller',
  'deployment-controller',
  'replicaset-controller',
  'horizontal-pod-autoscaler-controller',
  'disruption-controller',
  'statefulset-controller',
  'cronjob-controller',
  'certificatesigningrequest-signing-controller',
  'certificatesigningrequest-approving-controller',
  'certificatesigningrequest-cleaner-controller',
  'podcertificaterequest-cleaner-controller',
  'ttl-controller',
  'bootstrap-signer-controller',
  'token-cleaner-controller',
  'node-ipam-controller',
  'node-lifecycle-controller',
  'taint-eviction-controller',
  'device-taint-eviction-controller',
  'persistentvolume-binder-controller',
  'persistentvolume-attach-detach-controller',
  'persistentvolume-expander-controller',
  'clusterrole-aggregation-controller',
  'persistentvolumeclaim-protection-controller',
  'persistentvolume-protection-controller',
  'podgroup-protection-controller',
  'ttl-after-finished-controller',
  'root-ca-certificate-publisher-controller',
  'kube-apiserver-serving-clustertrustbundle-publisher-controller',
  'ephemeral-volume-controller',
  'storageversion-garbage-collector-controller',
  'resourceclaim-controller',
  'resourcepoolstatusrequest-controller',
  'legacy-serviceaccount-token-cleaner-controller',
  'validatingadmissionpolicy-status-controller',
  'volumeattributesclass-protection-controller',
  'service-cidr-controller',
  'storage-version-migrator-controller',
  'selinux-warning-controller',
];
const KNOWN = new Set(KCM_CONTROLLERS);

/** Old names kube-controller-manager still accepts (each descriptor's aliases). */
const ALIASES: Record<string, string> = {
  daemonset: 'daemonset-controller',
  statefulset: 'statefulset-controller',
  replicaset: 'replicaset-controller',
  deployment: 'deployment-controller',
  horizontalpodautoscaling: 'horizontal-pod-autoscaler-controller',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  bootstrapsigner: 'bootstrap-signer-controller',
  tokencleaner: 'token-cleaner-controller',
  csrsigning: 'certificatesigningrequest-signing-controller',
  csrapproving: 'certificatesigningrequest-approving-controller',
  csrcleaner: 'certificatesigningrequest-cleaner-controller',
  'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  nodeipam: 'node-ipam-controller',
  nodelifecycle: 'node-lifecycle-controller',
  'persistentvolume-binder': 'persistentvolume-binder-controller',
  attachdetach: 'persistentvolume-attach-detach-controller',
  'persistentvolume-expander': 'persistentvolume-expander-controller',
  'ephemeral-volume': 'ephemeral-volume-controller',
  endpoint: 'endpoints-controller',
  replicationcontroller: 'replicationcontroller-controller',
  podgc: 'pod-garbage-collector-controller',
  resourcequota: 'resourcequota-controller',
  namespace: 'namespace-controller',
  serviceaccount: 'serviceaccount-controller',
  ttl: 'ttl-controller',
  garbagecollector: 'garbage-collector-controller',
  'pvc-protection': 'persistentvolumeclaim-protection-controller',
  'pv-protection': 'persistentvolume-protection-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
  'legacy-service-account-token-cleaner': 'legacy-serviceaccount-token-cleaner-controller',
  'storage-version-gc': 'storageversion-garbage-collector-controller',
  endpointslice: 'endpointslice-controller',
  endpointslicemirroring: 'endpointslice-mirroring-controller',
  disruption: 'disruption-controller',
  'clusterrole-aggregation': 'clusterrole-aggregation-controller',
  'resource-claim-controller': 'resourceclaim-controller',
  'serviceaccount-token': 'serviceaccount-token-controller',
  svm: 'storage-version-migrator-controller',
};

/** Off unless named, even under `*` (isDisabledByDefault). */
const DISABLED_BY_DEFAULT = new Set(['bootstrap-signer-controller', 'token-cleaner-controller', 'selinux-warning-controller']);

export const GARBAGE_COLLECTOR = 'garbage-collector-controller';
export const NAMESPACE_CONTROLLER = 'namespace-controller';
export const PVC_PROTECTION = 'persistentvolumeclaim-protection-controller';
export const PV_PROTECTION = 'persistentvolume-protection-controller';
export const PV_BINDER = 'persistentvolume-binder-controller';

export interface ControllerSet {
  /** As asked: `builtin`, `gc`, or the kube-controller-manager list. */
  readonly spec: string;
  /** `gc`: only the apiserver's request path and the garbage collector (R53); not even the CRD finalizer. */
  readonly strict: boolean;
  /** `builtin`: also a kubelet, volume provisioners and every custom finalizer's controller (a real cluster). */
  readonly realCluster: boolean;
  readonly garbageCollector: boolean;
  readonly namespace: boolean;
  readonly pvcProtection: boolean;
  readonly pvProtection: boolean;
  /** The PV controller: Bound/Released phases and the reclaim policy (R60). */
  readonly pvBinder: boolean;
  readonly kubelet: boolean;
  /** The apiextensions-apiserver's CRD finalizer: part of every real apiserver. */
  readonly crdCleanup: boolean;
  /** Is this kube-controller-manager controller (canonical name) running? */
  runs(controller: string): boolean;
}

/** kube-controller-manager's IsControllerEnabled: the first explicit name or `-name` decides, else `*`. */
function isControllerEnabled(name: string, list: string[]): boolean {
  let star = false;
  for (const c of list) {
    if (c === name) return true;
    if (c === `-${name}`) return false;
    if (c === '*') star = true;
  }
  return star && !DISABLED_BY_DEFAULT.has(name);
}

/** Parses `--controllers`; an error names the first unknown controller as kube-controller-manager does. */
export function parseControllers(spec: string): ControllerSet | { error: string } {
  const trimmed = spec.trim();
  if (trimmed === 'gc' || trimmed === 'builtin')
    return make(trimmed, trimmed === 'builtin' ? ['*'] : [GARBAGE_COLLECTOR], trimmed === 'gc', trimmed === 'builtin');
  const list: string[] = [];
  for (const raw of trimmed.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    if (item === '*') {
      list.push(item);
      continue;
    }
    const off = item.startsWith('-');
    const bare = off ? item.slice(1) : item;
    const name = ALIASES[bare] ?? bare;
    if (!KNOWN.has(name))
      return { error: `"${bare}" is not in the list of known controllers (kube-controller-manager v1.37's names, or builtin or gc)` };
    list.push(off ? `-${name}` : name);
  }
  if (list.length === 0) return { error: 'the controller list is empty' };
  return make(trimmed, list, false, false);
}

/** For callers whose spec was validated where it came in. */
export function controllerSet(spec: string | ControllerSet): ControllerSet {
  if (typeof spec !== 'string') return spec;
  const parsed = parseControllers(spec);
  if ('error' in parsed) throw new Error(`--controllers=${spec}: ${parsed.error}`);
  return parsed;
}

function make(spec: string, list: string[], strict: boolean, realCluster: boolean): ControllerSet {
  const runs = (c: string) => isControllerEnabled(c, list);
  return {
    spec,
    strict,
    realCluster,
    garbageCollector: runs(GARBAGE_COLLECTOR),
    namespace: runs(NAMESPACE_CONTROLLER),
    pvcProtection: runs(PVC_PROTECTION),
    pvProtection: runs(PV_PROTECTION),
    pvBinder: runs(PV_BINDER),
    kubelet: realCluster,
    crdCleanup: !strict,
    runs,
  };
}

/** One line for reports: who acts. */
export function describeControllers(set: ControllerSet): string {
  if (set.strict)
    return "gc (strict: only the apiserver and the garbage collector act; no kubelet, no namespace controller, no finalizer is removed but the GC's)";
  if (set.realCluster)
    return "builtin (kubelet, namespace controller, pvc/pv-protection, the PV controller and volume provisioners, CRD cleanup, and each custom finalizer's controller while its workload runs)";
  const modelled = [GARBAGE_COLLECTOR, NAMESPACE_CONTROLLER, PVC_PROTECTION, PV_PROTECTION, PV_BINDER].filter((c) => set.runs(c));
  return `${set.spec} (modelled here: ${modelled.join(', ') || 'none'}, and the apiserver's CRD cleanup; no kubelet, no volume provisioner, no operator)`;
}

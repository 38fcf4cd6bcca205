// The engine's data model: plain, serialisable objects. Everything the engine knows about a Kubernetes
// object is here; the sources (manifest files, DOT dumps, later the live cluster) produce these and
// nothing else crosses into the engine.

/** 0-based line and UTF-16 character, as LSP counts them. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** Absent and false mean the same to Kubernetes; kept apart so output can echo the manifest. */
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Ranges of one `metadata.ownerReferences[i]` entry and of each of its fields that is present. */
export interface OwnerReferenceRanges {
  entry: Range;
  apiVersion?: Range;
  kind?: Range;
  name?: Range;
  uid?: Range;
  controller?: Range;
  blockOwnerDeletion?: Range;
}

/**
 * Where in a source an object's fields are. Filled while reading YAML (the CLI's loader: read from the object's
 * document when first asked for), on demand for JSON (see sources/).
 */
export interface FieldRanges {
  object: Range;
  apiVersion?: Range;
  kind?: Range;
  name?: Range;
  namespace?: Range;
  uid?: Range;
  ownerReferences?: Range;
  ownerReferenceEntries: OwnerReferenceRanges[];
  finalizers?: Range;
  finalizerEntries: Range[];
  deletionTimestamp?: Range;
}

export interface ObjectSource {
  /** File path (CLI) or document URI (LSP), exactly as the source named it; "-" for stdin. */
  file: string;
  /** Index of the YAML document in the file (0 for JSON). */
  docIndex: number;
  /** Indexes into `items` of enclosing List documents, outermost first; empty for a top-level object. */
  itemPath: number[];
  /** Present once positions are known. */
  ranges?: FieldRanges;
}

/** The few spec/status facts the modelled controllers need. Everything else in a manifest is ignored. */
export interface ObjectFacts {
  /** Pod: spec.nodeName (empty = never scheduled, deleted at once, R6). */
  nodeName?: string;
  /** Pod, Namespace, PersistentVolume: status.phase. */
  phase?: string;
  /** Pod: spec.terminationGracePeriodSeconds (the API defaults it to 30, R53). */
  terminationGracePeriodSeconds?: number;
  /** Pod: claimName of every persistentVolumeClaim volume (pvc-protection). */
  claimNames?: string[];
  /** Pod: the name of every ephemeral volume; its claim is `<pod>-<volume>` (pvc-protection, R59). */
  ephemeralVolumes?: string[];
  /** Namespace: spec.finalizers (the namespace controller's `kubernetes`, R11). */
  namespaceFinalizers?: string[];
  /**
   * Namespace: status.conditions, as the namespace controller last wrote them while deleting its content
   * (NamespaceDeletionDiscoveryFailure, NamespaceDeletionGroupVersionParsingFailure, NamespaceDeletionContentFailure,
   * NamespaceContentRemaining, NamespaceFinalizersRemaining). Observed facts, in stored order; the simulation does
   * not change them.
   */
  namespaceConditions?: NamespaceCondition[];
  /** PersistentVolumeClaim: spec.volumeName. */
  volumeName?: string;
  /** PersistentVolume: spec.claimRef. */
  claimRef?: { namespace: string; name: string; uid?: string };
  /** PersistentVolume: spec.persistentVolumeReclaimPolicy (the API defaults it to Retain). */
  reclaimPolicy?: string;
  /** PersistentVolume: the `pv.kubernetes.io/provisioned-by` annotation (who deletes it, R60). */
  provisionedBy?: string;
  /** CustomResourceDefinition: what it serves. */
  crd?: CrdFacts;
  /**
   * Only the metadata was read (a live cluster is listed metadata-only): spec and status facts are unknown, not
   * absent. A Pod is then taken to be scheduled (a kubelet finishes its graceful deletion). Facts given alongside
   * it are known: a live Pod read in full once keeps the ones the API never changes (claimNames,
   * terminationGracePeriodSeconds, a nodeName once set) across later metadata-only updates.
   */
  specUnread?: true;
  /** Workloads (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, Pod): container images, to guess
   * which workload runs the controller that owns a custom finalizer. */
  images?: string[];
  /**
   * Deployment and StatefulSet (apps): `spec.replicas: 0`, so the controller it runs, if it is one, runs no Pod (R73).
   * Only zero matters: two copies of a workload that differ in their replica count otherwise are not in conflict.
   */
  scaledToZero?: true;
  /** APIService (apiregistration.k8s.io): the group/version it serves, its Service, and its Available condition. */
  apiService?: ApiServiceFacts;
  /** ValidatingWebhookConfiguration and MutatingWebhookConfiguration (admissionregistration.k8s.io): its webhooks. */
  webhooks?: WebhookFacts[];
  /**
   * EndpointSlice (discovery.k8s.io: endpoints whose `conditions.ready` is not false) and Endpoints (v1: the
   * addresses of its subsets): how many endpoints are ready. Absent when not read (a metadata-only listing).
   */
  readyEndpoints?: number;
}

/** A Service an APIService or a webhook calls. */
export interface ServiceReference {
  namespace: string;
  name: string;
  /**
   * What the reader saw of it when it could look (a live cluster: the Service and its EndpointSlices read by name):
   * absent, the engine works it out from the objects it holds (engine/simulation/clusterBlockers.ts).
   */
  state?: 'ready' | 'no-endpoints' | 'missing';
}

export interface ApiServiceFacts {
  group: string;
  version: string;
  /** spec.service; absent for a local APIService (served by kube-apiserver itself, always available). */
  service?: ServiceReference;
  /** status.conditions[type=Available], as kube-aggregator's availability controller last wrote it. */
  available?: { status: string; reason?: string; message?: string };
}

/** One rule of a webhook (operations × groups × versions × resources, scope). */
export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  /** `pods`, `pods/status`, `namespaces/finalize`; `*` stands for any resource, or any subresource after the slash. */
  resources: string[];
  /** `*` (default), `Cluster` or `Namespaced`. */
  scope?: string;
}

/** A label selector as the API writes it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface WebhookFacts {
  name: string;
  /** `Fail` (admissionregistration.k8s.io/v1's default) or `Ignore`. */
  failurePolicy: string;
  /** `Equivalent` (v1's default) or `Exact`. */
  matchPolicy: string;
  rules: WebhookRule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /** clientConfig.service; absent when the webhook is called by URL (its reachability is unknown). */
  service?: ServiceReference;
  /** How many CEL matchConditions it has (not evaluated: a webhook with some may not match). */
  matchConditions?: number;
}

/** One entry of a Namespace's status.conditions. `status` is "True" while the condition holds. */
export interface NamespaceCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CrdFacts {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  listKind?: string;
  namespaced: boolean;
  /** Served version names, storage-preferred first as the apiserver orders them. */
  servedVersions: string[];
}

/** One Kubernetes object as the engine sees it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** "" for cluster-scoped objects (after normalisation, see engine/inventory.ts). */
  namespace: string;
  uid: string;
  /** The uid was made up by us (hand-written manifest); see syntheticUid(). */
  syntheticUid?: boolean;
  ownerReferences: OwnerReference[];
  /** metadata.finalizers, in stored order. */
  finalizers: string[];
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  creationTimestamp?: string;
  generation?: number;
  /** metadata.resourceVersion as read (a live object's, an export's): a write's precondition, never compared otherwise. */
  resourceVersion?: string;
  labels?: Record<string, string>;
  facts: ObjectFacts;
  source?: ObjectSource;
}

/** What identifies a node of the GC's graph (R18/R19): coordinates plus namespace. */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const NAMESPACE_FINALIZER = 'kubernetes';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function isGcFinalizer(f: string): boolean {
  return f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER;
}

const apiVersionParts = new Map<string, { readonly group: string; readonly version: string }>();

/** A Pod that has a node, or may have one (its spec was not read): a kubelet must confirm its deletion. */
export function maybeScheduled(pod: KubeObject): boolean {
  return Boolean(pod.facts.nodeName) || pod.facts.specUnread === true;
}

/** Group and version of an apiVersion ("apps/v1" → apps, v1; "v1" → core ""). Memoised: called on every lookup. */
export function splitApiVersion(apiVersion: string): { readonly group: string; readonly version: string } {
  let parts = apiVersionParts.get(apiVersion);
  if (!parts) {
    const slash = apiVersion.indexOf('/');
    parts = slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
    if (apiVersionParts.size < 10_000) apiVersionParts.set(apiVersion, parts);
  }
  return parts;
}

export function identityOf(o: KubeObject): ObjectIdentity {
  return { apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid };
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion && a.namespace === b.namespace;
}

/** "Deployment shop/web" or "Namespace shop": how kubectl users name an object in prose. */
export function describe(id: { kind: string; namespace: string; name: string }): string {
  return id.namespace ? `${id.kind} ${id.namespace}/${id.name}` : `${id.kind} ${id.name}`;
}

/**
 * The stable made-up uid of an object that has none. It is a function of the object's group, kind,
 * namespace and name, so an ownerReference without a uid can be pointed at the same object.
 */
export function syntheticUid(group: string, kind: string, namespace: string, name: string): string {
  return flatString(`synthetic:${group || 'core'}/${kind}/${namespace || '-'}/${name}`);
}

/**
 * The same text as one piece of memory. A string joined from parts is held by V8 as the tree of its parts (32 bytes
 * a join), and reading it flattens a copy without freeing the tree; text kept for each of 200,000 objects (a
 * synthetic uid, a finding's message) is less than half the size once copied flat. Slicing a fresh join copies it.
 */
export function flatString(s: string): string {
  return (' ' + s).slice(1);
}

export function isSyntheticUid(uid: string): boolean {
  return uid.startsWith('synthetic:');
}

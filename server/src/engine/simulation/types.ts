// Inputs and outputs of the deletion simulation. These shapes are what `kubectl-gc simulate -o json`
// prints (README, "JSON contract"), so change them only with a version note.

import type { KubeObject, NamespaceCondition, ObjectIdentity, OwnerReference } from '../model';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/**
 * Who acts besides the apiserver (controllerSet.ts parses it).
 * - `gc` (strict, R53): only the garbage collector. Foreign finalizers stay, no kubelet, no namespace controller.
 * - `builtin` (realistic): the kubelet, the namespace controller, pvc/pv-protection, the PV controller and volume
 *   provisioners, the CRD cleanup, and the controller behind each custom finalizer while its workload keeps running.
 * - a kube-controller-manager `--controllers` list (`garbage-collector-controller,namespace-controller`, `*`,
 *   `-name`): exactly those controllers and the apiserver's CRD cleanup; no kubelet, provisioner or operator.
 */
export type ControllersMode = string;

export type RequestArrival = 'settled' | 'back-to-back';

/** One way to clear a blocker outside ownership (issue 18), as data a "ways out" list can print and simulate. */
export interface BlockerFix {
  title: string;
  /** The exact kubectl command, when one does it. */
  command?: string;
  risk: 'safe' | 'caution' | 'dangerous';
}

/** Which object a change is sent to, as kubectl names it. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  /** "" for cluster-scoped kinds. */
  namespace: string;
  name: string;
}

/** Requests besides DELETE (issue 18, R73, R76); changeRequest.ts applies them. */
export type ChangeRequest =
  /** `kubectl patch --type=json -p '[{"op":"remove","path":"/metadata/finalizers/N"}]'` (a Namespace's spec.finalizers: /finalize). */
  | { verb: 'remove-finalizer'; target: ObjectRef; finalizer: string }
  /** A PATCH that removes the ownerReference to `ownerUid`. */
  | { verb: 'remove-owner-reference'; target: ObjectRef; ownerUid: string }
  /** A PATCH that replaces the ownerReference to `ownerUid` with `to` (a fixed uid, kind or name). */
  | { verb: 'set-owner-reference'; target: ObjectRef; ownerUid: string; to: OwnerReference }
  /** `kubectl scale --replicas=N`: a workload scaled to 0 runs no controller. */
  | { verb: 'scale'; target: ObjectRef; replicas: number }
  /** The controller that removes `finalizer` runs again (its operator reinstalled, outside this input); `for`: the
   * object it is meant to release, which a report names. */
  | { verb: 'restore-controller'; finalizer: string; for?: ObjectRef }
  /** A PATCH of one webhook's failurePolicy in a Validating/MutatingWebhookConfiguration (`target`). */
  | { verb: 'set-webhook-failure-policy'; target: ObjectRef; webhook: string; failurePolicy: 'Ignore' | 'Fail' }
  /** The Pods behind Service `target` are ready again (restored outside this input): its EndpointSlices get ready
   * endpoints and the APIServices it serves become Available, as their controllers would write it. */
  | { verb: 'restore-backend'; target: ObjectRef };

export type ChangeVerb = ChangeRequest['verb'];

/** What a simulation applies, in order: DELETEs and changes. */
export type UserRequest = DeleteRequest | ChangeRequest;

/** One DELETE request, as a client would send it. */
export interface DeleteRequest {
  /** The group-version of the request URL: it decides the per-type default policy (R5). */
  apiVersion: string;
  kind: string;
  /** "" for cluster-scoped kinds. */
  namespace: string;
  name: string;
  /** null or absent: the request names no policy and the per-type default applies (R5). */
  propagationPolicy?: PropagationPolicy | null;
  /** The deprecated DeleteOptions.orphanDependents (R1–R3). */
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * Says which workload runs the controller that removes a custom finalizer. `finalizer` is an exact name, or
 * a prefix when it ends with `*` (e.g. `kafka.strimzi.io/*`). `external: true` declares a controller that runs
 * outside the input (it is assumed to keep running); `running: false` declares it absent.
 */
export interface FinalizerOwnerRule {
  finalizer: string;
  workload?: { kind: string; namespace: string; name: string };
  external?: boolean;
  running?: boolean;
}

export interface SimulationOptions {
  controllers: ControllersMode;
  finalizerOwners?: FinalizerOwnerRule[];
  /** How the front end says to name a finalizer's owner ("pass --finalizer-owner …"); the editor's setting by default. */
  finalizerOwnerHint?: string;
  /**
   * false: a custom finalizer whose owner is only guessed counts as removed by nobody, so that what finishes only
   * if a guess is right shows as stuck (the stuck list's second look). Default true: the guess is used.
   */
  trustGuesses?: boolean;
  /** Hard bound on processed work items; reaching it ends the run with `aborted`, never a hang. */
  maxSteps?: number;
  /** Simulated wall clock at the start (ISO 8601). Deterministic by default. */
  now?: string;
  /**
   * How several requests arrive (R63): `settled` (default, R53.4) sends each once the previous one has settled;
   * `back-to-back` sends them all before the GC or any controller acts, as `kubectl delete a b c` does.
   */
  arrival?: RequestArrival;
  /** The Kubernetes version whose behaviour to follow (`1.32`); the newest followed (1.37) when absent. */
  kubeVersion?: string;
  /**
   * false: the steps are numbered but not kept (`steps` is empty; everything else is the same), for callers that read
   * only the outcome: the analysis's settling of 200,000 objects otherwise holds 400,000 steps it never reads.
   */
  keepSteps?: boolean;
}

export type StepAction =
  | 'delete' // a DELETE request was accepted (detail: the policy and what the apiserver did)
  | 'add-finalizer'
  | 'remove-finalizer'
  | 'patch-owner-references'
  | 'update-status' // a controller changed the object's status (detail: which field, e.g. a PersistentVolume's phase)
  | 'update-spec' // the user's change of a spec field (detail: which, e.g. a workload's spec.replicas)
  | 'restore-controller' // the controller that removes a finalizer runs again (target: an object waiting for it)
  | 'remove' // the object left storage
  | 'reject'; // a request the apiserver refused (detail: why)

/** Who did it: apiserver, garbage-collector, namespace-controller, kubelet, or a named controller. */
export type Actor = string;

export interface SimulationStep {
  step: number;
  actor: Actor;
  action: StepAction;
  target: ObjectIdentity;
  detail: string;
  /** Set on the steps of the user's own request: its index in the requests. Unset on everything the GC and controllers do. */
  request?: number;
}

export interface DeletedEntry extends ObjectIdentity {
  /** The step at which the object left storage. */
  step: number;
}

export interface OrphanedEntry extends ObjectIdentity {
  /** The owner whose reference was removed while the object stayed. */
  ownerUID: string;
}

export interface RemainingEntry extends ObjectIdentity {
  finalizers: string[];
  beingDeleted: boolean;
  ownerReferences: OwnerReference[];
}

export type BlockType =
  | 'finalizer' // a finalizer nobody will remove
  | 'waiting-for-dependents' // foregroundDeletion held by a blocking dependent
  | 'graceful-termination' // a Pod waiting for a kubelet that does not come
  | 'namespace-content' // a Namespace waiting for its contents to go
  | 'namespace-controller' // a Namespace whose spec.finalizers nobody processes (strict mode, R11), or whose
  //                          controller reported a discovery failure and does not finalize it
  | 'unresolvable-owner' // a reference the GC cannot resolve, retried forever (R46)
  | 'invalid-scope' // a cluster-scoped dependent of a namespaced kind, never collected (R45)
  | 'unavailable-apiservice' // an aggregated APIService is not Available: the namespace controller's discovery fails (R74)
  | 'blocking-webhook'; // a failurePolicy: Fail webhook without a backend rejects a request the deletion needs (R75)

/** One link of a "why is this stuck" chain. */
export interface BlockReason {
  type: BlockType;
  message: string;
  finalizer?: string;
  /** The controller that would act (e.g. "namespace-controller", "Deployment operators/strimzi"). */
  controller?: string;
  /** The other object involved: the blocking dependent, the controller's workload, the remaining content. */
  object?: ObjectIdentity;
  /** The step at which `object` was deleted, when that is why the controller is gone. */
  step?: number;
  /** Why `object` itself cannot finish. */
  blockedBy?: BlockReason[];
  /**
   * A Namespace's reasons (`namespace-content`, `namespace-controller`): the status conditions that hold (status
   * "True") as the cluster's namespace controller last reported them. Observed, not simulated: what is left at
   * the end of the simulation is in `message` and `blockedBy`.
   */
  conditions?: NamespaceCondition[];
  /**
   * How to clear this blocker (`unavailable-apiservice`, `blocking-webhook`), safest first: data a "ways out" list
   * prints and simulates.
   */
  fixes?: BlockerFix[];
  /** Set when `object` belongs to the control plane or cluster infrastructure: it is never to be deleted (no fix deletes it). */
  infrastructure?: string;
}

export interface StuckEntry extends ObjectIdentity {
  finalizers: string[];
  /** One sentence for a person. */
  reason: string;
  blockedBy: BlockReason[];
}

/** Where one of the user's requests reached the apiserver in the timeline, and what it answered. */
export interface RequestSent {
  /** How many steps were recorded before it arrived: its own steps (if any) come after. */
  afterStep: number;
  /** The apiserver's answer when the request itself changed nothing and so has no step ("… is already terminating"). */
  unchanged?: string;
}

export interface SimulationResult {
  deleted: DeletedEntry[];
  orphaned: OrphanedEntry[];
  remaining: RemainingEntry[];
  stuck: StuckEntry[];
  steps: SimulationStep[];
  /** One per request sent, in order (a request not sent because the run was cut short has none). */
  requests?: RequestSent[];
  /** Outcomes that depend on timing or on assumptions (R51, guessed finalizer controllers). */
  notes: string[];
  /** Set when the step bound was reached: the result is partial. */
  aborted?: string;
  /** The Kubernetes version whose behaviour the simulation followed (`1.37`); simulate() always sets it. */
  kubernetesVersion?: string;
  /** Who acted (`builtin`, `gc` or the kube-controller-manager list given); simulate() always sets it. */
  controllers?: string;
  /**
   * The object `uid` as the run left it (undefined once removed, or never stored): the state a later request starts
   * from. simulate() sets it, not enumerable, so the result's JSON and equality are unchanged.
   */
  finalObject?: (uid: string) => KubeObject | undefined;
}

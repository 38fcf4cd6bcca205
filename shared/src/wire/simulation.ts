// A simulation as it crosses a boundary: what the editor asks (SimulateParams), the Report every front end shows
// (`kubectl gc simulate -o json`, the editor's Simulate Delete, the graph's playback) and the stuck list.

import type { NamespaceCondition, ObjectIdentity, ObjectSummary, SourceLocation } from './objects';
import type { PlanRequest } from './planRequests';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** "API default" sends no propagationPolicy, so the per-type default applies (R5). */
export type PolicyChoice = 'default' | PropagationPolicy;

/** Every choice, in the order pickers offer them. */
export const POLICY_CHOICES: readonly PolicyChoice[] = ['default', 'Background', 'Foreground', 'Orphan'];

export function isPolicyChoice(v: unknown): v is PolicyChoice {
  return (POLICY_CHOICES as readonly unknown[]).includes(v);
}

/** `builtin`, `gc`, or a kube-controller-manager `--controllers` list (`garbage-collector-controller,…`, `*`, `-name`). */
export type ControllersMode = string;

export interface SimulationStep {
  step: number;
  /** apiserver, garbage-collector, namespace-controller, kubelet, or a named controller. */
  actor: string;
  action:
    | 'delete'
    | 'add-finalizer'
    | 'remove-finalizer'
    | 'patch-owner-references'
    | 'update-status'
    | 'update-spec'
    | 'restore-controller'
    | 'remove'
    | 'reject';
  target: ObjectIdentity;
  detail: string;
  /** Set on the steps of the user's own request: its index in the requests. */
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

export type BlockType =
  | 'finalizer'
  | 'waiting-for-dependents'
  | 'graceful-termination'
  | 'namespace-content'
  | 'namespace-controller'
  | 'unresolvable-owner'
  | 'invalid-scope'
  | 'unavailable-apiservice'
  | 'blocking-webhook';

/** (Additive to version 2.) One way to clear a blocker outside ownership: what to do, the kubectl command, how risky. */
export interface BlockerFix {
  title: string;
  command?: string;
  risk: 'safe' | 'caution' | 'dangerous';
}

/** One link of a "why is this stuck" chain (docs/cli.md, JSON contracts). */
export interface BlockReason {
  type: BlockType;
  message: string;
  finalizer?: string;
  controller?: string;
  object?: ObjectIdentity;
  step?: number;
  blockedBy?: BlockReason[];
  conditions?: NamespaceCondition[];
  /** (Additive to version 2.) `unavailable-apiservice`, `blocking-webhook`: how to clear it, safest first. */
  fixes?: BlockerFix[];
  /** (Additive to version 2.) Why `object` is control-plane or cluster infrastructure: never to be deleted. */
  infrastructure?: string;
}

export interface StuckEntry extends ObjectIdentity {
  finalizers: string[];
  /** One sentence for a person. */
  reason: string;
  blockedBy: BlockReason[];
}

export interface SimulateParams {
  uid: string;
  policy: PolicyChoice;
  /** Defaults to the `kubeGcLens.simulation.controllers` setting. */
  controllers?: ControllersMode;
}

/**
 * Why an object is in a report's list: `request`, a consequence of the DELETE(s); `settling`, the garbage collector
 * does it to the input as given anyway (absent owners, objects already terminating), with no DELETE at all.
 */
export type Cause = 'request' | 'settling';

/** The version of the Report shape (`kubectl gc simulate -o json` prints it as `version`). */
export const REPORT_VERSION = 2;

/** What became of the object one request named. */
export interface TargetReport {
  /** The request's index in the plan (0 for a single DELETE). */
  request: number;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** Absent when the input holds no such object. */
  uid?: string;
  outcome: TargetOutcome;
  /**
   * (Added in 0.1.0, additive to version 2.) How many steps of `steps` came before the request reached the apiserver:
   * where the timeline's "The request" starts. Absent when the run was cut short before it was sent.
   */
  afterStep?: number;
  /** (Additive to version 2.) The apiserver's answer when the request changed nothing and so has no step of its own. */
  unchanged?: string;
  /** (Additive to version 2.) A request besides DELETE: what it changes (absent for a DELETE). */
  change?: ChangeSummary;
}

/** A request besides DELETE, as a report names it: the change a way out of a stuck deletion makes. */
export interface ChangeSummary {
  verb:
    | 'remove-finalizer'
    | 'remove-owner-reference'
    | 'set-owner-reference'
    | 'scale'
    | 'restore-controller'
    /** (Additive to version 2.) A webhook's failurePolicy set (detail: `webhook=Ignore`). */
    | 'set-webhook-failure-policy'
    /** (Additive to version 2.) The Pods behind a Service ready again (detail: `namespace/name`). */
    | 'restore-backend';
  /**
   * The finalizer removed or whose controller is restored; the owner uid whose reference is removed or replaced; the
   * replicas; `webhook=policy`; the Service `namespace/name`.
   */
  detail: string;
}

/** How safe a way out is: `safe` lets Kubernetes finish; `caution` changes ownership; `dangerous` skips a cleanup. */
export type WayOutRisk = 'safe' | 'caution' | 'dangerous';

/** One way out of a stuck deletion, simulated before it is taken (issue 18). */
export interface WayOut {
  /** What to do, for a person: "Scale Deployment kafka/strimzi-cluster-operator up to 1". */
  title: string;
  risk: WayOutRisk;
  /**
   * The exact kubectl command (with a JSON patch `test` op, so it fails if the object changed), or, where no single
   * command does it (reinstalling an operator), a shell comment saying what to do.
   */
  command: string;
  /** What the way out skips or leaks, when it is not safe: a finalizer's cleanup, the volume a claim protects. */
  warning?: string;
  /** Set when the object changed is control-plane or cluster infrastructure. */
  infrastructure?: string;
  /**
   * (Additive.) Set when the editor can send this way out to a live cluster (`kubeGcLens/cluster/applyWayOut`): the
   * JSON patch it sends, exactly. Absent on comments (reinstall an operator, restore a Service's Pods), DELETEs and a
   * Namespace's finalize.
   */
  patch?: WayOutPatch;
  /**
   * (Additive.) The requests it makes, as a plan's `requests` entries: kubeGcLens/simulateRequests (or a plan file)
   * gives its whole Report, timeline included.
   */
  requests?: PlanRequest[];
  /** The simulated outcome of that change: the Report's summary, counts and lists (no timeline). */
  outcome: WayOutOutcome;
}

/** One operation of a JSON patch (RFC 6902); `replace` (additive) sets a member that must be there. */
export interface JsonPatchOp {
  op: 'test' | 'remove' | 'add' | 'replace';
  path: string;
  value?: unknown;
}

/** The PATCH of a way out: `application/json-patch+json`, its `test` op first, so it fails if the object changed. */
export interface WayOutPatch {
  /** The object it is sent to (not always the stuck one: a blocking dependent, the operator's Deployment). */
  target: ObjectIdentity;
  /** `scale`: the workload's scale subresource (as `kubectl scale`); absent: the object itself. */
  subresource?: 'scale';
  ops: JsonPatchOp[];
}

/** A way out's outcome names what stays stuck, without ways out of its own (a way out is one change deep). */
export type WayOutOutcome = Pick<Report, 'summary' | 'counts' | 'deleted' | 'orphaned' | 'notes'> & {
  stuck: (StuckEntry & { cause: Cause })[];
};

/** One object a report leaves stuck, and why it is in the list. */
export interface ReportStuckEntry extends StuckEntry {
  cause: Cause;
  /**
   * (Additive to version 2.) On what the request(s) newly leave stuck (`cause: "request"`), for the first few of them:
   * the ways out, safest first, each simulated from the state after the request(s) (its command is what to run
   * then; its outcome what it changes from there). A report's notes say when some were left without.
   */
  waysOut?: WayOut[];
}

/**
 * What a simulation means, the same for every front end (server/src/app/report.ts builds it): `kubectl gc simulate
 * -o json`, the editor's Simulate Delete report and the graph's playback. Version 1's fields (the simulation
 * result's) keep their place; each list entry gains its `cause`.
 */
export interface Report {
  version: typeof REPORT_VERSION;
  /** One line, what the request causes: "Deleting Deployment shop/web: 5 objects deleted (…), 0 stuck, 0 orphaned". */
  summary: string;
  targets: TargetReport[];
  /** The counts the summary gives: caused by the request(s), not what the GC does anyway. */
  counts: ImpactSummary;
  deleted: (DeletedEntry & { cause: Cause })[];
  orphaned: (OrphanedEntry & { cause: Cause })[];
  stuck: ReportStuckEntry[];
  steps: SimulationStep[];
  notes: string[];
  /** Set when the step bound was reached: the result is partial. */
  aborted?: string;
  /** The Kubernetes version whose behaviour the simulation followed. */
  kubernetesVersion?: string;
  /** Who acted: `builtin`, `gc` or a kube-controller-manager list. */
  controllers: ControllersMode;
}

/** kubeGcLens/simulate (v3: the Report itself, with what the editor needs besides). */
export interface SimulateReport extends Report {
  target: ObjectIdentity;
  policy: PolicyChoice;
  /** uid → where the object is written, for every object the report names. */
  locations: Record<string, SourceLocation>;
  outcome: TargetOutcome;
  /** The same one line as the code lens, e.g. "Delete: also 1 ReplicaSet, 3 Pods · 1 stuck (pvc-protection)". */
  title: string;
}

/** kubeGcLens/simulateRequests (a version 3 addition): any requests, DELETEs or changes, in a plan's spelling. */
export interface SimulateRequestsParams {
  /** At least one; simulated in this order. */
  requests: PlanRequest[];
  /** How several requests arrive: each after the previous one settled (the default), or all back to back. */
  arrival?: 'settled' | 'back-to-back';
  /** Defaults to the `kubeGcLens.simulation.controllers` setting. */
  controllers?: ControllersMode;
}

/** kubeGcLens/simulateRequests' answer: the Report of those requests, with what the editor needs besides. */
export interface RequestsReport extends Report {
  /** The requests simulated, as sent (a namespaced object without a namespace placed in the default one). */
  requests: PlanRequest[];
  /** What was asked, as the summary line opens: "Removing finalizer F from Kafka kafka/my-cluster". */
  subject: string;
  /** uid → where the object is written, for every object the report names. */
  locations: Record<string, SourceLocation>;
}

export interface ImpactSummary {
  /** kind → how many objects of it are deleted because of this DELETE (the target included; garbage the GC collects anyway is not). */
  deletedByKind: Record<string, number>;
  orphaned: number;
  stuck: number;
  /** The first stuck object's first blocking reason, e.g. "pvc-protection". */
  stuckBecause?: string;
}

/** What became of the object the DELETE named; `collected`: the GC removes it even without the DELETE. */
export type TargetOutcome = 'deleted' | 'collected' | 'stuck' | 'rejected' | 'unchanged';

/**
 * (v3: the object's fields at the top, as `kubectl gc stuck -o json` has always printed them; `state` was `kind`.)
 * One answer for the editor's Stuck Objects and `kubectl gc stuck` (server/src/app/stuck.ts).
 */
export interface StuckItem extends ObjectSummary {
  /**
   * `stuck`: terminating now and cannot finish; `slow`: terminating longer than the threshold but able to finish;
   * the deadlocks are predicted: what a DELETE would leave hanging.
   */
  state: 'stuck' | 'slow' | 'finalizer-deadlock' | 'foreground-deadlock';
  /** One sentence for a person. */
  reason: string;
  /** The why-chain: finalizer → controller → its state; foreground wait → dependent → its reason. */
  blockedBy: BlockReason[];
  /** Its deletionTimestamp, or null when it is not terminating (a predicted deadlock). */
  since: string | null;
  /** Seconds since deletionTimestamp, when known relative to the newest timestamp in the input. */
  ageSeconds?: number;
  /**
   * uid → where it is written, for the objects `blockedBy` names (a blocking dependent, a controller's workload),
   * so the client can reveal them. Optional: without it only the root object (`object.location`) is revealable.
   */
  locations?: Record<string, SourceLocation>;
  /**
   * A Namespace's status conditions that hold (status "True"), as its namespace controller last reported them
   * (NamespaceContentRemaining, NamespaceFinalizersRemaining, NamespaceDeletionDiscoveryFailure, …): what the
   * cluster says, beside the engine's why-chain. Only on Namespaces that have some.
   */
  namespaceConditions?: NamespaceCondition[];
  /**
   * (Additive.) On a `stuck` entry the simulation sees finish only by trusting a guess of which workload removes a
   * custom finalizer: that guess, as "finishes if <workload> is its controller (guessed from …)". Its why-chain and
   * ways out are those with no guess trusted.
   */
  guess?: string;
  /** (Additive.) The ways out of a `stuck` entry, safest first, each simulated. */
  waysOut?: WayOut[];
  /** (Additive.) A live entry: the kube-system uid of the cluster it was computed on (ApplyWayOutParams.clusterUid). */
  clusterUid?: string;
}

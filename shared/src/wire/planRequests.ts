// A simulation's requests as a plan's `requests` list spells them (`kubectl gc simulate --plan`, docs/cli.md): a DELETE
// or a change besides it (issue 18), each naming its object by apiVersion, kind, namespace and name. The editor
// protocol takes the same entries (kubeGcLens/simulateRequests), and a way out carries the ones it sends, so one
// spelling serves plans, the CLI's JSON and the editor. No imports: simulation.ts refers to these.

/** The object a request names; `namespace` absent, null or "" on a namespaced kind: the input's default namespace. */
export interface PlanTarget {
  apiVersion: string;
  kind: string;
  namespace?: string | null;
  name: string;
}

export interface PlanDelete extends PlanTarget {
  verb: 'delete';
  /** null or absent: none is sent, the type's own default applies. */
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan' | null;
  /** null or absent: not given (kube-apiserver reads DeleteOptions' null as absent). */
  orphanDependents?: boolean | null;
  gracePeriodSeconds?: number | null;
}

/** The ownerReference a `set-owner-reference` writes instead of the one it replaces. */
export interface PlanOwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export type PlanChange =
  | (PlanTarget & { verb: 'remove-finalizer'; finalizer: string })
  | (PlanTarget & { verb: 'remove-owner-reference'; ownerUid: string })
  | (PlanTarget & { verb: 'set-owner-reference'; ownerUid: string; to: PlanOwnerReference })
  | (PlanTarget & { verb: 'scale'; replicas: number })
  /** The object is optional here: the one it is meant to release (all of apiVersion, kind and name, or none). */
  | (Partial<PlanTarget> & { verb: 'restore-controller'; finalizer: string })
  | (PlanTarget & { verb: 'restore-backend' })
  | (PlanTarget & { verb: 'set-webhook-failure-policy'; webhook: string; failurePolicy: 'Ignore' | 'Fail' });

/** One entry of a plan's `requests`. */
export type PlanRequest = PlanDelete | PlanChange;

export type PlanVerb = PlanRequest['verb'];

/** The verbs besides DELETE, in the order docs/cli.md lists them (also simulate's request flags, `--VERB`). */
export const CHANGE_VERBS = [
  'remove-finalizer',
  'remove-owner-reference',
  'set-owner-reference',
  'scale',
  'restore-controller',
  'restore-backend',
  'set-webhook-failure-policy',
] as const satisfies readonly PlanVerb[];

/** Every verb, in the order docs/cli.md lists them. */
export const PLAN_VERBS: readonly PlanVerb[] = ['delete', ...CHANGE_VERBS];

/** The client command the editor's "Simulate …" code actions run (the VS Code client registers it). */
export const SIMULATE_REQUESTS_COMMAND = 'kubeGcLens.simulateRequests';

/**
 * Its one argument: requests to simulate, or a workload whose replicas the user is asked for first (`replicas`: the
 * count the question suggests). `source`: the workspace's manifests (the default) or the live cluster.
 */
export type SimulateRequestsArgs =
  | { source?: 'workspace' | 'cluster'; requests: PlanRequest[] }
  | { source?: 'workspace' | 'cluster'; scale: PlanTarget; replicas?: number };

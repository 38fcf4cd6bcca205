// Simulating requests besides DELETE from the editor (issue 18): what the "Simulate …" code actions and a way out's
// Open Simulated Report hand the kubeGcLens.simulateRequests command, checked as any message from outside is, and
// the replica count a scale asks for. Pure: commands/simulateRequests.ts does the asking and the showing.

import {
  isRecord,
  MAX_REPLICAS,
  planRequest,
  planRequests,
  type PlanRequest,
  type PlanTarget,
  type WayOut,
} from '../../../shared/src/protocol';

export type Source = 'workspace' | 'cluster';

/** What to simulate: requests, or a workload to scale once the user said to how many replicas. */
export type SimulateRequestsTarget = { source: Source; requests: PlanRequest[] } | { source: Source; scale: PlanTarget; replicas: number };

/** The command's argument (SimulateRequestsArgs), or undefined when it is not one. */
export function parseSimulateRequestsArgs(arg: unknown): SimulateRequestsTarget | undefined {
  if (!isRecord(arg)) return undefined;
  const source: Source = arg.source === 'cluster' ? 'cluster' : 'workspace';
  if (arg.requests !== undefined) {
    if (planRequests(arg.requests, 'requests')) return undefined;
    return { source, requests: arg.requests as PlanRequest[] };
  }
  const scale = arg.scale;
  if (!isRecord(scale)) return undefined;
  // A scale entry of its object with a placeholder count checks the target's fields as any plan entry's.
  const { apiVersion, kind, namespace, name } = scale;
  if (planRequest({ verb: 'scale', apiVersion, kind, namespace, name, replicas: 0 }, 'scale')) return undefined;
  const replicas = typeof arg.replicas === 'number' && replicasProblem(String(arg.replicas)) === undefined ? arg.replicas : 0;
  return { source, scale: { apiVersion, kind, ...(namespace ? { namespace } : {}), name } as PlanTarget, replicas };
}

/** What is wrong with a typed replica count (the input box says it as the user types), or undefined. */
export function replicasProblem(value: string): string | undefined {
  const t = value.trim();
  if (!/^\d+$/.test(t)) return 'A whole number of replicas, 0 or more';
  if (Number(t) > MAX_REPLICAS) return `At most ${MAX_REPLICAS} replicas`;
  return undefined;
}

/** The scale request for a count replicasProblem accepted. */
export function scaleRequest(target: PlanTarget, value: string): PlanRequest {
  return { verb: 'scale', ...target, replicas: Number(value.trim()) };
}

/** `Deployment kafka/strimzi-cluster-operator`, as the question names the workload. */
export function targetName(t: PlanTarget): string {
  return `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
}

/** The Stuck Objects view's command on a way out (its click and its context menu). */
export const OPEN_WAY_OUT_REPORT = 'kubeGcLens.stuckObjects.openReport';
export const STALE_WAY_OUT = 'Kube GC Lens: the Stuck Objects view was refreshed while its menu was open. Choose the way out again.';

/** What a way out's Open Simulated Report simulates: its requests, where it was found; none without requests. */
export function wayOutTarget(w: WayOut | undefined, live: boolean | undefined): SimulateRequestsTarget | undefined {
  if (!w?.requests?.length) return undefined;
  return { source: live ? 'cluster' : 'workspace', requests: w.requests };
}

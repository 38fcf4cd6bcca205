// Checking what crosses a boundary, once: every client → server request's params (the server answers JSON-RPC
// InvalidParams, -32602, naming the first bad field: "kubeGcLens/simulate: params.uid must be a string") and every
// webview message. Each validator is typed against the shape it checks (an invariant phantom type), so a shape
// changed without its validator does not compile. No library: the wire module has no runtime dependency. Unknown
// fields are ignored (older servers, newer clients), but in a plan's entries, which the plan schema checks
// (planSchema.ts: the CLI's `--plan` reads them with the same words).

import type { GraphParams } from './graph';
import {
  CheckRequest,
  ClusterApplyWayOutRequest,
  ClusterConnectRequest,
  ClusterContextsRequest,
  ClusterDisconnectRequest,
  ClusterDocumentRequest,
  ClusterGraphRequest,
  ClusterGraphSummaryRequest,
  ClusterObjectsRequest,
  ClusterSearchObjectsRequest,
  ClusterSimulateRequest,
  ClusterSimulateRequestsRequest,
  ClusterStuckRequest,
  GraphRequest,
  ObjectAtRequest,
  ObjectsRequest,
  SimulateRequest,
  SimulateRequestsRequest,
  StuckRequest,
  type ObjectAtParams,
  type ObjectsParams,
  type RequestDescriptor,
} from './methods';
import { POLICY_CHOICES, type ControllersMode, type PolicyChoice, type SimulateParams, type SimulateRequestsParams } from './simulation';
import type { PlanRequest } from './planRequests';
import { checkPlanEntry, checkPlanRequests, MAX_PLAN_REQUESTS, planProblemText } from './planSchema';
import type { ClusterConnectParams, ClusterObjectsParams } from './status';
import type { ApplyWayOutParams } from './wayOutActions';

/** Checks one value: undefined when it is fine, else the first problem, naming `path` (e.g. "params.uid"). */
export interface Validator<T> {
  (value: unknown, path: string): string | undefined;
  /** Never set: ties the validator to exactly the type it accepts. */
  readonly accepts?: (value: T) => T;
}

export const check =
  <T>(ok: (v: unknown) => boolean, what: string): Validator<T> =>
  (v, path) =>
    ok(v) ? undefined : `${path} must be ${what}`;
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = check<string>((v) => typeof v === 'string', 'a string');
export const nonEmptyStr = check<string>((v) => typeof v === 'string' && v !== '', 'a non-empty string');
export const bool = check<boolean>((v) => typeof v === 'boolean', 'a boolean');
/** An integer ≥ min (JSON has one number type: 3.0 is 3). */
export const int = (min: number) => check<number>((v) => Number.isSafeInteger(v) && (v as number) >= min, `an integer, at least ${min}`);
/** A finite number ≥ min. */
export const num = (min: number) =>
  check<number>((v) => typeof v === 'number' && Number.isFinite(v) && v >= min, `a number, at least ${min}`);
export const oneOf = <T extends string>(...values: T[]): Validator<T> =>
  check<T>((v) => (values as unknown[]).includes(v), `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
/** Absent is fine; null is not (a field either is there with its type or is left out). */
export const optional =
  <T>(v: Validator<T>): Validator<T | undefined> =>
  (x, path) =>
    x === undefined ? undefined : v(x, path);

/** An array of `item`s; `length`: how many it may hold. */
export function arr<T>(item: Validator<T>, length?: { min: number; max: number }): Validator<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) return `${path} must be an array`;
    if (length && (v.length < length.min || v.length > length.max))
      return `${path} must be an array of ${length.min} to ${length.max} entries`;
    for (let i = 0; i < v.length; i++) {
      const problem = item(v[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** An object with these fields (every field of T must have a validator, optional ones included). */
export function obj<T extends object>(fields: { [K in keyof Required<T>]: Validator<T[K]> }): Validator<T> {
  return (v, path) => {
    if (!isRecord(v)) return `${path} must be an object`;
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const problem = (fields[key] as Validator<unknown>)(v[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  };
}

/** A request without params: absent, null or an empty object or array (clients differ), or any object. */
export const noParams: Validator<void> = (v, path) =>
  v === undefined || v === null || isRecord(v) || (Array.isArray(v) && v.length === 0)
    ? undefined
    : `${path} must be absent (this request takes none)`;

export const policyChoice = oneOf<PolicyChoice>(...POLICY_CHOICES);

/** At most this many requests in one kubeGcLens/simulateRequests: a plan's bound (planSchema.ts), the CLI's too. */
export const MAX_SIMULATED_REQUESTS = MAX_PLAN_REQUESTS;

/** One entry of a plan's `requests`, checked by the plan schema (planSchema.ts): the CLI's words, after `path`. */
export const planRequest: Validator<PlanRequest> = (v, path) => {
  const problem = checkPlanEntry(v, []);
  return problem && planProblemText(problem, path);
};

/** A plan's `requests`: 1 to MAX_PLAN_REQUESTS entries. */
export const planRequests: Validator<PlanRequest[]> = (v, path) => {
  const problem = checkPlanRequests(v, []);
  return problem && planProblemText(problem, path);
};

/**
 * The params of every client → server request, by method: "params" is checked as a whole, then field by field.
 * `controllers` says what is wrong with a `controllers` value (its kube-controller-manager list is the server's to
 * parse), or undefined.
 */
export function requestParamsTable(
  controllers: (value: string) => string | undefined,
): ReadonlyMap<string, (params: unknown) => string | undefined> {
  const controllersSpec: Validator<ControllersMode> = (v, path) => {
    const what = `${path} must be "builtin", "gc" or a kube-controller-manager --controllers list`;
    if (typeof v !== 'string') return what;
    const error = controllers(v);
    return error === undefined ? undefined : `${what} (${error})`;
  };
  const simulateParams = obj<SimulateParams>({ uid: str, policy: policyChoice, controllers: optional(controllersSpec) });
  const simulateRequestsParams = obj<SimulateRequestsParams>({
    requests: planRequests,
    arrival: optional(oneOf('settled', 'back-to-back')),
    controllers: optional(controllersSpec),
  });
  const graphParams = obj<GraphParams>({ uid: optional(str), namespace: optional(str), limit: optional(int(1)) });
  const clusterObjectsParams = obj<ClusterObjectsParams>({ namespace: optional(str), query: optional(str), limit: optional(int(0)) });
  return new Map([
    rule(SimulateRequest, simulateParams),
    rule(SimulateRequestsRequest, simulateRequestsParams),
    rule(ObjectsRequest, obj<ObjectsParams>({ uri: optional(str) })),
    rule(
      ObjectAtRequest,
      obj<ObjectAtParams>({ uri: str, position: obj<ObjectAtParams['position']>({ line: int(0), character: int(0) }) }),
    ),
    rule(StuckRequest, noParams),
    rule(GraphRequest, graphParams),
    rule(ClusterGraphRequest, graphParams),
    rule(ClusterGraphSummaryRequest, noParams),
    rule(CheckRequest, noParams),
    rule(ClusterContextsRequest, obj<{ kubeconfig?: string }>({ kubeconfig: optional(str) })),
    rule(
      ClusterConnectRequest,
      obj<ClusterConnectParams>({
        context: optional(str),
        namespaces: optional(arr(str)),
        kubeconfig: optional(str),
        allowExec: bool,
        requestTimeoutSeconds: optional(num(0)),
      }),
    ),
    rule(ClusterDisconnectRequest, noParams),
    rule(ClusterSimulateRequest, simulateParams),
    rule(ClusterSimulateRequestsRequest, simulateRequestsParams),
    rule(ClusterStuckRequest, obj<{ stuckAfterMinutes?: number }>({ stuckAfterMinutes: optional(num(0)) })),
    rule(ClusterObjectsRequest, clusterObjectsParams),
    rule(ClusterSearchObjectsRequest, clusterObjectsParams),
    rule(ClusterDocumentRequest, obj<{ uri: string }>({ uri: str })),
    rule(
      ClusterApplyWayOutRequest,
      obj<ApplyWayOutParams>({ uid: str, command: str, summary: optional(str), dryRunOnly: optional(bool), clusterUid: optional(str) }),
    ),
  ]);
}

function rule<P>(d: RequestDescriptor<P, unknown>, params: Validator<NoInfer<P>>): [string, (params: unknown) => string | undefined] {
  return [d.method, (v) => params(v, 'params')];
}

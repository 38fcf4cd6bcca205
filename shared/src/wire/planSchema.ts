// The plan schema, checked in one place: `kubectl gc simulate --plan FILE` (server/src/cli/plan.ts reads the file's
// YAML or JSON, then hands the value here) and the editor's kubeGcLens/simulateRequests and
// kubeGcLens/cluster/simulateRequests params (validate.ts) refuse the same entries with the same words. It takes what
// kube-apiserver takes and refuses the rest: a request the apiserver would refuse cannot be simulated as if it had
// been sent. Unknown fields of an entry are refused (a misspelt `ownerUID` must not pass silently, as kubectl's
// strict field validation); only a version 1 plan's `deletes` entries keep ignoring them, as they always did.
// No imports but the shapes: the wire module has no runtime dependency.

import { CHANGE_VERBS, PLAN_VERBS, type PlanRequest, type PlanVerb } from './planRequests';

/** Where a value is: `["requests", 0, "replicas"]`. */
export type PlanPath = (string | number)[];

/** What is wrong and where: the text is the path's, then `message` ("requests[0].replicas" + " must be …"). */
export interface PlanProblem {
  path: PlanPath;
  message: string;
}

/** At most this many requests in one plan, in the CLI and the editor alike (each is simulated after the last settles). */
export const MAX_PLAN_REQUESTS = 100;
/**
 * kube-apiserver reads gracePeriodSeconds as an int64 (and a negative one as 1, rest.BeforeDelete); a JSON or YAML
 * number is exact only up to 2^53 − 1, so a larger one could not be simulated as written.
 */
export const MAX_GRACE_PERIOD_SECONDS = Number.MAX_SAFE_INTEGER;
/** A Scale's replicas is an int32. */
export const MAX_REPLICAS = 2 ** 31 - 1;

/** The plan versions this build reads; a plan without `version` is read as the newest (version 1 plans are valid). */
export const PLAN_VERSIONS = [1, 2] as const;
export const PLAN_ARRIVALS = ['settled', 'back-to-back'] as const;
const PLAN_TOP_FIELDS = ['version', 'arrival', 'controllers', 'kubeVersion', 'deletes', 'patches', 'requests'];

const TARGET_FIELDS = ['apiVersion', 'kind', 'namespace', 'name'];
/** The fields each verb takes besides `verb`, in the order docs/cli.md lists them. */
export const PLAN_FIELDS: { readonly [V in PlanVerb]: readonly string[] } = {
  delete: [...TARGET_FIELDS, 'propagationPolicy', 'orphanDependents', 'gracePeriodSeconds'],
  'remove-finalizer': [...TARGET_FIELDS, 'finalizer'],
  'remove-owner-reference': [...TARGET_FIELDS, 'ownerUid'],
  'set-owner-reference': [...TARGET_FIELDS, 'ownerUid', 'to'],
  scale: [...TARGET_FIELDS, 'replicas'],
  'restore-controller': [...TARGET_FIELDS, 'finalizer'],
  'restore-backend': TARGET_FIELDS,
  'set-webhook-failure-policy': [...TARGET_FIELDS, 'webhook', 'failurePolicy'],
};
const OWNER_REFERENCE_FIELDS = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'];

/** The list an entry is in: `requests` names any verb, `patches` a change, a version 1 `deletes` entry a DELETE. */
export type PlanList = 'requests' | 'patches' | 'deletes';

type Fields = Record<string, unknown>;
const isMapping = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `requests[0].to.uid`, after `prefix` ("params" gives `params.requests[0]…`). */
export function planPathText(path: PlanPath, prefix = ''): string {
  return path.reduce<string>((text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${p}` : p), prefix);
}

/** The problem as one line: `requests[0].replicas must be …`. */
export const planProblemText = (p: PlanProblem, prefix = ''): string => planPathText(p.path, prefix) + p.message;

/** A value as a message shows it: a string quoted (and cut short), anything else by its type. */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return Array.isArray(v) ? 'a list' : 'a mapping';
}

/** What is wrong with one plan entry, or undefined; `path` is where it is. */
export function checkPlanEntry(v: unknown, path: PlanPath, list: PlanList = 'requests'): PlanProblem | undefined {
  const at = (field: PlanPath, message: string): PlanProblem => ({ path: [...path, ...field], message });
  if (!isMapping(v)) return at([], ' must be a mapping');
  let verb: PlanVerb = 'delete';
  if (list === 'deletes') {
    if (v.verb !== undefined && v.verb !== 'delete')
      return at(['verb'], ` ${shown(v.verb)}: a "deletes" entry is a delete; a change goes in "patches" or "requests"`);
  } else {
    if (list === 'patches' && v.verb === 'delete') return at(['verb'], ': a delete goes in "deletes" or "requests", not "patches"');
    const verbs: readonly string[] = list === 'patches' ? CHANGE_VERBS : PLAN_VERBS;
    if (!verbs.includes(v.verb as string))
      return at(['verb'], `${v.verb === undefined ? ' is missing: it' : ` ${shown(v.verb)}:`} must be one of ${verbs.join(', ')}`);
    verb = v.verb as PlanVerb;
    const unknown = unknownField(v, ['verb', ...PLAN_FIELDS[verb]]);
    if (unknown !== undefined) return at([unknown], ` is not a field of ${JSON.stringify(verb)}: it takes ${PLAN_FIELDS[verb].join(', ')}`);
  }
  // The object it is meant to release is optional for restore-controller: all of apiVersion, kind and name, or none.
  const targetOptional = verb === 'restore-controller' && ['apiVersion', 'kind', 'name'].every((k) => v[k] === undefined);
  const problem = (targetOptional ? undefined : targetProblem(v)) ?? fieldsProblem(verb, v);
  if (problem) return at(problem.path, problem.message);
  if (verb === 'restore-controller' && !targetOptional) {
    const missing = ['apiVersion', 'kind', 'name'].find((k) => v[k] === undefined);
    if (missing) return at([missing], ' is missing: it must be a non-empty string (with apiVersion, kind and name, or none of them)');
  }
  return undefined;
}

function unknownField(v: Fields, allowed: readonly string[]): string | undefined {
  return Object.keys(v).find((k) => !allowed.includes(k));
}

function nonEmpty(v: Fields, field: string): PlanProblem | undefined {
  const x = v[field];
  if (typeof x === 'string' && x !== '') return undefined;
  return { path: [field], message: `${x === undefined ? ' is missing: it' : ''} must be a non-empty string` };
}

function targetProblem(v: Fields): PlanProblem | undefined {
  for (const field of ['apiVersion', 'kind', 'name']) {
    const problem = nonEmpty(v, field);
    if (problem) return problem;
  }
  // Absent, null (YAML's `namespace:`) or "": the input's default namespace on a namespaced kind.
  if (v.namespace !== undefined && v.namespace !== null && typeof v.namespace !== 'string')
    return { path: ['namespace'], message: ' must be a string' };
  return undefined;
}

const isBool = (x: unknown) => x === undefined || typeof x === 'boolean';

/** The fields a verb takes besides its object. */
function fieldsProblem(verb: PlanVerb, v: Fields): PlanProblem | undefined {
  switch (verb) {
    case 'delete': {
      const policy = v.propagationPolicy;
      if (policy !== undefined && policy !== null && !['Foreground', 'Background', 'Orphan'].includes(policy as string))
        return { path: ['propagationPolicy'], message: ' must be Foreground, Background, Orphan or null' };
      // null is "not given", as kube-apiserver decodes DeleteOptions.
      if (v.orphanDependents !== null && !isBool(v.orphanDependents))
        return { path: ['orphanDependents'], message: ' must be true or false' };
      const grace = v.gracePeriodSeconds;
      if (grace !== undefined && grace !== null && !(Number.isInteger(grace) && Math.abs(grace as number) <= MAX_GRACE_PERIOD_SECONDS))
        return {
          path: ['gracePeriodSeconds'],
          message: ` ${shown(grace)}: it must be a whole number of seconds, from -${MAX_GRACE_PERIOD_SECONDS} to ${MAX_GRACE_PERIOD_SECONDS} (kube-apiserver reads a negative one as 1)`,
        };
      return undefined;
    }
    case 'remove-finalizer':
    case 'restore-controller':
      return nonEmpty(v, 'finalizer');
    case 'remove-owner-reference':
      return nonEmpty(v, 'ownerUid');
    case 'set-owner-reference': {
      const owner = nonEmpty(v, 'ownerUid');
      if (owner) return owner;
      const to = v.to;
      if (to === undefined) return { path: ['to'], message: ' is missing: the fixed ownerReference {"apiVersion", "kind", "name", "uid"}' };
      if (!isMapping(to)) return { path: ['to'], message: ' must be a mapping' };
      const unknown = unknownField(to, OWNER_REFERENCE_FIELDS);
      if (unknown !== undefined)
        return { path: ['to', unknown], message: ` is not a field of an ownerReference: it takes ${OWNER_REFERENCE_FIELDS.join(', ')}` };
      for (const field of ['apiVersion', 'kind', 'name', 'uid']) {
        const problem = nonEmpty(to, field);
        if (problem) return { path: ['to', ...problem.path], message: problem.message };
      }
      for (const field of ['controller', 'blockOwnerDeletion'])
        if (!isBool(to[field])) return { path: ['to', field], message: ' must be true or false' };
      return undefined;
    }
    case 'scale': {
      const replicas = v.replicas;
      if (!Number.isInteger(replicas) || (replicas as number) < 0)
        return { path: ['replicas'], message: `${replicas === undefined ? ' is missing: it' : ''} must be a whole number, 0 or more` };
      if ((replicas as number) > MAX_REPLICAS)
        return { path: ['replicas'], message: ` must be at most ${MAX_REPLICAS} (a Scale's replicas is an int32)` };
      return undefined;
    }
    case 'restore-backend':
      return undefined;
    case 'set-webhook-failure-policy':
      return (
        nonEmpty(v, 'webhook') ??
        (v.failurePolicy === 'Ignore' || v.failurePolicy === 'Fail'
          ? undefined
          : { path: ['failurePolicy'], message: ' must be Ignore or Fail' })
      );
  }
}

/** What is wrong with a list of plan entries (1 to MAX_PLAN_REQUESTS of them), or undefined. */
export function checkPlanRequests(v: unknown, path: PlanPath, list: PlanList = 'requests'): PlanProblem | undefined {
  if (!Array.isArray(v)) return { path, message: ' must be a list' };
  const count = countProblem(v.length, path);
  if (count) return count;
  for (let i = 0; i < v.length; i++) {
    const problem = checkPlanEntry(v[i], [...path, i], list);
    if (problem) return problem;
  }
  return undefined;
}

function countProblem(count: number, path: PlanPath): PlanProblem | undefined {
  if (count === 0) return { path, message: ` is empty: a plan takes 1 to ${MAX_PLAN_REQUESTS} requests` };
  if (count > MAX_PLAN_REQUESTS) return { path, message: ` holds ${count} requests: a plan takes 1 to ${MAX_PLAN_REQUESTS}` };
  return undefined;
}

/** A plan document, checked: its requests in the order they are simulated (a version 1 plan's deletes, then patches). */
export interface PlanDocument {
  requests: PlanRequest[];
  arrival?: (typeof PLAN_ARRIVALS)[number];
  controllers?: string;
  kubeVersion?: string;
}

/** The checks of values the server parses itself: a kube-controller-manager list, a Kubernetes version. */
export interface PlanValueChecks {
  /** What is wrong with a `controllers` value, or undefined. */
  controllers(value: string): string | undefined;
  kubeVersion(value: string): boolean;
}

/** A whole plan (`simulate --plan`): docs/cli.md says its shape. */
export function readPlanDocument(data: unknown, checks: PlanValueChecks): { plan: PlanDocument } | { problem: PlanProblem } {
  const fail = (path: PlanPath, message: string) => ({ problem: { path, message } });
  if (!isMapping(data)) return fail([], 'a plan is {"deletes": [ ... ]} or {"requests": [ ... ]}: it is not a mapping');
  const version = data.version ?? PLAN_VERSIONS[PLAN_VERSIONS.length - 1];
  if (!PLAN_VERSIONS.includes(version as 1 | 2))
    return fail(['version'], ` ${shown(data.version)}: this kubectl-gc reads plan versions ${PLAN_VERSIONS.join(' and ')}`);
  if (version === 1)
    for (const key of ['patches', 'requests'])
      if (data[key] !== undefined) return fail([key], ` needs plan version 2 ("version": 2); version 1 has deletes only`);
  const { deletes, patches, requests, arrival, controllers, kubeVersion } = data;
  if (requests !== undefined && (deletes !== undefined || patches !== undefined))
    return fail(['requests'], ': give "requests" (in their order) or "deletes" and "patches" (the deletes first), not both');
  if (deletes === undefined && patches === undefined && requests === undefined)
    return fail([], 'a plan is {"deletes": [ ... ]}, {"patches": [ ... ]} or {"requests": [ ... ]}; "deletes" is missing or not a list');
  // A plan that says its version is read strictly: a misspelt "patchs" must not pass silently.
  const unknown = data.version === undefined ? undefined : unknownField(data, PLAN_TOP_FIELDS);
  if (unknown !== undefined) return fail([unknown], ` is not a field of a plan: it takes ${PLAN_TOP_FIELDS.join(', ')}`);
  if (arrival !== undefined && !(PLAN_ARRIVALS as readonly unknown[]).includes(arrival))
    return fail(['arrival'], ' must be settled or back-to-back');
  if (controllers !== undefined) {
    const error = typeof controllers === 'string' ? checks.controllers(controllers) : 'it must be a string';
    if (error !== undefined) return fail(['controllers'], ` must be builtin, gc or a kube-controller-manager --controllers list: ${error}`);
  }
  if (kubeVersion !== undefined && (typeof kubeVersion !== 'string' || !checks.kubeVersion(kubeVersion)))
    return fail(['kubeVersion'], ' must be MAJOR.MINOR, e.g. "1.32"');

  const lists = (['deletes', 'patches', 'requests'] as const).filter((key) => data[key] !== undefined);
  for (const key of lists) if (!Array.isArray(data[key])) return fail([key], ' must be a list');
  const entries = lists.map((key) => ({ key, items: data[key] as unknown[] }));
  // The bound counts every request of the plan; it is reported on the list that passes it (or the first, if none has any).
  const total = entries.reduce((n, e) => n + e.items.length, 0);
  const last = entries[entries.length - 1];
  if (total === 0 || total > MAX_PLAN_REQUESTS) {
    const problem = countProblem(total, [total === 0 ? entries[0].key : last.key])!;
    return {
      problem:
        entries.length > 1 && total > 0
          ? { ...problem, message: ` brings the plan to ${total} requests: a plan takes 1 to ${MAX_PLAN_REQUESTS}` }
          : problem,
    };
  }
  const out: PlanRequest[] = [];
  for (const { key, items } of entries) {
    for (let i = 0; i < items.length; i++) {
      const problem = checkPlanEntry(items[i], [key, i], key);
      if (problem) return { problem };
      out.push(planEntryOf(items[i] as Fields, key === 'deletes' ? 'delete' : ((items[i] as Fields).verb as PlanVerb)));
    }
  }
  return {
    plan: {
      requests: out,
      ...(arrival !== undefined ? { arrival: arrival as PlanDocument['arrival'] } : {}),
      ...(controllers !== undefined ? { controllers: (controllers as string).trim() } : {}),
      ...(kubeVersion !== undefined ? { kubeVersion: kubeVersion as string } : {}),
    },
  };
}

/** Fields whose null is their absence (a null propagationPolicy is kept: it says "none", as the CLI's JSON writes it). */
const NULL_IS_ABSENT = ['namespace', 'orphanDependents', 'gracePeriodSeconds'];

/** A checked entry as the wire spells it: its own fields only (a version 1 delete's others dropped), null ones absent. */
export function planEntryOf(v: Fields, verb: PlanVerb): PlanRequest {
  const entry: Fields = { verb };
  for (const field of PLAN_FIELDS[verb])
    if (v[field] !== undefined && !(NULL_IS_ABSENT.includes(field) && v[field] === null)) entry[field] = v[field];
  if (verb === 'set-owner-reference') {
    const to = v.to as Fields;
    entry.to = Object.fromEntries(OWNER_REFERENCE_FIELDS.filter((k) => to[k] !== undefined).map((k) => [k, to[k]]));
  }
  return entry as unknown as PlanRequest;
}

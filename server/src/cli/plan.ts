// `--plan FILE`: a sequence of requests, each applied after the previous one settles, or all back to back (R63) with
// `"arrival": "back-to-back"`. A plan may also say who acts and which version's behaviour to follow, as
// --controllers and --kube-version do. Version 1: DELETEs only; version 2 (issue 18) adds requests besides DELETE:
//   {"version"?: 1|2, "arrival"?, "controllers"?, "kubeVersion"?,
//    "deletes"?: [DELETE], "patches"?: [CHANGE]        (the deletes first, then the patches)
//    | "requests": [{"verb": "delete", …DELETE} | CHANGE] (in the order given)}
// DELETE = {"apiVersion", "kind", "namespace", "name", "propagationPolicy"?}; CHANGE = {"verb", "apiVersion", "kind",
// "namespace", "name", …its own field}: remove-finalizer (finalizer), remove-owner-reference (ownerUid),
// set-owner-reference (ownerUid, to), scale (replicas), restore-controller (finalizer; the object it releases, optional),
// restore-backend (a Service whose Pods are ready again), set-webhook-failure-policy (webhook, failurePolicy).

import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { DeleteRequest, RequestArrival } from '../engine/simulation/types';
import type { ChangeRequest, ObjectRef, UserRequest } from '../engine/simulation/changeRequest';
import { CHANGE_VERBS } from '../../../shared/src/protocol';
import { UsageError } from './args';
import { parseControllers } from '../engine/simulation/controllerSet';
import { parseKubeVersion } from '../engine/simulation/kubeVersion';

const POLICIES = ['Foreground', 'Background', 'Orphan'];
export const ARRIVALS: readonly RequestArrival[] = ['settled', 'back-to-back'];
/** The plan versions this build reads; a plan without `version` is read as the newest (version 1 plans are valid). */
export const PLAN_VERSIONS = [1, 2] as const;
const TOP_FIELDS = ['version', 'arrival', 'controllers', 'kubeVersion', 'deletes', 'patches', 'requests'];
const TARGET_FIELDS = ['apiVersion', 'kind', 'namespace', 'name'];
/** The fields each verb takes besides `verb` (a plan's entries are checked for typos, as kubectl's strict decoding). */
const FIELDS: Record<ChangeRequest['verb'] | 'delete', string[]> = {
  delete: [...TARGET_FIELDS, 'propagationPolicy', 'orphanDependents', 'gracePeriodSeconds'],
  'remove-finalizer': [...TARGET_FIELDS, 'finalizer'],
  'remove-owner-reference': [...TARGET_FIELDS, 'ownerUid'],
  'set-owner-reference': [...TARGET_FIELDS, 'ownerUid', 'to'],
  scale: [...TARGET_FIELDS, 'replicas'],
  'restore-controller': [...TARGET_FIELDS, 'finalizer'],
  'restore-backend': TARGET_FIELDS,
  'set-webhook-failure-policy': [...TARGET_FIELDS, 'webhook', 'failurePolicy'],
};

export interface Plan {
  requests: UserRequest[];
  arrival?: RequestArrival;
  controllers?: string;
  kubeVersion?: string;
}

type Path = (string | number)[];
type Fields = Record<string, unknown>;

export function parsePlan(text: string, file: string): Plan {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const pos = lineCounter.linePos(e.pos[0]);
    throw new UsageError(`${file}:${pos.line}:${pos.col}: the plan is not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  /** "plan.yaml:7:5: patches[1].finalizer …": where the value is written (or its entry, when it is missing). */
  const fail = (path: Path, message: string): never => {
    throw new UsageError(`${locate(doc, lineCounter, file, path)}: ${pathText(path)}${message}`);
  };
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  if (!isMapping(data)) return fail([], 'a plan is {"deletes": [ ... ]} or {"requests": [ ... ]}: it is not a mapping');
  const version = data.version ?? PLAN_VERSIONS[PLAN_VERSIONS.length - 1];
  if (!PLAN_VERSIONS.includes(version as 1 | 2))
    fail(['version'], ` ${JSON.stringify(data.version)}: this kubectl-gc reads plan versions ${PLAN_VERSIONS.join(' and ')}`);
  const { deletes, patches, requests } = data;
  if (version === 1)
    for (const key of ['patches', 'requests'] as const)
      if (data[key] !== undefined) fail([key], ` needs plan version 2 ("version": 2); version 1 has deletes only`);
  if (requests !== undefined && (deletes !== undefined || patches !== undefined))
    fail(['requests'], ': give "requests" (in their order) or "deletes" and "patches" (the deletes first), not both');
  if (deletes === undefined && patches === undefined && requests === undefined)
    fail([], 'a plan is {"deletes": [ ... ]}, {"patches": [ ... ]} or {"requests": [ ... ]}; "deletes" is missing or not a list');
  for (const key of ['deletes', 'patches', 'requests'] as const)
    if (data[key] !== undefined && !Array.isArray(data[key])) fail([key], ' must be a list');
  // A plan that says it is version 2 is read strictly: a misspelt "patchs" must not pass silently.
  if (data.version !== undefined)
    for (const key of Object.keys(data))
      if (!TOP_FIELDS.includes(key)) fail([key], ` is not a field of a plan: it takes ${TOP_FIELDS.join(', ')}`);

  const { arrival, controllers, kubeVersion } = data;
  if (arrival !== undefined && !ARRIVALS.includes(arrival as RequestArrival)) fail(['arrival'], ' must be settled or back-to-back');
  if (controllers !== undefined) {
    const parsed = typeof controllers === 'string' ? parseControllers(controllers) : { error: 'it must be a string' };
    if ('error' in parsed) fail(['controllers'], ` must be builtin, gc or a kube-controller-manager --controllers list: ${parsed.error}`);
  }
  if (kubeVersion !== undefined && (typeof kubeVersion !== 'string' || !parseKubeVersion(kubeVersion)))
    fail(['kubeVersion'], ' must be MAJOR.MINOR, e.g. "1.32"');

  const entries = (key: string) => (data[key] as unknown[] | undefined) ?? [];
  const list: UserRequest[] = [
    ...entries('deletes').map((e, i) => deleteOf(e, ['deletes', i], fail, false)),
    ...entries('patches').map((e, i) => changeOf(e, ['patches', i], fail)),
    ...entries('requests').map((e, i) => {
      const path = ['requests', i];
      return isMapping(e) && e.verb === 'delete' ? deleteOf(e, path, fail, true) : changeOf(e, path, fail);
    }),
  ];
  return {
    requests: list,
    ...(arrival !== undefined ? { arrival: arrival as RequestArrival } : {}),
    ...(controllers !== undefined ? { controllers: (controllers as string).trim() } : {}),
    ...(kubeVersion !== undefined ? { kubeVersion: kubeVersion as string } : {}),
  };
}

type Fail = (path: Path, message: string) => never;

/** A DELETE; `strict` (a `requests` entry) refuses fields it does not know, as version 1's `deletes` never did. */
function deleteOf(d: unknown, path: Path, fail: Fail, strict: boolean): DeleteRequest {
  const e = mappingOf(d, path, fail);
  if (strict) knownFields(e, FIELDS.delete, path, fail);
  const target = targetOf(e, path, fail);
  const policy = e.propagationPolicy;
  if (policy !== undefined && policy !== null && (typeof policy !== 'string' || !POLICIES.includes(policy)))
    fail([...path, 'propagationPolicy'], ' must be Foreground, Background, Orphan or null');
  if (e.orphanDependents !== undefined && typeof e.orphanDependents !== 'boolean')
    fail([...path, 'orphanDependents'], ' must be true or false');
  if (e.gracePeriodSeconds !== undefined && typeof e.gracePeriodSeconds !== 'number')
    fail([...path, 'gracePeriodSeconds'], ' must be a number');
  return {
    ...target,
    propagationPolicy: (policy ?? null) as DeleteRequest['propagationPolicy'],
    ...(e.orphanDependents !== undefined ? { orphanDependents: e.orphanDependents as boolean } : {}),
    ...(e.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: e.gracePeriodSeconds as number } : {}),
  };
}

function changeOf(d: unknown, path: Path, fail: Fail): ChangeRequest {
  const e = mappingOf(d, path, fail);
  const verb = e.verb;
  if (verb === 'delete') return fail([...path, 'verb'], ': a delete goes in "deletes" or "requests", not "patches"');
  if (!CHANGE_VERBS.includes(verb as (typeof CHANGE_VERBS)[number]))
    fail(
      [...path, 'verb'],
      `${verb === undefined ? ' is missing: it' : ` ${JSON.stringify(verb)}:`} must be one of ${(path[0] === 'requests' ? ['delete', ...CHANGE_VERBS] : CHANGE_VERBS).join(', ')}`,
    );
  const v = verb as ChangeRequest['verb'];
  knownFields(e, FIELDS[v], path, fail);
  const text = (field: string) => nonEmpty(e, field, path, fail);
  switch (v) {
    case 'remove-finalizer':
      return { verb: v, target: targetOf(e, path, fail), finalizer: text('finalizer') };
    case 'remove-owner-reference':
      return { verb: v, target: targetOf(e, path, fail), ownerUid: text('ownerUid') };
    case 'set-owner-reference': {
      const target = targetOf(e, path, fail);
      const ownerUid = text('ownerUid');
      const toPath = [...path, 'to'];
      if (e.to === undefined) fail(toPath, ' is missing: the fixed ownerReference {"apiVersion", "kind", "name", "uid"}');
      const to = mappingOf(e.to, toPath, fail);
      knownFields(to, ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'], toPath, fail);
      const [apiVersion, kind, name, uid] = ['apiVersion', 'kind', 'name', 'uid'].map((k) => nonEmpty(to, k, toPath, fail));
      for (const k of ['controller', 'blockOwnerDeletion'])
        if (to[k] !== undefined && typeof to[k] !== 'boolean') fail([...toPath, k], ' must be true or false');
      return {
        verb: v,
        target,
        ownerUid,
        to: {
          apiVersion,
          kind,
          name,
          uid,
          ...(to.controller !== undefined ? { controller: to.controller as boolean } : {}),
          ...(to.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: to.blockOwnerDeletion as boolean } : {}),
        },
      };
    }
    case 'scale': {
      const target = targetOf(e, path, fail);
      const replicas = e.replicas;
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0 || replicas > 2 ** 31 - 1)
        fail([...path, 'replicas'], `${replicas === undefined ? ' is missing: it' : ''} must be a whole number, 0 or more`);
      return { verb: v, target, replicas: replicas as number };
    }
    case 'restore-controller': {
      const finalizer = text('finalizer');
      // The object it is meant to release is optional: all of apiVersion, kind and name, or none.
      const named = ['apiVersion', 'kind', 'name'].some((k) => e[k] !== undefined);
      return { verb: v, finalizer, ...(named ? { for: targetOf(e, path, fail) } : {}) };
    }
    case 'restore-backend':
      return { verb: v, target: targetOf(e, path, fail) };
    case 'set-webhook-failure-policy': {
      const target = targetOf(e, path, fail);
      const webhook = text('webhook');
      if (e.failurePolicy !== 'Ignore' && e.failurePolicy !== 'Fail') fail([...path, 'failurePolicy'], ' must be Ignore or Fail');
      return { verb: v, target, webhook, failurePolicy: e.failurePolicy as 'Ignore' | 'Fail' };
    }
  }
}

function targetOf(e: Fields, path: Path, fail: Fail): ObjectRef {
  const [apiVersion, kind, name] = ['apiVersion', 'kind', 'name'].map((k) => nonEmpty(e, k, path, fail));
  if (e.namespace !== undefined && e.namespace !== null && typeof e.namespace !== 'string')
    fail([...path, 'namespace'], ' must be a string');
  return { apiVersion, kind, namespace: (e.namespace as string | null | undefined) ?? '', name };
}

function nonEmpty(e: Fields, field: string, path: Path, fail: Fail): string {
  const v = e[field];
  if (typeof v !== 'string' || !v) fail([...path, field], `${v === undefined ? ' is missing: it' : ''} must be a non-empty string`);
  return v as string;
}

function mappingOf(d: unknown, path: Path, fail: Fail): Fields {
  if (!isMapping(d)) fail(path, ' must be a mapping');
  return d as Fields;
}

function knownFields(e: Fields, allowed: string[], path: Path, fail: Fail): void {
  for (const k of Object.keys(e)) {
    if (k !== 'verb' && !allowed.includes(k))
      fail(
        [...path, k],
        ` is not a field of ${e.verb === undefined ? 'this entry' : JSON.stringify(e.verb)}: it takes ${allowed.join(', ')}`,
      );
  }
}

const isMapping = (d: unknown): d is Fields => !!d && typeof d === 'object' && !Array.isArray(d);

/** `patches[1].finalizer`. */
function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

/** `file:line:col` of the deepest node of `path` the document holds. */
function locate(doc: Document, lineCounter: LineCounter, file: string, path: Path): string {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    // A key's value is located at the value; a missing one falls back to its entry.
    if (isNode(node) && node.range) {
      const pos = lineCounter.linePos(node.range[0]);
      return `${file}:${pos.line}:${pos.col}`;
    }
  }
  return file;
}

// The facts of the objects that can keep a Namespace from finishing outside ownership (issue 18): APIServices (an
// unavailable one fails the namespace controller's discovery), webhook configurations (a `failurePolicy: Fail`
// webhook whose backend is down rejects the DELETE and UPDATE requests a deletion needs) and the EndpointSlices and
// Endpoints that say whether a Service has a backend. Best effort, as every fact: a wrong type is a warning (the
// extractor's) and the fact is left out.

import type { ApiServiceFacts, LabelSelector, ObjectFacts, ServiceReference, WebhookFacts, WebhookRule } from '../../engine/model';
import type { Path } from './reader';

/** The extractor's typed reads of one object, bound to it (a wrong type is a warning there). */
export interface FieldReads<N> {
  kind(n: N | undefined): string;
  str(parent: N, rel: Path, key: string): string | undefined;
  bool(parent: N, rel: Path, key: string): boolean | undefined;
  map(parent: N, rel: Path, key: string): N | undefined;
  list(parent: N, rel: Path, key: string): readonly N[] | undefined;
  strList(parent: N, rel: Path, key: string): string[] | undefined;
  /** A mapping of strings (labels, matchLabels); entries of other types are warned about and left out. */
  strMap(parent: N, rel: Path, key: string): Record<string, string> | undefined;
}

/** The kinds whose facts this module reads, by `group/kind`. */
const BLOCKER_KINDS = new Set([
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'discovery.k8s.io/EndpointSlice',
  '/Endpoints',
]);

export function isBlockerKind(group: string, kind: string): boolean {
  return BLOCKER_KINDS.has(`${group}/${kind}`);
}

/** Adds the facts of an APIService, a webhook configuration, an EndpointSlice or an Endpoints object. */
export function readBlockerFacts<N>(f: FieldReads<N>, n: N, group: string, kind: string, facts: ObjectFacts): void {
  if (group === 'apiregistration.k8s.io') {
    const a = apiService(f, n);
    if (a) facts.apiService = a;
  } else if (group === 'admissionregistration.k8s.io') {
    const hooks = f.list(n, [], 'webhooks');
    if (hooks) facts.webhooks = hooks.flatMap((h, i) => (f.kind(h) === 'map' ? [webhook(f, h, ['webhooks', i])] : []));
  } else if (group === 'discovery.k8s.io') {
    const endpoints = f.list(n, [], 'endpoints');
    if (endpoints) facts.readyEndpoints = endpoints.filter((e, i) => f.kind(e) === 'map' && endpointReady(f, e, ['endpoints', i])).length;
    else if (f.kind(n) === 'map') facts.readyEndpoints = 0; // `endpoints: null`: a slice of a Service with no backend
  } else if (kind === 'Endpoints') {
    const subsets = f.list(n, [], 'subsets');
    let ready = 0;
    subsets?.forEach((s, i) => {
      if (f.kind(s) === 'map') ready += f.list(s, ['subsets', i], 'addresses')?.length ?? 0;
    });
    facts.readyEndpoints = ready;
  }
}

/** An endpoint is ready unless `conditions.ready` says false (nil means ready, as kube-proxy reads it). */
function endpointReady<N>(f: FieldReads<N>, e: N, P: Path): boolean {
  const conditions = f.map(e, P, 'conditions');
  return conditions === undefined || f.bool(conditions, [...P, 'conditions'], 'ready') !== false;
}

function service<N>(f: FieldReads<N>, parent: N, P: Path): ServiceReference | undefined {
  const s = f.map(parent, P, 'service');
  if (s === undefined) return undefined;
  const name = f.str(s, [...P, 'service'], 'name');
  const namespace = f.str(s, [...P, 'service'], 'namespace');
  return name && namespace ? { namespace, name } : undefined;
}

function apiService<N>(f: FieldReads<N>, n: N): ApiServiceFacts | undefined {
  const spec = f.map(n, [], 'spec');
  if (spec === undefined) return undefined;
  const out: ApiServiceFacts = { group: f.str(spec, ['spec'], 'group') ?? '', version: f.str(spec, ['spec'], 'version') ?? '' };
  const svc = service(f, spec, ['spec']);
  if (svc) out.service = svc;
  const status = f.map(n, [], 'status');
  const conditions = status !== undefined ? f.list(status, ['status'], 'conditions') : undefined;
  conditions?.forEach((c, i) => {
    if (f.kind(c) !== 'map') return;
    const P = ['status', 'conditions', i];
    if (f.str(c, P, 'type') !== 'Available') return;
    const available: NonNullable<ApiServiceFacts['available']> = { status: f.str(c, P, 'status') ?? 'Unknown' };
    const reason = f.str(c, P, 'reason');
    const message = f.str(c, P, 'message');
    if (reason !== undefined) available.reason = reason;
    if (message !== undefined) available.message = message;
    out.available = available;
  });
  return out;
}

function webhook<N>(f: FieldReads<N>, h: N, P: Path): WebhookFacts {
  const out: WebhookFacts = {
    name: f.str(h, P, 'name') ?? '',
    failurePolicy: f.str(h, P, 'failurePolicy') ?? 'Fail',
    matchPolicy: f.str(h, P, 'matchPolicy') ?? 'Equivalent',
    rules: [],
  };
  f.list(h, P, 'rules')?.forEach((r, i) => {
    if (f.kind(r) !== 'map') return;
    const R = [...P, 'rules', i];
    const rule: WebhookRule = {
      operations: f.strList(r, R, 'operations') ?? [],
      apiGroups: f.strList(r, R, 'apiGroups') ?? [],
      apiVersions: f.strList(r, R, 'apiVersions') ?? [],
      resources: f.strList(r, R, 'resources') ?? [],
    };
    const scope = f.str(r, R, 'scope');
    if (scope !== undefined) rule.scope = scope;
    out.rules.push(rule);
  });
  const ns = selector(f, h, P, 'namespaceSelector');
  if (ns) out.namespaceSelector = ns;
  const obj = selector(f, h, P, 'objectSelector');
  if (obj) out.objectSelector = obj;
  const config = f.map(h, P, 'clientConfig');
  const svc = config !== undefined ? service(f, config, [...P, 'clientConfig']) : undefined;
  if (svc) out.service = svc;
  const conditions = f.list(h, P, 'matchConditions');
  if (conditions?.length) out.matchConditions = conditions.length;
  return out;
}

function selector<N>(f: FieldReads<N>, parent: N, P: Path, key: string): LabelSelector | undefined {
  const s = f.map(parent, P, key);
  if (s === undefined) return undefined;
  const S = [...P, key];
  const out: LabelSelector = {};
  const labels = f.strMap(s, S, 'matchLabels');
  if (labels && Object.keys(labels).length) out.matchLabels = labels;
  const exprs: NonNullable<LabelSelector['matchExpressions']> = [];
  f.list(s, S, 'matchExpressions')?.forEach((e, i) => {
    if (f.kind(e) !== 'map') return;
    const E = [...S, 'matchExpressions', i];
    const k = f.str(e, E, 'key');
    const operator = f.str(e, E, 'operator');
    if (k === undefined || operator === undefined) return;
    const values = f.strList(e, E, 'values');
    exprs.push(values ? { key: k, operator, values } : { key: k, operator });
  });
  if (exprs.length) out.matchExpressions = exprs;
  return out;
}

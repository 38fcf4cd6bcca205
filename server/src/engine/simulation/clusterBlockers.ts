// Blockers outside ownership (issue 18): an aggregated APIService that is not Available fails the namespace
// controller's discovery, so no terminating Namespace is finalized (R74); a webhook with `failurePolicy: Fail` whose
// backend is down rejects every request it intercepts, among them the DELETEs and finalizer-removing UPDATEs a
// deletion needs (R75). Both are observed facts of a cluster (or of a dump of one): nothing here simulates them.

import {
  describe,
  splitApiVersion,
  type ApiServiceFacts,
  type KubeObject,
  type LabelSelector,
  type ObjectIdentity,
  type ServiceReference,
  type WebhookFacts,
} from '../model';
import { guessPlural } from '../kinds/kindRegistry';
import { pasteable, shellComment, shellJson, shellWord } from '../shellWord';
import { preconditionOps, type JsonPatchOperation } from '../writePreconditions';
import type { BlockerFix, UserRequest } from './types';
import {
  apiServiceDeletionTitle,
  apiServiceDeletionWarning,
  SERVICE_NOT_FOUND,
  staleApiService,
  apiServiceInfrastructure,
  closedClause,
  closedIn,
  deleteApiServiceCommand,
  restoreElsewhereFix,
  type ClosedNamespace,
} from './apiServiceFixes';
import { describeReported, reportedFailureOf, type ReportedFailure } from './webhookFailures';
import { backendClause, backendState, isDown, SERVICE_NAME_LABEL, type BackendState, type BlockerView } from './serviceBackends';

export { backendClause, backendState, isDown, SERVICE_NAME_LABEL, type BackendState, type BlockerView };

export type { BlockerFix };

export type { JsonPatchOperation };

/** A fix with the request that does it, when the simulation can run it: a way out (app/waysOut.ts) of what it holds. */
export interface PlannedFix extends BlockerFix {
  wayOut?: {
    request: UserRequest;
    /** What a way out prints: the command that does it, or a shell comment where none does. */
    command: string;
    /** What it gives up, for a person: said as a warning, not as a certainty. */
    warning?: string;
    /** When `command` is one JSON patch: the object it goes to and its operations, exactly as the command has them. */
    patch?: { target: ObjectIdentity; ops: JsonPatchOperation[] };
  };
}

export interface ApiServiceBlocker {
  apiService: KubeObject;
  facts: ApiServiceFacts;
  backend: BackendState;
  /** One clause: "its Service monitoring/prometheus-adapter has no endpoints". */
  why: string;
  fixes: PlannedFix[];
  /** Set when the APIService or its Service belongs to the control plane or cluster infrastructure: never delete it. */
  infrastructure?: string;
  /** Why its add-on is gone or going, when the input says so (R90): then deleting it is the safe fix. */
  stale?: string;
}

export interface WebhookBlocker {
  configuration: KubeObject;
  webhook: WebhookFacts;
  index: number;
  backend: BackendState;
  /** A Namespace's condition that reports the apiserver failing to call it (R83). */
  reported?: ReportedFailure;
  why: string;
  fixes: PlannedFix[];
  infrastructure?: string;
}

/** A request a deletion needs, as admission sees it. */
export interface AdmissionRequest {
  operation: 'DELETE' | 'UPDATE';
  object: KubeObject;
  /** `finalize` for the namespace controller's PUT …/namespaces/<name>/finalize; "" for the object itself. */
  subresource?: string;
}

const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';
const INFRASTRUCTURE_NAMESPACES = /^(kube-system|openshift(-.*)?)$/;

/** Why an object belongs to the control plane or cluster infrastructure (never advise deleting it), or undefined. */
export function infrastructureLabel(o: { kind: string; apiVersion: string; namespace: string; name: string }): string | undefined {
  const { group } = splitApiVersion(o.apiVersion);
  if (o.namespace && INFRASTRUCTURE_NAMESPACES.test(o.namespace)) return `${describe(o)} is in ${o.namespace}, a control-plane namespace`;
  if (o.kind === 'Node' && group === '') return 'a Node is cluster infrastructure';
  if (/(^|\.)openshift\.io$/.test(group) || group === 'machine.openshift.io') return `${o.kind} is an OpenShift platform object`;
  if (/^(Machine|MachineSet|ControlPlaneMachineSet)$/.test(o.kind) || /etcd/i.test(o.kind) || /(^|\.)etcd\./.test(group))
    return `${o.kind} is cluster infrastructure`;
  return undefined;
}

/** A webhook's backend: a reader's or a restore's state first, then what a Namespace reports (R83), then the input. */
export function webhookBackend(view: BlockerView, h: WebhookFacts): { state: BackendState; reported?: ReportedFailure } {
  if (!h.service) return { state: 'unknown' };
  if (h.service.state) return { state: h.service.state };
  const reported = reportedFailureOf(view, h);
  if (reported) return { state: reported.state, reported };
  return { state: backendState(view, h.service) };
}

/** Restoring the Pods behind a Service; none in a namespace being deleted, where no Pod can be created (R77). */
function restoreFix(ref: ServiceReference, view: BlockerView, backend: BackendState, closed: ClosedNamespace): PlannedFix | undefined {
  if (closed(ref.namespace)) return undefined;
  // A Deployment named like its Service is the usual backend; otherwise the command shows what is there.
  const deployment = view.getByName('apps', 'Deployment', ref.namespace, ref.name);
  const svc = `Service ${ref.namespace}/${ref.name}`;
  const request: UserRequest = {
    verb: 'restore-backend',
    target: { apiVersion: 'v1', kind: 'Service', namespace: ref.namespace, name: ref.name },
  };
  if (backend === 'missing')
    // Pods alone would not do: nothing routes to them without the Service. The add-on's manifests bring back both.
    return {
      title: `Recreate ${svc} and the Pods behind it (reinstall the add-on that serves it)`,
      command: pasteable(`kubectl -n ${shellWord(ref.namespace)} get services,endpointslices`),
      risk: 'safe',
      wayOut: {
        request,
        command: shellComment(`no single kubectl command: reinstall the add-on that serves ${svc} (the Service and its Pods)`),
      },
    };
  if (deployment) {
    const command = pasteable(`kubectl -n ${shellWord(ref.namespace)} scale ${shellWord(`deployment/${ref.name}`)} --replicas=1`);
    return {
      title: `Restore the Pods behind ${svc} (Deployment ${ref.namespace}/${ref.name}, if it is scaled to 0 or failing)`,
      command,
      risk: 'safe',
      wayOut: { request, command },
    };
  }
  return {
    title: `Restore the Pods behind ${svc} (reinstall or scale up the workload it selects)`,
    command: pasteable(`kubectl -n ${shellWord(ref.namespace)} get endpointslices -l ${shellWord(`${SERVICE_NAME_LABEL}=${ref.name}`)}`),
    risk: 'safe',
    // That command only shows the endpoints: no single command brings the Pods back.
    wayOut: { request, command: shellComment(`no single kubectl command: reinstall or scale up the workload behind ${svc}`) },
  };
}

/**
 * APIServices served by a Service (not kube-apiserver itself) whose Available condition is not True: the aggregator
 * answers their discovery with 503, so discovery fails for their group/version.
 */
export function unavailableApiServices(view: BlockerView, closed: ClosedNamespace = closedIn(view)): ApiServiceBlocker[] {
  const out: ApiServiceBlocker[] = [];
  for (const a of view.ofKind('APIService')) {
    const facts = a.facts.apiService;
    if (a.deletionTimestamp !== undefined || !facts?.service || !facts.available || facts.available.status === 'True') continue;
    // The aggregator's own word that the Service does not exist, where the input cannot tell.
    const read = backendState(view, facts.service);
    const backend = read === 'unknown' && facts.available.reason === SERVICE_NOT_FOUND ? 'missing' : read;
    const detail = facts.available.reason
      ? `${facts.available.reason}${facts.available.message ? `: ${facts.available.message}` : ''}`
      : '';
    const shut = closed(facts.service.namespace);
    const why =
      (isDown(backend)
        ? backendClause(facts.service, backend)
        : detail || `its Service ${facts.service.namespace}/${facts.service.name} does not answer`) +
      (shut && backend !== 'namespace-terminating' ? closedClause(facts.service) : '');
    // R85: an APIService served by a Service is an add-on's, whatever its name; only OpenShift's are kept.
    const infrastructure = apiServiceInfrastructure(a, facts);
    const restore = shut ? restoreElsewhereFix(a, facts.service) : restoreFix(facts.service, view, backend, closed);
    const fixes: PlannedFix[] = restore ? [restore] : [];
    const stale = infrastructure ? undefined : staleApiService(facts, backend === 'missing', closed);
    if (!infrastructure) {
      const command = deleteApiServiceCommand(a);
      // R90: a stale one serves nothing now, and nothing of its add-on is left to restore: deleting it is safe, first.
      const deletion: PlannedFix = {
        title: apiServiceDeletionTitle(a, facts, stale),
        command,
        risk: stale ? 'safe' : 'caution',
        wayOut: { request: deleteRequest(a), command, warning: apiServiceDeletionWarning(facts) },
      };
      if (stale) fixes.unshift(deletion);
      else fixes.push(deletion);
    }
    out.push({ apiService: a, facts, backend, why, fixes, ...(infrastructure ? { infrastructure } : {}), ...(stale ? { stale } : {}) });
  }
  return out;
}

/** The webhooks that reject this request: they intercept it, fail closed, and their Service has no backend (R75). */
export function blockingWebhooks(view: BlockerView, req: AdmissionRequest): WebhookBlocker[] {
  return interceptingWebhooks(view, req)
    .filter((x) => isDown(x.backend.state))
    .map((x) => webhookBlocker(view, x.config, x.h, x.index, x.backend.state, closedIn(view), x.backend.reported));
}

/** R83: the fail-closed webhooks that intercept this request and whose backend the input cannot tell. */
export function unjudgedWebhooks(view: BlockerView, req: AdmissionRequest): { configuration: KubeObject; webhook: WebhookFacts }[] {
  return interceptingWebhooks(view, req)
    .filter((x) => x.backend.state === 'unknown')
    .map((x) => ({ configuration: x.config, webhook: x.h }));
}

/** The failurePolicy: Fail webhooks called through a Service that intercept this request, with their backend. */
function interceptingWebhooks(
  view: BlockerView,
  req: AdmissionRequest,
): { config: KubeObject; h: WebhookFacts; index: number; backend: ReturnType<typeof webhookBackend> }[] {
  const o = req.object;
  const { group, version } = splitApiVersion(o.apiVersion);
  // Webhook configurations and admission policies are never sent to webhooks (IsExemptAdmissionConfigurationResource).
  if (group === 'admissionregistration.k8s.io') return [];
  const resource = view.kinds.lookup(group, o.kind)?.plural ?? guessPlural(o.kind).plural;
  const isNamespace = group === '' && o.kind === 'Namespace';
  const namespaced = o.namespace !== '';
  const nsName = isNamespace ? o.name : o.namespace;
  const nsLabels = namespaceLabels(view, nsName);
  const out: { config: KubeObject; h: WebhookFacts; index: number; backend: ReturnType<typeof webhookBackend> }[] = [];
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
    for (const config of view.ofKind(kind)) {
      if (splitApiVersion(config.apiVersion).group !== 'admissionregistration.k8s.io') continue;
      (config.facts.webhooks ?? []).forEach((h, index) => {
        if (h.failurePolicy !== 'Fail' || !h.service || h.matchConditions) return;
        const rule = h.rules.some((r) =>
          ruleMatches(r, h.matchPolicy, req, group, version, resource, namespaced || isNamespace, isNamespace),
        );
        if (!rule) return;
        if ((namespaced || isNamespace) && h.namespaceSelector && !selectorMatches(h.namespaceSelector, nsLabels)) return;
        if (h.objectSelector && !selectorMatches(h.objectSelector, o.labels ?? {})) return;
        out.push({ config, h, index, backend: webhookBackend(view, h) });
      });
    }
  }
  return out;
}

/** The webhooks of one configuration that fail closed without a backend, whatever they intercept. */
export function failingWebhooks(view: BlockerView, config: KubeObject, closed: ClosedNamespace = closedIn(view)): WebhookBlocker[] {
  const out: WebhookBlocker[] = [];
  (config.facts.webhooks ?? []).forEach((h, index) => {
    if (h.failurePolicy !== 'Fail' || !h.service || h.matchConditions) return;
    const backend = webhookBackend(view, h);
    if (isDown(backend.state)) out.push(webhookBlocker(view, config, h, index, backend.state, closed, backend.reported));
  });
  return out;
}

function webhookBlocker(
  view: BlockerView,
  config: KubeObject,
  h: WebhookFacts,
  index: number,
  backend: BackendState,
  closed: ClosedNamespace,
  reported?: ReportedFailure,
): WebhookBlocker {
  const svc = h.service!;
  const resource = config.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfiguration' : 'validatingwebhookconfiguration';
  const infrastructure =
    infrastructureLabel(config) ?? infrastructureLabel({ kind: 'Service', apiVersion: 'v1', namespace: svc.namespace, name: svc.name });
  const ignoreOps = failurePolicyPatch(config, index, h, 'Ignore');
  const ignore = pasteable(`kubectl patch ${shellWord(`${resource}/${config.name}`)} --type=json -p ${shellJson(ignoreOps)}`);
  const restore = restoreFix(svc, view, backend, closed);
  const fixes: PlannedFix[] = [
    ...(restore ? [restore] : []),
    {
      title: `Let requests through while its backend is down: set failurePolicy: Ignore on webhook ${h.name}`,
      command: ignore,
      risk: 'caution',
      wayOut: {
        request: { verb: 'set-webhook-failure-policy', target: refOf(config), webhook: h.name, failurePolicy: 'Ignore' },
        command: ignore,
        warning: `while its backend does not answer, webhook ${h.name} lets through what it would have checked; set failurePolicy: Fail again once it runs`,
        patch: { target: { ...refOf(config), uid: config.uid }, ops: ignoreOps },
      },
    },
  ];
  if (!infrastructure) {
    const command = pasteable(`kubectl delete ${shellWord(`${resource}/${config.name}`)}`);
    fixes.push({
      title: `Delete ${config.kind} ${config.name} if its add-on is gone for good`,
      command,
      risk: 'caution',
      wayOut: {
        request: deleteRequest(config),
        command,
        warning: `no request is checked by the webhooks of ${config.kind} ${config.name} any more, until its add-on is reinstalled`,
      },
    });
  }
  return {
    configuration: config,
    webhook: h,
    index,
    backend,
    ...(reported ? { reported } : {}),
    why:
      (reported ? `${backendClause(svc, backend)} (${describeReported(reported)})` : backendClause(svc, backend)) +
      (closed(svc.namespace) && backend !== 'namespace-terminating' ? closedClause(svc) : ''),
    fixes,
    ...(infrastructure ? { infrastructure } : {}),
  };
}

/**
 * The JSON patch that sets webhook `index`'s failurePolicy, its test ops first, so that it fails if the configuration
 * was replaced (another uid), or the webhooks reordered or the policy changed since they were read. The apiserver
 * applies it to the object as admissionregistration/v1 serves it, where failurePolicy is never unset (defaulted to Fail
 * on create): a manifest without it means Fail, so the test is of "Fail" and the field is replaced.
 */
function failurePolicyPatch(config: KubeObject, index: number, h: WebhookFacts, policy: 'Ignore' | 'Fail'): JsonPatchOperation[] {
  const path = `/webhooks/${index}`;
  return [
    // The configuration's uid only: its resourceVersion moves whenever an injector rotates a caBundle, and the tests
    // below pin the webhook and the policy that were simulated.
    ...preconditionOps(config, false),
    { op: 'test', path: `${path}/name`, value: h.name },
    { op: 'test', path: `${path}/failurePolicy`, value: h.failurePolicy },
    { op: 'replace', path: `${path}/failurePolicy`, value: policy },
  ];
}

const refOf = (o: KubeObject) => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name });

/** A DELETE of exactly this object (a uid precondition), with the kind's default policy. */
const deleteRequest = (o: KubeObject): UserRequest => ({ ...refOf(o), preconditions: { uid: o.uid } });

/** A namespace's labels, with the `kubernetes.io/metadata.name` label the apiserver sets on every namespace. */
function namespaceLabels(view: BlockerView, name: string): Record<string, string> {
  const ns = view.getByName('', 'Namespace', '', name);
  return { ...(ns?.labels ?? {}), [METADATA_NAME_LABEL]: name };
}

/** rules.Matcher: scope, operation, group, version (any, with matchPolicy Equivalent), resource/subresource. */
function ruleMatches(
  r: WebhookFacts['rules'][number],
  matchPolicy: string,
  req: AdmissionRequest,
  group: string,
  version: string,
  resource: string,
  namespacedRequest: boolean,
  isNamespace: boolean,
): boolean {
  const scope = r.scope ?? '*';
  if (scope === 'Namespaced' && (isNamespace || !namespacedRequest)) return false;
  if (scope === 'Cluster' && !(isNamespace || !namespacedRequest)) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!r.operations.some((op) => op === '*' || op === req.operation)) return false;
  if (!r.apiGroups.some((g) => g === '*' || g === group)) return false;
  if (matchPolicy === 'Exact' && !r.apiVersions.some((v) => v === '*' || v === version)) return false;
  const sub = req.subresource ?? '';
  return r.resources.some((res) => {
    const [rr, rs = ''] = res.split('/', 2);
    return (rr === '*' || rr === resource) && (rs === '*' || rs === sub);
  });
}

/** A label selector against labels (matchLabels and matchExpressions: In, NotIn, Exists, DoesNotExist). */
export function selectorMatches(s: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of s.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[e.key])) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[e.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** "APIService v1beta1.metrics.k8s.io is unavailable (its Service monitoring/prometheus-adapter has no ready endpoints)". */
export function describeApiServiceBlocker(b: ApiServiceBlocker): string {
  return `APIService ${b.apiService.name} is unavailable (${b.why})`;
}

/** "ValidatingWebhookConfiguration policy's webhook validate.example.com (failurePolicy: Fail) …". */
export function describeWebhookBlocker(b: WebhookBlocker, req: AdmissionRequest): string {
  const what = req.subresource
    ? `${req.operation} of ${describe(req.object)}/${req.subresource}`
    : `${req.operation} of ${describe(req.object)}`;
  return `${b.configuration.kind} ${b.configuration.name}'s webhook ${b.webhook.name} intercepts the ${what} with failurePolicy: Fail, and ${b.why}, so the apiserver rejects it`;
}

// From a simulation to the Report every front end shows (shared/src/wire/simulation.ts): the CLI's text and JSON, the editor's
// Simulate Delete, the graph's playback. What the request causes is told apart from what the garbage collector does
// to the input anyway, by a second simulation with no DELETE (the baseline).

import type { Inventory } from '../engine/inventory';
import type { ObjectIdentity } from '../engine/model';
import { simulate } from '../engine/simulation/simulate';
import type { SimulationOptions, SimulationResult, StuckEntry } from '../engine/simulation/types';
import { isChange, type ChangeRequest, type ObjectRef, type UserRequest } from '../engine/simulation/changeRequest';
import {
  REPORT_VERSION,
  type Cause,
  type ChangeSummary,
  type ImpactSummary,
  type PolicyChoice,
  type Report,
  type SimulateReport,
  type SourceLocation,
  type TargetReport,
  inKindOrder,
} from '../../../shared/src/protocol';
import { impactTitle, kindList, summarizeImpact, targetOutcome } from './impact';
import { locationOf } from './objects';
import { protectedBy } from './finalizerProtects';
import { stuckCause } from './stuckCause';
import { baselineSimulation, deleteRequestOf, deletionSimulation, type SimulationSettings } from './simulationCache';

/** The Report of `requests` on `inventory`; `result` and `baseline` when the caller has them already. */
export function buildReport(
  inventory: Inventory,
  requests: readonly UserRequest[],
  result: SimulationResult,
  baseline: SimulationResult,
): Report {
  const targets: TargetReport[] = requests.map((r, i) => {
    const ref = targetOf(r);
    const info = inventory.kinds.lookup(ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '', ref.kind);
    const o = inventory.find(info?.group ?? '', ref.kind, info && !info.namespaced ? '' : ref.namespace, ref.name);
    const uid = (isChange(r) ? undefined : r.preconditions?.uid) ?? o?.uid;
    const rejected = result.steps.some((s) => s.request === i && s.action === 'reject');
    const outcome = uid !== undefined ? targetOutcome(result, uid, baseline) : rejected ? 'rejected' : 'unchanged';
    const sent = result.requests?.[i];
    return {
      request: i,
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      namespace: ref.namespace,
      name: ref.name,
      ...(uid !== undefined ? { uid } : {}),
      outcome,
      ...(sent ? { afterStep: sent.afterStep } : {}),
      ...(sent?.unchanged !== undefined ? { unchanged: sent.unchanged } : {}),
      ...(isChange(r) ? { change: changeSummary(r) } : {}),
    };
  });
  const targetUids = targets.flatMap((t) => (t.uid !== undefined ? [t.uid] : []));
  // With no DELETE everything is the GC settling the input: the counts are then of that.
  const counts = requests.length ? summarizeImpact(result, targetUids, baseline) : summarizeImpact(result, []);
  const isTarget = new Set(targetUids);
  const before = {
    deleted: new Set(baseline.deleted.map((d) => d.uid)),
    stuck: new Set(baseline.stuck.map((s) => s.uid)),
    orphaned: new Set(baseline.orphaned.map((o) => `${o.uid}\u0000${o.ownerUID}`)),
  };
  const cause = (anyway: boolean, uid: string): Cause => (requests.length === 0 || (anyway && !isTarget.has(uid)) ? 'settling' : 'request');
  return {
    version: REPORT_VERSION,
    summary: summaryLine(
      targets,
      counts,
      causeOfStuck(
        result,
        requests.length ? (s) => isTarget.has(s.uid) || !before.stuck.has(s.uid) : () => true,
        isTarget,
        scaledToZero(inventory, requests),
      ),
    ),
    targets,
    counts,
    deleted: result.deleted.map((d) => ({ ...d, cause: cause(before.deleted.has(d.uid), d.uid) })),
    orphaned: result.orphaned.map((o) => ({ ...o, cause: cause(before.orphaned.has(`${o.uid}\u0000${o.ownerUID}`), o.uid) })),
    // The simulation finds them in the input's order (a live cluster's: which LIST answered first): one order for
    // every reader of the same objects.
    stuck: [...result.stuck].sort(byIdentity).map((s) => ({ ...s, cause: cause(before.stuck.has(s.uid), s.uid) })),
    steps: result.steps,
    notes: result.notes,
    ...(result.aborted ? { aborted: result.aborted } : {}),
    ...(result.kubernetesVersion ? { kubernetesVersion: result.kubernetesVersion } : {}),
    controllers: result.controllers ?? 'builtin',
  };
}

const byIdentity = (a: ObjectIdentity, b: ObjectIdentity) =>
  a.namespace.localeCompare(b.namespace) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name) || a.uid.localeCompare(b.uid);

/** Simulates `requests` and its baseline, and reports (the CLI's path; the editor's caches: simulateDelete). */
export function simulateReport(
  inventory: Inventory,
  requests: readonly UserRequest[],
  options: SimulationOptions,
): { report: Report; result: SimulationResult } {
  const result = simulate(inventory, requests, options);
  const baseline = requests.length ? simulate(inventory, [], { ...options, arrival: undefined }) : result;
  const report = buildReport(inventory, requests, result, baseline);
  const warnings = finalizerWarnings(inventory, requests, result, baseline);
  if (warnings.length) report.notes = [...report.notes, ...warnings];
  return { report, result };
}

/** For each finalizer a request removed: what it was protecting, when we can tell (a warning, not a certainty). */
function finalizerWarnings(
  inventory: Inventory,
  requests: readonly UserRequest[],
  result: SimulationResult,
  baseline: SimulationResult,
): string[] {
  return requests.flatMap((r, i) => {
    if (!isChange(r) || r.verb !== 'remove-finalizer') return [];
    if (!result.steps.some((s) => s.request === i && s.action === 'remove-finalizer')) return [];
    const info = inventory.kinds.lookup(r.target.apiVersion.includes('/') ? r.target.apiVersion.split('/')[0] : '', r.target.kind);
    const o = inventory.find(info?.group ?? '', r.target.kind, r.target.namespace, r.target.name);
    if (!o) return [];
    const stuck = baseline.stuck.find((s) => s.uid === o.uid) ?? { blockedBy: [] };
    return [`Removing ${r.finalizer}: ${protectedBy(o, r.finalizer, stuck)}.`];
  });
}

/** The short cause of what the request leaves stuck: the target's own first, else the first stuck entry's. */
function causeOfStuck(
  result: SimulationResult,
  caused: (s: StuckEntry) => boolean,
  isTarget: ReadonlySet<string>,
  scaledToZero: ReadonlySet<string>,
): string | undefined {
  const stuck = result.stuck.filter(caused);
  const first = stuck.find((s) => isTarget.has(s.uid)) ?? stuck[0];
  if (!first) return undefined;
  const context = { deleted: new Set(result.deleted.map((d) => d.uid)), stuck: new Set(result.stuck.map((s) => s.uid)), scaledToZero };
  return stuckCause(first.blockedBy, context);
}

/** Workloads at 0 replicas once the requests are applied: as the input gives them, or as the last scale request sets them. */
function scaledToZero(inventory: Inventory, requests: readonly UserRequest[]): Set<string> {
  const replicas = new Map<string, number | undefined>();
  for (const o of inventory.ofKind('Deployment')) replicas.set(o.uid, o.facts.scaledToZero ? 0 : undefined);
  for (const o of inventory.ofKind('StatefulSet')) replicas.set(o.uid, o.facts.scaledToZero ? 0 : undefined);
  for (const r of requests) {
    if (!isChange(r) || r.verb !== 'scale') continue;
    const info = inventory.kinds.lookup(r.target.apiVersion.includes('/') ? r.target.apiVersion.split('/')[0] : '', r.target.kind);
    const o = inventory.find(info?.group ?? '', r.target.kind, r.target.namespace, r.target.name);
    if (o) replicas.set(o.uid, r.replicas);
  }
  return new Set([...replicas].filter(([, n]) => n === 0).map(([uid]) => uid));
}

/**
 * The one line that leads every report: what the request causes, the target's fate first when it is not simply
 * deleted, and why what it leaves stuck is stuck (`stuckReason`, from the why-chain by stuckCause.ts; else the counts' short reason).
 * "Deleting Namespace kafka: it stays Terminating (finalizer deadlock: Deployment kafka/strimzi-cluster-operator, whose
 * controller removes kafka.strimzi.io/finalizer, is deleted first), 1 object deleted (…), 3 stuck, 0 orphaned".
 */
export function summaryLine(targets: readonly TargetReport[], counts: ImpactSummary, stuckReason?: string): string {
  const subject = summarySubject(targets);
  const single = targets.length === 1 ? targets[0].outcome : undefined;
  if (single === 'rejected') return `${subject}: rejected by the apiserver`;
  const parts: string[] = [];
  if (single === 'collected') parts.push('the garbage collector deletes it anyway');
  const because = stuckReason ?? counts.stuckBecause;
  if (single === 'stuck') parts.push(`it stays Terminating${because ? ` (${because})` : ''}`);
  const deleted = Object.values(counts.deletedByKind).reduce((sum, n) => sum + n, 0);
  const kinds = kindList(inKindOrder(counts.deletedByKind));
  parts.push(`${deleted} ${deleted === 1 ? 'object' : 'objects'} deleted${deleted ? ` (${kinds})` : ''}`);
  parts.push(`${counts.stuck} stuck${counts.stuck && because && single !== 'stuck' ? ` (${because})` : ''}`);
  parts.push(`${counts.orphaned} orphaned`);
  return `${subject}: ${parts.join(', ')}`;
}

/** Up to this many requests, one of them a change, the summary says each in order ("Scaling …, then deleting …"). */
const MAX_PHRASED = 3;
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** What the summary line opens with: "Deleting Deployment shop/web", "Removing finalizer F from …", "Changing 4 objects". */
export function summarySubject(targets: readonly TargetReport[]): string {
  if (targets.length === 0) return 'No DELETE, the garbage collector settling the input as given';
  if (targets.length === 1) return requestPhrase(targets[0]);
  const deletesOnly = targets.every((t) => !t.change);
  if (!deletesOnly && targets.length <= MAX_PHRASED)
    return targets.map((t, i) => (i === 0 ? requestPhrase(t) : lowerFirst(requestPhrase(t)))).join(', then ');
  // The objects are counted once each, however many requests name them ("Changing Deployment a/b (4 requests)").
  const objects = new Set(targets.map(objectKey)).size;
  const verb = deletesOnly ? 'Deleting' : 'Changing';
  if (objects === targets.length) return `${verb} ${objects} objects`;
  return `${verb} ${objects === 1 ? describeTarget(targets[0]) : `${objects} objects`} (${targets.length} requests)`;
}

/** One object, whatever version names it; a request without an object (restore-controller) is its own. */
const objectKey = (t: TargetReport) =>
  t.name
    ? JSON.stringify([t.apiVersion.includes('/') ? t.apiVersion.split('/')[0] : '', t.kind, t.namespace, t.name])
    : `request ${t.request}`;

const describeTarget = (t: { kind: string; namespace: string; name: string }) =>
  `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;

/** What one request does, as the summary line opens: "Deleting Deployment shop/web", "Removing finalizer F from …". */
function requestPhrase(t: TargetReport): string {
  const what = describeTarget(t);
  switch (t.change?.verb) {
    case undefined:
      return `Deleting ${what}`;
    case 'remove-finalizer':
      return `Removing finalizer ${t.change.detail} from ${what}`;
    case 'remove-owner-reference':
      return `Removing the ownerReference to uid ${t.change.detail} from ${what}`;
    case 'set-owner-reference':
      return `Fixing the ownerReference to uid ${t.change.detail} of ${what}`;
    case 'scale':
      return `Scaling ${what} to ${t.change.detail} replica${t.change.detail === '1' ? '' : 's'}`;
    case 'restore-controller':
      // Named without the object it is meant to release (a plan may leave it out): no "for".
      return `Running the controller of ${t.change.detail} again${t.name ? `, for ${what}` : ''}`;
    case 'set-webhook-failure-policy': {
      const at = t.change.detail.lastIndexOf('=');
      return `Setting failurePolicy: ${t.change.detail.slice(at + 1)} on webhook ${t.change.detail.slice(0, at)} of ${what}`;
    }
    case 'restore-backend':
      return t.kind === 'APIService' ? `Serving ${what} from its add-on reinstalled elsewhere` : `Restoring the Pods behind ${what}`;
  }
}

/** The object a request names: a change without one (restore-controller) names the object it is meant to release. */
function targetOf(r: UserRequest): ObjectRef {
  if (!isChange(r)) return r;
  return r.verb === 'restore-controller' ? (r.for ?? { apiVersion: '', kind: '', namespace: '', name: '' }) : r.target;
}

function changeSummary(r: ChangeRequest): ChangeSummary {
  switch (r.verb) {
    case 'remove-finalizer':
    case 'restore-controller':
      return { verb: r.verb, detail: r.finalizer };
    case 'remove-owner-reference':
    case 'set-owner-reference':
      return { verb: r.verb, detail: r.ownerUid };
    case 'scale':
      return { verb: r.verb, detail: String(r.replicas) };
    case 'set-webhook-failure-policy':
      return { verb: r.verb, detail: `${r.webhook}=${r.failurePolicy}` };
    case 'restore-backend':
      return { verb: r.verb, detail: r.target.namespace ? `${r.target.namespace}/${r.target.name}` : r.target.name };
  }
}

/** Simulate Delete of one object on an inventory (the workspace's or the live cluster's); `notes` are added. */
export function simulateDelete(
  inventory: Inventory,
  uid: string,
  policy: PolicyChoice,
  options: SimulationSettings,
  notes: string[] = [],
): SimulateReport | null {
  const o = inventory.objects.get(uid);
  if (!o) return null;
  const result = deletionSimulation(inventory, o, policy, options);
  const baseline = baselineSimulation(inventory, options);
  const report = buildReport(inventory, [deleteRequestOf(o, policy)], result, baseline);
  const outcome = report.targets[0].outcome;
  return {
    ...report,
    notes: notes.length ? [...report.notes, ...notes] : report.notes,
    controllers: options.controllers,
    target: { apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name, uid: o.uid },
    policy,
    locations: locationsOf(inventory, [o, ...result.deleted, ...result.orphaned, ...result.steps.map((s) => s.target)], result),
    outcome,
    title: impactTitle(report.counts, { kind: o.kind, outcome }),
  };
}

/** uid → where it is written, for the objects given and every object a stuck entry's why-chain names. */
export function locationsOf(inventory: Inventory, objects: ObjectIdentity[], result: SimulationResult): Record<string, SourceLocation> {
  const locations: Record<string, SourceLocation> = {};
  const note = (id: ObjectIdentity | undefined) => {
    if (!id || locations[id.uid]) return;
    const loc = locationOf(inventory.objects.get(id.uid));
    if (loc) locations[id.uid] = loc;
  };
  const walk = (reasons: SimulationResult['stuck'][number]['blockedBy']): void => {
    for (const r of reasons) {
      note(r.object);
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  for (const o of objects) note(o);
  for (const s of result.stuck) {
    note(s);
    walk(s.blockedBy);
  }
  return locations;
}

// The ways out of a stuck deletion (issue 18): for an object that cannot finish, the changes that would let it,
// safest first, each simulated on the same input before anyone takes it. Safe: let the controller that holds the
// finalizer finish (scale it up, run it again). Caution: change ownership (release a blocking dependent, force a
// Pod whose node is gone; clear a blocker outside ownership: an unavailable APIService, a webhook that fails closed).
// Dangerous: skip a cleanup (remove a finalizer), with what that leaves behind. A blocker's fix that does not release
// the object by itself is still listed, saying what then holds it, and tried before each other change.
// Nothing here deletes an object to get out (but an add-on's APIService or webhook configuration, never
// infrastructure, and Pods that have finished), and nothing is sent anywhere: the CLI prints the commands, the editor
// may send them only when the user allowed writes and confirmed.

import type { JsonPatchOp, Report, WayOut, WayOutPatch, WayOutRisk } from '../../../shared/src/protocol';
import { inventoryView } from '../engine/analysis/blockerFindings';
import type { Inventory } from '../engine/inventory';
import { pasteable, shellComment, shellJson, shellWord, urlPathSegment } from '../engine/shellWord';
import { preconditionOps } from '../engine/writePreconditions';
import { describe, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, splitApiVersion, type KubeObject, type ObjectIdentity } from '../engine/model';
import { isChange, type ChangeRequest, type UserRequest } from '../engine/simulation/changeRequest';
import { failingWebhooks, infrastructureLabel, unavailableApiServices, type PlannedFix } from '../engine/simulation/clusterBlockers';
import type { BlockReason, DeleteRequest, SimulationResult, StuckEntry } from '../engine/simulation/types';
import { buildReport } from './report';
import { afterRequests } from './afterRequests';
import { collateral, removalRisk, restoreAdvice } from './finalizerCatalogueWays';
import { protectedBy } from './finalizerProtects';
import { deleteFinishedPods, NAMESPACE_FINALIZER, removeNamespaceSpecFinalizers } from './releaseWaysOut';
import { webhookDoubt } from './webhookDoubt';
import { planRequestOf } from './planRequests';
import { baselineSimulation, changesSimulation, type SimulationSettings } from './simulationCache';

export { shellWord };

/** At most this many ways out per stuck object: the safest that release it. */
export const MAX_WAYS_OUT = 5;
/** And at most this many blocker fixes that clear one cause but leave the object held by another. */
const MAX_PARTIAL = 3;
const RISK_ORDER: Record<WayOutRisk, number> = { safe: 0, caution: 1, dangerous: 2 };

interface Candidate {
  requests: UserRequest[];
  title: string;
  risk: WayOutRisk;
  command: string;
  warning?: string;
  infrastructure?: string;
  /** The blocker outside ownership (APIService, webhook configuration) this clears, by uid. */
  clears?: string;
  /** The PATCH the editor may send for it (a JSON patch with its test op first); only on a single change. */
  patch?: WayOutPatch;
  /**
   * It lets a controller delete what it manages or external data (the catalogue says so), for an object deleted only
   * with its namespace or CRD: listed after the ways out of the same risk that leave those behind (R89).
   */
  destroys?: true;
}

type Simulated = { c: Candidate; result: SimulationResult; report: Report };

/**
 * The ways out of the stuck object `uid`, safest first; none when it is not stuck in the input as given, or, with
 * `prior` (a report's DELETEs), once those requests have settled. Then every way out starts from that state (its
 * patch and command are what a user would send after them) and its outcome is what it changes from there.
 */
export function waysOut(inventory: Inventory, uid: string, options: SimulationSettings, prior: readonly UserRequest[] = []): WayOut[] {
  const baseline = prior.length ? changesSimulation(inventory, [...prior], options) : baselineSimulation(inventory, options);
  const stuckByUid = new Map(baseline.stuck.map((s) => [s.uid, s]));
  const root = stuckByUid.get(uid);
  if (!root) return [];
  // After the prior requests an object's resourceVersion is not the one read (the simulated DELETE changed it): its
  // way out tests its uid, not a resourceVersion nobody knows yet.
  const finalObject = baseline.finalObject;
  const object =
    prior.length && finalObject
      ? (id: string) => {
          const o = finalObject(id);
          return o && { ...o, resourceVersion: undefined };
        }
      : (id: string) => inventory.objects.get(id);
  const candidates = new Map<string, Candidate>();
  // A controller restored for one stuck object runs for all of them: one such way out, the first found.
  const keyOf = (c: Candidate) =>
    JSON.stringify(c.requests.map((r) => (isChange(r) && r.verb === 'restore-controller' ? { ...r, for: undefined } : r)));
  const add = (c: Candidate) => {
    if (!candidates.has(keyOf(c))) candidates.set(keyOf(c), c);
  };
  // Nothing new is created in a namespace being deleted (NamespaceLifecycle, R77): no operator reinstalled there, no
  // Pod for a workload scaled up there, no backend restored there; nor in one gone after the prior requests.
  const closed = (ns: string | undefined) => {
    const n = ns ? inventory.find('', 'Namespace', '', ns) : undefined;
    const now = n && object(n.uid);
    return n !== undefined && (!now || now.deletionTimestamp !== undefined);
  };
  for (const x of blockersOf(root, stuckByUid)) {
    const o = object(x.uid);
    if (o) for (const c of candidatesFor(inventory, o, x, object, closed)) add(c);
  }
  const fixes = blockerFixes(inventory, root, closed);
  for (const c of fixes) add(c);
  const simulate = (c: Candidate): Simulated => {
    const run = changesSimulation(inventory, [...prior, ...c.requests], options);
    const result = prior.length ? afterRequests(run, prior.length, baseline) : run;
    return { c, result, report: buildReport(inventory, c.requests, result, baseline) };
  };
  const releases = (x: Simulated) => x.result.deleted.some((d) => d.uid === uid);
  const simulated = [...candidates.values()].map(simulate);
  const released = simulated.filter(releases);
  const partial = simulated.filter((x) => x.c.clears && !releases(x) && !namesBlocker(x.result, uid, x.c.clears));
  // A blocker cleared first may let through a change it rejected (a finalizer's removal a webhook refused), or finish
  // what a change leaves held by that blocker (an APIService): only those are paired, so the pairs stay few on a
  // namespace of many objects.
  const rejected = (x: Simulated) => x.result.steps.some((s) => s.action === 'reject' && s.request !== undefined);
  const heldByBlocker = (x: Simulated) => partial.some((p) => namesBlocker(x.result, uid, p.c.clears!));
  const held = simulated.filter((x) => !x.c.clears && !releases(x) && (rejected(x) || heldByBlocker(x)) && !x.c.command.startsWith('#'));
  // Blockers of several kinds (an APIService, a webhook) are cleared together, each by its safest fix: a way out of
  // three or more steps when a rejected change is needed too.
  const all = allFixes(partial.map((x) => x.c));
  const firsts = [...partial.map((p) => p.c), ...all];
  const combined = [...all, ...firsts.flatMap((first) => held.map((h) => then(first, h.c)))].map(simulate).filter(releases);
  const byRisk = (a: Simulated, b: Simulated) => bySafety(a, b) || a.report.stuck.length - b.report.stuck.length;
  const listed = [...[...released, ...combined].sort(byRisk).slice(0, MAX_WAYS_OUT), ...partial.sort(byRisk).slice(0, MAX_PARTIAL)];
  // Only what releases the object counts as a way out of it, or clears one of its blockers (said so); safest first.
  return listed.sort(bySafety).map(({ c, result, report }) => {
    const still = releases({ c, result, report }) ? undefined : result.stuck.find((s) => s.uid === uid);
    const warning = [c.warning, still && `this alone does not release it: ${still.reason}`].filter(Boolean).join('; ');
    return {
      title: c.title,
      risk: c.risk,
      command: c.command,
      ...(warning ? { warning } : {}),
      ...(c.infrastructure ? { infrastructure: c.infrastructure } : {}),
      ...(c.patch ? { patch: c.patch } : {}),
      requests: c.requests.map(planRequestOf),
      outcome: {
        summary: report.summary,
        counts: report.counts,
        deleted: report.deleted,
        orphaned: report.orphaned,
        stuck: report.stuck,
        notes: report.notes,
      },
    };
  });
}

/**
 * Safest first; at one risk, what leaves things behind (they can be cleaned up later) before what destroys them
 * (they cannot be brought back).
 */
function bySafety(a: Simulated, b: Simulated): number {
  return RISK_ORDER[a.c.risk] - RISK_ORDER[b.c.risk] || Number(a.c.destroys ?? 0) - Number(b.c.destroys ?? 0);
}

/** Whether the why-chain of `uid` in `result` still names the object `blocker`. */
function namesBlocker(result: SimulationResult, uid: string, blocker: string): boolean {
  const names = (reasons: readonly BlockReason[] | undefined): boolean =>
    (reasons ?? []).some((r) => r.object?.uid === blocker || names(r.blockedBy));
  return names(result.stuck.find((s) => s.uid === uid)?.blockedBy);
}

/**
 * The safest fix of each blocker outside ownership, one after the other, and the safest that is a kubectl command
 * (a user can paste the whole line); none unless there are two blockers or more.
 */
function allFixes(fixes: readonly Candidate[]): Candidate[] {
  const chain = (usable: (c: Candidate) => boolean): Candidate | undefined => {
    const safest = new Map<string, Candidate>();
    for (const c of fixes.filter(usable)) {
      const known = safest.get(c.clears!);
      if (!known || RISK_ORDER[c.risk] < RISK_ORDER[known.risk]) safest.set(c.clears!, c);
    }
    return safest.size < 2 || safest.size < new Set(fixes.map((c) => c.clears)).size ? undefined : [...safest.values()].reduce(then);
  };
  const chains = [chain(() => true), chain((c) => !c.command.startsWith('#'))].filter((c) => c !== undefined);
  return chains.filter((c, i) => chains.findIndex((d) => d.command === c.command) === i);
}

/**
 * `first`, then `next`: one way out of several requests, as risky as the riskiest. Its command runs them in order
 * (`&&`); a step without a command (a comment: reinstall something) puts each step on a line of its own.
 */
function then(first: Candidate, next: Candidate): Candidate {
  const script = [first.command, next.command].some((c) => c.startsWith('#') || c.includes('\n'));
  return {
    requests: [...first.requests, ...next.requests],
    title: `${first.title}, then: ${next.title}`,
    risk: RISK_ORDER[first.risk] >= RISK_ORDER[next.risk] ? first.risk : next.risk,
    command: script ? `${first.command}\n${next.command}` : `${first.command} && ${next.command}`,
    ...(first.warning || next.warning ? { warning: [first.warning, next.warning].filter(Boolean).join('; ') } : {}),
    ...(first.infrastructure ? { infrastructure: first.infrastructure } : {}),
    ...(first.destroys || next.destroys ? { destroys: true as const } : {}),
  };
}

/**
 * The fixes of every blocker outside ownership the why-chain names (R74–R76): restore its backend, set a webhook's
 * failurePolicy to Ignore, delete an add-on's APIService or webhook configuration. Never a deletion of infrastructure.
 */
function blockerFixes(inventory: Inventory, root: StuckEntry, closed: (namespace: string) => boolean): Candidate[] {
  const view = inventoryView(inventory);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const visit = (reasons: readonly BlockReason[] | undefined) => {
    for (const r of reasons ?? []) {
      const uid = r.object?.uid;
      if (uid && !seen.has(uid) && (r.type === 'unavailable-apiservice' || r.type === 'blocking-webhook')) {
        seen.add(uid);
        const o = inventory.objects.get(uid);
        const blockers =
          r.type === 'unavailable-apiservice'
            ? unavailableApiServices(view, closed).filter((b) => b.apiService.uid === uid)
            : o
              ? failingWebhooks(view, o, closed)
              : [];
        for (const b of blockers) for (const f of b.fixes) if (f.wayOut) out.push(fixCandidate(f, uid, b.infrastructure));
      }
      visit(r.blockedBy);
    }
  };
  visit(root.blockedBy);
  return out.filter((c) => !c.requests.some((r) => !isChange(r) && infrastructureLabel(r)));
}

function fixCandidate(f: PlannedFix, clears: string, infrastructure: string | undefined): Candidate {
  const w = f.wayOut!;
  return {
    requests: [w.request],
    title: f.title,
    risk: f.risk,
    command: w.command,
    ...(w.warning ? { warning: w.warning } : {}),
    ...(infrastructure ? { infrastructure } : {}),
    clears,
    // The editor may send it when it is one JSON patch (a webhook's failurePolicy); the rest is copied.
    ...(w.patch ? { patch: { target: w.patch.target, ops: w.patch.ops } } : {}),
  };
}

/** The stuck object and every stuck object its why-chain names, each once. */
function blockersOf(root: StuckEntry, stuck: ReadonlyMap<string, StuckEntry>): StuckEntry[] {
  const out = new Map<string, StuckEntry>([[root.uid, root]]);
  const visit = (reasons: readonly BlockReason[] | undefined) => {
    for (const r of reasons ?? []) {
      const named = r.object && stuck.get(r.object.uid);
      if (named && !out.has(named.uid)) {
        out.set(named.uid, named);
        visit(named.blockedBy);
      }
      visit(r.blockedBy);
    }
  };
  visit(root.blockedBy);
  return [...out.values()];
}

/** What could release one stuck object `o`, from its own reasons; `object`: any object as the ways out find it. */
function candidatesFor(
  inventory: Inventory,
  o: KubeObject,
  stuck: StuckEntry,
  object: (uid: string) => KubeObject | undefined,
  closed: (namespace: string | undefined) => boolean,
): Candidate[] {
  const out: Candidate[] = [];
  for (const r of stuck.blockedBy) {
    if (r.type === 'graceful-termination') out.push(forceDelete(o));
    if (r.type === 'waiting-for-dependents' && r.object && r.object.uid !== o.uid) {
      const dependent = object(r.object.uid);
      if (dependent) out.push(removeOwnerReference(dependent, o));
    }
    if (r.type === 'unresolvable-owner')
      for (const ref of o.ownerReferences)
        if (!inventory.kinds.restMapping(ref.apiVersion, ref.kind)) out.push(removeOwnerReference(o, { ...ref, namespace: o.namespace }));
    if (r.type === 'finalizer' && r.finalizer) {
      const controller = r.object && r.object.uid !== o.uid ? r.object : undefined;
      const workload = controller && object(controller.uid);
      const elsewhere = controller && closed(controller.namespace) ? controller.namespace : undefined;
      const restore =
        workload && workload.facts.scaledToZero && workload.deletionTimestamp === undefined && !elsewhere
          ? scaleUp(workload, r.finalizer, o)
          : isCustomFinalizer(r.finalizer) && (!workload || workload.deletionTimestamp !== undefined || elsewhere)
            ? restoreController(o, r.finalizer, controller, elsewhere)
            : undefined;
      if (restore) out.push(collateral(inventory, o, object, closed) ? restore : { ...restore, destroys: undefined });
    }
  }
  const finishedPods = deleteFinishedPods(inventory, o, object);
  if (finishedPods) out.push(finishedPods);
  for (const f of o.finalizers) out.push(removeFinalizer(o, f, o.finalizers.indexOf(f), stuck));
  out.push(...removeNamespaceSpecFinalizers(o));
  if (
    o.kind === 'Namespace' &&
    splitApiVersion(o.apiVersion).group === '' &&
    (o.facts.namespaceFinalizers ?? []).includes(NAMESPACE_FINALIZER)
  )
    out.push(finalizeNamespace(o));
  return out.map(labelInfrastructure).map((c) => withWebhookDoubt(inventory, c));
}

/** R83: a request a fail-closed webhook of unknown backend intercepts may be rejected: the way out says so. */
function withWebhookDoubt(inventory: Inventory, c: Candidate): Candidate {
  const doubt = webhookDoubt(inventory, c.requests);
  return doubt ? { ...c, warning: [c.warning, doubt].filter(Boolean).join('; ') } : c;
}

/** A change to control-plane or cluster infrastructure (an OpenShift Machine, kube-system) says so (issue 18). */
function labelInfrastructure(c: Candidate): Candidate {
  if (c.infrastructure) return c;
  const first = c.requests[0];
  const target = !first ? undefined : !isChange(first) ? first : 'target' in first ? first.target : undefined;
  const label = target && infrastructureLabel(target);
  return label ? { ...c, infrastructure: label } : c;
}

const isCustomFinalizer = (f: string) => f !== FOREGROUND_FINALIZER && f !== ORPHAN_FINALIZER && !f.startsWith('kubernetes.io/');

function scaleUp(workload: KubeObject, finalizer: string, o: KubeObject): Candidate {
  // On the scale subresource, as `kubectl scale` sends it. Its autoscaling/v1 Scale carries the workload's uid and
  // resourceVersion; of 0 replicas it has an empty spec (replicas is omitempty): the tests fail if the workload was
  // replaced or changed, or scaled meanwhile.
  const ops: JsonPatchOp[] = [
    ...preconditionOps(workload, true),
    { op: 'test', path: '/spec', value: {} },
    { op: 'add', path: '/spec/replicas', value: 1 },
  ];
  const { risk, then: deletes, warning } = restoreAdvice(o, finalizer);
  return {
    requests: [{ verb: 'scale', target: refOf(workload), replicas: 1 }],
    title: `Scale ${describe(workload)} up to 1 replica: it runs the controller that removes ${finalizer}${deletes ? `; ${deletes}` : ''}`,
    risk,
    ...(warning ? { warning } : {}),
    ...(deletes ? { destroys: true as const } : {}),
    command: jsonPatch(workload, ops, 'scale'),
    patch: { target: identityOf(workload), subresource: 'scale', ops },
  };
}

/** The controller of `finalizer` running again; `closedNamespace`: its own namespace is being deleted, so elsewhere. */
function restoreController(o: KubeObject, finalizer: string, controller: ObjectIdentity | undefined, closedNamespace?: string): Candidate {
  const request: ChangeRequest = { verb: 'restore-controller', finalizer, for: refOf(o) };
  const who = controller ? describe(controller) : `the operator that removes ${finalizer}`;
  const scope = o.namespace ? `namespace ${o.namespace}` : 'the cluster';
  // A controller that deletes what it manages before removing its finalizer: never safe, and said so.
  const { risk, then: deletes, warning } = restoreAdvice(o, finalizer);
  const also = deletes ? `; ${deletes}` : '';
  const warned = { ...(warning ? { warning } : {}), ...(deletes ? { destroys: true as const } : {}) };
  if (closedNamespace)
    return {
      requests: [request],
      title: `Reinstall the operator of ${who} in another namespace, watching ${scope} (namespace ${closedNamespace} is being deleted: nothing new can be created in it)${also}`,
      risk,
      ...warned,
      command: shellComment(
        `no single kubectl command: install the operator of ${who} in another namespace (${closedNamespace} is being deleted), watching ${scope}`,
      ),
    };
  return {
    requests: [request],
    title: (controller ? `Restore ${who}, the controller that removes ${finalizer}` : `Reinstall ${who}`) + also,
    risk,
    ...warned,
    // No single kubectl command reinstalls an operator: its manifests or chart do.
    command: shellComment(`no single kubectl command: reinstall ${who} from its manifests or Helm chart`),
  };
}

function removeOwnerReference(dependent: KubeObject, owner: { uid: string; kind: string; name: string; namespace?: string }): Candidate {
  const index = dependent.ownerReferences.findIndex((r) => r.uid === owner.uid);
  const path = `/metadata/ownerReferences/${index}`;
  const ops: JsonPatchOp[] = [
    ...preconditionOps(dependent, true),
    { op: 'test', path: `${path}/uid`, value: owner.uid },
    { op: 'remove', path },
  ];
  return {
    requests: [{ verb: 'remove-owner-reference', target: refOf(dependent), ownerUid: owner.uid }],
    title: `Remove the ownerReference of ${describe(dependent)} to ${owner.kind} ${owner.name}`,
    risk: 'caution',
    command: jsonPatch(dependent, ops),
    patch: { target: identityOf(dependent), ops },
    warning: `${describe(dependent)} stays, no longer owned by ${owner.kind} ${owner.name}: nothing collects it later`,
  };
}

function forceDelete(pod: KubeObject): Candidate {
  const request: DeleteRequest = {
    apiVersion: pod.apiVersion,
    kind: pod.kind,
    namespace: pod.namespace,
    name: pod.name,
    gracePeriodSeconds: 0,
    preconditions: { uid: pod.uid },
  };
  return {
    requests: [request],
    title: `Force-delete ${describe(pod)}: its node never confirms that it stopped`,
    risk: 'caution',
    command: pasteable(`kubectl delete ${resourceArg(pod)}${namespaceArg(pod)} --grace-period=0 --force`),
    warning: `if its node is still running, so may its containers be: the Pod is gone from the API, not necessarily from the node`,
  };
}

function removeFinalizer(o: KubeObject, finalizer: string, index: number, stuck: StuckEntry): Candidate {
  const path = `/metadata/finalizers/${index}`;
  const ops: JsonPatchOp[] = [...preconditionOps(o, true), { op: 'test', path, value: finalizer }, { op: 'remove', path }];
  return {
    requests: [{ verb: 'remove-finalizer', target: refOf(o), finalizer }],
    title: `Remove the finalizer ${finalizer} from ${describe(o)}`,
    risk: finalizer === FOREGROUND_FINALIZER ? 'caution' : (removalRisk(o, finalizer) ?? 'dangerous'),
    command: jsonPatch(o, ops),
    patch: { target: identityOf(o), ops },
    warning: protectedBy(o, finalizer, stuck),
  };
}

function finalizeNamespace(ns: KubeObject): Candidate {
  // TYPE/NAME, so that a name cannot read as a flag; the URL's segment percent-encoded, as kubectl's --raw expects.
  const finalize = shellWord(`/api/v1/namespaces/${urlPathSegment(ns.name)}/finalize`);
  return {
    requests: [{ verb: 'remove-finalizer', target: refOf(ns), finalizer: NAMESPACE_FINALIZER }],
    title: `Finalize namespace ${ns.name} without waiting for its content (remove spec.finalizers ${NAMESPACE_FINALIZER})`,
    risk: 'dangerous',
    command: pasteable(
      `kubectl get ${shellWord(`namespace/${ns.name}`)} -o json | jq '.spec.finalizers -= ["${NAMESPACE_FINALIZER}"]' | kubectl replace --raw ${finalize} -f -`,
    ),
    warning: `the namespace goes while its content may stay in etcd, out of sight: it comes back if a namespace named ${ns.name} is created again, and what its finalizers were to clean up is left behind`,
  };
}

const identityOf = (o: KubeObject) => ({ ...refOf(o), uid: o.uid });
const refOf = (o: KubeObject) => ({ apiVersion: o.apiVersion, kind: o.kind, namespace: o.namespace, name: o.name });

/** `deployment.apps/web`: kubectl's TYPE/NAME, the group spelled out so that no other kind of the name is meant. */
function resourceArg(o: KubeObject): string {
  const { group } = splitApiVersion(o.apiVersion);
  return shellWord(`${o.kind.toLowerCase()}${group ? `.${group}` : ''}/${o.name}`);
}

const namespaceArg = (o: KubeObject) => (o.namespace ? ` -n ${shellWord(o.namespace)}` : '');

/**
 * The kubectl command of a JSON patch, with exactly the ops the editor sends (its preconditions first: the command
 * fails if the object changed since it was read). `--subresource` needs kubectl 1.24 or later.
 */
function jsonPatch(o: KubeObject, ops: JsonPatchOp[], subresource?: 'scale'): string {
  const sub = subresource ? ` --subresource=${subresource}` : '';
  return pasteable(`kubectl patch ${resourceArg(o)}${namespaceArg(o)}${sub} --type=json -p ${shellJson(ops)}`);
}

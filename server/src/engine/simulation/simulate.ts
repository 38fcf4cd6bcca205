// The deletion simulation (R53): load the objects, let the GC build its graph and settle the state as given, then
// apply each request (a DELETE, or a change that gets a deletion unstuck) in order, each followed by a run to
// quiescence (or all of them back to back, R63); report what went, what was orphaned, what remains and why anything
// is stuck.

import type { Inventory } from '../inventory';
import { identityOf, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, describe, type KubeObject } from '../model';
import { ApiServer } from './apiServer';
import { applyChange, deleteAdmission, isChange, type UserRequest } from './changeRequest';
import { Controllers } from './controllers';
import { Explainer, summarize } from './explain';
import { GarbageCollector } from './garbageCollector';
import { ObjectStore } from './objectStore';
import { SimulatedClock, Timeline } from './timeline';
import type { DeletedEntry, OrphanedEntry, RemainingEntry, RequestSent, SimulationOptions, SimulationResult, StuckEntry } from './types';
import { finalizerOwnersFor, startState } from './startState';
import { controllerSet } from './controllerSet';
import { NEWEST_KUBE_VERSION, kubeVersionText, parseKubeVersion } from './kubeVersion';

export const DEFAULT_MAX_STEPS = 5_000_000;

export function simulate(inventory: Inventory, requests: readonly UserRequest[], options: SimulationOptions): SimulationResult {
  const timeline = new Timeline(options.keepSteps !== false);
  const clock = new SimulatedClock(options.now);
  const { seeds, excluded, claimUsers, componentOf, volumes } = startState(inventory);
  for (const uid of excluded) {
    const o = inventory.objects.get(uid)!;
    timeline.note(`${describe(o)} is left out: ${o.apiVersion} ${o.kind} is not served by current Kubernetes`);
  }
  const store = new ObjectStore(inventory, excluded, (ns, claim) => claimUsers.get(`${ns}\u0000${claim}`) ?? []);
  const api = new ApiServer(store, inventory.kinds, timeline, clock);
  const gc = new GarbageCollector(
    api,
    inventory.kinds,
    timeline,
    () => store.writes,
    componentOf,
    (uid) => store.get(uid),
  );
  store.beforeWrite = (uid, current) => gc.ensureLoaded(uid, current);
  store.watch((e) => gc.observe(e));
  const shared = finalizerOwnersFor(inventory, options.finalizerOwners, options.finalizerOwnerHint, options.trustGuesses);
  const owners = requests.some((r) => isChange(r) && r.verb === 'restore-controller') ? shared.scoped() : shared;
  const set = controllerSet(options.controllers);
  const version = options.kubeVersion === undefined ? NEWEST_KUBE_VERSION : (parseKubeVersion(options.kubeVersion) ?? NEWEST_KUBE_VERSION);
  const controllers = new Controllers(set, store, api, owners, timeline, version, volumes);

  for (const uid of store.terminating) {
    const o = store.get(uid)!;
    if (o.finalizers.includes(ORPHAN_FINALIZER)) {
      timeline.note(
        `Timing-dependent: ${describe(o)} is already orphaning at start; a real controller-manager may run it before its graph knows every dependent, and a missed dependent is deleted instead of orphaned.`,
      );
    }
    if (o.finalizers.includes(FOREGROUND_FINALIZER)) noteLateBlockers(inventory, o, timeline);
  }

  let budget = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let aborted: string | undefined;
  const settle = (): boolean => {
    for (;;) {
      if (--budget < 0) {
        aborted = `stopped after ${options.maxSteps ?? DEFAULT_MAX_STEPS} work items without reaching quiescence; the result is partial`;
        return false;
      }
      if (set.garbageCollector && gc.step()) continue;
      if (controllers.runOnce()) continue;
      if (set.garbageCollector && gc.retryParked()) continue;
      return true;
    }
  };

  const sent: RequestSent[] = [];
  const send = (req: UserRequest, i: number) => {
    const afterStep = timeline.stepCount;
    timeline.request = i;
    const answer = isChange(req)
      ? applyChange({ api, store, owners, timeline }, req)
      : (deleteAdmission({ api, store, owners, timeline }, req) ?? api.delete('apiserver', req, 'requested by the user'));
    timeline.request = undefined;
    sent.push(timeline.stepCount === afterStep ? { afterStep, unchanged: answer.message } : { afterStep });
  };
  gc.initialList(seeds);
  if (settle()) {
    if (options.arrival === 'back-to-back') {
      requests.forEach(send); // R63: all arrive before the GC acts on the first
      if (requests.length > 1) {
        timeline.note(
          'Timing-dependent: requests sent back to back often all reach the apiserver before the garbage collector acts on the first; when it wins, a later request finds what the earlier one set off (--arrival=settled shows that outcome).',
        );
      }
      settle();
    } else {
      for (const [i, req] of requests.entries()) {
        send(req, i);
        if (!settle()) break;
      }
    }
  }

  const explainer = new Explainer(options.controllers, store, gc, owners, timeline);
  const stuck: StuckEntry[] = [];
  for (const uid of store.terminating) {
    const o = store.get(uid)!;
    const blockedBy = explainer.explain(o);
    stuck.push({ ...identityOf(o), finalizers: [...o.finalizers], reason: summarize(o, blockedBy), blockedBy });
  }
  const orphaned: OrphanedEntry[] = [];
  const seen = new Set<string>();
  for (const { uid, ownerUID } of timeline.lostReferences) {
    const o: KubeObject | undefined = store.get(uid);
    const key = `${uid}\u0000${ownerUID}`;
    if (!o || seen.has(key)) continue;
    seen.add(key);
    orphaned.push({ ...identityOf(o), ownerUID });
  }
  const result = {
    deleted: [] as DeletedEntry[],
    orphaned,
    remaining: [] as RemainingEntry[],
    stuck,
    steps: timeline.steps,
    requests: sent,
    notes: timeline.notes,
    ...(aborted ? { aborted } : {}),
    kubernetesVersion: kubeVersionText(version),
    controllers: set.spec,
  };
  Object.defineProperty(result, 'finalObject', { value: (uid: string) => store.get(uid) });
  // What was removed, and every stored object, in input order: built on first access, as the analysis reads neither.
  let deleted: DeletedEntry[] | undefined;
  Object.defineProperty(result, 'deleted', {
    enumerable: true,
    get: () => (deleted ??= timeline.removed.map(({ object, step }): DeletedEntry => Object.assign(identityOf(object), { step }))),
  });
  let remaining: RemainingEntry[] | undefined;
  Object.defineProperty(result, 'remaining', {
    enumerable: true,
    get: () =>
      (remaining ??= [...store.all()].map((o) => ({
        ...identityOf(o),
        finalizers: o.finalizers,
        beingDeleted: o.deletionTimestamp !== undefined,
        ownerReferences: o.ownerReferences,
      }))),
  });
  return result;
}

/**
 * R72: a garbage collector already running when a blocking dependent appears (created, or its reference added,
 * after its owner started waiting for its dependents) does not look at it until something enqueues the owner again:
 * the dependent keeps its reference and the owner keeps waiting. The simulation, like a freshly started one, reaches
 * it; a dependent created in a later second than the owner's deletionTimestamp is therefore timing-dependent (in the
 * same second the order is unknown, and a dependent created first was seen: no note).
 */
function noteLateBlockers(inventory: Inventory, owner: KubeObject, timeline: Timeline): void {
  const since = owner.deletionTimestamp ? Date.parse(owner.deletionTimestamp) : NaN;
  if (!Number.isFinite(since)) return;
  for (const dep of inventory.graph.get(owner.uid)?.dependents ?? []) {
    const o = inventory.objects.get(dep.identity.uid);
    const created = o?.creationTimestamp ? Date.parse(o.creationTimestamp) : NaN;
    const blocks = o?.ownerReferences.some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true);
    if (!o || !blocks || !(created > since)) continue;
    timeline.note(
      `Timing-dependent: ${describe(o)} was created after ${describe(owner)} started waiting for its dependents; a garbage collector running since before may not look at it until the owner is enqueued again (a controller-manager restart), and then it keeps its reference and the owner keeps waiting.`,
    );
  }
}

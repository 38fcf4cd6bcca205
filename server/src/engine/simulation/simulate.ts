// The deletion simulation (R53): load the objects, let the GC build its graph and settle the state as
// given, then apply each DELETE in order, each followed by a run to quiescence; report what went, what was
// orphaned, what remains and why anything is stuck.

import type { Inventory } from '../inventory';
import { identityOf, ORPHAN_FINALIZER, describe, type KubeObject } from '../model';
import { ApiServer } from './apiServer';
import { Controllers } from './controllers';
import { Explainer, summarize } from './explain';
import { FinalizerOwners } from './finalizerOwners';
import { GarbageCollector } from './garbageCollector';
import { ObjectStore } from './objectStore';
import { SimulatedClock, Timeline } from './timeline';
import type { DeleteRequest, SimulationOptions, SimulationResult, StuckEntry } from './types';

export const DEFAULT_MAX_STEPS = 5_000_000;

export function simulate(inventory: Inventory, requests: DeleteRequest[], options: SimulationOptions): SimulationResult {
  const timeline = new Timeline();
  const clock = new SimulatedClock(options.now);
  const store = new ObjectStore();
  for (const o of inventory.objects.values()) {
    // Objects of a kind nothing serves could not be stored by a real apiserver (R54); they take no part.
    if (inventory.kindOf(o)) store.load(o);
    else timeline.note(`${describe(o)} is left out: ${o.apiVersion} ${o.kind} is not served by current Kubernetes`);
  }
  const api = new ApiServer(store, inventory.kinds, timeline, clock);
  const gc = new GarbageCollector(api, inventory.kinds, timeline, () => store.writes);
  store.watch((e) => gc.observe(e));
  const owners = new FinalizerOwners(store.all(), options.finalizerOwners);
  const controllers = new Controllers(options.controllers, store, api, owners, timeline);

  for (const uid of store.terminating) {
    const o = store.get(uid)!;
    if (o.finalizers.includes(ORPHAN_FINALIZER)) {
      timeline.note(`Timing-dependent (R48/R51): ${describe(o)} is already orphaning at start; a real controller-manager may run it before its graph knows every dependent, and a missed dependent is deleted instead of orphaned.`);
    }
  }

  let budget = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let aborted: string | undefined;
  const settle = (): boolean => {
    for (;;) {
      if (--budget < 0) {
        aborted = `stopped after ${options.maxSteps ?? DEFAULT_MAX_STEPS} work items without reaching quiescence; the result is partial`;
        return false;
      }
      if (gc.step()) continue;
      if (controllers.runOnce()) continue;
      if (gc.retryParked()) continue;
      return true;
    }
  };

  gc.initialList(store.all());
  if (settle()) {
    for (const req of requests) {
      api.delete('apiserver', req, 'requested by the user');
      if (!settle()) break;
    }
  }

  const explainer = new Explainer(options.controllers, store, gc, owners, timeline);
  const stuck: StuckEntry[] = [];
  const remaining = [];
  for (const o of store.all()) {
    remaining.push({
      ...identityOf(o), finalizers: [...o.finalizers], beingDeleted: o.deletionTimestamp !== undefined,
      ownerReferences: o.ownerReferences.map((r) => ({ ...r })),
    });
    if (o.deletionTimestamp !== undefined) {
      const blockedBy = explainer.explain(o);
      stuck.push({ ...identityOf(o), finalizers: [...o.finalizers], reason: summarize(o, blockedBy), blockedBy });
    }
  }
  const orphaned = [];
  const seen = new Set<string>();
  for (const { uid, ownerUID } of timeline.lostReferences) {
    const o: KubeObject | undefined = store.get(uid);
    const key = `${uid}\u0000${ownerUID}`;
    if (!o || seen.has(key)) continue;
    seen.add(key);
    orphaned.push({ ...identityOf(o), ownerUID });
  }
  return {
    deleted: timeline.removed.map(({ object, step }) => ({ ...identityOf(object), step })),
    orphaned,
    remaining,
    stuck,
    steps: timeline.steps,
    notes: timeline.notes,
    ...(aborted ? { aborted } : {}),
  };
}

// Simulations behind hovers and code lenses, cached per inventory version: repeated hovers on the same owner, or
// lens resolves while nothing changes, cost a map lookup. An edit bumps the inventory version and drops them all.
// Pure (no I/O): a function of the inventory and the options.

import type { Inventory } from '../engine/inventory';
import type { ObjectIdentity } from '../engine/model';
import { simulate } from '../engine/simulation/simulate';
import type { UserRequest } from '../engine/simulation/changeRequest';
import type { ControllersMode, DeleteRequest, FinalizerOwnerRule, SimulationResult } from '../engine/simulation/types';
import type { PolicyChoice } from '../../../shared/src/protocol';

export interface SimulationSettings {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
  kubeVersion?: string;
  /** How the front end says to name a finalizer's owner (the CLI: its --finalizer-owner flag). */
  finalizerOwnerHint?: string;
  /** false: guessed owners of custom finalizers count as nobody (SimulationOptions.trustGuesses). */
  trustGuesses?: boolean;
}

/** Results kept per inventory version (a hover holds three, a screen of lenses a few dozen, each one small). */
const MAX_ENTRIES = 512;

interface Slot {
  version: number;
  results: Map<string, SimulationResult>;
}

/** Keyed by the Inventory object itself: a rebuilt inventory restarts its version count. */
const slots = new WeakMap<Inventory, Slot>();

function slotOf(inventory: Inventory): Slot {
  let slot = slots.get(inventory);
  if (!slot || slot.version !== inventory.version) slots.set(inventory, (slot = { version: inventory.version, results: new Map() }));
  return slot;
}

function optionsKey(options: SimulationSettings): string {
  const mode = options.kubeVersion === undefined ? options.controllers : `${options.controllers}\u0000${options.kubeVersion}`;
  const hinted0 = options.finalizerOwnerHint === undefined ? mode : `${mode}\u0000${options.finalizerOwnerHint}`;
  const hinted = options.trustGuesses === false ? `${hinted0}\u0000untrusted` : hinted0;
  return options.finalizerOwners.length ? `${hinted}\u0000${JSON.stringify(options.finalizerOwners)}` : hinted;
}

function cached(inventory: Inventory, key: string, run: () => SimulationResult): SimulationResult {
  const slot = slotOf(inventory);
  const hit = slot.results.get(key);
  if (hit) {
    // Most recently used last: eviction drops the oldest.
    slot.results.delete(key);
    slot.results.set(key, hit);
    return hit;
  }
  const result = run();
  slot.results.set(key, result);
  if (slot.results.size > MAX_ENTRIES) slot.results.delete(slot.results.keys().next().value!);
  return result;
}

/**
 * What happens with no DELETE at all: the GC settling the input as given (garbage with absent owners collected,
 * objects already terminating finishing or staying stuck). What a deletion does is its result minus this one.
 */
export function baselineSimulation(inventory: Inventory, options: SimulationSettings): SimulationResult {
  return cached(inventory, `baseline\u0000${optionsKey(options)}`, () => simulate(inventory, [], options));
}

/** Deleting `target` with `policy` ("default": the request names no policy, R5), with a uid precondition. */
export function deletionSimulation(
  inventory: Inventory,
  target: ObjectIdentity,
  policy: PolicyChoice,
  options: SimulationSettings,
): SimulationResult {
  return cached(inventory, `delete\u0000${target.uid}\u0000${policy}\u0000${optionsKey(options)}`, () =>
    simulate(inventory, [deleteRequestOf(target, policy)], options),
  );
}

/** The DELETE of Simulate Delete: `policy` ("default": none sent, R5), with a uid precondition. */
export function deleteRequestOf(target: ObjectIdentity, policy: PolicyChoice): DeleteRequest {
  return {
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: target.namespace,
    name: target.name,
    propagationPolicy: policy === 'default' ? null : policy,
    preconditions: { uid: target.uid },
  };
}

/** One request besides DELETE (a way out of a stuck deletion, issue 18), cached like the others. */
export function changeSimulation(inventory: Inventory, request: UserRequest, options: SimulationSettings): SimulationResult {
  return cached(inventory, `change\u0000${JSON.stringify(request)}\u0000${optionsKey(options)}`, () =>
    simulate(inventory, [request], options),
  );
}

/** Several requests in order (a way out that clears a blocker first), cached like the others. */
export function changesSimulation(inventory: Inventory, requests: UserRequest[], options: SimulationSettings): SimulationResult {
  if (requests.length === 1) return changeSimulation(inventory, requests[0], options);
  return cached(inventory, `changes\u0000${JSON.stringify(requests)}\u0000${optionsKey(options)}`, () =>
    simulate(inventory, requests, options),
  );
}

// "What is stuck, and why": objects terminating now that cannot finish (the no-DELETE simulation says so), those
// only slow to finish, and predicted deadlocks. One answer for `kubectl gc stuck` and the editor's Stuck Objects.

import type { Inventory } from '../engine/inventory';
import { describe, type KubeObject, type NamespaceCondition, type ObjectIdentity } from '../engine/model';
import { heldConditions } from '../engine/simulation/namespaceConditions';
import type { FinalizerOwners } from '../engine/simulation/finalizerOwners';
import { finalizerOwnersFor } from '../engine/simulation/startState';
import type { BlockReason, StuckEntry } from '../engine/simulation/types';
import type { SourceLocation, StuckItem, WayOut } from '../../../shared/src/protocol';
import type { WorkspaceModel } from '../workspace/workspaceModel';
import { locationOf, summaryOf } from './objects';
import { baselineSimulation, type SimulationSettings } from './simulationCache';
import { waysOut } from './waysOut';

/**
 * The workspace's answer: objects terminating now that cannot finish, those slower than `slowAfterSeconds`, then
 * predicted deadlocks, each once. `kubectl gc stuck -f` gives the same, without the predictions.
 */
export function stuckItems(model: WorkspaceModel, options: SimulationSettings, slowAfterSeconds?: number): StuckItem[] {
  // A manifest has no clock: ages are measured against the newest timestamp in the input.
  const items = terminatingItems(model.inventory, options, newestTimestamp(model.inventory.objects.values()), slowAfterSeconds, true);
  for (const f of model.predictions()) {
    if (f.code !== 'finalizer-deadlock' && f.code !== 'foreground-deadlock') continue;
    const o = model.inventory.objects.get(f.object.uid);
    if (!o) continue;
    items.push({ ...summaryOf(o), state: f.code, reason: f.message, blockedBy: [], since: o.deletionTimestamp ?? null });
  }
  return items;
}

/** Ways out are simulated for this many stuck objects at most (each costs a few simulations of the whole input). */
export const MAX_ITEMS_WITH_WAYS_OUT = 50;

function waysOutOf(inv: Inventory, uid: string, options: SimulationSettings, index: number): { waysOut?: WayOut[] } {
  if (index >= MAX_ITEMS_WITH_WAYS_OUT) return {};
  const ways = waysOut(inv, uid, options);
  return ways.length ? { waysOut: ways } : {};
}

/**
 * Terminating objects of an inventory that cannot finish (the no-DELETE simulation says so), aged against `now`
 * (ms); with `slowAfterSeconds`, also those that can finish but have been terminating longer (state "slow").
 * `dump`: `now` is the newest time in the input (files), so an object whose deletion is that newest time has been
 * terminating for an unknown time, not none: it is listed as slow, its age unknown (docs/cli.md, --slow-after).
 */
export function terminatingItems(
  inv: Inventory,
  options: SimulationSettings,
  now: number | undefined,
  slowAfterSeconds?: number,
  dump = false,
): StuckItem[] {
  const items: StuckItem[] = [];
  if (!inv.terminating.size) return items;
  const result = baselineSimulation(inv, options);
  const ageOf = (o: KubeObject) => {
    const since = o.deletionTimestamp ? Date.parse(o.deletionTimestamp) : NaN;
    return Number.isFinite(since) && now !== undefined && now >= since ? Math.round((now - since) / 1000) : undefined;
  };
  const listed = new Set<string>();
  for (const s of result.stuck) {
    const o = inv.objects.get(s.uid);
    if (!o) continue;
    listed.add(o.uid);
    const age = ageOf(o);
    items.push({
      ...summaryOf(o),
      state: 'stuck',
      reason: s.reason,
      blockedBy: s.blockedBy,
      since: o.deletionTimestamp ?? null,
      locations: reasonLocations(inv, s.blockedBy),
      ...(age !== undefined ? { ageSeconds: age } : {}),
      ...conditionsOf(o),
      ...waysOutOf(inv, o.uid, options, items.length),
    });
  }
  // What finishes only because a custom finalizer's owner is guessed is listed with that doubt, never dropped.
  const untrusted = { ...options, trustGuesses: false };
  const untrustedOwners = finalizerOwnersFor(inv, options.finalizerOwners, options.finalizerOwnerHint, false);
  for (const s of guessedToFinish(inv, options, listed)) {
    const o = inv.objects.get(s.uid);
    if (!o) continue;
    listed.add(o.uid);
    const age = ageOf(o);
    const guess = guessOf(s.blockedBy, untrustedOwners, o);
    const holder = guess && guess.holder.uid !== o.uid ? `waits for ${describe(guess.holder)}, which ` : '';
    items.push({
      ...summaryOf(o),
      state: 'stuck',
      reason: guess ? `Not proven to finish: ${describe(o)} ${holder}${guess.message}` : s.reason,
      blockedBy: s.blockedBy,
      since: o.deletionTimestamp ?? null,
      locations: reasonLocations(inv, s.blockedBy),
      guess: guess?.message ?? s.reason,
      ...(age !== undefined ? { ageSeconds: age } : {}),
      ...conditionsOf(o),
      ...waysOutOf(inv, o.uid, untrusted, items.length),
    });
  }
  if (slowAfterSeconds !== undefined) {
    for (const uid of inv.terminating) {
      const o = inv.objects.get(uid);
      if (!o || listed.has(uid)) continue;
      const age = ageOf(o);
      // A dump shows it had not finished when it was written; with no later time in the dump, not for how long.
      const unknownAge = dump && age === 0 && o.deletionTimestamp !== undefined;
      if (age === undefined || (age < slowAfterSeconds && !unknownAge)) continue;
      const waits = o.finalizers.length
        ? `waits for finalizer${o.finalizers.length > 1 ? 's' : ''} ${o.finalizers.join(', ')}`
        : 'is still being removed';
      const reported = conditionsOf(o).namespaceConditions;
      const terminating = unknownAge
        ? 'terminating (nothing in the input is later than its deletion: for how long is unknown)'
        : `terminating for ${Math.round(age / 60)} min`;
      items.push({
        ...summaryOf(o),
        state: 'slow',
        blockedBy: [],
        since: o.deletionTimestamp ?? null,
        ...(unknownAge ? {} : { ageSeconds: age }),
        reason: reported
          ? `${terminating} and ${waits}; its namespace controller reports ${reported.map((c) => c.type).join(', ')}`
          : unknownAge
            ? `${terminating} and ${waits}; the controllers that should finish it run, so it cannot tell from the objects why it has not finished (a controller's bug, an injected sidecar, or still cleaning up)`
            : `${terminating} and ${waits}: the controllers that should finish it are running, so it is still cleaning up or stuck for a reason not visible in the metadata`,
        ...(reported ? { namespaceConditions: reported } : {}),
      });
    }
  }
  return items;
}

/**
 * The objects that the simulation sees finish only because it trusts a guess of which workload removes a custom
 * finalizer: stuck once no guess is trusted (their why-chains then end at the guess), and not stuck otherwise.
 */
function guessedToFinish(inv: Inventory, options: SimulationSettings, listed: ReadonlySet<string>): StuckEntry[] {
  if (options.trustGuesses === false) return [];
  if (!finalizerOwnersFor(inv, options.finalizerOwners, options.finalizerOwnerHint).hasTrustedGuess()) return [];
  return baselineSimulation(inv, { ...options, trustGuesses: false }).stuck.filter((s) => !listed.has(s.uid));
}

/** The first guess a why-chain ends at (a finalizer whose owner is guessed, not trusted), and who carries it. */
function guessOf(
  reasons: readonly BlockReason[],
  owners: FinalizerOwners,
  holder: ObjectIdentity,
): { message: string; holder: ObjectIdentity } | undefined {
  for (const r of reasons) {
    const owner = r.type === 'finalizer' && r.finalizer !== undefined ? owners.ownerOf(r.finalizer) : undefined;
    if (owner?.type === 'absent' && owner.guessed) return { message: r.message, holder };
    const inner = r.blockedBy && guessOf(r.blockedBy, owners, r.object ?? holder);
    if (inner) return inner;
  }
  return undefined;
}

/** A Namespace's conditions that hold, as StuckItem carries them (nothing for other objects or when none hold). */
function conditionsOf(o: KubeObject): { namespaceConditions?: NamespaceCondition[] } {
  if (o.apiVersion !== 'v1' || o.kind !== 'Namespace') return {};
  const held = heldConditions(o);
  return held.length ? { namespaceConditions: held } : {};
}

/** Where each object named in a why-chain is written, so the client can reveal it. */
function reasonLocations(inv: Inventory, reasons: BlockReason[]): Record<string, SourceLocation> {
  const out: Record<string, SourceLocation> = {};
  const walk = (list: BlockReason[]): void => {
    for (const r of list) {
      const loc = r.object && !out[r.object.uid] ? locationOf(inv.objects.get(r.object.uid)) : undefined;
      if (loc) out[r.object!.uid] = loc;
      if (r.blockedBy) walk(r.blockedBy);
    }
  };
  walk(reasons);
  return out;
}

/**
 * The input has no clock: "age" is measured against the newest creation or deletion timestamp in it,
 * i.e. how long the object had been terminating when the dump was taken.
 */
export function newestTimestamp(objects: Iterable<KubeObject>): number | undefined {
  let newest: number | undefined;
  for (const o of objects) {
    for (const t of [o.creationTimestamp, o.deletionTimestamp]) {
      if (!t) continue;
      const ms = Date.parse(t);
      if (Number.isFinite(ms) && (newest === undefined || ms > newest)) newest = ms;
    }
  }
  return newest;
}

// Test helper: lookups into a SimulationResult and the assertions the rule tests share. Lookups fail with the
// list of what is there, so a failing expectation says what happened instead.
import { expect } from 'vitest';
import { names, type scenario } from './scenario';
import type {
  BlockReason,
  BlockType,
  RemainingEntry,
  SimulationResult,
  SimulationStep,
  StepAction,
  StuckEntry,
} from '../../server/src/engine/simulation/types';

function entryOf<T extends { kind: string; name: string }>(list: T[], kind: string, name: string, what: string): T {
  const hit = list.find((e) => e.kind === kind && e.name === name);
  if (!hit) throw new Error(`${kind}/${name} is not ${what}; ${what}: ${names(list).join(', ') || 'none'}`);
  return hit;
}

/** The object as it remains after the run; fails when it was removed. */
export const remainingOf = (r: SimulationResult, kind: string, name: string): RemainingEntry =>
  entryOf(r.remaining, kind, name, 'remaining');

/** Why the object is stuck; fails when it is not. */
export const stuckOf = (r: SimulationResult, kind: string, name: string): StuckEntry => entryOf(r.stuck, kind, name, 'stuck');

export const isRemaining = (r: SimulationResult, kind: string, name: string): boolean =>
  r.remaining.some((e) => e.kind === kind && e.name === name);

/** Position in the removal order; fails when the object was not removed. */
export function removedAt(r: SimulationResult, kind: string, name: string): number {
  const i = names(r.deleted).indexOf(`${kind}/${name}`);
  if (i < 0) throw new Error(`${kind}/${name} was not deleted; deleted: ${names(r.deleted).join(', ') || 'none'}`);
  return i;
}

export const refUids = (e: { ownerReferences: { uid: string }[] }): string[] => e.ownerReferences.map((x) => x.uid);

export const sorted = (xs: string[]): string[] => [...xs].sort();

/** "Kind/name<-ownerUID" of every orphaning, sorted and without repeats. */
export const orphanedPairs = (r: SimulationResult): string[] =>
  sorted([...new Set(r.orphaned.map((o) => `${o.kind}/${o.name}<-${o.ownerUID}`))]);

// ---------------------------------------------------------------------------------------------------------
// Why objects are stuck

export const blockTypes = (e: StuckEntry): BlockType[] => e.blockedBy.map((b) => b.type);

/** Every block type anywhere in a "why is this stuck" chain. */
export function allBlockTypes(reasons: BlockReason[]): string[] {
  return reasons.flatMap((b) => [b.type, ...allBlockTypes(b.blockedBy ?? [])]);
}

/** The objects a 'waiting-for-dependents' reason names: on the reason itself or on its direct sub-reasons. */
export function waitedOn(e: StuckEntry): string[] {
  const out: string[] = [];
  for (const b of e.blockedBy.filter((x) => x.type === 'waiting-for-dependents')) {
    if (b.object) out.push(`${b.object.kind}/${b.object.name}`);
    for (const c of b.blockedBy ?? []) if (c.object) out.push(`${c.object.kind}/${c.object.name}`);
  }
  return out;
}

/** Matches a BlockReason of this type (about this object, when given). */
export const blockedBy = (type: BlockType, objectName?: string) =>
  expect.objectContaining({ type, ...(objectName ? { object: expect.objectContaining({ name: objectName }) } : {}) });

// ---------------------------------------------------------------------------------------------------------
// Steps

export interface StepFilter {
  actor?: string;
  action?: StepAction;
  /** Of the target. */
  kind?: string;
  /** Of the target. */
  name?: string;
}

/** The steps that match every field the filter sets, in order. */
export function stepsWhere(r: SimulationResult, filter: StepFilter): SimulationStep[] {
  return r.steps.filter(
    (s) =>
      (filter.actor === undefined || s.actor === filter.actor) &&
      (filter.action === undefined || s.action === filter.action) &&
      (filter.kind === undefined || s.target.kind === filter.kind) &&
      (filter.name === undefined || s.target.name === filter.name),
  );
}

/** The garbage collector's steps, optionally only one action and/or one target name. */
export const gcSteps = (r: SimulationResult, action?: StepAction, name?: string): SimulationStep[] =>
  stepsWhere(r, { actor: 'garbage-collector', action, name });

export function stepIndex(r: SimulationResult, pred: (s: SimulationStep) => boolean): number {
  return r.steps.findIndex(pred);
}

// ---------------------------------------------------------------------------------------------------------
// Assertions

/** Every listed entry is present, in this relative order. */
export function expectOrder(list: string[], ...inOrder: string[]) {
  const at = inOrder.map((x) => list.indexOf(x));
  at.forEach((i, n) => expect(i, `${inOrder[n]} missing from [${list.join(', ')}]`).toBeGreaterThanOrEqual(0));
  for (let n = 1; n < at.length; n++)
    expect(at[n], `${inOrder[n - 1]} should come before ${inOrder[n]} in [${list.join(', ')}]`).toBeGreaterThan(at[n - 1]);
}

/** An object that is still there, untouched: not terminating and with exactly these owner uids. */
export function expectKept(r: SimulationResult, kind: string, name: string, ownerUids: string[]) {
  const e = remainingOf(r, kind, name);
  expect(e.beingDeleted, `${kind}/${name} beingDeleted`).toBe(false);
  expect(refUids(e), `${kind}/${name} ownerReferences`).toEqual(ownerUids);
}

/**
 * A refused request: exactly one reject step, by the apiserver, naming the status code. With `unchangedFrom`, the
 * refusal was all the run did: it is the only step and the store is as that scenario holds it without requests.
 */
export function expectRejected(r: SimulationResult, code: number, unchangedFrom?: ReturnType<typeof scenario>) {
  const rejects = r.steps.filter((x) => x.action === 'reject');
  expect(rejects).toHaveLength(1);
  expect(rejects[0].actor).toBe('apiserver');
  expect(rejects[0].detail).toContain(String(code));
  if (unchangedFrom) {
    expect(r.steps).toHaveLength(1);
    expect(r.deleted).toEqual([]);
    expect(r.orphaned).toEqual([]);
    expect(r.remaining).toEqual(unchangedFrom.simulate([]).remaining);
  }
}

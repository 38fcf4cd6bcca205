// The ordered record of everything that changed the store, and the facts the result is built from.

import { identityOf, type KubeObject, type ObjectIdentity } from '../model';
import type { Actor, SimulationStep, StepAction } from './types';

export class Timeline {
  /** Empty when the steps are only counted (`keepSteps` false). */
  readonly steps: SimulationStep[] = [];
  /** How many steps were recorded. */
  stepCount = 0;
  /** uid → [step at which its deletion started, step at which it left storage]: one entry for both (hot on removal). */
  private readonly stepsOf = new Map<string, [number | undefined, number | undefined]>();
  /** uid → step at which the object left storage. */
  readonly removedAt = new StepsByUid(this.stepsOf, 1);
  /** uid → step at which the object's deletion started (deletionTimestamp first set). */
  readonly deletionStartedAt = new StepsByUid(this.stepsOf, 0);
  /** Removal order. */
  readonly removed: { object: KubeObject; step: number }[] = [];
  /** Every ownerReference the GC patched away: (dependent uid, owner uid). */
  readonly lostReferences: { uid: string; ownerUID: string }[] = [];
  readonly notes: string[] = [];
  private readonly noteSet = new Set<string>();
  /** The index of the user's request being applied, marked on its steps. */
  request: number | undefined;

  /** `keepSteps` false: steps are numbered but not kept (an answer that reads only the outcome, as the analysis). */
  constructor(readonly keepSteps = true) {}

  /** `detail` as a function: built only when steps are kept (a settling run deletes 200,000 objects unseen). */
  record(actor: Actor, action: StepAction, target: KubeObject | ObjectIdentity, detail: string | (() => string)): number {
    const step = ++this.stepCount;
    if (!this.keepSteps) return step;
    if (typeof detail === 'function') detail = detail();
    const id = 'facts' in target ? identityOf(target) : { ...target };
    this.steps.push(
      this.request === undefined
        ? { step, actor, action, target: id, detail }
        : { step, actor, action, target: id, detail, request: this.request },
    );
    return step;
  }

  note(text: string): void {
    if (this.noteSet.has(text)) return;
    this.noteSet.add(text);
    this.notes.push(text);
  }
}

/** One of the Timeline's per-uid steps, read and written as a Map. */
class StepsByUid {
  constructor(
    private readonly entries: Map<string, [number | undefined, number | undefined]>,
    private readonly slot: 0 | 1,
  ) {}
  get(uid: string): number | undefined {
    return this.entries.get(uid)?.[this.slot];
  }
  has(uid: string): boolean {
    return this.get(uid) !== undefined;
  }
  set(uid: string, step: number): void {
    const entry = this.entries.get(uid);
    if (entry) entry[this.slot] = step;
    else this.entries.set(uid, this.slot === 0 ? [step, undefined] : [undefined, step]);
  }
}

/** A deterministic clock: the simulation never reads the machine's time. */
export class SimulatedClock {
  private readonly startMs: number;
  constructor(start = '2025-01-01T00:00:00Z') {
    const t = Date.parse(start);
    this.startMs = Number.isNaN(t) ? Date.parse('2025-01-01T00:00:00Z') : t;
  }
  /** Seconds from now, as an RFC 3339 timestamp without fractions, as Kubernetes writes them. */
  private readonly formatted = new Map<number, string>();
  at(secondsFromNow = 0): string {
    let s = this.formatted.get(secondsFromNow);
    if (s === undefined) {
      s = new Date(this.startMs + secondsFromNow * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      this.formatted.set(secondsFromNow, s);
    }
    return s;
  }
}

// A simulated deletion played out on the graph: what the picture shows after the first `index` steps of the
// report's timeline. Pure (no DOM): unit-tested in test/webview.
//
// - removed: objects whose `deleted` entry's step is reached (they fade out, in removal order);
// - deleting: objects a DELETE, a finalizer change or the GC has touched and that are not gone yet;
// - cut: the ownerReferences the GC removed from orphaned dependents (when their patch step is reached, or when
//   their owner is removed if the timeline has no patch step for them);
// - stuck: at the end of the timeline, the objects that cannot finish, with their reason.

import type { SimulateReport, SimulationStepData } from './protocolTypes';
import { edgeId } from './viewModel';

export interface PlaybackFrame {
  /** Steps applied: 0 (nothing yet) … total. */
  index: number;
  total: number;
  /** The step just applied (index − 1), if any. */
  current?: SimulationStepData;
  removed: Set<string>;
  deleting: Set<string>;
  /** Edge ids (`<dependent>><owner>`) cut by orphaning. */
  cut: Set<string>;
  /** At the end only: uid → why it cannot finish. */
  stuck: Map<string, string>;
  /** Every uid the report names (the target, deleted, orphaned, stuck, step targets). */
  affected: Set<string>;
  /** The order objects leave in: uid → 1, 2, … */
  removalOrder: Map<string, number>;
}

/** Actions that start or advance an object's deletion. */
const DELETING_ACTIONS = new Set(['delete', 'add-finalizer', 'remove-finalizer']);

export function affectedUids(report: SimulateReport): Set<string> {
  const r = report;
  const out = new Set<string>([report.target.uid]);
  for (const x of r.deleted) out.add(x.uid);
  for (const x of r.orphaned) out.add(x.uid);
  for (const x of r.stuck) out.add(x.uid);
  for (const s of r.steps) out.add(s.target.uid);
  return out;
}

export function clampStep(report: SimulateReport, index: number): number {
  const total = report.steps.length;
  return Number.isFinite(index) ? Math.max(0, Math.min(total, Math.round(index))) : total;
}

export function playbackFrame(report: SimulateReport, requested: number): PlaybackFrame {
  const steps = report.steps;
  const index = clampStep(report, requested);
  const total = steps.length;
  const reached = index > 0 ? steps[index - 1].step : -Infinity;
  const removed = new Set<string>();
  const removalOrder = new Map<string, number>();
  const byStep = [...report.deleted].sort((a, b) => a.step - b.step);
  byStep.forEach((d, i) => removalOrder.set(d.uid, i + 1));
  for (const d of byStep) if (d.step <= reached) removed.add(d.uid);
  // Objects that leave storage without a step of the timeline (should not happen) go at the end.
  if (index === total) for (const d of byStep) removed.add(d.uid);

  const deleting = new Set<string>();
  const patched = new Set<string>();
  for (let i = 0; i < index; i++) {
    const s = steps[i];
    if (DELETING_ACTIONS.has(s.action)) deleting.add(s.target.uid);
    if (s.action === 'patch-owner-references') patched.add(s.target.uid);
  }
  for (const uid of removed) deleting.delete(uid);

  const cut = new Set<string>();
  for (const o of report.orphaned) {
    const patchedNow = patched.has(o.uid);
    const everPatched = steps.some((s) => s.action === 'patch-owner-references' && s.target.uid === o.uid);
    if (patchedNow || (!everPatched && (removed.has(o.ownerUID) || index === total))) cut.add(edgeId(o.uid, o.ownerUID));
  }

  const stuck = new Map<string, string>();
  if (index === total) for (const s of report.stuck) stuck.set(s.uid, s.reason);

  return {
    index,
    total,
    current: index > 0 ? steps[index - 1] : undefined,
    removed,
    deleting,
    cut,
    stuck,
    affected: affectedUids(report),
    removalOrder,
  };
}

/** "Step 3/12 · garbage-collector: delete ReplicaSet shop/web-1 (…)". */
export function stepCaption(frame: PlaybackFrame): string {
  if (!frame.current) return frame.total ? `Before the DELETE · ${frame.total} steps` : 'Nothing happens: the timeline is empty';
  const s = frame.current;
  const ns = s.target.namespace ? `${s.target.namespace}/` : '';
  return `Step ${frame.index}/${frame.total} · ${s.actor}: ${s.action} ${s.target.kind} ${ns}${s.target.name}${s.detail ? ` (${s.detail})` : ''}`;
}

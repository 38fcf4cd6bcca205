// From a deletion simulation to the counts and the one-line impact a code lens (and every report) shows:
// SimulationResult → ImpactSummary (shared/src/wire/simulation.ts) → "Delete: also 1 ReplicaSet, 3 Pods · 1 stuck (pvc-protection)".
// Pure functions; no LSP types.

import type { BlockReason, SimulationResult } from '../engine/simulation/types';
import type { ImpactSummary, TargetOutcome } from '../../../shared/src/protocol';

export type { TargetOutcome };
import { countOf } from '../../../shared/src/kinds';

type ResultParts = Pick<SimulationResult, 'deleted' | 'orphaned' | 'stuck'>;

/**
 * Counts what deleting the target(s) does. With `baseline` (the same inventory simulated with no DELETE, see
 * simulationCache.baselineSimulation) only what this deletion changes is counted: garbage the GC collects anyway
 * (absent owners) and objects that were already stuck are left out. The targets themselves are always counted.
 */
export function summarizeImpact(result: ResultParts, target: string | readonly string[], baseline?: ResultParts): ImpactSummary {
  const targets = new Set(typeof target === 'string' ? [target] : target);
  const goneAnyway = new Set(baseline?.deleted.map((d) => d.uid));
  const stuckAnyway = new Set(baseline?.stuck.map((s) => s.uid));
  const orphanedAnyway = new Set(baseline?.orphaned.map((o) => `${o.uid}\u0000${o.ownerUID}`));
  const deletedByKind: Record<string, number> = {};
  for (const d of result.deleted) {
    if (!targets.has(d.uid) && goneAnyway.has(d.uid)) continue;
    deletedByKind[d.kind] = (deletedByKind[d.kind] ?? 0) + 1;
  }
  const orphaned = new Set<string>();
  for (const o of result.orphaned) if (!orphanedAnyway.has(`${o.uid}\u0000${o.ownerUID}`)) orphaned.add(o.uid);
  const stuck = result.stuck.filter((s) => targets.has(s.uid) || !stuckAnyway.has(s.uid));
  // A target's own reason first: it is the one the title names.
  const first = stuck.find((s) => targets.has(s.uid)) ?? stuck[0];
  const because = shortReason(first?.blockedBy[0]);
  return { deletedByKind, orphaned: orphaned.size, stuck: stuck.length, ...(because ? { stuckBecause: because } : {}) };
}

/**
 * What became of the object the DELETE named. `collected`: it goes even without the DELETE (the baseline removes
 * it: its owners are absent, or it was already terminating and finishes), so the request has nothing left to do.
 */

export function targetOutcome(
  result: Pick<SimulationResult, 'deleted' | 'stuck' | 'steps'>,
  targetUid: string,
  baseline?: Pick<SimulationResult, 'deleted'>,
): TargetOutcome {
  if (baseline?.deleted.some((d) => d.uid === targetUid)) return 'collected';
  if (result.deleted.some((d) => d.uid === targetUid)) return 'deleted';
  if (result.stuck.some((s) => s.uid === targetUid)) return 'stuck';
  if (result.steps.some((s) => s.action === 'reject' && s.target.uid === targetUid)) return 'rejected';
  return 'unchanged';
}

/** At most this many kinds are named in a title; the rest are summed. */
const MAX_KINDS = 4;

/**
 * The lens title. Counts leave the target out ("also …": what goes besides the object itself):
 *   Delete: also 1 ReplicaSet, 3 Pods · 2 orphaned · 1 stuck (pvc-protection)
 *   Delete: only this ConfigMap
 *   Delete: stays Terminating (pvc-protection) · deletes 2 Pods · 1 more stuck
 *   Delete: rejected by the apiserver
 *   Delete: the GC deletes it anyway          (its owners are absent: it goes without any DELETE)
 * Plain text (not Markdown); the caller makes kinds safe for its output (see markdown.lensText).
 */
export function impactTitle(summary: ImpactSummary, target: { kind: string; outcome: TargetOutcome }): string {
  const others: Record<string, number> = { ...summary.deletedByKind };
  if ((target.outcome === 'deleted' || target.outcome === 'collected') && others[target.kind]) {
    others[target.kind]--;
    if (others[target.kind] === 0) delete others[target.kind];
  }
  const list = kindList(others);
  const parts: string[] = [];
  let otherStuck = summary.stuck;
  switch (target.outcome) {
    case 'deleted':
      parts.push(list ? `also ${list}` : `only this ${target.kind}`);
      break;
    case 'collected':
      parts.push('the GC deletes it anyway');
      if (list) parts.push(`also ${list}`);
      break;
    case 'stuck':
      otherStuck--;
      parts.push(`stays Terminating${summary.stuckBecause ? ` (${summary.stuckBecause})` : ''}`);
      if (list) parts.push(`deletes ${list}`);
      break;
    case 'rejected':
      parts.push('rejected by the apiserver');
      break;
    case 'unchanged':
      parts.push(list ? `deletes ${list}` : 'nothing changes');
      break;
  }
  if (summary.orphaned) parts.push(`${summary.orphaned} orphaned`);
  if (otherStuck > 0) {
    parts.push(
      target.outcome === 'stuck'
        ? `${otherStuck} more stuck`
        : `${otherStuck} stuck${summary.stuckBecause ? ` (${summary.stuckBecause})` : ''}`,
    );
  }
  return `Delete: ${parts.join(' · ')}`;
}

/** "1 ReplicaSet, 3 Pods" in the order the kinds were first deleted; beyond MAX_KINDS, "and N more". */
export function kindList(byKind: Record<string, number>): string {
  const entries = Object.entries(byKind).filter(([, n]) => n > 0);
  const shown = entries.slice(0, MAX_KINDS).map(([kind, n]) => countOf(kind, n));
  const rest = entries.slice(MAX_KINDS).reduce((sum, [, n]) => sum + n, 0);
  if (rest) shown.push(`${rest} more`);
  return shown.join(', ');
}

/** The short name of a blocking reason: "pvc-protection", "foregroundDeletion", "example.com/hold", "namespace content". */
export function shortReason(reason: BlockReason | undefined): string | undefined {
  if (!reason) return undefined;
  switch (reason.type) {
    case 'finalizer':
    case 'waiting-for-dependents':
      return reason.finalizer ? shortFinalizer(reason.finalizer) : 'finalizer';
    case 'graceful-termination':
      return 'graceful termination';
    case 'namespace-content':
      return 'namespace content';
    case 'namespace-controller':
      return 'namespace controller';
    case 'unresolvable-owner':
      return 'unresolvable owner';
    case 'invalid-scope':
      return 'invalid scope';
    case 'unavailable-apiservice':
      return 'unavailable APIService';
    case 'blocking-webhook':
      return 'blocking webhook';
  }
}

/** Kubernetes' own finalizers without their domain (kubernetes.io/pvc-protection → pvc-protection); others whole. */
export function shortFinalizer(finalizer: string): string {
  const slash = finalizer.indexOf('/');
  if (slash < 0) return finalizer;
  const domain = finalizer.slice(0, slash);
  const own = domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
  return own ? finalizer.slice(slash + 1) : finalizer;
}

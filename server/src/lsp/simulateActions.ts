// "Simulate …" code actions: what a change besides DELETE would do, offered where the cursor is (issue 18). On a
// finalizer, removing it; on an ownerReference, removing it, or pointing it at the owner that exists; on a workload's
// kind or name, scaling it. Each runs the client's SIMULATE_REQUESTS_COMMAND with a plan's `requests` entries,
// which asks kubeGcLens/simulateRequests (or, for a scale, asks the replicas first). Nothing is simulated here: the
// lightbulb asks on every cursor move, so this only reads the object's own fields and an index lookup.

import { CodeActionKind, type CodeAction, type Position, type Range } from 'vscode-languageserver';
import { SIMULATE_REQUESTS_COMMAND, type PlanRequest, type PlanTarget, type SimulateRequestsArgs } from '../../../shared/src/protocol';
import { caseCorrectedReference, lookupOwner } from '../engine/analysis/ownerLookup';
import { describe, splitApiVersion, type KubeObject, type OwnerReference } from '../engine/model';
import { contains, type ObjectModel } from '../workspace/workspaceModel';
import { plainText } from './markdown';

/** Not a fix (nothing is edited) and not a source action (those stay out of the lightbulb): a refactor kind of ours. */
export const SIMULATE_ACTION_KIND = `${CodeActionKind.Refactor}.kubeGcLens.simulate`;

/** What `kubectl scale` scales among the built-in kinds (`group/Kind`). */
const SCALABLE = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/ReplicaSet', '/ReplicationController']);

/** The Simulate actions at `range`'s start in `uri`; none when `only` asks for other kinds. */
export function simulateActions(
  model: ObjectModel,
  uri: string,
  range: Range,
  source: 'workspace' | 'cluster',
  only?: string[],
): CodeAction[] {
  if (only && !only.some((k) => SIMULATE_ACTION_KIND === k || SIMULATE_ACTION_KIND.startsWith(`${k}.`))) return [];
  const at = range.start;
  const o = model.objectAt(uri, at);
  const ranges = o?.source?.file === uri ? o.source.ranges : undefined;
  if (!o || !ranges) return [];
  const action = (title: string, args: SimulateRequestsArgs): CodeAction => ({
    title: plainText(title, 120),
    kind: SIMULATE_ACTION_KIND,
    command: { title: plainText(title, 120), command: SIMULATE_REQUESTS_COMMAND, arguments: [{ source, ...args }] },
  });
  const target = targetOf(o);
  // Entries and fields line up unless an entry was not a mapping (a load problem says so): then nothing is offered.
  if (ranges.finalizerEntries.length === o.finalizers.length) {
    const i = entryAt(ranges.finalizerEntries, at);
    if (i >= 0) {
      const finalizer = o.finalizers[i];
      return [action(`Simulate removing finalizer ${finalizer}`, { requests: [{ verb: 'remove-finalizer', ...target, finalizer }] })];
    }
  }
  if (ranges.ownerReferenceEntries.length === o.ownerReferences.length) {
    const i = entryAt(
      ranges.ownerReferenceEntries.map((e) => e.entry),
      at,
    );
    if (i >= 0) return ownerReferenceActions(model, o, o.ownerReferences[i], target, action);
  }
  // Anywhere on the lines of apiVersion, kind or metadata.name (their ranges are the values').
  const header = [ranges.apiVersion, ranges.kind, ranges.name].some((r) => r && r.start.line <= at.line && at.line <= r.end.line);
  if (header && SCALABLE.has(`${splitApiVersion(o.apiVersion).group}/${o.kind}`)) {
    const replicas = o.facts.scaledToZero ? 1 : 0;
    return [action(`Simulate scaling ${describe(o)}…`, { scale: target, replicas })];
  }
  return [];
}

/** The entry that holds the position, or the only one on its line (the cursor on a block list's `- `). */
function entryAt(entries: readonly Range[], at: Position): number {
  const i = entries.findIndex((r) => contains(r, at));
  if (i >= 0) return i;
  const onLine = entries.flatMap((r, j) => (r.start.line === at.line ? [j] : []));
  return onLine.length === 1 ? onLine[0] : -1;
}

type Action = (title: string, args: SimulateRequestsArgs) => CodeAction;

/** Removing the reference; and, when the GC does not find its owner but another object is clearly meant, fixing it. */
function ownerReferenceActions(model: ObjectModel, o: KubeObject, ref: OwnerReference, target: PlanTarget, action: Action): CodeAction[] {
  const owner = `${ref.kind} ${ref.name}`;
  const remove: PlanRequest = { verb: 'remove-owner-reference', ...target, ownerUid: ref.uid };
  const out = [action(`Simulate removing this ownerReference to ${owner}`, { requests: [remove] })];
  const lookup = lookupOwner(model.inventory, o, ref);
  const fixed: OwnerReference | undefined =
    lookup.state === 'absent' && lookup.sameName
      ? { ...ref, uid: lookup.sameName.uid }
      : lookup.state === 'unresolvable-kind' && lookup.sameUid
        ? caseCorrectedReference(ref, lookup.sameUid)
        : undefined;
  if (fixed) {
    const what = fixed.uid !== ref.uid ? `the uid of the existing ${owner}` : `kind ${fixed.kind}, as ${fixed.kind} ${fixed.name} has it`;
    out.push(
      action(`Simulate fixing this ownerReference: ${what}`, {
        requests: [{ verb: 'set-owner-reference', ...target, ownerUid: ref.uid, to: fixed }],
      }),
    );
  }
  return out;
}

/** The object as a plan names it. */
function targetOf(o: KubeObject): PlanTarget {
  return { apiVersion: o.apiVersion, kind: o.kind, ...(o.namespace ? { namespace: o.namespace } : {}), name: o.name };
}

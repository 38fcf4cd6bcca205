// Code lenses above each object: "Delete: …" (its deletion impact under the API default policy, computed on
// codeLens/resolve so that listing the lenses of a large file stays cheap) and, on objects with owners,
// "Owned by Deployment web" (resolved at once; a click reveals the owner). Pure functions of an ObjectModel (the
// workspace, or a live document's cluster).

import type { CodeLens, Command, Range } from 'vscode-languageserver-protocol';
import { describe, type KubeObject } from '../engine/model';
import type { ObjectModel } from '../workspace/workspaceModel';
import { SHOW_IN_GRAPH_COMMAND } from '../../../shared/src/protocol';
import { impactTitle, summarizeImpact, targetOutcome } from '../app/impact';
import { lensText } from './markdown';
import { lookupOwner, primaryReference } from '../engine/analysis/ownerLookup';
import { baselineSimulation, deletionSimulation, type SimulationSettings } from '../app/simulationCache';

/** Client commands the lenses run (the VS Code client registers them). */
export const SIMULATE_DELETE_COMMAND = 'kubeGcLens.simulateDelete';
export const REVEAL_LOCATION_COMMAND = 'kubeGcLens.revealLocation';

/** Where a click on an owner goes: [uri, range]. */
export type RevealTarget = (o: KubeObject) => [string, Range] | undefined;

/** What an unresolved impact lens carries to codeLens/resolve. */
export interface ImpactLensData {
  uri: string;
  uid: string;
  kind: 'impact';
}

/**
 * One impact lens per object of the document, plus an owner lens on objects with owners, plus (when `graph` gives
 * the argument of the client's Show in Graph command: VS Code) a "Show in Graph" lens. Ranges and data only.
 */
export function codeLenses(
  model: ObjectModel,
  uri: string,
  reveal: RevealTarget = revealTarget,
  graph?: (o: KubeObject) => unknown,
): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const o of model.objectsIn(uri)) {
    const r = o.source?.ranges?.object;
    if (!r) continue;
    const range: Range = { start: r.start, end: r.start };
    const data: ImpactLensData = { uri, uid: o.uid, kind: 'impact' };
    lenses.push({ range, data });
    if (o.ownerReferences.length) lenses.push({ range, command: ownerCommand(model, o, reveal) });
    if (graph)
      lenses.push({
        range,
        command: {
          title: SHOW_IN_GRAPH_TITLE,
          command: SHOW_IN_GRAPH_COMMAND,
          arguments: [graph(o)],
          tooltip: `Show ${lensText(describe(o), 200)} in the ownership graph`,
        },
      });
  }
  return lenses;
}

export const SHOW_IN_GRAPH_TITLE = 'Show in Graph';

/** "Owned by Deployment web" (click: reveal it), or "Owner Deployment web not found". */
function ownerCommand(model: ObjectModel, o: KubeObject, reveal: RevealTarget): Command {
  const ref = o.ownerReferences[primaryReference(o)];
  const more = o.ownerReferences.length - 1;
  const suffix = more ? ` and ${more} more` : '';
  const who = `${ref.kind} ${ref.name}`;
  const lookup = lookupOwner(model.inventory, o, ref);
  if (lookup.state === 'found') {
    const target = reveal(lookup.owner);
    const title = lensText(`Owned by ${who}${suffix}`);
    return target ? { title, command: REVEAL_LOCATION_COMMAND, arguments: target } : { title, command: '' };
  }
  // A namesake with another uid is not the owner to the GC, but it is where the user wants to look.
  const namesake = lookup.state === 'absent' ? lookup.sameName : undefined;
  const target = namesake && reveal(namesake);
  if (target)
    return { title: lensText(`Owner ${who} not found (uid differs)${suffix}`), command: REVEAL_LOCATION_COMMAND, arguments: target };
  // So is the object holding the uid under other coordinates (`kind: daemonset` for a DaemonSet).
  const holder = lookup.sameUid;
  const holderTarget = holder && reveal(holder);
  if (holder && holderTarget) {
    return {
      title: lensText(`Owner ${who} not found (the uid is ${holder.kind} ${holder.name}'s)${suffix}`),
      command: REVEAL_LOCATION_COMMAND,
      arguments: holderTarget,
    };
  }
  return { title: lensText(`Owner ${who} not found${suffix}`), command: '' };
}

/** [uri, range] of an object's name (or the object when it has none). */
function revealTarget(o: KubeObject): [string, Range] | undefined {
  const src = o.source;
  const range = src?.ranges?.name ?? src?.ranges?.object;
  return src && range ? [src.file, range] : undefined;
}

/**
 * Fills in the impact lens: simulates deleting the object with no propagationPolicy (the API default, R5) and
 * counts what that deletion changes. A lens whose object is gone (stale after an edit) becomes "(outdated)".
 */
export function resolveCodeLens(model: ObjectModel, lens: CodeLens, options: SimulationSettings, live = false): CodeLens {
  if (lens.command) return lens;
  const data = lens.data as Partial<ImpactLensData> | undefined;
  const o = data?.kind === 'impact' && typeof data.uid === 'string' ? model.inventory.objects.get(data.uid) : undefined;
  if (!o) return { ...lens, command: { title: '(outdated)', command: '' } };
  const result = deletionSimulation(model.inventory, o, 'default', options);
  const baseline = baselineSimulation(model.inventory, options);
  const summary = summarizeImpact(result, o.uid, baseline);
  const title = impactTitle(summary, { kind: o.kind, outcome: targetOutcome(result, o.uid, baseline) });
  return {
    ...lens,
    command: {
      title: lensText(title, 160),
      command: SIMULATE_DELETE_COMMAND,
      // A live document's object is simulated on the live graph: the client takes {source: 'cluster', uid}.
      arguments: [live ? { source: 'cluster', uid: o.uid } : o.uid, 'default'],
      tooltip: `Simulate deleting ${lensText(describe(o), 200)}`,
    },
  };
}

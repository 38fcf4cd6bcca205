// Hovers: on an ownerReferences entry (the answer first: this object's fate under each deletion policy of the owner,
// simulated, or what the GC does instead; then the owner as the GC resolves it, its state, and what controller and
// blockOwnerDeletion mean here); on a finalizer
// (who removes it and whether that controller survives); on metadata.name/uid (the object's dependents).
// A pure function of an ObjectModel (the workspace, or a live document's cluster). Everything taken from a manifest
// goes through markdown.ts.
// A finding is named by its code, linked to its documentation; its message only where the editor does not already
// show it (its diagnostic's range does not hold the position), so no text appears twice.
//
// Cost: index lookups and the object's own fields; the policy simulations are cached per inventory version
// (simulationCache.ts), so only the first hover on an owner after a change pays for them.

import { MarkupKind, type Hover, type Position, type Range } from 'vscode-languageserver-protocol';
import type { Finding } from '../engine/analysis/findingTypes';
import {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  describe,
  isSyntheticUid,
  type KubeObject,
  type ObjectIdentity,
  type OwnerReference,
} from '../engine/model';
import { startState, finalizerOwnersFor } from '../engine/simulation/startState';
import type { ControllersMode, FinalizerOwnerRule, PropagationPolicy, SimulationResult } from '../engine/simulation/types';
import type { ObjectModel } from '../workspace/workspaceModel';
import { shortReason } from '../app/impact';
import { waysOut } from '../app/waysOut';
import { countOf } from '../../../shared/src/kinds';
import { codeLink, codeSpan, escapeMarkdown as esc, fileLabel, markdownLink } from './markdown';
import { coordinateDifferences, lookupOwner, type OwnerLookup } from '../engine/analysis/ownerLookup';
import { FINDING_CATALOGUE } from '../engine/analysis/findingCatalogue';
import { docsLink } from './diagnostics';
import type { LiveView } from '../engine/analysis/liveComparison';
import { baselineSimulation, deletionSimulation } from '../app/simulationCache';
import { controllerSet } from '../engine/simulation/controllerSet';

export interface HoverOptions {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
  /** A "Show in Graph" command link for the object, when the client runs that command (VS Code). */
  graphLink?: (o: KubeObject) => string | undefined;
}

const POLICIES: PropagationPolicy[] = ['Background', 'Foreground', 'Orphan'];

const NOTHING: SimulationResult = { deleted: [], orphaned: [], remaining: [], stuck: [], steps: [], notes: [] };

/** Dependents listed one by one under the counts. */
const MAX_LISTED = 10;

/** `live`: the connected cluster, whose state of the owner (or of the object itself) the hover adds. */
export function hoverAt(model: ObjectModel, uri: string, position: Position, options: HoverOptions, live?: LiveView): Hover | null {
  const o = model.objectAt(uri, position);
  const ranges = o?.source?.file === uri ? o.source.ranges : undefined;
  if (!o || !ranges) return null;
  const link = options.graphLink?.(o);
  const markdown = (value: string, range: Range): Hover => markdownHover(link ? `${value}\n\n${link}` : value, range);
  // Entries and refs line up unless an entry was not a mapping (a load problem says so): then no hover.
  if (ranges.ownerReferenceEntries.length === o.ownerReferences.length) {
    for (let i = 0; i < ranges.ownerReferenceEntries.length; i++) {
      const e = ranges.ownerReferenceEntries[i];
      const field = ([e.apiVersion, e.kind, e.name, e.uid, e.controller, e.blockOwnerDeletion] as (Range | undefined)[]).find(
        (r) => r && within(r, position),
      );
      if (!field && !within(e.entry, position)) continue;
      const liveLine = live ? `\n\n${liveOwnerState(live, o, o.ownerReferences[i])}` : '';
      return markdown(ownerReferenceHover(model, o, i, options, position) + liveLine, field ?? e.entry);
    }
  }
  if (ranges.finalizerEntries.length === o.finalizers.length) {
    for (let i = 0; i < ranges.finalizerEntries.length; i++) {
      if (within(ranges.finalizerEntries[i], position))
        return markdown(finalizerHover(model, o, i, options, position), ranges.finalizerEntries[i]);
    }
  }
  for (const r of [ranges.name, ranges.uid]) {
    if (!r || !within(r, position)) continue;
    const text = [dependentsHover(model, o), live && liveObjectState(live, model, o)].filter(Boolean).join('\n\n');
    return text ? markdown(text, r) : null;
  }
  return null;
}

function markdownHover(value: string, range: Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range };
}

/** Inside a range; a range that ends at the start of a later line does not include that line. */
function within(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  if (!afterStart) return false;
  if (r.end.character === 0 && r.end.line > r.start.line) return p.line < r.end.line;
  return p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
}

// ------------------------------------------------------------------------------------------------
// ownerReferences

/** The answer first (the fate under each policy, or what the GC does instead), then the owner's facts, then the fields explained. */
function ownerReferenceHover(model: ObjectModel, o: KubeObject, index: number, options: HoverOptions, position: Position): string {
  const inv = model.inventory;
  const ref = o.ownerReferences[index];
  const lookup = lookupOwner(inv, o, ref);
  const name = ownerName(ref, lookup);
  const out: string[] = [];
  out.push(`**Owner:** ${esc(name)}`);
  const findings = findingsAt(model.findingsOf(o.uid), (f) => f.location.kind === 'ownerReference' && f.location.index === index, position);
  if (lookup.state === 'found') {
    out.push(policyOutcomes(model, o, lookup.owner, options));
    if (findings) out.push(`**Findings on this reference:**\n${findings}`);
  } else {
    out.push(`**What the GC does instead:**\n${findings || '- Nothing reported for this reference.'}`);
  }
  const facts: string[] = [];
  facts.push(`- **uid:** ${codeSpan(ref.uid || '(none)')}${uidNote(ref, lookup)}`);
  facts.push(`- **Defined in:** ${whereDefined(model, lookup)}`);
  facts.push(`- **State:** ${ownerState(model, o, ref, lookup)}`);
  out.push(facts.join('\n'));
  out.push(controllerSentence(o, ref, name));
  out.push(blockingSentence(o, ref, name, lookup));
  return out.join('\n\n');
}

/** "Deployment shop/web" as the GC would look it up (the dependent's namespace for namespaced kinds). */
function ownerName(ref: OwnerReference, lookup: OwnerLookup): string {
  switch (lookup.state) {
    case 'found':
      return describe(lookup.owner);
    case 'absent':
      return describe({ kind: ref.kind, namespace: lookup.namespace, name: ref.name });
    case 'invalid-scope':
      return `${ref.kind} ${ref.name}`;
    case 'unresolvable-kind':
      return `${ref.kind} ${ref.name} (${ref.apiVersion})`;
  }
}

function uidNote(ref: OwnerReference, lookup: OwnerLookup): string {
  if (isSyntheticUid(ref.uid)) {
    return ' (synthetic: this reference has no uid in the manifest, which the apiserver rejects; Kube GC Lens points it at the uid it made up for the owner)';
  }
  if (lookup.state === 'found' && lookup.owner.syntheticUid) {
    return " (the owner's manifest has no uid: a hand-written manifest gets a new uid when it is applied, so this reference would not match it)";
  }
  return '';
}

function locationLink(model: ObjectModel, o: KubeObject): string | undefined {
  const live = model.liveLocation?.(o);
  if (live) return markdownLink(`live ${describe(o)}`, `${live.uri}#L${live.range.start.line + 1}`);
  const src = o.source;
  const r = src?.ranges?.name ?? src?.ranges?.object;
  if (!src || !r) return undefined;
  const line = r.start.line + 1;
  return markdownLink(`${fileLabel(src.file)}:${line}`, `${src.file}#L${line}`);
}

function whereDefined(model: ObjectModel, lookup: OwnerLookup): string {
  if (lookup.state === 'found') return locationLink(model, lookup.owner) ?? 'in the workspace (position unknown)';
  if (lookup.state === 'absent' && (lookup.sameName || lookup.sameUid)) {
    const where = lookup.namespace ? `in namespace ${esc(lookup.namespace)}` : 'cluster-wide';
    return `not found ${where}, where the GC looks (see below)`;
  }
  if (lookup.sameUid) {
    // The reference cannot be looked up at all, but the object it meant is here.
    const link = locationLink(model, lookup.sameUid);
    return `not where the GC looks; its uid is ${esc(describe(lookup.sameUid))}'s${link ? ` (${link})` : ''} (see below)`;
  }
  return 'not found anywhere in the workspace';
}

/** "uid … belongs to DaemonSet ns/x (link), which this reference names differently: kind daemonset, not DaemonSet (…)". */
function uidHolder(model: ObjectModel, o: KubeObject, ref: OwnerReference, holder: KubeObject): string {
  const link = locationLink(model, holder);
  const differs = coordinateDifferences(ref, o, holder, model.inventory.kindOf(holder)?.namespaced);
  return `uid ${codeSpan(ref.uid)} belongs to ${esc(describe(holder))}${link ? ` (${link})` : ''}, which this reference names differently: ${esc(differs.join('; '), 1000)}`;
}

function ownerState(model: ObjectModel, o: KubeObject, ref: OwnerReference, lookup: OwnerLookup): string {
  const held = lookup.state !== 'found' && lookup.sameUid ? `; ${uidHolder(model, o, ref, lookup.sameUid)}` : '';
  switch (lookup.state) {
    case 'found':
      return objectState(lookup.owner);
    case 'unresolvable-kind':
      return `unresolvable: nothing in the workspace or in Kubernetes serves ${codeSpan(ref.apiVersion)} ${codeSpan(ref.kind)}${held}`;
    case 'invalid-scope':
      return `cannot be looked up: ${esc(ref.kind)} is namespaced and an ownerReference has no namespace${held}`;
    case 'absent': {
      const node = model.inventory.graph.get(ref.uid);
      const parts: string[] = [];
      parts.push(
        node?.virtual
          ? "virtual (referenced but absent): the GC's graph holds a placeholder for it and checks whether it exists"
          : 'absent where the GC looks: the reference is dangling',
      );
      if (lookup.sameName) {
        const link = locationLink(model, lookup.sameName);
        parts.push(
          `${esc(describe(lookup.sameName))} exists with another uid, ${codeSpan(lookup.sameName.uid)}${link ? ` (${link})` : ''}`,
        );
      }
      if (lookup.sameUid && lookup.sameUid !== lookup.sameName) parts.push(uidHolder(model, o, ref, lookup.sameUid));
      return parts.join('; ');
    }
  }
}

function objectState(o: KubeObject): string {
  const finalizers = o.finalizers.length ? o.finalizers.map((f) => codeSpan(f)).join(', ') : '';
  if (o.deletionTimestamp === undefined) return finalizers ? `present (finalizers: ${finalizers})` : 'present';
  const since = ` since ${esc(o.deletionTimestamp)}`;
  if (!finalizers) return `being deleted${since}`;
  const foreground = o.finalizers.includes(FOREGROUND_FINALIZER) ? ', deleting its blocking dependents first (foreground)' : '';
  return `being deleted${since}, waiting for finalizers ${finalizers}${foreground}`;
}

function controllerSentence(o: KubeObject, ref: OwnerReference, owner: string): string {
  const it = `this ${esc(o.kind)}`;
  if (ref.controller === true) {
    return `**controller: true**: ${esc(owner)} is the managing controller of ${it}: its controller adopts, updates and replaces it, and no other ownerReference may also say controller: true (the apiserver rejects a second one). The garbage collector does not read this field.`;
  }
  const value = ref.controller === false ? 'false' : 'not set (false)';
  return `**controller: ${value}**: ${esc(owner)} owns ${it} for garbage collection only; no controller claims to manage it through this reference. The garbage collector does not read this field.`;
}

function blockingSentence(o: KubeObject, ref: OwnerReference, owner: string, lookup: OwnerLookup): string {
  const it = `this ${esc(o.kind)}`;
  // A reference the GC cannot look up never gets its dependent collected (it is retried forever, or dropped).
  const unresolved = lookup.state === 'unresolvable-kind' || lookup.state === 'invalid-scope';
  if (ref.blockOwnerDeletion === true) {
    return `**blockOwnerDeletion: true**: a Foreground deletion of ${esc(owner)} waits for ${it}: the owner stays Terminating with foregroundDeletion until ${it} is gone. Background and Orphan deletions do not wait.`;
  }
  const value = ref.blockOwnerDeletion === false ? 'false' : 'not set (false)';
  const after = unresolved
    ? `the owner can disappear first, and ${it} is never collected: the GC cannot look this reference up`
    : `the owner can disappear first and ${it} is collected afterwards`;
  return `**blockOwnerDeletion: ${value}**: a Foreground deletion of ${esc(owner)} does not wait for ${it}: ${after}.`;
}

function policyOutcomes(model: ObjectModel, o: KubeObject, owner: KubeObject, options: HoverOptions): string {
  const inv = model.inventory;
  const baseline = baselineSimulation(inv, options);
  if (baseline.deleted.some((d) => d.uid === owner.uid)) {
    // Garbage itself (its own owners are absent) or already finishing: no DELETE reaches it.
    return `**${esc(describe(owner))} goes without any DELETE:** the GC collects it on its own (see the findings on its ownerReferences), so no deletion policy applies. Then ${fateOf(baseline, NOTHING, o, owner)}.`;
  }
  const lines = [`**If ${esc(describe(owner))} is deleted** (simulated, controllers: ${esc(options.controllers)}):`];
  for (const policy of POLICIES) {
    const result = deletionSimulation(inv, owner, policy, options);
    lines.push(`- **${policy}:** ${fateOf(result, baseline, o, owner)}`);
  }
  return `${lines.join('\n')}\n\n\`kubectl delete\` sends Background unless told otherwise (\`--cascade\`).`;
}

/** What one simulated deletion of `owner` does to `o`, in one sentence. */
function fateOf(result: SimulationResult, baseline: SimulationResult, o: KubeObject, owner: KubeObject): string {
  const it = `this ${esc(o.kind)}`;
  const ownerGone = result.deleted.find((d) => d.uid === owner.uid);
  const ownerStuck = result.stuck.find((s) => s.uid === owner.uid);
  const ownerNote = ownerGone
    ? ''
    : ownerStuck
      ? `; the owner stays Terminating (${esc(shortReason(ownerStuck.blockedBy[0]) ?? 'nothing left to finish it')})`
      : '; the owner is not removed';
  const partial = result.aborted ? ' (the simulation stopped early: partial result)' : '';
  const anyway = (set: { uid: string }[]) => (set.some((x) => x.uid === o.uid) ? ' (it would be anyway, without this deletion)' : '');
  const rejected = result.steps.find((s) => s.action === 'reject' && s.target.uid === owner.uid);
  if (rejected) return `nothing happens: the DELETE is rejected (${esc(rejected.detail)})${partial}`;
  if (o.uid === owner.uid) {
    if (ownerGone) return `${it} is deleted${partial}`;
    if (ownerStuck)
      return `${it} stays Terminating: ${esc(ownerStuck.blockedBy.map((b) => b.message).join('; ') || ownerStuck.reason)}${partial}`;
    return `${it} stays${partial}`;
  }
  const deleted = result.deleted.find((d) => d.uid === o.uid);
  if (deleted) {
    const when = !ownerGone ? '' : deleted.step < ownerGone.step ? ', before the owner is removed' : ', after the owner is removed';
    return `${it} is deleted${when}${anyway(baseline.deleted)}${ownerNote}${partial}`;
  }
  const stuck = result.stuck.find((s) => s.uid === o.uid);
  if (stuck) {
    const why = stuck.blockedBy.map((b) => b.message).join('; ') || stuck.reason;
    return `${it} stays Terminating: ${esc(why)}${anyway(baseline.stuck)}${ownerNote}${partial}`;
  }
  if (result.orphaned.some((x) => x.uid === o.uid && x.ownerUID === owner.uid)) {
    const left = o.ownerReferences.filter((r) => r.uid !== owner.uid).length;
    return `${it} stays: the GC removes this ownerReference${left ? '; its other owners keep it' : ' and it has no owner left'}${ownerNote}${partial}`;
  }
  return `${it} stays, unchanged${ownerNote}${partial}`;
}

/**
 * The findings `where` selects, each by its code linked to its documentation. Where the editor shows the finding's
 * diagnostic in this same hover (its range holds the position), only the catalogue's title, not the message again.
 */
function findingsAt(findings: Finding[], where: (f: Finding) => boolean, position: Position): string {
  return findings
    .filter(where)
    .map((f) => {
      const shown = f.range !== undefined && within(f.range, position);
      return `- ${codeLink(f.code, docsLink(f.code))}: ${shown ? esc(FINDING_CATALOGUE[f.code].title) : esc(f.message, 2000)}`;
    })
    .join('\n');
}

// ------------------------------------------------------------------------------------------------
// finalizers

/** What Kubernetes' own finalizer controllers wait for. */
const BUILTIN_WHEN: Record<string, string> = {
  'kubernetes.io/pvc-protection': 'removes it once no Pod uses the claim',
  'kubernetes.io/pv-protection': 'removes it once the volume is no longer bound to a claim',
  'customresourcecleanup.apiextensions.k8s.io': 'deletes every instance of the custom resource, then removes it',
  'batch.kubernetes.io/job-tracking': "removes it from a Job's Pod once the Job controller has counted the Pod",
  'service.kubernetes.io/load-balancer-cleanup': "removes it once the Service's cloud load balancer is deleted",
};

function finalizerHover(model: ObjectModel, o: KubeObject, index: number, options: HoverOptions, position: Position): string {
  const inv = model.inventory;
  const f = o.finalizers[index];
  const owner = finalizerOwnersFor(inv, options.finalizerOwners).ownerOf(f, o);
  const set = controllerSet(options.controllers);
  // `gc`, or a kube-controller-manager list that runs no operator and only the built-in controllers it names.
  const strict =
    set.strict ||
    (!set.realCluster &&
      !(
        owner.type === 'builtin' &&
        (owner.kcm !== undefined ? set.runs(owner.kcm) : set.crdCleanup && owner.controller === 'apiextensions-apiserver')
      ));
  const strictNote = set.strict
    ? 'With `kubeGcLens.simulation.controllers` set to `gc` only the apiserver and the garbage collector act, so the simulation never removes it.'
    : `With \`kubeGcLens.simulation.controllers\` set to ${codeSpan(set.spec)} only those kube-controller-manager controllers act, so the simulation never removes it.`;
  const out: string[] = [`**Finalizer** ${codeSpan(f)} on ${esc(describe(o))}`];
  // The answer first: what is wrong with it (stuck, deadlock), then who removes it.
  const findings = findingsAt(model.findingsOf(o.uid), (x) => x.location.kind === 'finalizer' && x.location.index === index, position);
  if (findings) out.push(`**Findings on this finalizer:**\n${findings}`);
  const ways = o.deletionTimestamp !== undefined ? waysOutMarkdown(model, o, options) : undefined;
  if (ways) out.push(ways);
  switch (owner.type) {
    case 'gc':
      out.push(gcFinalizerText(model, o, f));
      break;
    case 'builtin': {
      const when = BUILTIN_WHEN[f] ?? 'removes it when its cleanup is done';
      out.push(
        `**Removed by:** ${codeSpan(owner.controller)}, a Kubernetes control-plane controller (built-in knowledge): it ${esc(when)}.`,
      );
      out.push(strict ? strictNote : '**Controller:** part of the control plane: it keeps running whatever is deleted.');
      if (f === PVC_PROTECTION_FINALIZER && o.apiVersion === 'v1' && o.kind === 'PersistentVolumeClaim') {
        const users = startState(inv).claimUsers.get(`${o.namespace}\u0000${o.name}`) ?? [];
        out.push(
          users.length
            ? `Pods using this claim now: ${users
                .slice(0, MAX_LISTED)
                .map((u) => podLabel(model, u))
                .join(', ')}${users.length > MAX_LISTED ? ` and ${users.length - MAX_LISTED} more` : ''}.`
            : 'No Pod in the workspace uses this claim.',
        );
      }
      break;
    }
    case 'workload': {
      const w = owner.workload;
      const current = inv.objects.get(w.uid);
      const where = (current && locationLink(model, current)) ?? undefined;
      const how =
        owner.how === 'configured'
          ? `configured in \`kubeGcLens.finalizerOwners\` (${esc(owner.why)})`
          : owner.how === 'catalogued'
            ? `recognised from the catalogue of well-known finalizers (${esc(owner.why)})`
            : `a guess (the documented default), ${esc(owner.why, 1000)}. Set \`kubeGcLens.finalizerOwners\` if another workload owns it`;
      out.push(`**Removed by:** the controller running in ${esc(describe(w))}${where ? ` (${where})` : ''}: ${how}.`);
      out.push(strict ? strictNote : workloadSurvival(o, w, current));
      break;
    }
    case 'external':
      out.push('**Removed by:** a controller outside the workspace, configured in `kubeGcLens.finalizerOwners` (`external: true`).');
      out.push(
        strict ? strictNote : '**Controller:** assumed to keep running (it is not part of the workspace, so no deletion here reaches it).',
      );
      break;
    case 'absent':
      out.push(
        owner.how === 'configured'
          ? `**Removed by:** nobody: configured in \`kubeGcLens.finalizerOwners\` (${esc(owner.why)}).`
          : `**Removed by:** nobody known (the documented default guess found no controller: ${esc(owner.why, 1000)}).`,
      );
      out.push(`Once ${esc(describe(o))} is deleted it stays Terminating until something outside the workspace removes ${codeSpan(f)}.`);
      break;
  }
  if (owner.type !== 'gc') {
    out.push(
      o.deletionTimestamp === undefined
        ? `${esc(describe(o))} is not being deleted: a finalizer only holds an object once it is deleted.`
        : `${esc(describe(o))} is being deleted (since ${esc(o.deletionTimestamp)}): it goes once every finalizer is removed (${o.finalizers.map((x) => codeSpan(x)).join(', ')}).`,
    );
  }
  return out.join('\n\n');
}

/** A stuck object's ways out, safest first, each with its simulated outcome (app/waysOut.ts); the commands are in the
 * Stuck Objects view and `kubectl gc stuck`. */
function waysOutMarkdown(model: ObjectModel, o: KubeObject, options: HoverOptions): string | undefined {
  const ways = waysOut(model.inventory, o.uid, { controllers: options.controllers, finalizerOwners: options.finalizerOwners });
  if (!ways.length) return undefined;
  const lines = ways.map((w) => `- **${w.risk}**: ${esc(w.title)}. ${esc(w.outcome.summary)}.`);
  return `**Ways out** (safest first, each simulated; the Stuck Objects view has their commands):\n${lines.join('\n')}`;
}

function podLabel(model: ObjectModel, uid: string): string {
  const pod = model.inventory.objects.get(uid);
  if (!pod) return codeSpan(uid);
  const link = locationLink(model, pod);
  return `${esc(describe(pod))}${link ? ` (${link})` : ''}`;
}

function workloadSurvival(o: KubeObject, w: ObjectIdentity, current: KubeObject | undefined): string {
  const parts: string[] = [];
  if (!current) parts.push('**Controller:** not in the workspace: nobody removes this finalizer.');
  else if (current.deletionTimestamp !== undefined)
    parts.push('**Controller:** being deleted: once it is gone nobody removes this finalizer.');
  else parts.push('**Controller:** running (present and not being deleted).');
  if (current && o.namespace && w.namespace === o.namespace) {
    parts.push(
      `It runs in the same namespace: deleting Namespace ${esc(o.namespace)} deletes it too, and if it goes before it has removed this finalizer, ${esc(describe(o))} stays Terminating (and so does the namespace).`,
    );
  }
  return parts.join(' ');
}

function gcFinalizerText(model: ObjectModel, o: KubeObject, f: string): string {
  const node = model.inventory.graph.get(o.uid);
  const dependents = node?.dependents.size ?? 0;
  const deps = `${dependents} in the workspace`;
  const terminating = o.deletionTimestamp !== undefined;
  if (f === ORPHAN_FINALIZER) {
    return [
      `**Removed by:** the garbage collector (kube-controller-manager), which always runs. ${codeSpan(f)} is its own finalizer, added when an object is deleted with propagationPolicy Orphan (or a default that orphans).`,
      `While it is there the GC removes ${esc(describe(o))}'s uid from the ownerReferences of each of its dependents (${deps}), which stay; then it removes ${codeSpan(f)} and the object goes.`,
      terminating ? '' : 'This object is not being deleted: the finalizer makes a later DELETE that names no policy orphan its dependents.',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  const blocking = node ? new Set(node.blockingDependents().map((d) => d.identity.uid)).size : 0;
  return [
    `**Removed by:** the garbage collector (kube-controller-manager), which always runs. ${codeSpan(FOREGROUND_FINALIZER)} is its own finalizer, added by a Foreground deletion.`,
    `${esc(describe(o))} stays visible, Terminating, while the GC deletes its dependents (${deps}); the GC removes the finalizer once no dependent with blockOwnerDeletion: true is left (${blocking} now). A blocking dependent that cannot go keeps it forever.`,
    terminating ? '' : 'This object is not being deleted: the finalizer makes a later DELETE that names no policy a Foreground one.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

// ------------------------------------------------------------------------------------------------
// metadata.name / metadata.uid

function dependentsHover(model: ObjectModel, o: KubeObject): string | undefined {
  const node = model.inventory.graph.get(o.uid);
  if (!node || node.dependents.size === 0) return undefined;
  const byKind = new Map<string, number>();
  for (const d of node.dependents) byKind.set(d.identity.kind, (byKind.get(d.identity.kind) ?? 0) + 1);
  const counts = [...byKind].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([kind, n]) => esc(countOf(kind, n)));
  const n = node.dependents.size;
  const out = [`**${n} ${n === 1 ? 'dependent' : 'dependents'}:** ${counts.join(', ')}`];
  const listed: string[] = [];
  for (const d of node.dependents) {
    if (listed.length === MAX_LISTED) break;
    const dep = model.inventory.objects.get(d.identity.uid);
    const link = dep && locationLink(model, dep);
    const refs = d.owners.filter((r) => r.uid === o.uid);
    const flags = [
      refs.some((r) => r.controller === true) ? 'controller' : '',
      refs.some((r) => r.blockOwnerDeletion === true) ? 'blockOwnerDeletion' : '',
    ]
      .filter(Boolean)
      .join(', ');
    listed.push(`- ${esc(describe(d.identity))}${link ? ` (${link})` : ''}${flags ? `: ${flags}` : ''}`);
  }
  if (n > MAX_LISTED) listed.push(`- … and ${n - MAX_LISTED} more`);
  out.push(listed.join('\n'));
  if (isSyntheticUid(o.uid))
    out.push(`uid ${codeSpan(o.uid)} is synthetic: the manifest has no uid, and its dependents name the owner without one.`);
  return out.join('\n\n');
}

// ------------------------------------------------------------------------------------------------
// the connected cluster

/** The owner as the live cluster's GC would resolve it (R34): by kind and name where it looks, then the uid. */
function liveOwnerState(live: LiveView, o: KubeObject, ref: OwnerReference): string {
  const head = `**In the cluster** (context ${esc(live.context)}):`;
  const lookup = lookupOwner(live.inventory, o, ref);
  switch (lookup.state) {
    case 'found':
      return `${head} ${esc(describe(lookup.owner))} is ${objectState(lookup.owner)}, with this uid.`;
    case 'unresolvable-kind':
      return `${head} the cluster serves no ${codeSpan(ref.apiVersion)} ${codeSpan(ref.kind)}: its GC could not resolve this reference.`;
    case 'invalid-scope':
      return `${head} ${esc(ref.kind)} is namespaced there: its GC cannot look it up from a cluster-scoped object.`;
    case 'absent': {
      const name = describe({ kind: lookup.info.kind, namespace: lookup.namespace, name: ref.name });
      if (!live.covers(lookup.info.group, lookup.info.kind, lookup.namespace)) {
        return `${head} unknown: the connection does not list ${esc(lookup.info.kind)} objects${lookup.namespace ? ` in ${esc(lookup.namespace)}` : ''}.`;
      }
      if (lookup.sameName) {
        return `${head} ${esc(name)} exists with uid ${codeSpan(lookup.sameName.uid)} (${objectState(lookup.sameName)}), not this reference's: once applied, this reference is dangling.`;
      }
      return `${head} no ${esc(name)}: once applied, this reference is dangling.`;
    }
  }
}

/** The live object with this manifest's group, kind, namespace and name: its state, uid and dependents there. */
function liveObjectState(live: LiveView, model: ObjectModel, o: KubeObject): string | undefined {
  const head = `**In the cluster** (context ${esc(live.context)}):`;
  const info = model.inventory.kindOf(o);
  if (!info) return undefined;
  const namespace = info.namespaced ? o.namespace : '';
  if (!live.covers(info.group, info.kind, namespace)) {
    return `${head} unknown: the connection does not list ${esc(info.kind)} objects${namespace ? ` in ${esc(namespace)}` : ''}.`;
  }
  const there = live.inventory.find(info.group, info.kind, namespace, o.name);
  if (!there) return `${head} not there: applying this file creates it.`;
  const node = live.inventory.graph.get(there.uid);
  const n = node?.dependents.size ?? 0;
  const byKind = new Map<string, number>();
  for (const d of node?.dependents ?? []) byKind.set(d.identity.kind, (byKind.get(d.identity.kind) ?? 0) + 1);
  const dependents = n
    ? `; ${n} ${n === 1 ? 'dependent' : 'dependents'} there: ${[...byKind].map(([k, c]) => esc(countOf(k, c))).join(', ')}`
    : '; no dependents there';
  const stuck = there.deletionTimestamp !== undefined ? live.stuckReason?.(there.uid) : undefined;
  const owners = there.ownerReferences.length
    ? `; owned by ${there.ownerReferences.map((r) => esc(`${r.kind} ${r.name}`)).join(', ')}`
    : '';
  return `${head} ${esc(describe(there))} is ${objectState(there)}, uid ${codeSpan(there.uid)}${owners}${dependents}.${stuck ? ` It cannot finish: ${esc(stuck)}.` : ''}`;
}

// Analysis without deletion: what is wrong with the ownership data as it is, and what will happen because
// of it, in Kubernetes terms. Reference checks follow the GC's own lookup (R34, R42–R46); deadlock and
// stuck findings are confirmed by running the simulation, not guessed.

import type { Inventory } from '../inventory';
import {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  describe,
  identityOf,
  isGcFinalizer,
  maybeScheduled,
  isSyntheticUid,
  flatString,
  splitApiVersion,
  type KubeObject,
  type OwnerReference,
} from '../model';
import { simulate } from '../simulation/simulate';
import { finalizerOwnersFor } from '../simulation/startState';
import type { FinalizerOwners } from '../simulation/finalizerOwners';
import type { ControllersMode, FinalizerOwnerRule, SimulationResult } from '../simulation/types';
import { controllerSet, type ControllerSet } from '../simulation/controllerSet';
import { NEWEST_KUBE_VERSION, kubeVersionText, orderedNamespaceDeletion, parseKubeVersion } from '../simulation/kubeVersion';
import type { Finding, FindingCode, FindingLocation, RelatedInformation, Severity } from './findingTypes';
import { rangeOf } from './locate';
import { blockerFindings } from './blockerFindings';
import { copyPlace } from './fileName';
import { infrastructureLabel } from '../simulation/clusterBlockers';
import { caseCorrectedReference, coordinateDifferences } from './ownerLookup';

export interface AnalysisOptions {
  /** Which controllers the stuck/deadlock predictions assume (default: builtin). */
  controllers?: ControllersMode;
  finalizerOwners?: FinalizerOwnerRule[];
  /** How the front end says to name a finalizer's owner (SimulationOptions.finalizerOwnerHint). */
  finalizerOwnerHint?: string;
  /** The Kubernetes version whose behaviour the predictions follow (default: the newest followed). */
  kubeVersion?: string;
}

const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export function analyze(inventory: Inventory, options: AnalysisOptions = {}): Finding[] {
  const findings: Finding[] = [];
  for (const o of inventory.objects.values()) findings.push(...analyzeObject(inventory, o));
  findings.push(...cycleFindings(inventory));
  findings.push(...conflictFindings(inventory));
  findings.push(...predictedFindings(inventory, options));
  return findings;
}

function finding(
  code: FindingCode,
  severity: Severity,
  o: KubeObject,
  location: FindingLocation,
  message: string,
  related: RelatedInformation[] = [],
): Finding {
  return {
    code,
    severity,
    message: flatString(message),
    object: identityOf(o),
    location,
    file: o.source?.file,
    range: rangeOf(o, location),
    related,
  };
}

function relatedTo(o: KubeObject, message: string): RelatedInformation {
  return { message: flatString(message), object: identityOf(o), file: o.source?.file, range: rangeOf(o, { kind: 'object' }) };
}

/** Checks that need only the object and the inventory: admission rules and how the GC resolves each reference. */
export function analyzeObject(inventory: Inventory, o: KubeObject): Finding[] {
  const out: Finding[] = [];
  const refs = o.ownerReferences;
  const verdicts = refs.map((ref, index) => checkReference(inventory, o, ref, index));
  const hasSolid = verdicts.some((v) => v === 'solid');
  verdicts.forEach((v) => {
    if (v === 'solid' || v === 'skip') return;
    const f = v(hasSolid);
    if (f) out.push(f);
  });
  // R13: at most one controller reference.
  const controllers = refs.map((r, i) => ({ r, i })).filter(({ r }) => r.controller === true);
  for (const { r, i } of controllers.slice(1)) {
    const first = controllers[0].r;
    out.push(
      finding(
        'multiple-controllers',
        'error',
        o,
        { kind: 'ownerReference', index: i, field: 'controller' },
        `Only one reference to an owner can have controller set to true: the apiserver rejects ${describe(o)} (found ${first.kind}/${first.name} and ${r.kind}/${r.name}).`,
        [
          {
            message: `first controller reference: ${first.kind}/${first.name}`,
            object: identityOf(o),
            file: o.source?.file,
            range: rangeOf(o, { kind: 'ownerReference', index: controllers[0].i }),
          },
        ],
      ),
    );
  }
  // R15: finalizer names, and never both GC finalizers.
  o.finalizers.forEach((f, i) => {
    if (!QUALIFIED_NAME.test(f) || f.length > 316) {
      out.push(
        finding(
          'invalid-finalizers',
          'error',
          o,
          { kind: 'finalizer', index: i },
          `"${f}" is not a valid finalizer name (a qualified name such as example.com/cleanup): the apiserver rejects ${describe(o)}.`,
        ),
      );
    }
  });
  const orphanAt = o.finalizers.indexOf(ORPHAN_FINALIZER);
  const foregroundAt = o.finalizers.indexOf(FOREGROUND_FINALIZER);
  if (orphanAt >= 0 && foregroundAt >= 0) {
    out.push(
      finding(
        'invalid-finalizers',
        'error',
        o,
        { kind: 'finalizer', index: Math.max(orphanAt, foregroundAt) },
        `${describe(o)} carries both orphan and foregroundDeletion: the apiserver rejects this on create and update. Were it stored, the GC would orphan its dependents, remove only orphan, and leave foregroundDeletion until something re-queued it.`,
      ),
    );
  }
  return out;
}

type Verdict = 'solid' | 'skip' | ((hasSolid: boolean) => Finding | undefined);

function checkReference(inventory: Inventory, o: KubeObject, ref: OwnerReference, index: number): Verdict {
  const at = (field?: 'apiVersion' | 'kind' | 'name' | 'uid'): FindingLocation => ({ kind: 'ownerReference', index, field });
  // R12: what admission rejects.
  const missing = (['apiVersion', 'kind', 'name'] as const).filter((f) => !ref[f]);
  if (isSyntheticUid(ref.uid)) missing.push('uid' as never);
  const badVersion = ref.apiVersion && !/^([^/]+\/)?[^/]+$/.test(ref.apiVersion);
  if (missing.length || badVersion || (ref.apiVersion === 'v1' && ref.kind === 'Event')) {
    const why = missing.length
      ? `it has no ${missing.join(', ')}`
      : badVersion
        ? `apiVersion "${ref.apiVersion}" is not <group>/<version> or <version>`
        : 'core v1 Events cannot be owners';
    return () =>
      finding(
        'invalid-owner-reference',
        'error',
        o,
        at(missing[0] as 'uid' | undefined),
        `Invalid ownerReference: ${why}. The apiserver rejects ${describe(o)}.`,
      );
  }
  const info = inventory.kinds.restMapping(ref.apiVersion, ref.kind);
  if (!info) {
    // The uid's holder is what the reference meant (OpenShift 4.8's ingress canary wrote `kind: daemonset`).
    const holder = inventory.objects.get(ref.uid);
    const held = holder && holder !== o ? holder : undefined;
    return () =>
      finding(
        'unresolvable-owner-kind',
        'warning',
        o,
        at('kind'),
        `Nothing serves ${ref.apiVersion} ${ref.kind}: the GC cannot resolve this reference and retries ${describe(o)} forever, so it is never collected and its other references are never cleaned up.${held ? holderText(inventory, o, ref, held) : unresolvableHint(inventory, ref)}`,
        held ? [relatedTo(held, `the object with uid ${ref.uid}`)] : [],
      );
  }
  const ownKind = inventory.kindOf(o);
  if (ownKind && !ownKind.namespaced && info.namespaced) {
    return () =>
      finding(
        'cluster-scoped-dependent-of-namespaced-owner',
        'warning',
        o,
        at('kind'),
        `${describe(o)} is cluster-scoped but ${ref.kind} is namespaced: an ownerReference has no namespace, so the GC cannot look the owner up. It never collects ${o.name}, even after the owner is deleted.`,
      );
  }
  const namespace = info.namespaced ? o.namespace : '';
  const byName = inventory.find(info.group, info.kind, namespace, ref.name);
  if (byName && byName.uid === ref.uid) return 'solid';
  const byUid = inventory.objects.get(ref.uid);
  const fate = (hasSolid: boolean) =>
    o.deletionTimestamp !== undefined
      ? `${describe(o)} is already being deleted: the GC leaves its references alone.`
      : hasSolid
        ? 'The GC removes this reference (another owner is present) but keeps the object.'
        : `The GC deletes ${describe(o)} as soon as it sees it.`;
  if (byUid) {
    const sameCoords = splitApiVersion(byUid.apiVersion).group === info.group && byUid.kind === info.kind && byUid.name === ref.name;
    if (sameCoords && info.namespaced && byUid.namespace !== o.namespace) {
      return (hasSolid) =>
        finding(
          'owner-namespace-mismatch',
          'error',
          o,
          at('uid'),
          `The owner ${describe(byUid)} is in another namespace: an owner is looked up in its dependent's namespace (${o.namespace}), where it does not exist. ${fate(hasSolid)}`,
          [relatedTo(byUid, `the object with uid ${ref.uid}`)],
        );
    }
    const differs = coordinateDifferences(ref, o, byUid, inventory.kindOf(byUid)?.namespaced).join('; ');
    return (hasSolid) =>
      finding(
        'owner-coordinates-mismatch',
        'error',
        o,
        at(byUid.kind !== ref.kind ? 'kind' : 'name'),
        `uid ${ref.uid} belongs to ${describe(byUid)}, not to ${ref.kind} ${ref.name} (${differs}). The GC looks owners up by kind and name, finds nothing with this uid, and treats the reference as dangling. ${fate(hasSolid)}`,
        [relatedTo(byUid, `the object with uid ${ref.uid}`)],
      );
  }
  if (byName) {
    const synthetic = byName.syntheticUid
      ? ' (it has no uid in the input: a hand-written manifest gets one when applied)'
      : ` (uid ${byName.uid})`;
    return (hasSolid) =>
      finding(
        'owner-uid-mismatch',
        'error',
        o,
        at('uid'),
        `${describe(byName)} exists with another uid${synthetic}; this reference names uid ${ref.uid}, typical of manifests exported from another cluster. ${fate(hasSolid)}`,
        [relatedTo(byName, `${describe(byName)} has uid ${byName.uid}`)],
      );
  }
  return (hasSolid) =>
    finding(
      'dangling-owner',
      hasSolid ? 'warning' : 'error',
      o,
      at('uid'),
      `The owner ${ref.kind} ${ref.name} (uid ${ref.uid}) is not in the input${info.namespaced ? ` in namespace ${o.namespace}` : ''}. ${fate(hasSolid)}`,
    );
}

/**
 * " Its uid belongs to DaemonSet ns/x, which this reference names differently: kind daemonset, not DaemonSet (…). Did
 * you mean DaemonSet?"
 */
function holderText(inventory: Inventory, o: KubeObject, ref: OwnerReference, holder: KubeObject): string {
  const differs = coordinateDifferences(ref, o, holder, inventory.kindOf(holder)?.namespaced);
  const fix = caseCorrectedReference(ref, holder);
  const question = fix
    ? ` Did you mean ${fix.apiVersion === ref.apiVersion ? fix.kind : `${fix.apiVersion} ${fix.kind}`}?`
    : unresolvableHint(inventory, ref);
  return ` Its uid ${ref.uid} belongs to ${describe(holder)}, which this reference names differently: ${differs.join('; ')}.${question}`;
}

function unresolvableHint(inventory: Inventory, ref: OwnerReference): string {
  const { group, version } = splitApiVersion(ref.apiVersion);
  const same = inventory.kinds.lookup(group, ref.kind);
  if (same) return ` ${ref.kind} is served at ${same.servedVersions.map((v) => (group ? `${group}/${v}` : v)).join(', ')}, not ${version}.`;
  const caseless = inventory.kinds.all().find((k) => k.group === group && k.kind.toLowerCase() === ref.kind.toLowerCase());
  if (caseless) return ` Kinds are case-sensitive: did you mean ${caseless.kind}?`;
  const elsewhere = inventory.kinds.all().filter((k) => k.kind === ref.kind && k.origin === 'builtin');
  if (elsewhere.length) return ` ${ref.kind} is served at ${elsewhere.map((k) => inventory.kinds.preferredApiVersion(k)).join(', ')}.`;
  return '';
}

/**
 * Owner cycles (strongly connected components of the reference graph, self references included). With
 * `starts`, only the part of the graph reachable from them is searched (the editor passes the objects an edit
 * changed: a cycle that appeared or changed must contain one of them).
 */
export function cycleFindings(inventory: Inventory, starts: Iterable<string> = inventory.objects.keys()): Finding[] {
  const out: Finding[] = [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  let counter = 0;
  const owners = (uid: string) =>
    (inventory.objects.get(uid)?.ownerReferences ?? []).map((r) => r.uid).filter((u) => inventory.objects.has(u));
  // Iterative Tarjan: manifests can hold long chains. An object with no owner in the input is in no cycle: it is
  // never entered (most objects: their indexes would be most of this pass's memory).
  for (const start of starts) {
    if (index.has(start) || !inventory.objects.has(start)) continue;
    const startTargets = owners(start);
    if (!startTargets.length) continue;
    const work: { uid: string; next: number; targets: string[] }[] = [{ uid: start, next: 0, targets: startTargets }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.next < top.targets.length) {
        const t = top.targets[top.next++];
        if (!index.has(t)) {
          const targets = owners(t);
          if (!targets.length) continue;
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ uid: t, next: 0, targets });
        } else if (onStack.has(t)) low.set(top.uid, Math.min(low.get(top.uid)!, index.get(t)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].uid, Math.min(low.get(work[work.length - 1].uid)!, low.get(top.uid)!));
      if (low.get(top.uid) !== index.get(top.uid)) continue;
      const members: string[] = [];
      let m: string;
      do {
        m = stack.pop()!;
        onStack.delete(m);
        members.push(m);
      } while (m !== top.uid);
      const self = members.length === 1 && owners(members[0]).includes(members[0]);
      if (members.length < 2 && !self) continue;
      const set = new Set(members);
      const objs = members.map((u) => inventory.objects.get(u)!);
      for (const o of objs) {
        const i = o.ownerReferences.findIndex((r) => set.has(r.uid));
        const others = objs.filter((x) => x !== o);
        const desc = self
          ? `${describe(o)} names itself as its owner`
          : `${describe(o)} is part of an ownership cycle: ${objs.map((x) => describe(x)).join(' → ')}`;
        out.push(
          finding(
            'ownership-cycle',
            'warning',
            o,
            { kind: 'ownerReference', index: i },
            `${desc}. The GC leaves such a cycle alone while its members exist; deleting one member with Foreground relies on the cycle breaker.`,
            others.map((x) => relatedTo(x, `cycle member ${describe(x)}`)),
          ),
        );
      }
    }
  }
  return out;
}

/** The object named as `Kind namespace/name` and its file by name: the uid only when it is the object's own (not made up). */
export function conflictFindings(inventory: Inventory): Finding[] {
  return inventory.conflicts.map((c) => {
    const kept = copyPlace(c.kept.source, c.other.source);
    const ignored = copyPlace(c.other.source, c.kept.source);
    const fields = c.fields.join(', ');
    const same = describe(c.kept) === describe(c.other);
    const message = same
      ? `${describe(c.other)} appears twice with different content (${fields}): the copy in ${kept} is used, this one in ${ignored} is ignored.`
      : `${describe(c.other)} has the uid ${isSyntheticUid(c.uid) ? '' : `${c.uid} `}of ${describe(c.kept)}, with different content (${fields}): a cluster holds one object per uid, so ${describe(c.kept)} in ${kept} is used and this copy in ${ignored} is ignored.`;
    return finding('conflicting-copies', 'warning', c.other, { kind: 'object' }, message, [relatedTo(c.kept, 'the copy that is used')]);
  });
}

/**
 * Findings that need the simulation: objects already terminating that cannot finish, foreground deletions
 * that would hang, and namespaces whose deletion would deadlock on an operator's finalizers.
 */
export function predictedFindings(inventory: Inventory, options: AnalysisOptions): Finding[] {
  const out: Finding[] = [];
  const controllers = options.controllers ?? 'builtin';
  const set = controllerSet(controllers);
  const version = (options.kubeVersion !== undefined ? parseKubeVersion(options.kubeVersion) : undefined) ?? NEWEST_KUBE_VERSION;
  // Only the outcome is read (what stays stuck), never the timeline.
  const base = simulate(inventory, [], {
    controllers,
    finalizerOwners: options.finalizerOwners,
    finalizerOwnerHint: options.finalizerOwnerHint,
    kubeVersion: options.kubeVersion,
    keepSteps: false,
  });
  const stuckNow = new Map(base.stuck.map((s) => [s.uid, s]));
  for (const s of base.stuck) {
    const o = inventory.objects.get(s.uid);
    if (!o || o.deletionTimestamp === undefined) continue;
    const blocking = s.blockedBy.find((b) => b.finalizer !== undefined);
    const fi = blocking?.finalizer ? o.finalizers.indexOf(blocking.finalizer) : -1;
    out.push(
      finding('stuck-terminating', 'warning', o, fi >= 0 ? { kind: 'finalizer', index: fi } : { kind: 'deletionTimestamp' }, s.reason),
    );
  }
  out.push(...blockerFindings(inventory, base));
  const owners = finalizerOwnersFor(inventory, options.finalizerOwners, options.finalizerOwnerHint);
  // Foreground deletions that would hang (R50): a blocking reference from a dependent that cannot finish.
  for (const o of inventory.objects.values()) {
    o.ownerReferences.forEach((ref, i) => {
      if (ref.blockOwnerDeletion !== true) return;
      if (ref.uid === o.uid) {
        out.push(
          finding(
            'foreground-deadlock',
            'warning',
            o,
            { kind: 'ownerReference', index: i, field: 'blockOwnerDeletion' },
            `${describe(o)} is its own owner with blockOwnerDeletion: true: deleting it with propagationPolicy Foreground leaves it Terminating forever with foregroundDeletion.`,
          ),
        );
        return;
      }
      const owner = inventory.objects.get(ref.uid);
      if (!owner || owner.deletionTimestamp !== undefined) return;
      const stuck = stuckNow.get(o.uid);
      const dead = stuck ? stuck.reason : wouldNotFinish(o, owners, set);
      if (!dead) return;
      out.push(
        finding(
          'foreground-deadlock',
          'warning',
          o,
          { kind: 'ownerReference', index: i, field: 'blockOwnerDeletion' },
          `Deleting ${describe(owner)} with propagationPolicy Foreground would wait forever: this blocking dependent cannot finish (${dead}). Setting blockOwnerDeletion: false on this reference lets the owner go.`,
          [relatedTo(owner, `the owner that would wait: ${describe(owner)}`)],
        ),
      );
    });
  }
  // Namespace deletions that deadlock on a custom finalizer whose controller lives in the same namespace.
  if (set.realCluster) {
    const candidates = new Map<string, { o: KubeObject; index: number; workload: string }[]>();
    for (const o of inventory.objects.values()) {
      o.finalizers.forEach((f, index) => {
        if (isGcFinalizer(f) || !o.namespace) return;
        const owner = owners.ownerOf(f, o);
        if (owner.type !== 'workload' || owner.workload.namespace !== o.namespace) return;
        const list = candidates.get(o.namespace) ?? [];
        list.push({ o, index, workload: describe(owner.workload) });
        candidates.set(o.namespace, list);
      });
    }
    for (const [ns, list] of candidates) {
      const nsObject = inventory.find('', 'Namespace', '', ns);
      const result: SimulationResult = simulate(
        inventory,
        [{ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: ns, propagationPolicy: null }],
        {
          controllers,
          finalizerOwners: options.finalizerOwners,
          finalizerOwnerHint: options.finalizerOwnerHint,
          kubeVersion: options.kubeVersion,
          keepSteps: false,
        },
      );
      const stuck = new Set(result.stuck.map((s) => s.uid));
      for (const { o, index, workload } of list) {
        if (!stuck.has(o.uid)) continue;
        // Never advise deleting control-plane or cluster infrastructure (an OpenShift Machine is a node).
        const infrastructure = infrastructureLabel(o);
        const advice = infrastructure
          ? `Do not delete ${o.kind} ${o.name} to get out: ${infrastructure}. Keep the operator running until the namespace is empty, or move it out of the namespace.`
          : `Delete ${o.kind} ${o.name} first, or move the operator out of the namespace.`;
        out.push(
          finding(
            'finalizer-deadlock',
            'warning',
            o,
            { kind: 'finalizer', index },
            orderedNamespaceDeletion(version)
              ? `Deleting namespace ${ns} deadlocks (Kubernetes ${kubeVersionText(version)}): the namespace controller deletes the Pods of ${workload}, which runs the controller that removes ${o.finalizers[index]}, before it deletes ${describe(o)} (Pods first, from 1.33 on). ${o.name} then keeps its finalizer forever and namespace ${ns} stays Terminating. ${advice}`
              : `Deleting namespace ${ns} can deadlock (Kubernetes ${kubeVersionText(version)}: a race): the namespace controller deletes ${workload}, which runs the controller that removes ${o.finalizers[index]}, in the same pass as ${describe(o)}, in no fixed order (before 1.33). If the operator stops first, ${o.name} keeps its finalizer forever and namespace ${ns} stays Terminating. ${advice}`,
            nsObject ? [relatedTo(nsObject, `namespace ${ns}`)] : [],
          ),
        );
      }
    }
  }
  return out;
}

/** Why a dependent that is not yet terminating would not finish if the GC deleted it, or undefined. */
function wouldNotFinish(o: KubeObject, owners: FinalizerOwners, set: ControllerSet): string | undefined {
  for (const f of o.finalizers) {
    if (isGcFinalizer(f)) continue;
    if (set.strict) return `finalizer ${f} is never removed in --controllers=gc`;
    const owner = owners.ownerOf(f, o);
    if (owner.type === 'absent') return `finalizer ${f}: ${owner.why}`;
    // A kube-controller-manager list runs no operator, and only the built-in controllers it names.
    const builtinRuns =
      owner.type === 'builtin' &&
      (owner.kcm !== undefined ? set.runs(owner.kcm) : set.crdCleanup && owner.controller === 'apiextensions-apiserver');
    if (!set.realCluster && !builtinRuns) return `finalizer ${f} is never removed with --controllers=${set.spec}`;
  }
  if (
    !set.kubelet &&
    o.apiVersion === 'v1' &&
    o.kind === 'Pod' &&
    maybeScheduled(o) &&
    o.facts.phase !== 'Succeeded' &&
    o.facts.phase !== 'Failed'
  ) {
    return `a scheduled Pod waits for a kubelet, and none runs with --controllers=${set.spec}`;
  }
  return undefined;
}

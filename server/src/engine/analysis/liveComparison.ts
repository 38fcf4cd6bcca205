// Workspace manifests checked against a live cluster's graph: what applying a file would meet there. A manifest
// corresponds to a live object with the same group, kind, namespace and name; its ownerReferences are classified
// as the GC's classifyReferences would classify them once applied (R34: by apiVersion/kind/name where the GC
// looks, then the uid), and R35 decides: no solid owner → the GC deletes the object right after it is applied.
// Pure: the live graph comes in as an Inventory plus what the connection covers.

import type { Inventory } from '../inventory';
import { FOREGROUND_FINALIZER, describe, identityOf, type KubeObject, type OwnerReference } from '../model';
import type { Finding, FindingCode, FindingLocation, RelatedInformation, Severity } from './findingTypes';
import { rangeOf } from './locate';
import { lookupOwner, type OwnerLookup } from './ownerLookup';

/** The live graph as the comparison needs it. */
export interface LiveView {
  /** The kubeconfig context, named in messages. */
  context: string;
  inventory: Inventory;
  /**
   * Whether every object of this kind in this namespace ("" = cluster-scoped or all) is known: its resource is
   * listed there. When not (403, a failing list, a namespace outside the chosen scope), absence proves nothing.
   */
  covers(group: string, kind: string, namespace: string): boolean;
  /** Why a terminating live object cannot finish, when it cannot (the stuck list's reason). */
  stuckReason?(uid: string): string | undefined;
}

/** How one reference of the file would be classified against the live cluster (R34). */
type Verdict =
  | { type: 'solid' }
  | { type: 'waiting'; owner: KubeObject }
  | { type: 'dangling'; lookup: Extract<OwnerLookup, { state: 'absent' }> }
  /** Unresolvable kind, invalid scope, or not covered: the GC could not decide, and neither can we. */
  | { type: 'unknown' };

/** Findings for workspace objects (normalised by `workspace`) against the live graph. */
export function compareWithLive(objects: Iterable<KubeObject>, workspace: Inventory, live: LiveView): Finding[] {
  const out: Finding[] = [];
  for (const o of objects) {
    const info = workspace.kindOf(o);
    if (!info) continue;
    const namespace = info.namespaced ? o.namespace : '';
    if (!live.covers(info.group, info.kind, namespace)) continue;
    const counterpart = live.inventory.find(info.group, info.kind, namespace, o.name);
    if (counterpart) out.push(...counterpartFindings(o, counterpart, live));
    out.push(...referenceFindings(o, counterpart, live));
  }
  return out;
}

function finding(
  code: FindingCode,
  severity: Severity,
  o: KubeObject,
  location: FindingLocation,
  message: string,
  related: RelatedInformation[] = [],
): Finding {
  return { code, severity, message, object: identityOf(o), location, file: o.source?.file, range: rangeOf(o, location), related };
}

function short(uid: string): string {
  return uid.length > 13 ? `${uid.slice(0, 8)}…` : uid;
}

/** The live object this file describes: being deleted, or another incarnation than the file's uid. */
function counterpartFindings(o: KubeObject, live: KubeObject, view: LiveView): Finding[] {
  const out: Finding[] = [];
  const who = `The live ${describe(live)}`;
  if (!o.syntheticUid && o.uid !== live.uid) {
    out.push(
      finding(
        'live-uid-conflict',
        'warning',
        o,
        { kind: 'object' },
        `${who} (context ${view.context}) has uid ${live.uid}, not ${o.uid} as this file says: the file describes an earlier incarnation, and the apiserver refuses to change metadata.uid, so applying it fails until metadata.uid is removed.`,
      ),
    );
  }
  if (live.deletionTimestamp !== undefined) {
    const finalizers = live.finalizers.length ? `, finalizers: ${live.finalizers.join(', ')}` : '';
    const stuck = view.stuckReason?.(live.uid);
    const fate = stuck ? ` It cannot finish: ${stuck}.` : ' Once it is gone, applying this file creates a new object with a new uid.';
    out.push(
      finding(
        'live-terminating',
        'warning',
        o,
        { kind: 'object' },
        `${who} (context ${view.context}) is being deleted (since ${live.deletionTimestamp}${finalizers}): applying this file does not stop the deletion; it only updates an object that is going away.${fate}`,
      ),
    );
  }
  return out;
}

/**
 * The file's ownerReferences as the GC would see them after an apply. Only checked when the object or one of the
 * owners it names exists in the cluster: a workspace unrelated to this cluster gets no findings.
 */
function referenceFindings(o: KubeObject, counterpart: KubeObject | undefined, view: LiveView): Finding[] {
  const refs = o.ownerReferences;
  if (refs.length === 0) return [];
  // The dependent as it would be stored: its namespace, and its kind as the cluster serves it.
  const verdicts = refs.map((ref) => classify(view, o, ref));
  const related = verdicts.some((v) => {
    return v.type === 'solid' || v.type === 'waiting' || (v.type === 'dangling' && v.lookup.sameName !== undefined);
  });
  if (!counterpart && !related) return [];
  // R34: one reference the GC cannot classify stops the whole decision.
  if (verdicts.some((v) => v.type === 'unknown')) return [];
  const solid = verdicts.some((v) => v.type === 'solid');
  const out: Finding[] = [];
  const where = (i: number): FindingLocation => ({
    kind: 'ownerReference',
    index: i,
    field: verdicts[i].type === 'dangling' ? 'uid' : undefined,
  });
  if (solid) {
    // R35 (i): the object stays; the GC removes the dangling and waiting references.
    verdicts.forEach((v, i) => {
      if (v.type === 'solid') return;
      out.push(
        finding(
          'live-dangling-owner',
          'warning',
          o,
          where(i),
          `Applying this file: ${why(refs[i], v, view)}, so the garbage collector removes this ownerReference (another owner exists, so the ${o.kind} stays).`,
          relatedOf(v),
        ),
      );
    });
    return out;
  }
  // R35 (ii)/(iii): no solid owner → the GC deletes it.
  const first = verdicts.findIndex((v) => v.type !== 'solid');
  const reasons = verdicts.map((v, i) => why(refs[i], v, view));
  out.push(
    finding(
      'collected-on-apply',
      'error',
      o,
      where(first),
      `Applying this file gets it garbage-collected: ${reasons.join('; ')}.`,
      verdicts.flatMap((v) => relatedOf(v)),
    ),
  );
  return out;
}

function classify(view: LiveView, o: KubeObject, ref: OwnerReference): Verdict {
  const lookup = lookupOwner(view.inventory, o, ref);
  switch (lookup.state) {
    case 'found':
      return lookup.owner.deletionTimestamp !== undefined && lookup.owner.finalizers.includes(FOREGROUND_FINALIZER)
        ? { type: 'waiting', owner: lookup.owner }
        : { type: 'solid' };
    case 'absent':
      return view.covers(lookup.info.group, lookup.info.kind, lookup.namespace) ? { type: 'dangling', lookup } : { type: 'unknown' };
    default:
      return { type: 'unknown' };
  }
}

function why(ref: OwnerReference, v: Verdict, view: LiveView): string {
  if (v.type === 'waiting') {
    return `the live owner ${describe(v.owner)} is being deleted in the foreground, and takes this object with it`;
  }
  if (v.type !== 'dangling') return '';
  const { lookup } = v;
  const name = describe({ kind: lookup.info.kind, namespace: lookup.namespace, name: ref.name });
  if (lookup.sameName) return `owner uid ${short(ref.uid)} is not the live ${name}'s uid ${short(lookup.sameName.uid)}`;
  const where = lookup.namespace ? `in namespace ${lookup.namespace}` : 'cluster-wide';
  return `no ${lookup.info.kind} ${ref.name} exists ${where} in context ${view.context}`;
}

function relatedOf(v: Verdict): RelatedInformation[] {
  const o = v.type === 'waiting' ? v.owner : v.type === 'dangling' ? v.lookup.sameName : undefined;
  return o ? [{ message: `the live ${describe(o)} (uid ${o.uid})`, object: identityOf(o) }] : [];
}

// The workspace as the editor sees it: every Kubernetes document (files on disk, overridden by open
// editors), one Inventory over all of them, and findings kept per object so that an edit re-analyses the
// objects it changed and those that point at them, not the workspace. Knows documents and URIs, not LSP.
//
// Findings come in three tiers, by what they need:
//   - local (analyzeObject): the object and the owners it names; recomputed for the affected set on each edit;
//   - structural (cycles, conflicting copies): cycles searched from the changed objects only, conflicts listed;
//   - predicted (stuck, deadlocks): need the simulation, recomputed by refreshPredictions() when the editor is
//     idle. Until then the previous predictions stay, re-positioned on the current objects.

import { analyzeObject, conflictFindings, cycleFindings, predictedFindings } from '../engine/analysis/analyze';
import type { Finding } from '../engine/analysis/findingTypes';
import { rangeOf } from '../engine/analysis/locate';
import { buildInventory, type Inventory } from '../engine/inventory';
import type { KubeObject, Range } from '../engine/model';
import type { ControllersMode, FinalizerOwnerRule } from '../engine/simulation/types';
import type { LoadProblem } from '../sources/manifests/loadProblem';
import { parseManifestText, resolveRanges } from '../sources/manifests/parseManifest';
import { parseParts, reparseParts, type ObjectSplice, type PartedText } from './documentParts';

export interface WorkspaceOptions {
  controllers: ControllersMode;
  finalizerOwners: FinalizerOwnerRule[];
}

export interface DocumentState {
  uri: string;
  /** Raw objects as parsed (source.file is the URI), before normalisation. */
  raw: KubeObject[];
  /** Uids (after normalisation) of the objects this document holds, in document order. */
  uids: string[];
  problems: LoadProblem[];
  /** Kinds this document teaches the registry (CRDs, kinds outside Kubernetes' own groups). */
  kindSignature: string;
  /** An editor's text, kept by document (reparse reads only the documents an edit touched). */
  parted?: PartedText;
  /** Which objects an edit replaced (reparse), when the rest are the previous state's. */
  splice?: ObjectSplice;
}

/** What an update changed: the documents whose diagnostics may differ now. */
export interface UpdateResult {
  affectedUris: Set<string>;
  /** True when the whole inventory was rebuilt (a CRD or a custom kind changed). */
  rebuilt: boolean;
}

/** Top-level `apiVersion:`/`kind:` keys (YAML) or properties (JSON): the cheap "is this Kubernetes" test. */
const K8S_YAML = /^(apiVersion|kind)\s*:/m;
const K8S_JSON = /"(apiVersion|kind)"\s*:/;

export function looksLikeKubernetes(text: string): boolean {
  const head = text.length > 65536 ? text.slice(0, 65536) : text;
  return K8S_YAML.test(head) || K8S_JSON.test(head);
}

export class WorkspaceModel {
  private readonly docs = new Map<string, DocumentState>();
  /** uid → URIs of the documents holding a copy (usually one). */
  private readonly copies = new Map<string, Set<string>>();
  /** Owner name → uids of the objects whose ownerReferences name it (a name match matters even with another uid). */
  private readonly referrersByName = new Map<string, Set<string>>();
  private readonly local = new Map<string, Finding[]>();
  /** Uids whose local findings are not empty (a big document's findings are found from these). */
  private readonly withFindings = new Set<string>();
  private cycles: Finding[] = [];
  private conflicts: Finding[] = [];
  private predicted: Finding[] = [];
  private predictedVersion = -1;
  inventory: Inventory = buildInventory([]);

  constructor(private options: WorkspaceOptions) {}

  setOptions(options: WorkspaceOptions): void {
    this.options = options;
    this.predictedVersion = -1;
  }

  get documentCount(): number {
    return this.docs.size;
  }

  documents(): IterableIterator<DocumentState> {
    return this.docs.values();
  }

  document(uri: string): DocumentState | undefined {
    return this.docs.get(uri);
  }

  has(uri: string): boolean {
    return this.docs.has(uri);
  }

  /** Parses a document's text. Documents that do not look like Kubernetes at all are not part of the workspace. */
  parse(uri: string, text: string): DocumentState | undefined {
    const parsed = parseManifestText(text, uri);
    if (parsed.objects.length === 0 && !looksLikeKubernetes(text)) return undefined;
    resolveRanges(text, parsed.objects);
    return { uri, raw: parsed.objects, uids: [], problems: parsed.problems, kindSignature: kindSignature(parsed.objects) };
  }

  /**
   * An open document's text after an edit: only the YAML documents the edit touched are read again, the others move
   * (documentParts.ts), in place: pass the result to update() before anything else reads this document. What parse()
   * gives for the same text.
   */
  reparse(uri: string, text: string): DocumentState | undefined {
    const prevState = this.docs.get(uri);
    const prev = prevState?.parted;
    const parsed = prev ? reparseParts(prev, text, uri) : parseParts(text, uri);
    if (parsed.objects.length === 0 && !looksLikeKubernetes(text)) return undefined;
    if (!parsed.parted) resolveRanges(text, parsed.objects);
    // The kinds the document teaches change only if those of the documents read again do.
    const splice = parsed.splice;
    const sameKinds =
      prevState &&
      splice &&
      splice.from === prev &&
      kindSignature(prevState.raw.slice(splice.at, splice.at + splice.removed)) === kindSignature(splice.window);
    return {
      uri,
      raw: parsed.objects,
      uids: [],
      problems: parsed.problems,
      kindSignature: sameKinds ? prevState.kindSignature : kindSignature(parsed.objects),
      parted: parsed.parted,
      splice: parsed.splice,
    };
  }

  /** Loads many documents at once (start-up, re-check): one inventory build. */
  loadAll(states: DocumentState[]): void {
    this.docs.clear();
    for (const s of states) this.docs.set(s.uri, s);
    this.rebuild();
  }

  /** Sets (or with `undefined`, removes) one document and re-analyses what it affects. */
  update(uri: string, next: DocumentState | undefined): UpdateResult {
    const prev = this.docs.get(uri);
    if (!prev && !next) return { affectedUris: new Set(), rebuilt: false };
    // A splice is relative to the previous state only (and holds its text): taken here, dropped from the state.
    const splice = next?.splice && prev?.parted === next.splice.from ? next.splice : undefined;
    if (next) next.splice = undefined;
    if (next) this.docs.set(uri, next);
    else this.docs.delete(uri);
    if ((prev?.kindSignature ?? '') !== (next?.kindSignature ?? '') && (prev?.kindSignature || next?.kindSignature)) {
      const before = new Set(this.docs.keys());
      this.rebuild();
      before.add(uri);
      return { affectedUris: before, rebuilt: true };
    }
    // Objects of documents an edit did not touch are the same objects (moved in place, documentParts.ts): they keep
    // their uid and analysis; only the others' uids change.
    const prevUid = new Map<KubeObject, string>();
    const changed = new Set<string>();
    if (prev && next && splice) {
      // Only the re-split documents' objects can differ: the others keep their place and uid.
      for (let i = splice.at; i < splice.at + splice.removed; i++) prevUid.set(prev.raw[i], prev.uids[i]);
      const windowUids = splice.window.map((o) => prevUid.get(o) ?? this.inventory.normalize(o).uid);
      splice.window.forEach((o, i) => {
        if (!prevUid.delete(o)) changed.add(windowUids[i]);
      });
      next.uids = prev.uids.slice(0, splice.at).concat(windowUids, prev.uids.slice(splice.at + splice.removed));
    } else if (next) {
      if (prev) prev.raw.forEach((o, i) => prevUid.set(o, prev.uids[i]));
      next.uids = next.raw.map((o) => prevUid.get(o) ?? this.inventory.normalize(o).uid);
      next.raw.forEach((o, i) => {
        if (!prevUid.delete(o)) changed.add(next.uids[i]);
      });
    }
    // Whatever is left of prevUid is gone (with no next: everything).
    if (prev && !next) for (const uid of prev.uids) changed.add(uid);
    for (const uid of prevUid.values()) changed.add(uid);
    /** This document's copies of each changed uid, in document order. */
    const mine = new Map<string, KubeObject[]>();
    if (next && changed.size)
      for (let i = 0; i < next.uids.length; i++) {
        const uid = next.uids[i];
        if (!changed.has(uid)) continue;
        const list = mine.get(uid);
        if (list) list.push(next.raw[i]);
        else mine.set(uid, [next.raw[i]]);
      }
    for (const uid of changed) {
      if (!mine.has(uid)) {
        this.copies.get(uid)?.delete(uri);
        continue;
      }
      let set = this.copies.get(uid);
      if (!set) this.copies.set(uid, (set = new Set()));
      set.add(uri);
    }
    const affectedUris = new Set<string>([uri]);
    const affected = new Set<string>();
    for (const uid of changed) this.collectAffected(uid, affected);
    for (const uid of changed) {
      const old = this.inventory.objects.get(uid);
      if (old) {
        this.unindexReferrers(old);
        if (old.source) affectedUris.add(old.source.file);
      }
      this.inventory.remove(uid);
      // Every copy, in a stable order: the first one is kept, later different ones are conflicts.
      const holders = [...(this.copies.get(uid) ?? [])].sort();
      if (holders.length === 0) this.copies.delete(uid);
      for (const holder of holders) {
        if (holder === uri) {
          for (const raw of mine.get(uid)!) this.inventory.upsert(this.inventory.normalize(raw));
          continue;
        }
        const doc = this.docs.get(holder)!;
        doc.uids.forEach((u, i) => {
          if (u !== uid) return;
          const o = this.inventory.normalize(doc.raw[i]);
          this.inventory.upsert(o);
          affectedUris.add(holder);
        });
      }
      const now = this.inventory.objects.get(uid);
      if (now) this.indexReferrers(now);
    }
    for (const uid of changed) this.collectAffected(uid, affected);
    for (const uid of affected) {
      const o = this.inventory.objects.get(uid);
      if (!o) {
        this.setLocal(uid, undefined);
        continue;
      }
      this.setLocal(uid, analyzeObject(this.inventory, o));
      if (o.source) affectedUris.add(o.source.file);
    }
    this.refreshStructural(affectedUris, changed);
    this.repositionPredicted();
    return { affectedUris, rebuilt: false };
  }

  private setLocal(uid: string, findings: Finding[] | undefined): void {
    if (findings) this.local.set(uid, findings);
    else this.local.delete(uid);
    if (findings?.length) this.withFindings.add(uid);
    else this.withFindings.delete(uid);
  }

  /** The object uid plus everything whose findings depend on it: dependents by uid and referrers by name. */
  private collectAffected(uid: string, into: Set<string>): void {
    into.add(uid);
    const node = this.inventory.graph.get(uid);
    if (node) for (const d of node.dependents) into.add(d.identity.uid);
    const o = this.inventory.objects.get(uid);
    if (o) for (const r of this.referrersByName.get(o.name) ?? []) into.add(r);
  }

  private indexReferrers(o: KubeObject): void {
    for (const ref of o.ownerReferences) {
      let set = this.referrersByName.get(ref.name);
      if (!set) this.referrersByName.set(ref.name, (set = new Set()));
      set.add(o.uid);
    }
  }

  private unindexReferrers(o: KubeObject): void {
    for (const ref of o.ownerReferences) this.referrersByName.get(ref.name)?.delete(o.uid);
  }

  /** Everything from scratch, in URI order (deterministic: the first copy of a uid wins). */
  private rebuild(): void {
    const uris = [...this.docs.keys()].sort();
    const raw: KubeObject[] = [];
    for (const uri of uris) raw.push(...this.docs.get(uri)!.raw);
    this.inventory = buildInventory(raw);
    this.copies.clear();
    this.referrersByName.clear();
    this.local.clear();
    this.withFindings.clear();
    for (const uri of uris) {
      const doc = this.docs.get(uri)!;
      doc.uids = doc.raw.map((o) => this.inventory.normalize(o).uid);
      for (const uid of doc.uids) {
        let set = this.copies.get(uid);
        if (!set) this.copies.set(uid, (set = new Set()));
        set.add(uri);
      }
    }
    for (const o of this.inventory.objects.values()) {
      this.indexReferrers(o);
      this.setLocal(o.uid, analyzeObject(this.inventory, o));
    }
    this.refreshStructural(new Set());
    this.predictedVersion = -1;
    this.repositionPredicted();
  }

  /**
   * Cycles and conflicting copies. After an edit only cycles through a changed object can have appeared,
   * changed or gone: the others are kept and the search starts from the changed objects.
   */
  private refreshStructural(affectedUris: Set<string>, changed?: Set<string>): void {
    const before = [...this.cycles, ...this.conflicts];
    if (changed) {
      const touches = (f: Finding) =>
        changed.has(f.object.uid) || f.related.some((r) => r.object !== undefined && changed.has(r.object.uid));
      const found = cycleFindings(this.inventory, changed).filter((f) => touches(f));
      this.cycles = [...this.cycles.filter((f) => !touches(f)), ...found];
    } else {
      this.cycles = cycleFindings(this.inventory);
    }
    this.conflicts = conflictFindings(this.inventory);
    for (const f of before) if (f.file) affectedUris.add(f.file);
    for (const f of [...this.cycles, ...this.conflicts]) if (f.file) affectedUris.add(f.file);
  }

  /** Whether the predictions are older than the inventory (refreshPredictions() would change something). */
  get predictionsStale(): boolean {
    return this.predictedVersion !== this.inventory.version;
  }

  /**
   * Runs the simulations behind stuck/deadlock findings. Returns the URIs whose findings may have changed.
   * Costs a simulation of what holds work at start plus one per namespace with an operator finalizer.
   */
  refreshPredictions(): Set<string> {
    const uris = new Set<string>();
    if (!this.predictionsStale) return uris;
    for (const f of this.predicted) if (f.file) uris.add(f.file);
    this.predicted = predictedFindings(this.inventory, this.options);
    this.predictedVersion = this.inventory.version;
    for (const f of this.predicted) if (f.file) uris.add(f.file);
    return uris;
  }

  /** Keeps earlier predictions on the objects as they are now (positions move as the user types). */
  private repositionPredicted(): void {
    const kept: Finding[] = [];
    for (const f of this.predicted) {
      const o = this.inventory.objects.get(f.object.uid);
      if (!o) continue;
      kept.push({ ...f, file: o.source?.file, range: rangeOf(o, f.location) });
    }
    this.predicted = kept;
  }

  /** Every finding of the workspace. */
  allFindings(): Finding[] {
    const out: Finding[] = [];
    for (const list of this.local.values()) out.push(...list);
    out.push(...this.cycles, ...this.conflicts, ...this.predicted);
    return out;
  }

  /** The findings to show in one document. */
  findingsIn(uri: string): Finding[] {
    const out: Finding[] = [];
    const doc = this.docs.get(uri);
    // Each object's findings once (a uid written twice in the document has one list); few objects have any.
    const seen = new Set<Finding[]>();
    const uids = doc && this.withFindings.size < doc.uids.length ? this.withFindings : (doc?.uids ?? []);
    for (const uid of uids) {
      const list = this.local.get(uid);
      if (!list?.length || seen.has(list)) continue;
      seen.add(list);
      for (const f of list) if (f.file === uri) out.push(f);
    }
    for (const f of this.cycles) if (f.file === uri) out.push(f);
    for (const f of this.conflicts) if (f.file === uri) out.push(f);
    for (const f of this.predicted) if (f.file === uri) out.push(f);
    return out;
  }

  /** Findings about one object (hover, graph). */
  findingsOf(uid: string): Finding[] {
    const mine = (f: Finding) => f.object.uid === uid;
    return [...(this.local.get(uid) ?? []), ...this.cycles.filter(mine), ...this.conflicts.filter(mine), ...this.predicted.filter(mine)];
  }

  predictions(): Finding[] {
    return this.predicted;
  }

  /** The object written in `uri` whose text contains `position`, innermost (List items) first. */
  objectAt(uri: string, position: { line: number; character: number }): KubeObject | undefined {
    const doc = this.docs.get(uri);
    if (!doc) return undefined;
    let best: KubeObject | undefined;
    for (const uid of doc.uids) {
      const o = this.inventory.objects.get(uid);
      const r = o?.source?.file === uri ? o.source.ranges?.object : undefined;
      if (!r || !contains(r, position)) continue;
      if (!best || contains(best.source!.ranges!.object, r.start)) best = o;
    }
    return best;
  }

  /** The objects written in `uri`, in document order (the copy the inventory keeps, if it is this one). */
  objectsIn(uri: string): KubeObject[] {
    const doc = this.docs.get(uri);
    if (!doc) return [];
    const out: KubeObject[] = [];
    for (const uid of new Set(doc.uids)) {
      const o = this.inventory.objects.get(uid);
      if (o && o.source?.file === uri) out.push(o);
    }
    return out;
  }
}

/** What hovers and code lenses read: the workspace, or the live cluster behind its read-only documents. */
export type ObjectModel = Pick<WorkspaceModel, 'inventory' | 'objectAt' | 'objectsIn' | 'findingsOf'> & {
  /** Live objects have no file: where their read-only document shows them. */
  liveLocation?(o: KubeObject): { uri: string; range: Range } | undefined;
};

export function contains(
  r: { start: { line: number; character: number }; end: { line: number; character: number } },
  p: { line: number; character: number },
): boolean {
  const after = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const before = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return after && before;
}

/** CRDs and kinds outside Kubernetes' own groups change the kind registry: a change to them needs a rebuild. */
function kindSignature(objects: KubeObject[]): string {
  const parts = new Set<string>();
  for (const o of objects) {
    if (o.kind === 'CustomResourceDefinition' && o.facts.crd) parts.add(`crd:${JSON.stringify(o.facts.crd)}`);
    const group = o.apiVersion.includes('/') ? o.apiVersion.slice(0, o.apiVersion.indexOf('/')) : '';
    if (group && !group.endsWith('.k8s.io') && !BUILTIN_GROUPS.has(group)) parts.add(`${o.apiVersion}|${o.kind}|${o.namespace ? 1 : 0}`);
  }
  return [...parts].sort().join('\n');
}

const BUILTIN_GROUPS = new Set(['apps', 'batch', 'autoscaling', 'policy', 'extensions']);

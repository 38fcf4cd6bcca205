// The manifest loader's fuzz/property harness (issue 13, "A fuzz suite that keeps it so").
//
// A case: N real documents in one multi-document YAML file, ONE of them mutated (test/fuzz/mutations.ts). The
// same file without the mutation is the baseline. Properties, checked against the loader
// (parseManifestText) and the findings `kubectl-gc check` computes (buildInventory + analyze, the same entry
// points, in process):
//   1. isolation: every other document loads the same objects (identity, ownerReferences, finalizers) and the
//      same problems, and the findings about objects that neither are in the mutated document nor depend on it
//      (as owner, kind, namespace or workload) are the same;
//   2. located and bounded: every problem, object range and finding range is inside the file; the problems the
//      mutation caused are inside the mutated document's lines (unless the mutation added or removed a document
//      marker); the mutated document yields a bounded number of problems; nothing throws.
//   3. for inert mutations (valid YAML, same objects): the mutated document loads as before, without an error.
// checkWholeFile applies property 2 to a whole mutated JSON file (where one syntax error rightly skips the file).

import { isDeepStrictEqual } from 'node:util';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine/analysis/analyze';
import type { Finding } from '../../server/src/engine/analysis/findingTypes';
import { buildInventory, type Inventory } from '../../server/src/engine/inventory';
import { splitApiVersion, type KubeObject, type Range } from '../../server/src/engine/model';
import type { LoadProblem } from '../../server/src/sources/manifests/loadProblem';
import { parseManifestText, resolveRanges, type ParseResult } from '../../server/src/sources/manifests/parseManifest';
import { prng } from '../sources/helpers';
import type { Doc, Pool } from './corpus';
import { MUTATIONS, boundaryLines, int, pick, type Rnd } from './mutations';

export const FILE = 'fuzz.yaml';
/** The loader's cap per document (MAX_PROBLEMS_PER_DOCUMENT) plus its summary line. */
const PROBLEMS_PER_DOCUMENT = 101;

export interface FuzzCase {
  seed: number;
  docs: Doc[];
  /** The file starts with `---` (otherwise its first document has no marker). */
  leadingMarker: boolean;
  /** How documents are separated (the same in the baseline). */
  separator: Separator;
  mutated: number;
  mutation: string;
  detail: string;
  mutatedText: string;
}

export interface Composed {
  text: string;
  /** 1-based first and last line of each document, its `---` line included. */
  spans: { first: number; last: number }[];
}

const lineCount = (s: string) => s.split('\n').length - 1;

/** Ways real files separate documents: a bare `---`, with a comment or trailing spaces, CRLF, `...` ending each
 * document, a `%YAML` directive before the first. */
export const SEPARATORS = ['plain', 'plain', 'comment', 'trailing-space', 'crlf', 'end-marker', 'directive'] as const;
export type Separator = (typeof SEPARATORS)[number];

export function compose(texts: string[], leadingMarker: boolean, separator: Separator = 'plain'): Composed {
  const parts: string[] = [];
  const spans: Composed['spans'] = [];
  let line = 1;
  const marker = (i: number) => {
    switch (separator) {
      case 'comment':
        return `--- # document ${i + 1}\n`;
      case 'trailing-space':
        return '---  \n';
      case 'crlf':
        return '---\r\n';
      case 'directive':
        return i === 0 ? '%YAML 1.2\n---\n' : '---\n';
      default:
        return '---\n';
    }
  };
  texts.forEach((t, i) => {
    let body = t.endsWith('\n') ? t : `${t}\n`;
    if (separator === 'end-marker' && i < texts.length - 1) body += '...\n';
    const part = i > 0 || leadingMarker || separator === 'directive' ? `${marker(i)}${body}` : body;
    const n = lineCount(part);
    spans.push({ first: line, last: line + n - 1 });
    line += n;
    parts.push(part);
  });
  // The empty "line" after the last line break belongs to the last document.
  if (spans.length) spans[spans.length - 1].last += 1;
  return { text: parts.join(''), spans };
}

// ---------------------------------------------------------------------------------------------------
// Choosing a case

interface DocFacts {
  uids: string[];
  ownerUids: string[];
}
const factsCache = new Map<string, DocFacts>();
function factsOf(d: Doc): DocFacts {
  let f = factsCache.get(d.text);
  if (!f) {
    const { objects } = parseManifestText(d.text, FILE);
    f = { uids: objects.map((o) => o.uid).filter(Boolean), ownerUids: objects.flatMap((o) => o.ownerReferences.map((r) => r.uid)) };
    factsCache.set(d.text, f);
  }
  return f;
}

function shuffle<T>(rnd: Rnd, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = int(rnd, i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** Everything about a case follows from its seed (and the pool). */
export function makeCase(seed: number, pool: Pool): FuzzCase {
  const rnd = prng(seed);
  const mutation = MUTATIONS[seed % MUTATIONS.length];
  const chosen = new Set<Doc>();
  const groups = shuffle(rnd, [...pool.groups]).slice(0, 1 + int(rnd, 3));
  if (rnd() < 0.25 && !groups.some((g) => g.name === 'issue-13')) groups.push(pool.groups.find((g) => g.name === 'issue-13') ?? groups[0]);
  for (const g of groups) {
    const want = 1 + int(rnd, 5);
    for (let k = 0; k < want; k++) {
      const d = pick(rnd, g.docs);
      chosen.add(d);
      // Bring the owners (and sometimes a dependent) of what was picked: references between documents are the point.
      const f = factsOf(d);
      for (const other of g.docs) {
        const of = factsOf(other);
        if (f.ownerUids.some((u) => of.uids.includes(u)) && rnd() < 0.8) chosen.add(other);
        else if (of.ownerUids.some((u) => f.uids.includes(u)) && rnd() < 0.3) chosen.add(other);
      }
    }
  }
  while (chosen.size < 2) chosen.add(pick(rnd, pick(rnd, pool.groups).docs));
  let docs = shuffle(rnd, [...chosen]).slice(0, 14);
  let mutated = int(rnd, docs.length);
  // Half the time, put the mutated document between an owner and its dependent (the reported bug's shape).
  if (rnd() < 0.5) {
    const pairs: [Doc, Doc][] = [];
    for (const a of docs)
      for (const b of docs)
        if (a !== b && a !== docs[mutated] && b !== docs[mutated] && factsOf(b).ownerUids.some((u) => factsOf(a).uids.includes(u)))
          pairs.push([a, b]);
    if (pairs.length) {
      const [owner, dependent] = pick(rnd, pairs);
      const m = docs[mutated];
      const rest = docs.filter((d) => d !== m && d !== dependent);
      const at = rest.indexOf(owner) + 1;
      docs = [...rest.slice(0, at), m, dependent, ...rest.slice(at)];
      mutated = at;
    }
  }
  const other = pick(rnd, pick(rnd, pool.groups).docs).text;
  const { text, detail } = mutation.apply(docs[mutated].text, rnd, other);
  const leadingMarker = rnd() < 0.5;
  return { seed, docs, leadingMarker, separator: pick(rnd, SEPARATORS), mutated, mutation: mutation.name, detail, mutatedText: text };
}

// ---------------------------------------------------------------------------------------------------
// Checking a case

const objectKey = (o: KubeObject) => JSON.stringify([o.apiVersion, o.kind, o.namespace, o.name, o.uid, o.ownerReferences, o.finalizers]);
const problemKey = (p: LoadProblem, lineShift: number) => `${p.code}:${p.severity}@${p.line - lineShift}:${p.column}`;

/** Index of the document whose lines hold `line` (1-based), or -1. */
function docAt(spans: Composed['spans'], line: number): number {
  return spans.findIndex((s) => line >= s.first && line <= s.last);
}

function byDoc<T>(items: T[], spans: Composed['spans'], lineOf: (t: T) => number | undefined): { docs: T[][]; unplaced: T[] } {
  const docs: T[][] = spans.map(() => []);
  const unplaced: T[] = [];
  for (const it of items) {
    const l = lineOf(it);
    const i = l === undefined ? -1 : docAt(spans, l);
    (i < 0 ? unplaced : docs[i]).push(it);
  }
  return { docs, unplaced };
}

const objectLine = (o: KubeObject) => (o.source?.ranges ? o.source.ranges.object.start.line + 1 : undefined);

/** Multiset difference a − b. */
function minus(a: string[], b: string[]): string[] {
  const count = new Map<string, number>();
  for (const x of b) count.set(x, (count.get(x) ?? 0) + 1);
  const out: string[] = [];
  for (const x of a) {
    const n = count.get(x) ?? 0;
    if (n > 0) count.set(x, n - 1);
    else out.push(x);
  }
  return out;
}

const PREDICTED = new Set(['stuck-terminating', 'foreground-deadlock', 'finalizer-deadlock']);
/** Findings on a webhook's or an APIService's backend, which read every workload and Pod of the input (R83). */
const BACKEND_JUDGED = new Set(['blocking-webhook', 'unavailable-apiservice']);
/** Kinds whose presence changes what other objects' findings say (kinds served, finalizer owners guessed). */
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'Pod']);

interface Run {
  parsed: ParseResult;
  composed: Composed;
  inventory: Inventory;
  findings: Finding[];
}

function run(text: string, composed: Composed): Run {
  const parsed = parseManifestText(text, FILE);
  const inventory = buildInventory(parsed.objects);
  return { parsed, composed, inventory, findings: analyze(inventory) };
}

/** Returns what failed (empty: the case holds). Never throws. */
export function checkCase(c: FuzzCase): string[] {
  const texts = c.docs.map((d) => d.text);
  const baseC = compose(texts, c.leadingMarker, c.separator);
  const mutTexts = [...texts];
  mutTexts[c.mutated] = c.mutatedText;
  const mutC = compose(mutTexts, c.leadingMarker, c.separator);
  let base: Run;
  try {
    base = run(baseC.text, baseC);
  } catch (e) {
    return [`baseline: the unmutated file threw: ${stack(e)}`];
  }
  const failures: string[] = [];
  const baseErrors = base.parsed.problems.filter((p) => p.severity === 'error');
  if (baseErrors.length)
    failures.push(`baseline: the unmutated file has errors (fixture problem): ${baseErrors.map((p) => problemKey(p, 0)).join(', ')}`);
  let mut: Run;
  try {
    mut = run(mutC.text, mutC);
  } catch (e) {
    return [...failures, `threw: ${stack(e)}`];
  }
  const m = c.mutated;
  const origin = (i: number) => `document ${i + 1} (${c.docs[i].origin}, ${i < m ? 'before' : 'after'} the mutated one)`;

  // 1. isolation: objects of the other documents
  const bObjs = byDoc(base.parsed.objects, baseC.spans, objectLine);
  const mObjs = byDoc(mut.parsed.objects, mutC.spans, objectLine);
  if (bObjs.unplaced.length || mObjs.unplaced.length)
    failures.push(`objects without a position: ${[...bObjs.unplaced, ...mObjs.unplaced].map((o) => `${o.kind}/${o.name}`).join(', ')}`);
  for (let i = 0; i < c.docs.length; i++) {
    if (i === m) continue;
    const want = bObjs.docs[i].map(objectKey);
    const got = mObjs.docs[i].map(objectKey);
    const lost = minus(want, got);
    const extra = minus(got, want);
    if (lost.length)
      failures.push(`isolation: ${origin(i)} lost ${lost.length} of its ${want.length} objects: ${lost.slice(0, 3).join(' ')}`);
    if (extra.length) failures.push(`isolation: ${origin(i)} gained objects: ${extra.slice(0, 3).join(' ')}`);
  }

  // Valid YAML with the same objects (an inert mutation) must load exactly as before.
  if (MUTATIONS.find((x) => x.name === c.mutation)?.inert) {
    const want = bObjs.docs[m].map(objectKey);
    const got = mObjs.docs[m].map(objectKey);
    if (minus(want, got).length || minus(got, want).length)
      failures.push(
        `inert: the mutated document is valid YAML with the same objects, but loaded ${got.length} object(s) instead of ${want.length}`,
      );
  }

  // 2. located and bounded
  const lines = mutC.text.split('\n');
  for (const p of mut.parsed.problems) {
    const lineText = lines[p.line - 1];
    if (!(p.line >= 1 && p.line <= lines.length && p.column >= 1 && lineText !== undefined && p.column <= lineText.length + 1)) {
      failures.push(`unlocated: ${problemKey(p, 0)} is outside the file (${lines.length} lines): ${p.reason}`);
    }
  }
  failures.push(...rangesInside(lines, mut.parsed.objects, mut.findings));
  const bProbs = byDoc(base.parsed.problems, baseC.spans, (p) => p.line);
  const mProbs = byDoc(mut.parsed.problems, mutC.spans, (p) => p.line);
  const boundariesChanged = boundaryLines(c.mutatedText) !== boundaryLines(c.docs[m].text);
  if (!boundariesChanged) {
    for (let i = 0; i < c.docs.length; i++) {
      if (i === m) continue;
      const want = bProbs.docs[i].map((p) => problemKey(p, baseC.spans[i].first));
      const got = mProbs.docs[i].map((p) => problemKey(p, mutC.spans[i].first));
      const extra = minus(got, want);
      const lost = minus(want, got);
      if (extra.length) {
        const reasons = mProbs.docs[i]
          .filter((p) => extra.includes(problemKey(p, mutC.spans[i].first)))
          .map((p) => `${problemKey(p, 0)} ${p.reason}`);
        failures.push(
          `location: ${extra.length} problem(s) in the lines of ${origin(i)} (mutated document: lines ${mutC.spans[m].first}–${mutC.spans[m].last}): ${reasons.slice(0, 2).join(' | ')}`,
        );
      }
      if (lost.length) failures.push(`isolation: ${origin(i)} lost its problems ${lost.join(', ')}`);
    }
  }
  if (MUTATIONS.find((x) => x.name === c.mutation)?.inert) {
    const errors = mProbs.docs[m].filter((p) => p.severity === 'error');
    if (errors.length)
      failures.push(
        `inert: valid YAML refused: ${errors
          .slice(0, 2)
          .map((p) => `${problemKey(p, 0)} ${p.reason}`)
          .join(' | ')}`,
      );
  }
  const markers = Math.max(0, boundaryLines(c.mutatedText) - boundaryLines(c.docs[m].text));
  const bound = PROBLEMS_PER_DOCUMENT * (1 + markers) + bProbs.docs[m].length;
  if (mProbs.docs[m].length > bound)
    failures.push(`bounded: ${mProbs.docs[m].length} problems for the mutated document (more than ${bound})`);

  // 1. isolation: findings
  failures.push(...compareFindings(c, base, mut));
  return failures;
}

/**
 * Findings (code, severity, object, location, message) of both runs, minus those the mutated document may
 * legitimately change. With M = the objects of the mutated document in either run, a finding is left out when:
 * its object or a related object is in M (same uid); its object names an owner in M (uid, or kind and name); its
 * object or an owner's kind is one M makes served by inference (case-insensitively: hints name near misses);
 * M holds its Namespace; or it is a prediction (simulation) and M holds a workload (finalizer owners are guessed
 * from all workloads), shares its namespace, or is connected to it by ownership. M holding a CRD skips the
 * comparison: a CRD changes what every object's kind means.
 */
function compareFindings(c: FuzzCase, base: Run, mut: Run): string[] {
  const m = c.mutated;
  const inMutated = (r: Run, o: KubeObject) => {
    const l = objectLine(o);
    return l !== undefined && docAt(r.composed.spans, l) === m;
  };
  const M: KubeObject[] = [];
  for (const r of [base, mut]) for (const o of r.inventory.objects.values()) if (inMutated(r, o)) M.push(o);
  for (const r of [base, mut])
    for (const x of r.inventory.conflicts) if (inMutated(r, x.other) || inMutated(r, x.kept)) M.push(x.other, x.kept);
  // A CRD changes what every object's kind means: nothing else can be compared soundly.
  if (M.some((o) => o.kind === 'CustomResourceDefinition')) return [];
  const uids = new Set(M.map((o) => o.uid));
  const names = new Set(M.map((o) => `${o.kind}/${o.name}`));
  const namespaces = new Set(M.filter((o) => o.kind === 'Namespace').map((o) => o.name));
  const builtin = (inv: Inventory, apiVersion: string, kind: string) =>
    inv.kinds.lookup(splitApiVersion(apiVersion).group, kind)?.origin === 'builtin';
  // Lower case: the hint of unresolvable-owner-kind names a kind that differs only in case.
  const customKinds = new Set(
    M.filter((o) => !builtin(base.inventory, o.apiVersion, o.kind) || !builtin(mut.inventory, o.apiVersion, o.kind)).map((o) =>
      o.kind.toLowerCase(),
    ),
  );
  const isCustom = (kind: string) => customKinds.has(kind.toLowerCase());
  // A namespace's deletion is simulated with everything in it.
  const sharedNamespaces = new Set(M.map((o) => o.namespace).filter(Boolean));
  const workloads = M.some((o) => WORKLOADS.has(o.kind));
  // Objects connected to the mutated document by ownership (either run): predictions run over components.
  const adj = new Map<string, string[]>();
  const link = (a: string, b: string) => adj.set(a, [...(adj.get(a) ?? []), b]);
  for (const r of [base, mut])
    for (const o of r.inventory.objects.values())
      for (const ref of o.ownerReferences) {
        link(o.uid, ref.uid);
        link(ref.uid, o.uid);
      }
  const reach = new Set(uids);
  for (const todo = [...uids]; todo.length; )
    for (const n of adj.get(todo.pop()!) ?? [])
      if (!reach.has(n)) {
        reach.add(n);
        todo.push(n);
      }

  const exempt = (r: Run, f: Finding) => {
    if (uids.has(f.object.uid) || f.related.some((x) => x.object && uids.has(x.object.uid))) return true;
    const o = r.inventory.objects.get(f.object.uid);
    if (!o) return true;
    if (o.ownerReferences.some((ref) => uids.has(ref.uid) || names.has(`${ref.kind}/${ref.name}`) || isCustom(ref.kind))) return true;
    if (namespaces.has(o.namespace) || isCustom(o.kind)) return true;
    if (BACKEND_JUDGED.has(f.code) && workloads) return true;
    return PREDICTED.has(f.code) && (workloads || reach.has(o.uid) || sharedNamespaces.has(o.namespace));
  };
  const key = (f: Finding) =>
    `${f.code}:${f.severity} ${f.object.kind} ${f.object.namespace}/${f.object.name} (${f.object.uid}) ${JSON.stringify(f.location)} ${f.message}`;
  const want = base.findings.filter((f) => !exempt(base, f)).map(key);
  const got = mut.findings.filter((f) => !exempt(mut, f)).map(key);
  const out: string[] = [];
  const lost = minus(want, got);
  const extra = minus(got, want);
  if (lost.length) out.push(`findings: ${lost.length} finding(s) about unmutated objects went away: ${lost.slice(0, 3).join(' | ')}`);
  if (extra.length) out.push(`findings: ${extra.length} new finding(s) about unmutated objects: ${extra.slice(0, 3).join(' | ')}`);
  return out;
}

/** Every object's and every finding's source range lies inside the file. */
function rangesInside(lines: string[], objects: KubeObject[], findings: Finding[]): string[] {
  const out: string[] = [];
  const inside = (r: Range | undefined) =>
    !r || [r.start, r.end].every((p) => p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length);
  for (const o of objects) {
    const r = o.source?.ranges;
    if (!r) continue;
    const all = [
      r.object,
      r.apiVersion,
      r.kind,
      r.name,
      r.namespace,
      r.uid,
      r.ownerReferences,
      r.finalizers,
      r.deletionTimestamp,
      ...r.finalizerEntries,
      ...r.ownerReferenceEntries.flatMap((e) => [e.entry, e.apiVersion, e.kind, e.name, e.uid, e.controller, e.blockOwnerDeletion]),
    ];
    if (!all.every(inside)) out.push(`unlocated: ${o.kind}/${o.name} has a source range outside the file`);
  }
  for (const f of findings)
    if (!inside(f.range)) out.push(`unlocated: finding ${f.code} on ${f.object.kind}/${f.object.name} has a range outside the file`);
  return out.slice(0, 5);
}

/**
 * One whole file mutated (JSON: one syntax error there rightly skips the whole file, so only property 2
 * applies): nothing throws, every problem is located inside the file and their number is bounded, and objects
 * that still load get their positions (resolveRanges, as `kubectl-gc check` asks for them) inside the file.
 */
export function checkWholeFile(seed: number, files: Doc[]): { failures: string[]; describe: (rerun: string) => string } {
  const rnd = prng(seed);
  const file = pick(rnd, files);
  const mutation = MUTATIONS[seed % MUTATIONS.length];
  const other = pick(rnd, files).text;
  const { text, detail } = mutation.apply(file.text, rnd, other);
  const name = /\.json$/.test(file.origin) ? 'fuzz.json' : FILE;
  const describe = (rerun: string) => `seed ${seed}: ${mutation.name} on the whole of ${file.origin}: ${detail}\n  re-run: ${rerun}`;
  const failures: string[] = [];
  try {
    const base = parseManifestText(file.text, name);
    const parsed = parseManifestText(text, name);
    // A JSON text over 4 MB is scanned and read item by item: forced here, it must give what one JSON.parse gives.
    if (name.endsWith('.json') && !isDeepStrictEqual(parseManifestText(text, name, { jsonScanAbove: 0 }), parsed)) {
      failures.push('json item by item: not what one JSON.parse of the file gives');
    }
    resolveRanges(text, parsed.objects);
    const findings = analyze(buildInventory(parsed.objects));
    const lines = text.split('\n');
    for (const p of parsed.problems) {
      const lineText = lines[p.line - 1];
      if (!(p.line >= 1 && p.column >= 1 && lineText !== undefined && p.column <= lineText.length + 1))
        failures.push(`unlocated: ${problemKey(p, 0)} is outside the file (${lines.length} lines): ${p.reason}`);
    }
    const bound = PROBLEMS_PER_DOCUMENT + base.problems.length;
    if (parsed.problems.length > bound) failures.push(`bounded: ${parsed.problems.length} problems (more than ${bound})`);
    failures.push(...rangesInside(lines, parsed.objects, findings));
  } catch (e) {
    failures.push(`threw: ${stack(e)}`);
  }
  return { failures, describe };
}

function stack(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' ← ') : String(e);
}

/** How to see and re-run a case. Writes the mutated file to the temp folder. */
export function describeCase(c: FuzzCase, rerun: string): string {
  const texts = c.docs.map((d) => d.text);
  texts[c.mutated] = c.mutatedText;
  const composed = compose(texts, c.leadingMarker, c.separator);
  const path = join(tmpdir(), `kube-gc-lens-fuzz-${c.seed}.yaml`);
  try {
    writeFileSync(path, composed.text);
  } catch {
    // only a convenience
  }
  const span = composed.spans[c.mutated];
  return [
    `seed ${c.seed}: ${c.mutation} on document ${c.mutated + 1} of ${c.docs.length} (${c.docs[c.mutated].origin}, lines ${span.first}–${span.last}; separator ${c.separator}): ${c.detail}`,
    `  documents: ${c.docs.map((d, i) => (i === c.mutated ? `[${d.origin}]` : d.origin)).join(', ')}`,
    `  mutated file: ${path}`,
    `  re-run: ${rerun}`,
  ].join('\n');
}

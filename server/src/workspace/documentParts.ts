// A multi-document YAML text kept as its documents (each with its offsets, objects and problems), so that an edit
// re-splits only around the changed text (the whole text where the change's neighbours are not plain `---` starts),
// re-reads only the documents it touched and moves the others: their positions shift by the lines the edit added or
// removed, their document numbers by the documents it added or removed. The result is what reading the whole text
// again gives (test/workspace/documentParts.test.ts checks it on random edits). Text that is not read as YAML
// documents (JSON, binary) is read whole each time.

import type { KubeObject, Range } from '../engine/model';
import { LineIndex, ZERO_RANGE } from '../sources/manifests/lineIndex';
import type { LoadProblem } from '../sources/manifests/loadProblem';
import { parseManifestText, parseYamlDocuments, readsAsYaml, type ParseResult } from '../sources/manifests/parseManifest';
import { yamlDocumentSpans } from '../sources/manifests/yamlSpans';

/** One document of the text: [start, end), its first document number and how many it counts for. */
export interface DocumentPart {
  start: number;
  end: number;
  docIndex: number;
  docCount: number;
  objects: KubeObject[];
  problems: LoadProblem[];
}

/** A text read as YAML documents, part by part. */
export interface PartedText {
  text: string;
  parts: DocumentPart[];
  /** Offsets of the text's line starts (kept across edits: finding them again costs a pass over the text). */
  lineStarts: number[];
  /** Every part's objects and problems, in order. */
  objects: KubeObject[];
  problems: LoadProblem[];
  /** Set once an edit was read from it: its parts moved in place, so it no longer describes its text. */
  consumed?: boolean;
}

/** Where the objects changed: `objects` is the previous text's with [at, at + removed) replaced by `window`. */
export interface ObjectSplice {
  from: PartedText;
  at: number;
  removed: number;
  /** The objects of the re-split documents, moved (the same objects) or read again (new ones). */
  window: KubeObject[];
}

export interface PartedParse extends ParseResult {
  /** Undefined when the text was read whole (not YAML documents). */
  parted?: PartedText;
  /** How many documents were read (a whole read counts every document). */
  documentsRead: number;
  /** After an edit read document by document: which objects it replaced. */
  splice?: ObjectSplice;
}

/** Every document of the text. */
export function parseParts(text: string, file: string): PartedParse {
  if (!readsAsYaml(text, file)) return whole(text, file);
  try {
    const spans = yamlDocumentSpans(text);
    const lineStarts = lineStartsOf(text, 0, text.length, [0]);
    const lines = LineIndex.fromLineStarts(lineStarts);
    const parts: DocumentPart[] = [];
    let docIndex = 0;
    for (const [start, end] of spans) {
      const part = readPart(text, file, start, end, docIndex, lines);
      docIndex += part.docCount;
      parts.push(part);
    }
    return result(text, parts, lineStarts, spans.length);
  } catch {
    return whole(text, file);
  }
}

/**
 * The text after an edit, from the parts of the text before it: only the documents around the change are read.
 * The others are moved in place (their objects and problems too): `prev` is used up (read from it once).
 */
export function reparseParts(prev: PartedText, text: string, file: string): PartedParse {
  if (prev.consumed) return parseParts(text, file);
  if (prev.text === text) return { objects: prev.objects, problems: prev.problems, parted: prev, documentsRead: 0 };
  prev.consumed = true;
  if (!readsAsYaml(text, file)) return whole(text, file);
  try {
    // Where the change's surroundings are not plain `---` boundaries, the whole text is split again: the documents
    // whose text did not change are still moved, not read.
    return reparse(prev, text, file, false) ?? reparse(prev, text, file, true) ?? parseParts(text, file);
  } catch {
    return whole(text, file);
  }
}

function whole(text: string, file: string): PartedParse {
  const parsed = parseManifestText(text, file);
  // Counted as one document when it is not YAML (JSON, binary): splitting it would cost a pass over it for nothing.
  return { ...parsed, documentsRead: readsAsYaml(text, file) ? yamlDocumentSpans(text).length : 1 };
}

function result(text: string, parts: DocumentPart[], lineStarts: number[], documentsRead: number): PartedParse {
  const objects: KubeObject[] = [];
  const problems: LoadProblem[] = [];
  for (const p of parts) {
    for (const o of p.objects) objects.push(o);
    for (const x of p.problems) problems.push(x);
  }
  return { objects, problems, parted: { text, parts, lineStarts, objects, problems }, documentsRead };
}

function readPart(text: string, file: string, start: number, end: number, docIndex: number, lines: LineIndex): DocumentPart {
  const out: ParseResult = { objects: [], problems: [] };
  const next = parseYamlDocuments(text, file, [[start, end]], docIndex, lines, out);
  return { start, end, docIndex, docCount: next - docIndex, objects: out.objects, problems: out.problems };
}

/**
 * Re-splits around the change (`whole`: all the text). Undefined when the change cannot be placed between stable
 * document boundaries.
 */
function reparse(prev: PartedText, text: string, file: string, whole: boolean): PartedParse | undefined {
  const old = prev.text;
  const parts = prev.parts;
  if (parts.length === 0) return undefined;
  const prefix = commonPrefix(old, text);
  const suffix = commonSuffix(old, text, Math.min(old.length, text.length) - prefix);
  // The change: old [a, oldEnd) became new [a, newEnd).
  const a = prefix;
  const oldEnd = old.length - suffix;
  const newEnd = text.length - suffix;
  const delta = text.length - old.length;

  // The window of documents re-split: from one document before the change (whose `---` the edit cannot have
  // touched) to one after it.
  let first = whole ? 0 : Math.max(0, partAt(parts, a) - 1);
  while (first > 0 && parts[first].start + 4 > a) first--;
  let last = whole ? parts.length - 1 : Math.min(parts.length - 1, partAt(parts, oldEnd) + 1);
  while (last < parts.length - 1 && parts[last].end <= oldEnd) last++;
  const from = parts[first].start;
  const oldTo = parts[last].end;
  const atEnd = last === parts.length - 1;
  const to = atEnd ? text.length : oldTo + delta;
  // The boundary after the window must still be a `---` at a line start, unchanged by the edit.
  if (!atEnd && !(oldTo > oldEnd && startsDocument(text, to) && startsDocument(old, oldTo))) return undefined;
  const spans = yamlDocumentSpans(text.slice(from, to)).map(([s, e]): [number, number] => [s + from, e + from]);
  // The window's last document must end at that boundary, as splitting the whole text would end it: it starts with
  // `---` itself (a document without content that does not would be joined to the next one).
  if (!atEnd && spans.length && !startsDocument(text, spans[spans.length - 1][0])) return undefined;

  const oldLines = prev.lineStarts.length;
  const lineStarts = movedLineStarts(prev.lineStarts, text, a, oldEnd, newEnd);
  const lineDelta = lineStarts.length - oldLines;
  let lines: LineIndex | undefined;
  const out: DocumentPart[] = parts.slice(0, first);
  let docIndex = first > 0 ? parts[first].docIndex : 0;
  const windowEnd = parts[last].docIndex + parts[last].docCount;
  let read = 0;
  // The window's objects and problems, and where they are in the previous text's lists.
  let objectsBefore = 0;
  let problemsBefore = 0;
  for (let i = 0; i < first; i++) {
    objectsBefore += parts[i].objects.length;
    problemsBefore += parts[i].problems.length;
  }
  let objectsIn = 0;
  let problemsIn = 0;
  for (let i = first; i <= last; i++) {
    objectsIn += parts[i].objects.length;
    problemsIn += parts[i].problems.length;
  }
  // Window parts that come out the same (before the change, or after it and still at a line start) are moved, not read.
  const oldByStart = new Map<number, DocumentPart>();
  for (let i = first; i <= last; i++) oldByStart.set(parts[i].start, parts[i]);
  for (const [s, e] of spans) {
    const same = e <= a ? oldByStart.get(s) : s >= newEnd ? oldByStart.get(s - delta) : undefined;
    if (same && same.end - same.start === e - s && (e <= a || (atLineStart(text, s) && atLineStart(old, same.start)))) {
      out.push(e <= a ? moved(same, 0, 0, docIndex) : moved(same, delta, lineDelta, docIndex));
    } else {
      out.push(readPart(text, file, s, e, docIndex, (lines ??= LineIndex.fromLineStarts(lineStarts))));
      read++;
    }
    docIndex += out[out.length - 1].docCount;
  }
  const docDelta = docIndex - windowEnd;
  for (let i = last + 1; i < parts.length; i++) out.push(moved(parts[i], delta, lineDelta, parts[i].docIndex + docDelta));
  const window: KubeObject[] = [];
  const windowProblems: LoadProblem[] = [];
  for (let i = first; i < first + spans.length; i++) {
    for (const o of out[i].objects) window.push(o);
    for (const x of out[i].problems) windowProblems.push(x);
  }
  const objects = prev.objects.slice(0, objectsBefore).concat(window, prev.objects.slice(objectsBefore + objectsIn));
  const problems = prev.problems.slice(0, problemsBefore).concat(windowProblems, prev.problems.slice(problemsBefore + problemsIn));
  return {
    objects,
    problems,
    parted: { text, parts: out, lineStarts, objects, problems },
    documentsRead: read,
    splice: { from: prev, at: objectsBefore, removed: objectsIn, window },
  };
}

/** Appends the offsets after each '\n' of text[from, to). */
function lineStartsOf(text: string, from: number, to: number, into: number[]): number[] {
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) into.push(i + 1);
  return into;
}

/**
 * Line starts after old [a, oldEnd) became new [a, newEnd): those before kept, those in it found, those after moved.
 * In place (the previous text's are used up with it).
 */
function movedLineStarts(old: number[], text: string, a: number, oldEnd: number, newEnd: number): number[] {
  const delta = newEnd - oldEnd;
  // The first start whose '\n' is at or after a (old[i] - 1 >= a), and the first after the old change.
  let lo = 0;
  let hi = old.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (old[mid] - 1 >= a) hi = mid;
    else lo = mid + 1;
  }
  let after = lo;
  while (after < old.length && old[after] - 1 < oldEnd) after++;
  const added = lineStartsOf(text, a, newEnd, []);
  old.splice(lo, after - lo, ...added);
  if (delta !== 0) for (let i = lo + added.length; i < old.length; i++) old[i] += delta;
  return old;
}

/** The index of the part holding offset `at` (the last part for the end of the text). */
function partAt(parts: DocumentPart[], at: number): number {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (parts[mid].end > at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A `---` marker line at `at`: at a line start, followed by a blank, a line break or the end. */
function startsDocument(text: string, at: number): boolean {
  if (!text.startsWith('---', at)) return false;
  const before = at === 0 ? 10 : text.charCodeAt(at - 1);
  if (before !== 10 && before !== 13) return false;
  const after = text.charCodeAt(at + 3);
  return at + 3 >= text.length || after === 32 || after === 9 || after === 10 || after === 13;
}

/** After a '\n' (positions count lines by '\n' only): a document there keeps its characters when it moves. */
function atLineStart(text: string, at: number): boolean {
  return at === 0 || text.charCodeAt(at - 1) === 10;
}

/** Compared in blocks first (native string comparison), then character by character in the first block that differs. */
const BLOCK = 4096;

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= max && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n + BLOCK <= max && a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)) n += BLOCK;
  while (n < max && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  return n;
}

/** A part moved by `delta` characters and `lineDelta` lines, numbered from `docIndex`: its objects and problems in place. */
function moved(p: DocumentPart, delta: number, lineDelta: number, docIndex: number): DocumentPart {
  if (delta === 0 && lineDelta === 0 && docIndex === p.docIndex) return p;
  const docDelta = docIndex - p.docIndex;
  if (lineDelta !== 0 || docDelta !== 0) {
    for (const o of p.objects) {
      const s = o.source;
      if (!s) continue;
      s.docIndex += docDelta;
      if (lineDelta !== 0 && s.ranges) shiftRanges(s.ranges, lineDelta);
    }
    if (lineDelta !== 0)
      for (const x of p.problems) {
        if (!x.range || x.range === ZERO_RANGE) continue;
        shift(x.range, lineDelta);
        x.line += lineDelta;
      }
  }
  // The previous text's parts are not used again: moved in place.
  p.start += delta;
  p.end += delta;
  p.docIndex = docIndex;
  return p;
}

/** Every range of an object's fields (shared with its findings, which move with it). */
function shiftRanges(r: NonNullable<KubeObject['source']>['ranges'] & object, lines: number): void {
  for (const key of RANGE_KEYS) {
    const x = r[key];
    if (x) shift(x, lines);
  }
  for (const e of r.ownerReferenceEntries) {
    shift(e.entry, lines);
    for (const key of OWNER_RANGE_KEYS) {
      const x = e[key];
      if (x) shift(x, lines);
    }
  }
  for (const f of r.finalizerEntries) shift(f, lines);
}

const RANGE_KEYS = [
  'object',
  'apiVersion',
  'kind',
  'name',
  'namespace',
  'uid',
  'ownerReferences',
  'finalizers',
  'deletionTimestamp',
] as const;
const OWNER_RANGE_KEYS = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'] as const;

function shift(r: Range, lines: number): void {
  if (r === ZERO_RANGE) return; // shared: where nothing was located, which moving does not change
  r.start.line += lines;
  r.end.line += lines;
}

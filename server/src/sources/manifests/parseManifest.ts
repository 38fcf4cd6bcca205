// Manifest text to KubeObjects (pure: text in, objects and located problems out; no file system).
//
// JSON goes through JSON.parse and reads only the fields the engine needs; positions are found later, on
// demand (resolveRanges). YAML is read one document at a time, by the fast subset reader (yamlFast.ts) when the
// document is plain block YAML, else by the `yaml` package (YAML 1.2 core schema, as Kubernetes' decoder reads
// `- =` and unquoted timestamps: as strings); both give the same objects, positions and problems. YAML positions are
// filled while reading, or with `lazyPositions` read again from the object's document when asked for (lazyPositions.ts).
// A bad document is reported where it is and skipped; every other document still loads. Nothing throws.

import { Composer, Parser, type Document, type Node } from 'yaml';
import type { FieldRanges, KubeObject, Range } from '../../engine/model';
import { Extractor, type PendingProblem } from './extract';
import { fastObject } from './fastJson';
import { addWant, locateJsonError, pnodeAt, scanJson, type PNode, type Want } from './jsonScan';
import { LineIndex, ZERO_RANGE } from './lineIndex';
import { makeProblem, type LoadProblem, type LoadProblemCode } from './loadProblem';
import { buildRanges, type RangeSource } from './ranges';
import { formatPath, plainReader, YamlReader, type YNode } from './reader';
import { auditDocument, pathTo } from './yamlAudit';
import { lenientLexer } from './lenientLexer';
import { LazyPositions, type DocumentSpan } from './lazyPositions';
import { yamlDocumentSpans } from './yamlSpans';
import { FastReader, fastYamlDocument, type FastNode } from './yamlFast';
import { splitLargeList, type LargeList } from './yamlList';
import { findTooDeep } from './yamlDepth';
import { JSON_DEPTH_SCAN_ABOVE, MAX_JSON_DEPTH, prettyListItems, scanJsonStructure, type JsonScan } from './jsonDepth';

export interface ParseResult {
  objects: KubeObject[];
  problems: LoadProblem[];
}

/** More problems than this in one document are summarised in one extra line. */
const MAX_PROBLEMS_PER_DOCUMENT = 100;
/** Alias expansion beyond this (and beyond 10× the written size) is refused, as Kubernetes' decoder does. */
const MAX_EXPANDED_NODES = 100_000;
const COMPOSER_OPTIONS = { uniqueKeys: false, version: '1.2', schema: 'core', merge: false, intAsBigInt: false } as const;

/** Limits a test may lower (the defaults are the documented ones). */
export interface ParseLimits {
  maxYamlDocumentBytes?: number;
  /** false: every YAML document through the `yaml` package (the fast subset reader off; tests compare the two). */
  fastYaml?: boolean;
  /** JSON texts longer than this are scanned first (nesting, a List's items read one at a time). */
  jsonScanAbove?: number;
  /**
   * YAML positions read when asked for (lazyPositions.ts: the CLI's loader), not while loading: an object's
   * `source.ranges` reads its document again. JSON positions are always found later (resolveRanges).
   */
  lazyPositions?: boolean;
}

export function parseManifestText(text: string, file: string, limits?: ParseLimits): ParseResult {
  const out: ParseResult = { objects: [], problems: [] };
  try {
    if (looksBinary(text)) {
      out.problems.push(
        makeProblem(
          file,
          'error',
          'binary',
          'This file looks binary (its start is mostly control characters or bytes that are not UTF-8), so it was not read as YAML or JSON.',
        ),
      );
      return out;
    }
    if (looksLikeJson(text, file) && parseJson(text, file, out, limits)) return out;
    parseYaml(text, file, out, limits?.maxYamlDocumentBytes ?? MAX_YAML_DOCUMENT_BYTES, limits?.fastYaml ?? true, limits?.lazyPositions);
  } catch (e) {
    out.problems.push(internalProblem(file, e, ZERO_RANGE));
  }
  return out;
}

/**
 * Of the first this many characters, a tenth or more must be NUL, other control characters or undecodable bytes for a
 * file to be binary.
 */
const BINARY_HEAD = 8192;
const BINARY_CHAR = /[\x00-\x08\x0E-\x1A\x1C-\x1F\x7F-\x9F\uFFFD]/g;

/**
 * Whether a file is binary (an image, an archive, UTF-16 without a BOM) rather than text with a stray NUL in one
 * document: that one document is then refused where the byte is, and the others load.
 */
function looksBinary(text: string): boolean {
  const head = text.length > BINARY_HEAD ? text.slice(0, BINARY_HEAD) : text;
  const bad = head.match(BINARY_CHAR)?.length ?? 0;
  return bad > 0 && bad * 10 >= head.length;
}

function internalProblem(file: string, e: unknown, range: Range): LoadProblem {
  if (e instanceof RangeError) {
    return makeProblem(file, 'error', 'too-deep', 'This document is nested too deeply to be read, so it was skipped.', range);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return makeProblem(file, 'error', 'yaml-syntax', `This document could not be read (${msg}), so it was skipped.`, range);
}

const isJsonFile = (file: string) => /\.json$/i.test(file);

function firstNonSpace(text: string): string | undefined {
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\n') return c;
  }
  return undefined;
}

function looksLikeJson(text: string, file: string): boolean {
  if (isJsonFile(file)) return true;
  const c = firstNonSpace(text);
  return c === '{' || c === '[';
}

// ---------------------------------------------------------------------------------------------------
// JSON

/** Returns false when the text is not JSON and is not named .json (the caller then reads it as YAML). */
function parseJson(text: string, file: string, out: ParseResult, limits?: ParseLimits): boolean {
  const bom = text.charCodeAt(0) === 0xfeff;
  if (text.length > (limits?.jsonScanAbove ?? JSON_DEPTH_SCAN_ABOVE)) {
    // kubectl's layout first: its items are found without a scan, and each is small enough to parse safely.
    const pretty = prettyListItems(text);
    if (pretty && pretty.spans.every(([a, b]) => b - a <= JSON_DEPTH_SCAN_ABOVE) && jsonListItems(text, file, bom, pretty, out))
      return true;
    const scan = scanJsonStructure(text, MAX_JSON_DEPTH);
    if (scan.tooDeepAt >= 0) {
      const lines = LineIndex.of(text);
      out.problems.push(
        makeProblem(
          file,
          'error',
          'too-deep',
          `This JSON is nested more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep (Kubernetes refuses it too), so it was skipped.`,
          lines.range(scan.tooDeepAt, scan.tooDeepAt + 1),
        ),
      );
      return true;
    }
    if (scan.items && jsonListItems(text, file, bom, scan.items, out)) return true;
  }
  let value: unknown;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch (e) {
    if (!isJsonFile(file)) return false;
    if (firstNonSpace(text) === undefined) return true; // an empty .json file holds nothing
    const loc = locateJsonError(text) ?? { offset: 0, message: e instanceof Error ? e.message : String(e) };
    const lines = LineIndex.of(text);
    out.problems.push(
      makeProblem(file, 'error', 'json-syntax', `This file is not valid JSON: ${loc.message}.`, lines.range(loc.offset, loc.offset + 1)),
    );
    return true;
  }
  const ex = new Extractor(plainReader, file, fastObject);
  ex.document(value);
  jsonResults(text, file, ex, out);
  return true;
}

function jsonResults(text: string, file: string, ex: Extractor<unknown>, out: ParseResult): void {
  ex.finish();
  for (const e of ex.objects) {
    e.object.source = { file, docIndex: 0, itemPath: e.itemPath };
    out.objects.push(e.object);
  }
  if (ex.problems.length) out.problems.push(...locateJsonProblems(text, file, capProblems(ex.problems)));
}

/** Put where the items were in the text parsed without them (a NUL, then our name: no manifest holds it). */
const ITEMS_MARK_JSON = '"\\u0000kube-gc-lens items"';
const ITEMS_MARK = JSON.parse(ITEMS_MARK_JSON) as string;

/**
 * A large JSON List read one item at a time (spans found by scanJson or in kubectl's layout): what reading it whole
 * gives, without the whole tree in memory at once. False, with nothing added, when the spans turn out not to be the
 * root's items, each an object (then the text is read whole, which also reports any syntax error).
 */
function jsonListItems(text: string, file: string, bom: boolean, items: NonNullable<JsonScan['items']>, out: ParseResult): boolean {
  const head = text.slice(bom ? 1 : 0, items.open);
  const tail = text.slice(items.close + 1);
  if (head.length + tail.length > JSON_DEPTH_SCAN_ABOVE) return false; // the rest would be parsed unscanned
  let root: unknown;
  try {
    root = JSON.parse(head + ITEMS_MARK_JSON + tail);
  } catch {
    return false;
  }
  const { apiVersion, kind, items: marker } = (root ?? {}) as { apiVersion?: unknown; kind?: unknown; items?: unknown };
  if (marker !== ITEMS_MARK) return false; // the spans were not the root's items
  if (typeof kind !== 'string' || !kind.endsWith('List') || (apiVersion !== undefined && typeof apiVersion !== 'string')) return false;
  const ex = new Extractor(plainReader, file, fastObject);
  for (let i = 0; i < items.spans.length; i++) {
    let item: unknown;
    try {
      item = JSON.parse(text.slice(items.spans[i][0], items.spans[i][1]));
    } catch {
      return false;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
    const first = ex.objects.length;
    ex.listItems([item], i, { apiVersion, kind });
    // JSON results are placed by path, never by node: dropping it lets the item's parsed tree go at once (kept,
    // the 100,000 trees of a 500 MB List cost a second of garbage collection).
    for (let j = first; j < ex.objects.length; j++) ex.objects[j].node = undefined;
  }
  jsonResults(text, file, ex, out);
  return true;
}

function locateJsonProblems(text: string, file: string, pending: PendingProblem<unknown>[]): LoadProblem[] {
  // Notes are placed at the start of the file; anything else is located with one scan for all paths.
  const want: Want = {};
  let needed = false;
  for (const p of pending) {
    if (p.severity !== 'info') {
      addWant(want, p.path);
      needed = true;
    }
  }
  const root = needed ? scanJson(text, want) : undefined;
  const lines = needed ? LineIndex.of(text) : undefined;
  return pending.map((p) => {
    const n = p.severity === 'info' ? undefined : pnodeAt(root, p.path);
    return makeProblem(file, p.severity, p.code, p.message, n && lines ? lines.range(n.start, n.end) : ZERO_RANGE);
  });
}

function capProblems<N>(problems: PendingProblem<N>[]): PendingProblem<N>[] {
  if (problems.length <= MAX_PROBLEMS_PER_DOCUMENT) return problems;
  const kept = problems.slice(0, MAX_PROBLEMS_PER_DOCUMENT);
  const rest = problems.slice(MAX_PROBLEMS_PER_DOCUMENT);
  const worst = rest.some((p) => p.severity === 'error') ? 'error' : rest.some((p) => p.severity === 'warning') ? 'warning' : 'info';
  kept.push({
    ...rest[0],
    severity: worst,
    message: `${rest.length} more problems in this document are not listed (the next one: ${rest[0].message})`,
  });
  return kept;
}

// ---------------------------------------------------------------------------------------------------
// YAML

/**
 * The `yaml` parser and composer read process.env.LOG_TOKENS / LOG_STREAM for every token, and process.env is
 * slow to read in Node. During a synchronous parse, process.env is an object that answers those two names
 * itself and inherits everything else from the real one, which is put back before anything else runs.
 */
function withFastEnv<T>(fn: () => T): T {
  const saved = process.env;
  let swapped = false;
  try {
    // Made once per real environment: reading the two names from it is what is slow.
    if (fastEnvOf?.real !== saved) {
      const env = Object.create(saved) as NodeJS.ProcessEnv;
      env.LOG_TOKENS = saved.LOG_TOKENS;
      env.LOG_STREAM = saved.LOG_STREAM;
      fastEnvOf = { real: saved, env };
    }
    process.env = fastEnvOf.env;
    swapped = true;
  } catch {
    // not replaceable here: parse with the real one
  }
  try {
    return fn();
  } finally {
    if (swapped) process.env = saved;
  }
}

let fastEnvOf: { real: NodeJS.ProcessEnv; env: NodeJS.ProcessEnv } | undefined;

/**
 * Nesting beyond this is refused before parsing. Kubernetes' decoders allow 10,000 levels, but the `yaml` package
 * recurses per level and overflows the stack near 800; no real manifest comes close (a CRD's schema: about 40).
 */
export const MAX_YAML_DEPTH = 256;
/**
 * A YAML document larger than this is not parsed at once: the `yaml` package holds about 50 bytes of memory per byte
 * of a document while it reads it (a 16 MB List: 820 MB). A larger List in kubectl's layout is read item by item
 * (yamlList.ts); anything else larger is refused. JSON has no such limit (JSON.parse, then one pass over the metadata).
 */
export const MAX_YAML_DOCUMENT_BYTES = 8 * 1024 * 1024;

/**
 * Characters YAML does not allow in a stream (go-yaml, which kubectl uses, stops with "control characters are not
 * allowed"): C0 controls but tab and line breaks, DEL, C1 controls but NEL, and U+FFFE/U+FFFF.
 */
const NOT_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/g;

/**
 * Some documents of a YAML text, numbered from `docIndex`: what parseManifestText gives for them (each document is read
 * on its own), so that an editor re-reads only the documents an edit touched. `spans` are yamlDocumentSpans' of the
 * whole text; `lines` its line index. Only for text that parseManifestText reads as YAML (readsAsYaml). Returns the
 * next document number; may throw where parseManifestText would report an internal problem.
 */
export function parseYamlDocuments(
  text: string,
  file: string,
  spans: Iterable<[number, number]>,
  docIndex: number,
  lines: LineIndex,
  out: ParseResult,
): number {
  return parseYaml(text, file, out, MAX_YAML_DOCUMENT_BYTES, true, false, { spans, docIndex, lines });
}

/** Whether parseManifestText reads the text as YAML documents (not binary, not JSON). */
export function readsAsYaml(text: string, file: string): boolean {
  return !looksBinary(text) && !looksLikeJson(text, file);
}

function parseYaml(
  text: string,
  file: string,
  out: ParseResult,
  maxDocument: number,
  fast: boolean,
  lazy = false,
  part?: { spans: Iterable<[number, number]>; docIndex: number; lines: LineIndex },
): number {
  const lines = part?.lines ?? LineIndex.of(text);
  const positions = lazy ? lazyPositions(text, file, lines) : undefined;
  let docIndex = part?.docIndex ?? 0;
  const refuse = (code: LoadProblemCode, reason: string, at: number, to = at + 1) => {
    out.problems.push(makeProblem(file, 'error', code, reason, lines.range(at, Math.min(to, text.length))));
    docIndex++;
  };
  // The first character YAML does not allow at or after the last span's start: spans come in order, so the text is
  // searched once in all.
  let nextBad = -1;
  const firstNotPrintable = (start: number, end: number): number => {
    // Some documents only: each searched on its own, not the rest of the text each time.
    if (part) {
      NOT_PRINTABLE.lastIndex = 0;
      const m = NOT_PRINTABLE.exec(text.slice(start, end));
      return m ? start + m.index : -1;
    }
    if (nextBad < start) {
      NOT_PRINTABLE.lastIndex = start;
      nextBad = NOT_PRINTABLE.exec(text)?.index ?? Number.MAX_SAFE_INTEGER;
    }
    return nextBad < end ? nextBad : -1;
  };
  /** Refuses [start, end) before parsing when it holds a character YAML does not allow, or nests too deep. */
  const refused = (start: number, end: number, what: 'document' | 'item'): boolean => {
    const skipped = what === 'document' ? 'the document was skipped' : 'this item of the List was skipped';
    if (what === 'item' && end - start > maxDocument) {
      refuse(
        'too-large',
        `This item of the List is ${megabytes(end - start)}, more than the ${megabytes(maxDocument)} one YAML document may be, so it was skipped.`,
        start,
      );
      return true;
    }
    const bad = firstNotPrintable(start, end);
    if (bad >= 0) {
      const code = text.charCodeAt(bad);
      const name = code === 0 ? 'a NUL byte (U+0000)' : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      refuse(
        'yaml-syntax',
        `YAML syntax error: this ${what === 'document' ? 'document' : 'item'} contains ${name}, which YAML does not allow (kubectl refuses it: "control characters are not allowed"); ${skipped}.`,
        bad,
      );
      return true;
    }
    const deep = findTooDeep(text, start, end, MAX_YAML_DEPTH);
    if (deep >= 0) {
      refuse(
        'too-deep',
        `This ${what === 'document' ? 'document' : 'item of the List'} is nested more than ${MAX_YAML_DEPTH} levels deep, so it was skipped.`,
        deep,
      );
      return true;
    }
    return false;
  };
  /**
   * Parses [start, end) and hands each document to yamlDocument, numbered from `index` (items of a large List: all
   * numbered `index`, the List's, and read as `items()` says); a failure of the parser or the reading is that span's
   * own located problem. Returns the next number, or -1 when the parser itself failed.
   */
  const readSpan = (start: number, end: number, index: number, items?: () => ListItems): number => {
    // Items of a large List keep their positions: a lazy read would read the List again.
    const lazy = items ? undefined : positions && { positions, span: { start, end, firstDocIndex: index, fast: false } };
    try {
      return withFastEnv(() =>
        parseDocumentSpan(text, start, end, index, (doc, i) => {
          try {
            yamlDocument(doc, items ? index : i, text, file, lines, out, end, items?.(), lazy);
          } catch (e) {
            out.problems.push(internalProblem(file, e, lines.range(doc.range[0], doc.range[0])));
          }
        }),
      );
    } catch (e) {
      const at = contentStart(text, start, end);
      out.problems.push(internalProblem(file, e, lines.range(at, at)));
      return -1;
    }
  };
  // Only the `yaml` path needs process.env swapped (withFastEnv): readSpan swaps it for each span it parses.
  for (const [start, end] of part?.spans ?? yamlDocumentSpans(text)) {
    if (end - start > maxDocument) {
      const list = splitLargeList(text, start, end);
      if (list) {
        // Each item on its own, as a document of the List's: bounded by the largest item, not by the List.
        const listIndex = docIndex;
        let next = 0;
        for (const [s, e] of list.items) {
          const first = next;
          if (!refused(s, e, 'item')) readSpan(s, e, listIndex, () => ({ first, list, read: (n) => (next = first + n) }));
          next = Math.max(next, first + 1);
        }
        docIndex = listIndex + 1;
        continue;
      }
      const at = contentStart(text, start, end);
      refuse(
        'too-large',
        `This YAML document is ${megabytes(end - start)}, more than the ${megabytes(maxDocument)} one YAML document may be (reading YAML takes about 50 times its size in memory), so it was skipped (a List is read item by item only in the layout kubectl writes: top-level keys at column 0, items: followed by - entries). Split it into documents, or read it as JSON (kubectl get -o json), which has no such limit.`,
        at,
      );
      continue;
    }
    // The fast reader refuses what refused() would (characters YAML does not allow, nesting half as deep), so
    // that check is left to the documents it declines.
    if (fast && fastDocument(text, start, end, docIndex, file, lines, out, positions)) {
      docIndex++;
      continue;
    }
    if (refused(start, end, 'document')) continue;
    const nextIndex = readSpan(start, end, docIndex);
    docIndex = nextIndex < 0 ? docIndex + 1 : nextIndex;
  }
  return docIndex;
}

const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** The first offset of [start, end) that is not blank, or start. */
function contentStart(text: string, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
  }
  return start;
}

/**
 * Parses the YAML in [start, end) of the text with its own parser (positions stay those of the whole text) and
 * hands each document to `handle`, numbered from `docIndex`; returns the next number.
 */
function parseDocumentSpan(
  text: string,
  start: number,
  end: number,
  docIndex: number,
  handle: (doc: Document.Parsed, index: number) => void,
): number {
  const parser = new Parser();
  parser.offset = start;
  const composer = new Composer(COMPOSER_OPTIONS);
  let index = docIndex;
  const each = (docs: Iterable<Document.Parsed>) => {
    for (const d of docs) handle(d, index++);
  };
  for (const lexeme of lenientLexer().lex(end - start === text.length ? text : text.slice(start, end)))
    for (const token of parser.next(lexeme)) each(composer.next(token));
  for (const token of parser.end()) each(composer.next(token));
  each(composer.end());
  return index;
}

class YamlRangeSource implements RangeSource<YNode> {
  constructor(private readonly r: YamlReader) {}
  get(n: YNode, key: string) {
    return this.r.get(n, key);
  }
  items(n: YNode) {
    return this.r.items(n);
  }
  nodeOffsets(n: YNode | undefined): [number, number] | undefined {
    const rg = n?.range;
    return rg ? [rg[0], rg[1]] : undefined;
  }
  fieldOffsets(n: YNode, key: string): [number, number] | undefined {
    const p = this.r.pair(n, key);
    if (!p) return undefined;
    const v = p.value as Node | null;
    if (v?.range && v.range[1] > v.range[0]) return [v.range[0], v.range[1]];
    const k = p.key as Node | null;
    return k?.range ? [k.range[0], k.range[1]] : undefined;
  }
}

/** Offsets of the `{{` of the document that are not in comment lines (at most a few hundred). */
function templateOffsets(text: string, start: number, end: number): number[] {
  const doc = text.slice(start, end);
  const out: number[] = [];
  for (let i = doc.indexOf('{{'); i >= 0 && out.length < 500; i = doc.indexOf('{{', i + 2)) {
    const lineStart = doc.lastIndexOf('\n', i) + 1;
    if (!/^\s*#/.test(doc.slice(lineStart, i))) out.push(start + i);
  }
  return out;
}

/**
 * One document read by the fast subset reader (yamlFast.ts): false, with nothing added, when it is outside the subset or
 * a value it needs cannot be given exactly; the `yaml` package then reads it, with the same results.
 */
function fastDocument(
  text: string,
  start: number,
  end: number,
  docIndex: number,
  file: string,
  lines: LineIndex,
  out: ParseResult,
  positions?: LazyPositions,
): boolean {
  const root = fastYamlDocument(text, start, end);
  if (!root) return false;
  const reader = new FastReader(text);
  const ex = new Extractor<FastNode>(reader, file);
  let ranges: FieldRanges[] | undefined;
  try {
    ex.document(root);
    ex.finish();
    if (!positions) ranges = ex.objects.map((e) => buildRanges(reader, e.node, lines));
  } catch {
    return false; // NeedsFullParse, or anything unforeseen: the `yaml` package reads it and says what is wrong
  }
  // An error in a document with a `{{` may be the template's: yamlDocument decides.
  if (ex.problems.some((p) => p.severity === 'error') && text.slice(start, end).includes('{{')) return false;
  for (const p of capProblems(ex.problems)) {
    const off = reader.nodeOffsets(p.node) ?? [root.start, root.start];
    out.problems.push(makeProblem(file, p.severity, p.code, p.message, lines.range(off[0], off[1])));
  }
  ex.objects.forEach((e, i) => {
    e.object.source = ranges
      ? { file, docIndex, itemPath: e.itemPath, ranges: ranges[i] }
      : positions!.source(docIndex, e.itemPath, { start, end, firstDocIndex: docIndex, fast: true });
    out.objects.push(e.object);
  });
  return true;
}

/** Items of a large List read on their own (yamlList.ts): the index of the first, the List, and how many were read. */
interface ListItems {
  first: number;
  list: LargeList;
  read(count: number): void;
}

/**
 * `textEnd`: where this document's text ends (the next document's `---`). `items`: the document is some items of a
 * large List, as a sequence (otherwise a whole document).
 */
function yamlDocument(
  doc: Document.Parsed,
  docIndex: number,
  text: string,
  file: string,
  lines: LineIndex,
  out: ParseResult,
  textEnd: number,
  items?: ListItems,
  lazy?: { positions: LazyPositions; span: DocumentSpan },
): void {
  const [docStart, , docEnd] = doc.range;
  const templates = templateOffsets(text, docStart, docEnd);
  const templateAt = templates.length ? templates[0] : -1;
  const templateProblem = (at = templateAt) =>
    makeProblem(
      file,
      'error',
      'template',
      'This document contains a Helm/Go template expression ({{ … }}); render it first (helm template, or your templating tool) and load the output. The document was skipped.',
      lines.range(at, at + 2),
    );
  /**
   * A problem is blamed on a template when a `{{` is on its line, or when a `{{` starts a line (a block-level
   * `{{- if … }}`); `{{` inside an ordinary string elsewhere (alerting rules) is left alone.
   */
  const templateFor = (offsets: number[]): number | undefined => {
    const problemLines = new Set(offsets.map((o) => lines.position(o).line));
    return templates.find(
      (t) => problemLines.has(lines.position(t).line) || /^[ \t-]*$/.test(text.slice(text.lastIndexOf('\n', t - 1) + 1, t)),
    );
  };

  if (doc.errors.length) {
    const t = templates.length ? templateFor(doc.errors.map((e) => e.pos[0])) : undefined;
    if (t !== undefined) {
      out.problems.push(templateProblem(t));
      return;
    }
    const err = doc.errors[0];
    // An error at the end of the document's text (an unclosed `[`) is shown on its last character, not on the next
    // document's `---` line.
    let last = textEnd - 1;
    while (last > docStart && /\s/.test(text[last])) last--;
    const at = Math.min(err.pos[0], last);
    const range = lines.range(at, Math.max(at + 1, Math.min(err.pos[1], last + 1)));
    if (err.code === 'RESOURCE_EXHAUSTION') {
      out.problems.push(makeProblem(file, 'error', 'too-deep', 'This document is nested too deeply to be read, so it was skipped.', range));
      return;
    }
    const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more error${doc.errors.length > 2 ? 's' : ''})` : '';
    const msg = err.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').replace(/\.$/, '');
    out.problems.push(makeProblem(file, 'error', 'yaml-syntax', `YAML syntax error: ${msg}${more}; the document was skipped.`, range));
    return;
  }
  const root = doc.contents as Node | null;
  if (!root) return;

  const audit = auditDocument(root, { lookForTemplates: templateAt >= 0 });
  if (audit.unresolved.length) {
    const a = audit.unresolved[0] as Node & { source?: string };
    const r = a.range ?? [docStart, docStart];
    out.problems.push(
      makeProblem(
        file,
        'error',
        'yaml-syntax',
        `YAML error: the alias *${a.source ?? ''} refers to an anchor that is not defined earlier in this document; the document was skipped.`,
        lines.range(r[0], r[1]),
      ),
    );
    return;
  }
  if (templateAt >= 0 && audit.templateShape) {
    out.problems.push(templateProblem());
    return;
  }
  if (audit.expanded > Math.max(MAX_EXPANDED_NODES, audit.nodes * 10)) {
    const where = lines.range(root.range?.[0] ?? docStart, root.range?.[0] ?? docStart);
    const reason =
      audit.expanded === Infinity
        ? 'This document has an alias inside its own anchor (a circular alias), so it was skipped.'
        : `This document's aliases would expand to about ${Math.round(audit.expanded).toLocaleString('en-US')} values from ${audit.nodes.toLocaleString('en-US')} written ones (an alias bomb), so it was skipped.`;
    out.problems.push(makeProblem(file, 'error', 'alias-limit', reason, where));
    return;
  }

  const reader = new YamlReader(audit.aliasTargets);
  const ex = new Extractor<YNode>(reader, file);
  if (items) items.read(ex.listItems(root, items.first, items.list));
  else ex.document(root);
  ex.finish();
  const errorOffsets = ex.problems.filter((p) => p.severity === 'error').map((p) => (p.node?.range ?? [docStart])[0]);
  const blamed = templates.length && errorOffsets.length ? templateFor(errorOffsets) : undefined;
  if (blamed !== undefined) {
    out.problems.push(templateProblem(blamed));
    return;
  }

  const src = new YamlRangeSource(reader);
  for (const d of audit.duplicates) {
    const inItem = pathTo(root, d.map);
    const path = items && typeof inItem[0] === 'number' ? ['items', items.first + inItem[0], ...inItem.slice(1)] : inItem;
    const where = path.length ? `${formatPath(path)} has` : 'This document has';
    const kr = d.keyNode?.range;
    out.problems.push(
      makeProblem(
        file,
        'warning',
        'duplicate-key',
        `${where} the key "${d.key}" more than once; the last value is used, as Kubernetes does.`,
        kr ? lines.range(kr[0], kr[1]) : ZERO_RANGE,
      ),
    );
  }
  for (const p of capProblems(ex.problems)) {
    const off = src.nodeOffsets(p.node ?? null) ?? [docStart, docStart];
    out.problems.push(makeProblem(file, p.severity, p.code, p.message, lines.range(off[0], off[1])));
  }
  for (const e of ex.objects) {
    e.object.source = lazy
      ? lazy.positions.source(docIndex, e.itemPath, lazy.span)
      : { file, docIndex, itemPath: e.itemPath, ranges: buildRanges(src, e.node, lines) };
    out.objects.push(e.object);
  }
}

/** The lazy positions of a YAML text: a document the fast reader declined is read again by the `yaml` path. */
function lazyPositions(text: string, file: string, lines: LineIndex): LazyPositions {
  return new LazyPositions(text, file, lines, (start, end, firstDocIndex) => {
    const out: ParseResult = { objects: [], problems: [] };
    withFastEnv(() => parseDocumentSpan(text, start, end, firstDocIndex, (doc, i) => yamlDocument(doc, i, text, file, lines, out, end)));
    return out.objects;
  });
}

// ---------------------------------------------------------------------------------------------------
// Positions on demand

/** The values resolveRanges locates in each object. */
const OBJECT_PATHS: readonly string[][] = [
  ['apiVersion'],
  ['kind'],
  ...['name', 'generateName', 'namespace', 'uid', 'deletionTimestamp'].map((k) => ['metadata', k]),
  ...['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'].map((k) => ['metadata', 'ownerReferences', '*', k]),
  ['metadata', 'finalizers', '*'],
];

/**
 * The values of these objects only (a finding's few in a List of 500,000 items): each object's item of a List
 * (`items`) or of an array, one level per entry of its itemPath.
 */
function wantOf(objects: KubeObject[]): Want {
  const root: Want = {};
  for (const o of objects) {
    let w = root;
    for (const i of o.source!.itemPath) {
      let next = w.index?.get(i);
      if (!next) {
        next = {};
        (w.index ??= new Map()).set(i, next);
        w.keys ??= new Map();
        let items = w.keys.get('items');
        if (!items) w.keys.set('items', (items = {}));
        (items.index ??= new Map()).set(i, next);
      }
      w = next;
    }
    for (const path of OBJECT_PATHS) addWant(w, path);
  }
  return root;
}

const pnodeSource: RangeSource<PNode> = {
  get: (n, key) => n.map?.get(key),
  items: (n) => n.list ?? [],
  nodeOffsets: (n) => (n ? [n.start, n.end] : undefined),
  fieldOffsets: (n, key) => {
    const c = n.map?.get(key);
    return c ? [c.start, c.end] : undefined;
  },
};

/** JSON objects are loaded with JSON.parse (fast) and have no `source.ranges`; this fills them in on demand from the same text. */
export function resolveRanges(text: string, objects: KubeObject[]): void {
  const todo = objects.filter((o) => o.source && !o.source.ranges);
  if (!todo.length) return;
  try {
    const jsonRoot = looksLikeJson(text, todo[0].source!.file) ? scanJson(text, wantOf(todo)) : undefined;
    if (jsonRoot) {
      const lines = LineIndex.of(text);
      for (const o of todo) {
        let n: PNode | undefined = jsonRoot;
        for (const i of o.source!.itemPath) n = n?.kind === 'seq' ? n.list?.[i] : n?.map?.get('items')?.list?.[i];
        if (n) o.source!.ranges = buildRanges(pnodeSource, n, lines);
      }
      return;
    }
    // YAML text (or JSON read as YAML): parse again and take the ranges of the same documents.
    const again = parseManifestText(text, todo[0].source!.file).objects;
    const key = (s: { docIndex: number; itemPath: number[] }) => `${s.docIndex}:${s.itemPath.join('.')}`;
    const byKey = new Map(again.map((o) => [key(o.source!), o.source!.ranges]));
    for (const o of todo) {
      const r = byKey.get(key(o.source!));
      if (r) o.source!.ranges = r;
    }
  } catch {
    // Positions are a convenience: leave them unknown rather than fail.
  }
}

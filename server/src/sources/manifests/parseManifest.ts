// Manifest text to KubeObjects (pure: text in, objects and located problems out; no file system).
//
// JSON goes through JSON.parse and reads only the fields the engine needs; positions are found later, on
// demand (resolveRanges). YAML goes through the `yaml` package one document at a time (YAML 1.2 core schema,
// as Kubernetes' decoder reads `- =` and unquoted timestamps: as strings), with positions filled eagerly.
// A bad document is reported where it is and skipped; every other document still loads. Nothing throws.

import { Composer, Parser, type CST, type Document, type Node } from 'yaml';

type Token = CST.Token;
import type { KubeObject, Range } from '../../engine/model';
import { Extractor, type PendingProblem } from './extract';
import { fastObject } from './fastJson';
import { addWant, locateJsonError, pnodeAt, scanJson, type PNode, type Want } from './jsonScan';
import { LineIndex, ZERO_RANGE } from './lineIndex';
import { buildRanges, type RangeSource } from './ranges';
import { formatPath, plainReader, YamlReader, type YNode } from './reader';
import { auditDocument, pathTo } from './yamlAudit';
import { lenientLexer } from './lenientLexer';

export interface LoadProblem {
  file: string;
  /** 1-based, for humans. */
  line: number;
  /** 1-based (UTF-16 code units), for humans. */
  column: number;
  severity: 'error' | 'warning' | 'info';
  code: LoadProblemCode;
  /** One clear sentence. */
  reason: string;
  /** 0-based, for the editor. */
  range?: Range;
}

export type LoadProblemCode =
  | 'yaml-syntax' | 'json-syntax' | 'not-kubernetes' | 'template' | 'wrong-type' | 'binary' | 'too-large'
  | 'too-deep' | 'alias-limit' | 'duplicate-key' | 'kind-inferred' | 'unreadable'
  /** A malformed garbage-collector graph dump (sources/gcDot). */
  | 'dot-syntax';

export interface ParseResult {
  objects: KubeObject[];
  problems: LoadProblem[];
}

/** More problems than this in one document are summarised in one extra line. */
const MAX_PROBLEMS_PER_DOCUMENT = 100;
/** Alias expansion beyond this (and beyond 10× the written size) is refused, as Kubernetes' decoder does. */
const MAX_EXPANDED_NODES = 100_000;
const COMPOSER_OPTIONS = { uniqueKeys: false, version: '1.2', schema: 'core', merge: false, intAsBigInt: false } as const;

export function makeProblem(file: string, severity: LoadProblem['severity'], code: LoadProblemCode, reason: string, range: Range = ZERO_RANGE): LoadProblem {
  return { file, line: range.start.line + 1, column: range.start.character + 1, severity, code, reason, range };
}

export function parseManifestText(text: string, file: string): ParseResult {
  const out: ParseResult = { objects: [], problems: [] };
  try {
    const head = text.length > 8192 ? text.slice(0, 8192) : text;
    if (head.includes('\u0000')) {
      out.problems.push(makeProblem(file, 'error', 'binary', 'This file looks binary (it contains NUL bytes), so it was not read as YAML or JSON.'));
      return out;
    }
    if (looksLikeJson(text, file) && parseJson(text, file, out)) return out;
    parseYaml(text, file, out);
  } catch (e) {
    out.problems.push(internalProblem(file, e, ZERO_RANGE));
  }
  return out;
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
function parseJson(text: string, file: string, out: ParseResult): boolean {
  const bom = text.charCodeAt(0) === 0xfeff;
  let value: unknown;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch (e) {
    if (!isJsonFile(file)) return false;
    if (firstNonSpace(text) === undefined) return true; // an empty .json file holds nothing
    const loc = locateJsonError(text) ?? { offset: 0, message: e instanceof Error ? e.message : String(e) };
    const lines = LineIndex.of(text);
    out.problems.push(makeProblem(file, 'error', 'json-syntax', `This file is not valid JSON: ${loc.message}.`, lines.range(loc.offset, loc.offset + 1)));
    return true;
  }
  const ex = new Extractor(plainReader, file, fastObject);
  ex.document(value);
  ex.finish();
  for (const e of ex.objects) {
    e.object.source = { file, docIndex: 0, itemPath: e.itemPath };
    out.objects.push(e.object);
  }
  if (ex.problems.length) out.problems.push(...locateJsonProblems(text, file, capProblems(ex.problems)));
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
  kept.push({ ...rest[0], severity: worst, message: `${rest.length} more problems in this document are not listed (the next one: ${rest[0].message})` });
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
    const env = Object.create(saved) as NodeJS.ProcessEnv;
    env.LOG_TOKENS = saved.LOG_TOKENS;
    env.LOG_STREAM = saved.LOG_STREAM;
    process.env = env;
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

/** Nested structures beyond what the parser's recursion allows are cut out this many times per file at most. */
const MAX_RECOVERIES = 20;
const DOC_MARKER = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm;

/** The text with [start, end) replaced by spaces, keeping line breaks (so every offset stays the same). */
function blankOut(text: string, start: number, end: number): string {
  return text.slice(0, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ') + text.slice(end);
}

function parseYaml(text: string, file: string, out: ParseResult): void {
  const lines = LineIndex.of(text);
  let docIndex = 0;
  let source = text;
  /** Documents starting before this offset were handled by an earlier pass. */
  let startAt = 0;
  withFastEnv(() => {
    for (let attempt = 0; ; attempt++) {
      let lastDocEnd = startAt;
      const handle = (doc: Document.Parsed) => {
        if (doc.range[0] < startAt) return;
        const index = docIndex++;
        lastDocEnd = Math.max(lastDocEnd, doc.range[2]);
        try {
          yamlDocument(doc, index, text, file, lines, out);
        } catch (e) {
          out.problems.push(internalProblem(file, e, lines.range(doc.range[0], doc.range[0])));
        }
      };
      const parser = new Parser();
      const lexer = lenientLexer();
      let composer = new Composer(COMPOSER_OPTIONS);
      const onToken = (token: Token) => {
        try {
          // Flush the previous document first, so that a failure on this one cannot lose it.
          if (token.type === 'document') for (const d of composer.end()) handle(d);
          for (const d of composer.next(token)) handle(d);
        } catch (e) {
          const offset = 'offset' in token ? token.offset : 0;
          out.problems.push(internalProblem(file, e, lines.range(offset, offset)));
          composer = new Composer(COMPOSER_OPTIONS);
          docIndex++;
        }
      };
      try {
        for (const lexeme of lexer.lex(source)) for (const token of parser.next(lexeme)) onToken(token);
        for (const token of parser.end()) onToken(token);
        for (const d of composer.end()) handle(d);
        return;
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        // The parser itself ran out of stack inside one document: keep what came before, cut that document out
        // (up to the next document marker) and read the rest again.
        for (const d of composer.end()) handle(d);
        const failedAt = Math.max(lastDocEnd, (parser as unknown as { offset?: number }).offset ?? lastDocEnd);
        DOC_MARKER.lastIndex = failedAt;
        let badEnd = source.length;
        for (let m = DOC_MARKER.exec(source); m; m = DOC_MARKER.exec(source)) {
          // The parser can fail on the marker that ends the deep document (closing every level at once).
          if (m.index >= failedAt && m.index > lastDocEnd) {
            badEnd = m.index;
            break;
          }
        }
        let badStart = lastDocEnd;
        while (badStart < badEnd && /\s/.test(source[badStart])) badStart++;
        out.problems.push(makeProblem(file, 'error', 'too-deep', 'This document is nested too deeply to be read, so it was skipped.', lines.range(badStart, badStart)));
        docIndex++;
        if (attempt >= MAX_RECOVERIES || badEnd >= source.length) return;
        source = blankOut(source, lastDocEnd, badEnd);
        startAt = badEnd;
      }
    }
  });
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

function yamlDocument(doc: Document.Parsed, docIndex: number, text: string, file: string, lines: LineIndex, out: ParseResult): void {
  const [docStart, , docEnd] = doc.range;
  const templates = templateOffsets(text, docStart, docEnd);
  const templateAt = templates.length ? templates[0] : -1;
  const templateProblem = (at = templateAt) =>
    makeProblem(file, 'error', 'template', 'This document contains a Helm/Go template expression ({{ … }}); render it first (helm template, or your templating tool) and load the output. The document was skipped.', lines.range(at, at + 2));
  /**
   * A problem is blamed on a template when a `{{` is on its line, or when a `{{` starts a line (a block-level
   * `{{- if … }}`); `{{` inside an ordinary string elsewhere (alerting rules) is left alone.
   */
  const templateFor = (offsets: number[]): number | undefined => {
    const problemLines = new Set(offsets.map((o) => lines.position(o).line));
    return templates.find((t) => problemLines.has(lines.position(t).line) || /^[ \t-]*$/.test(text.slice(text.lastIndexOf('\n', t - 1) + 1, t)));
  };

  if (doc.errors.length) {
    const t = templates.length ? templateFor(doc.errors.map((e) => e.pos[0])) : undefined;
    if (t !== undefined) {
      out.problems.push(templateProblem(t));
      return;
    }
    const err = doc.errors[0];
    const range = lines.range(err.pos[0], err.pos[1]);
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
    out.problems.push(makeProblem(file, 'error', 'yaml-syntax', `YAML error: the alias *${a.source ?? ''} refers to an anchor that is not defined earlier in this document; the document was skipped.`, lines.range(r[0], r[1])));
    return;
  }
  if (templateAt >= 0 && audit.templateShape) {
    out.problems.push(templateProblem());
    return;
  }
  if (audit.expanded > Math.max(MAX_EXPANDED_NODES, audit.nodes * 10)) {
    const where = lines.range(root.range?.[0] ?? docStart, root.range?.[0] ?? docStart);
    const reason = audit.expanded === Infinity
      ? 'This document has an alias inside its own anchor (a circular alias), so it was skipped.'
      : `This document's aliases would expand to about ${Math.round(audit.expanded).toLocaleString('en-US')} values from ${audit.nodes.toLocaleString('en-US')} written ones (an alias bomb), so it was skipped.`;
    out.problems.push(makeProblem(file, 'error', 'alias-limit', reason, where));
    return;
  }

  const reader = new YamlReader(audit.aliasTargets);
  const ex = new Extractor<YNode>(reader, file);
  ex.document(root);
  ex.finish();
  const errorOffsets = ex.problems.filter((p) => p.severity === 'error').map((p) => (p.node?.range ?? [docStart])[0]);
  const blamed = templates.length && errorOffsets.length ? templateFor(errorOffsets) : undefined;
  if (blamed !== undefined) {
    out.problems.push(templateProblem(blamed));
    return;
  }

  const src = new YamlRangeSource(reader);
  for (const d of audit.duplicates) {
    const path = pathTo(root, d.map);
    const where = path.length ? `${formatPath(path)} has` : 'This document has';
    const kr = d.keyNode?.range;
    out.problems.push(makeProblem(file, 'warning', 'duplicate-key', `${where} the key "${d.key}" more than once; the last value is used, as Kubernetes does.`, kr ? lines.range(kr[0], kr[1]) : ZERO_RANGE));
  }
  for (const p of capProblems(ex.problems)) {
    const off = src.nodeOffsets(p.node ?? null) ?? [docStart, docStart];
    out.problems.push(makeProblem(file, p.severity, p.code, p.message, lines.range(off[0], off[1])));
  }
  for (const e of ex.objects) {
    e.object.source = { file, docIndex, itemPath: e.itemPath, ranges: buildRanges(src, e.node, lines) };
    out.objects.push(e.object);
  }
}

// ---------------------------------------------------------------------------------------------------
// Positions on demand

/** The values resolveRanges locates in each object. */
function objectWant(): Want {
  const w: Want = {};
  for (const k of ['apiVersion', 'kind']) addWant(w, [k]);
  for (const k of ['name', 'generateName', 'namespace', 'uid', 'deletionTimestamp']) addWant(w, ['metadata', k]);
  for (const k of ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']) addWant(w, ['metadata', 'ownerReferences', '*', k]);
  addWant(w, ['metadata', 'finalizers', '*']);
  return w;
}

/** Wanted values of objects nested `depth` levels in Lists or arrays. */
function nestedWant(depth: number): Want {
  const w = objectWant();
  if (depth > 0) {
    const inner = nestedWant(depth - 1);
    w.items = inner;
    (w.keys ??= new Map()).set('items', { items: inner });
  }
  return w;
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
    const jsonRoot = looksLikeJson(text, todo[0].source!.file) ? scanWhole(text, todo) : undefined;
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

function scanWhole(text: string, objects: KubeObject[]): PNode | undefined {
  const depth = Math.max(0, ...objects.map((o) => o.source!.itemPath.length));
  return scanJson(text, nestedWant(depth));
}

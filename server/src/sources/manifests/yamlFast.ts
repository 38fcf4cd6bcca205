// A fast reader for the plain block YAML that tools write (kubectl, helm template, kustomize): block mappings and
// sequences, one-line scalars, `{}` and `[]`, block scalars. It gives the nodes, values and ranges the `yaml` package
// would give for the same text (plain scalars resolved by that package's own core schema), or undefined as soon as
// anything is outside that subset (anchors, tags, flow collections with content, multi-line plain or quoted scalars,
// duplicate keys, comment lines inside the document, tabs, CR line endings, anything the package would report as an
// error); the caller then parses the document with the `yaml` package (as it does for a document with a template's
// `{{` whose reading found an error, which the `yaml` path blames on the template). A value it cannot give
// exactly (a block scalar's text, a double-quoted escape JSON does not share) throws NeedsFullParse when read, with
// the same outcome. Why and what it gains: docs/adr/0035-a-fast-reader-for-plain-yaml.md.

import { isScalar, Schema } from 'yaml';
import type { RangeSource } from './ranges';
import type { Reader, ValueKind } from './reader';

export class NeedsFullParse extends Error {}

/** Offsets as the `yaml` package's node.range has them: [start, end, after] (after: its trailing comment and line break). */
interface Span {
  start: number;
  end: number;
  after: number;
}
export interface FastScalar extends Span {
  readonly t: 's';
  /** 0 plain, 1 single-quoted, 2 double-quoted, 3 block scalar, 4 empty (null), 5 multi-line plain, 6 multi-line quoted. */
  readonly style: 0 | 1 | 2 | 3 | 4 | 5 | 6;
  /** The value once read (`unread` before). */
  value: unknown;
}
export interface FastMap extends Span {
  readonly t: 'm';
  readonly keys: string[];
  /** Start and end of each key, in pairs. */
  readonly keySpans: number[];
  readonly values: FastNode[];
}
export interface FastSeq extends Span {
  readonly t: 'q';
  readonly items: FastNode[];
}
export type FastNode = FastScalar | FastMap | FastSeq;

const unread = Symbol('unread');
const scalar = (style: FastScalar['style'], start: number, end: number, after: number): FastScalar => ({
  t: 's',
  style,
  start,
  end,
  after,
  value: unread,
});
const newMap = (start: number): FastMap => ({ t: 'm', start, end: start, after: start, keys: [], keySpans: [], values: [] });
const newSeq = (start: number): FastSeq => ({ t: 'q', start, end: start, after: start, items: [] });

/** Nesting beyond this is left to the `yaml` path, which refuses it past MAX_YAML_DEPTH (256) with a located problem. */
const MAX_FAST_DEPTH = 128;

/**
 * Refused before any line is read: tabs, CRs, BOMs, characters YAML does not allow (the `yaml` path locates them) and
 * line separators.
 */
const REFUSED = /[\x00-\x09\x0B-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]/;

/** A document's root node, or undefined when the text is outside the subset (or holds no node). */
export function fastYamlDocument(text: string, start: number, end: number): FastNode | undefined {
  if (REFUSED.test(start === 0 && end === text.length ? text : text.slice(start, end))) return undefined;
  try {
    return new Scanner(text, start, end).document();
  } catch (e) {
    if (e instanceof NeedsFullParse) return undefined;
    throw e;
  }
}

const bail = (): never => {
  throw new NeedsFullParse();
};

const SP = 32;
const NL = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;

/** Characters a plain scalar may not start with (YAML's c-indicators; `-?:` are handled apart). */
const INDICATOR_START = new Set([...',[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));

class Scanner {
  /** Start of the current line. */
  private line: number;
  /** Indentation of the current content line and where its content starts (-1: no more content). */
  private indent = 0;
  private content = 0;
  private inRoot = false;

  constructor(
    private readonly s: string,
    start: number,
    private readonly end: number,
  ) {
    this.line = start;
  }

  document(): FastNode | undefined {
    const s = this.s;
    this.seekContent();
    // The span starts at its `---` line, which may only be followed by spaces or a comment.
    if (this.content >= 0 && this.indent === 0 && s.startsWith('---', this.content)) {
      if (!this.lineRestBlank(this.content + 3)) bail();
      this.nextLine();
      this.seekContent();
    }
    if (this.content < 0) return undefined; // nothing but comments: the `yaml` package says what that is
    const c = s.charCodeAt(this.content);
    if (c === 37 /* % directive */ || c === 46 /* . */) bail();
    this.inRoot = true;
    const root = this.block(this.indent, -1, 0);
    this.seekContent();
    if (this.content >= 0) bail(); // something after the root: less indented, or a `...`
    return root;
  }

  // ---------------------------------------------------------------------------------------------- lines

  private lineEnd(from: number): number {
    const nl = this.s.indexOf('\n', from);
    return nl < 0 || nl >= this.end ? this.end : nl;
  }

  private nextLine(): void {
    const nl = this.s.indexOf('\n', this.line);
    this.line = nl < 0 || nl >= this.end ? this.end : nl + 1;
  }

  /** Offset just past the line break of the line holding `from` (or the end). */
  private afterLine(from: number): number {
    const e = this.lineEnd(from);
    return e < this.end ? e + 1 : e;
  }

  /**
   * From the current line on, skips blank lines, and comment lines before the root (after it, where the `yaml`
   * package puts a comment line in the ranges depends on its indentation: such a document is left to that package).
   */
  private seekContent(): void {
    const s = this.s;
    while (this.line < this.end) {
      let i = this.line;
      while (i < this.end && s.charCodeAt(i) === SP) i++;
      const c = i < this.end ? s.charCodeAt(i) : NL;
      if (c === HASH && this.inRoot) bail();
      if (c !== NL && c !== HASH) {
        this.indent = i - this.line;
        this.content = i;
        return;
      }
      this.nextLine();
    }
    this.content = -1;
  }

  /** Whether [from, line end) is blank or a comment (`#` after a space). */
  private lineRestBlank(from: number): boolean {
    const s = this.s;
    const e = this.lineEnd(from);
    let i = from;
    while (i < e && s.charCodeAt(i) === SP) i++;
    if (i === e) return true;
    return s.charCodeAt(i) === HASH && i > from;
  }

  private isSpaceOrEol(i: number): boolean {
    if (i >= this.end) return true;
    const c = this.s.charCodeAt(i);
    return c === SP || c === NL;
  }

  private atDash(): boolean {
    return this.s.charCodeAt(this.content) === DASH && this.isSpaceOrEol(this.content + 1);
  }

  // ---------------------------------------------------------------------------------------------- nodes

  /** The block node starting at the current line's content (column `indent`); `parent`: its parent's column. */
  private block(indent: number, parent: number, depth: number): FastNode {
    if (indent <= parent || depth > MAX_FAST_DEPTH) bail();
    if (this.atDash()) return this.seq(indent, depth);
    // A key's value on the lines below it may be a scalar (a long description) rather than a mapping.
    return this.keyEnd(this.content) < 0 ? this.inlineValue(this.content, parent) : this.map(indent, this.content, depth);
  }

  /** An empty value at `i` (the `yaml` package's null scalar: a comment after it is part of its range). */
  private emptyAt(i: number): FastScalar {
    return scalar(4, i, i, i < this.end && this.s.charCodeAt(i) === HASH ? this.afterLine(i) : i);
  }

  private seq(indent: number, depth: number): FastSeq {
    const s = this.s;
    const node = newSeq(this.content);
    const items = node.items;
    for (;;) {
      let i = this.content + 1;
      while (i < this.end && s.charCodeAt(i) === SP) i++;
      const e = this.lineEnd(i);
      if (i === e) {
        // `-` alone: the item is on the next lines, more indented, or empty.
        this.nextLine();
        this.seekContent();
        items.push(this.content >= 0 && this.indent > indent ? this.block(this.indent, indent, depth + 1) : this.emptyAt(i));
      } else {
        const c = s.charCodeAt(i);
        if (c === HASH) bail();
        if (c === DASH && this.isSpaceOrEol(i + 1)) bail(); // `- - x`
        if (this.keyEnd(i) >= 0) {
          // `- key: value`: a mapping whose keys are at the column of the first.
          const col = i - this.line;
          this.indent = col;
          this.content = i;
          items.push(this.map(col, i, depth + 1));
        } else {
          items.push(this.inlineValue(i, indent));
        }
      }
      if (this.content < 0 || this.indent < indent) break;
      if (this.indent > indent) bail();
      if (!this.atDash()) break; // the parent mapping's next key
    }
    node.end = node.after = items[items.length - 1].after;
    return node;
  }

  private map(indent: number, first: number, depth: number): FastMap {
    const s = this.s;
    const node = newMap(first);
    let at = first;
    for (;;) {
      const colon = this.keyEnd(at);
      if (colon < 0) bail();
      const key = this.key(at, colon, node.keySpans);
      if (node.keys.includes(key)) bail(); // duplicates: the `yaml` path reports them
      node.keys.push(key);
      let i = colon + 1;
      while (i < this.end && s.charCodeAt(i) === SP) i++;
      const e = this.lineEnd(i);
      let value: FastNode;
      if (i === e || s.charCodeAt(i) === HASH) {
        // The value is on the next lines: more indented, or a sequence at this column; otherwise empty.
        this.nextLine();
        this.seekContent();
        if (this.content >= 0 && this.indent > indent) value = this.block(this.indent, indent, depth + 1);
        else if (this.content >= 0 && this.indent === indent && this.atDash()) value = this.seq(indent, depth + 1);
        else value = this.emptyAt(i);
      } else {
        value = this.inlineValue(i, indent);
      }
      node.values.push(value);
      if (this.content < 0 || this.indent < indent) break;
      if (this.indent > indent) bail();
      at = this.content;
      if (this.atDash()) bail(); // a `-` among the keys
    }
    node.end = node.after = node.values[node.values.length - 1].after;
    return node;
  }

  /**
   * Where the implicit key starting at `i` ends (its `:`, followed by a space or the line's end), or -1 when the line
   * is not `key:` (a plain scalar). Quoted keys are read whole.
   */
  private keyEnd(i: number): number {
    const s = this.s;
    const e = this.lineEnd(i);
    const c = s.charCodeAt(i);
    if (c === 34 || c === 39) {
      const close = this.closingQuote(i, e);
      return close >= 0 && s.charCodeAt(close + 1) === COLON && (close + 2 === e || s.charCodeAt(close + 2) === SP) ? close + 1 : -1;
    }
    for (let j = i; j < e; j++) {
      if (s.charCodeAt(j) === COLON && (j + 1 === e || s.charCodeAt(j + 1) === SP)) return j;
    }
    return -1;
  }

  /** The offset of the quote closing the one at `i` on the same line, or -1. */
  private closingQuote(i: number, e: number): number {
    const s = this.s;
    const q = s.charCodeAt(i);
    for (let j = i + 1; j < e; j++) {
      const c = s.charCodeAt(j);
      if (q === 39) {
        if (c !== 39) continue;
        if (j + 1 < e && s.charCodeAt(j + 1) === 39) j++;
        else return j;
      } else if (c === 92) j++;
      else if (c === 34) return j;
    }
    return -1;
  }

  /** The key [at, colon) as a string; its span is added to `keySpans` of the map being read by the caller. */
  private key(at: number, colon: number, spans: number[]): string {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (colon - at > 1000) bail(); // the `yaml` package refuses implicit keys over 1024 characters
    if (c === 34 || c === 39) {
      spans.push(at, colon);
      return scalarValue(s, scalar(c === 39 ? 1 : 2, at, colon, colon)) as string;
    }
    let end = colon;
    while (end > at && s.charCodeAt(end - 1) === SP) end--;
    this.checkPlain(at, end);
    spans.push(at, end);
    const raw = s.slice(at, end);
    // `1:`, `true:`, `null:`: keys the `yaml` path turns into strings its own way.
    if (!plainIsString(raw)) bail();
    return raw;
  }

  /** Refuses a plain scalar [at, end) that would not be one (an indicator first, a comment or `: ` inside). */
  private checkPlain(at: number, end: number): void {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (at >= end || INDICATOR_START.has(c)) bail();
    if ((c === DASH || c === 63 /* ? */ || c === COLON) && (at + 1 >= end || s.charCodeAt(at + 1) === SP)) bail();
    const text = s.slice(at, end);
    if (text.includes(' #') || text.includes(': ') || text.endsWith(':')) bail();
  }

  /**
   * A value starting on its key's (or dash's) line at `i`: a scalar, `{}`, `[]` or a block scalar. Leaves the scanner
   * at the next content line, which must be no more indented than `parent` (else it continues the value, or is wrong).
   */
  private inlineValue(i: number, parent: number): FastNode {
    const s = this.s;
    const e = this.lineEnd(i);
    const c = s.charCodeAt(i);
    let node: FastNode;
    if (c === 124 /* | */ || c === 62 /* > */) return this.blockScalar(i, parent);
    if (c === 34 || c === 39) {
      const close = this.closingQuote(i, e);
      if (close < 0) return this.quotedLines(i, parent);
      if (!this.lineRestBlank(close + 1)) bail();
      node = scalar(c === 39 ? 1 : 2, i, close + 1, this.afterLine(i));
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (s.charCodeAt(i + 1) !== (c === 123 ? 125 : 93) || !this.lineRestBlank(i + 2)) bail();
      node = c === 123 ? newMap(i) : newSeq(i);
      node.end = i + 2;
      node.after = this.afterLine(i);
    } else {
      let end = e;
      for (let j = i + 1; j < e; j++) {
        if (s.charCodeAt(j) === HASH && s.charCodeAt(j - 1) === SP) {
          end = j;
          break;
        }
      }
      while (end > i && s.charCodeAt(end - 1) === SP) end--;
      this.checkPlain(i, end);
      node = scalar(0, i, end, this.afterLine(i));
      if (end === e || s.charCodeAt(end) === SP) return this.plainLines(node, parent);
    }
    this.nextLine();
    this.seekContent();
    if (this.content >= 0 && this.indent > parent) bail(); // a continuation line, or an error
    return node;
  }

  /**
   * A quoted scalar over several lines (go-yaml breaks long ones; its continuation lines may be less indented, as
   * lenientLexer.ts accepts): always a string, whose text is not read here (NeedsFullParse if asked for).
   */
  private quotedLines(i: number, parent: number): FastScalar {
    const s = this.s;
    const close = this.closingQuote(i, this.end);
    if (close < 0) bail();
    // A document marker inside ends it early in the `yaml` path.
    for (let nl = s.indexOf('\n', i); nl >= 0 && nl < close; nl = s.indexOf('\n', nl + 1)) {
      if ((s.startsWith('...', nl + 1) || s.startsWith('---', nl + 1)) && this.isSpaceOrEol(nl + 4)) bail();
    }
    if (!this.lineRestBlank(close + 1)) bail();
    const node = scalar(6, i, close + 1, this.afterLine(close));
    this.line = this.lineStart(close);
    this.nextLine();
    this.seekContent();
    if (this.content >= 0 && this.indent > parent) bail();
    return node;
  }

  private lineStart(at: number): number {
    return this.s.lastIndexOf('\n', at - 1) + 1;
  }

  /**
   * The lines that continue a plain scalar (more indented than its parent): a multi-line plain scalar is always a
   * string (its lines are joined with spaces), whose text is not read here (NeedsFullParse if asked for).
   */
  private plainLines(first: FastScalar, parent: number): FastScalar {
    const s = this.s;
    let node = first;
    for (;;) {
      this.nextLine();
      this.seekContent();
      if (this.content < 0 || this.indent <= parent) return node;
      if (node === first && s.charCodeAt(first.end) === SP && !this.lineRestBlank(first.end)) bail(); // a comment ended it
      const at = this.content;
      const e = this.lineEnd(at);
      let end = e;
      while (end > at && s.charCodeAt(end - 1) === SP) end--;
      const c = s.charCodeAt(at);
      if ((c === DASH || c === 63 /* ? */ || c === COLON) && (at + 1 === end || s.charCodeAt(at + 1) === SP)) bail();
      const text = s.slice(at, end);
      if (text.includes(' #') || text.includes(': ') || text.endsWith(':')) bail();
      node = scalar(5, first.start, end, this.afterLine(at));
    }
  }

  /** `|` or `>`, with an optional `-` (strip): its text is not read here (NeedsFullParse if asked for). */
  private blockScalar(i: number, parent: number): FastScalar {
    const s = this.s;
    let h = i + 1;
    if (s.charCodeAt(h) === DASH) h++;
    if (!this.lineRestBlank(h)) bail(); // `+`, an explicit indentation, or text after the header
    let end = this.afterLine(i);
    this.nextLine();
    // Content lines: blank ones, and those at least as indented as the first non-blank one.
    let contentIndent = -1;
    let maxBlankIndent = 0;
    while (this.line < this.end) {
      let j = this.line;
      while (j < this.end && s.charCodeAt(j) === SP) j++;
      const ind = j - this.line;
      if (j === this.lineEnd(j)) {
        if (contentIndent < 0) maxBlankIndent = Math.max(maxBlankIndent, ind);
        this.nextLine();
        continue;
      }
      if (contentIndent < 0) {
        if (ind <= parent || ind < maxBlankIndent) bail(); // empty, or leading spaces the `yaml` package refuses
        contentIndent = ind;
      } else if (ind < contentIndent) break;
      end = this.afterLine(j);
      this.nextLine();
    }
    if (contentIndent < 0) bail();
    this.seekContent();
    if (this.content >= 0 && this.indent > parent) bail();
    return scalar(3, i, end, end);
  }
}

// ---------------------------------------------------------------------------------------------------- values

type Tag = Schema['tags'][number];
const CORE_TAGS = new Schema({ schema: 'core', merge: false }).tags.filter(
  (t): t is Tag & { test: RegExp } => t.default === true && t.test instanceof RegExp,
);
const RESOLVE_OPTIONS = { intAsBigInt: false } as unknown as Parameters<NonNullable<Tag['resolve']>>[2];

/** Whether the core schema reads a plain scalar as a string (most keys: no schema test needed). */
function plainIsString(raw: string): boolean {
  const c = raw.charCodeAt(0);
  const maybeOther =
    (c >= 48 && c <= 57) ||
    c === 43 ||
    c === 45 ||
    c === 46 ||
    c === 126 ||
    (raw.length <= 5 && /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(raw));
  return !maybeOther || typeof resolvePlain(raw) === 'string';
}

function resolvePlain(raw: string): unknown {
  const tag = CORE_TAGS.find((t) => t.test.test(raw));
  if (!tag?.resolve) return raw;
  let failed = false;
  const v = tag.resolve(raw, () => (failed = true), RESOLVE_OPTIONS);
  if (failed) bail();
  return isScalar(v) ? v.value : v; // booleans come wrapped, as the composer takes them
}

/** A scalar's value as the `yaml` package's core schema resolves it. */
export function scalarValue(s: string, n: FastScalar): unknown {
  if (n.value !== unread) return n.value;
  let v: unknown;
  const raw = s.slice(n.start, n.end);
  switch (n.style) {
    case 4:
      v = null;
      break;
    case 3:
    case 5:
    case 6:
      return bail();
    case 1:
      v = raw.slice(1, -1).replace(/''/g, "'");
      break;
    case 2:
      if (!raw.includes('\\')) v = raw.slice(1, -1);
      else {
        try {
          v = JSON.parse(raw); // JSON's escapes mean the same in YAML; YAML's others are left to the `yaml` package
        } catch {
          return bail();
        }
      }
      break;
    default:
      v = resolvePlain(raw);
  }
  n.value = v;
  return v;
}

/** The extractor's view of fast nodes (and their ranges); a value it cannot give exactly throws NeedsFullParse. */
export class FastReader implements Reader<FastNode>, RangeSource<FastNode> {
  readonly flavour = 'yaml' as const;
  constructor(private readonly s: string) {}

  kind(n: FastNode | undefined): ValueKind | 'absent' {
    if (n === undefined) return 'absent';
    if (n.t === 'm') return 'map';
    if (n.t === 'q') return 'seq';
    if (n.style === 3 || n.style >= 5) return 'string';
    const v = scalarValue(this.s, n);
    switch (typeof v) {
      case 'string':
        return 'string';
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      default:
        return v === null ? 'null' : 'other';
    }
  }

  get(n: FastNode, key: string): FastNode | undefined {
    if (n.t !== 'm') return undefined;
    const i = n.keys.indexOf(key);
    return i < 0 ? undefined : n.values[i];
  }

  items(n: FastNode): readonly FastNode[] {
    return n.t === 'q' ? n.items : [];
  }

  entries(n: FastNode): [string, FastNode][] {
    return n.t === 'm' ? n.keys.map((k, i): [string, FastNode] => [k, n.values[i]]) : [];
  }

  value(n: FastNode): unknown {
    return n.t === 's' ? scalarValue(this.s, n) : null;
  }

  nodeOffsets(n: FastNode | undefined): [number, number] | undefined {
    return n ? [n.start, n.end] : undefined;
  }

  fieldOffsets(n: FastNode, key: string): [number, number] | undefined {
    if (n.t !== 'm') return undefined;
    const i = n.keys.indexOf(key);
    if (i < 0) return undefined;
    const v = n.values[i];
    return v.end > v.start ? [v.start, v.end] : [n.keySpans[2 * i], n.keySpans[2 * i + 1]];
  }
}

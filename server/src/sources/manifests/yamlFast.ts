// A fast reader for the plain block YAML that tools write (kubectl, helm template, kustomize): block mappings and
// sequences, one-line scalars, `{}` and `[]`, block scalars. It gives the nodes, values and ranges the `yaml` package
// would give for the same text (plain scalars resolved by that package's own core schema), or undefined as soon as
// anything is outside that subset (anchors, tags, flow collections with content, multi-line plain or quoted scalars,
// duplicate keys, comment lines inside the document, tabs, CR line endings, a template's `{{`, anything the package
// would report as an error); the caller then parses the document with the `yaml` package. A value it cannot give
// exactly (a block scalar's text, a double-quoted escape JSON does not share) throws NeedsFullParse when read, with
// the same outcome. Why and what it gains: docs/adr/0034-fast-yaml-subset.md.

import { isScalar, Schema } from 'yaml';
import type { RangeSource } from './ranges';
import type { Reader, ValueKind } from './reader';

export class NeedsFullParse extends Error {}

export type FastRange = [number, number, number];

export interface FastScalar {
  readonly t: 's';
  range: FastRange;
  /** 0 plain, 1 single-quoted, 2 double-quoted, 3 block scalar, 4 empty (null). */
  readonly style: 0 | 1 | 2 | 3 | 4;
}
export interface FastMap {
  readonly t: 'm';
  range: FastRange;
  readonly keys: string[];
  readonly keyNodes: FastScalar[];
  readonly values: FastNode[];
}
export interface FastSeq {
  readonly t: 'q';
  range: FastRange;
  readonly items: FastNode[];
}
export type FastNode = FastScalar | FastMap | FastSeq;

/** Refused before any line is read: cheaper than finding these line by line. */
const REFUSED = /[\t\r\uFEFF]|\{\{/;

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
    const root = this.block(this.indent, -1);
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
  private block(indent: number, parent: number): FastNode {
    if (indent <= parent) bail();
    return this.atDash() ? this.seq(indent) : this.map(indent, this.content);
  }

  /** An empty value at `i` (the `yaml` package's null scalar: a comment after it is part of its range). */
  private emptyAt(i: number): FastScalar {
    const range: FastRange = [i, i, i];
    if (i < this.end && this.s.charCodeAt(i) === HASH) range[2] = this.afterLine(i);
    return { t: 's', range, style: 4 };
  }

  private seq(indent: number): FastSeq {
    const s = this.s;
    const items: FastNode[] = [];
    const node: FastSeq = { t: 'q', range: [this.content, 0, 0], items };
    for (;;) {
      let i = this.content + 1;
      while (i < this.end && s.charCodeAt(i) === SP) i++;
      const e = this.lineEnd(i);
      if (i === e) {
        // `-` alone: the item is on the next lines, more indented, or empty.
        this.nextLine();
        this.seekContent();
        items.push(this.content >= 0 && this.indent > indent ? this.block(this.indent, indent) : this.emptyAt(i));
      } else {
        const c = s.charCodeAt(i);
        if (c === HASH) bail();
        if (c === DASH && this.isSpaceOrEol(i + 1)) bail(); // `- - x`
        if (this.keyEnd(i) >= 0) {
          // `- key: value`: a mapping whose keys are at the column of the first.
          const col = i - this.line;
          this.indent = col;
          this.content = i;
          items.push(this.map(col, i));
        } else {
          items.push(this.inlineValue(i, indent));
        }
      }
      if (this.content < 0 || this.indent < indent) break;
      if (this.indent > indent) bail();
      if (!this.atDash()) break; // the parent mapping's next key
    }
    node.range[1] = node.range[2] = items[items.length - 1].range[2];
    return node;
  }

  private map(indent: number, first: number): FastMap {
    const s = this.s;
    const node: FastMap = { t: 'm', range: [first, 0, 0], keys: [], keyNodes: [], values: [] };
    let at = first;
    for (;;) {
      const colon = this.keyEnd(at);
      if (colon < 0) bail();
      const key = this.key(at, colon);
      if (node.keys.includes(key.value)) bail(); // duplicates: the `yaml` path reports them
      node.keys.push(key.value);
      node.keyNodes.push(key.node);
      let i = colon + 1;
      while (i < this.end && s.charCodeAt(i) === SP) i++;
      const e = this.lineEnd(i);
      let value: FastNode;
      if (i === e || s.charCodeAt(i) === HASH) {
        // The value is on the next lines: more indented, or a sequence at this column; otherwise empty.
        this.nextLine();
        this.seekContent();
        if (this.content >= 0 && this.indent > indent) value = this.block(this.indent, indent);
        else if (this.content >= 0 && this.indent === indent && this.atDash()) value = this.seq(indent);
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
    node.range[1] = node.range[2] = node.values[node.values.length - 1].range[2];
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

  private key(at: number, colon: number): { value: string; node: FastScalar } {
    const s = this.s;
    const c = s.charCodeAt(at);
    if (colon - at > 1000) bail(); // the `yaml` package refuses implicit keys over 1024 characters
    if (c === 34 || c === 39) {
      const node: FastScalar = { t: 's', range: [at, colon, colon], style: c === 39 ? 1 : 2 };
      return { value: scalarValue(s, node) as string, node };
    }
    let end = colon;
    while (end > at && s.charCodeAt(end - 1) === SP) end--;
    this.checkPlain(at, end);
    const node: FastScalar = { t: 's', range: [at, end, end], style: 0 };
    const v = scalarValue(s, node);
    if (typeof v !== 'string') bail(); // `1:`, `true:`, `null:`: keys the `yaml` path turns into strings its own way
    return { value: v as string, node };
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
      if (close < 0 || !this.lineRestBlank(close + 1)) bail();
      node = { t: 's', range: [i, close + 1, this.afterLine(i)], style: c === 39 ? 1 : 2 };
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (s.charCodeAt(i + 1) !== (c === 123 ? 125 : 93) || !this.lineRestBlank(i + 2)) bail();
      const range: FastRange = [i, i + 2, this.afterLine(i)];
      node = c === 123 ? { t: 'm', range, keys: [], keyNodes: [], values: [] } : { t: 'q', range, items: [] };
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
      node = { t: 's', range: [i, end, this.afterLine(i)], style: 0 };
    }
    this.nextLine();
    this.seekContent();
    if (this.content >= 0 && this.indent > parent) bail(); // a continuation line, or an error
    return node;
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
    return { t: 's', range: [i, end, end], style: 3 };
  }
}

// ---------------------------------------------------------------------------------------------------- values

type Tag = Schema['tags'][number];
const CORE_TAGS = new Schema({ schema: 'core', merge: false }).tags.filter(
  (t): t is Tag & { test: RegExp } => t.default === true && t.test instanceof RegExp,
);
const RESOLVE_OPTIONS = { intAsBigInt: false } as unknown as Parameters<NonNullable<Tag['resolve']>>[2];

const values = new WeakMap<FastScalar, unknown>();

/** A scalar's value as the `yaml` package's core schema resolves it. */
export function scalarValue(s: string, n: FastScalar): unknown {
  if (values.has(n)) return values.get(n);
  let v: unknown;
  const raw = s.slice(n.range[0], n.range[1]);
  switch (n.style) {
    case 4:
      v = null;
      break;
    case 3:
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
    default: {
      const tag = CORE_TAGS.find((t) => t.test.test(raw));
      let failed = false;
      v = tag?.resolve ? tag.resolve(raw, () => (failed = true), RESOLVE_OPTIONS) : raw;
      if (failed) bail();
      if (isScalar(v)) v = v.value; // booleans come wrapped, as the composer takes them
    }
  }
  values.set(n, v);
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
    if (n.style === 3) return 'string';
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
    return n ? [n.range[0], n.range[1]] : undefined;
  }

  fieldOffsets(n: FastNode, key: string): [number, number] | undefined {
    if (n.t !== 'm') return undefined;
    const i = n.keys.indexOf(key);
    if (i < 0) return undefined;
    const v = n.values[i];
    if (v.range[1] > v.range[0]) return [v.range[0], v.range[1]];
    const k = n.keyNodes[i];
    return [k.range[0], k.range[1]];
  }
}

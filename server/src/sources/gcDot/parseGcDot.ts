// Reader of kube-controller-manager's garbage-collector graph dump (/debug/controllers/garbagecollector/graph),
// in both formats (see corpus gc-debug-dot/FORMAT.md): the current one (Kubernetes ≥ 1.26, node ids are
// uids, Go %q quoting) and the gonum-era one (integer node ids, re-quoted labels, `digraph` or
// `strict digraph`, blank lines, raw newlines in labels). Nodes are keyed by their `uid` attribute, never by
// the DOT id. It is a tolerant DOT parser: malformed input gives located problems, never an exception.

import type { GraphSnapshot, GraphSnapshotEdge, GraphSnapshotNode } from '../../engine/graph/graphSnapshot';
import { FOREGROUND_FINALIZER, type FieldRanges, type KubeObject, type OwnerReference, type Range } from '../../engine/model';
import { LineIndex, ZERO_RANGE } from '../manifests/lineIndex';
import { makeProblem, type LoadProblem } from '../manifests/loadProblem';
import { goUnquote } from './goString';

export type GcDotFormat = 'current' | 'gonum';

export interface GcDotResult {
  snapshot: GraphSnapshot;
  problems: LoadProblem[];
  format: GcDotFormat;
  /** Where each node (by uid) and the edges leaving it are in the text, for the editor. */
  ranges: Map<string, FieldRanges>;
}

/** deletionTimestamp given to objects the dump marks beingDeleted (the dump does not say when). */
export const DOT_DELETION_MARKER = '1970-01-01T00:00:00Z';

// ---------------------------------------------------------------------------------------------------
// Tokens

type TokKind = 'id' | 'num' | 'str' | 'html' | 'punct' | 'edgeop' | 'eof' | 'bad';
interface Tok {
  kind: TokKind;
  /** Decoded value (strings unquoted lazily: raw content kept in `raw`). */
  raw: string;
  start: number;
  end: number;
}

class Lexer {
  private i = 0;
  constructor(
    private readonly t: string,
    private readonly onProblem: (start: number, end: number, message: string) => void,
  ) {}

  next(): Tok {
    const t = this.t;
    for (;;) {
      while (this.i < t.length && /\s/.test(t[this.i])) this.i++;
      if (t.startsWith('//', this.i)) {
        const nl = t.indexOf('\n', this.i);
        this.i = nl < 0 ? t.length : nl + 1;
        continue;
      }
      if (t.startsWith('/*', this.i)) {
        const close = t.indexOf('*/', this.i + 2);
        if (close < 0) {
          this.onProblem(this.i, this.i + 2, 'A /* comment is never closed.');
          this.i = t.length;
        } else {
          this.i = close + 2;
        }
        continue;
      }
      if (t[this.i] === '#' && (this.i === 0 || t[this.i - 1] === '\n')) {
        const nl = t.indexOf('\n', this.i);
        this.i = nl < 0 ? t.length : nl + 1;
        continue;
      }
      break;
    }
    const start = this.i;
    if (start >= t.length) return { kind: 'eof', raw: '', start, end: start };
    const c = t[start];
    if (c === '"') {
      let j = start + 1;
      while (j < t.length && t[j] !== '"') j += t[j] === '\\' ? 2 : 1;
      if (j >= t.length) {
        this.onProblem(start, start + 1, 'A quoted string is never closed.');
        this.i = t.length;
        return { kind: 'bad', raw: t.slice(start + 1), start, end: t.length };
      }
      this.i = j + 1;
      return { kind: 'str', raw: t.slice(start + 1, j), start, end: this.i };
    }
    if (c === '<') {
      let depth = 0;
      let j = start;
      for (; j < t.length; j++) {
        if (t[j] === '<') depth++;
        else if (t[j] === '>' && --depth === 0) break;
      }
      this.i = Math.min(t.length, j + 1);
      return { kind: 'html', raw: t.slice(start + 1, j), start, end: this.i };
    }
    if (c === '-' && (t[start + 1] === '>' || t[start + 1] === '-')) {
      this.i = start + 2;
      return { kind: 'edgeop', raw: t.slice(start, start + 2), start, end: this.i };
    }
    const num = /-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)/y;
    num.lastIndex = start;
    const m = num.exec(t);
    if (m) {
      this.i = start + m[0].length;
      return { kind: 'num', raw: m[0], start, end: this.i };
    }
    const id = /[A-Za-z_\u0080-\uffff][A-Za-z_0-9\u0080-\uffff]*/y;
    id.lastIndex = start;
    const mi = id.exec(t);
    if (mi) {
      this.i = start + mi[0].length;
      return { kind: 'id', raw: mi[0], start, end: this.i };
    }
    this.i = start + 1;
    if ('{}[];,=:'.includes(c)) return { kind: 'punct', raw: c, start, end: this.i };
    return { kind: 'bad', raw: c, start, end: this.i };
  }
}

// ---------------------------------------------------------------------------------------------------
// Parser

interface Attr {
  value: string;
  start: number;
  end: number;
}

interface NodeStmt {
  id: Tok;
  attrs: Map<string, Attr>;
  start: number;
  end: number;
}

interface EdgeStmt {
  from: Tok;
  to: Tok;
  start: number;
  end: number;
}

class SyntaxProblem extends Error {
  constructor(
    readonly start: number,
    readonly end: number,
    message: string,
  ) {
    super(message);
  }
}

const isIdTok = (t: Tok) => t.kind === 'id' || t.kind === 'num' || t.kind === 'str' || t.kind === 'html';
const tokValue = (t: Tok) => (t.kind === 'str' ? goUnquote(t.raw) : t.raw);
const describeTok = (t: Tok) => (t.kind === 'eof' ? 'the end of the file' : JSON.stringify(t.kind === 'str' ? `"${t.raw}"` : t.raw));

class DotParser {
  readonly nodes: NodeStmt[] = [];
  readonly edges: EdgeStmt[] = [];
  private tok: Tok;
  private readonly lexer: Lexer;

  constructor(
    text: string,
    private readonly report: (start: number, end: number, message: string) => void,
  ) {
    this.lexer = new Lexer(text, report);
    this.tok = this.lexer.next();
  }

  private advance(): Tok {
    const t = this.tok;
    this.tok = this.lexer.next();
    return t;
  }

  private isKeyword(word: string): boolean {
    return this.tok.kind === 'id' && this.tok.raw.toLowerCase() === word;
  }

  private expectPunct(p: string, what: string): Tok {
    if (this.tok.kind === 'punct' && this.tok.raw === p) return this.advance();
    throw new SyntaxProblem(this.tok.start, this.tok.end, `Expected ${what}, found ${describeTok(this.tok)}.`);
  }

  parse(): void {
    try {
      if (this.isKeyword('strict')) this.advance();
      if (!this.isKeyword('digraph') && !this.isKeyword('graph')) {
        throw new SyntaxProblem(
          this.tok.start,
          this.tok.end,
          `This is not a DOT graph: expected "digraph" or "strict digraph", found ${describeTok(this.tok)}.`,
        );
      }
      this.advance();
      if (isIdTok(this.tok)) this.advance();
      this.expectPunct('{', '"{" after the graph header');
    } catch (e) {
      if (e instanceof SyntaxProblem) {
        this.report(e.start, e.end, e.message);
        return;
      }
      throw e;
    }
    this.statements(0);
    if (this.tok.kind !== 'eof')
      this.report(this.tok.start, this.tok.end, `Unexpected ${describeTok(this.tok)} after the end of the graph.`);
  }

  /** Statements up to the closing brace. */
  private statements(depth: number): void {
    for (;;) {
      const t = this.tok;
      if (t.kind === 'eof') {
        this.report(t.start, t.end, 'The graph is not closed with "}".');
        return;
      }
      if (t.kind === 'punct' && t.raw === '}') {
        this.advance();
        return;
      }
      if (t.kind === 'punct' && (t.raw === ';' || t.raw === ',')) {
        this.advance();
        continue;
      }
      try {
        this.statement(depth);
      } catch (e) {
        if (!(e instanceof SyntaxProblem)) throw e;
        this.report(e.start, e.end, e.message);
        this.recover();
      }
    }
  }

  /** Skips to the end of the broken statement. */
  private recover(): void {
    for (;;) {
      const t = this.tok;
      if (t.kind === 'eof' || (t.kind === 'punct' && t.raw === '}')) return;
      this.advance();
      if (t.kind === 'punct' && t.raw === ';') return;
    }
  }

  private statement(depth: number): void {
    const t = this.tok;
    if (this.isKeyword('graph') || this.isKeyword('node') || this.isKeyword('edge')) {
      this.advance();
      if (this.tok.kind === 'punct' && this.tok.raw === '[') this.attrList();
      return;
    }
    if (this.isKeyword('subgraph') || (t.kind === 'punct' && t.raw === '{')) {
      if (depth > 50) throw new SyntaxProblem(t.start, t.end, 'Subgraphs are nested too deeply.');
      if (this.isKeyword('subgraph')) {
        this.advance();
        if (isIdTok(this.tok)) this.advance();
      }
      this.expectPunct('{', '"{" to open the subgraph');
      this.statements(depth + 1);
      return;
    }
    if (!isIdTok(t)) throw new SyntaxProblem(t.start, t.end, `Expected a node, an edge or an attribute, found ${describeTok(t)}.`);
    const id = this.advance();
    this.port();
    if (this.tok.kind === 'punct' && this.tok.raw === '=') {
      this.advance();
      if (!isIdTok(this.tok))
        throw new SyntaxProblem(this.tok.start, this.tok.end, `Expected a value after "=", found ${describeTok(this.tok)}.`);
      this.advance();
      return;
    }
    if (this.tok.kind === 'edgeop') {
      const chain = [id];
      while (this.tok.kind === 'edgeop') {
        this.advance();
        if (!isIdTok(this.tok))
          throw new SyntaxProblem(this.tok.start, this.tok.end, `Expected a node after "->", found ${describeTok(this.tok)}.`);
        chain.push(this.advance());
        this.port();
      }
      let end = chain[chain.length - 1].end;
      if (this.tok.kind === 'punct' && this.tok.raw === '[') end = this.attrList().end;
      if (this.tok.kind === 'punct' && this.tok.raw === ';') end = this.advance().end;
      for (let i = 0; i + 1 < chain.length; i++) this.edges.push({ from: chain[i], to: chain[i + 1], start: id.start, end });
      return;
    }
    const attrs = new Map<string, Attr>();
    let end = id.end;
    while (this.tok.kind === 'punct' && this.tok.raw === '[') {
      const list = this.attrList();
      for (const [k, v] of list.attrs) attrs.set(k, v);
      end = list.end;
    }
    if (this.tok.kind === 'punct' && this.tok.raw === ';') end = this.advance().end;
    this.nodes.push({ id, attrs, start: id.start, end });
  }

  private port(): void {
    for (let n = 0; n < 2 && this.tok.kind === 'punct' && this.tok.raw === ':'; n++) {
      this.advance();
      if (isIdTok(this.tok)) this.advance();
    }
  }

  private attrList(): { attrs: Map<string, Attr>; end: number } {
    const attrs = new Map<string, Attr>();
    this.expectPunct('[', '"["');
    for (;;) {
      const t = this.tok;
      if (t.kind === 'punct' && t.raw === ']') return { attrs, end: this.advance().end };
      if (t.kind === 'punct' && (t.raw === ',' || t.raw === ';')) {
        this.advance();
        continue;
      }
      if (!isIdTok(t)) throw new SyntaxProblem(t.start, t.end, `Expected an attribute name or "]", found ${describeTok(t)}.`);
      const key = tokValue(this.advance());
      if (this.tok.kind === 'punct' && this.tok.raw === '=') {
        this.advance();
        const v = this.tok;
        if (!isIdTok(v)) throw new SyntaxProblem(v.start, v.end, `Expected a value for the attribute ${key}, found ${describeTok(v)}.`);
        this.advance();
        attrs.set(key, { value: tokValue(v), start: v.start, end: v.end });
      } else {
        attrs.set(key, { value: 'true', start: t.start, end: t.end });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// From statements to a snapshot

const NODE_ATTRS = [
  'group',
  'version',
  'kind',
  'namespace',
  'name',
  'uid',
  'missing',
  'beingDeleted',
  'deletingDependents',
  'virtual',
] as const;

/** The gonum-era label `"uid=…\nnamespace=…\nKind.version.group/name\n"`, a fallback for missing attributes. */
function parseLabel(label: string): Partial<Record<'uid' | 'namespace' | 'kind' | 'version' | 'group' | 'name', string>> {
  const text = label.replace(/^"|"$/g, '').replace(/\\n/g, '\n');
  const lines = text.split('\n');
  const out: Partial<Record<'uid' | 'namespace' | 'kind' | 'version' | 'group' | 'name', string>> = {};
  for (const l of lines) {
    if (l.startsWith('uid=')) out.uid = l.slice(4);
    else if (l.startsWith('namespace=')) out.namespace = l.slice(10);
  }
  const coords = lines.find((l) => !l.startsWith('uid=') && !l.startsWith('namespace=') && l.includes('/'));
  if (coords) {
    const slash = coords.indexOf('/');
    const [kind = '', version = '', ...group] = coords.slice(0, slash).split('.');
    Object.assign(out, { kind, version, group: group.join('.'), name: coords.slice(slash + 1) });
  }
  return out;
}

export function parseGcDot(text: string, file: string): GcDotResult {
  const problems: LoadProblem[] = [];
  const ranges = new Map<string, FieldRanges>();
  const snapshot: GraphSnapshot = { nodes: [], edges: [] };
  let lines: LineIndex | undefined;
  const rangeOf = (start: number, end: number): Range => (lines ??= LineIndex.of(text)).range(start, end);
  const report = (severity: 'error' | 'warning', start: number, end: number, message: string) =>
    problems.push(makeProblem(file, severity, 'dot-syntax', message, rangeOf(start, end)));
  let format: GcDotFormat = 'current';
  try {
    if (text.slice(0, 8192).includes('\u0000')) {
      problems.push(
        makeProblem(file, 'error', 'binary', 'This file looks binary (it contains NUL bytes), so it was not read as a DOT graph.'),
      );
      return { snapshot, problems, format, ranges };
    }
    const parser = new DotParser(text, (s, e, m) => report('error', s, e, m));
    parser.parse();
    format = parser.nodes.some((n) => n.id.kind === 'num') ? 'gonum' : 'current';

    // DOT merges statements about the same node id (strict graph); then nodes are keyed by uid.
    const byId = new Map<string, NodeStmt>();
    for (const n of parser.nodes) {
      const id = tokValue(n.id);
      const prev = byId.get(id);
      if (prev) {
        for (const [k, v] of n.attrs) prev.attrs.set(k, v);
        prev.end = Math.max(prev.end, n.end);
      } else {
        byId.set(id, { ...n, attrs: new Map(n.attrs) });
      }
    }
    const idToUid = new Map<string, string>();
    const byUid = new Map<string, { node: GraphSnapshotNode; stmt: NodeStmt }>();
    for (const [id, stmt] of byId) {
      const a = stmt.attrs;
      const fromLabel = a.has('label') ? parseLabel(a.get('label')!.value) : {};
      const get = (k: (typeof NODE_ATTRS)[number]) => a.get(k)?.value ?? (fromLabel as Record<string, string | undefined>)[k];
      const uid = get('uid') ?? (format === 'current' ? id : undefined);
      if (uid === undefined) {
        report('error', stmt.start, stmt.end, `Node ${id} has no uid attribute, so it was skipped.`);
        continue;
      }
      const absent = NODE_ATTRS.filter((k) => get(k) === undefined && !(k === 'uid' && format === 'current'));
      if (absent.length && a.size > 0)
        report(
          'warning',
          stmt.start,
          stmt.end,
          `Node ${uid} has no ${absent.join(', ')} attribute${absent.length > 1 ? 's' : ''}; empty values are assumed.`,
        );
      const flag = (k: 'missing' | 'beingDeleted' | 'deletingDependents' | 'virtual') => {
        const attr = a.get(k);
        const v = attr?.value ?? 'false';
        if (v === 'true' || v === 'false') return v === 'true';
        report(
          'warning',
          attr?.start ?? stmt.start,
          attr?.end ?? stmt.end,
          `The attribute ${k} of node ${uid} is "${v}", not "true" or "false"; false is assumed.`,
        );
        return false;
      };
      const node: GraphSnapshotNode = {
        group: get('group') ?? '',
        version: get('version') ?? '',
        kind: get('kind') ?? '',
        namespace: get('namespace') ?? '',
        name: get('name') ?? '',
        uid,
        missing: flag('missing'),
        beingDeleted: flag('beingDeleted'),
        deletingDependents: flag('deletingDependents'),
        virtual: flag('virtual'),
      };
      idToUid.set(id, uid);
      const prev = byUid.get(uid);
      // The same uid twice (the dump's missing-owner quirk): an observed node wins over a synthetic one.
      if (prev && !prev.node.missing && node.missing) continue;
      byUid.set(uid, { node, stmt });
    }
    for (const { node, stmt } of byUid.values()) {
      snapshot.nodes.push(node);
      const r = (k: string) => {
        const attr = stmt.attrs.get(k);
        return attr ? rangeOf(attr.start, attr.end) : undefined;
      };
      const fr: FieldRanges = { object: rangeOf(stmt.start, stmt.end), ownerReferenceEntries: [], finalizerEntries: [] };
      const set = (k: 'apiVersion' | 'kind' | 'name' | 'namespace' | 'uid', v: Range | undefined) => {
        if (v) fr[k] = v;
      };
      set('uid', r('uid') ?? rangeOf(stmt.id.start, stmt.id.end));
      set('apiVersion', r('version'));
      set('kind', r('kind'));
      set('name', r('name'));
      set('namespace', r('namespace'));
      ranges.set(node.uid, fr);
    }
    // Entries line up with dotToObjects' ownerReferences: one per distinct owner that has a node.
    const seenEdges = new Set<string>();
    for (const e of parser.edges) {
      const ends: string[] = [];
      for (const t of [e.from, e.to]) {
        const id = tokValue(t);
        const uid = idToUid.get(id) ?? (format === 'current' ? id : undefined);
        if (uid === undefined) report('error', t.start, t.end, `The edge refers to node ${id}, which is not defined, so it was skipped.`);
        else ends.push(uid);
      }
      if (ends.length !== 2) continue;
      const edge: GraphSnapshotEdge = { from: ends[0], to: ends[1] };
      snapshot.edges.push(edge);
      const key = `${edge.from}\u0000${edge.to}`;
      const fr = ranges.get(edge.from);
      if (fr && byUid.has(edge.to) && !seenEdges.has(key)) {
        fr.ownerReferenceEntries.push({ entry: rangeOf(e.start, e.end), uid: rangeOf(e.to.start, e.to.end) });
      }
      seenEdges.add(key);
    }
  } catch (e) {
    problems.push(
      makeProblem(
        file,
        'error',
        'dot-syntax',
        `This DOT file could not be read (${e instanceof Error ? e.message : String(e)}).`,
        ZERO_RANGE,
      ),
    );
  }
  return { snapshot, problems, format, ranges };
}

// ---------------------------------------------------------------------------------------------------
// From a snapshot to objects

const apiVersionOf = (n: { group: string; version: string }) => (n.group ? `${n.group}/${n.version}` : n.version);

/**
 * Every observed node (not virtual, not missing) as a KubeObject. Owner references come from the node's
 * edges with the owner node's coordinates (controller/blockOwnerDeletion are not in the dump, so they stay
 * unknown); beingDeleted becomes a marker deletionTimestamp and deletingDependents the foregroundDeletion
 * finalizer. `source.itemPath` is [index of the node in the snapshot].
 */
export function dotToObjects(snapshot: GraphSnapshot, file: string, ranges?: Map<string, FieldRanges>): KubeObject[] {
  const byUid = new Map<string, GraphSnapshotNode>();
  for (const n of snapshot.nodes) if (!byUid.has(n.uid) || (byUid.get(n.uid)!.missing && !n.missing)) byUid.set(n.uid, n);
  const owners = new Map<string, string[]>();
  for (const e of snapshot.edges) {
    const list = owners.get(e.from) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    owners.set(e.from, list);
  }
  const out: KubeObject[] = [];
  const done = new Set<string>();
  snapshot.nodes.forEach((n, index) => {
    if (n.virtual || n.missing || done.has(n.uid) || byUid.get(n.uid) !== n) return;
    done.add(n.uid);
    const ownerReferences: OwnerReference[] = [];
    for (const uid of owners.get(n.uid) ?? []) {
      const o = byUid.get(uid);
      if (o) ownerReferences.push({ apiVersion: apiVersionOf(o), kind: o.kind, name: o.name, uid });
    }
    const obj: KubeObject = {
      apiVersion: apiVersionOf(n),
      kind: n.kind,
      name: n.name,
      namespace: n.namespace,
      uid: n.uid,
      ownerReferences,
      finalizers: n.deletingDependents ? [FOREGROUND_FINALIZER] : [],
      facts: {},
      source: { file, docIndex: 0, itemPath: [index] },
    };
    if (n.beingDeleted) obj.deletionTimestamp = DOT_DELETION_MARKER;
    const r = ranges?.get(n.uid);
    if (r) obj.source!.ranges = r;
    out.push(obj);
  });
  return out;
}

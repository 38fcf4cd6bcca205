// Quick fixes for the findings that have a safe edit: remove a broken ownerReference, use the uid of the owner
// that exists, write the kind (and apiVersion) as the object with the reference's uid has them when only their case
// differs (`kind: daemonset`), set blockOwnerDeletion: false on the reference that closes a foreground deadlock, keep
// one controller. Pure: the workspace model and the document text in, code actions out.
//
// Every edit is checked before it is offered: the text is parsed again with the edit applied and must give
// exactly the objects it gave before, changed only as the fix says. An edit that would not (an unusual layout,
// anchors, a diagnostic older than the text) is not offered at all, rather than offered broken.
//
// YAML is parsed one object at a time (the object's own text, cut out of the document), so that a fix in a
// large List export costs the parse of one item, not of the file; where that cannot stand alone, and for
// JSON (cheap), the whole text is parsed.

import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { FindingCode, FindingLocation } from '../engine/analysis/findingTypes';
import { caseCorrectedReference, lookupOwner } from '../engine/analysis/ownerLookup';
import {
  describe,
  isSyntheticUid,
  type FieldRanges,
  type KubeObject,
  type OwnerReference,
  type Position,
  type Range,
} from '../engine/model';
import { parseManifestText, resolveRanges, type ParseResult } from '../sources/manifests/parseManifest';
import { LineIndex } from '../sources/manifests/lineIndex';
import type { WorkspaceModel } from '../workspace/workspaceModel';

/** The `source` of our diagnostics (see diagnostics.ts). */
const SOURCE = 'kube-gc-lens';

/** What the server puts in `Diagnostic.data` (see diagnostics.ts). */
interface QuickFixData {
  uid: string;
  location: FindingLocation;
}

const REMOVABLE = new Set<string>(['dangling-owner', 'owner-coordinates-mismatch', 'owner-namespace-mismatch']);
const FIXABLE = new Set<string>([
  ...REMOVABLE,
  'owner-uid-mismatch',
  'unresolvable-owner-kind',
  'foreground-deadlock',
  'multiple-controllers',
]);

/** Code actions for the diagnostics of `uri` (those the client sent with the request); `text` is the document now. */
export function quickFixes(model: WorkspaceModel, uri: string, text: string, diagnostics: Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const doc = new DocumentText(uri, text);
  for (const d of diagnostics) {
    try {
      const action = quickFix(model, doc, d);
      if (action) out.push(action);
    } catch {
      // A fix is a convenience: never fail the request because of one.
    }
  }
  return out;
}

function quickFix(model: WorkspaceModel, doc: DocumentText, d: Diagnostic): CodeAction | undefined {
  if (d.source !== SOURCE || typeof d.code !== 'string' || !FIXABLE.has(d.code)) return undefined;
  const data = quickFixData(d.data);
  if (!data || data.location.kind !== 'ownerReference') return undefined;
  const code = d.code as FindingCode;
  const index = data.location.index;

  // The finding must still be what the model reports, where the diagnostic says.
  const o = model.inventory.objects.get(data.uid);
  if (!o || o.source?.file !== doc.uri || !o.source.ranges) return undefined;
  const finding = model.findingsOf(data.uid).find((f) => f.code === code && sameLocation(f.location, data.location));
  // The message names the owner: a diagnostic about another reference now at the same place is stale too.
  if (!finding || !finding.range || !sameRange(finding.range, d.range) || !messageText(d.message).includes(finding.message))
    return undefined;
  const ref = o.ownerReferences[index];
  const refRanges = o.source.ranges.ownerReferenceEntries[index];
  if (!ref || !refRanges) return undefined;

  // …and the text must still hold that object, with that reference at those positions.
  const current = doc.objectAt(o);
  if (!current) return undefined;
  const { object: now, ranges } = current;
  if (now.ownerReferences.length !== ranges.ownerReferenceEntries.length || now.ownerReferences.length !== o.ownerReferences.length)
    return undefined;
  if (!sameReference(now.ownerReferences[index], ref) || !sameValue(ranges.ownerReferenceEntries[index], refRanges)) return undefined;

  let title: string;
  let edit: OffsetEdit | OffsetEdit[] | undefined;
  let expected: (x: KubeObject) => void;
  let preferred: boolean;
  if (REMOVABLE.has(code)) {
    title = `Remove the ownerReference to ${ref.kind} ${ref.name}`;
    edit = removalEdit(doc, ranges, index);
    expected = (x) => {
      x.ownerReferences.splice(index, 1);
    };
    // A dangling owner is gone: removing the reference is what the GC itself would do. A mismatch may as
    // well be a typo in the reference, which only the user can correct.
    preferred = code === 'dangling-owner';
  } else if (code === 'owner-uid-mismatch') {
    const owner = existingOwner(
      model,
      finding.related.map((r) => r.object?.uid),
      ref,
    );
    if (!owner || !refRanges.uid) return undefined;
    title = `Use the uid of the existing ${owner.kind} ${owner.name} (${owner.uid})`;
    edit = scalarEdit(doc, refRanges.uid, (old) => quoteLike(old, owner.uid, doc.json));
    expected = (x) => {
      x.ownerReferences[index] = { ...x.ownerReferences[index], uid: owner.uid };
    };
    preferred = true;
  } else if (code === 'unresolvable-owner-kind') {
    // Only where the uid's holder is what the corrected reference resolves to: same name, where the GC looks.
    const holder = model.inventory.objects.get(ref.uid);
    const fixed = holder && caseCorrectedReference(ref, holder);
    if (!holder || !fixed || lookupOwner(model.inventory, o, fixed).state !== 'found') return undefined;
    const edits: (OffsetEdit | undefined)[] = [];
    if (fixed.apiVersion !== ref.apiVersion) {
      edits.push(refRanges.apiVersion && scalarEdit(doc, refRanges.apiVersion, (old) => quoteLike(old, fixed.apiVersion, doc.json)));
    }
    if (fixed.kind !== ref.kind)
      edits.push(refRanges.kind && scalarEdit(doc, refRanges.kind, (old) => quoteLike(old, fixed.kind, doc.json)));
    if (edits.some((e) => !e)) return undefined;
    const what = [
      fixed.apiVersion !== ref.apiVersion ? `apiVersion ${fixed.apiVersion}` : '',
      fixed.kind !== ref.kind ? `kind ${fixed.kind}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    title = `Write ${what}, as ${describe(holder)} (uid ${holder.uid}) has it`;
    edit = edits as OffsetEdit[];
    expected = (x) => {
      x.ownerReferences[index] = { ...x.ownerReferences[index], apiVersion: fixed.apiVersion, kind: fixed.kind };
    };
    preferred = true;
  } else if (code === 'foreground-deadlock') {
    if (!refRanges.blockOwnerDeletion || ref.blockOwnerDeletion !== true) return undefined;
    title = 'Set blockOwnerDeletion: false';
    edit = scalarEdit(doc, refRanges.blockOwnerDeletion, falseLike);
    expected = (x) => {
      x.ownerReferences[index] = { ...x.ownerReferences[index], blockOwnerDeletion: false };
    };
    preferred = true;
  } else {
    if (!refRanges.controller || ref.controller !== true) return undefined;
    title = 'Keep only the first controller reference';
    edit = scalarEdit(doc, refRanges.controller, falseLike);
    expected = (x) => {
      x.ownerReferences[index] = { ...x.ownerReferences[index], controller: false };
    };
    preferred = true;
  }
  const edits = edit === undefined ? [] : Array.isArray(edit) ? [...edit].sort((a, b) => a.start - b.start) : [edit];
  if (edits.length === 0 || !doc.verify(o, edits, expected)) return undefined;

  const textEdits: TextEdit[] = edits.map((e) => ({ range: doc.range(e.start, e.end), newText: e.newText }));
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: preferred,
    edit: { changes: { [doc.uri]: textEdits } },
  };
}

function messageText(m: Diagnostic['message']): string {
  return typeof m === 'string' ? m : m.value;
}

function quickFixData(data: unknown): QuickFixData | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const { uid, location } = data as Partial<QuickFixData>;
  if (typeof uid !== 'string' || !location || typeof location !== 'object') return undefined;
  if (location.kind !== 'ownerReference' || !Number.isInteger(location.index) || location.index < 0) return undefined;
  return { uid, location };
}

/** The owner that exists under the reference's name, when it has a uid of its own (not one we made up). */
function existingOwner(model: WorkspaceModel, uids: (string | undefined)[], ref: OwnerReference): KubeObject | undefined {
  for (const uid of uids) {
    const owner = uid ? model.inventory.objects.get(uid) : undefined;
    if (!owner || owner.syntheticUid || isSyntheticUid(owner.uid)) continue;
    if (owner.kind === ref.kind && owner.name === ref.name && owner.uid !== ref.uid) return owner;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Edits

/** One replacement, in offsets of the document text. */
interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

const YAML_KEY_LINE = /^[ \t]*(?:ownerReferences|"ownerReferences"|'ownerReferences')[ \t]*:[ \t]*(?:#.*)?\r?$/;
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?\r?$/;

/**
 * Deletes ownerReferences[index] as a whole list item: the `- ` item lines of a YAML block sequence, or the
 * element and one comma of a flow sequence / JSON array. The only item takes its key with it.
 */
function removalEdit(doc: DocumentText, ranges: FieldRanges, index: number): OffsetEdit | undefined {
  const { text } = doc;
  const entries = ranges.ownerReferenceEntries;
  if (!ranges.ownerReferences) return undefined;
  const valueStart = doc.offset(ranges.ownerReferences.start);
  const valueEnd = doc.offset(ranges.ownerReferences.end);
  const entryStart = doc.offset(entries[index].entry.start);
  const entryEnd = doc.offset(entries[index].entry.end);
  if (valueStart === undefined || valueEnd === undefined || entryStart === undefined || entryEnd === undefined) return undefined;
  if (entryEnd <= entryStart) return undefined;

  if (text[valueStart] === '[') {
    // Flow sequence (YAML) or JSON array.
    if (entries.length > 1) {
      if (index < entries.length - 1) {
        const next = doc.offset(entries[index + 1].entry.start);
        if (next === undefined || !/^\s*,\s*$/.test(text.slice(entryEnd, next))) return undefined;
        return { start: entryStart, end: next, newText: '' };
      }
      const prev = doc.offset(entries[index - 1].entry.end);
      if (prev === undefined || !/^\s*,\s*$/.test(text.slice(prev, entryStart))) return undefined;
      return { start: prev, end: entryEnd, newText: '' };
    }
    // The only element: its key goes too, as a member of a JSON object or YAML flow mapping, or as the
    // lines of a YAML block mapping entry.
    if (doc.json) return removeMember(doc, valueStart, valueEnd);
    return removeKeyLines(doc, valueStart, lineEndAfter(text, valueEnd)) ?? removeMember(doc, valueStart, valueEnd);
  }
  if (text[valueStart] === '-' && !doc.json) {
    // YAML block sequence: from the line of the item's dash to the end of its last line, with the comment
    // lines indented under it that follow.
    let dash = entryStart - 1;
    while (dash >= valueStart && /\s/.test(text[dash])) dash--;
    if (text[dash] !== '-') return undefined;
    const lineStart = text.lastIndexOf('\n', dash - 1) + 1;
    if (!/^[ \t]*$/.test(text.slice(lineStart, dash))) return undefined;
    const end = itemEnd(text, entryEnd, dash - lineStart);
    if (end === undefined) return undefined;
    if (entries.length > 1) return { start: lineStart, end, newText: '' };
    return removeKeyLines(doc, valueStart, end);
  }
  return undefined;
}

/** Where a YAML block sequence item that ends at `entryEnd` ends, lines included (undefined: something else follows). */
function itemEnd(text: string, entryEnd: number, dashColumn: number): number | undefined {
  let end = entryEnd;
  if (end > 0 && text[end - 1] !== '\n') {
    end = lineEndAfter(text, end);
    if (end < 0) return undefined;
  }
  // Comment lines indented deeper than the dash belong to the item.
  while (end < text.length) {
    const nl = text.indexOf('\n', end);
    const line = text.slice(end, nl < 0 ? text.length : nl);
    const m = /^([ \t]*)#/.exec(line);
    if (!m || m[1].length <= dashColumn) break;
    end = nl < 0 ? text.length : nl + 1;
  }
  return end;
}

/** Past the line break of the line holding `offset`, when only blanks or a comment follow it there; else -1. */
function lineEndAfter(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  const rest = text.slice(offset, nl < 0 ? text.length : nl);
  if (!BLANK_OR_COMMENT.test(rest)) return -1;
  return nl < 0 ? text.length : nl + 1;
}

/** Deletes the `ownerReferences:` line of a YAML block mapping (and the comment lines after it) up to `end`. */
function removeKeyLines(doc: DocumentText, valueStart: number, end: number): OffsetEdit | undefined {
  const { text } = doc;
  if (end < 0) return undefined;
  let lineStart = text.lastIndexOf('\n', valueStart - 1) + 1;
  const prefix = text.slice(lineStart, valueStart);
  if (!YAML_KEY_LINE.test(prefix)) {
    if (!/^[ \t]*$/.test(prefix)) return undefined;
    // The value starts on a line of its own: the key is on the nearest line above that is not blank or a comment.
    for (;;) {
      if (lineStart === 0) return undefined;
      const above = text.lastIndexOf('\n', lineStart - 2) + 1;
      const line = text.slice(above, lineStart - 1);
      lineStart = above;
      if (YAML_KEY_LINE.test(line)) break;
      if (!BLANK_OR_COMMENT.test(line)) return undefined;
    }
  }
  return { start: lineStart, end, newText: '' };
}

/** Deletes the `ownerReferences` member of a JSON object or YAML flow mapping, with one comma. */
function removeMember(doc: DocumentText, valueStart: number, valueEnd: number): OffsetEdit | undefined {
  const { text } = doc;
  let p = skipBack(text, valueStart - 1);
  if (text[p] !== ':') return undefined;
  p = skipBack(text, p - 1);
  let keyStart: number;
  const q = text[p];
  if (q === '"' || q === "'") {
    keyStart = p - 'ownerReferences'.length - 1;
    if (text.slice(keyStart, p + 1) !== `${q}ownerReferences${q}`) return undefined;
  } else {
    keyStart = p - 'ownerReferences'.length + 1;
    if (text.slice(keyStart, p + 1) !== 'ownerReferences') return undefined;
  }
  const before = skipBack(text, keyStart - 1);
  if (text[before] !== '{' && text[before] !== ',') return undefined; // a block mapping: not a member
  const after = skipForward(text, valueEnd);
  if (text[after] === ',') return { start: keyStart, end: skipForward(text, after + 1), newText: '' };
  if (text[before] === ',') return { start: skipBack(text, before - 1) + 1, end: valueEnd, newText: '' };
  if (text[after] === '}') return { start: before + 1, end: after, newText: '' };
  return undefined;
}

function skipBack(text: string, i: number): number {
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

function skipForward(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/** Replaces the scalar at `range`, given its current text. */
function scalarEdit(doc: DocumentText, range: Range, replace: (old: string) => string | undefined): OffsetEdit | undefined {
  const start = doc.offset(range.start);
  const end = doc.offset(range.end);
  if (start === undefined || end === undefined || end <= start) return undefined;
  const newText = replace(doc.text.slice(start, end));
  return newText === undefined ? undefined : { start, end, newText };
}

/** `false` written as the `true` it replaces is (YAML 1.2 core also reads True and TRUE). */
function falseLike(old: string): string | undefined {
  switch (old) {
    case 'true':
      return 'false';
    case 'True':
      return 'False';
    case 'TRUE':
      return 'FALSE';
    default:
      return undefined;
  }
}

/** Plain scalars that YAML 1.2 (core schema) would read as something other than a string. */
const NOT_A_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** `value` as a scalar quoted the way `old` is: double, single or plain (when a plain scalar can hold it). */
function quoteLike(old: string, value: string, json: boolean): string {
  if (json || old.startsWith('"')) return JSON.stringify(value);
  if (old.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value) && !NOT_A_STRING.test(value) ? value : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------------------
// The document text: offsets, the objects it holds, and the check of an edit.

interface Located {
  object: KubeObject;
  /** In the document's coordinates. */
  ranges: FieldRanges;
}

/** An object parsed from the current text, with what it was parsed from. */
interface ParseBase {
  /** Parsed from its own text (true) or with the whole document. */
  own: boolean;
  /** Own text: the document between these offsets, what precedes `objectStart` on its line blanked. */
  lineStart: number;
  objectStart: number;
  end: number;
  /** The line of the document where the parsed text starts. */
  line: number;
  result: ParseResult;
  object: KubeObject;
}

/** The last whole-document parse (a request with several diagnostics, or repeated requests, parse once). */
let lastWhole: { uri: string; text: string; result: ParseResult } | undefined;

class DocumentText {
  private index: LineIndex | undefined;
  /** Read as JSON (a .json file, or text that starts like JSON): edits must keep it JSON. */
  readonly json: boolean;
  private readonly bases = new Map<KubeObject, ParseBase | undefined>();

  constructor(
    readonly uri: string,
    readonly text: string,
  ) {
    this.json = /\.json$/i.test(uri) || /^\uFEFF?\s*[[{]/.test(text);
  }

  private get lines(): LineIndex {
    return (this.index ??= LineIndex.of(this.text));
  }

  /** The offset of an LSP position, if it is inside the text. */
  offset(p: Position): number | undefined {
    return this.lines.offset(p);
  }

  position(offset: number): Position {
    return this.lines.position(offset);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** The object the model knows as `o`, as the text holds it now, with its ranges in document coordinates. */
  objectAt(o: KubeObject): Located | undefined {
    const base = this.base(o);
    const ranges = base?.object.source?.ranges;
    if (!base || !ranges) return undefined;
    return { object: base.object, ranges: base.line ? shiftRanges(ranges, base.line) : ranges };
  }

  private base(o: KubeObject): ParseBase | undefined {
    if (!this.bases.has(o)) this.bases.set(o, this.own(o) ?? this.whole(o));
    return this.bases.get(o);
  }

  /** The object parsed from its own text: a YAML mapping cut out of the document (a document, or a List item). */
  private own(o: KubeObject): ParseBase | undefined {
    const r = o.source?.ranges?.object;
    if (this.json || !r) return undefined;
    const objectStart = this.offset(r.start);
    const end = this.offset(r.end);
    if (objectStart === undefined || end === undefined || end <= objectStart) return undefined;
    const lineStart = objectStart - r.start.character;
    const result = parseOwn(this.text, lineStart, objectStart, end);
    if (result.objects.length !== 1 || result.problems.some((p) => p.severity === 'error')) return undefined;
    const object = result.objects[0];
    // The same object at the same place: its ranges, moved back into the document, are the model's.
    if (!object.source?.ranges || !sameValue(shiftRanges(object.source.ranges, r.start.line), o.source!.ranges!)) return undefined;
    return { own: true, lineStart, objectStart, end, line: r.start.line, result, object };
  }

  /** The object parsed with the whole document. */
  private whole(o: KubeObject): ParseBase | undefined {
    const result = this.parseWhole();
    const object = result.objects.find((x) => x.source && sameSourcePlace(x.source, o.source!));
    if (!object) return undefined;
    return { own: false, lineStart: 0, objectStart: 0, end: this.text.length, line: 0, result, object };
  }

  private parseWhole(): ParseResult {
    if (lastWhole && lastWhole.uri === this.uri && lastWhole.text === this.text) return lastWhole.result;
    const result = parseManifestText(this.text, this.uri);
    resolveRanges(this.text, result.objects);
    lastWhole = { uri: this.uri, text: this.text, result };
    return result;
  }

  /**
   * Whether the text with `edits` applied (in order, not overlapping) parses to the same objects as now, but for
   * `o`, changed by `change`, with the same problems as now.
   */
  verify(o: KubeObject, edits: OffsetEdit[], change: (x: KubeObject) => void): boolean {
    const base = this.base(o);
    if (!base) return false;
    if (edits.some((e, i) => i > 0 && e.start < edits[i - 1].end)) return false;
    let edited = this.text;
    for (const e of [...edits].reverse()) edited = edited.slice(0, e.start) + e.newText + edited.slice(e.end);
    const first = edits[0];
    const last = edits[edits.length - 1];
    const grown = edits.reduce((n, e) => n + e.newText.length - (e.end - e.start), 0);
    if (this.json) {
      try {
        JSON.parse(edited.charCodeAt(0) === 0xfeff ? edited.slice(1) : edited);
      } catch {
        return false;
      }
    }
    if (base.own && first.start >= base.objectStart && last.end <= base.end) {
      const end = base.end + grown;
      return sameResult(base.result, parseOwn(edited, base.lineStart, base.objectStart, end), base.object, change);
    }
    // Not within the object's own text: check it with the whole document.
    const whole = base.own ? this.whole(o) : base;
    if (!whole) return false;
    return sameResult(whole.result, parseManifestText(edited, this.uri), whole.object, change);
  }
}

/** The object's own text as a document: what precedes it on its first line (`- ` of a List item) blanked, so every column stays. */
function parseOwn(text: string, lineStart: number, objectStart: number, end: number): ParseResult {
  return parseManifestText(' '.repeat(objectStart - lineStart) + text.slice(objectStart, end), 'object.yaml');
}

/** `after` holds the objects of `before`, `target` changed by `change`, and the same problems. */
function sameResult(before: ParseResult, after: ParseResult, target: KubeObject, change: (x: KubeObject) => void): boolean {
  if (before.objects.length !== after.objects.length) return false;
  const problems = (r: ParseResult) =>
    r.problems
      .map((p) => `${p.severity}:${p.code}`)
      .sort()
      .join('\n');
  if (problems(before) !== problems(after)) return false;
  return before.objects.every((b, i) => {
    const want = comparable(b);
    if (b === target) change(want);
    return sameValue(comparable(after.objects[i]), want);
  });
}

/** An object without its positions (which an edit moves), as a fresh copy. */
function comparable(o: KubeObject): KubeObject {
  const copy = structuredClone({ ...o, source: undefined }) as KubeObject;
  if (o.source) copy.source = { file: o.source.file, docIndex: o.source.docIndex, itemPath: [...o.source.itemPath] };
  return copy;
}

function sameSourcePlace(a: { docIndex: number; itemPath: number[] }, b: { docIndex: number; itemPath: number[] }): boolean {
  return a.docIndex === b.docIndex && a.itemPath.length === b.itemPath.length && a.itemPath.every((x, i) => x === b.itemPath[i]);
}

function shiftRanges(r: FieldRanges, lines: number): FieldRanges {
  const shift = (x: Range): Range => ({
    start: { line: x.start.line + lines, character: x.start.character },
    end: { line: x.end.line + lines, character: x.end.character },
  });
  const out: FieldRanges = { object: shift(r.object), ownerReferenceEntries: [], finalizerEntries: r.finalizerEntries.map(shift) };
  for (const k of ['apiVersion', 'kind', 'name', 'namespace', 'uid', 'ownerReferences', 'finalizers', 'deletionTimestamp'] as const) {
    const v = r[k];
    if (v) out[k] = shift(v);
  }
  for (const e of r.ownerReferenceEntries) {
    const s: FieldRanges['ownerReferenceEntries'][number] = { entry: shift(e.entry) };
    for (const k of ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'] as const) {
      const v = e[k];
      if (v) s[k] = shift(v);
    }
    out.ownerReferenceEntries.push(s);
  }
  return out;
}

function sameReference(a: OwnerReference | undefined, b: OwnerReference): boolean {
  return (
    !!a &&
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

function sameLocation(a: FindingLocation, b: FindingLocation): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'ownerReference' && b.kind === 'ownerReference') return a.index === b.index && a.field === b.field;
  if (a.kind === 'finalizer' && b.kind === 'finalizer') return a.index === b.index;
  return true;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** Deep equality of plain data; a key holding `undefined` is the same as an absent key. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameValue(x, bb[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!sameValue(ra[k], rb[k])) return false;
  return true;
}

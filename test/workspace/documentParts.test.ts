// Reading an edited text document by document (only those around the change, the others moved) gives what reading
// the final text whole gives: objects, positions, document numbers, problems, and in the workspace model the
// findings of every object. Random edits (insertions, deletions, separators made and broken, edits across
// documents, inside block scalars) on random multi-document texts.

import { describe, expect, it } from 'vitest';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { parseParts, reparseParts, type PartedText } from '../../server/src/workspace/documentParts';
import { WorkspaceModel, type WorkspaceOptions } from '../../server/src/workspace/workspaceModel';
import type { Finding } from '../../server/src/engine/analysis/findingTypes';
import { applyEdit, multiDocument, random, randomEdit } from './editText';

const URI = 'file:///w/stream.yaml';
const OTHER = 'file:///w/other.yaml';
const OPTIONS: WorkspaceOptions = { controllers: 'builtin', finalizerOwners: [] };

const snapshot = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

function findingView(f: Finding) {
  return {
    code: f.code,
    severity: f.severity,
    message: f.message,
    uid: f.object.uid,
    file: f.file,
    range: f.range,
    related: f.related.map((r) => ({ message: r.message, range: r.range, uid: r.object?.uid })),
  };
}

const byText = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** What the model shows for the document: its objects, problems and findings (diagnostics are made from these). */
function modelView(model: WorkspaceModel, uri: string) {
  return snapshot({
    objects: model.objectsIn(uri),
    raw: model.document(uri)?.raw,
    problems: model.document(uri)?.problems,
    findings: model.findingsIn(uri).map(findingView).sort(byText),
    all: model.allFindings().map(findingView).sort(byText),
  });
}

describe('an edited multi-document text read document by document', () => {
  it('equals reading the final text whole after each of many random edits (objects, positions, problems)', () => {
    let steps = 0;
    let few = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const next = random(seed);
      let text = multiDocument(30, next);
      let parted: PartedText | undefined = parseParts(text, URI).parted;
      for (let step = 0; step < 50; step++) {
        const edit = randomEdit(text, next);
        text = applyEdit(text, edit);
        const got = parted ? reparseParts(parted, text, URI) : parseParts(text, URI);
        parted = got.parted;
        steps++;
        if (got.documentsRead <= 4) few++;
        const want = parseManifestText(text, URI);
        const where = `seed ${seed}, step ${step}, edit ${JSON.stringify(edit)}`;
        expect(snapshot(got.objects), where).toEqual(snapshot(want.objects));
        expect(snapshot(got.problems), where).toEqual(snapshot(want.problems));
      }
    }
    // The comparison is of edits read document by document, not of texts read whole again.
    expect(few / steps).toBeGreaterThan(0.8);
  });

  it('follows the edits that change which documents there are', () => {
    const base =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  s: |\n    x\n    y\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: c\n';
    const cases: [string, (t: string) => string][] = [
      ['a separator deleted: two documents merge', (t) => t.replace('---\napiVersion: v1\nkind: Secret', 'apiVersion: v1\nkind: Secret')],
      ['a separator broken by one character', (t) => t.replace('---\napiVersion: v1\nkind: Secret', '--x\napiVersion: v1\nkind: Secret')],
      ['a separator typed in a block scalar, at column 0', (t) => t.replace('    x\n', '---\n    x\n')],
      ['a separator typed indented in a block scalar (text, not a separator)', (t) => t.replace('    x\n', '    ---\n    x\n')],
      ['a document split in two', (t) => t.replace('data:\n', '---\ndata:\n')],
      ['text across three documents deleted', (t) => t.slice(0, t.indexOf('name: a') + 6) + t.slice(t.indexOf('name: c') + 6)],
      ['everything but the first line deleted', (t) => t.slice(0, t.indexOf('\n') + 1)],
      ['a `...` end inserted', (t) => t.replace('  name: b\n', '  name: b\n...\n')],
      ['lines added above every document', (t) => `# header\n\n${t}`],
    ];
    for (const [what, edit] of cases) {
      const text = edit(base);
      const got = reparseParts(parseParts(base, URI).parted!, text, URI);
      const want = parseManifestText(text, URI);
      expect(snapshot(got.objects), what).toEqual(snapshot(want.objects));
      expect(snapshot(got.problems), what).toEqual(snapshot(want.problems));
    }
  });

  it('reads only the documents around a one-character edit, and all of them when the text is new', () => {
    const next = random(7);
    const text = multiDocument(200, next);
    const first = parseParts(text, URI);
    expect(first.documentsRead).toBeGreaterThanOrEqual(200);
    const at = text.indexOf('name: cm-', text.length / 2) + 'name: cm-'.length;
    const edited = reparseParts(first.parted!, text.slice(0, at) + 'x' + text.slice(at), URI);
    expect(edited.documentsRead).toBe(1);
    // A separator typed in the middle of a document splits it: the two halves are read, nothing else.
    const line = text.indexOf('\nmetadata:', at - 200) + 1;
    // (from the text as first read: an edit's reading moves the parts it was read from, which are then used up)
    const again = parseParts(text, URI);
    expect(reparseParts(first.parted!, text, URI).documentsRead).toBe(again.documentsRead);
    const split = reparseParts(again.parted!, text.slice(0, line) + '---\n' + text.slice(line), URI);
    expect(split.documentsRead).toBeLessThanOrEqual(3);
  });

  it('moves the documents an edit did not touch also where they are ended by `...` rather than started by `---`', () => {
    const docs = Array.from({ length: 50 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n...\n`);
    const text = docs.join('');
    const at = text.indexOf('name: cm-25') + 'name: cm-2'.length;
    const edited = text.slice(0, at) + 'x' + text.slice(at);
    const got = reparseParts(parseParts(text, URI).parted!, edited, URI);
    expect(snapshot(got.objects)).toEqual(snapshot(parseManifestText(edited, URI).objects));
    expect(got.documentsRead).toBe(1);
  });

  it('keeps the workspace model equal to one built from the final text (objects, problems, findings)', () => {
    for (let seed = 100; seed < 110; seed++) {
      const next = random(seed);
      let text = multiDocument(25, next);
      const other = multiDocument(6, random(seed + 1000));
      const model = new WorkspaceModel(OPTIONS);
      model.update(OTHER, model.parse(OTHER, other));
      model.update(URI, model.reparse(URI, text));
      for (let step = 0; step < 40; step++) {
        const edit = randomEdit(text, next);
        text = applyEdit(text, edit);
        model.update(URI, model.reparse(URI, text));
        const fresh = new WorkspaceModel(OPTIONS);
        fresh.update(OTHER, fresh.parse(OTHER, other));
        fresh.update(URI, fresh.parse(URI, text));
        const where = `seed ${seed}, step ${step}, edit ${JSON.stringify(edit)}`;
        expect(modelView(model, URI), where).toEqual(modelView(fresh, URI));
        expect(modelView(model, OTHER), where).toEqual(modelView(fresh, OTHER));
      }
    }
  });
});

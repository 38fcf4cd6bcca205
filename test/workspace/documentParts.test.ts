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
    for (let seed = 1; seed <= 25; seed++) {
      const next = random(seed);
      let text = multiDocument(30, next);
      let parted: PartedText | undefined = parseParts(text, URI).parted;
      for (let step = 0; step < 60; step++) {
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
    const split = reparseParts(first.parted!, text.slice(0, line) + '---\n' + text.slice(line), URI);
    expect(split.documentsRead).toBeLessThanOrEqual(3);
  });

  it('keeps the workspace model equal to one built from the final text (objects, problems, findings)', () => {
    for (let seed = 100; seed < 112; seed++) {
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

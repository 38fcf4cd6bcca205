// Quick fixes (server/src/lsp/codeActions.ts): the edit each fix makes, applied to the text, must give exactly
// the expected text, which must parse to the same objects minus (or with) exactly the change the fix names.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { KubeObject } from '../../server/src/engine/model';
import { quickFixes } from '../../server/src/lsp/codeActions';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { WorkspaceModel } from '../../server/src/workspace/workspaceModel';

const URI = 'file:///work/pods.yaml';
const JSON_URI = 'file:///work/pods.json';

function load(docs: Record<string, string>, predictions = false): WorkspaceModel {
  const m = new WorkspaceModel({ controllers: 'builtin', finalizerOwners: [] });
  m.loadAll(Object.entries(docs).map(([uri, text]) => m.parse(uri, text)!));
  if (predictions) m.refreshPredictions();
  return m;
}

/** The diagnostics the server publishes for `uri`, as the lead's server builds them. */
function diagnosticsOf(m: WorkspaceModel, uri: string): Diagnostic[] {
  return m
    .findingsIn(uri)
    .filter((f) => f.range)
    .map((f) => ({
      range: f.range!,
      severity: f.severity === 'error' ? 1 : f.severity === 'warning' ? 2 : 3,
      code: f.code,
      source: 'kube-gc-lens',
      message: f.message,
      data: { uid: f.object.uid, location: f.location },
    }));
}

function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offset = (p: { line: number; character: number }) => starts[p.line] + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

function fixesFor(text: string, { uri = URI, others = {} as Record<string, string>, predictions = false } = {}) {
  const m = load({ [uri]: text, ...others }, predictions);
  const diagnostics = diagnosticsOf(m, uri);
  return { m, diagnostics, actions: quickFixes(m, uri, text, diagnostics) };
}

/** The text after the one action titled `title` (exactly one must exist), checked for shape. */
function applied(actions: CodeAction[], title: string, text: string, uri = URI): string {
  const matching = actions.filter((a) => a.title === title);
  expect(
    matching.map((a) => a.title),
    actions.map((a) => a.title).join('; '),
  ).toEqual([title]);
  const a = matching[0];
  expect(a.kind).toBe(CodeActionKind.QuickFix);
  expect(a.diagnostics).toHaveLength(1);
  expect(Object.keys(a.edit!.changes!)).toEqual([uri]);
  return applyEdits(text, a.edit!.changes![uri]);
}

/** Objects without positions, for comparing what two texts hold. */
function objectsOf(text: string, uri = URI): KubeObject[] {
  const parsed = parseManifestText(text, uri);
  expect(parsed.problems).toEqual([]);
  return parsed.objects.map((o) => ({
    ...o,
    source: { file: o.source!.file, docIndex: o.source!.docIndex, itemPath: o.source!.itemPath },
  }));
}

/** `after` parses without problems to the objects of `before`, the one named `name` changed by `change`. */
function expectSameObjectsBut(before: string, after: string, name: string, change: (o: KubeObject) => void, uri = URI): void {
  const want = objectsOf(before, uri).map((o) => {
    const copy = structuredClone(o);
    if (o.name === name) change(copy);
    return copy;
  });
  expect(objectsOf(after, uri)).toEqual(want);
}

const removeRef = (i: number) => (o: KubeObject) => {
  o.ownerReferences.splice(i, 1);
};

// ---------------------------------------------------------------------------------------------------------

const TWO_REFS = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 0b6c1e3e-0000-4000-8000-000000000001
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a
    uid: 11111111-aaaa-4000-8000-000000000001
    controller: true
    blockOwnerDeletion: true
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-b
    uid: 22222222-bbbb-4000-8000-000000000002
spec:
  containers:
  - name: web
    image: nginx
`;

describe('remove an ownerReference: YAML block sequences', () => {
  it('removes the first of two items, dash line and all', () => {
    const { actions } = fixesFor(TWO_REFS);
    const after = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', TWO_REFS);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 0b6c1e3e-0000-4000-8000-000000000001
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-b
    uid: 22222222-bbbb-4000-8000-000000000002
spec:
  containers:
  - name: web
    image: nginx
`);
    expectSameObjectsBut(TWO_REFS, after, 'web-1', removeRef(0));
  });

  it('removes the last of two items', () => {
    const { actions } = fixesFor(TWO_REFS);
    const after = applied(actions, 'Remove the ownerReference to ReplicaSet gone-b', TWO_REFS);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 0b6c1e3e-0000-4000-8000-000000000001
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a
    uid: 11111111-aaaa-4000-8000-000000000001
    controller: true
    blockOwnerDeletion: true
spec:
  containers:
  - name: web
    image: nginx
`);
    expectSameObjectsBut(TWO_REFS, after, 'web-1', removeRef(1));
  });

  it('a dangling owner is the preferred fix, attached to its diagnostic', () => {
    const { actions, diagnostics } = fixesFor(TWO_REFS);
    const a = actions.find((x) => x.title === 'Remove the ownerReference to ReplicaSet gone-a')!;
    expect(a.isPreferred).toBe(true);
    expect(a.diagnostics).toEqual([diagnostics.find((d) => d.code === 'dangling-owner' && d.range.start.line === 10)]);
    expect(a.edit!.changes![URI]).toEqual([{ range: { start: { line: 7, character: 0 }, end: { line: 13, character: 0 } }, newText: '' }]);
  });

  it('removes the ownerReferences key with its only item (indented sequence, last line without a line break)', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  ownerReferences:
    - apiVersion: apps/v1
      kind: Deployment
      name: gone
      uid: 33333333-cccc-4000-8000-000000000003
  labels:
    app: web
data:
  a: "1"`;
    const { actions } = fixesFor(text);
    const after = applied(actions, 'Remove the ownerReference to Deployment gone', text);
    expect(after).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  labels:
    app: web
data:
  a: "1"`);
    expectSameObjectsBut(text, after, 'settings', removeRef(0));
  });

  it('removes the key with its only item at the end of the document', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: gone, uid: 33333333-cccc-4000-8000-000000000003}
`;
    const { actions } = fixesFor(text);
    const after = applied(actions, 'Remove the ownerReference to Deployment gone', text);
    expect(after).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
`);
    expectSameObjectsBut(text, after, 'settings', removeRef(0));
  });

  it('comments: those indented under the item go with it, the others stay', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  # the old ReplicaSet
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a   # deleted last week
    uid: 11111111-aaaa-4000-8000-000000000001
    # (exported from prod)

  # the current one
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-b
    uid: 22222222-bbbb-4000-8000-000000000002
    # end of gone-b
  # end of the list
spec: {}
`;
    const { actions } = fixesFor(text);
    const first = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', text);
    expect(first).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  # the old ReplicaSet

  # the current one
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-b
    uid: 22222222-bbbb-4000-8000-000000000002
    # end of gone-b
  # end of the list
spec: {}
`);
    expectSameObjectsBut(text, first, 'web-1', removeRef(0));
    const last = applied(actions, 'Remove the ownerReference to ReplicaSet gone-b', text);
    expect(last).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  # the old ReplicaSet
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a   # deleted last week
    uid: 11111111-aaaa-4000-8000-000000000001
    # (exported from prod)

  # the current one
  # end of the list
spec: {}
`);
    expectSameObjectsBut(text, last, 'web-1', removeRef(1));
  });

  it('the only item with comments: key, comments and item go', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  ownerReferences: # set by the operator
  # the owner
  - apiVersion: apps/v1
    kind: Deployment
    name: gone
    uid: 33333333-cccc-4000-8000-000000000003
  labels: {app: web}
`;
    const { actions } = fixesFor(text);
    const after = applied(actions, 'Remove the ownerReference to Deployment gone', text);
    expect(after).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels: {app: web}
`);
    expectSameObjectsBut(text, after, 'settings', removeRef(0));
  });

  it('CRLF line endings: whole lines go, the other line endings are kept', () => {
    const text = TWO_REFS.replace(/\n/g, '\r\n');
    const { actions } = fixesFor(text);
    const first = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', text);
    expect(first).toBe(
      `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  uid: 0b6c1e3e-0000-4000-8000-000000000001
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-b
    uid: 22222222-bbbb-4000-8000-000000000002
spec:
  containers:
  - name: web
    image: nginx
`.replace(/\n/g, '\r\n'),
    );
    expectSameObjectsBut(text, first, 'web-1', removeRef(0));
    const only = `apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: settings\r\n  ownerReferences:\r\n  - apiVersion: apps/v1\r\n    kind: Deployment\r\n    name: gone\r\n    uid: 33333333-cccc-4000-8000-000000000003\r\ndata: {}\r\n`;
    const after = applied(fixesFor(only).actions, 'Remove the ownerReference to Deployment gone', only);
    expect(after).toBe('apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: settings\r\ndata: {}\r\n');
    expectSameObjectsBut(only, after, 'settings', removeRef(0));
  });

  it('multi-document YAML: only the lines of the item in its document go', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: first
  namespace: shop
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a
    uid: 11111111-aaaa-4000-8000-000000000001
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: last
  namespace: shop
  ownerReferences:
  - apiVersion: v1
    kind: Pod
    name: web-1
    uid: synthetic-is-not-a-uid
  - apiVersion: apps/v1
    kind: Deployment
    name: gone
    uid: 33333333-cccc-4000-8000-000000000003
`;
    const { actions } = fixesFor(text);
    const second = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', text);
    expect(second).toBe(
      text.replace(
        `  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: gone-a
    uid: 11111111-aaaa-4000-8000-000000000001
`,
        '',
      ),
    );
    expectSameObjectsBut(text, second, 'web-1', removeRef(0));
    const third = applied(actions, 'Remove the ownerReference to Deployment gone', text);
    expect(third).toBe(
      text.replace(
        `  - apiVersion: apps/v1
    kind: Deployment
    name: gone
    uid: 33333333-cccc-4000-8000-000000000003
`,
        '',
      ),
    );
    expectSameObjectsBut(text, third, 'last', removeRef(1));
  });

  it('a List document: the item of the right List item goes', () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
    namespace: shop
    ownerReferences:
    - apiVersion: apps/v1
      kind: ReplicaSet
      name: gone-a
      uid: 11111111-aaaa-4000-8000-000000000001
    - apiVersion: apps/v1
      kind: ReplicaSet
      name: gone-b
      uid: 22222222-bbbb-4000-8000-000000000002
- apiVersion: v1
  kind: ConfigMap
  metadata:
    ownerReferences:
    - apiVersion: apps/v1
      kind: Deployment
      name: gone
      uid: 33333333-cccc-4000-8000-000000000003
    name: settings
    namespace: shop
`;
    const { actions } = fixesFor(text);
    const a = applied(actions, 'Remove the ownerReference to ReplicaSet gone-b', text);
    expect(a).toBe(
      text.replace(
        `    - apiVersion: apps/v1
      kind: ReplicaSet
      name: gone-b
      uid: 22222222-bbbb-4000-8000-000000000002
`,
        '',
      ),
    );
    expectSameObjectsBut(text, a, 'web-1', removeRef(1));
    const b = applied(actions, 'Remove the ownerReference to Deployment gone', text);
    expect(b).toBe(
      text.replace(
        `    ownerReferences:
    - apiVersion: apps/v1
      kind: Deployment
      name: gone
      uid: 33333333-cccc-4000-8000-000000000003
`,
        '',
      ),
    );
    expectSameObjectsBut(text, b, 'settings', removeRef(0));
  });
});

describe('remove an ownerReference: YAML flow sequences', () => {
  const text = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: gone-a, uid: 11111111-aaaa-4000-8000-000000000001}, {apiVersion: apps/v1, kind: ReplicaSet, name: gone-b, uid: 22222222-bbbb-4000-8000-000000000002}]
spec: {}
`;

  it('removes the first element and the comma after it', () => {
    const after = applied(fixesFor(text).actions, 'Remove the ownerReference to ReplicaSet gone-a', text);
    expect(after).toBe(
      text.replace('{apiVersion: apps/v1, kind: ReplicaSet, name: gone-a, uid: 11111111-aaaa-4000-8000-000000000001}, ', ''),
    );
    expectSameObjectsBut(text, after, 'web-1', removeRef(0));
  });

  it('removes the last element and the comma before it', () => {
    const after = applied(fixesFor(text).actions, 'Remove the ownerReference to ReplicaSet gone-b', text);
    expect(after).toBe(
      text.replace(', {apiVersion: apps/v1, kind: ReplicaSet, name: gone-b, uid: 22222222-bbbb-4000-8000-000000000002}', ''),
    );
    expectSameObjectsBut(text, after, 'web-1', removeRef(1));
  });

  it('the only element: the key line goes', () => {
    const only = `apiVersion: v1
kind: Pod
metadata:
  name: web-1 # a comment, ending with a comma,
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: gone-a, uid: 11111111-aaaa-4000-8000-000000000001}]  # old
  namespace: shop
`;
    const after = applied(fixesFor(only).actions, 'Remove the ownerReference to ReplicaSet gone-a', only);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1 # a comment, ending with a comma,
  namespace: shop
`);
    expectSameObjectsBut(only, after, 'web-1', removeRef(0));
  });

  it('the only element in a flow mapping: the member goes with its comma', () => {
    const flow = `apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: gone-a, uid: 11111111-aaaa-4000-8000-000000000001}]}
`;
    const after = applied(fixesFor(flow).actions, 'Remove the ownerReference to ReplicaSet gone-a', flow);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop}
`);
    expectSameObjectsBut(flow, after, 'web-1', removeRef(0));
  });
});

describe('remove an ownerReference: JSON', () => {
  const pod = (refs: unknown[]) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'shop', ownerReferences: refs, labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx' }] },
  });
  const A = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone-a', uid: '11111111-aaaa-4000-8000-000000000001', controller: true };
  const B = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone-b', uid: '22222222-bbbb-4000-8000-000000000002' };
  const without = (o: ReturnType<typeof pod>) => {
    const { ownerReferences: _, ...metadata } = o.metadata;
    return { ...o, metadata };
  };

  it('pretty-printed: first, last and only element, the result printed as JSON.stringify would', () => {
    const text = JSON.stringify(pod([A, B]), null, 2) + '\n';
    const { actions } = fixesFor(text, { uri: JSON_URI });
    const first = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', text, JSON_URI);
    expect(first).toBe(JSON.stringify(pod([B]), null, 2) + '\n');
    expectSameObjectsBut(text, first, 'web-1', removeRef(0), JSON_URI);
    const last = applied(actions, 'Remove the ownerReference to ReplicaSet gone-b', text, JSON_URI);
    expect(last).toBe(JSON.stringify(pod([A]), null, 2) + '\n');
    expectSameObjectsBut(text, last, 'web-1', removeRef(1), JSON_URI);

    const only = JSON.stringify(pod([A]), null, 4);
    const after = applied(fixesFor(only, { uri: JSON_URI }).actions, 'Remove the ownerReference to ReplicaSet gone-a', only, JSON_URI);
    expect(after).toBe(JSON.stringify(without(pod([A])), null, 4));
    expectSameObjectsBut(only, after, 'web-1', removeRef(0), JSON_URI);
  });

  it('the only member last in its object: the comma before it goes', () => {
    const o = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop', ownerReferences: [A] } };
    const text = JSON.stringify(o, null, 2);
    const after = applied(fixesFor(text, { uri: JSON_URI }).actions, 'Remove the ownerReference to ReplicaSet gone-a', text, JSON_URI);
    expect(after).toBe(JSON.stringify({ ...o, metadata: { name: 'web-1', namespace: 'shop' } }, null, 2));
    expectSameObjectsBut(text, after, 'web-1', removeRef(0), JSON_URI);
  });

  it('compact: first, last and only element', () => {
    const text = JSON.stringify(pod([A, B]));
    const { actions } = fixesFor(text, { uri: JSON_URI });
    const first = applied(actions, 'Remove the ownerReference to ReplicaSet gone-a', text, JSON_URI);
    expect(first).toBe(JSON.stringify(pod([B])));
    expectSameObjectsBut(text, first, 'web-1', removeRef(0), JSON_URI);
    const last = applied(actions, 'Remove the ownerReference to ReplicaSet gone-b', text, JSON_URI);
    expect(last).toBe(JSON.stringify(pod([A])));
    expectSameObjectsBut(text, last, 'web-1', removeRef(1), JSON_URI);
    const only = JSON.stringify(pod([B]));
    const after = applied(fixesFor(only, { uri: JSON_URI }).actions, 'Remove the ownerReference to ReplicaSet gone-b', only, JSON_URI);
    expect(after).toBe(JSON.stringify(without(pod([B]))));
    expectSameObjectsBut(only, after, 'web-1', removeRef(0), JSON_URI);
  });

  it('a JSON List (file not named .json): the element of the right item goes', () => {
    const list = (refs: unknown[]) => ({
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } }, pod(refs)],
    });
    const text = JSON.stringify(list([A, B]), null, 2);
    const after = applied(fixesFor(text).actions, 'Remove the ownerReference to ReplicaSet gone-b', text);
    expect(after).toBe(JSON.stringify(list([A]), null, 2));
    expectSameObjectsBut(text, after, 'web-1', removeRef(1));
  });
});

describe('remove an ownerReference that names another object', () => {
  const RS = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  namespace: shop
  uid: 44444444-dddd-4000-8000-000000000004
`;

  it('owner-coordinates-mismatch: offered, not preferred (the name may be the typo)', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-xyz
    uid: 44444444-dddd-4000-8000-000000000004
`;
    const { actions, diagnostics } = fixesFor(text, { others: { 'file:///work/rs.yaml': RS } });
    expect(diagnostics.map((d) => d.code)).toContain('owner-coordinates-mismatch');
    const after = applied(actions, 'Remove the ownerReference to ReplicaSet web-xyz', text);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
`);
    expectSameObjectsBut(text, after, 'web-1', removeRef(0));
    expect(actions[0].isPreferred).toBe(false);
  });

  it('owner-namespace-mismatch: offered', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: other
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-abc
    uid: 44444444-dddd-4000-8000-000000000004
`;
    const { actions, diagnostics } = fixesFor(text, { others: { 'file:///work/rs.yaml': RS } });
    expect(diagnostics.map((d) => d.code)).toContain('owner-namespace-mismatch');
    const after = applied(actions, 'Remove the ownerReference to ReplicaSet web-abc', text);
    expect(after).toBe(`apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: other
`);
    expectSameObjectsBut(text, after, 'web-1', removeRef(0));
  });
});

describe('use the uid of the owner that exists', () => {
  const RS = (uid: string | undefined) => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  namespace: shop
${uid ? `  uid: ${uid}\n` : ''}`;
  const REAL = '44444444-dddd-4000-8000-000000000004';
  const pod = (uid: string) => `apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: web-abc
    uid: ${uid}
    controller: true
`;
  const title = `Use the uid of the existing ReplicaSet web-abc (${REAL})`;
  const setUid = (o: KubeObject) => {
    o.ownerReferences[0].uid = REAL;
  };

  it.each([
    ['plain', '99999999-0000-4000-8000-000000000009', REAL],
    ['double-quoted', '"99999999-0000-4000-8000-000000000009"', `"${REAL}"`],
    ['single-quoted', "'99999999-0000-4000-8000-000000000009'", `'${REAL}'`],
  ])('%s uid: replaced in the same quoting', (_, old, replaced) => {
    const text = pod(old);
    const { actions } = fixesFor(text, { others: { 'file:///work/rs.yaml': RS(REAL) } });
    const after = applied(actions, title, text);
    expect(after).toBe(pod(replaced));
    expect(actions.find((a) => a.title === title)!.isPreferred).toBe(true);
    expectSameObjectsBut(text, after, 'web-1', setUid);
  });

  it('a plain uid that YAML would read as a number is quoted', () => {
    const text = pod('old-uid');
    const rs = RS('"5678"');
    const after = applied(
      fixesFor(text, { others: { 'file:///work/rs.yaml': rs } }).actions,
      'Use the uid of the existing ReplicaSet web-abc (5678)',
      text,
    );
    expect(after).toBe(pod('"5678"'));
    expectSameObjectsBut(text, after, 'web-1', (o) => {
      o.ownerReferences[0].uid = '5678';
    });
  });

  it('in JSON', () => {
    const o = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-1',
        namespace: 'shop',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'old' }],
      },
    };
    const text = JSON.stringify(o, null, 2);
    const after = applied(fixesFor(text, { uri: JSON_URI, others: { 'file:///work/rs.yaml': RS(REAL) } }).actions, title, text, JSON_URI);
    expect(after).toBe(text.replace('"uid": "old"', `"uid": "${REAL}"`));
    expectSameObjectsBut(text, after, 'web-1', setUid, JSON_URI);
  });

  it('not offered when the owner has no uid of its own (a hand-written manifest)', () => {
    const text = pod('99999999-0000-4000-8000-000000000009');
    const { actions, diagnostics } = fixesFor(text, { others: { 'file:///work/rs.yaml': RS(undefined) } });
    expect(diagnostics.map((d) => d.code)).toContain('owner-uid-mismatch');
    expect(actions).toEqual([]);
  });
});

describe('write the kind (and apiVersion) as the object with the uid has them', () => {
  // OpenShift 4.8's ingress canary operator writes `kind: daemonset` (a must-gather's openshift-ingress-canary).
  const CANARY = path.join(__dirname, '../fixtures/loader/must-gather/namespaces/openshift-ingress-canary');
  const SERVICES_URI = 'file:///work/core/services.yaml';
  const services = readFileSync(path.join(CANARY, 'core/services.yaml'), 'utf8');
  const daemonsets = { 'file:///work/apps/daemonsets.yaml': readFileSync(path.join(CANARY, 'apps/daemonsets.yaml'), 'utf8') };
  const title =
    'Write kind DaemonSet, as DaemonSet openshift-ingress-canary/ingress-canary (uid c4d58cda-5c8a-4bcf-a679-c28e66f4f551) has it';

  it('kind: daemonset in the must-gather: corrected to DaemonSet, the preferred fix, and the finding is gone', () => {
    const { actions, diagnostics } = fixesFor(services, { uri: SERVICES_URI, others: daemonsets });
    expect(diagnostics.map((d) => d.code)).toEqual(['unresolvable-owner-kind']);
    const after = applied(actions, title, services, SERVICES_URI);
    expect(after).toBe(services.replace('kind: daemonset', 'kind: DaemonSet'));
    expect(actions.find((a) => a.title === title)!.isPreferred).toBe(true);
    expectSameObjectsBut(
      services,
      after,
      'ingress-canary',
      (o) => {
        o.ownerReferences[0].kind = 'DaemonSet';
      },
      SERVICES_URI,
    );
    // Applied, the reference resolves: nothing left to report.
    expect(fixesFor(after, { uri: SERVICES_URI, others: daemonsets }).diagnostics).toEqual([]);
  });

  const DS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: ops
  uid: 55555555-eeee-4000-8000-000000000005
`;
  const pod = (apiVersion: string, kind: string, name = 'agent', namespace = 'ops') => `apiVersion: v1
kind: Pod
metadata:
  name: agent-x1
  namespace: ${namespace}
  ownerReferences:
  - apiVersion: ${apiVersion}
    kind: ${kind}
    name: ${name}
    uid: 55555555-eeee-4000-8000-000000000005
    controller: true
`;

  it('apiVersion and kind both in the wrong case, in JSON-style quotes: both corrected in their quoting, in one action', () => {
    const text = pod('"Apps/v1"', "'daemonSet'");
    const { actions } = fixesFor(text, { others: { 'file:///work/ds.yaml': DS } });
    const after = applied(
      actions,
      'Write apiVersion apps/v1 and kind DaemonSet, as DaemonSet ops/agent (uid 55555555-eeee-4000-8000-000000000005) has it',
      text,
    );
    expect(after).toBe(pod('"apps/v1"', "'DaemonSet'"));
    expect(actions.find((a) => a.title.startsWith('Write'))!.edit!.changes![URI]).toHaveLength(2);
    expectSameObjectsBut(text, after, 'agent-x1', (o) => {
      o.ownerReferences[0] = { ...o.ownerReferences[0], apiVersion: 'apps/v1', kind: 'DaemonSet' };
    });
  });

  it('not offered when the case is not all that differs: another name, another namespace, another kind, or no object with the uid', () => {
    for (const [text, others] of [
      [pod('apps/v1', 'daemonset', 'agent-old'), { 'file:///work/ds.yaml': DS }],
      [pod('apps/v1', 'daemonset', 'agent', 'shop'), { 'file:///work/ds.yaml': DS }],
      [pod('apps/v1', 'deamonset'), { 'file:///work/ds.yaml': DS }],
      [pod('apps/v1', 'daemonset'), {}],
    ] as const) {
      const { actions, diagnostics } = fixesFor(text, { others });
      expect(diagnostics.map((d) => d.code)).toContain('unresolvable-owner-kind');
      expect(actions.filter((a) => a.title.startsWith('Write')).map((a) => a.title)).toEqual([]);
    }
  });
});

describe('set blockOwnerDeletion: false', () => {
  it('on a reference to itself (foreground-deadlock)', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: me
  namespace: shop
  uid: 55555555-eeee-4000-8000-000000000005
  ownerReferences:
  - apiVersion: v1
    kind: ConfigMap
    name: me
    uid: 55555555-eeee-4000-8000-000000000005
    blockOwnerDeletion: true
`;
    const { actions, diagnostics } = fixesFor(text, { predictions: true });
    expect(diagnostics.map((d) => d.code)).toContain('foreground-deadlock');
    const after = applied(actions, 'Set blockOwnerDeletion: false', text);
    expect(after).toBe(text.replace('blockOwnerDeletion: true', 'blockOwnerDeletion: false'));
    expectSameObjectsBut(text, after, 'me', (o) => {
      o.ownerReferences[0].blockOwnerDeletion = false;
    });
  });

  it('on a blocking dependent that cannot finish, in JSON', () => {
    const deploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: 66666666-ffff-4000-8000-000000000006
`;
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-old',
        namespace: 'shop',
        uid: 'uid-rs-old',
        deletionTimestamp: '2024-05-01T10:00:00Z',
        finalizers: ['example.com/hold'],
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: '66666666-ffff-4000-8000-000000000006',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
    };
    const text = JSON.stringify(rs, null, 2);
    const { actions, diagnostics } = fixesFor(text, { uri: JSON_URI, others: { 'file:///work/deploy.yaml': deploy }, predictions: true });
    expect(diagnostics.map((d) => d.code)).toContain('foreground-deadlock');
    const after = applied(actions, 'Set blockOwnerDeletion: false', text, JSON_URI);
    expect(after).toBe(text.replace('"blockOwnerDeletion": true', '"blockOwnerDeletion": false'));
    expectSameObjectsBut(
      text,
      after,
      'web-old',
      (o) => {
        o.ownerReferences[0].blockOwnerDeletion = false;
      },
      JSON_URI,
    );
  });
});

describe('keep only the first controller reference', () => {
  const owners = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: 77777777-0000-4000-8000-000000000007
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
  uid: 88888888-0000-4000-8000-000000000008
`;

  it('sets controller: false on the second controller reference', () => {
    const text = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: shared
  namespace: shop
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: 77777777-0000-4000-8000-000000000007, controller: true}
  - apiVersion: apps/v1
    kind: Deployment
    name: api
    uid: 88888888-0000-4000-8000-000000000008
    controller: True
`;
    const { actions, diagnostics } = fixesFor(text, { others: { 'file:///work/owners.yaml': owners } });
    expect(diagnostics.filter((d) => d.code === 'multiple-controllers')).toHaveLength(1);
    const after = applied(actions, 'Keep only the first controller reference', text);
    expect(after).toBe(text.replace('controller: True', 'controller: False'));
    expectSameObjectsBut(text, after, 'shared', (o) => {
      o.ownerReferences[1].controller = false;
    });
  });
});

describe('stale diagnostics and unusual layouts get no action', () => {
  it('the text changed since the model was built: nothing', () => {
    const m = load({ [URI]: TWO_REFS });
    const diagnostics = diagnosticsOf(m, URI);
    expect(quickFixes(m, URI, TWO_REFS, diagnostics)).toHaveLength(2);
    // A line inserted above: the references moved.
    expect(quickFixes(m, URI, `# new\n${TWO_REFS}`, diagnostics)).toEqual([]);
    // The first reference edited in place: only the second one's fix is still good.
    expect(quickFixes(m, URI, TWO_REFS.replace('name: gone-a', 'name: gone-c'), diagnostics).map((a) => a.title)).toEqual([
      'Remove the ownerReference to ReplicaSet gone-b',
    ]);
  });

  it('a diagnostic the model no longer reports, or reports elsewhere: nothing', () => {
    const m = load({ [URI]: TWO_REFS });
    const d = diagnosticsOf(m, URI).find((x) => x.code === 'dangling-owner')!;
    const moved = { ...d, range: { start: { line: d.range.start.line + 1, character: 0 }, end: d.range.end } };
    expect(quickFixes(m, URI, TWO_REFS, [moved])).toEqual([]);
    expect(quickFixes(m, URI, TWO_REFS, [{ ...d, code: 'owner-uid-mismatch' }])).toEqual([]);
    expect(quickFixes(m, URI, TWO_REFS, [{ ...d, data: { uid: 'nope', location: (d.data as { location: unknown }).location } }])).toEqual(
      [],
    );
    expect(quickFixes(m, URI, TWO_REFS, [{ ...d, source: 'yaml' }])).toEqual([]);
    expect(quickFixes(m, URI, TWO_REFS, [{ ...d, data: undefined }])).toEqual([]);
    // After the fix is applied and the model updated, the finding is gone and so is the action (gone-b's
    // finding is now where gone-a's was, with the same range: the message tells them apart).
    const fixed = applyEdits(TWO_REFS, quickFixes(m, URI, TWO_REFS, [d])[0].edit!.changes![URI]);
    m.update(URI, m.parse(URI, fixed));
    expect(quickFixes(m, URI, fixed, [d])).toEqual([]);
  });

  it('an anchor inside the item that is used elsewhere: the edit would not parse, so no action', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: &owner gone
    uid: 33333333-cccc-4000-8000-000000000003
  - apiVersion: apps/v1
    kind: Deployment
    name: gone-too
    uid: 44444444-cccc-4000-8000-000000000004
  annotations:
    owner: *owner
`;
    const { actions, diagnostics } = fixesFor(text);
    expect(diagnostics.filter((d) => d.code === 'dangling-owner')).toHaveLength(2);
    // The second item can go; the first holds the anchor the annotation refers to.
    expect(actions.map((a) => a.title)).toEqual(['Remove the ownerReference to Deployment gone-too']);
  });

  it('an anchored sequence: no edit rather than a broken one', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  ownerReferences: &owners
  - apiVersion: apps/v1
    kind: Deployment
    name: gone
    uid: 33333333-cccc-4000-8000-000000000003
`;
    const { actions, diagnostics } = fixesFor(text);
    expect(diagnostics.map((d) => d.code)).toContain('dangling-owner');
    expect(actions).toEqual([]);
  });
});

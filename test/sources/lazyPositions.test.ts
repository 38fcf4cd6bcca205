// YAML positions read when asked for (server/src/sources/manifests/lazyPositions.ts, the CLI's loader) are exactly the
// positions read while loading: same objects, same problems, same ranges, whichever reader took a document, in
// whatever order the objects are asked, on the examples, the fixtures and generated multi-document texts (block
// scalars, flow collections, comments, anchors, Lists, syntax errors, CRLF, a BOM, `...` markers).

import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../server/src/engine/model';
import { loadPaths } from '../../server/src/sources/files';
import { positionsPending } from '../../server/src/sources/manifests/lazyPositions';
import { parseManifestText, resolveRanges, type ParseResult } from '../../server/src/sources/manifests/parseManifest';
import { prng } from './helpers';

const EXAMPLES = join(__dirname, '../../examples');
const FIXTURES = join(__dirname, '../fixtures');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.ya?ml$/i.test(e)) out.push(p);
  }
  return out;
}

/** An object as the eager reader gives it: its source a plain one, with the ranges read from the lazy one. */
const asEager = (o: KubeObject, ranges = o.source?.ranges): KubeObject =>
  o.source ? { ...o, source: { file: o.source.file, docIndex: o.source.docIndex, itemPath: o.source.itemPath, ranges } } : o;

/** Reads the text both ways (and, lazily, asks for the positions in a shuffled order) and expects the same. */
function expectSame(name: string, text: string, random: () => number, fastYaml = true): void {
  const eager = parseManifestText(text, name, { fastYaml });
  const lazy: ParseResult = parseManifestText(text, name, { fastYaml, lazyPositions: true });
  expect(lazy.problems, name).toStrictEqual(eager.problems);
  expect(lazy.objects.length, name).toBe(eager.objects.length);
  const order = lazy.objects.map((_, i) => i).sort(() => random() - 0.5);
  const ranges = new Map(order.map((i) => [i, lazy.objects[i].source?.ranges]));
  expect(
    lazy.objects.map((o, i) => asEager(o, ranges.get(i))),
    name,
  ).toStrictEqual(eager.objects);
  // Read again, in document order: the same.
  expect(
    lazy.objects.map((o) => asEager(o)),
    name,
  ).toStrictEqual(eager.objects);
}

/** Documents of every shape the two YAML readers meet. */
const DOCUMENTS = [
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p{i}\n  namespace: ns\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: rs\n    uid: u{i}\n    controller: true\n    blockOwnerDeletion: true\n  finalizers:\n  - example.com/a\n  - example.com/b\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flow{i}, namespace: ns, ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: u{i}}]}\ndata: {a: "1"}\n',
  '# a comment before\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  # a comment inside\n  name: c{i}   # and after\n  uid: "c-{i}"\ndata:\n  script: |\n    line one\n      indented\n\n    last\n  folded: >-\n    some folded\n    text\n',
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: a{i}\n  labels: &labels\n    app: x\n  annotations: *labels\n  deletionTimestamp: "2024-01-01T00:00:00Z"\n  finalizers: [example.com/hold]\n',
  'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: l{i}a\n- apiVersion: v1\n  kind: List\n  items:\n  - kind: ConfigMap\n    apiVersion: v1\n    metadata: {name: l{i}b}\n',
  '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: arr{i}\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: svc{i}\n',
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "quoted {i}"\n  namespace: \'single\'\n  ownerReferences:\n    - {apiVersion: v1, kind: Node, name: n, uid: "n-{i}"}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken{i}\n  labels: [unclosed\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup{i}\n  name: dup{i}b\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wrong{i}\n  namespace: [a]\n',
  'kind: ConfigMap\nmetadata:\n  name: nokind{i}\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long{i}\n  annotations:\n    text: a long plain\n      scalar over lines\n',
  '# only a comment\n',
  '',
];

function generated(random: () => number, k: number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const docs: string[] = [];
  for (let d = 1 + Math.floor(random() * 6); d > 0; d--) docs.push(pick(DOCUMENTS).replaceAll('{i}', String(k * 10 + d)));
  let text = docs.map((d) => (random() < 0.2 ? `${d}...\n` : d)).join(random() < 0.5 ? '---\n' : '--- # next\n');
  if (random() < 0.3) text = `---\n${text}`;
  if (random() < 0.25) text = text.replace(/\n/g, '\r\n');
  if (random() < 0.2) text = `\uFEFF${text}`;
  return text;
}

describe('YAML positions read when asked for', () => {
  it('are the positions read while loading, on the examples and the test fixtures', () => {
    const random = prng(5);
    for (const f of [...walk(EXAMPLES), ...walk(FIXTURES)]) {
      const text = readFileSync(f, 'utf8');
      expectSame(f, text, random);
      expectSame(f, text, random, false);
    }
  });

  it('are the positions read while loading, on generated multi-document texts', () => {
    const random = prng(23);
    for (let k = 0; k < 400; k++) {
      const text = generated(random, k);
      expectSame(`generated ${k}.yaml`, text, random);
      expectSame(`generated ${k}.yaml`, text, random, false);
    }
  });

  it('are not read by the CLI loader until asked for, then are the eager ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-gc-lazy-'));
    const file = join(dir, 'many.yaml');
    const text = Array.from({ length: 50 }, (_, i) => DOCUMENTS[i % 3].replaceAll('{i}', String(i))).join('---\n');
    writeFileSync(file, text);
    const loaded = await loadPaths([file]);
    const eager = parseManifestText(text, file).objects;
    expect(loaded.objects.length).toBe(eager.length);
    for (const o of loaded.objects) {
      // Nothing located yet: the source holds no ranges of its own, and none is pending for resolveRanges (JSON's).
      expect(Object.keys(o.source!)).toStrictEqual(['file', 'docIndex', 'itemPath']);
      expect(positionsPending(o.source)).toBe(false);
    }
    expect(loaded.objects.map((o) => asEager(o))).toStrictEqual(eager);
  });
});

describe('JSON positions found on demand', () => {
  it('are found for the objects asked for in a List of 200,000 items, and for all of them', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } }));
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
    const objects = parseManifestText(text, 'big.json').objects;
    expect(objects).toHaveLength(200_000);
    const lines = text.split('\n');
    const expectLocated = (o: KubeObject) => {
      const r = o.source!.ranges!.name!;
      expect(lines[r.start.line].slice(r.start.character, r.end.character)).toBe(JSON.stringify(o.name));
    };
    const asked = [objects[3], objects[150_001], objects[199_999]];
    resolveRanges(text, asked);
    asked.forEach(expectLocated);
    // Only those: the others are left for later.
    expect(objects[4].source!.ranges).toBeUndefined();
    // All of them at once.
    resolveRanges(text, objects);
    [objects[4], objects[100_000], objects[199_998]].forEach(expectLocated);
  });

  it('are found in nested Lists and bare arrays as when every object is asked for', () => {
    const text = JSON.stringify([
      { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', finalizers: ['x/y'] } }] },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }] },
      },
    ]);
    const one = parseManifestText(text, 'nested.json').objects;
    const all = parseManifestText(text, 'nested.json').objects;
    resolveRanges(text, all);
    for (let i = 0; i < one.length; i++) {
      resolveRanges(text, [one[i]]);
      expect(one[i].source!.ranges).toBeDefined();
      expect(one[i].source).toStrictEqual(all[i].source);
    }
  });
});

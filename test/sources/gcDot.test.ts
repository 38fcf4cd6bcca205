import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareUtf8, goQuote, writeGcDot } from '../../server/src/engine/graph/dotWriter';
import type { GraphSnapshot, GraphSnapshotNode } from '../../server/src/engine/graph/graphSnapshot';
import { buildInventory } from '../../server/src/engine/inventory';
import { DOT_DELETION_MARKER, dotToObjects, parseGcDot } from '../../server/src/sources/gcDot/parseGcDot';
import { goUnquote } from '../../server/src/sources/gcDot/goString';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { CORPUS, brief, prng, textAt } from './helpers';

const FIXTURES = join(__dirname, '../fixtures/dot');
const GOLDEN_CORPUS = join(CORPUS, 'gc-debug-dot/kubernetes-testdata');

const node = (uid: string, extra: Partial<GraphSnapshotNode> = {}): GraphSnapshotNode => ({
  group: '',
  version: 'v1',
  kind: 'Pod',
  namespace: 'ns',
  name: uid,
  uid,
  missing: false,
  beingDeleted: false,
  deletingDependents: false,
  virtual: false,
  ...extra,
});

describe('golden files of kube-controller-manager (current format)', () => {
  for (const name of ['empty.dot', 'simple.dot', 'escaping.dot']) {
    it(`reads and writes ${name} back byte for byte`, () => {
      const text = readFileSync(join(FIXTURES, name), 'utf8');
      const r = parseGcDot(text, name);
      expect(r.problems).toEqual([]);
      expect(r.format).toBe('current');
      expect(writeGcDot(r.snapshot)).toBe(text);
    });
  }

  it.skipIf(!existsSync(GOLDEN_CORPUS))('the fixtures are the corpus golden files (skipped without /work/shared)', () => {
    for (const name of readdirSync(GOLDEN_CORPUS)) {
      const text = readFileSync(join(GOLDEN_CORPUS, name), 'utf8');
      expect(readFileSync(join(FIXTURES, name), 'utf8')).toBe(text);
      expect(writeGcDot(parseGcDot(text, name).snapshot)).toBe(text);
    }
  });

  it('unescapes Go quoting (escaping.dot) and keys nodes by uid', () => {
    const r = parseGcDot(readFileSync(join(FIXTURES, 'escaping.dot'), 'utf8'), 'escaping.dot');
    const weird = 'ref1-[]"\\Iñtërnâtiônàlizætiøn,🐹';
    expect(r.snapshot.nodes.map((n) => n.uid)).toEqual([weird, 'ref2-']);
    expect(r.snapshot.nodes[0]).toMatchObject({
      group: 'ref1group',
      version: 'version',
      kind: 'ref1kind-Iñtërnâtiônàlizætiøn,🐹',
      namespace: 'ref1ns',
    });
    expect(r.snapshot.edges).toEqual([{ from: weird, to: 'ref2-' }]);
  });

  it('simple.dot has the documented shape', () => {
    const r = parseGcDot(readFileSync(join(FIXTURES, 'simple.dot'), 'utf8'), 'simple.dot');
    expect(r.snapshot.edges).toEqual([
      { from: 'alpha', to: 'bravo' },
      { from: 'alpha', to: 'charlie' },
      { from: 'delta', to: 'foxtrot' },
      { from: 'foxtrot', to: 'golf' },
    ]);
    expect(r.snapshot.nodes.every((n) => n.kind === '' && n.version === '' && !n.virtual)).toBe(true);
  });
});

// Written by hand from FORMAT.md's description of the gonum-era dump (Kubernetes 1.12–1.25): integer node ids
// in map order, `digraph`, a blank line before the edges, re-quoted labels, and (first version) raw newlines.
const GONUM = `digraph full {
  // Node definitions.
  2 [
    label="\\"uid=5b7d2f0e-aaaa-4c1e-9d5a-000000000003\\nnamespace=kube-system\\nPod.v1/kube-dns-5c4b8c5d4f-x2x9q\\n\\""
    group=""
    version="v1"
    kind="Pod"
    namespace="kube-system"
    name="kube-dns-5c4b8c5d4f-x2x9q"
    uid="5b7d2f0e-aaaa-4c1e-9d5a-000000000003"
    missing="false"
    beingDeleted="true"
    deletingDependents="false"
    virtual="false"
  ];
  0 [
    label="\\"uid=5b7d2f0e-aaaa-4c1e-9d5a-000000000001\\nnamespace=kube-system\\nDeployment.v1.apps/kube-dns\\n\\""
    group="apps"
    version="v1"
    kind="Deployment"
    namespace="kube-system"
    name="kube-dns"
    uid="5b7d2f0e-aaaa-4c1e-9d5a-000000000001"
    missing="false"
    beingDeleted="false"
    deletingDependents="false"
    virtual="true"
  ];
  1 [
    label="uid=5b7d2f0e-aaaa-4c1e-9d5a-000000000002
namespace=kube-system
ReplicaSet.v1.apps/kube-dns-5c4b8c5d4f
"
    group="apps"
    version="v1"
    kind="ReplicaSet"
    namespace="kube-system"
    name="kube-dns-5c4b8c5d4f"
    uid="5b7d2f0e-aaaa-4c1e-9d5a-000000000002"
    missing="false"
    beingDeleted="true"
    deletingDependents="true"
    virtual="false"
  ];

  // Edge definitions.
  2 -> 1;
  1 -> 0;
}
`;

describe('the older gonum format', () => {
  it('is read by uid, never by the integer DOT id', () => {
    const r = parseGcDot(GONUM, 'old.dot');
    expect(r.problems).toEqual([]);
    expect(r.format).toBe('gonum');
    const uid = (n: number) => `5b7d2f0e-aaaa-4c1e-9d5a-00000000000${n}`;
    expect(r.snapshot.nodes.map((n) => `${n.kind}/${n.name}`)).toEqual([
      'Pod/kube-dns-5c4b8c5d4f-x2x9q',
      'Deployment/kube-dns',
      'ReplicaSet/kube-dns-5c4b8c5d4f',
    ]);
    expect(r.snapshot.edges).toEqual([
      { from: uid(3), to: uid(2) },
      { from: uid(2), to: uid(1) },
    ]);
    // Written out in the current format: sorted by uid, quoted ids, no blank line.
    const out = writeGcDot(r.snapshot);
    expect(out.startsWith('strict digraph full {\n  // Node definitions.\n  "5b7d2f0e-aaaa-4c1e-9d5a-000000000001" [\n')).toBe(true);
    expect(out).toContain(
      '    label="uid=5b7d2f0e-aaaa-4c1e-9d5a-000000000002\\nnamespace=kube-system\\nReplicaSet.v1.apps/kube-dns-5c4b8c5d4f\\nbeingDeleted,deletingDependents\\n"\n',
    );
    expect(out).toContain(
      '\n  // Edge definitions.\n  "5b7d2f0e-aaaa-4c1e-9d5a-000000000002" -> "5b7d2f0e-aaaa-4c1e-9d5a-000000000001";\n  "5b7d2f0e-aaaa-4c1e-9d5a-000000000003" -> "5b7d2f0e-aaaa-4c1e-9d5a-000000000002";\n}\n',
    );
    expect(writeGcDot(parseGcDot(out, 'again.dot').snapshot)).toBe(out);
  });

  it('accepts `strict digraph` and falls back to the label when attributes are missing', () => {
    const text =
      'strict digraph full {\n  0 [\n    label="\\"uid=u0\\nnamespace=n\\nPod.v1/p\\n\\""\n  ];\n  1 [\n    label="\\"uid=u1\\nnamespace=n\\nReplicaSet.v1.apps/rs\\n\\""\n  ];\n  0 -> 1;\n}\n';
    const r = parseGcDot(text, 'x.dot');
    expect(r.snapshot.nodes.map((n) => [n.uid, n.kind, n.version, n.group, n.namespace, n.name])).toEqual([
      ['u0', 'Pod', 'v1', '', 'n', 'p'],
      ['u1', 'ReplicaSet', 'v1', 'apps', 'n', 'rs'],
    ]);
    expect(r.snapshot.edges).toEqual([{ from: 'u0', to: 'u1' }]);
    expect(r.problems.every((p) => p.severity === 'warning' && p.code === 'dot-syntax')).toBe(true);
  });
});

describe('writer', () => {
  it('omits orphans and empty sections, sorts nodes by UTF-8 bytes and edges by (from, to)', () => {
    // U+FF61 sorts before U+1F600 in UTF-8 (and in Go), but after it in UTF-16.
    const a = '\uff61';
    const b = '\u{1f600}';
    const snap: GraphSnapshot = {
      nodes: [node(b), node('orphan'), node(a, { virtual: true, beingDeleted: true, missing: true, deletingDependents: true }), node('c')],
      edges: [
        { from: b, to: a },
        { from: 'c', to: b },
        { from: 'c', to: a },
      ],
    };
    const out = writeGcDot(snap);
    expect(out).not.toContain('orphan');
    const ids = [...out.matchAll(/^ {2}(".*") \[$/gm)].map((m) => JSON.parse(m[1]));
    expect(ids).toEqual(['c', a, b]);
    expect(out).toContain('"c" -> "\uff61";\n  "c" -> "\u{1f600}";\n  "\u{1f600}" -> "\uff61";\n');
    expect(out).toContain(`label="uid=${a}\\nnamespace=ns\\nPod.v1/${a}\\nbeingDeleted,deletingDependents,virtual,missingFromGraph\\n"`);
    expect(writeGcDot({ nodes: [node('lonely')], edges: [] })).toBe('strict digraph full {\n}\n');
    expect(compareUtf8(a, b)).toBeLessThan(0);
    expect(compareUtf8('a', 'ab')).toBeLessThan(0);
  });

  it('writes nodes in the fixed attribute order with 2/4-space indentation', () => {
    const out = writeGcDot({ nodes: [node('x', { group: 'apps', kind: 'ReplicaSet' }), node('y')], edges: [{ from: 'y', to: 'x' }] });
    expect(out).toBe(`strict digraph full {
  // Node definitions.
  "x" [
    label="uid=x\\nnamespace=ns\\nReplicaSet.v1.apps/x\\n"
    group="apps"
    version="v1"
    kind="ReplicaSet"
    namespace="ns"
    name="x"
    uid="x"
    missing="false"
    beingDeleted="false"
    deletingDependents="false"
    virtual="false"
  ];
  "y" [
    label="uid=y\\nnamespace=ns\\nPod.v1/y\\n"
    group=""
    version="v1"
    kind="Pod"
    namespace="ns"
    name="y"
    uid="y"
    missing="false"
    beingDeleted="false"
    deletingDependents="false"
    virtual="false"
  ];
  // Edge definitions.
  "y" -> "x";
}
`);
  });

  it('quotes like Go %q and reads its own quoting back', () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\u0007\b\f\n\r\t\v')).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
    expect(goQuote('\u0000\u001b\u007f')).toBe('"\\x00\\x1b\\x7f"');
    expect(goQuote('\u00a0\u00ad\u200b')).toBe('"\\u00a0\\u00ad\\u200b"');
    expect(goQuote('\u{e0001}')).toBe('"\\U000e0001"');
    expect(goQuote('é 🐹 ü')).toBe('"é 🐹 ü"');
    expect(goUnquote('\\x41\\u00e9\\U0001F600\\t\\a\\101\\xc3\\xa9\\q')).toBe('A\u00e9\u{1f600}\t\u0007A\u00e9\\q');
    const rnd = prng(7);
    const alphabet = [
      'a',
      'Z',
      '"',
      '\\',
      '\n',
      '\t',
      '\u0000',
      '\u007f',
      '\u00a0',
      'é',
      '🐹',
      '\u2028',
      '\ufeff',
      '[',
      ']',
      ' ',
      '\u{e0001}',
      '\u0301',
    ];
    for (let i = 0; i < 300; i++) {
      let s = '';
      for (let j = Math.floor(rnd() * 12); j > 0; j--) s += alphabet[Math.floor(rnd() * alphabet.length)];
      const q = goQuote(s);
      expect(goUnquote(q.slice(1, -1)), JSON.stringify(s)).toBe(s);
    }
  });

  it('round-trips a snapshot of a real ownership graph', () => {
    const yaml = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, uid: d1}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-1
  namespace: shop
  uid: r1
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1-a
  namespace: shop
  uid: p1
  deletionTimestamp: "2024-01-01T00:00:00Z"
  finalizers: [foregroundDeletion]
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-1, uid: r1}, {apiVersion: v1, kind: ConfigMap, name: gone, uid: c9}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: alone, namespace: shop, uid: x1}
`;
    const inv = buildInventory(parseManifestText(yaml, 'g.yaml').objects);
    const snap = inv.graph.snapshot();
    const text = writeGcDot(snap);
    const back = parseGcDot(text, 'g.dot');
    expect(back.problems).toEqual([]);
    expect(back.snapshot).toEqual(snap);
    expect(writeGcDot(back.snapshot)).toBe(text);

    const objects = dotToObjects(back.snapshot, 'g.dot', back.ranges);
    expect(objects.map((o) => `${o.kind}/${o.name}`)).toEqual(['Deployment/web', 'Pod/web-1-a', 'ReplicaSet/web-1']);
    const pod = objects[1];
    expect(pod).toMatchObject({
      apiVersion: 'v1',
      namespace: 'shop',
      uid: 'p1',
      deletionTimestamp: DOT_DELETION_MARKER,
      finalizers: ['foregroundDeletion'],
      // The dump keeps edges sorted, not the order of the ownerReferences.
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'c9' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'r1' },
      ],
    });
    expect(pod.ownerReferences[1].controller).toBeUndefined();
    expect(pod.ownerReferences[1].blockOwnerDeletion).toBeUndefined();
    expect(objects.find((o) => o.uid === 'c9')).toBeUndefined(); // virtual
    expect(textAt(text, pod.source!.ranges!.uid)).toBe('"p1"');
    expect(textAt(text, pod.source!.ranges!.ownerReferenceEntries[0].uid)).toBe('"c9"');
    expect(textAt(text, pod.source!.ranges!.ownerReferenceEntries[1].entry)).toBe('"p1" -> "r1";');
  });
});

describe('malformed and quirky DOT', () => {
  it('reports located problems and keeps what it could read', () => {
    const text = `strict digraph full {
  "a" [
    uid="a"
    kind="Pod"
  ];
  "b" [ uid="b" kind= ];
  "c" [
    uid="c"
    beingDeleted="maybe"
  ];
  "a" -> "c";
  -> "x";
`;
    const r = parseGcDot(text, 'bad.dot');
    expect(r.snapshot.nodes.map((n) => n.uid)).toEqual(['a', 'c']);
    expect(r.snapshot.edges).toEqual([{ from: 'a', to: 'c' }]);
    const errors = r.problems.filter((p) => p.severity === 'error');
    expect(brief(errors)).toEqual(['dot-syntax:error@6:23', 'dot-syntax:error@12:3', 'dot-syntax:error@13:1']);
    expect(errors[0].reason).toBe('Expected a value for the attribute kind, found "]".');
    expect(errors[2].reason).toBe('The graph is not closed with "}".');
    expect(r.problems.some((p) => p.severity === 'warning' && p.reason.includes('"maybe"'))).toBe(true);
  });

  it('never throws', () => {
    const rnd = prng(3);
    const pieces = [
      'strict ',
      'digraph ',
      'full ',
      '{',
      '}',
      '[',
      ']',
      '"',
      '\\',
      'uid=',
      '"u"',
      ' -> ',
      ';',
      '\n',
      '0',
      '/*',
      '*/',
      '//',
      '#',
      '<',
      '>',
      ' label="x\ny"',
      '=',
      ',',
      ':',
    ];
    for (let i = 0; i < 300; i++) {
      let s = '';
      for (let j = Math.floor(rnd() * 40); j > 0; j--) s += pieces[Math.floor(rnd() * pieces.length)];
      expect(() => dotToObjects(parseGcDot(s, 'f.dot').snapshot, 'f.dot'), JSON.stringify(s)).not.toThrow();
    }
    expect(parseGcDot('not a graph', 'n.dot').problems[0].reason).toContain('This is not a DOT graph');
    expect(parseGcDot('strict digraph full {\n  "x" [ label="never closed\n', 'u.dot').problems.map((p) => p.reason)).toContain(
      'A quoted string is never closed.',
    );
  });

  it('merges the duplicate blocks of a missing owner and prefers an observed node', () => {
    const block = (uid: string, missing: boolean) =>
      `  "${uid}" [\n    group=""\n    version="v1"\n    kind="ConfigMap"\n    namespace=""\n    name="cm"\n    uid="${uid}"\n    missing="${missing}"\n    beingDeleted="false"\n    deletingDependents="false"\n    virtual="false"\n  ];\n`;
    const text = `strict digraph full {\n${block('m', true)}${block('m', true)}  "p" [ uid="p" kind="Pod" version="v1" name="p" namespace="n" group="" missing="false" beingDeleted="false" deletingDependents="false" virtual="false" ];\n  "p" -> "m";\n  "p" -> "m";\n}\n`;
    const r = parseGcDot(text, 'q.dot');
    expect(r.problems).toEqual([]);
    expect(r.snapshot.nodes.map((n) => [n.uid, n.missing])).toEqual([
      ['m', true],
      ['p', false],
    ]);
    expect(r.snapshot.edges).toHaveLength(2);
    const objs = dotToObjects(r.snapshot, 'q.dot', r.ranges);
    expect(objs.map((o) => o.uid)).toEqual(['p']);
    expect(objs[0].ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'm' }]);
    expect(objs[0].source!.ranges!.ownerReferenceEntries).toHaveLength(1);
  });
});

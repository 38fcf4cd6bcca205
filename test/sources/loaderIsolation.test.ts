// Issue 13, defects 1–3: a broken document is skipped and reported at its own line, and only it; deep and huge
// documents are refused before the YAML parser builds anything.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseAllDocuments, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, MAX_YAML_DOCUMENT_BYTES, parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { findTooDeep } from '../../server/src/sources/manifests/yamlDepth';
import { yamlDocumentSpans } from '../../server/src/sources/manifests/yamlSpans';
import { splitLargeList } from '../../server/src/sources/manifests/yamlList';
import { prettyListItems, scanJsonStructure } from '../../server/src/sources/manifests/jsonDepth';
import { brief } from './helpers';

const cm = (name: string, owner?: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: demo\n  uid: u-${name}\n` +
  (owner ? `  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: ${owner}, uid: u-${owner}}\n` : '');

const names = (text: string) => parseManifestText(text, 'x.yaml').objects.map((o) => o.name);

describe('a syntax error skips only the document that holds it (defect 1)', () => {
  // The report's reproduction: `first`, a document holding only `]`, then `third` owned by `first`.
  for (const broken of [
    ']',
    '}',
    '[',
    '{',
    ']]',
    'a: ]',
    'key: "half',
    '- a\nb: c',
    '  bad: indent\n b: c',
    '?',
    ': x',
    '@',
    '`x`',
    '&a *a',
    '!!map [1]',
    'a: *nowhere',
    '%YAML 1.2',
  ]) {
    it(`a document holding ${JSON.stringify(broken)}`, () => {
      const text = `${cm('first')}---\n${broken}\n---\n${cm('third', 'first')}`;
      const r = parseManifestText(text, 'repro.yaml');
      expect(r.objects.map((o) => o.name)).toEqual(['first', 'third']);
      for (const p of r.problems) {
        // reported on the broken document's own lines (7 to the line before the next `---`)
        expect(p.line).toBeGreaterThanOrEqual(7);
        expect(p.line).toBeLessThanOrEqual(7 + broken.split('\n').length);
      }
    });
  }

  it('the same with CRLF line ends, a document end marker and comments between the documents', () => {
    const text = `# header\n${cm('first')}...\n# between\n---\n]\n---\n${cm('third', 'first')}`.replace(/\n/g, '\r\n');
    const r = parseManifestText(text, 'repro.yaml');
    expect(r.objects.map((o) => o.name)).toEqual(['first', 'third']);
    expect(brief(r.problems)).toEqual(['yaml-syntax:error@11:1']);
  });

  it('numbers documents as one parse of the stream did', () => {
    const r = parseManifestText(`%YAML 1.2\n---\n${cm('a')}---\n---\n${cm('b')}...\n${cm('c')}`, 'x.yaml');
    expect(r.objects.map((o) => [o.name, o.source!.docIndex])).toEqual([
      ['a', 0],
      ['b', 2],
      ['c', 3],
    ]);
    expect(r.problems).toEqual([]);
  });
});

describe('document spans', () => {
  it('start at each `---` line, end after each `...` line, and keep headers and directives with the next document', () => {
    const text = '# head\n%YAML 1.2\n---\na: 1\n--- |\n  text\n...\n# c\n---\nb: 2\n';
    expect(yamlDocumentSpans(text).map(([s, e]) => text.slice(s, e))).toEqual([
      '# head\n%YAML 1.2\n---\na: 1\n',
      '--- |\n  text\n...\n',
      '# c\n---\nb: 2\n',
    ]);
  });

  it('do not split at `---` that is not at the start of a line, or followed by more than a separator', () => {
    const text = 'a: "x\n  --- y"\nb: ----\nc: 1\u2028---\n';
    expect(yamlDocumentSpans(text)).toEqual([[0, text.length]]);
  });
});

describe('a NUL byte or a control character skips its own document only (defect 2)', () => {
  it('reports the byte at its line and column; the other documents load', () => {
    const text = `${cm('a')}---\n${cm('b').replace('namespace: demo', 'namespace: de\u0000mo')}---\n${cm('c')}`;
    const r = parseManifestText(text, 'x.yaml');
    expect(r.objects.map((o) => o.name)).toEqual(['a', 'c']);
    expect(brief(r.problems)).toEqual(['yaml-syntax:error@12:16']);
    expect(r.problems[0].reason).toContain('NUL');
  });

  it('does the same for ESC, BEL and DEL, as go-yaml refuses them ("control characters are not allowed")', () => {
    for (const ch of ['\u001b', '\u0007', '\u007f', '\u0086']) {
      const r = parseManifestText(`${cm('a')}---\n${cm(`b${ch}`)}---\n${cm('c')}`, 'x.yaml');
      expect(r.objects.map((o) => o.name)).toEqual(['a', 'c']);
      expect(r.problems.map((p) => p.line)).toEqual([11]);
    }
  });

  it('keeps tabs, line breaks, NEL and the rest of Unicode', () => {
    expect(names(`${cm('a')}---\n${cm('b')}  annotations: {x: "tab\there \u0085 é 😀"}\n`)).toEqual(['a', 'b']);
  });

  it('still calls a file binary when its start looks binary', () => {
    const png = String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0, 0, 0x0d, 0x0a, 0x1a, 0x0a) + '\ufffd'.repeat(30);
    expect(brief(parseManifestText(png + cm('a'), 'x.yaml').problems)).toEqual(['binary:error@1:1']);
    const utf16WithoutBom = Array.from(cm('a'))
      .map((c) => `${c}\u0000`)
      .join('');
    expect(brief(parseManifestText(utf16WithoutBom, 'x.yaml').problems)).toEqual(['binary:error@1:1']);
  });
});

describe('depth and size are bounded before parsing (defect 3)', () => {
  it('refuses a megabyte of `[` with one located too-deep error, and reads the next document', () => {
    const text = `${cm('a')}---\n${'['.repeat(1_000_000)}\n---\n${cm('c')}`;
    const r = parseManifestText(text, 'x.yaml');
    expect(r.objects.map((o) => o.name)).toEqual(['a', 'c']);
    expect(r.problems.map((p) => `${p.code}@${p.line}`)).toEqual(['too-deep@8']);
    expect(r.problems[0].column).toBeLessThanOrEqual(MAX_YAML_DEPTH + 1);
  });

  it('refuses deep block mappings, compact sequences and flow mappings, each at the line where the limit is passed', () => {
    let block = '';
    for (let i = 0; i < 3000; i++) block += `${' '.repeat(i)}a${i}:\n`;
    const cases = [block, `${'- '.repeat(300_000)}x\n`, `a: ${'{b: '.repeat(10_000)}`, `x:\n${'  '.repeat(1)}- ${'[ '.repeat(400)}`];
    for (const doc of cases) {
      const r = parseManifestText(`${cm('a')}---\n${doc}\n---\n${cm('c')}`, 'x.yaml');
      expect(r.objects.map((o) => o.name)).toEqual(['a', 'c']);
      expect(r.problems.map((p) => p.code)).toEqual(['too-deep']);
      expect(r.problems[0].line).toBeGreaterThanOrEqual(8);
      expect(r.problems[0].line).toBeLessThanOrEqual(8 + MAX_YAML_DEPTH + 1);
    }
  });

  it('reads nesting up to the limit that sits in quoted and block scalars or comments', () => {
    const brackets = '['.repeat(2 * MAX_YAML_DEPTH);
    const doc = `${cm('b')}  annotations:\n    q: "${brackets}"\n    s: '${brackets}'\n    l: |\n      ${brackets}\n      ${brackets}\n    # ${brackets}\n    p: x${brackets}\ndata:\n  nested: ${'['.repeat(100)}${']'.repeat(100)}\n`;
    const r = parseManifestText(doc, 'x.yaml');
    expect(r.problems).toEqual([]);
    expect(r.objects.map((o) => o.name)).toEqual(['b']);
  });

  it(`refuses a YAML document over ${MAX_YAML_DOCUMENT_BYTES / 1024 / 1024} MB before parsing it, and reads the others`, () => {
    const filler = `  k: ${'x'.repeat(1000)}\n`.repeat(Math.ceil(MAX_YAML_DOCUMENT_BYTES / 1000));
    const r = parseManifestText(`${cm('a')}---\n${cm('big')}data:\n${filler}---\n${cm('c')}`, 'x.yaml');
    expect(r.objects.map((o) => o.name)).toEqual(['a', 'c']);
    expect(r.problems.map((p) => `${p.code}@${p.line}`)).toEqual(['too-large@7']); // at its `---`
    expect(r.problems[0].reason).toContain('kubectl get -o json');
  });

  it('refuses JSON nested deeper than Kubernetes allows (10,000), where JSON.parse would hold every level', () => {
    const text = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":${'['.repeat(5_000_000)}`;
    const r = parseManifestText(text, 'deep.json');
    expect(brief(r.problems)).toEqual(['too-deep:error@1:10069']);
  });
});

// The pre-scan must never refuse a real manifest: on every document of the copied corpus, it finds the depth the
// parser finds, give or take the levels a `- key:` line is counted for.
describe('the depth pre-scan on real manifests', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) files.push(p);
    }
  };
  walk(join(__dirname, '..', 'fixtures'));

  const depthOf = (n: unknown): number => {
    let max = 0;
    const stack: [unknown, number][] = [[n, 0]];
    while (stack.length) {
      const [x, d] = stack.pop()!;
      if (isMap(x)) for (const p of x.items) stack.push([p.value, d + 1]);
      else if (isSeq(x)) for (const it of x.items) stack.push([it, d + 1]);
      else max = Math.max(max, d);
    }
    return max;
  };

  it(`holds for ${'every'} YAML fixture`, () => {
    expect(files.length).toBeGreaterThan(20);
    let documents = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [start, end] of yamlDocumentSpans(text)) {
        const docs = parseAllDocuments(text.slice(start, end));
        if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length) continue;
        const real = depthOf(docs[0].contents as Node);
        documents++;
        const where = `${file}:${text.slice(0, start).split('\n').length}`;
        expect(findTooDeep(text, start, end, real * 2 + 2), where).toBe(-1);
        if (real > 1) expect(findTooDeep(text, start, end, real - 1), where).toBeGreaterThanOrEqual(0);
      }
    }
    expect(documents).toBeGreaterThan(50);
  });
});

// A YAML document over the size limit that is a List in kubectl's layout is read item by item: the same objects,
// ranges and problems as reading it whole, with memory bounded by the largest item instead of the List.
describe('a large YAML List is read item by item', () => {
  const fixtures = join(__dirname, '..', 'fixtures');
  const lists = [
    'fuzz/must-gather/openshift-kube-scheduler/core/configmaps.yaml',
    'fuzz/must-gather/openshift-dns-operator/core/configmaps.yaml',
    'loader/must-gather/namespaces/openshift-ingress-canary/core/pods.yaml',
  ];
  const small = { maxYamlDocumentBytes: 2048 };
  /** A limit under the List's size and over its largest item's, so that every item is read. */
  const limitFor = (text: string) => {
    const list = splitLargeList(text, 0, text.length)!;
    const largest = Math.max(...list.items.map(([s, e]) => e - s));
    expect(largest).toBeLessThan(text.length);
    return { maxYamlDocumentBytes: largest };
  };

  for (const name of lists) {
    it(`gives what reading it whole gives: ${name}`, () => {
      const text = readFileSync(join(fixtures, name), 'utf8');
      const whole = parseManifestText(text, name);
      expect(whole.objects.length).toBeGreaterThan(1);
      expect(parseManifestText(text, name, limitFor(text))).toEqual(whole);
    });
  }

  it('the same for a List whose items are indented under `items:` (a typed List: kind: PodList)', () => {
    const text = readFileSync(join(fixtures, lists[2]), 'utf8');
    expect(text).toMatch(/^kind: PodList$/m);
    const lines = text.split('\n');
    const from = lines.indexOf('items:') + 1;
    const to = lines.findIndex((l, i) => i > from && /^\w/.test(l));
    const indented = [...lines.slice(0, from), ...lines.slice(from, to).map((l) => (l ? `  ${l}` : l)), ...lines.slice(to)].join('\n');
    const whole = parseManifestText(indented, 'x.yaml');
    expect(whole.objects.length).toBeGreaterThan(1);
    expect(parseManifestText(indented, 'x.yaml', limitFor(indented))).toEqual(whole);
  });

  it('skips only the item that is broken, and says where', () => {
    const items = Array.from(
      { length: 30 },
      (_, i) =>
        `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n    namespace: n\n  data:\n    k: "${'x'.repeat(100)}"\n`,
    );
    items[7] = items[7].replace('    namespace: n\n', '    namespace: [n\n');
    items[9] = items[9].replace('cm-9', 'cm-\u00009');
    items[11] = `- ${'['.repeat(400)}\n`;
    items[3] = items[3].replace('    namespace: n\n', '    namespace: n\n    namespace: n2\n');
    const text = `apiVersion: v1\nitems:\n${items.join('')}kind: List\nmetadata:\n  resourceVersion: ""\n`;
    const r = parseManifestText(text, 'list.yaml', small);
    expect(r.objects.map((o) => o.name)).toEqual(
      Array.from({ length: 30 }, (_, i) => `cm-${i}`).filter((n) => !['cm-7', 'cm-9', 'cm-11'].includes(n)),
    );
    expect(r.objects.map((o) => o.source!.itemPath[0])).toEqual(r.objects.map((o) => Number(o.name.slice(3))));
    expect(new Set(r.objects.map((o) => o.source!.docIndex))).toEqual(new Set([0])); // refused items do not count as documents
    const line = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
    const [dup, ...errors] = r.problems;
    expect([dup.code, dup.line, dup.reason]).toEqual([
      'duplicate-key',
      line('namespace: n2'),
      'items[3].metadata has the key "namespace" more than once; the last value is used, as Kubernetes does.',
    ]);
    expect(errors.map((p) => p.code)).toEqual(['yaml-syntax', 'yaml-syntax', 'too-deep']);
    // the unclosed `[` is reported where the parser finds it unclosed: inside that item
    expect(errors[0].line).toBeGreaterThanOrEqual(line('namespace: [n'));
    expect(errors[0].line).toBeLessThan(line('name: cm-8'));
    expect(errors.slice(1).map((p) => p.line)).toEqual([line('\u0000'), line('[[[')]);
  });

  it('refuses a large document that is not a List in that layout, saying how to read it', () => {
    const flow = `{apiVersion: v1, kind: List, items: [${Array.from({ length: 40 }, (_, i) => `{apiVersion: v1, kind: ConfigMap, metadata: {name: c${i}}}`).join(', ')}]}\n`;
    const r = parseManifestText(`${cm('a')}---\n${flow}`, 'x.yaml', small);
    expect(r.objects.map((o) => o.name)).toEqual(['a']);
    expect(r.problems.map((p) => `${p.code}@${p.line}`)).toEqual(['too-large@7']);
    expect(r.problems[0].reason).toContain('kubectl get -o json');
  });
});

// A JSON List over 4 MB is scanned first (its nesting) and read one item at a time: the same objects, positions and
// problems as one JSON.parse of it.
describe('a large JSON List is read item by item', () => {
  const jsonFiles: string[] = [];
  const walkJson = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walkJson(p);
      else if (name.endsWith('.json')) jsonFiles.push(p);
    }
  };
  walkJson(join(__dirname, '..', 'fixtures'));
  const scanned = { jsonScanAbove: 0 };

  it('gives what one JSON.parse gives, on every JSON fixture', () => {
    expect(jsonFiles.length).toBeGreaterThan(10);
    let lists = 0;
    for (const file of jsonFiles) {
      const text = readFileSync(file, 'utf8');
      if (/^\s*\{[\s\S]*"items"\s*:\s*\[\s*\{/.test(text.slice(0, 4096))) lists++;
      expect(parseManifestText(text, file, scanned), file).toEqual(parseManifestText(text, file));
    }
    expect(lists).toBeGreaterThan(3);
  });

  it("the same with wrong types, duplicate keys and odd items; a syntax error anywhere is still the whole file's", () => {
    const item = (i: number, meta: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-${i}","namespace":"n"${meta}}}`;
    const items = [
      item(0, ''),
      item(1, ',"uid":42'),
      item(2, ',"ownerReferences":"x"'),
      item(3, ',"name":"again"'),
      '{"kind":"Pod","metadata":{"name":"p"}}',
    ];
    const list = (body: string, kind = 'List') => `{"apiVersion":"v1","kind":"${kind}","items":[\n${body}\n],"metadata":{}}`;
    for (const text of [
      list(items.join(',\n')),
      list(items.join(',\n'), 'ConfigMapList'),
      list(`${items.join(',')},null,3`),
      list(`${items.join(',')},"x"`),
      list(items.join(',\n'), 'Thing'),
      list(`${items.join(',')},{"a":}`),
      `\ufeff${list(items.join(','))}`,
    ]) {
      const whole = parseManifestText(text, 'x.json');
      expect(parseManifestText(text, 'x.json', scanned), text.slice(0, 60)).toEqual(whole);
    }
    expect(parseManifestText(list(`${items.join(',')},{"a":}`), 'x.json', scanned).problems.map((p) => p.code)).toEqual(['json-syntax']);
  });

  it('reads each item on its own (the items array found by the scan)', () => {
    const text = `{"kind":"List","apiVersion":"v1","metadata":{"items":[1]},"items":[{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a \\" [ {"}},\n {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"b"}}]}`;
    const scan = scanJsonStructure(text, 100);
    expect(scan.items?.spans.map(([s, e]) => JSON.parse(text.slice(s, e)).metadata.name)).toEqual(['a " [ {', 'b']);
    expect(scanJsonStructure(`{"items":[{},null]}`, 100).items).toBeUndefined();
    expect(scanJsonStructure(`{"items":[{}],"items":[{}]}`, 100).items).toBeUndefined();
    expect(scanJsonStructure(`[{"items":[{}]}]`, 100).items).toBeUndefined();
    expect(scanJsonStructure('[[[', 2).tooDeepAt).toBe(2);
  });
});

describe("kubectl's JSON layout: the items found without a scan", () => {
  it("gives what one JSON.parse gives, and falls back when the spans are not the root's items", () => {
    const item = (i: number) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, namespace: 'n', uid: i === 3 ? 42 : `u-${i}` },
      data: { trap: '},\n{', k: `${'['.repeat(i)}` },
    });
    const list = { apiVersion: 'v1', items: Array.from({ length: 6 }, (_, i) => item(i)), kind: 'List', metadata: { resourceVersion: '' } };
    const pretty = `${JSON.stringify(list, null, 4)}\n`;
    expect(prettyListItems(pretty)?.spans).toHaveLength(6);
    const nestedFirst = `${JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { x: { items: [{ a: 1 }] } }, items: list.items }, null, 4)}\n`;
    const twoSpaces = `${JSON.stringify(list, null, 2)}\n`;
    const notAList = `${JSON.stringify({ ...list, kind: 'Thing' }, null, 4)}\n`;
    for (const text of [pretty, nestedFirst, twoSpaces, notAList, pretty.replace('"cm-4"', '"cm-4",')]) {
      expect(parseManifestText(text, 'x.json', { jsonScanAbove: 0 }), text.slice(0, 80)).toEqual(parseManifestText(text, 'x.json'));
    }
  });
});

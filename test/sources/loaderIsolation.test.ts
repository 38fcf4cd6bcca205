// Issue 13, defects 1–3: a broken document is skipped and reported at its own line, and only it; deep and huge
// documents are refused before the YAML parser builds anything.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseAllDocuments, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, MAX_YAML_DOCUMENT_BYTES, parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { findTooDeep } from '../../server/src/sources/manifests/yamlDepth';
import { yamlDocumentSpans } from '../../server/src/sources/manifests/yamlSpans';
import { brief } from './helpers';

const cm = (name: string, owner?: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: demo\n  uid: u-${name}\n` +
  (owner ? `  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: ${owner}, uid: u-${owner}}\n` : '');

const names = (text: string) => parseManifestText(text, 'x.yaml').objects.map((o) => o.name);

describe('a syntax error skips only the document that holds it (defect 1)', () => {
  // The report's reproduction: `first`, a document holding only `]`, then `third` owned by `first`.
  for (const broken of [']', '}', '[', '{', ']]', 'a: ]', 'key: "half', '- a\nb: c', '  bad: indent\n b: c', '?', ': x', '@', '`x`', '&a *a', '!!map [1]', 'a: *nowhere', '%YAML 1.2']) {
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
    expect(r.objects.map((o) => [o.name, o.source!.docIndex])).toEqual([['a', 0], ['b', 2], ['c', 3]]);
    expect(r.problems).toEqual([]);
  });
});

describe('document spans', () => {
  it('start at each `---` line, end after each `...` line, and keep headers and directives with the next document', () => {
    const text = '# head\n%YAML 1.2\n---\na: 1\n--- |\n  text\n...\n# c\n---\nb: 2\n';
    expect(yamlDocumentSpans(text).map(([s, e]) => text.slice(s, e))).toEqual([
      '# head\n%YAML 1.2\n---\na: 1\n', '--- |\n  text\n...\n', '# c\n---\nb: 2\n',
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
    const utf16WithoutBom = Array.from(cm('a')).map((c) => `${c}\u0000`).join('');
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

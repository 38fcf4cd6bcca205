// The fast YAML subset reader (server/src/sources/manifests/yamlFast.ts) against the `yaml` package: every file read
// both ways gives the same objects (positions included) and the same problems, and the fast reader does take most
// documents of real manifests and dumps (else it would gain nothing). Mutated texts check the refusals.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { fastYamlDocument } from '../../server/src/sources/manifests/yamlFast';
import { yamlDocumentSpans } from '../../server/src/sources/manifests/yamlSpans';
import { CORPUS, prng } from './helpers';

const EXAMPLES = join(__dirname, '../../examples');
const FIXTURES = join(__dirname, '../fixtures');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.ya?ml$/i.test(e)) out.push(p);
  }
  return out;
}

/** Reads each text both ways and expects the same result; returns how many documents the fast reader took. */
function compare(texts: { name: string; text: string }[]): { fast: number; documents: number } {
  let fast = 0;
  let documents = 0;
  for (const { name, text } of texts) {
    const quick = parseManifestText(text, name);
    const full = parseManifestText(text, name, { fastYaml: false });
    expect(quick, name).toStrictEqual(full);
    for (const [start, end] of yamlDocumentSpans(text)) {
      documents++;
      if (fastYamlDocument(text, start, end)) fast++;
    }
  }
  return { fast, documents };
}

const read = (files: string[]) => files.map((f) => ({ name: f, text: readFileSync(f, 'utf8') }));

describe('the fast YAML subset reader', () => {
  it('gives what the yaml package gives on the examples and the test fixtures', () => {
    // The incidents are written by hand in flow style, outside the subset by design: read both ways, not counted.
    const handWritten = (f: string) => f.includes(`${join('fixtures', 'incidents')}`);
    const files = [...walk(EXAMPLES), ...walk(FIXTURES)];
    compare(read(files.filter(handWritten)));
    const { fast, documents } = compare(read(files.filter((f) => !handWritten(f))));
    expect(fast).toBeGreaterThan(documents / 2);
  });

  it.skipIf(!existsSync(CORPUS))('gives what the yaml package gives on the corpus (skipped without it)', { timeout: 600_000 }, () => {
    const { fast, documents } = compare(read(walk(CORPUS)));
    expect(documents).toBeGreaterThan(2500);
    expect(fast / documents).toBeGreaterThan(0.8);
  });

  it('gives what the yaml package gives on mutated manifests (refusing what it cannot read)', () => {
    const sources = read(walk(EXAMPLES)).filter((t) => t.text.length < 20_000);
    const pieces = [
      ' ',
      '  ',
      '\n',
      '- ',
      ': ',
      ':',
      '#',
      ' #x',
      '"',
      "'",
      '{}',
      '[]',
      '|',
      '>-',
      '|+',
      '&a ',
      '*a',
      '!t ',
      '---\n',
      'true',
      'null',
      '~',
      '0x1F',
      '1e3',
      '-',
      '?',
      '\\n',
      '"a\\tb"',
      "'it''s'",
      '\n  ',
      '\n    - x',
      '"a\n  b"',
      "'x\ny'",
      'description:\n      long text\n      more',
      'key: v\n',
      '{{ x }}',
      '%',
      '@',
      '`',
      ',',
      '.inf',
      '0o17',
      '+1',
      '1.',
      '"\\u00e9"',
      '"\\e"',
      'a: b: c',
      '\n\n',
      '\t',
      '\r\n',
      '...\n',
      'uid: 1\n',
      'name:\n',
    ];
    const random = prng(17);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    const mutated: { name: string; text: string }[] = [];
    for (let k = 0; k < 1500; k++) {
      let text = pick(sources).text;
      for (let e = 1 + Math.floor(random() * 3); e > 0; e--) {
        const at = Math.floor(random() * text.length);
        const r = random();
        if (r < 0.5) text = text.slice(0, at) + pick(pieces) + text.slice(at);
        else if (r < 0.8) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 4));
        else {
          const lineStart = text.lastIndexOf('\n', at) + 1; // indentation one more or one less
          text = text.slice(0, lineStart) + (random() < 0.5 ? ' ' : '') + text.slice(lineStart + (random() < 0.5 ? 1 : 0));
        }
      }
      mutated.push({ name: `mutation ${k}.yaml`, text });
    }
    const { fast, documents } = compare(mutated);
    expect(fast).toBeGreaterThan(documents / 4);
    expect(fast).toBeLessThan(documents);
  });

  it('refuses what it does not read itself, and reads the values it takes as the yaml package does', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: [1, 2]\n',
      'a: {b: 1}\n',
      'a: multi\n  line\n  b: c\n',
      'a: "multi\n...\n  line"\n',
      'a: 1\na: 2\n',
      'a: 1\n# a comment line inside\nb: 2\n',
      'a:\tb\n',
      'a: 1\r\nb: 2\r\n',
      'name: {{ .Values.name }}\n',
      '%YAML 1.2\n---\na: 1\n',
      '- - x\n',
      'a: b: c\n',
      '1: x\n',
    ]) {
      expect(fastYamlDocument(text, 0, text.length), JSON.stringify(text)).toBeUndefined();
    }
    const text = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      "  name: 'it''s'",
      '  namespace: "a\\u00e9"',
      '  generation: 0x1F',
      '  labels: {}',
      '  finalizers:',
      '  - example.com/x # a comment',
      '  ownerReferences:',
      '    - uid: "1"',
      '      controller: true',
      '      kind: ~',
      'data: |-',
      '  text',
      '',
    ].join('\n');
    const quick = parseManifestText(text, 'pod.yaml');
    expect(quick.objects[0]).toMatchObject({ name: "it's", namespace: 'aé', generation: 31 });
    expect(quick).toStrictEqual(parseManifestText(text, 'pod.yaml', { fastYaml: false }));
    expect(fastYamlDocument(text, 0, text.length)).toBeDefined();
  });
});

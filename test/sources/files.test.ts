import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText, loadPaths } from '../../server/src/sources/files';
import { resolveRanges } from '../../server/src/sources/manifests/parseManifest';
import { textAt } from './helpers';

const root = mkdtempSync(join(tmpdir(), 'kgl-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: n\n`;
const write = (rel: string, text: string | Buffer) => {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
};

describe('loadPaths', () => {
  it('reads folders recursively in sorted order, manifests and DOT files only', async () => {
    const dir = join(root, 'tree');
    write('tree/b.yaml', cm('b'));
    write('tree/a.yml', `${cm('a1')}---\n${cm('a2')}`);
    write('tree/sub/c.json', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } }));
    write('tree/sub/z/D.YAML', cm('d'));
    write('tree/B.yaml', cm('B'));
    write('tree/readme.md', '# not a manifest\nkind: ConfigMap\n');
    write('tree/values.txt', cm('ignored'));
    write('tree/.hidden/x.yaml', cm('hidden'));
    write(
      'tree/g.dot',
      'strict digraph full {\n  "p" [ uid="p" kind="Pod" version="v1" name="pod" namespace="n" group="" missing="false" beingDeleted="false" deletingDependents="false" virtual="false" ];\n  "o" [ uid="o" kind="Node" version="v1" name="node" namespace="" group="" missing="false" beingDeleted="false" deletingDependents="false" virtual="false" ];\n  "p" -> "o";\n}\n',
    );
    const r = await loadPaths([dir]);
    expect(r.problems).toEqual([]);
    expect(r.objects.map((o) => o.name)).toEqual(['B', 'a1', 'a2', 'b', 'pod', 'node', 'c', 'd']);
    expect(r.files).toBe(6);
    expect([...r.texts.keys()].map((f) => f.slice(dir.length + 1))).toEqual([
      'B.yaml',
      'a.yml',
      'b.yaml',
      'g.dot',
      'sub/c.json',
      'sub/z/D.YAML',
    ]);
    expect(r.objects[4].ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node', uid: 'o' }]);
    // Twice the same folder (or a file inside it) is read once; an explicit file of any extension is read.
    const again = await loadPaths([dir, dir, join(dir, 'b.yaml'), join(dir, 'values.txt')]);
    expect(again.objects.map((o) => o.name)).toEqual(['B', 'a1', 'a2', 'b', 'pod', 'node', 'c', 'd', 'ignored']);
  });

  it('reports unreadable paths at line 1, column 1 and loads the others', async () => {
    const ok = write('u/ok.yaml', cm('ok'));
    const missing = join(root, 'u/missing.yaml');
    const r = await loadPaths([missing, ok]);
    expect(r.objects.map((o) => o.name)).toEqual(['ok']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ file: missing, line: 1, column: 1, severity: 'error', code: 'unreadable' });
    expect(r.problems[0].reason).toBe(`Cannot read ${missing}: no such file or folder.`);
  });

  it('refuses files over 256 MB without reading them', async () => {
    const big = join(root, 'huge/huge.yaml');
    mkdirSync(join(root, 'huge'), { recursive: true });
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 257 * 1024 * 1024); // sparse: takes no space
    closeSync(fd);
    write('huge/small.yaml', cm('small'));
    const r = await loadPaths([join(root, 'huge')]);
    expect(r.objects.map((o) => o.name)).toEqual(['small']);
    expect(r.problems.map((p) => [p.code, p.file])).toEqual([['too-large', big]]);
    expect(r.problems[0].reason).toContain('256 MB');
  });

  it('does not hang on symlink loops', async () => {
    write('loop/a/x.yaml', cm('x'));
    symlinkSync(join(root, 'loop'), join(root, 'loop/a/back'));
    symlinkSync(join(root, 'loop/a'), join(root, 'loop/self'));
    symlinkSync(join(root, 'loop/nowhere'), join(root, 'loop/dangling.yaml'));
    const r = await loadPaths([join(root, 'loop')]);
    expect(r.objects.map((o) => o.name)).toEqual(['x']);
    expect(r.problems.map((p) => p.code)).toEqual(['unreadable']);
  });

  it('reads stdin as YAML, JSON or DOT by its content', async () => {
    const yaml = await loadPaths(['-'], { stdin: Readable.from([Buffer.from(cm('from-stdin'))]) });
    expect(yaml.objects.map((o) => [o.name, o.source?.file])).toEqual([['from-stdin', '-']]);
    expect(yaml.objects[0].source?.ranges).toBeDefined();
    const json = await loadPaths(['-'], {
      stdin: Readable.from(['  {"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}]}']),
    });
    expect(json.objects.map((o) => o.name)).toEqual(['p']);
    expect(json.texts.get('-')).toContain('"kind":"List"');
    const dot = await loadPaths(['-'], {
      stdin: Readable.from([
        '// dump\nstrict digraph full {\n  "a" [ uid="a" kind="Pod" version="v1" name="p" ];\n  "b" [ uid="b" kind="Node" version="v1" name="n" ];\n  "a" -> "b";\n}\n',
      ]),
    });
    expect(dot.objects.map((o) => o.kind)).toEqual(['Pod', 'Node']);
  });

  it('keeps texts so that JSON positions can be resolved later', async () => {
    const file = write(
      'json/pods.json',
      JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'p1', namespace: 'n', uid: 'u1' } }] }, null, 2),
    );
    const r = await loadPaths([file]);
    expect(r.objects[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod', name: 'p1' });
    expect(r.problems.map((p) => p.code)).toEqual(['kind-inferred']);
    const text = r.texts.get(file)!;
    resolveRanges(text, r.objects);
    expect(textAt(text, r.objects[0].source!.ranges!.uid)).toBe('"u1"');
  });

  it('reports binary files and still loads the others', async () => {
    write('bin/a.yaml', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
    write('bin/b.yaml', cm('b'));
    const r = await loadPaths([join(root, 'bin')]);
    expect(r.objects.map((o) => o.name)).toEqual(['b']);
    expect(r.problems.map((p) => [p.code, p.line, p.column])).toEqual([['binary', 1, 1]]);
  });

  it('decodes UTF-8 with or without a BOM and UTF-16 with one', () => {
    expect(decodeText(Buffer.from('\ufeffkind: x', 'utf8'))).toBe('kind: x');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('kind: é', 'utf16le')]))).toBe('kind: é');
    const be = Buffer.from('kind: é', 'utf16le').swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('kind: é');
  });

  // A 100 MB multi-document YAML file, streamed one document at a time. It takes tens of seconds on a slow
  // machine, so it runs only when asked for; the 20 MB version always runs.
  const bigSizes = process.env.KGL_BIG_TESTS ? [20, 100] : [20];
  for (const mb of bigSizes) {
    it(`loads a ${mb} MB multi-document YAML file`, { timeout: 300_000 }, async () => {
      const file = join(root, `big-${mb}.yaml`);
      const fd = openSync(file, 'w');
      let size = 0;
      let n = 0;
      const pad = 'x'.repeat(400);
      while (size < mb * 1024 * 1024) {
        const doc = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${n}\n  namespace: n\n  uid: u-${n}\n  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: cm-${n - 1}, uid: u-${n - 1}}]\ndata:\n  k: "${pad}"\n`;
        writeSync(fd, doc);
        size += doc.length;
        n++;
      }
      closeSync(fd);
      const r = await loadPaths([file]);
      expect(r.problems).toEqual([]);
      expect(r.objects).toHaveLength(n);
      expect(r.objects[n - 1].source!.docIndex).toBe(n - 1);
      r.texts.clear();
      rmSync(file);
    });
  }
});

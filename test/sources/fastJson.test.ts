// The JSON fast path must give exactly what the general extractor gives, for every object it accepts.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { Extractor } from '../../server/src/sources/manifests/extract';
import { fastObject } from '../../server/src/sources/manifests/fastJson';
import { plainReader } from '../../server/src/sources/manifests/reader';
import { CORPUS } from './helpers';

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(json|ya?ml)$/.test(name)) out.push(p);
  }
  return out;
}

/** Every object-like value of a file: documents, List items, array elements. */
function candidates(file: string): unknown[] {
  const text = readFileSync(file, 'utf8');
  let docs: unknown[];
  try {
    docs = file.endsWith('.json') ? [JSON.parse(text)] : parseAllDocuments(text, { uniqueKeys: false }).map((d) => d.toJS());
  } catch {
    return [];
  }
  const out: unknown[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    out.push(v);
    const items = (v as { items?: unknown }).items;
    if (Array.isArray(items)) items.forEach(visit);
  };
  docs.forEach(visit);
  return out;
}

function check(files: string[]): { accepted: number; total: number } {
  let accepted = 0;
  let total = 0;
  for (const file of files) {
    for (const v of candidates(file)) {
      total++;
      const quick = fastObject(v);
      if (!quick) continue;
      accepted++;
      const ex = new Extractor(plainReader, file);
      ex.document(v);
      expect(ex.problems, file).toEqual([]);
      expect(ex.objects).toHaveLength(1);
      const slow = ex.objects[0].object;
      expect(quick, file).toStrictEqual(slow);
      expect(JSON.stringify(quick), file).toBe(JSON.stringify(slow)); // same key order too
    }
  }
  return { accepted, total };
}

describe('JSON fast path', () => {
  it('matches the general extractor on the fixtures', () => {
    const { accepted } = check(walk(join(__dirname, '../fixtures/loader')));
    expect(accepted).toBeGreaterThan(60);
  });

  it.skipIf(!existsSync(join(CORPUS, 'cluster-dumps')))(
    'matches the general extractor on the corpus (skipped without /work/shared/corpus)',
    { timeout: 300_000 },
    () => {
      const { accepted, total } = check(walk(join(CORPUS, 'cluster-dumps')));
      expect(accepted).toBeGreaterThan(3000);
      expect(total).toBeGreaterThan(accepted);
    },
  );

  it('declines what the general extractor must report or infer', () => {
    for (const v of [
      { kind: 'Pod', metadata: { name: 'x' } },
      { apiVersion: 'v1', kind: 'PodList', items: [] },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 1 } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 1 } } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { ownerReferences: [{ uid: 'u', controller: 'yes' }] } },
      { apiVersion: 'v1', kind: 'Pod', spec: { nodeName: 3 } },
      { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ image: 5 }] } },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'x' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { generation: 1.5 } },
      [{ apiVersion: 'v1', kind: 'Pod' }],
    ]) {
      expect(fastObject(v), JSON.stringify(v)).toBeUndefined();
    }
    expect(fastObject({ apiVersion: 'v1', kind: 'constructor' })).toMatchObject({ kind: 'constructor', facts: {} });
  });
});

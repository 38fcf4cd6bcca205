// Only server/src/sources/cluster talks to a cluster, and it can only read: the network modules and the
// Kubernetes client are imported nowhere else, and its one request function hard-codes GET.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const CLUSTER_DIR = 'server/src/sources/cluster/';
const NETWORK = /^(node:)?(https?|net|tls|http2|dgram)$|^@kubernetes\/client-node(\/|$)|^(node-fetch|undici|ws)$/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

describe('the cluster boundary', () => {
  const files = [...tsFiles(join(ROOT, 'server/src')), ...tsFiles(join(ROOT, 'client/src'))].map((f) => relative(ROOT, f).split('\\').join('/'));

  it('network modules and @kubernetes/client-node are imported only under server/src/sources/cluster', () => {
    const offenders = files
      .filter((f) => !f.startsWith(CLUSTER_DIR))
      .flatMap((f) => importsOf(readFileSync(join(ROOT, f), 'utf8')).filter((i) => NETWORK.test(i)).map((i) => `${f} imports ${i}`));
    expect(offenders).toEqual([]);
    expect(files.filter((f) => f.startsWith(CLUSTER_DIR)).length).toBeGreaterThan(3);
  });

  it('the API client sends GET and nothing else', () => {
    const text = readFileSync(join(ROOT, CLUSTER_DIR, 'apiClient.ts'), 'utf8');
    const methods = [...text.matchAll(/method:\s*['"]([A-Z]+)['"]/g)].map((m) => m[1]);
    expect(methods).toEqual(['GET']);
    expect(text).not.toMatch(/method:\s*[^'"\s]/); // no method taken from a variable
    // Only apiClient.ts makes requests: the other cluster modules go through it.
    for (const f of files.filter((x) => x.startsWith(CLUSTER_DIR) && !x.endsWith('apiClient.ts'))) {
      expect(readFileSync(join(ROOT, f), 'utf8'), f).not.toMatch(/\.request\(|\bfetch\(/);
    }
  });
});

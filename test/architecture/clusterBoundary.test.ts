// Read-only towards clusters. Which modules may reach a cluster at all is a dependency rule (.dependency-cruiser.cjs:
// only server/src/sources/cluster imports network modules or @kubernetes/client-node, and of those only apiClient.ts
// at run time); what the one request function sends is read here: it hard-codes GET.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const CLUSTER_DIR = 'server/src/sources/cluster/';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the cluster boundary', () => {
  const files = tsFiles(join(ROOT, CLUSTER_DIR)).map((f) => relative(ROOT, f).split('\\').join('/'));

  it('the API client sends GET and nothing else', () => {
    expect(files.length).toBeGreaterThan(3);
    const text = readFileSync(join(ROOT, CLUSTER_DIR, 'apiClient.ts'), 'utf8');
    const methods = [...text.matchAll(/method:\s*['"]([A-Z]+)['"]/g)].map((m) => m[1]);
    expect(methods).toEqual(['GET']);
    expect(text).not.toMatch(/method:\s*[^'"\s]/); // no method taken from a variable
    // Only apiClient.ts and clusterWrites.ts make requests: the other cluster modules go through them.
    for (const f of files.filter((x) => !x.endsWith('apiClient.ts') && !x.endsWith('clusterWrites.ts'))) {
      expect(readFileSync(join(ROOT, f), 'utf8'), f).not.toMatch(/\.request\(|\bfetch\(/);
    }
  });

  it('the one write is a JSON patch, in clusterWrites.ts, used only by app/wayOutActions.ts', () => {
    const text = readFileSync(join(ROOT, CLUSTER_DIR, 'clusterWrites.ts'), 'utf8');
    const methods = [...text.matchAll(/method:\s*['"]([A-Z]+)['"]/g)].map((m) => m[1]);
    expect(methods).toEqual(['PATCH']);
    expect(text).not.toMatch(/method:\s*[^'"\s]/);
    expect([...text.matchAll(/'Content-Type':\s*'([^']+)'/g)].map((m) => m[1])).toEqual(['application/json-patch+json']);
    const users = tsFiles(join(ROOT, 'server/src'))
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((f) => !f.endsWith('clusterWrites.ts') && /from '[^']*clusterWrites'/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(users).toEqual(['server/src/app/wayOutActions.ts']);
  });
});

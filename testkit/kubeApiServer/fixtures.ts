// Locates test/fixtures from wherever this code runs: its own folder under vitest, dist/ once esbuild has bundled
// it into the benchmark. JSON and PEM files are read at run time rather than imported, so both work.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let root: string | undefined;

function fixturesRoot(): string {
  if (root) return root;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures');
    if (existsSync(join(candidate, 'kube-api-tls'))) return (root = candidate);
    if (dirname(dir) === dir) throw new Error(`kubeApiServer: no test/fixtures/kube-api-tls above ${__dirname}`);
  }
}

export function fixturePath(...parts: string[]): string {
  return join(fixturesRoot(), ...parts);
}

export function readFixture(...parts: string[]): string {
  return readFileSync(fixturePath(...parts), 'utf8');
}

// kubectl-gc against a hostile API server: --request-timeout (kubectl's flag) bounds a trickling answer, and what was
// left out is a warning while the rest still answers; bad values are usage errors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';
import { parseRequestTimeout } from '../../server/src/cli/duration';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'cli-hostile' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-cli-hostile-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { KUBECONFIG: kubeconfig });

describe('kubectl-gc --request-timeout', () => {
  it('a trickling LIST is cut at the deadline: a warning names it, the rest of the preview answers', { timeout: 30_000 }, async () => {
    // About 6 s for the ConfigMaps at one byte per 50 ms: far past the 2 s deadline, which the other requests keep.
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'trickle', intervalMs: 50 });
    try {
      const r = await cli(['simulate', 'deploy/web', '-o', 'json', '--request-timeout', '2s']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^warning: this preview is incomplete: listing configmaps fails \(GET \/api\/v1\/configmaps\?limit=500 did not complete within 2 s \(the request deadline\)\)$/m,
      );
      const data = JSON.parse(r.stdout);
      expect(data.deleted.map((d: { uid: string }) => d.uid)).toEqual(expect.arrayContaining(['d-web', 'rs-web', 'p-web-1']));
      expect(server.requests.filter((q) => q.verb === 'list' && q.resource === 'configmaps')).toHaveLength(1);
    } finally {
      server.faults.clear();
    }
  });

  it('bad values, and the flag with -f, are usage errors (exit 2)', async () => {
    const bad = await cli(['check', '--request-timeout', '5 minutes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid value "5 minutes" for --request-timeout/);
    const withFiles = await cli(['check', '-f', join(dir, 'kubeconfig'), '--request-timeout', '5s']);
    expect(withFiles.code).toBe(2);
    expect(withFiles.stderr).toMatch(/--request-timeout bounds requests to a cluster; it does not apply with -f/);
  });

  it('reads durations as kubectl does', () => {
    expect(parseRequestTimeout('30')).toBe(30_000);
    expect(parseRequestTimeout('0')).toBe(0);
    expect(parseRequestTimeout('1s')).toBe(1000);
    expect(parseRequestTimeout('1.5s')).toBe(1500);
    expect(parseRequestTimeout('2m')).toBe(120_000);
    expect(parseRequestTimeout('1h30m')).toBe(5_400_000);
    expect(parseRequestTimeout('250ms')).toBe(250);
    for (const v of ['', 's', '1x', '-1s', '1s2', 'abc']) expect(() => parseRequestTimeout(v), v).toThrow(/--request-timeout/);
  });
});

// `kubectl gc simulate --remove-finalizer …` on a cluster (the API test server, in process): the change is simulated
// on what the CLI read, and never sent. Every request the CLI makes is a read.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { CLI } from '../helpers/cliProcess';
import { pod, replicaSet, seedShop } from '../cluster/clusterFixtures';

const FINALIZER = 'storage.acme.io/protect';
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'requests-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-requests-live-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  // A Pod held by a finalizer whose controller is nowhere: stuck terminating.
  server.add(
    pod('shop', 'held', 'p-held', {
      owner: replicaSet('shop', 'web-rs', 'rs-web'),
      deletionTimestamp: '2026-11-20T09:00:00Z',
      finalizers: [FINALIZER],
    }),
  );
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI as a child process (async: the API server runs in this process and must keep answering). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

describe('request flags on a live cluster', () => {
  it('--remove-finalizer on the held Pod: simulated from what was read (it goes), and nothing but reads is sent', async () => {
    const r = await cli(['simulate', '--remove-finalizer', FINALIZER, 'pod/held', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout) as { summary: string; targets: { uid: string; change: unknown }[] };
    expect(data.summary).toMatch(new RegExp(`^Removing finalizer ${FINALIZER} from Pod shop/held: 1 object deleted \\(1 Pod\\)`));
    expect(data.targets).toEqual([expect.objectContaining({ uid: 'p-held', change: { verb: 'remove-finalizer', detail: FINALIZER } })]);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.filter((q) => !['get', 'list', 'watch', 'discovery'].includes(q.verb)).map((q) => q.verb)).toEqual([]);
    expect(server.writes()).toBe(0);
    // The Pod is still held on the cluster.
    const held = await cli(['stuck', '-o', 'json']);
    expect((JSON.parse(held.stdout) as { stuck: { uid: string }[] }).stuck.map((s) => s.uid)).toContain('p-held');
  });
});

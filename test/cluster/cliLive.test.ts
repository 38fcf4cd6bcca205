// kubectl-gc without -f reads the cluster of the kubeconfig's context, as a kubectl plugin would: same JSON
// contracts as on files, metadata only, and never a write.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../kubeApiServer/kubeApiServer';
import { pod, replicaSet, seedShop } from './clusterFixtures';

const CLI = resolve(__dirname, '../../dist/cli.js');
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'cli-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-cli-live-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  // A Pod held by a finalizer whose controller is nowhere: stuck terminating.
  server.add(pod('shop', 'held', 'p-held', { owner: replicaSet('shop', 'web-rs', 'rs-web'), deletionTimestamp: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] }));
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI as a child process (async: the API server runs in this process and must keep answering). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: kubeconfig, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

const writes = () => {
  const c = server.countByVerb();
  return (c.create ?? 0) + (c.update ?? 0) + (c.patch ?? 0) + (c.delete ?? 0) + (c.deletecollection ?? 0);
};

describe('kubectl-gc on a live cluster', () => {
  it('simulate deploy/web in the context namespace: the JSON contract, from the live graph', async () => {
    const r = await cli(['simulate', 'deploy/web', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.deleted.map((d: { uid: string }) => d.uid)).toEqual(expect.arrayContaining(['d-web', 'rs-web', 'p-web-1']));
    expect(Object.keys(data).sort()).toEqual(['aborted', 'deleted', 'findings', 'notes', 'orphaned', 'remaining', 'steps', 'stuck'].filter((k) => k in data).sort());
    expect(writes()).toBe(0);
  });

  it('stuck -o json lists the held Pod with its since and why-chain', async () => {
    const r = await cli(['stuck', '-o', 'json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.stuck).toEqual([expect.objectContaining({ uid: 'p-held', since: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] })]);
    expect(data.stuck[0].blockedBy.length).toBeGreaterThan(0);
  });

  it('stuck as text says how long it has been terminating', async () => {
    const r = await cli(['stuck']);
    expect(r.stdout).toMatch(/Pod shop\/held\s+terminating since 2026-11-20T09:00:00Z for \d+[smhd]/);
  });

  it('graph -o json and check -o json work without -f', async () => {
    const g = JSON.parse((await cli(['graph', '-o', 'json'])).stdout);
    expect(g.edges).toContainEqual({ from: 'rs-web', to: 'd-web' });
    const c = await cli(['check', '-o', 'json', '-A']);
    expect(JSON.parse(c.stdout).objects).toBeGreaterThanOrEqual(6);
  });

  it('partial access: a warning on stderr and "incomplete" in the JSON', async () => {
    server.faults.forbid({ group: '', resource: 'secrets' });
    try {
      const r = await cli(['check', '-o', 'json']);
      expect(r.stderr).toMatch(/warning: this preview is incomplete: cannot list secrets/);
      expect(JSON.parse(r.stdout).incomplete).toEqual([expect.stringMatching(/cannot list secrets/)]);
    } finally {
      server.faults.clear();
    }
  });

  it('--context that is not in the kubeconfig, and -n with -A: exit 2 with a clear message', async () => {
    const a = await cli(['check', '--context', 'nope']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/context "nope" is not in the kubeconfig/);
    const b = await cli(['check', '-n', 'x', '-A']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/either -n\/--namespace or -A/);
  });

  it('an unreachable cluster: exit 2, one line, no stack trace', async () => {
    const dead = join(dir, 'dead-kubeconfig');
    writeFileSync(dead, server.kubeconfig().replace(/https:\/\/127\.0\.0\.1:\d+/, 'https://127.0.0.1:9'));
    const r = await cli(['check'], { KUBECONFIG: dead });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read the cluster of context ".*" at https:\/\/127\.0\.0\.1:9: .*ECONNREFUSED/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

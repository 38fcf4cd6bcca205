// kubectl-gc without -f reads the cluster of the kubeconfig's context, as a kubectl plugin would: same JSON
// contracts as on files, metadata only, and never a write.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATE_JSON_KEYS } from '../helpers/jsonContracts';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { STUCK_NAMESPACE_CONDITIONS, configMap, ns, pod, pvc, replicaSet, seedShop, terminatingNs } from './clusterFixtures';

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
  server.add(
    pod('shop', 'held', 'p-held', {
      owner: replicaSet('shop', 'web-rs', 'rs-web'),
      deletionTimestamp: '2026-11-20T09:00:00Z',
      finalizers: ['storage.acme.io/protect'],
    }),
  );
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

describe('kubectl-gc on a live cluster', () => {
  it('simulate deploy/web in the context namespace: the JSON contract, from the live graph', async () => {
    const r = await cli(['simulate', 'deploy/web', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.deleted.map((d: { uid: string }) => d.uid)).toEqual(expect.arrayContaining(['d-web', 'rs-web', 'p-web-1']));
    expect(Object.keys(data).sort()).toEqual(SIMULATE_JSON_KEYS.filter((k) => k in data).sort());
    expect(data.version).toBe(2);
    expect(data.summary).toMatch(/^Deleting Deployment \S+\/web: \d+ objects deleted/);
    // The simulation follows the cluster's own version (the test server's /version says v1.31.0).
    expect(data.kubernetesVersion).toBe('1.31');
    // A one-shot reading lists workloads in full (every command but graph may attribute a custom finalizer by their
    // images), the rest metadata-only.
    const lists = server.requests.filter((q) => q.verb === 'list');
    expect(lists.find((q) => q.resource === 'deployments')?.accept).not.toMatch(/PartialObjectMetadata/);
    expect(lists.find((q) => q.resource === 'replicasets')?.accept).toMatch(/PartialObjectMetadata/);
    expect(server.writes()).toBe(0);
  });

  it('stuck -o json lists the held Pod with its since and why-chain', async () => {
    const r = await cli(['stuck', '-o', 'json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.stuck).toEqual([
      expect.objectContaining({ uid: 'p-held', since: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] }),
    ]);
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

describe('kubectl-gc on a live cluster: Pods read in full where claims are, Namespace conditions', () => {
  beforeAll(() => {
    server.add(ns('data', 'ns-data'));
    server.add(pvc('data', 'data-db-0', 'pvc-data-db-0', { deletionTimestamp: '2026-11-20T09:00:00Z' }));
    server.add(pod('data', 'db-0', 'p-db-0', { claims: ['data-db-0'] }));
    server.add(configMap('data', 'settings', 'cm-data-settings'));
    server.add(ns('vault', 'ns-vault'));
    server.add(pvc('vault', 'secrets', 'pvc-vault'));
    server.add(pod('vault', 'vault-0', 'p-vault-0', { claims: ['secrets'] }));
    server.add(configMap('vault', 'settings', 'cm-vault-settings'));
    server.add(terminatingNs('legacy', 'ns-legacy', STUCK_NAMESPACE_CONDITIONS));
    server.add(
      pod('legacy', 'held', 'p-legacy-held', { deletionTimestamp: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] }),
    );
  });

  it('simulate: the claim being deleted stays, held by the Pod that mounts it (its Pods were read in full)', async () => {
    server.resetLog();
    const r = await cli(['simulate', 'cm/settings', '-n', 'data', '-o', 'json']);
    expect(r.stderr).toBe('');
    const data = JSON.parse(r.stdout);
    const claim = data.stuck.find((s: { uid: string }) => s.uid === 'pvc-data-db-0');
    expect(claim.blockedBy[0]).toMatchObject({ finalizer: 'kubernetes.io/pvc-protection', message: 'still mounted by Pod data/db-0' });
    const full = server.requests.filter((q) => q.verb === 'list' && q.resource === 'pods' && !/PartialObjectMetadata/.test(q.accept));
    expect(full.map((q) => q.namespace)).toEqual(['data']);
    expect(server.writes()).toBe(0);
  });

  it('stuck: the claim held by a running Pod, and the Namespace with its status conditions in the why-chain', async () => {
    const r = await cli(['stuck', '-o', 'json']);
    const data = JSON.parse(r.stdout);
    expect(data.stuck.find((s: { uid: string }) => s.uid === 'pvc-data-db-0').blockedBy[0].message).toBe('still mounted by Pod data/db-0');
    const legacy = data.stuck.find((s: { uid: string }) => s.uid === 'ns-legacy');
    expect(legacy.blockedBy[0].conditions.map((c: { type: string }) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    const text = await cli(['stuck']);
    expect(text.stdout).toMatch(
      /⧗ Namespace legacy {2}terminating since 2026-11-20T09:00:00Z for \d+[smhd]\n {4}└─ namespace-content: NamespaceContentRemaining: .*\n {7}status: NamespaceDeletionDiscoveryFailure \(DiscoveryFailed\): Discovery failed for some groups, 1 failing: .*\n {7}status: NamespaceContentRemaining \(SomeResourcesRemain\): Some resources are remaining: pods\. has 1 resource instances\n/,
    );
  });

  it('Pods that may not be read in full: a warning on stderr and an incomplete-preview note', async () => {
    server.faults.forbid({ group: '', resource: 'pods', namespace: 'vault' });
    try {
      // All namespaces are listed metadata-only (allowed); deleting Namespace vault reaches its Pods, which are not.
      const r = await cli(['simulate', 'ns/vault', '-o', 'json']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^warning: this preview is incomplete: cannot read the Pods in vault in full \(pods is forbidden: .*\), so which PersistentVolumeClaims its Pods mount \(and their nodes and phases\) is unknown$/m,
      );
      expect(JSON.parse(r.stdout).notes).toContainEqual(expect.stringMatching(/cannot read the Pods in vault in full/));
    } finally {
      server.faults.clear();
    }
  });
});

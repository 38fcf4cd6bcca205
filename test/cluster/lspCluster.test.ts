// The built language server's cluster/* requests over stdio, against the API test server: connect (status
// notifications), live stuck objects, Simulate Delete on the live graph, partial access, a dropped cluster,
// disconnect; the workspace features keep working throughout. Never a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterStatus } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterContextsRequest,
  ClusterDisconnectRequest,
  ClusterSimulateRequest,
  ClusterStatusNotification,
  ClusterStuckRequest,
  ObjectsRequest,
} from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { pod, replicaSet, seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
let lsp: LspSession;
const statuses: (ClusterStatus | null)[] = [];

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'lsp-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-cluster-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  server.add(
    pod('shop', 'held', 'p-held', {
      owner: replicaSet('shop', 'web-rs', 'rs-web'),
      deletionTimestamp: '2026-11-20T09:00:00Z',
      finalizers: ['storage.acme.io/protect'],
    }),
  );
  server.faults.forbid({ group: '', resource: 'secrets' });
  lsp = new LspSession({ folder: join(__dirname, '../../examples') });
  lsp.connection.onNotification(ClusterStatusNotification, (s) => {
    statuses.push(s);
  });
  await lsp.initialize();
});

afterAll(async () => {
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the language server on a live cluster', () => {
  it('lists the kubeconfig contexts', async () => {
    const r = await lsp.connection.sendRequest(ClusterContextsRequest, { kubeconfig });
    expect(r.error).toBeUndefined();
    expect(r.contexts).toEqual([expect.objectContaining({ current: true, namespace: 'shop', server: server.url })]);
  });

  it('connects, reports its status, and keeps the workspace features', async () => {
    const status = await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false });
    expect(status.state).toBe('degraded'); // secrets are forbidden
    expect(status.problems).toEqual([expect.objectContaining({ kind: 'forbidden', resource: 'secrets' })]);
    expect(status.objects).toBeGreaterThanOrEqual(6);
    await lsp.until(() => statuses.some((s) => s?.state === 'degraded'), 'a cluster status notification');
    const workspace = await lsp.connection.sendRequest(ObjectsRequest, {});
    expect(workspace.length).toBe(29); // the examples workspace, unchanged
  });

  it('live stuck objects with age and why-chain', async () => {
    const items = await lsp.connection.sendRequest(ClusterStuckRequest, { stuckAfterMinutes: 10 });
    const held = items.find((i) => i.uid === 'p-held');
    expect(held).toMatchObject({ state: 'stuck', since: '2026-11-20T09:00:00Z' });
    expect(held!.ageSeconds).toBeGreaterThan(3600);
    expect(held!.blockedBy[0]).toMatchObject({ type: 'finalizer', finalizer: 'storage.acme.io/protect' });
  });

  it('Simulate Delete on the live graph, with the incomplete-preview note', async () => {
    const report = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'd-web', policy: 'Background' });
    expect(report?.target.name).toBe('web');
    expect(report?.counts.deletedByKind).toEqual({ Deployment: 1, ReplicaSet: 1, Pod: 1 });
    expect(report?.notes).toEqual(expect.arrayContaining([expect.stringMatching(/this preview is incomplete: cannot list secrets/)]));
    // The cluster's own version (the test server's /version says v1.31.0), where versions differ (R57).
    expect(report?.kubernetesVersion).toBe('1.31');
    // Foreground: the held Pod blocks its ReplicaSet (blockOwnerDeletion), which blocks the Deployment.
    const foreground = await lsp.connection.sendRequest(ClusterSimulateRequest, { uid: 'd-web', policy: 'Foreground' });
    expect(foreground?.outcome).toBe('stuck');
  });

  it('a watch event reaches the live graph', async () => {
    server.update(
      pod('shop', 'web-1', 'p-web-1', {
        owner: replicaSet('shop', 'web-rs', 'rs-web'),
        deletionTimestamp: '2026-11-21T00:00:00Z',
        finalizers: ['storage.acme.io/protect'],
      }),
    );
    for (let i = 0; i < 100; i++) {
      const items = await lsp.connection.sendRequest(ClusterStuckRequest, {});
      if (items.some((x) => x.uid === 'p-web-1')) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the updated Pod never showed as stuck');
  });

  it('disconnects; cluster requests then say so; nothing was ever written', async () => {
    await lsp.connection.sendRequest(ClusterDisconnectRequest);
    await lsp.until(() => statuses[statuses.length - 1] === null, 'the null status');
    await expect(lsp.connection.sendRequest(ClusterStuckRequest, {})).rejects.toThrow(/not connected to a cluster/);
    expect(server.writes()).toBe(0);
  });

  it('a kubeconfig that cannot be used is a clear error', async () => {
    await expect(lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig: join(dir, 'missing'), allowExec: false })).rejects.toThrow(
      /no kubeconfig found: --kubeconfig .*missing does not exist/,
    );
    await expect(lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, context: 'nope', allowExec: false })).rejects.toThrow(
      /context "nope" is not in the kubeconfig/,
    );
  });
});

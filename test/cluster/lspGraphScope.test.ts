// The scoped live graph over stdio, against the API test server: kubeGcLens/cluster/graphSummary (objects per
// namespace), kubeGcLens/cluster/graph with `namespace` (its objects and their neighbours outside it), with `limit`
// (the cut, `truncated`, `omitted`), Show in Graph on a giant fan-out capped, a scoped graph following the watch;
// kubeGcLens/graph on the workspace takes the same parameters. Never a write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_SCHEME } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterDisconnectRequest,
  ClusterGraphRequest,
  ClusterGraphSummaryRequest,
  GraphRequest,
} from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { ns, pod, replicaSet, seedShop } from './clusterFixtures';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const FANOUT = 400;

let server: KubeApiServer;
let dir: string;
let lsp: LspSession;

const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'node-1', creationTimestamp: '2026-11-20T08:00:00Z' } };

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'scope-token' });
  dir = mkdtempSync(path.join(tmpdir(), 'kgl-lsp-graph-scope-'));
  seedShop(server);
  server.add(node);
  // A mirror Pod in shop, owned by the cluster-scoped Node.
  server.add(pod('shop', 'kube-proxy', 'p-mirror', { owner: node }));
  // A namespace with one ReplicaSet owning FANOUT Pods.
  server.add(ns('batch', 'ns-batch'));
  const rs = replicaSet('batch', 'huge', 'rs-huge');
  server.add(rs);
  server.addMany(Array.from({ length: FANOUT }, (_, i) => pod('batch', `huge-${i}`, `p-huge-${i}`, { owner: rs })));
  lsp = new LspSession({ folder: EXAMPLES });
  await lsp.initialize();
  await lsp.connection.sendRequest(ClusterConnectRequest, {
    kubeconfig: server.writeKubeconfig(dir, { namespace: 'shop' }),
    allowExec: false,
  });
});

afterAll(async () => {
  await lsp.connection.sendRequest(ClusterDisconnectRequest).catch(() => undefined);
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the scoped live graph', () => {
  it('graphSummary: objects per namespace, the largest first', async () => {
    const summary = await lsp.connection.sendRequest(ClusterGraphSummaryRequest);
    expect(summary.namespaces[0]).toEqual({ namespace: 'batch', objects: FANOUT + 1 });
    // shop: the Deployment, ReplicaSet, two Pods, ConfigMap, Secret (the Event is not watched); cluster-scoped: 2 Namespaces, the Node.
    expect(summary.namespaces).toContainEqual({ namespace: 'shop', objects: 6 });
    expect(summary.namespaces).toContainEqual({ namespace: '', objects: 3 });
    expect(summary.objects).toBe(FANOUT + 1 + 6 + 3);
  });

  it('a namespace: its objects, the cluster-scoped owner of one, the Namespace; edges only between them; nothing cut', async () => {
    const g = await lsp.connection.sendRequest(ClusterGraphRequest, { namespace: 'shop', limit: 1000 });
    expect(g.nodes.map((n) => n.uid).sort()).toEqual([
      'cm-settings',
      'd-web',
      'node-1',
      'ns-shop',
      'p-mirror',
      'p-web-1',
      'rs-web',
      's-token',
    ]);
    expect(g.truncated).toBeUndefined();
    expect(g.edges).toContainEqual({ from: 'p-mirror', to: 'node-1', controller: true, blockOwnerDeletion: true });
    const uids = new Set(g.nodes.map((n) => n.uid));
    for (const e of g.edges) expect(uids.has(e.from) && uids.has(e.to)).toBe(true);
    expect(g.nodes.every((n) => n.location?.uri.startsWith(`${LIVE_SCHEME}:`))).toBe(true);
    expect(g.nodes.some((n) => n.omitted)).toBe(false);
  });

  it('the cluster-scoped objects ("") with their namespaced dependents', async () => {
    const g = await lsp.connection.sendRequest(ClusterGraphRequest, { namespace: '' });
    expect(g.nodes.map((n) => n.uid).sort()).toEqual(['node-1', 'ns-batch', 'ns-shop', 'p-mirror']);
  });

  it('a limit cuts a namespace, owners first, and says so', async () => {
    const g = await lsp.connection.sendRequest(ClusterGraphRequest, { namespace: 'batch', limit: 50 });
    expect(g.truncated).toEqual({ shown: 50, total: FANOUT + 2 });
    expect(g.nodes).toHaveLength(50);
    expect(g.nodes[0].uid).toBe('rs-huge');
    expect(g.nodes.find((n) => n.uid === 'rs-huge')!.omitted).toEqual({ owners: 0, dependents: FANOUT - 49 });
    expect(g.edges).toHaveLength(49);
  });

  it('Show in Graph on one Pod of a giant fan-out: capped, the Pod and its owner first', async () => {
    const g = await lsp.connection.sendRequest(ClusterGraphRequest, { uid: 'p-huge-399', limit: 100 });
    expect(g.nodes.slice(0, 2).map((n) => n.uid)).toEqual(['p-huge-399', 'rs-huge']);
    expect(g.truncated).toEqual({ shown: 100, total: FANOUT + 1 });
    // Without a limit, the whole component, as before.
    const whole = await lsp.connection.sendRequest(ClusterGraphRequest, { uid: 'p-huge-399' });
    expect(whole.nodes).toHaveLength(FANOUT + 1);
    expect(whole.truncated).toBeUndefined();
  });

  it('parameters of the wrong type are refused (InvalidParams naming the field: test/lsp/requestParams.test.ts)', async () => {
    await expect(
      lsp.connection.sendRequest(ClusterGraphRequest, { namespace: 5, limit: 'ten' } as unknown as { namespace: string }),
    ).rejects.toMatchObject({ code: -32602, message: 'kubeGcLens/cluster/graph: params.namespace must be a string' });
  });

  it('the same scope read again follows the watch', async () => {
    server.add(pod('shop', 'web-2', 'p-web-2', { owner: replicaSet('shop', 'web-rs', 'rs-web') }));
    for (let i = 0; i < 200; i++) {
      const g = await lsp.connection.sendRequest(ClusterGraphRequest, { namespace: 'shop', limit: 1000 });
      if (g.nodes.some((n) => n.uid === 'p-web-2')) {
        expect(g.edges).toContainEqual({ from: 'p-web-2', to: 'rs-web', controller: true, blockOwnerDeletion: true });
        expect(server.writes()).toBe(0);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the new Pod never appeared in the namespace's graph");
  });

  it('kubeGcLens/graph on the workspace takes the same parameters', async () => {
    const whole = await lsp.connection.sendRequest(GraphRequest, {});
    const g = await lsp.connection.sendRequest(GraphRequest, { namespace: 'kafka', limit: 3 });
    expect(g.nodes).toHaveLength(3);
    expect(g.truncated?.shown).toBe(3);
    expect(g.truncated!.total).toBeLessThan(whole.nodes.length);
  });
});

// The live-object pickers' requests on the built language server over stdio, against the API test server with a few
// hundred objects: kubeGcLens/cluster/searchObjects (query, limit, total, order, live locations, following the watch)
// and kubeGcLens/cluster/objects with and without the new `query`/`limit` (old callers get every object, as before).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_SCHEME, type ClusterStatus } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterDisconnectRequest,
  ClusterObjectsRequest,
  ClusterSearchObjectsRequest,
} from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { objectLabel } from '../helpers/lspText';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, ns, pod, seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
let lsp: LspSession;
let status: ClusterStatus;

const TEAMS = 4;
const CONFIG_MAPS = 60;
const PODS = 20;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'search-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-search-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  for (let t = 0; t < TEAMS; t++) {
    server.add(ns(`team-${t}`, `ns-team-${t}`));
    for (let i = 0; i < CONFIG_MAPS; i++) server.add(configMap(`team-${t}`, `cfg-${i}`, `cm-${t}-${i}`));
    for (let i = 0; i < PODS; i++) server.add(pod(`team-${t}`, `web-${i}`, `9a8b7c6d-${t}-${i}`));
  }
  lsp = new LspSession({});
  await lsp.initialize();
  status = await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false });
});

afterAll(async () => {
  await lsp.dispose();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kubeGcLens/cluster/searchObjects', () => {
  it('without a query: the first 200 of every live object, cluster-scoped first, and how many there are', async () => {
    expect(status.objects).toBeGreaterThan(TEAMS * (CONFIG_MAPS + PODS));
    const r = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, {});
    expect(r.total).toBe(status.objects);
    expect(r.items).toHaveLength(200);
    expect(r.items.slice(0, 5).map(objectLabel)).toEqual([
      'Namespace shop',
      'Namespace team-0',
      'Namespace team-1',
      'Namespace team-2',
      'Namespace team-3',
    ]);
    expect(r.items[5].namespace).toBe('shop');
    // Every item is a summary located at its live document.
    expect(r.items[0]).toMatchObject({ apiVersion: 'v1', uid: 'ns-shop', syntheticUid: false, beingDeleted: false, ownerCount: 0 });
    expect(r.items.every((o) => o.location?.uri.startsWith(`${LIVE_SCHEME}:/`))).toBe(true);
  });

  it('every word, in any order, case-insensitive; capped by limit, with the total', async () => {
    const r = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'WEB pod', limit: 5 });
    expect(r.total).toBe(TEAMS * PODS + 1); // and Pod shop/web-1
    expect(r.items).toHaveLength(5);
    expect(r.items.every((o) => o.kind === 'Pod' && o.name.includes('web'))).toBe(true);
    // Names that start with a word before the rest, then by namespace, kind and name.
    expect(r.items.map(objectLabel)).toEqual([
      'Pod shop/web-1',
      'Pod team-0/web-0',
      'Pod team-0/web-1',
      'Pod team-0/web-10',
      'Pod team-0/web-11',
    ]);
  });

  it('namespace/name: the exact one first, then those whose name starts with it', async () => {
    const r = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'team-2/web-1', limit: 3 });
    expect(r.total).toBe(11); // web-1 and web-10 … web-19
    expect(r.items.map(objectLabel)).toEqual(['Pod team-2/web-1', 'Pod team-2/web-10', 'Pod team-2/web-11']);
  });

  it('a uid prefix; a namespace; nothing', async () => {
    const byUid = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: '9a8b7c6d-3-17' });
    expect(byUid.items.map(objectLabel)).toEqual(['Pod team-3/web-17']);
    const inTeam = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'cfg', namespace: 'team-1', limit: 1000 });
    expect(inTeam.total).toBe(CONFIG_MAPS);
    expect(inTeam.items).toHaveLength(CONFIG_MAPS);
    const none = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'no-such-thing', limit: 10 });
    expect(none).toEqual({ items: [], total: 0 });
    const count = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'configmap', limit: 0 });
    expect(count).toEqual({ items: [], total: TEAMS * CONFIG_MAPS + 1 });
  });

  it('follows the watch: an object created after the listing is found', async () => {
    server.add(configMap('team-0', 'late-arrival', 'cm-late'));
    const search = () => lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'late' });
    await expect.poll(async () => (await search()).total, { timeout: 20_000, interval: 100 }).toBe(1);
    const r = await search();
    expect(r.items.map(objectLabel)).toEqual(['ConfigMap team-0/late-arrival']);
  });
});

describe('kubeGcLens/cluster/objects', () => {
  it('without query or limit: every live object, as before', async () => {
    const all = await lsp.connection.sendRequest(ClusterObjectsRequest, {});
    const { total } = await lsp.connection.sendRequest(ClusterSearchObjectsRequest, { limit: 0 });
    expect(all).toHaveLength(total);
    expect(all.length).toBeGreaterThan(300);
    const team1 = await lsp.connection.sendRequest(ClusterObjectsRequest, { namespace: 'team-1' });
    expect(team1).toHaveLength(CONFIG_MAPS + PODS);
  });

  it('with query and limit: the matches in search order, capped', async () => {
    const r = await lsp.connection.sendRequest(ClusterObjectsRequest, { query: 'shop/web' });
    expect(r.map(objectLabel)).toEqual(['Deployment shop/web', 'Pod shop/web-1', 'ReplicaSet shop/web-rs']);
    const capped = await lsp.connection.sendRequest(ClusterObjectsRequest, { namespace: 'team-3', limit: 2 });
    expect(capped.map(objectLabel)).toEqual(['ConfigMap team-3/cfg-0', 'ConfigMap team-3/cfg-1']);
  });
});

describe('not connected', () => {
  it('says so', async () => {
    await lsp.connection.sendRequest(ClusterDisconnectRequest);
    await expect(lsp.connection.sendRequest(ClusterSearchObjectsRequest, { query: 'web' })).rejects.toThrow(/not connected to a cluster/);
    expect(server.countByVerb()).not.toHaveProperty('delete');
  });
});

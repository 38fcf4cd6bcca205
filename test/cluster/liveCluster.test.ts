// The live cluster source end to end through the real @kubernetes/client-node stack (kubeconfig, TLS, token)
// against the Kubernetes API test server: list, watch, faults, partial access, and never a write.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveCluster, type LiveClusterOptions } from '../../server/src/sources/cluster/liveCluster';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { startKubeApiServer, type KubeApiServer } from '../kubeApiServer/kubeApiServer';
import { seedShop, ns, replicaSet, pod, configMap } from './clusterFixtures';

const TOKEN = 'test-token-123';
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
const open: LiveCluster[] = [];

beforeAll(async () => {
  server = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'kgl-live-'));
  kubeconfig = server.writeKubeconfig(dir);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.stop()));
  server.faults.clear();
  // Custom resources before their CustomResourceDefinitions.
  for (const o of server.objects().sort((a, b) => Number(a.kind === 'CustomResourceDefinition') - Number(b.kind === 'CustomResourceDefinition'))) {
    const m = o.metadata as { namespace?: string; name: string };
    server.remove({ apiVersion: o.apiVersion as string, kind: o.kind as string, namespace: m.namespace, name: m.name });
  }
  server.resetLog();
});

function connect(extra: Partial<LiveClusterOptions> = {}): LiveCluster {
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const live = new LiveCluster({ target, rediscoverMs: 0, reflector: { backoffMs: { initial: 20, max: 200 }, forbiddenRetryMs: 60_000 }, ...extra });
  open.push(live);
  return live;
}

/** What the server stores that the GC would watch, as uid → ownerReference uids. */
function serverGraph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Custom resources before their CustomResourceDefinitions.
  for (const o of server.objects().sort((a, b) => Number(a.kind === 'CustomResourceDefinition') - Number(b.kind === 'CustomResourceDefinition'))) {
    if (o.kind === 'Event') continue;
    const m = o.metadata as { uid: string; ownerReferences?: { uid: string }[] };
    out.set(m.uid, (m.ownerReferences ?? []).map((r) => r.uid));
  }
  return out;
}

function liveGraph(live: LiveCluster): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of live.inventory.objects.values()) out.set(o.uid, o.ownerReferences.map((r) => r.uid));
  return out;
}

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const writes = () => {
  const c = server.countByVerb();
  return (c.create ?? 0) + (c.update ?? 0) + (c.patch ?? 0) + (c.delete ?? 0) + (c.deletecollection ?? 0);
};

describe('LiveCluster against the API test server', () => {
  it('lists every deletable resource metadata-only and holds exactly the server\'s graph', async () => {
    seedShop(server);
    const live = connect();
    await live.start();
    expect(liveGraph(live)).toEqual(serverGraph());
    const status = live.status();
    expect(status.state).toBe('watching');
    expect(status.problems).toEqual([]);
    // Pods are listed metadata-only, Namespaces in full (the namespace controller needs spec.finalizers).
    const lists = server.requests.filter((r) => r.verb === 'list');
    expect(lists.find((r) => r.resource === 'pods')?.accept).toMatch(/as=PartialObjectMetadataList/);
    expect(lists.find((r) => r.resource === 'namespaces')?.accept).not.toMatch(/PartialObjectMetadata/);
    expect(lists.some((r) => r.resource === 'events')).toBe(false); // the GC ignores events
    expect(live.inventory.objects.get('p-web-1')?.facts.specUnread).toBe(true);
    expect(live.inventory.objects.get('ns-shop')?.facts.namespaceFinalizers).toEqual(['kubernetes']);
    expect(writes()).toBe(0);
  });

  it('follows watch events: added, modified, deleted', async () => {
    seedShop(server);
    const live = connect();
    await live.start();
    server.add(configMap('shop', 'late', 'cm-late'));
    await until('the new ConfigMap', () => live.inventory.objects.has('cm-late'));
    server.update(pod('shop', 'web-1', 'p-web-1', { owner: replicaSet('shop', 'web-rs', 'rs-web'), deletionTimestamp: '2026-11-21T10:00:00Z', finalizers: ['example.com/hold'] }));
    await until('the Pod terminating', () => live.inventory.objects.get('p-web-1')?.deletionTimestamp !== undefined);
    server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'late' });
    await until('the ConfigMap gone', () => !live.inventory.objects.has('cm-late'));
    expect(liveGraph(live)).toEqual(serverGraph());
    expect(writes()).toBe(0);
  });

  it('after dropped watches it reconnects and loses nothing', async () => {
    seedShop(server);
    const live = connect();
    await live.start();
    server.faults.dropWatches();
    server.add(configMap('shop', 'during-drop', 'cm-drop'));
    await until('the ConfigMap made while watches were down', () => live.inventory.objects.has('cm-drop'));
    server.faults.dropWatchesAfter(1);
    for (let i = 0; i < 5; i++) server.add(configMap('shop', `burst-${i}`, `cm-burst-${i}`));
    await until('the burst, across five reconnects', () => [0, 1, 2, 3, 4].every((i) => live.inventory.objects.has(`cm-burst-${i}`)));
    server.faults.dropWatchesAfter(0);
    expect(liveGraph(live)).toEqual(serverGraph());
  });

  it('410 Gone after compaction relists: no lost and no phantom objects', async () => {
    seedShop(server);
    const live = connect();
    await live.start();
    const lists = () => server.requests.filter((r) => r.verb === 'list' && r.resource === 'configmaps').length;
    const before = lists();
    server.faults.dropWatches();
    server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' });
    server.add(configMap('shop', 'after-compaction', 'cm-after'));
    server.faults.compact();
    await until('the relist after 410', () => live.inventory.objects.has('cm-after') && !live.inventory.objects.has('cm-settings')).catch((e) => {
      throw new Error(`${e.message}; requests: ${server.requests.filter((r) => r.resource === 'configmaps').map((r) => `${r.verb} ${r.status} ${JSON.stringify(r.query)}`).join(' | ')}`);
    });
    expect(lists()).toBeGreaterThan(before);
    expect(liveGraph(live)).toEqual(serverGraph());
  });

  it('pages through LISTs and restarts a LIST whose continue token expired', async () => {
    seedShop(server);
    for (let i = 0; i < 30; i++) server.add(configMap('shop', `page-${String(i).padStart(2, '0')}`, `cm-page-${i}`));
    const live = connect({ reflector: { pageSize: 4, backoffMs: { initial: 20, max: 200 } } });
    server.faults.delay(5, { group: '', resource: 'configmaps' });
    const started = live.start();
    await until('a first page of ConfigMaps', () => server.requests.some((r) => r.resource === 'configmaps' && r.query.continue));
    server.faults.compact();
    await started;
    expect(liveGraph(live)).toEqual(serverGraph());
  });

  it('partial access: a forbidden resource is reported, in the status and as an incomplete-preview note; the rest works', async () => {
    seedShop(server);
    server.faults.forbid({ group: '', resource: 'secrets' });
    const live = connect();
    await live.start();
    const problems = live.status().problems;
    expect(problems).toEqual([expect.objectContaining({ kind: 'forbidden', resource: 'secrets' })]);
    expect(live.status().state).toBe('degraded');
    expect(live.incompleteNotes()).toEqual([expect.stringMatching(/^this preview is incomplete: cannot list secrets \(.*forbidden/)]);
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
  });

  it('server errors are retried with backoff; an aggregated API that is down is reported, not fatal', async () => {
    seedShop(server);
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 500, times: 2 });
    server.faults.failDiscovery('metrics.k8s.io/v1beta1');
    const live = connect();
    await live.start();
    await until('ConfigMaps after two 500s', () => live.inventory.objects.has('cm-settings'));
    expect(live.status().problems).toEqual([expect.objectContaining({ kind: 'discovery', resource: 'metrics.k8s.io/v1beta1' })]);
    expect(live.incompleteNotes()[0]).toMatch(/the API group metrics\.k8s\.io\/v1beta1 could not be discovered/);
  });

  it('a namespace scope lists namespaced resources there only, cluster-scoped ones everywhere', async () => {
    seedShop(server);
    server.add(ns('other', 'ns-other'));
    server.add(configMap('other', 'elsewhere', 'cm-elsewhere'));
    const live = connect({ namespaces: ['shop'] });
    await live.start();
    expect(live.inventory.objects.has('cm-elsewhere')).toBe(false);
    expect(live.inventory.objects.has('ns-other')).toBe(true);
    expect(server.requests.filter((r) => r.resource === 'pods' && r.verb === 'list').every((r) => r.namespace === 'shop')).toBe(true);
  });

  it('custom resources: a CRD added later is discovered and its objects listed', async () => {
    seedShop(server);
    const live = connect({ rediscoverMs: 100 });
    await live.start();
    server.add({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com', uid: 'crd-widgets' },
      spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }, versions: [{ name: 'v1', served: true, storage: true }] },
    });
    server.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop', uid: 'w-1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-web' }] } });
    await until('the Widget', () => live.inventory.objects.has('w-1'), 8000);
    expect(live.inventory.graph.get('d-web')?.dependents.size).toBe(2);
  });

  it('simulating a namespace deletion on the live graph', async () => {
    seedShop(server);
    const live = connect({ watch: false });
    await live.start();
    const r = simulate(live.inventory, [{ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop', propagationPolicy: null }], { controllers: 'builtin' });
    expect(r.deleted.map((d) => d.uid)).toEqual(expect.arrayContaining(['d-web', 'rs-web', 'p-web-1', 'cm-settings', 'ns-shop']));
    expect(r.stuck).toEqual([]);
    expect(writes()).toBe(0);
    expect(Object.keys(server.countByVerb()).sort()).toEqual(expect.arrayContaining(['list']));
  });

  it('an unreachable server is a clear error, not a hang', async () => {
    const target = { ...resolveTarget({ kubeconfig, allowExec: false }), server: 'https://127.0.0.1:9' };
    const live = new LiveCluster({ target, rediscoverMs: 0 });
    open.push(live);
    await expect(live.start()).rejects.toThrow(/ECONNREFUSED|connect/);
    expect(live.status().state).toBe('disconnected');
  });

  it('refuses a kubeconfig exec plugin unless allowed', () => {
    const path = join(dir, 'exec-kubeconfig');
    writeFileSync(path, server.kubeconfig().replace(/token: .*/, 'exec: { apiVersion: client.authentication.k8s.io/v1, command: /bin/true }'));
    expect(() => resolveTarget({ kubeconfig: path, allowExec: false })).toThrow(/runs only in a trusted workspace|authenticates by running a command/);
    expect(() => resolveTarget({ kubeconfig: path, allowExec: true })).not.toThrow();
  });
});


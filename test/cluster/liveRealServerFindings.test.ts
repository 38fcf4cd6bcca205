// What the real kube-apiserver showed (test/cluster/realServerLive.test.ts), kept on the API test server, which now
// answers as the real one does: metadata-only watches asked as PartialObjectMetadata (asked as a list, the real server
// cuts the watch at its first event, having sent nothing), a watch that ends at once backed off rather than asked
// again in a loop, and discovery read from the aggregated documents with the legacy ones giving the same resources.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ApiClient } from '../../server/src/sources/cluster/apiClient';
import { discover } from '../../server/src/sources/cluster/discovery';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import { Reflector } from '../../server/src/sources/cluster/reflector';
import { until } from '../../testkit/cluster/controlPlane';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, seedShop } from './clusterFixtures';

const TOKEN = 'test-token-findings';
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  server = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'kgl-findings-'));
  kubeconfig = server.writeKubeconfig(dir);
  seedShop(server);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const target = () => resolveTarget({ kubeconfig, allowExec: false });

describe('the live path as the real apiserver answers it', () => {
  it('metadata-only watches ask for PartialObjectMetadata, and their events arrive', async () => {
    const live = new LiveCluster({ target: target(), rediscoverMs: 0 });
    try {
      await live.start();
      server.add(configMap('shop', 'late', 'cm-late'));
      await until('the ConfigMap made while watching', () => live.inventory.objects.has('cm-late'));
      const watch = server.requests.find((r) => r.verb === 'watch' && r.resource === 'configmaps');
      expect(watch?.accept).toBe(ACCEPT_METADATA_WATCH);
      expect(watch?.accept).toMatch(/^application\/json;as=PartialObjectMetadata;g=meta\.k8s\.io;v=v1;/);
    } finally {
      await live.stop();
      server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'late' });
    }
  });

  it('a watch that ends within a second with nothing received is backed off (client-go\'s "very short watch"), not asked again at once', async () => {
    const client = new ApiClient(target());
    const states: string[] = [];
    // Asked as a list, the watch is cut at its first event having sent nothing, as the real server cuts it.
    const reflector = new Reflector<unknown>(
      client,
      {
        group: '',
        version: 'v1',
        resource: 'configmaps',
        kind: 'ConfigMap',
        namespaced: true,
        singular: 'configmap',
        shortNames: [],
        verbs: [],
      },
      'shop',
      {
        convert: (item) => item,
        replace: () => undefined,
        event: () => undefined,
        state: (s) => states.push(s),
      },
      { accept: ACCEPT_METADATA_LIST, watchAccept: ACCEPT_METADATA_LIST, backoffMs: { initial: 60_000, max: 60_000 } },
    );
    const stop = new AbortController();
    const run = reflector.start(stop.signal);
    const watching = () =>
      server.requests.some((r) => r.verb === 'watch' && r.resource === 'configmaps' && r.namespace === 'shop' && r.status === 200);
    try {
      await until('the watch open', watching);
      server.add(configMap('shop', 'cut', 'cm-cut')); // its event cuts the watch
      await until('the short watch backed off', () => reflector.state === 'backoff');
      expect(reflector.lastError?.reason).toBe('ShortWatch');
      expect(reflector.lastError?.message).toMatch(/ended within a second with nothing received/);
      expect(reflector.watches).toBe(1);
      expect(states).toEqual(['listing', 'watching', 'backoff']);
    } finally {
      stop.abort();
      await run.done;
      client.close();
      server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cut' });
    }
  });

  it('discovery: the aggregated documents (2 GETs) and the legacy ones give the same resources; a down API fails either way', async () => {
    server.add({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com', uid: 'crd-widgets' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    });
    server.faults.failDiscovery('metrics.k8s.io/v1beta1');
    const [aggregatedClient, legacyClient] = [new ApiClient(target()), new ApiClient(target())];
    try {
      const aggregated = await discover(aggregatedClient);
      const legacy = await discover(legacyClient, undefined, { legacy: true });
      expect(aggregatedClient.stats.requests).toBe(2);
      expect(legacyClient.stats.requests).toBeGreaterThan(20);
      expect(aggregated.resources).toEqual(legacy.resources);
      expect(aggregated.servedVersions).toEqual(legacy.servedVersions);
      expect(aggregated.resources.find((r) => r.resource === 'widgets')).toMatchObject({
        group: 'example.com',
        version: 'v1',
        kind: 'Widget',
        namespaced: true,
        singular: 'widget',
      });
      expect(aggregated.failures).toEqual([
        { groupVersion: 'metrics.k8s.io/v1beta1', message: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1' },
      ]);
      expect(legacy.failures.map((f) => f.groupVersion)).toEqual(['metrics.k8s.io/v1beta1']);
    } finally {
      server.faults.clear();
      server.remove({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com' });
      aggregatedClient.close();
      legacyClient.close();
    }
  });
});

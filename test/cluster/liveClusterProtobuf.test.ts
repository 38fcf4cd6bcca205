// The live cluster source over protobuf: its metadata-only LISTs ask protobuf first (as kube-controller-manager's
// metadata client does) and its watches JSON. The graph it builds must not depend on which the server answers:
// all protobuf, all JSON (a server that does not speak protobuf) or a mix (one resource served by such a server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_OBJECTS, ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH } from '../../server/src/sources/cluster/apiClient';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster, type LiveClusterOptions } from '../../server/src/sources/cluster/liveCluster';
import type { KubeObject } from '../../server/src/engine/model';
import { startKubeApiServer, type KubeApiServer, type RequestRecord } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, pod, replicaSet, seedShop } from './clusterFixtures';

const TOKEN = 'test-token-pb';
let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
const open: LiveCluster[] = [];

const T = '2026-11-20T08:00:00Z';
const managedFields = (manager: string) => [
  {
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time: T,
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
  },
];

beforeAll(async () => {
  server = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 60_000 });
  dir = mkdtempSync(join(tmpdir(), 'kgl-live-pb-'));
  kubeconfig = server.writeKubeconfig(dir);
  seedShop(server);
  // More than a page of ConfigMaps, with what a real cluster's carry: labels, annotations, managedFields.
  for (let i = 0; i < 23; i++) {
    const cm = configMap('shop', `cm-${String(i).padStart(2, '0')}`, `cm-${i}`) as { metadata: Record<string, unknown> };
    Object.assign(cm.metadata, {
      labels: { app: 'web', index: String(i) },
      annotations: { 'example.com/note': `ünïcødé ${i} ✓` },
      managedFields: managedFields('kubectl'),
    });
    server.add(cm);
  }
  // A ReplicaSet being deleted in the foreground, and its Pods, one with a finalizer, one with two owners.
  const owner = replicaSet('shop', 'api-rs', 'rs-api');
  server.add({
    ...owner,
    metadata: {
      ...owner.metadata,
      deletionTimestamp: '2026-11-20T09:00:00Z',
      deletionGracePeriodSeconds: 0,
      finalizers: ['foregroundDeletion'],
      generation: 4,
    },
  });
  server.add(pod('shop', 'api-1', 'p-api-1', { owner, labels: { app: 'api' } }));
  const api2 = pod('shop', 'api-2', 'p-api-2', {
    owner,
    deletionTimestamp: '2026-11-20T09:00:10Z',
    finalizers: ['kubernetes.io/pvc-protection'],
  }) as { metadata: Record<string, unknown> };
  (api2.metadata.ownerReferences as unknown[]).push({ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', uid: 'cm-settings' });
  api2.metadata.managedFields = managedFields('kubelet');
  server.add(api2);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.stop()));
  server.faults.clear();
  server.resetLog();
});

function connect(extra: Partial<LiveClusterOptions> = {}): LiveCluster {
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const live = new LiveCluster({ target, rediscoverMs: 0, reflector: { pageSize: 10, backoffMs: { initial: 20, max: 200 } }, ...extra });
  open.push(live);
  return live;
}

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const objects = (live: LiveCluster): KubeObject[] => [...live.inventory.objects.values()].sort((a, b) => a.uid.localeCompare(b.uid));

interface Reading {
  objects: KubeObject[];
  /** LIST requests of this reading, as the server logged them. */
  lists: RequestRecord[];
  watches: RequestRecord[];
  /** bytes of the LIST answers, by resource */
  listBytes: Map<string, number>;
  clientBytes: number;
}

/** Connects, waits for the initial sync and the watches of every listed resource, and reads what it holds. */
async function read(setFaults: () => void): Promise<Reading> {
  server.resetLog();
  server.faults.clear();
  setFaults();
  const live = connect();
  await live.start();
  const lists = () => server.requests.filter((r) => r.verb === 'list');
  const listed = new Set(lists().map((r) => `${r.group}/${r.resource}`));
  await until('a watch for every listed resource', () =>
    [...listed].every((k) => server.requests.some((r) => r.verb === 'watch' && `${r.group}/${r.resource}` === k && r.status === 200)),
  );
  const listBytes = new Map<string, number>();
  for (const r of lists()) listBytes.set(`${r.group}/${r.resource}`, (listBytes.get(`${r.group}/${r.resource}`) ?? 0) + r.bytes);
  const reading = {
    objects: objects(live),
    lists: lists(),
    watches: server.requests.filter((r) => r.verb === 'watch'),
    listBytes,
    clientBytes: live.client.stats.bytes,
  };
  await live.stop();
  return reading;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('LiveCluster over protobuf', () => {
  it('builds exactly the graph it builds over JSON, or over a mix of both, in fewer bytes; LISTs ask protobuf first, watches JSON', async () => {
    const protobuf = await read(() => undefined);
    const json = await read(() => server.faults.jsonOnly());
    const mixed = await read(() => server.faults.jsonOnly({ group: '', resource: 'configmaps' }));

    // The same KubeObjects, field for field, whichever way they came.
    expect(protobuf.objects.length).toBeGreaterThan(30);
    expect(protobuf.objects.find((o) => o.uid === 'p-api-2')).toMatchObject({
      deletionTimestamp: '2026-11-20T09:00:10Z',
      finalizers: ['kubernetes.io/pvc-protection'],
      creationTimestamp: T,
      ownerReferences: [
        expect.objectContaining({ uid: 'rs-api', controller: true, blockOwnerDeletion: true }),
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', uid: 'cm-settings' },
      ],
    });
    expect(protobuf.objects.find((o) => o.uid === 'rs-api')).toMatchObject({
      deletionTimestamp: '2026-11-20T09:00:00Z',
      deletionGracePeriodSeconds: 0,
      finalizers: ['foregroundDeletion'],
      generation: 4,
    });
    expect(protobuf.objects.find((o) => o.uid === 'cm-7')?.labels).toEqual({ app: 'web', index: '7' });
    expect(json.objects).toEqual(protobuf.objects);
    expect(mixed.objects).toEqual(protobuf.objects);

    // Each metadata-only LIST asked protobuf first, each full one JSON; every watch asked JSON only.
    for (const reading of [protobuf, json, mixed]) {
      const metadataLists = reading.lists.filter((r) => r.accept.includes('PartialObjectMetadata'));
      expect(metadataLists.length).toBeGreaterThan(5);
      expect(new Set(metadataLists.map((r) => r.accept))).toEqual(new Set([ACCEPT_METADATA_LIST]));
      expect(reading.lists.filter((r) => !r.accept.includes('PartialObjectMetadata')).every((r) => r.accept === ACCEPT_OBJECTS)).toBe(true);
      expect(reading.lists.find((r) => r.resource === 'pods')?.accept).toBe(ACCEPT_METADATA_LIST);
      expect(reading.lists.filter((r) => r.resource === 'configmaps').length).toBe(3); // 24 ConfigMaps in pages of 10
      expect(reading.watches.find((r) => r.resource === 'pods')?.accept).toBe(ACCEPT_METADATA_WATCH);
      expect(reading.watches.every((r) => r.accept === ACCEPT_METADATA_WATCH || r.accept === ACCEPT_OBJECTS)).toBe(true);
      expect(reading.watches.some((r) => r.accept.includes('protobuf'))).toBe(false);
    }

    // Fewer bytes in protobuf, resource by resource; the mix is protobuf's for Pods and JSON's for ConfigMaps.
    expect(sum(protobuf.listBytes)).toBeLessThan(sum(json.listBytes));
    expect(protobuf.clientBytes).toBeLessThan(json.clientBytes);
    for (const k of ['/pods', '/configmaps', 'apps/replicasets', 'apps/deployments'])
      expect(protobuf.listBytes.get(k), k).toBeLessThan(json.listBytes.get(k)!);
    expect(mixed.listBytes.get('/configmaps')).toBe(json.listBytes.get('/configmaps'));
    expect(mixed.listBytes.get('/pods')).toBe(protobuf.listBytes.get('/pods'));
    expect(protobuf.listBytes.get('/namespaces')).toBe(json.listBytes.get('/namespaces')); // listed in full: JSON either way
  });

  it('follows watch events after a protobuf LIST, and relists in protobuf after a 410', async () => {
    const live = connect();
    await live.start();
    await until('the ConfigMap watch', () =>
      server.requests.some((r) => r.verb === 'watch' && r.resource === 'configmaps' && r.status === 200),
    );
    server.add(configMap('shop', 'late', 'cm-late'));
    await until('the new ConfigMap', () => live.inventory.objects.has('cm-late'));
    const before = server.requests.filter((r) => r.verb === 'list' && r.resource === 'configmaps').length;
    server.faults.dropWatches();
    server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'late' });
    server.faults.compact();
    await until('the relist after 410', () => !live.inventory.objects.has('cm-late'));
    const relists = server.requests.filter((r) => r.verb === 'list' && r.resource === 'configmaps').slice(before);
    expect(relists.length).toBeGreaterThan(0);
    expect(relists.every((r) => r.accept === ACCEPT_METADATA_LIST && r.status === 200)).toBe(true);
    expect(live.status().problems).toEqual([]);
  });
});

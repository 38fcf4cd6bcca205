// The live cluster source against an apiserver with Kubernetes 1.38's ManagedFieldsOptOut feature gate on: every
// request for objects asks `drop=metadata.managedFields`, so such a server sends none, and the graph it builds is
// exactly the one it builds from a server that ignores the parameter (the gate off, or an older release), in far
// fewer bytes. Two servers hold the same objects, with the managedFields a real cluster writes; only the gate differs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ACCEPT_OBJECTS } from '../../server/src/sources/cluster/apiClient';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import type { KubeObject } from '../../server/src/engine/model';
import { startKubeApiServer, type KubeApiServer, type RequestRecord } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, deployment, ns, pod, pvc, replicaSet } from './clusterFixtures';

type Obj = Record<string, unknown>;

const TOKEN = 'test-token-drop';
const T = '2026-11-20T08:00:00Z';
const DROP = 'drop=metadata.managedFields';
let dir: string;
const servers: { off?: KubeApiServer; on?: KubeApiServer } = {};
const kubeconfigs = new Map<KubeApiServer, string>();

/** The field set of a value as Server-Side Apply writes it (fieldsV1): `f:` keys, list items by their name. */
function fieldSet(value: unknown): Obj {
  if (Array.isArray(value)) {
    const out: Obj = {};
    value.forEach((v, i) => {
      const name = v && typeof v === 'object' && typeof (v as Obj).name === 'string' ? (v as Obj).name : undefined;
      out[name !== undefined ? `k:{"name":"${String(name)}"}` : `i:${i}`] = { '.': {}, ...fieldSet(v) };
    });
    return out;
  }
  if (!value || typeof value !== 'object') return {};
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) out[`f:${k}`] = v && typeof v === 'object' ? { '.': {}, ...fieldSet(v) } : {};
  return out;
}

/**
 * The object with the managedFields a real cluster holds: the client's apply of everything it wrote, a controller's
 * update of its metadata (owners, finalizers), the status writer's update of the status subresource.
 */
function managed(input: Obj): Obj {
  const { apiVersion: _apiVersion, kind: _kind, metadata, status, ...body } = input as Obj & { metadata: Obj; status?: unknown };
  const { name: _name, namespace: _namespace, uid: _uid, creationTimestamp: _creationTimestamp, ...written } = metadata;
  const apiVersion = String(input.apiVersion);
  const entry = (manager: string, fields: Obj, subresource?: string): Obj => ({
    manager,
    operation: 'Update',
    apiVersion,
    time: T,
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
    ...(subresource ? { subresource } : {}),
  });
  const managedFields = [
    entry('kubectl-client-side-apply', {
      'f:metadata': {
        'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
        ...fieldSet({ labels: written.labels ?? {} }),
      },
      ...fieldSet(body),
    }),
    entry('kube-controller-manager', {
      'f:metadata': fieldSet({ ownerReferences: written.ownerReferences ?? [], finalizers: written.finalizers ?? [] }),
    }),
    ...(status ? [entry(input.kind === 'Pod' ? 'kubelet' : 'kube-controller-manager', fieldSet({ status }), 'status')] : []),
  ];
  return { ...input, metadata: { ...metadata, managedFields } };
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com', uid: 'crd-widgets', creationTimestamp: T },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
        },
      },
    ],
  },
  status: { acceptedNames: { plural: 'widgets', kind: 'Widget' }, storedVersions: ['v1'] },
};

/** A shop with workloads, claims, a volume, custom resources and a terminating object with a custom finalizer. */
function objects(): Obj[] {
  const web = deployment('shop', 'web', 'd-web');
  const rs = replicaSet('shop', 'web-rs', 'rs-web', web);
  const db = replicaSet('data', 'db-rs', 'rs-db');
  // kube-system, as on every cluster: the connection reads its uid (which cluster it is).
  const out: Obj[] = [ns('kube-system', 'ns-kube-system'), ns('shop', 'ns-shop'), ns('data', 'ns-data'), web, rs, db, crd];
  for (let i = 0; i < 12; i++) out.push(pod('shop', `web-${i}`, `p-web-${i}`, { owner: rs, labels: { app: 'web' } }));
  out.push(pod('data', 'db-0', 'p-db-0', { owner: db, claims: ['db-data'], labels: { app: 'db' } }));
  out.push(pvc('data', 'db-data', 'pvc-db-data'));
  out.push({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv-db-data', uid: 'pv-db-data', creationTimestamp: T, finalizers: ['kubernetes.io/pv-protection'] },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      claimRef: { kind: 'PersistentVolumeClaim', namespace: 'data', name: 'db-data', uid: 'pvc-db-data' },
      hostPath: { path: '/data' },
    },
    status: { phase: 'Bound' },
  });
  // More than a page (pageSize 10).
  for (let i = 0; i < 23; i++) {
    const cm = configMap('shop', `cm-${String(i).padStart(2, '0')}`, `cm-${i}`) as { metadata: Obj };
    cm.metadata.labels = { app: 'web', index: String(i) };
    out.push(cm);
  }
  // Being deleted, held by a finalizer no built-in controller removes: the workloads are read in full to guess whose.
  const held = configMap('shop', 'held', 'cm-held') as { metadata: Obj };
  Object.assign(held.metadata, {
    deletionTimestamp: '2026-11-20T09:00:00Z',
    deletionGracePeriodSeconds: 0,
    finalizers: ['example.com/hold'],
  });
  out.push(held);
  for (let i = 0; i < 3; i++) {
    out.push({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name: `w${i}`,
        namespace: 'shop',
        uid: `widget-${i}`,
        creationTimestamp: T,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-web' }],
      },
      spec: { size: i },
    });
  }
  return out.map(managed);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kgl-live-drop-'));
  servers.off = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 60_000 });
  servers.on = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 60_000, managedFieldsOptOut: true });
  for (const [name, s] of Object.entries(servers)) {
    const sub = join(dir, name);
    kubeconfigs.set(s, s.writeKubeconfig(mkdtempSync(sub)));
    for (const o of objects()) s.add(o);
  }
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const graph = (live: LiveCluster): KubeObject[] => [...live.inventory.objects.values()].sort((a, b) => a.uid.localeCompare(b.uid));
const resourceOf = (r: RequestRecord) => `${r.group}/${r.resource}`;

/** Bytes of the answers to `requests`, by resource. */
function bytesByResource(requests: RequestRecord[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of requests) out.set(resourceOf(r), (out.get(resourceOf(r)) ?? 0) + r.bytes);
  return out;
}

describe('LiveCluster against a server with ManagedFieldsOptOut (drop=metadata.managedFields)', () => {
  it('builds the graph it builds when managedFields are sent, in far fewer bytes; every request for objects asks to drop them', async () => {
    const off = servers.off!;
    const on = servers.on!;
    expect([off.managedFieldsOptOut, on.managedFieldsOptOut]).toEqual([false, true]);
    const lives = new Map<KubeApiServer, LiveCluster>();
    try {
      for (const s of [off, on]) {
        s.resetLog();
        const live = new LiveCluster({
          target: resolveTarget({ kubeconfig: kubeconfigs.get(s)!, allowExec: false }),
          rediscoverMs: 0,
          reflector: { pageSize: 10, backoffMs: { initial: 20, max: 200 } },
        });
        lives.set(s, live);
        await live.start();
        const listed = new Set(s.requests.filter((r) => r.verb === 'list').map(resourceOf));
        await until('a watch for every listed resource', () =>
          [...listed].every((k) => s.requests.some((r) => r.verb === 'watch' && resourceOf(r) === k && r.status === 200)),
        );
      }

      // Changes once the watches are open, the same on both servers, with the managedFields each write leaves.
      for (const s of [off, on]) {
        const web0 = objects().find((o) => (o.metadata as Obj).uid === 'p-web-0')!;
        s.update(managed({ ...web0, metadata: { ...(web0.metadata as Obj), labels: { app: 'web', round: '2' } } }));
        s.add(managed(pod('shop', 'web-late', 'p-web-late', { labels: { app: 'web' } })));
        s.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'cm-03' });
        const w1 = objects().find((o) => (o.metadata as Obj).uid === 'widget-1')!;
        s.update(managed({ ...w1, metadata: { ...(w1.metadata as Obj), finalizers: ['example.com/hold'] } }));
      }
      for (const [s, live] of lives) {
        const get = (uid: string) => live.inventory.objects.get(uid);
        await until(
          `the changes on the ${s === on ? 'gate-on' : 'gate-off'} server`,
          () =>
            get('p-web-0')?.labels?.round === '2' &&
            get('p-web-late') !== undefined &&
            get('cm-3') === undefined &&
            get('widget-1')?.finalizers.length === 1,
        );
        // The Pods read in full (and the workloads, for the custom finalizer) before a simulation.
        expect(await live.readPodSpecs(['data', 'shop'])).toEqual([]);
        expect(live.status().problems).toEqual([]);
      }

      // The same KubeObjects, field for field.
      const [fromOff, fromOn] = [graph(lives.get(off)!), graph(lives.get(on)!)];
      expect(fromOff.length).toBe(49);
      expect(fromOff.find((o) => o.uid === 'p-db-0')?.facts).toMatchObject({
        claimNames: ['db-data'],
        nodeName: 'node-1',
        phase: 'Running',
      });
      expect(fromOff.find((o) => o.uid === 'cm-held')).toMatchObject({
        finalizers: ['example.com/hold'],
        deletionTimestamp: '2026-11-20T09:00:00Z',
      });
      expect(fromOff.find((o) => o.uid === 'd-web')?.facts.images).toEqual(['example/web:1']);
      expect(fromOff.find((o) => o.uid === 'crd-widgets')).toMatchObject({ kind: 'CustomResourceDefinition', name: 'widgets.example.com' });
      expect(fromOn).toEqual(fromOff);

      // Every request for objects (LISTs metadata-only and in full, the Pods and workloads read in full, watches)
      // asked to drop managedFields, in every clause of its Accept.
      for (const s of [off, on]) {
        const reads = s.requests.filter((r) => r.verb === 'list' || r.verb === 'watch' || r.verb === 'get');
        expect(reads.length).toBeGreaterThan(20);
        expect(new Set(reads.map((r) => r.accept))).toEqual(new Set([ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ACCEPT_OBJECTS]));
        for (const r of reads)
          expect(
            r.accept.split(',').every((clause) => clause.split(';').includes(DROP)),
            `${r.verb} ${r.path} ${r.accept}`,
          ).toBe(true);
        const full = reads.filter((r) => r.accept === ACCEPT_OBJECTS).map((r) => `${r.verb} ${r.path}`);
        for (const expected of [
          'list /api/v1/namespaces/data/pods',
          'list /api/v1/namespaces/shop/pods',
          'list /apis/apps/v1/deployments',
          'list /api/v1/persistentvolumeclaims',
          'watch /api/v1/persistentvolumeclaims',
          'list /apis/apiextensions.k8s.io/v1/customresourcedefinitions',
          'watch /api/v1/namespaces',
        ]) {
          expect(full).toContain(expected);
        }
        expect(reads.filter((r) => r.verb === 'watch').map((r) => resourceOf(r))).toEqual(
          expect.arrayContaining(['/pods', '/configmaps', 'example.com/widgets']),
        );
        expect(reads.every((r) => r.status === 200)).toBe(true);
        // Discovery is no object: what it asks does not matter, and the gate changes nothing in its answers.
        expect(s.requests.filter((r) => r.verb === 'discovery').length).toBeGreaterThan(0);
      }
      const discoveryBytes = (s: KubeApiServer) => s.requests.filter((r) => r.verb === 'discovery').reduce((n, r) => n + r.bytes, 0);
      expect(discoveryBytes(on)).toBe(discoveryBytes(off));
      // Exactly the same requests (paths, queries, Accept) to both: the answers alone differ.
      const shape = (s: KubeApiServer) => s.requests.map((r) => `${r.verb} ${r.path} ${r.accept}`).sort();
      expect(shape(on)).toEqual(shape(off));

      // Far fewer bytes: on the wire (the server's count) and read (the client's), resource by resource.
      const objectBytes = (s: KubeApiServer) => s.requests.filter((r) => r.verb !== 'discovery').reduce((n, r) => n + r.bytes, 0);
      expect(objectBytes(on)).toBeLessThan(objectBytes(off) / 2);
      expect(on.bytesSent()).toBeLessThan(off.bytesSent() * 0.6);
      expect(lives.get(on)!.client.stats.bytes).toBeLessThan(lives.get(off)!.client.stats.bytes * 0.6);
      expect(lives.get(on)!.client.stats.requests).toBe(lives.get(off)!.client.stats.requests);
      const [listsOff, listsOn] = [off, on].map((s) => bytesByResource(s.requests.filter((r) => r.verb === 'list')));
      for (const k of [
        '/pods',
        '/configmaps',
        '/namespaces',
        '/persistentvolumes',
        '/persistentvolumeclaims',
        'apps/deployments',
        'apps/replicasets',
        'apiextensions.k8s.io/customresourcedefinitions',
        'example.com/widgets',
      ]) {
        expect(listsOn.get(k), k).toBeLessThan(listsOff.get(k)!);
      }
      // Resources with nothing stored: the same empty lists.
      expect(listsOn.get('/secrets')).toBe(listsOff.get('/secrets'));
      const [watchesOff, watchesOn] = [off, on].map((s) => bytesByResource(s.requests.filter((r) => r.verb === 'watch')));
      for (const k of ['/pods', 'example.com/widgets']) expect(watchesOn.get(k), k).toBeLessThan(watchesOff.get(k)!);
    } finally {
      await Promise.all([...lives.values()].map((l) => l.stop()));
    }
  });
});

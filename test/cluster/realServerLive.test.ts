// The live path (server/src/sources/cluster: ApiClient, discovery, Reflector, LiveCluster) on a real kube-apiserver and
// kube-controller-manager (test/controlplane, Kubernetes v1.37.2's own code), nothing mocked: metadata-only LISTs in
// protobuf and in JSON and their pages, watch bookmarks, CRDs coming and going under a watch, aggregated and legacy
// discovery, gzip, a PVC held by a Pod, a foreground deletion in progress, `drop=metadata.managedFields` on a server that
// does not know it, and the apiserver's audit log counting what we sent. One control plane for the file; the 410s
// after compaction need the watch cache off: realServerCompaction.test.ts. Skipped only where `go` is missing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCEPT_METADATA_LIST,
  ACCEPT_METADATA_WATCH,
  ACCEPT_OBJECTS,
  ApiClient,
  type WatchEvent,
} from '../../server/src/sources/cluster/apiClient';
import { discover, type DiscoveredResource } from '../../server/src/sources/cluster/discovery';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import { Reflector } from '../../server/src/sources/cluster/reflector';
import { gunzipSync } from 'node:zlib';
import { auditLog, productRequests } from '../helpers/auditLog';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { rawGet } from '../helpers/rawGet';
import { clusterWriter } from '../../testkit/cluster/seedCluster';
import { GZIP_THRESHOLD_BYTES, startKubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';

type Obj = Record<string, unknown>;
type Meta = Obj & { uid: string; name: string; namespace?: string; resourceVersion?: string };

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerLive.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-live-'));
const audit = auditLog(dir);
const AUDIT_LOG = audit.log;
let plane: ControlPlane;
/** Watching the whole cluster from the start of the file to its end: every change below goes through its watches. */
let live: LiveCluster;
const clients: ApiClient[] = [];
let resources: DiscoveredResource[] = [];

const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
const apply = (yaml: string) => kubectl(['apply', '-f', '-'], yaml);
const uidOf = (type: string, namespace: string, name: string) =>
  kubectl(['get', type, name, '-n', namespace, '-o', 'jsonpath={.metadata.uid}']);
const target = () => resolveTarget({ kubeconfig: plane.kubeconfig, allowExec: false });
const newClient = () => {
  const c = new ApiClient(target());
  clients.push(c);
  return c;
};
/** The product's metadata-only LIST Accept without its protobuf clause: JSON forced. */
const ACCEPT_JSON_METADATA_LIST = ACCEPT_METADATA_LIST.split(',').slice(1).join(',');
const resource = (group: string, name: string) => resources.find((r) => r.group === group && r.resource === name)!;
const withoutManagedFields = ({ managedFields: _managedFields, ...m }: Obj) => m;

function gc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args, '--kubeconfig', plane.kubeconfig], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface StuckEntry {
  kind: string;
  namespace: string;
  name: string;
  reason: string;
}
function stuck(): StuckEntry[] {
  const r = gc(['stuck', '-o', 'json']);
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { stuck: StuckEntry[] }).stuck;
}

/** What the GC would watch, read in full by kubectl: uid → its owners' uids. */
function kubectlGraph(): Map<string, string[]> {
  const types = kubectl(['api-resources', '--verbs=list,watch,delete', '-o', 'name'])
    .split('\n')
    .filter((t) => t && !/^events(\.|$)/.test(t));
  const items = (
    JSON.parse(kubectl(['get', types.join(','), '-A', '-o', 'json'])) as {
      items: { metadata: { uid: string; ownerReferences?: { uid: string }[] } }[];
    }
  ).items;
  return new Map(items.map((o) => [o.metadata.uid, (o.metadata.ownerReferences ?? []).map((r) => r.uid).sort()]));
}

function liveGraph(): Map<string, string[]> {
  return new Map([...live.inventory.objects.values()].map((o) => [o.uid, o.ownerReferences.map((r) => r.uid).sort()]));
}

/** The watch catches up with the server: the live graph becomes kubectl's (bounded tries, then the difference). */
async function graphsAgree(what: string): Promise<void> {
  let diff = '';
  try {
    await until(
      what,
      () => {
        const [want, got] = [kubectlGraph(), liveGraph()];
        const missing = [...want.keys()].filter((u) => !got.has(u));
        const extra = [...got.keys()].filter((u) => !want.has(u));
        const owners = [...want].filter(([u, o]) => got.has(u) && JSON.stringify(got.get(u)) !== JSON.stringify(o)).map(([u]) => u);
        diff = JSON.stringify({ missing, extra, owners });
        return !missing.length && !extra.length && !owners.length;
      },
      60,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${diff}`);
  }
}

/** One metadata-only LIST through the product's Reflector, every page recorded (path asked, continue token answered). */
async function listPages(r: DiscoveredResource, namespace: string | undefined, accept: string, pageSize: number, client = newClient()) {
  const pages: { path: string; continue: string; items: number }[] = [];
  const getJson = client.getJson.bind(client);
  client.getJson = (async (p: string, ...rest: Parameters<ApiClient['getJson']> extends [string, ...infer R] ? R : never) => {
    const doc = await getJson<{ metadata?: { continue?: string }; items?: unknown[] }>(p, ...rest);
    pages.push({ path: p, continue: doc.metadata?.continue ?? '', items: doc.items?.length ?? 0 });
    return doc;
  }) as ApiClient['getJson'];
  let items: Obj[] = [];
  const reflector = new Reflector<Obj>(
    client,
    r,
    namespace,
    {
      convert: (item) => item as Obj,
      replace: (objects) => (items = objects),
      event: () => undefined,
      state: () => undefined,
    },
    { accept, pageSize, watch: false, withoutManagedFields: true },
  );
  await reflector.start(new AbortController().signal).done;
  expect(reflector.lastError).toBeUndefined();
  return { items, pages, protobufAnswers: client.stats.protobufAnswers };
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the live path on a real kube-apiserver', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs });
    resources = (await discover(newClient())).resources;
    live = new LiveCluster({ target: target(), rediscoverMs: 0, reflector: { pageSize: 50, backoffMs: { initial: 100, max: 2000 } } });
    await live.start();
  }, 900_000);

  afterAll(async () => {
    await live?.stop();
    for (const c of clients) c.close();
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('discovery: aggregated (apidiscovery.k8s.io/v2, 2 GETs) and legacy (a GET per group/version) give the same resources, those kubectl names', async () => {
    const aggregatedClient = newClient();
    const legacyClient = newClient();
    const aggregated = await discover(aggregatedClient);
    const legacy = await discover(legacyClient, undefined, { legacy: true });
    expect(aggregated.failures).toEqual([]);
    expect(legacy.failures).toEqual([]);
    expect(aggregatedClient.stats.requests).toBe(2);
    expect(legacyClient.stats.requests).toBeGreaterThan(20);
    const names = (d: { resources: DiscoveredResource[] }) => d.resources.map((r) => `${r.resource}${r.group ? `.${r.group}` : ''}`).sort();
    expect(aggregated.resources).toEqual(legacy.resources);
    expect(aggregated.servedVersions).toEqual(legacy.servedVersions);
    // kubectl (v1.37.2, itself an aggregated-discovery client) names the same: list, watch and delete, events excepted.
    const kubectlNames = kubectl(['api-resources', '--verbs=list,watch,delete', '-o', 'name'])
      .split('\n')
      .filter((t) => t && !/^events(\.|$)/.test(t));
    expect(names(aggregated)).toEqual(kubectlNames.sort());
  });

  it('metadata-only LISTs: protobuf and JSON give the same objects as kubectl get -o json, page after page along the continue tokens', async () => {
    kubectl(['create', 'namespace', 'paged']);
    apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owner, namespace: paged}\n');
    const owner = uidOf('configmap', 'paged', 'owner');
    const items = Array.from({ length: 300 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `cm-${String(i).padStart(3, '0')}`,
        namespace: 'paged',
        labels: { n: String(i % 5) },
        annotations: { note: `item ${i}` },
        ...(i % 7 === 0
          ? {
              ownerReferences: [
                { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner, controller: i % 14 === 0, blockOwnerDeletion: true },
              ],
            }
          : {}),
        ...(i % 50 === 0 ? { finalizers: ['example.com/keep'] } : {}),
      },
      data: { i: String(i) },
    }));
    kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const configmaps = resource('', 'configmaps');
    const protobuf = await listPages(configmaps, 'paged', ACCEPT_METADATA_LIST, 40);
    const json = await listPages(configmaps, 'paged', ACCEPT_JSON_METADATA_LIST, 40);
    // 301 objects in pages of 40: 8 pages, each asked with the token the page before answered, the last without one.
    for (const read of [protobuf, json]) {
      expect(read.pages.map((p) => p.items)).toEqual([40, 40, 40, 40, 40, 40, 40, 21]);
      expect(read.pages.map((p) => new URL(p.path, 'https://x').searchParams.get('continue') ?? '')).toEqual([
        '',
        ...read.pages.slice(0, -1).map((p) => p.continue),
      ]);
      expect(read.pages.at(-1)!.continue).toBe('');
      expect(read.pages.slice(0, -1).every((p) => p.continue !== '')).toBe(true);
      const uids = read.items.map((o) => (o.metadata as Meta).uid);
      expect(new Set(uids).size).toBe(301);
    }
    expect(protobuf.protobufAnswers).toBe(8);
    expect(json.protobufAnswers).toBe(0);
    // The same metadata, field for field (resourceVersions included), as kubectl's full objects without managedFields.
    const byName = (list: Obj[]) => list.map((o) => o.metadata as Meta).sort((a, b) => a.name.localeCompare(b.name));
    const full = (JSON.parse(kubectl(['get', 'configmaps', '-n', 'paged', '-o', 'json'])) as { items: Obj[] }).items;
    expect(byName(protobuf.items)).toEqual(byName(json.items));
    expect(byName(json.items)).toEqual(byName(full).map(withoutManagedFields));
    expect(protobuf.items[0]).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
    expect(json.items[0]).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
  });

  it('gzip: a LIST over 128 KiB asked with gzip arrives compressed, with the headers the API test server sends, and decodes to the same objects', async () => {
    const path = '/api/v1/namespaces/paged/configmaps';
    const [plain, zipped, small] = [
      await rawGet(target(), path, { Accept: ACCEPT_OBJECTS }),
      await rawGet(target(), path, { Accept: ACCEPT_OBJECTS, 'Accept-Encoding': 'gzip' }),
      await rawGet(target(), `${path}?limit=1`, { Accept: ACCEPT_OBJECTS, 'Accept-Encoding': 'gzip' }),
    ];
    expect(plain.body.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-type': 'application/json' });
    expect(zipped.headers['content-length']).toBeUndefined();
    const objects = (b: Buffer) => (JSON.parse(b.toString('utf8')) as { items: Obj[] }).items;
    expect(objects(gunzipSync(zipped.body))).toEqual(objects(plain.body));
    // The product's client: asked, decompressed, both sizes counted; the same objects.
    const client = newClient();
    const read = await client.getJson<{ items: Obj[] }>(path, ACCEPT_OBJECTS);
    expect(read.items).toEqual(objects(plain.body));
    // (The list's resourceVersion may move between reads: leases are renewed.)
    expect(client.stats.gzipAnswers).toBe(1);
    expect(Math.abs(client.stats.decodedBytes - plain.body.length)).toBeLessThan(10);
    expect(client.stats.bytes).toBeLessThan(client.stats.decodedBytes / 3);
    // The API test server holding the same objects answers with the same headers.
    const test = await startKubeApiServer({ token: 'gzip-parity' });
    try {
      test.addMany(objects(plain.body).map((o) => ({ ...o, apiVersion: 'v1', kind: 'ConfigMap' })));
      const ours = await rawGet(resolveTarget({ kubeconfig: test.writeKubeconfig(dir), allowExec: false }), path, {
        Accept: ACCEPT_OBJECTS,
        'Accept-Encoding': 'gzip',
      });
      const headers = (a: typeof zipped) => ({
        encoding: a.headers['content-encoding'],
        vary: a.headers.vary,
        type: a.headers['content-type'],
        length: a.headers['content-length'],
      });
      expect(headers(ours)).toEqual(headers(zipped));
    } finally {
      await test.close();
    }
  });

  it('metadata-only LISTs of every resource the GC watches: protobuf and JSON agree with kubectl get -o json', async () => {
    const types = kubectl(['api-resources', '--verbs=list,watch,delete', '-o', 'name'])
      .split('\n')
      .filter((t) => t && !/^events(\.|$)/.test(t));
    const full = new Map(
      (JSON.parse(kubectl(['get', types.join(','), '-A', '-o', 'json'])) as { items: Obj[] }).items.map((o) => [
        (o.metadata as Meta).uid,
        o.metadata as Meta,
      ]),
    );
    // Leases and Endpoints are renewed meanwhile: their resourceVersion (and managedFields) move, nothing else.
    const comparable = ({ resourceVersion: _rv, ...m }: Obj) => withoutManagedFields(m);
    let compared = 0;
    for (const r of resources) {
      const [protobuf, json] = [
        await listPages(r, undefined, ACCEPT_METADATA_LIST, 500),
        await listPages(r, undefined, ACCEPT_JSON_METADATA_LIST, 500),
      ];
      expect(protobuf.protobufAnswers, `${r.resource}.${r.group}`).toBe(protobuf.pages.length);
      const metas = (read: { items: Obj[] }) =>
        read.items.map((o) => comparable(o.metadata as Obj)).sort((a, b) => String(a.uid).localeCompare(String(b.uid)));
      expect(metas(protobuf), `${r.resource}.${r.group}`).toEqual(metas(json));
      for (const m of metas(json)) {
        expect(m, `${r.resource}.${r.group}`).toEqual(comparable(full.get(String(m.uid)) ?? {}));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });

  it("WATCH with allowWatchBookmarks: a BOOKMARK arrives before the watch's timeout and moves the resourceVersion; the Reflector takes it", async () => {
    // The apiserver's watch cache (cacher.go, cache_watcher.go) offers each watcher a bookmark 2 s before its deadline
    // (timeoutSeconds) and about once a minute otherwise, carrying the last resourceVersion the cache processed for the
    // resource type (any namespace). The watcher sends it only if newer than the cache's resourceVersion when the watch
    // began: on a quiet resource no bookmark comes at all. So a ConfigMap is made elsewhere once the watch is open, by
    // a direct POST (kubectl's start-up on a loaded machine can outlast the watch's 2 s before its deadline).
    kubectl(['create', 'namespace', 'quiet']);
    const client = newClient();
    const listed = await client.getJson<{ metadata: { resourceVersion: string } }>(
      '/api/v1/namespaces/quiet/configmaps?limit=500',
      ACCEPT_METADATA_LIST,
    );
    const from = listed.metadata.resourceVersion;
    const events: WatchEvent[] = [];
    const opened = watchesOpened('quiet');
    const watching = client.watch(
      `/api/v1/namespaces/quiet/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=20&resourceVersion=${from}`,
      ACCEPT_METADATA_WATCH,
      (e) => events.push(e),
      new AbortController().signal,
    );
    await until('the watch is open', () => watchesOpened('quiet') > opened);
    const writer = clusterWriter(plane.kubeconfig);
    const configMap = (name: string) =>
      writer.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const elsewhere = String((await configMap('elsewhere')).body.metadata.resourceVersion);
    await watching; // the server ends it at its timeout
    // One or more (the cache offers them on a schedule of its own), and nothing else: no ConfigMap changed in `quiet`.
    expect(events.length).toBeGreaterThan(0);
    expect([...new Set(events.map((e) => e.type))]).toEqual(['BOOKMARK']);
    const bookmark = events[events.length - 1].object as { kind: string; apiVersion: string; metadata: { resourceVersion: string } };
    expect(bookmark).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: expect.any(String) },
    });
    // resourceVersions are opaque to clients; on etcd they are its revisions, so they can be ordered here.
    expect(BigInt(bookmark.metadata.resourceVersion)).toBeGreaterThanOrEqual(BigInt(elsewhere));

    // The product's Reflector: its resourceVersion follows the bookmark although no event came.
    let delivered = 0;
    const reflector = new Reflector<Obj>(
      client,
      resource('', 'configmaps'),
      'quiet',
      {
        convert: (item) => item as Obj,
        replace: () => undefined,
        event: () => delivered++,
        state: () => undefined,
      },
      { accept: ACCEPT_METADATA_LIST, watchAccept: ACCEPT_METADATA_WATCH, watchTimeoutSeconds: 10, withoutManagedFields: true },
    );
    const stop = new AbortController();
    const before = watchesOpened('quiet');
    const run = reflector.start(stop.signal);
    await run.listed;
    const listedAt = reflector.resourceVersion;
    await until("the Reflector's watch is open", () => watchesOpened('quiet') > before);
    await configMap('elsewhere-2');
    await until('a bookmark moves the Reflector', () => reflector.resourceVersion !== listedAt);
    expect(BigInt(reflector.resourceVersion)).toBeGreaterThan(BigInt(listedAt));
    expect(delivered).toBe(0);
    expect(reflector.lists).toBe(1);
    stop.abort();
    await run.done;
  });

  it('a CRD created while watching: its kind is discovered and its objects watched; deleted: its objects leave the graph, no error loop', async () => {
    const crd = (name: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${name}s.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: ${name}s, singular: ${name}, kind: ${name[0].toUpperCase()}${name.slice(1)}, listKind: ${name[0].toUpperCase()}${name.slice(1)}List}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
`;
    const resourcesBefore = live.status().resources.total;
    kubectl(['create', 'namespace', 'crds']);
    apply(crd('widget'));
    kubectl(['wait', '--for=condition=established', 'crd/widgets.example.com']);
    apply('apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: first, namespace: crds}\n');
    const first = uidOf('widgets.example.com', 'crds', 'first');
    await until('the first Widget in the live graph', () => live.inventory.objects.has(first));
    expect(live.status().resources.total).toBe(resourcesBefore + 1);
    // Watched, not only listed: a Widget made now, and a ConfigMap it owns.
    apply('apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: second, namespace: crds}\n');
    const second = uidOf('widgets.example.com', 'crds', 'second');
    apply(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned-by-widget\n  namespace: crds\n  ownerReferences: [{apiVersion: example.com/v1, kind: Widget, name: second, uid: ${second}}]\n`,
    );
    const owned = uidOf('configmap', 'crds', 'owned-by-widget');
    await until(
      'the second Widget and its ConfigMap',
      () => live.inventory.objects.has(second) && live.inventory.objects.get(owned)?.ownerReferences[0]?.uid === second,
    );
    expect(live.inventory.objects.get(second)).toMatchObject({ kind: 'Widget', apiVersion: 'example.com/v1', namespace: 'crds' });
    expect(live.status().problems).toEqual([]);

    // The CRD goes: the apiserver deletes its Widgets first (kubectl waits for that). Whether the GC then deletes the
    // ConfigMap depends on whether its 30 s discovery resync had started monitoring Widgets: graphsAgree checks either.
    kubectl(['delete', 'crd', 'widgets.example.com']);
    await until('the Widgets out of the live graph', () => ![first, second].some((u) => live.inventory.objects.has(u)));
    await until("the Widgets' reflector stopped", () => live.status().resources.total === resourcesBefore);
    await graphsAgree("the live graph is the server's after the CRD went");
    // No error loop: a full round trip later (a ConfigMap made and seen), no more requests for widgets were sent.
    const widgetRequests = () => productRequests(AUDIT_LOG).filter((e) => e.objectRef?.resource === 'widgets').length;
    const before = widgetRequests();
    apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: after-crd, namespace: crds}\n');
    const after = uidOf('configmap', 'crds', 'after-crd');
    await until('the ConfigMap made after the CRD went', () => live.inventory.objects.has(after));
    // The log is written as requests complete: once kubectl's create of that ConfigMap is in it, so is anything before.
    await until('the audit log has caught up', () => readFileSync(AUDIT_LOG, 'utf8').includes('"name":"after-crd"'));
    expect(widgetRequests()).toBe(before);
    expect(live.status().problems).toEqual([]);
    expect(live.status().state).toBe('watching');
  });

  it('a PVC held by a Pod (kubernetes.io/pvc-protection): stuck and the live graph say what the real cluster shows', async () => {
    kubectl(['create', 'namespace', 'storage']);
    // No serviceaccount controller runs here: the Pod's ServiceAccount is made by hand. No kubelet, no scheduler: the
    // Pod is bound to a node by its spec and never runs, which is enough for pvc-protection to count it as a user.
    apply(`apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: storage}
---
apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: storage}
spec: {accessModes: [ReadWriteOnce], storageClassName: "", resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1\nkind: Pod\nmetadata: {name: user, namespace: storage}
spec: {nodeName: node-1, containers: [{name: c, image: busybox}], volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}
`);
    const pvc = uidOf('pvc', 'storage', 'data');
    kubectl(['delete', 'pvc', 'data', '-n', 'storage', '--wait=false']);
    await until(
      'the PVC terminating',
      () => kubectl(['get', 'pvc', 'data', '-n', 'storage', '-o', 'jsonpath={.metadata.deletionTimestamp}']) !== '',
    );
    expect(JSON.parse(kubectl(['get', 'pvc', 'data', '-n', 'storage', '-o', 'jsonpath={.metadata.finalizers}']))).toEqual([
      'kubernetes.io/pvc-protection',
    ]);
    await until('the live PVC terminating', () => live.inventory.objects.get(pvc)?.deletionTimestamp !== undefined);
    expect(live.inventory.objects.get(pvc)?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const held = stuck().find((s) => s.kind === 'PersistentVolumeClaim');
    expect(held).toMatchObject({ namespace: 'storage', name: 'data' });
    expect(held!.reason).toContain('still mounted by Pod storage/user');
    // The Pod goes (forced: no kubelet would confirm it): the real controller releases the claim, and stuck agrees.
    kubectl(['delete', 'pod', 'user', '-n', 'storage', '--grace-period=0', '--force']);
    await until('the PVC gone', () => kubectl(['get', 'pvc', '-n', 'storage', '-o', 'name']) === '');
    await until('the PVC out of the live graph', () => !live.inventory.objects.has(pvc));
    expect(stuck().filter((s) => s.namespace === 'storage')).toEqual([]);
  });

  it('a real foreground deletion in progress: the owner waits with foregroundDeletion for a blocking dependent held by a finalizer', async () => {
    kubectl(['create', 'namespace', 'fg']);
    apply('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owner, namespace: fg}\n');
    const owner = uidOf('configmap', 'fg', 'owner');
    apply(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dependent\n  namespace: fg\n  finalizers: [example.com/hold]\n  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: ${owner}, blockOwnerDeletion: true}]\n`,
    );
    const dependent = uidOf('configmap', 'fg', 'dependent');
    kubectl(['delete', 'configmap', 'owner', '-n', 'fg', '--cascade=foreground', '--wait=false']);
    await until(
      'the GC deletes the dependent',
      () => kubectl(['get', 'configmap', 'dependent', '-n', 'fg', '-o', 'jsonpath={.metadata.deletionTimestamp}']) !== '',
    );
    expect(JSON.parse(kubectl(['get', 'configmap', 'owner', '-n', 'fg', '-o', 'jsonpath={.metadata.finalizers}']))).toEqual([
      'foregroundDeletion',
    ]);
    await until(
      'the live graph shows both terminating',
      () =>
        live.inventory.objects.get(dependent)?.deletionTimestamp !== undefined &&
        live.inventory.objects.get(owner)?.deletionTimestamp !== undefined,
    );
    expect(live.inventory.objects.get(owner)?.finalizers).toEqual(['foregroundDeletion']);
    const fg = stuck().filter((s) => s.namespace === 'fg');
    expect(fg.map((s) => `${s.kind}/${s.name}`).sort()).toEqual(['ConfigMap/dependent', 'ConfigMap/owner']);
    expect(fg.find((s) => s.name === 'dependent')!.reason).toContain('example.com/hold');
    expect(fg.find((s) => s.name === 'owner')!.reason).toMatch(/foreground/i);
    expect(fg.find((s) => s.name === 'owner')!.reason).toContain('dependent');
    // The graph as kube-controller-manager's debug dump draws it: the owner deleting its dependents.
    const graph = JSON.parse(gc(['graph', '-o', 'json']).stdout) as {
      nodes: { uid: string; beingDeleted?: boolean; deletingDependents?: boolean }[];
    };
    expect(graph.nodes.find((n) => n.uid === owner)).toMatchObject({ beingDeleted: true, deletingDependents: true });
    // The finalizer goes: the dependent, then the owner, are gone, on the server and in the live graph.
    kubectl(['patch', 'configmap', 'dependent', '-n', 'fg', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await until(
      'both gone',
      () =>
        kubectl(['get', 'configmaps', '-n', 'fg', '-o', 'name'])
          .split('\n')
          .filter((n) => n && n !== 'configmap/kube-root-ca.crt').length === 0,
    );
    await until('both out of the live graph', () => !live.inventory.objects.has(owner) && !live.inventory.objects.has(dependent));
  });

  it('the API test server holding the same objects answers the product as the real one does (pages, metadata, 406s)', async () => {
    const test = await startKubeApiServer({ token: 'parity' });
    const testTarget = resolveTarget({ kubeconfig: test.writeKubeconfig(dir), allowExec: false });
    const testClient = () => {
      const c = new ApiClient(testTarget);
      clients.push(c);
      return c;
    };
    try {
      const full = (JSON.parse(kubectl(['get', 'configmaps', '-n', 'paged', '-o', 'json'])) as { items: Obj[] }).items;
      test.addMany(full.map((o) => ({ ...o, apiVersion: 'v1', kind: 'ConfigMap' })));
      const configmaps = resource('', 'configmaps');
      // Their resourceVersions are each server's own; everything else must be the same.
      const comparable = (read: { items: Obj[] }) =>
        read.items.map((o) => {
          const { resourceVersion: _rv, ...m } = o.metadata as Obj;
          return { ...o, metadata: m };
        });
      for (const accept of [ACCEPT_METADATA_LIST, ACCEPT_JSON_METADATA_LIST]) {
        const [real, ours] = [
          await listPages(configmaps, 'paged', accept, 40),
          await listPages(configmaps, 'paged', accept, 40, testClient()),
        ];
        expect(ours.pages.map((p) => p.items)).toEqual(real.pages.map((p) => p.items));
        expect(ours.protobufAnswers).toBe(real.protobufAnswers);
        expect(comparable(ours)).toEqual(comparable(real));
      }
      // A metadata form that does not fit the verb: the same 406, in the same words.
      const refused = async (c: ApiClient, path: string, accept: string) =>
        c.getJson(path, accept).then(
          () => 'answered',
          (e: { status: number; reason: string; message: string }) => `${e.status} ${e.reason}: ${e.message}`,
        );
      for (const [path, accept] of [
        ['/api/v1/namespaces/paged/configmaps/owner', ACCEPT_JSON_METADATA_LIST],
        ['/api/v1/namespaces/paged/configmaps?limit=1', ACCEPT_METADATA_WATCH],
      ]) {
        expect(await refused(testClient(), path, accept)).toBe(await refused(newClient(), path, accept));
      }
      // A full LIST's items carry no apiVersion or kind, on both.
      const first = async (c: ApiClient) =>
        (await c.getJson<{ items: Obj[] }>('/api/v1/namespaces/paged/configmaps?limit=1', ACCEPT_OBJECTS)).items[0];
      expect(Object.keys(await first(testClient())).sort()).toEqual(Object.keys(await first(newClient())).sort());
    } finally {
      await test.close();
    }
  });

  it('drop=metadata.managedFields on 1.37 (no ManagedFieldsOptOut): ignored, 200 and the same answer, managedFields still sent', async () => {
    const client = newClient();
    const path = '/api/v1/namespaces/paged/configmaps?limit=5';
    const plain = ACCEPT_JSON_METADATA_LIST.split(',')[0].replace(';drop=metadata.managedFields', '');
    const withDrop = await client.getJson<{ items: { metadata: Obj }[] }>(path, `${plain};drop=metadata.managedFields`);
    const without = await client.getJson<{ items: { metadata: Obj }[] }>(path, plain);
    // The items are the same; the list's resourceVersion may move between the two reads (leases, events).
    expect(withDrop.items).toEqual(without.items);
    expect(withDrop.items.every((o) => Array.isArray(o.metadata.managedFields))).toBe(true);
    // In full, and on a watch, the same.
    const one = await client.getJson<{ metadata: Obj }>('/api/v1/namespaces/paged/configmaps/owner', ACCEPT_OBJECTS);
    expect(Array.isArray(one.metadata.managedFields)).toBe(true);
    const events: WatchEvent[] = [];
    await client.watch(
      `/api/v1/namespaces/paged/configmaps?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Downer&resourceVersion=0`,
      ACCEPT_METADATA_WATCH,
      (e) => events.push(e),
      new AbortController().signal,
    );
    expect(events.map((e) => e.type)).toEqual(['ADDED']);
    expect(Array.isArray((events[0].object.metadata as Obj).managedFields)).toBe(true);
    // The product cuts them itself, so the live objects are the same either way.
    expect(live.inventory.objects.get(uidOf('configmap', 'paged', 'owner'))).toBeDefined();
  });

  it("after everything above, the watched live graph is the server's graph", async () => {
    await graphsAgree('the live graph equals kubectl get -o json');
    expect(live.status().problems).toEqual([]);
    expect(live.status().state).toBe('watching');
  });

  it("the apiserver's audit log: every request of this file's product code was a GET (get, list or watch)", async () => {
    await until('the audit log has our watches', () => productRequests(AUDIT_LOG).some((e) => e.verb === 'watch'));
    const verbs = new Set(productRequests(AUDIT_LOG).map((e) => e.verb));
    expect(productRequests(AUDIT_LOG).length).toBeGreaterThan(100);
    expect([...verbs].sort()).toEqual(['get', 'list', 'watch']);
    const lists = productRequests(AUDIT_LOG).filter((e) => e.verb === 'list' && e.objectRef?.resource === 'configmaps');
    expect(lists.filter((e) => e.requestURI.includes('continue=')).length, JSON.stringify(lists.slice(0, 3))).toBeGreaterThan(10);
  });
});

/** Watches of ConfigMaps in `namespace` the apiserver has begun answering (audit stage ResponseStarted). */
function watchesOpened(namespace: string): number {
  return readFileSync(AUDIT_LOG, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"ResponseStarted"') && l.includes(`/namespaces/${namespace}/configmaps?`) && l.includes('"verb":"watch"'))
    .length;
}

// The Kubernetes API test server, spoken to as a client would: plain HTTPS requests from Node, with the CA and the
// token of its kubeconfig. What is checked is the protocol (shapes, codes, ordering, pagination, watch semantics),
// which the live-cluster tests and the benchmark rely on.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeProtobuf } from '../../server/src/sources/cluster/protobuf';
import { type KubeApiServer, type KubeApiServerOptions, startKubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { metadataListProtobuf, partialObjectMetadataBytes } from '../../testkit/kubeApiServer/protobuf';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = join(__dirname, '..', 'fixtures');
const CA = readFileSync(join(FIXTURES, 'kube-api-tls', 'ca.crt'), 'utf8');
const AGGREGATED = JSON.parse(readFileSync(join(FIXTURES, 'discovery', 'aggregated_v2.json'), 'utf8')) as Json;
const CORE_V1 = JSON.parse(readFileSync(join(FIXTURES, 'discovery', 'api__v1.json'), 'utf8')) as Json;
const TOKEN = 'test-token';
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
// What client-go's metadata client (kube-controller-manager's garbage collector) and the product ask for.
const PROTOBUF_METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const PROTOBUF_METADATA =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const AGGREGATED_V2 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

let server: KubeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(opts: KubeApiServerOptions = { token: TOKEN }): Promise<KubeApiServer> {
  server = await startKubeApiServer(opts);
  return server;
}

interface Options {
  method?: string;
  accept?: string;
  token?: string | null;
  body?: string;
}

function send(s: KubeApiServer, path: string, o: Options = {}): Promise<IncomingMessage> {
  const token = o.token === undefined ? TOKEN : o.token;
  const headers: Record<string, string> = {
    ...(o.accept ? { Accept: o.accept } : {}),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...(o.body ? { 'Content-Type': 'application/json' } : {}),
  };
  const req = s.url.startsWith('https:')
    ? httpsRequest(`${s.url}${path}`, { method: o.method ?? 'GET', headers, ca: CA, agent: false })
    : httpRequest(`${s.url}${path}`, { method: o.method ?? 'GET', headers, agent: false });
  return new Promise((resolve, reject) => {
    req.on('response', resolve).on('error', reject);
    req.end(o.body);
  });
}

async function call(s: KubeApiServer, path: string, o: Options = {}) {
  const { status, headers, bytes } = await callBytes(s, path, o);
  const text = bytes.toString('utf8');
  return { status, headers, text, body: (text.startsWith('{') ? JSON.parse(text) : {}) as Json };
}

async function callBytes(s: KubeApiServer, path: string, o: Options = {}) {
  const res = await send(s, path, o);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) };
}

/** A watch stream read event by event; `complete` is false when the server cut the connection. */
class Watch {
  readonly events: Json[] = [];
  status = 0;
  contentType = '';
  ended = false;
  complete = false;
  bytes = 0;
  private res?: IncomingMessage;
  private wake: () => void = () => undefined;

  static async open(s: KubeApiServer, path: string, o: Options = {}): Promise<Watch> {
    const w = new Watch();
    const res = await send(s, path, o);
    w.res = res;
    w.status = res.statusCode ?? 0;
    w.contentType = res.headers['content-type'] ?? '';
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      w.bytes += Buffer.byteLength(chunk);
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        w.events.push(JSON.parse(buffer.slice(0, nl)) as Json);
        buffer = buffer.slice(nl + 1);
      }
      w.wake();
    });
    res.on('error', () => undefined); // "aborted" when the server destroys the socket
    res.on('close', () => {
      w.ended = true;
      w.complete = res.complete;
      w.wake();
    });
    return w;
  }

  async until(done: (w: Watch) => boolean, what: string, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this)) {
      if (Date.now() > deadline)
        throw new Error(`watch: timed out waiting for ${what}; got ${JSON.stringify(this.events.map((e) => e.type))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  typed(): string[] {
    return this.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata?.name ?? e.object.kind}`);
  }

  close(): void {
    this.res?.destroy();
  }
}

const pod = (namespace: string, name: string, extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, ...(extra.labels ? { labels: extra.labels } : {}) },
  spec: { nodeName: extra.node ?? 'node-1', containers: [{ name: 'c', image: 'busybox' }] },
});

const names = (items: Json[]) => items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}`);

describe('discovery', () => {
  it('serves the legacy documents, derived from the fixture', async () => {
    const s = await start();
    const api = await call(s, '/api');
    expect(api.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    expect((await call(s, '/api/v1')).body).toEqual(CORE_V1);
    const apis = (await call(s, '/apis')).body;
    expect(apis.kind).toBe('APIGroupList');
    expect(apis.groups.map((g: Json) => g.name)).toEqual(AGGREGATED.items.map((g: Json) => g.metadata.name));
    const autoscaling = apis.groups.find((g: Json) => g.name === 'autoscaling');
    expect(autoscaling.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
    expect((await call(s, '/apis/apps')).body).toMatchObject({ kind: 'APIGroup', name: 'apps', preferredVersion: { version: 'v1' } });
    const apps = (await call(s, '/apis/apps/v1')).body;
    expect(apps).toMatchObject({ kind: 'APIResourceList', groupVersion: 'apps/v1' });
    expect(apps.resources.find((r: Json) => r.name === 'deployments')).toMatchObject({
      kind: 'Deployment',
      namespaced: true,
      singularName: 'deployment',
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(apps.resources.find((r: Json) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    expect((await call(s, '/apis/nope.example.com/v1')).status).toBe(404);
    expect((await call(s, '/version')).body).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\./) });
  });

  it('serves aggregated discovery (v2 and v2beta1) with its content type', async () => {
    const s = await start();
    const apis = await call(s, '/apis', { accept: AGGREGATED_V2 });
    expect(apis.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(apis.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    expect(apis.body.items).toEqual(AGGREGATED.items);
    const core = await call(s, '/api', { accept: AGGREGATED_V2 });
    expect(core.body.items).toHaveLength(1);
    const pods = core.body.items[0].versions[0].resources.find((r: Json) => r.resource === 'pods');
    expect(pods).toMatchObject({ scope: 'Namespaced', responseKind: { kind: 'Pod' }, shortNames: ['po'], categories: ['all'] });
    expect(pods.subresources.map((x: Json) => x.subresource)).toContain('status');
    const beta = await call(s, '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
    expect(beta.headers['content-type']).toContain('v=v2beta1');
    expect(beta.body.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    // Without the aggregated media type: legacy.
    expect((await call(s, '/apis', { accept: 'application/json, */*' })).body.kind).toBe('APIGroupList');
  });

  it('adds the groups of CustomResourceDefinitions and serves their objects; removing the CRD takes both away', async () => {
    const s = await start();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
        versions: [
          { name: 'v1beta1', served: true, storage: false },
          { name: 'v1', served: true, storage: true, subresources: { status: {} } },
          { name: 'v1alpha1', served: false, storage: false },
        ],
      },
    };
    s.add(crd);
    const group = (await call(s, '/apis')).body.groups.find((g: Json) => g.name === 'example.com');
    expect(group.versions.map((v: Json) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(group.preferredVersion.version).toBe('v1');
    const v1 = (await call(s, '/apis/example.com/v1')).body;
    expect(v1.resources.map((r: Json) => r.name)).toEqual(['widgets', 'widgets/status']);
    expect(v1.resources[0]).toMatchObject({ kind: 'Widget', namespaced: true, shortNames: ['wd'] });
    const aggregated = (await call(s, '/apis', { accept: AGGREGATED_V2 })).body;
    expect(aggregated.items.find((g: Json) => g.metadata.name === 'example.com').versions[0].resources[0]).toMatchObject({
      resource: 'widgets',
      scope: 'Namespaced',
      responseKind: { kind: 'Widget' },
    });
    s.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'ns' }, spec: { size: 3 } });
    const list = (await call(s, '/apis/example.com/v1beta1/namespaces/ns/widgets')).body;
    expect(list).toMatchObject({ kind: 'WidgetList', apiVersion: 'example.com/v1beta1' });
    expect(list.items[0]).toMatchObject({ apiVersion: 'example.com/v1beta1', kind: 'Widget', spec: { size: 3 } });

    s.remove({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'widgets.example.com' });
    expect((await call(s, '/apis')).body.groups.map((g: Json) => g.name)).not.toContain('example.com');
    expect((await call(s, '/apis', { accept: AGGREGATED_V2 })).body.items.map((g: Json) => g.metadata.name)).not.toContain('example.com');
    expect((await call(s, '/apis/example.com/v1/namespaces/ns/widgets')).status).toBe(404);
    expect(s.objects()).toEqual([]);
    expect(() => s.add({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' } })).toThrow(/CustomResourceDefinition/);
  });

  it('failDiscovery: the group/version is listed, its document answers 503 and aggregated discovery says Stale', async () => {
    const s = await start();
    s.faults.failDiscovery('metrics.k8s.io/v1beta1');
    const metrics = (await call(s, '/apis')).body.groups.find((g: Json) => g.name === 'metrics.k8s.io');
    expect(metrics.versions).toEqual([{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }]);
    const down = await call(s, '/apis/metrics.k8s.io/v1beta1');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
    const aggregated = (await call(s, '/apis', { accept: AGGREGATED_V2 })).body;
    expect(aggregated.items.find((g: Json) => g.metadata.name === 'metrics.k8s.io').versions).toEqual([
      { version: 'v1beta1', resources: [], freshness: 'Stale' },
    ]);
    s.faults.clear();
    expect((await call(s, '/apis')).body.groups.map((g: Json) => g.name)).not.toContain('metrics.k8s.io');
  });
});

describe('GET and LIST', () => {
  it('lists in namespace/name order with the global resourceVersion, and gets one object in each form', async () => {
    const s = await start();
    for (const [ns, name] of [
      ['b', 'p2'],
      ['a-b', 'p1'],
      ['a', 'p3'],
      ['a', 'p1'],
      ['b', 'p1'],
    ])
      s.add(pod(ns, name));
    const list = await call(s, '/api/v1/pods');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: s.resourceVersion() } });
    // etcd's key order: '-' sorts before '/', so a-b/ comes before a/.
    expect(names(list.body.items)).toEqual(['a-b/p1', 'a/p1', 'a/p3', 'b/p1', 'b/p2']);
    expect(names((await call(s, '/api/v1/namespaces/a/pods')).body.items)).toEqual(['a/p1', 'a/p3']);

    const stored = s.objects().find((o: Json) => o.metadata.name === 'p3') as Json;
    expect(stored.metadata).toMatchObject({
      uid: expect.any(String),
      resourceVersion: expect.any(String),
      creationTimestamp: expect.stringMatching(/Z$/),
    });
    expect((await call(s, '/api/v1/namespaces/a/pods/p3')).body).toEqual(stored);
    expect((await call(s, '/api/v1/namespaces/a/pods/p3', { accept: METADATA })).body).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: stored.metadata,
    });
    const table = (await call(s, '/api/v1/namespaces/a/pods/p3', { accept: TABLE })).body;
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(table.columnDefinitions.map((c: Json) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.rows).toEqual([
      {
        cells: ['p3', stored.metadata.creationTimestamp],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: stored.metadata },
      },
    ]);

    const missing = await call(s, '/api/v1/namespaces/a/pods/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'pods' },
      code: 404,
    });
    expect((await call(s, '/apis/apps/v1/namespaces/a/deployments/nope')).body.message).toBe('deployments.apps "nope" not found');
    expect((await call(s, '/api/v1/namespaces/a/frobs')).status).toBe(404);
    expect((await call(s, '/api/v1/pods', { accept: 'application/vnd.kubernetes.protobuf' })).status).toBe(406);
  });

  it('full LIST items of a built-in resource carry no apiVersion or kind (only the list does), as the apiserver writes them', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    const item = (await call(s, '/api/v1/namespaces/a/pods')).body.items[0];
    expect(item).not.toHaveProperty('apiVersion');
    expect(item).not.toHaveProperty('kind');
    expect(item).toMatchObject({ metadata: { name: 'p1' }, spec: { nodeName: 'node-1' } });
    // A single GET, a watch event and a metadata-only list keep them.
    expect((await call(s, '/api/v1/namespaces/a/pods/p1')).body).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    expect((await call(s, '/api/v1/namespaces/a/pods', { accept: METADATA_LIST })).body.items[0]).toMatchObject({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
    });
  });

  it("a metadata form that does not fit the verb: a GET or LIST is 406 in the apiserver's words; a watch asked as a list is cut at its first event, having sent nothing", async () => {
    // As kube-apiserver v1.37.2 answers (test/cluster/realServerLive.test.ts found the product's watches asking so).
    const s = await start();
    s.add(pod('a', 'p1'));
    const one = await call(s, '/api/v1/namespaces/a/pods/p1', { accept: METADATA_LIST });
    expect(one.status).toBe(406);
    expect(one.body).toMatchObject({
      kind: 'Status',
      reason: 'NotAcceptable',
      code: 406,
      message: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Pod)',
    });
    const list = await call(s, '/apis/apps/v1/deployments', { accept: PROTOBUF_METADATA });
    expect(list.status).toBe(406);
    expect(list.body.message).toBe('you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)');
    const rv = s.resourceVersion();
    const w = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, {
      accept: METADATA_LIST,
    });
    expect(w.status).toBe(200);
    s.add(pod('a', 'p2'));
    await w.until((x) => x.ended, 'the watch cut');
    expect(w.events).toEqual([]);
  });

  it('serves cluster-scoped objects, namespaces themselves included', async () => {
    const s = await start();
    s.add({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    s.add({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] });
    expect((await call(s, '/api/v1/namespaces/shop')).body).toMatchObject({ kind: 'Namespace', metadata: { name: 'shop' } });
    expect(s.requests.at(-1)).toMatchObject({ verb: 'get', resource: 'namespaces', namespace: 'shop' });
    expect(names((await call(s, '/api/v1/namespaces')).body.items)).toEqual(['/shop']);
    expect((await call(s, '/apis/rbac.authorization.k8s.io/v1/clusterroles/reader')).body.rules).toEqual([]);
    expect((await call(s, '/apis/rbac.authorization.k8s.io/v1/namespaces/shop/clusterroles')).status).toBe(404);
  });

  it("lists metadata-only and paginates from the first page's snapshot across changes between pages", async () => {
    const s = await start();
    for (let i = 0; i < 6; i++) s.add(pod('shop', `pod-${i}`, { labels: { app: 'web' } }));
    const before = new Map(s.objects().map((o: Json) => [o.metadata.name, o.metadata.resourceVersion]));

    const page1 = (await call(s, '/api/v1/namespaces/shop/pods?limit=2', { accept: METADATA_LIST })).body;
    expect(page1).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { remainingItemCount: 4 } });
    for (const item of page1.items) {
      expect(Object.keys(item)).toEqual(['kind', 'apiVersion', 'metadata']);
      expect(item).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
    }
    const rv = page1.metadata.resourceVersion;
    // Changes between pages: an update, a removal and an addition that all fall in the pages still to come.
    s.update({ ...pod('shop', 'pod-3'), metadata: { name: 'pod-3', namespace: 'shop', labels: { app: 'changed' } } });
    s.remove({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'pod-4' });
    s.add(pod('shop', 'pod-2a'));

    const seen: Json[] = [...page1.items];
    let token = page1.metadata.continue as string | undefined;
    while (token) {
      const page = (await call(s, `/api/v1/namespaces/shop/pods?limit=2&continue=${encodeURIComponent(token)}`, { accept: METADATA_LIST }))
        .body;
      expect(page.metadata.resourceVersion).toBe(rv);
      seen.push(...page.items);
      token = page.metadata.continue;
    }
    // The snapshot of the first page: nothing lost, nothing twice, pod-3 as it was then.
    expect(seen.map((i) => i.metadata.name)).toEqual(['pod-0', 'pod-1', 'pod-2', 'pod-3', 'pod-4', 'pod-5']);
    for (const i of seen) expect(i.metadata.resourceVersion).toBe(before.get(i.metadata.name));
    expect(seen[3].metadata.labels).toEqual({ app: 'web' });
    // A new list sees the changes.
    const now = (await call(s, '/api/v1/namespaces/shop/pods', { accept: METADATA_LIST })).body;
    expect(now.items.map((i: Json) => i.metadata.name)).toEqual(['pod-0', 'pod-1', 'pod-2', 'pod-2a', 'pod-3', 'pod-5']);
    expect(now.metadata.resourceVersion).toBe(s.resourceVersion());
  });

  it('filters by label and field selectors', async () => {
    const s = await start();
    s.add(pod('a', 'web-1', { labels: { app: 'web', tier: 'front' }, node: 'n1' }));
    s.add(pod('a', 'web-2', { labels: { app: 'web' }, node: 'n2' }));
    s.add(pod('b', 'db-1', { labels: { app: 'db', tier: 'back' }, node: 'n1' }));
    s.add(pod('b', 'bare', { node: 'n2' }));
    const q = async (query: string) => {
      const r = await call(s, `/api/v1/pods?${query}`);
      return r.status === 200 ? r.body.items.map((i: Json) => i.metadata.name) : r.body;
    };
    expect(await q('labelSelector=app%3Dweb')).toEqual(['web-1', 'web-2']);
    expect(await q('labelSelector=app%3D%3Ddb')).toEqual(['db-1']);
    expect(await q('labelSelector=app!%3Dweb')).toEqual(['bare', 'db-1']);
    expect(await q(`labelSelector=${encodeURIComponent('app in (web, db),tier')}`)).toEqual(['web-1', 'db-1']);
    expect(await q(`labelSelector=${encodeURIComponent('tier notin (front)')}`)).toEqual(['web-2', 'bare', 'db-1']);
    expect(await q(`labelSelector=${encodeURIComponent('!app')}`)).toEqual(['bare']);
    expect(await q('fieldSelector=metadata.name%3Dweb-2')).toEqual(['web-2']);
    expect(await q('fieldSelector=metadata.namespace%3Db')).toEqual(['bare', 'db-1']);
    expect(await q('fieldSelector=spec.nodeName%3Dn1,metadata.namespace!%3Da')).toEqual(['db-1']);
    expect(await q('fieldSelector=spec.nodeName%3Dn2&labelSelector=app')).toEqual(['web-2']);
    expect(await q('fieldSelector=spec.foo%3Dx')).toMatchObject({
      kind: 'Status',
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.foo',
    });
  });

  it('serves Table lists for kubectl get, with includeObject honoured', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    s.add(pod('a', 'p2'));
    const t = (await call(s, '/api/v1/namespaces/a/pods?limit=1', { accept: TABLE })).body;
    expect(t).toMatchObject({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: s.resourceVersion(), continue: expect.any(String) },
    });
    expect(t.rows).toHaveLength(1);
    expect(t.rows[0].object.kind).toBe('PartialObjectMetadata');
    expect((await call(s, '/api/v1/namespaces/a/pods?includeObject=None', { accept: TABLE })).body.rows[0]).toEqual({
      cells: ['p1', expect.any(String)],
    });
    expect((await call(s, '/api/v1/namespaces/a/pods?includeObject=Object', { accept: TABLE })).body.rows[0].object).toMatchObject({
      kind: 'Pod',
      spec: { nodeName: 'node-1' },
    });
    const beta = (await call(s, '/api/v1/namespaces/a/pods', { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' })).body;
    expect(beta.apiVersion).toBe('meta.k8s.io/v1beta1');
  });
});

describe("protobuf (metadata-only GETs and LISTs, as client-go's metadata client asks)", () => {
  const T = '2026-11-20T08:00:00Z';
  const mf = (manager: string) => [
    {
      manager,
      operation: 'Update',
      apiVersion: 'v1',
      time: T,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    },
  ];
  /** Pods with what the garbage collector reads in their metadata, and managedFields. */
  const seed = (s: KubeApiServer) => {
    for (const [ns, name] of [
      ['a', 'p1'],
      ['a', 'p2'],
      ['a', 'p3'],
      ['b', 'p1'],
      ['b', 'p2'],
      ['b', 'p3'],
      ['c', 'p1'],
    ]) {
      const p = pod(ns, name, { labels: { app: 'web', note: 'ünïcødé ✓' } });
      p.metadata.annotations = { 'example.com/owner': `équipe ${name}` };
      p.metadata.ownerReferences = [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: `rs-${ns}`, controller: true, blockOwnerDeletion: true },
      ];
      p.metadata.managedFields = mf('kube-controller-manager');
      if (name === 'p2')
        Object.assign(p.metadata, {
          deletionTimestamp: '2026-11-20T09:00:00Z',
          deletionGracePeriodSeconds: 30,
          finalizers: ['example.com/hold'],
        });
      s.add(p);
    }
    s.add({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'a', managedFields: mf('kubectl') },
      data: { k: 'v' },
    });
  };
  const withoutManagedFields = (doc: Json): Json => {
    const copy = JSON.parse(JSON.stringify(doc)) as Json;
    for (const i of copy.items ?? [copy]) delete i.metadata.managedFields;
    return copy;
  };

  it('answers a protobuf-first metadata-only LIST in protobuf, whole or page by page, with what the JSON LIST holds', async () => {
    const s = await start();
    seed(s);
    const pb = await callBytes(s, '/api/v1/pods', { accept: PROTOBUF_METADATA_LIST });
    expect(pb.status).toBe(200);
    expect(pb.headers['content-type']).toBe(PROTOBUF);
    expect(pb.bytes.subarray(0, 4)).toEqual(Buffer.from('k8s\0', 'latin1'));
    expect(s.requests.at(-1)).toMatchObject({ verb: 'list', accept: PROTOBUF_METADATA_LIST, status: 200, bytes: pb.bytes.length });
    const json = await call(s, '/api/v1/pods', { accept: METADATA_LIST });
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.body.items[0].metadata.managedFields).toHaveLength(1);
    const decoded = decodeProtobuf(pb.bytes) as Json;
    expect(decoded).toEqual(withoutManagedFields(json.body));
    expect(names(decoded.items)).toEqual(['a/p1', 'a/p2', 'a/p3', 'b/p1', 'b/p2', 'b/p3', 'c/p1']);
    expect(decoded.items[1].metadata).toMatchObject({
      deletionTimestamp: '2026-11-20T09:00:00Z',
      deletionGracePeriodSeconds: 30,
      finalizers: ['example.com/hold'],
    });
    expect(pb.bytes.length).toBeLessThan(Buffer.byteLength(json.text));

    // Page by page: the same pages, continue tokens and remaining counts in both forms.
    let token: string | undefined;
    const seen: string[] = [];
    let pages = 0;
    do {
      const q = `limit=3${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const page = decodeProtobuf((await callBytes(s, `/api/v1/pods?${q}`, { accept: PROTOBUF_METADATA_LIST })).bytes) as Json;
      expect(page).toEqual(withoutManagedFields((await call(s, `/api/v1/pods?${q}`, { accept: METADATA_LIST })).body));
      expect(page.metadata.resourceVersion).toBe(json.body.metadata.resourceVersion);
      seen.push(...names(page.items));
      token = page.metadata.continue;
      pages++;
      if (token) expect(page.metadata.remainingItemCount).toBe(7 - seen.length);
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(names(decoded.items));

    // One object, metadata-only.
    const one = await callBytes(s, '/api/v1/namespaces/b/pods/p2', { accept: PROTOBUF_METADATA });
    expect(one.headers['content-type']).toBe(PROTOBUF);
    expect(decodeProtobuf(one.bytes)).toEqual(
      withoutManagedFields((await call(s, '/api/v1/namespaces/b/pods/p2', { accept: METADATA })).body),
    );
    // Errors are JSON Status, whatever the Accept.
    const missing = await call(s, '/api/v1/namespaces/b/pods/nope', { accept: PROTOBUF_METADATA });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('jsonOnly(): one resource (in one namespace, or all) or every resource answered in JSON, as by a server without protobuf; clear() undoes it', async () => {
    const s = await start();
    seed(s);
    const type = async (path: string, accept = PROTOBUF_METADATA_LIST) => (await callBytes(s, path, { accept })).headers['content-type'];
    s.faults.jsonOnly({ group: '', resource: 'pods' });
    const pods = await call(s, '/api/v1/pods', { accept: PROTOBUF_METADATA_LIST });
    expect(pods.headers['content-type']).toBe('application/json');
    expect(pods.body).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
    expect(pods.body.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'p1', managedFields: expect.any(Array) } });
    expect(await type('/api/v1/namespaces/a/pods/p1', PROTOBUF_METADATA)).toBe('application/json');
    expect(await type('/api/v1/configmaps')).toBe(PROTOBUF);
    // Protobuf only, with no JSON to fall back to: nothing acceptable.
    const only = await call(s, '/api/v1/pods', {
      accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect(only.status).toBe(406);
    expect(only.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });

    s.faults.clear();
    s.faults.jsonOnly({ group: '', resource: 'pods', namespace: 'a' });
    expect(await type('/api/v1/namespaces/a/pods')).toBe('application/json');
    expect(await type('/api/v1/namespaces/b/pods')).toBe(PROTOBUF);

    s.faults.clear();
    s.faults.jsonOnly();
    for (const path of ['/api/v1/pods', '/api/v1/configmaps', '/apis/apps/v1/deployments', '/api/v1/namespaces/a/pods'])
      expect(await type(path), path).toBe('application/json');
    expect(await type('/api/v1/namespaces/a/configmaps/settings', PROTOBUF_METADATA)).toBe('application/json');
    const all = await call(s, '/api/v1/configmaps', { accept: PROTOBUF_METADATA_LIST });
    expect(all.body).toEqual((await call(s, '/api/v1/configmaps', { accept: METADATA_LIST })).body);

    s.faults.clear();
    expect(await type('/api/v1/pods')).toBe(PROTOBUF);
    expect(await type('/api/v1/configmaps')).toBe(PROTOBUF);
  });

  it('watches stay JSON: a protobuf-first Accept streams newline-delimited JSON events; protobuf only is 406', async () => {
    const s = await start();
    seed(s);
    const rv = s.resourceVersion();
    const w = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`, { accept: PROTOBUF_METADATA });
    expect(w.status).toBe(200);
    expect(w.contentType).toBe('application/json');
    s.add(pod('a', 'p4'));
    await w.until((x) => x.events.length >= 1, 'the ADDED event');
    expect(w.events[0]).toMatchObject({
      type: 'ADDED',
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'p4' } },
    });
    expect(s.requests.at(-1)).toMatchObject({ verb: 'watch', accept: PROTOBUF_METADATA, status: 200 });
    w.close();
    const only = await call(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`, {
      accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
    });
    expect(only.status).toBe(406);
    expect(only.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable' });
  });

  it('a protobuf Accept for a full object, or a Table, is 406 Not Acceptable (JSON after it is taken)', async () => {
    const s = await start();
    seed(s);
    for (const [path, accept] of [
      ['/api/v1/namespaces/a/pods/p1', PROTOBUF],
      ['/api/v1/namespaces/a/pods', PROTOBUF],
      ['/api/v1/namespaces/a/pods/p1', 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1'],
    ]) {
      const r = await call(s, path, { accept });
      expect(r.status, `${path} ${accept}`).toBe(406);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body).toMatchObject({
        kind: 'Status',
        reason: 'NotAcceptable',
        code: 406,
        message: 'only the following media types are accepted: application/json',
      });
    }
    const fallback = await call(s, '/api/v1/namespaces/a/pods/p1', { accept: `${PROTOBUF}, application/json` });
    expect(fallback.status).toBe(200);
    expect(fallback.body).toMatchObject({ kind: 'Pod', apiVersion: 'v1', spec: { nodeName: 'node-1' } });
  });
});

describe('WATCH', () => {
  it('streams ADDED, MODIFIED and DELETED after a resourceVersion, and BOOKMARKs when asked', async () => {
    const s = await start({ token: TOKEN, watchBookmarkIntervalMs: 50 });
    s.add(pod('a', 'old'));
    const rv = (await call(s, '/api/v1/namespaces/a/pods')).body.metadata.resourceVersion;
    s.add(pod('a', 'p1')); // after the list: replayed
    const w = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`);
    expect(w.status).toBe(200);
    s.add(pod('b', 'elsewhere'));
    s.update({ ...pod('a', 'p1'), metadata: { name: 'p1', namespace: 'a', labels: { v: '2' } } });
    s.remove({ apiVersion: 'v1', kind: 'Pod', namespace: 'a', name: 'p1' });
    await w.until((x) => x.typed().length >= 3 && x.events.some((e) => e.type === 'BOOKMARK'), '3 events and a bookmark');
    expect(w.typed()).toEqual(['ADDED p1', 'MODIFIED p1', 'DELETED p1']);
    const rvs = w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(w.events.find((e) => e.type === 'MODIFIED')?.object.metadata.labels).toEqual({ v: '2' });
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK') as Json;
    expect(bookmark.object).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: s.resourceVersion() } });
    w.close();
  });

  it('starts with synthetic ADDED events from resourceVersion 0 or none, serves the legacy /watch/ path and metadata-only events', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    s.add(pod('a', 'p2'));
    const w = await Watch.open(s, '/api/v1/watch/namespaces/a/pods', { accept: METADATA });
    await w.until((x) => x.events.length >= 2, 'the synthetic ADDED events');
    expect(w.typed()).toEqual(['ADDED p1', 'ADDED p2']);
    s.add(pod('a', 'p3'));
    await w.until((x) => x.events.length >= 3, 'a live event');
    expect(w.events[2].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'p3' }),
    });
    expect(s.requests.at(-1)).toMatchObject({ verb: 'watch', resource: 'pods', namespace: 'a' });
    w.close();
    const zero = await Watch.open(s, '/api/v1/pods?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dp2');
    await zero.until((x) => x.events.length >= 1, 'p2');
    expect(zero.typed()).toEqual(['ADDED p2']);
    zero.close();
  });

  it('turns label changes into ADDED / DELETED for a selector, and ends at timeoutSeconds', async () => {
    const s = await start();
    s.add(pod('a', 'p1', { labels: { app: 'x' } }));
    const w = await Watch.open(s, `/api/v1/pods?watch=1&labelSelector=app%3Dy&resourceVersion=${s.resourceVersion()}&timeoutSeconds=1`);
    s.update({ ...pod('a', 'p1'), metadata: { name: 'p1', namespace: 'a', labels: { app: 'y' } } });
    s.update({ ...pod('a', 'p1'), metadata: { name: 'p1', namespace: 'a', labels: { app: 'z' } } });
    await w.until((x) => x.ended, 'the timeout', 3000);
    expect(w.typed()).toEqual(['ADDED p1', 'DELETED p1']);
    expect(w.complete).toBe(true);
  });

  it('answers a too old resourceVersion with one 410 ERROR event after compact(), and a too old continue with HTTP 410', async () => {
    const s = await start();
    for (let i = 0; i < 3; i++) s.add(pod('a', `p${i}`));
    const page1 = (await call(s, '/api/v1/namespaces/a/pods?limit=1')).body;
    const rv = page1.metadata.resourceVersion;
    s.faults.compact();

    const w = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`);
    await w.until((x) => x.ended, 'the end of the stream');
    expect(w.status).toBe(200);
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: expect.stringMatching(/^too old resource version: \d+ \(\d+\)$/),
        reason: 'Expired',
        code: 410,
      },
    });

    const expired = await call(s, `/api/v1/namespaces/a/pods?limit=1&continue=${page1.metadata.continue}`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({
      kind: 'Status',
      reason: 'Expired',
      code: 410,
      message: expect.stringMatching(/^The provided continue parameter is too old/),
    });
    // The Status carries a token that continues inconsistently, from the current state.
    const rest = (await call(s, `/api/v1/namespaces/a/pods?continue=${expired.body.metadata.continue}`)).body;
    expect(rest.items.map((i: Json) => i.metadata.name)).toEqual(['p1', 'p2']);

    // A list made after compact() gives a resourceVersion to watch from again.
    const fresh = (await call(s, '/api/v1/namespaces/a/pods')).body.metadata.resourceVersion;
    const again = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${fresh}`);
    s.add(pod('a', 'p9'));
    await again.until((x) => x.events.length >= 1, 'a live event');
    expect(again.typed()).toEqual(['ADDED p9']);
    again.close();
  });

  it('dropWatches() and dropWatchesAfter() cut connections without a final event', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    const w = await Watch.open(s, `/api/v1/pods?watch=1&resourceVersion=${s.resourceVersion()}`);
    s.add(pod('a', 'p2'));
    await w.until((x) => x.events.length >= 1, 'p2');
    s.faults.dropWatches();
    await w.until((x) => x.ended, 'the drop');
    expect(w.complete).toBe(false);
    expect(w.typed()).toEqual(['ADDED p2']);

    s.faults.dropWatchesAfter(2);
    s.add(pod('a', 'p3'));
    const cut = await Watch.open(s, '/api/v1/pods?watch=1');
    await cut.until((x) => x.ended, 'the drop after 2 events');
    expect(cut.complete).toBe(false);
    expect(cut.typed()).toEqual(['ADDED p1', 'ADDED p2']);
  });

  it('stallWatches(): open watches go silent without closing (no events, bookmarks or timeout end); later ones are normal', async () => {
    const s = await start({ token: TOKEN, watchBookmarkIntervalMs: 50 });
    const w = await Watch.open(s, `/api/v1/pods?watch=1&resourceVersion=${s.resourceVersion()}&allowWatchBookmarks=true&timeoutSeconds=1`);
    s.add({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'a' } }); // a bookmark needs a newer resourceVersion
    await w.until((x) => x.events.some((e) => e.type === 'BOOKMARK'), 'a bookmark');
    s.faults.stallWatches();
    const seen = w.events.length;
    s.add(pod('a', 'p1'));
    await new Promise((r) => setTimeout(r, 1300)); // past its timeoutSeconds and many bookmark periods
    expect(w.events.length).toBe(seen);
    expect(w.ended).toBe(false);
    const fresh = await Watch.open(s, '/api/v1/pods?watch=1&timeoutSeconds=1');
    await fresh.until((x) => x.ended, "the fresh watch's timeout", 3000);
    expect(fresh.typed()).toEqual(['ADDED p1']);
    w.close();
  });

  it("bookmarks carry a resourceVersion newer than the watch's start, or none is sent (as the apiserver's watch cache)", async () => {
    const s = await start({ token: TOKEN, watchBookmarkIntervalMs: 20 });
    const w = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${s.resourceVersion()}&allowWatchBookmarks=true`);
    const quiet = await Watch.open(s, '/api/v1/namespaces/b/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=1');
    await quiet.until((x) => x.ended, "the quiet watch's timeout", 3000);
    expect(quiet.events).toEqual([]);
    const start_ = Number(s.resourceVersion());
    s.add({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere', namespace: 'b' } });
    await w.until((x) => x.events.length > 0, 'a bookmark');
    expect(w.events[0]).toMatchObject({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(start_ + 1) } } });
    w.close();
  });

  it('close() ends open watches and leaves no timer behind', async () => {
    const timers = trackTimers();
    try {
      const s = await start({ token: TOKEN, watchBookmarkIntervalMs: 20 });
      s.faults.delay(10_000, { group: '', resource: 'configmaps' });
      const w = await Watch.open(s, '/api/v1/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=600');
      s.add({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'a' } }); // a bookmark needs a newer resourceVersion
      const pending = send(s, '/api/v1/configmaps').then(
        () => 'answered',
        () => 'cut',
      );
      await w.until(() => s.requests.length === 2 && w.events.length > 0, 'the delayed request and a bookmark');
      expect(timers.live.size).toBe(3); // the bookmark interval, the watch's timeoutSeconds, the delay
      await s.close();
      await w.until((x) => x.ended, 'the end');
      expect(w.complete).toBe(true);
      expect(await pending).toBe('cut');
      expect(timers.live.size).toBe(0);
    } finally {
      timers.restore();
    }
  });
});

/** Follows the timers created through the globals (as the server's are) until restore(). */
function trackTimers() {
  const live = new Set<unknown>();
  const real = { setTimeout, setInterval, clearTimeout, clearInterval };
  const g = globalThis as Record<string, unknown>;
  g.setTimeout = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = real.setTimeout(
      (...a: unknown[]) => {
        live.delete(handle);
        fn(...a);
      },
      ms,
      ...args,
    );
    live.add(handle);
    return handle;
  };
  g.setInterval = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = real.setInterval(fn, ms, ...args);
    live.add(handle);
    return handle;
  };
  g.clearTimeout = g.clearInterval = (handle: NodeJS.Timeout | undefined) => {
    live.delete(handle);
    real.clearTimeout(handle);
  };
  return {
    live,
    restore: () => Object.assign(globalThis, real),
  };
}

describe('faults', () => {
  it("forbid: 403 with the apiserver's message, in one namespace or at the cluster scope", async () => {
    const s = await start();
    s.faults.forbid({ group: '', resource: 'pods', namespace: 'x' });
    s.faults.forbid({ group: 'apps', resource: 'deployments' });
    const inX = await call(s, '/api/v1/namespaces/x/pods');
    expect(inX.status).toBe(403);
    expect(inX.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'pods is forbidden: User "test" cannot list resource "pods" in API group "" in the namespace "x"',
    });
    expect((await call(s, '/api/v1/namespaces/x/pods?watch=1')).body.message).toContain('cannot watch resource "pods"');
    expect((await call(s, '/api/v1/namespaces/y/pods')).status).toBe(200);
    expect((await call(s, '/apis/apps/v1/deployments')).body.message).toBe(
      'deployments.apps is forbidden: User "test" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
    expect((await call(s, '/apis/apps/v1/namespaces/y/deployments/d')).body.message).toContain('cannot get resource "deployments"');
    s.faults.clear();
    expect((await call(s, '/apis/apps/v1/deployments')).status).toBe(200);
  });

  it('fail: the next N list/watch requests answer the status (429 with Retry-After)', async () => {
    const s = await start();
    s.faults.fail({ group: '', resource: 'pods' }, { status: 500, times: 2 });
    s.faults.fail({ group: 'apps', resource: 'deployments' }, { status: 429, times: 1 });
    s.faults.fail({ group: '', resource: 'secrets' }, { status: 503, times: 1 });
    const first = await call(s, '/api/v1/pods');
    expect(first.status).toBe(500);
    expect(first.body).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
    expect((await call(s, '/api/v1/namespaces/a/pods?watch=1')).status).toBe(500);
    expect((await call(s, '/api/v1/pods')).status).toBe(200);
    const limited = await call(s, '/apis/apps/v1/deployments');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 1 } });
    expect((await call(s, '/api/v1/secrets')).body).toMatchObject({ reason: 'ServiceUnavailable', code: 503 });
    expect((await call(s, '/api/v1/secrets')).status).toBe(200);
  });

  it("delay: slows every response, or one resource's; delay(0) clears", async () => {
    const s = await start();
    // A delay is a lower bound on the answer's time; that others are not delayed shows in the order answers arrive
    // (no upper bound on a time: the machine is shared).
    const timed = async (path: string) => {
      const t0 = performance.now();
      await call(s, path);
      return performance.now() - t0;
    };
    const firstOf = async (paths: string[]) => {
      const done: string[] = [];
      await Promise.all(paths.map((p) => call(s, p).then(() => done.push(p))));
      return done[0];
    };
    s.faults.delay(300, { group: '', resource: 'pods' });
    expect(await timed('/api/v1/pods')).toBeGreaterThanOrEqual(290);
    expect(await firstOf(['/api/v1/pods', '/api/v1/configmaps'])).toBe('/api/v1/configmaps');
    s.faults.delay(150);
    expect(await timed('/api')).toBeGreaterThanOrEqual(140);
    s.faults.delay(600, { group: '', resource: 'pods' });
    s.faults.delay(0);
    s.faults.delay(300, { group: '', resource: 'configmaps' });
    expect(await firstOf(['/api/v1/configmaps', '/api/v1/pods'])).toBe('/api/v1/pods'); // pods' 600 ms went with delay(0)
  });
});

describe('requests', () => {
  it('requires the bearer token when one is set (401 Status otherwise)', async () => {
    const s = await start();
    for (const token of [null, 'wrong']) {
      const r = await call(s, '/api/v1/pods', { token });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
    expect((await call(s, '/api/v1/pods')).status).toBe(200);
    expect(s.requests.map((r) => r.status)).toEqual([401, 401, 200]);
  });

  it('counts every verb; writes are refused with 405 MethodNotAllowed', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    await call(s, '/api');
    await call(s, '/apis/apps/v1');
    await call(s, '/api/v1/namespaces/a/pods');
    await call(s, '/api/v1/namespaces/a/pods/p1');
    const created = await call(s, '/api/v1/namespaces/a/pods', { method: 'POST', body: JSON.stringify(pod('a', 'p2')) });
    expect(created.status).toBe(405);
    expect(created.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    await call(s, '/api/v1/namespaces/a/pods/p1', { method: 'PUT', body: '{}' });
    await call(s, '/api/v1/namespaces/a/pods/p1', { method: 'PATCH', body: '{}' });
    await call(s, '/api/v1/namespaces/a/pods/p1', { method: 'DELETE' });
    await call(s, '/api/v1/namespaces/a/pods', { method: 'DELETE' });
    expect(s.countByVerb()).toEqual({ discovery: 2, list: 1, get: 1, create: 1, update: 1, patch: 1, delete: 1, deletecollection: 1 });
    expect(s.writes()).toBe(5);
    expect(s.requests.filter((r) => !['discovery', 'list', 'get'].includes(r.verb)).map((r) => r.status)).toEqual([
      405, 405, 405, 405, 405,
    ]);
    expect(s.objects()).toHaveLength(1);
    expect(s.requests[2]).toEqual({
      method: 'GET',
      path: '/api/v1/namespaces/a/pods',
      query: {},
      accept: '',
      acceptEncoding: '',
      verb: 'list',
      group: '',
      version: 'v1',
      resource: 'pods',
      namespace: 'a',
      status: 200,
      bytes: expect.any(Number),
    });
  });

  it('counts the response bytes, watches included, until resetLog()', async () => {
    const s = await start();
    s.add(pod('a', 'p1'));
    const list = await call(s, '/api/v1/pods?limit=500', { accept: METADATA_LIST });
    expect(s.requests[0]).toMatchObject({ query: { limit: '500' }, accept: METADATA_LIST, bytes: Buffer.byteLength(list.text) });
    const w = await Watch.open(s, '/api/v1/pods?watch=1');
    s.add(pod('a', 'p2'));
    await w.until((x) => x.events.length >= 2, 'two events');
    expect(s.requests[1].bytes).toBe(w.bytes);
    expect(s.bytesSent()).toBe(Buffer.byteLength(list.text) + w.bytes);
    s.resetLog();
    expect(s.requests).toEqual([]);
    expect(s.bytesSent()).toBe(0);
    s.add(pod('a', 'p3'));
    await w.until((x) => x.events.length >= 3, 'a third event');
    expect(s.bytesSent()).toBeGreaterThan(0);
    w.close();
  });

  it('writes kubeconfigs (HTTPS with the CA inline, or plain HTTP with tls: false)', async () => {
    const s = await start();
    const config = parse(s.kubeconfig({ context: 'ctx', namespace: 'shop' })) as Json;
    expect(config.clusters[0].cluster).toEqual({ server: s.url, 'certificate-authority-data': Buffer.from(CA).toString('base64') });
    expect(config.users[0].user).toEqual({ token: TOKEN });
    expect(config.contexts[0]).toEqual({ name: 'ctx', context: { cluster: 'kube-api-test', user: 'test', namespace: 'shop' } });
    expect(config['current-context']).toBe('ctx');
    expect((parse(s.kubeconfig({ user: 'none' })) as Json).users[0].user).toEqual({});
    const dir = mkdtempSync(join(tmpdir(), 'kube-api-'));
    try {
      expect(readFileSync(s.writeKubeconfig(dir), 'utf8')).toBe(s.kubeconfig());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await s.close();

    const plain = await start({ tls: false });
    expect(plain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((parse(plain.kubeconfig()) as Json).clusters[0].cluster).toEqual({ server: plain.url });
    expect((await call(plain, '/api/v1/pods')).body.kind).toBe('PodList');
  });

  it('takes 100,000 objects through addMany() and pages through them', async () => {
    const s = await start();
    const objs: Json[] = [];
    for (let i = 0; i < 100_000; i++) {
      objs.push({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${String(i).padStart(6, '0')}`, namespace: `ns-${i % 50}` },
        data: { k: 'v' },
      });
    }
    s.addMany(objs);
    let count = 0;
    let ordered = true;
    let last = '';
    let token: string | undefined = '';
    do {
      const page: Json = (await call(s, `/api/v1/configmaps?limit=10000${token ? `&continue=${token}` : ''}`, { accept: METADATA_LIST }))
        .body;
      for (const i of page.items) {
        const key = `${i.metadata.namespace}/${i.metadata.name}`;
        ordered &&= key > last;
        last = key;
        count++;
      }
      token = page.metadata.continue;
    } while (token);
    expect(count).toBe(100_000);
    expect(ordered).toBe(true);
  });
});

describe('ManagedFieldsOptOut (Kubernetes 1.38, alpha): drop=metadata.managedFields in an Accept clause', () => {
  const T = '2026-11-20T08:00:00Z';
  const WIDGET_CRD = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', uid: 'crd-widgets', creationTimestamp: T },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  };
  /** What a real cluster writes in a Pod's managedFields: the client's apply, the ReplicaSet controller, the kubelet's status. */
  const podManagedFields = (owner: string): Json[] => [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'v1',
      time: T,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': {
          'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
          'f:labels': { '.': {}, 'f:app': {} },
        },
        'f:spec': {
          'f:containers': {
            'k:{"name":"c"}': {
              '.': {},
              'f:image': {},
              'f:imagePullPolicy': {},
              'f:name': {},
              'f:resources': {},
              'f:terminationMessagePath': {},
              'f:terminationMessagePolicy': {},
            },
          },
          'f:dnsPolicy': {},
          'f:enableServiceLinks': {},
          'f:restartPolicy': {},
          'f:schedulerName': {},
          'f:securityContext': {},
          'f:terminationGracePeriodSeconds': {},
        },
      },
    },
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time: T,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:ownerReferences': { '.': {}, [`k:{"uid":"${owner}"}`]: {} } } },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time: T,
      fieldsType: 'FieldsV1',
      subresource: 'status',
      fieldsV1: {
        'f:status': {
          'f:conditions': {
            'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} },
          },
          'f:hostIP': {},
          'f:phase': {},
          'f:podIP': {},
          'f:startTime': {},
        },
      },
    },
  ];
  const MANAGERS = ['kubectl-client-side-apply', 'kube-controller-manager', 'kubelet', 'kubectl-create'];
  /** The managers' names: in a served answer (JSON or protobuf) only through managedFields. */
  const hasManagedFields = (bytes: Buffer) => MANAGERS.some((m) => bytes.includes(m));

  /**
   * The same objects, with managedFields or without (everything else given, uids and timestamps included): a server
   * seeded without them, in the same order, serves what the apiserver serves of the other when asked to drop them.
   */
  const objectsOf = (managed: boolean): Json[] => {
    const mf = (fields: Json[]) => (managed ? { managedFields: fields } : {});
    const out: Json[] = [];
    for (const [ns, name] of [
      ['a', 'p1'],
      ['a', 'p2'],
      ['a', 'p3'],
      ['b', 'p1'],
      ['b', 'p2'],
    ]) {
      out.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: ns,
          uid: `pod-${ns}-${name}`,
          creationTimestamp: T,
          labels: { app: 'web' },
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","kind":"Pod"}' },
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: `rs-${ns}`, controller: true, blockOwnerDeletion: true },
          ],
          ...mf(podManagedFields(`rs-${ns}`)),
          ...(name === 'p2'
            ? { deletionTimestamp: '2026-11-20T09:00:00Z', deletionGracePeriodSeconds: 30, finalizers: ['example.com/hold'] }
            : {}),
        },
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] },
        status: { phase: 'Running', podIP: '10.0.0.1' },
      });
    }
    // managedFields first in the metadata: whatever their place, the rest stays as it was.
    out.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { ...mf(podManagedFields('none').slice(0, 1)), name: 'settings', namespace: 'a', uid: 'cm-settings', creationTimestamp: T },
      data: { k: 'v' },
    });
    out.push({
      ...WIDGET_CRD,
      metadata: {
        ...WIDGET_CRD.metadata,
        ...mf([
          {
            manager: 'kubectl-create',
            operation: 'Update',
            apiVersion: 'apiextensions.k8s.io/v1',
            time: T,
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:group': {}, 'f:names': { 'f:kind': {} } } },
          },
        ]),
      },
    });
    out.push({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name: 'w1',
        namespace: 'a',
        uid: 'widget-w1',
        creationTimestamp: T,
        ...mf([
          {
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'example.com/v1',
            time: T,
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { '.': {}, 'f:size': {} } },
          },
        ]),
      },
      spec: { size: 3 },
    });
    return out;
  };
  const seeded = async (managed: boolean, opts: KubeApiServerOptions = { token: TOKEN }) => {
    const s = await startKubeApiServer(opts);
    others.push(s);
    for (const o of objectsOf(managed)) s.add(o);
    return s;
  };
  /** Each of `accept`'s clauses with `;drop=<targets>`. */
  const dropping = (accept: string, targets = 'metadata.managedFields') =>
    accept
      .split(',')
      .map((c) => `${c};drop=${targets}`)
      .join(',');
  const strip = (o: Json): Json => {
    const { managedFields: _managedFields, ...metadata } = o.metadata as Json;
    return { ...o, metadata };
  };

  // Every verb but WATCH, every form: GET and LIST, full, metadata-only (JSON and protobuf), Table; built-in and custom.
  const READS: [string, string][] = [
    ['/api/v1/pods', 'application/json'],
    ['/api/v1/namespaces/a/pods?limit=2', 'application/json'],
    ['/api/v1/pods', METADATA_LIST],
    ['/api/v1/pods', PROTOBUF_METADATA_LIST],
    ['/api/v1/namespaces/b/pods?limit=1', PROTOBUF_METADATA_LIST],
    ['/api/v1/namespaces/a/pods/p2', 'application/json'],
    ['/api/v1/namespaces/a/pods/p2', METADATA],
    ['/api/v1/namespaces/a/pods/p2', PROTOBUF_METADATA],
    ['/api/v1/pods', TABLE],
    ['/api/v1/pods?includeObject=Object', TABLE],
    ['/api/v1/namespaces/a/pods/p1?includeObject=Object', TABLE],
    ['/api/v1/configmaps', 'application/json'],
    ['/api/v1/namespaces/a/configmaps/settings', METADATA],
    ['/apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'application/json'],
    ['/apis/example.com/v1/widgets', 'application/json'],
    ['/apis/example.com/v1/namespaces/a/widgets/w1', PROTOBUF_METADATA],
  ];

  const others: KubeApiServer[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((s) => s.close()));
  });

  it('gate off (the default): the parameter is ignored, every answer byte for byte the one without it, watches included', async () => {
    const s = await seeded(true);
    expect(s.managedFieldsOptOut).toBe(false);
    for (const [path, accept] of READS) {
      const plain = await callBytes(s, path, { accept });
      expect(plain.status, `${path} ${accept}`).toBe(200);
      expect(hasManagedFields(plain.bytes), `${path} ${accept}`).toBe(true);
      const asked = await callBytes(s, path, { accept: dropping(accept) });
      expect(asked.headers['content-type'], `${path} ${accept}`).toBe(plain.headers['content-type']);
      expect(asked.bytes.equals(plain.bytes), `${path} ${accept}`).toBe(true);
    }
    const rv = s.resourceVersion();
    const plain = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`);
    const asked = await Watch.open(s, `/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`, {
      accept: 'application/json;drop=metadata.managedFields',
    });
    const p1 = objectsOf(true)[0];
    s.update({ ...p1, metadata: { ...p1.metadata, labels: { app: 'web', v: '2' } } });
    await asked.until((x) => x.events.length >= 1, 'MODIFIED p1');
    await plain.until((x) => x.events.length >= 1, 'MODIFIED p1');
    expect(asked.typed()).toEqual(['MODIFIED p1']);
    expect(asked.events[0].object.metadata.managedFields).toHaveLength(3);
    expect(asked.events).toEqual(plain.events);
    expect(asked.bytes).toBe(plain.bytes);
    asked.close();
    plain.close();
  });

  it('gate on: GET and LIST in every form answer exactly what a server holding the objects without managedFields answers', async () => {
    const s = await seeded(true);
    const without = await seeded(false);
    const before = await Promise.all(READS.map(([path, accept]) => callBytes(s, path, { accept })));
    s.managedFieldsOptOut = true;
    try {
      for (const [i, [path, accept]] of READS.entries()) {
        const what = `${path} ${accept}`;
        const dropped = await callBytes(s, path, { accept: dropping(accept) });
        const reference = await callBytes(without, path, { accept });
        expect(dropped.status, what).toBe(200);
        expect(dropped.headers['content-type'], what).toBe(reference.headers['content-type']);
        expect(hasManagedFields(dropped.bytes), what).toBe(false);
        expect(dropped.bytes.equals(reference.bytes), what).toBe(true);
        expect(dropped.bytes.length, what).toBeLessThan(before[i].bytes.length);
        expect(s.requests.at(-1), what).toMatchObject({ status: 200, bytes: dropped.bytes.length });
      }

      // Field for field the stored object without managedFields, in every JSON form.
      const stored = s.objects().find((o: Json) => o.metadata.uid === 'pod-a-p2') as Json;
      expect(stored.metadata.managedFields).toHaveLength(3);
      const expected = strip(stored);
      const accept = 'application/json;drop=metadata.managedFields';
      expect((await call(s, '/api/v1/namespaces/a/pods/p2', { accept })).body).toEqual(expected);
      const { apiVersion: _apiVersion, kind: _kind, ...item } = expected;
      expect((await call(s, '/api/v1/namespaces/a/pods', { accept })).body.items[1]).toEqual(item);
      const partial = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expected.metadata };
      expect((await call(s, '/api/v1/namespaces/a/pods/p2', { accept: dropping(METADATA) })).body).toEqual(partial);
      expect((await call(s, '/api/v1/namespaces/a/pods', { accept: dropping(METADATA_LIST) })).body.items[1]).toEqual(partial);
      expect((await call(s, '/api/v1/namespaces/a/pods/p2', { accept: dropping(TABLE) })).body.rows[0].object).toEqual(partial);
      expect((await call(s, '/api/v1/namespaces/a/pods/p2?includeObject=Object', { accept: dropping(TABLE) })).body.rows[0].object).toEqual(
        expected,
      );
      const widget = s.objects().find((o: Json) => o.metadata.uid === 'widget-w1') as Json;
      expect((await call(s, '/apis/example.com/v1/namespaces/a/widgets/w1', { accept })).body).toEqual(strip(widget));

      // Protobuf: what the product's decoder reads of the JSON form, and the encoding of the objects without them.
      const pb = await callBytes(s, '/api/v1/namespaces/a/pods', { accept: dropping(PROTOBUF_METADATA_LIST) });
      expect(pb.headers['content-type']).toBe(PROTOBUF);
      const json = (await call(s, '/api/v1/namespaces/a/pods', { accept: dropping(METADATA_LIST) })).body;
      expect(decodeProtobuf(pb.bytes)).toEqual(json);
      const storedInA = s.objects().filter((o: Json) => o.kind === 'Pod' && o.metadata.namespace === 'a');
      expect(
        pb.bytes.equals(
          metadataListProtobuf(
            'v1',
            { resourceVersion: s.resourceVersion() },
            storedInA.map((o) => partialObjectMetadataBytes(strip(o))),
          ),
        ),
      ).toBe(true);
      expect(
        pb.bytes.equals(
          metadataListProtobuf(
            'v1',
            { resourceVersion: s.resourceVersion() },
            storedInA.map((o) => partialObjectMetadataBytes(o)),
          ),
        ),
      ).toBe(false);

      // Stored as they were: asked without the parameter (gate on or not), every answer is the one from before.
      expect(s.objects().filter((o: Json) => o.kind !== 'Pod' || o.metadata.managedFields?.length === 3)).toHaveLength(s.objects().length);
      for (const [i, [path, accept]] of READS.entries()) {
        expect((await callBytes(s, path, { accept })).bytes.equals(before[i].bytes), `${path} ${accept}`).toBe(true);
      }
    } finally {
      s.managedFieldsOptOut = false;
    }
    // The gate turned off again: the parameter is ignored again.
    for (const [i, [path, accept]] of READS.entries()) {
      expect((await callBytes(s, path, { accept: dropping(accept) })).bytes.equals(before[i].bytes), `${path} ${accept}`).toBe(true);
    }
  });

  it('gate on: watch events (replayed, synthetic and live ADDED / MODIFIED / DELETED) in every form leave managedFields out', async () => {
    const s = await seeded(true, { token: TOKEN, managedFieldsOptOut: true });
    const without = await seeded(false);
    expect(s.managedFieldsOptOut).toBe(true);
    const rv = s.resourceVersion();
    expect(without.resourceVersion()).toBe(rv);
    const WATCHES: [string, string][] = [
      [`/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`, 'application/json'],
      [`/api/v1/pods?watch=1&resourceVersion=${rv}`, METADATA],
      // The metadata-only watch the product opens: protobuf first, served in JSON.
      [`/api/v1/pods?watch=1&resourceVersion=${rv}`, PROTOBUF_METADATA],
      [`/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}&includeObject=Object`, TABLE],
      [`/api/v1/namespaces/a/pods?watch=1&resourceVersion=${rv}`, TABLE],
      // Leaving the selector is a DELETED event of the object as it was.
      [`/api/v1/pods?watch=1&resourceVersion=${rv}&labelSelector=app%3Dweb`, 'application/json'],
      // From "any" resourceVersion: synthetic ADDED events of what is stored, then the changes.
      ['/api/v1/namespaces/b/pods?watch=1', 'application/json'],
      [`/apis/example.com/v1/widgets?watch=1&resourceVersion=${rv}`, 'application/json'],
    ];
    const dropped = await Promise.all(WATCHES.map(([path, accept]) => Watch.open(s, path, { accept: dropping(accept) })));
    const kept = await Promise.all(WATCHES.map(([path, accept]) => Watch.open(s, path, { accept })));
    const reference = await Promise.all(WATCHES.map(([path, accept]) => Watch.open(without, path, { accept })));
    try {
      // The same changes to both servers, each with managedFields where the objects have them.
      for (const [server, managed] of [
        [s, true],
        [without, false],
      ] as const) {
        const [p1, p2, p3, bp1] = objectsOf(managed);
        const mf = managed
          ? {
              managedFields: [
                ...(p1.metadata.managedFields as Json[]),
                {
                  manager: 'kubectl-label',
                  operation: 'Update',
                  apiVersion: 'v1',
                  time: T,
                  fieldsType: 'FieldsV1',
                  fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } },
                },
              ],
            }
          : {};
        server.update({ ...p1, metadata: { ...p1.metadata, labels: { app: 'web', tier: 'front' }, ...mf } });
        server.update({ ...bp1, metadata: { ...bp1.metadata, labels: { app: 'other' } } });
        server.add({ ...p3, metadata: { ...p3.metadata, name: 'p4', uid: 'pod-a-p4' } });
        server.remove({ apiVersion: 'v1', kind: 'Pod', namespace: 'a', name: p2.metadata.name });
        const widget = objectsOf(managed).find((o) => o.kind === 'Widget') as Json;
        server.update({ ...widget, spec: { size: 4 } });
      }
      const counts = [3, 4, 4, 3, 3, 4, 3, 1]; // events per watch
      for (const [i, [path, accept]] of WATCHES.entries()) {
        for (const w of [dropped[i], kept[i], reference[i]])
          await w.until((x) => x.events.length >= counts[i], `${counts[i]} events of ${path} ${accept}`);
      }
      expect(dropped[0].typed()).toEqual(['MODIFIED p1', 'ADDED p4', 'DELETED p2']);
      expect(dropped[5].typed()).toEqual(['MODIFIED p1', 'DELETED p1', 'ADDED p4', 'DELETED p2']);
      expect(dropped[5].events[1].object.metadata).toMatchObject({ namespace: 'b', labels: { app: 'web' } }); // as it was
      expect(dropped[6].typed()).toEqual(['ADDED p1', 'ADDED p2', 'MODIFIED p1']);
      for (const [i, [path, accept]] of WATCHES.entries()) {
        const what = `${path} ${accept}`;
        expect(dropped[i].events, what).toEqual(reference[i].events);
        expect(dropped[i].bytes, what).toBe(reference[i].bytes);
        expect(JSON.stringify(dropped[i].events), what).not.toContain('managedFields');
        // A watch of the same resource that did not ask: its managedFields, at the same time.
        expect(JSON.stringify(kept[i].events), what).toContain('"managedFields"');
        expect(kept[i].events.length, what).toBe(dropped[i].events.length);
        expect(kept[i].bytes, what).toBeGreaterThan(dropped[i].bytes);
      }
      const modified = dropped[0].events[0].object;
      const stored = s.objects().find((o: Json) => o.metadata.uid === 'pod-a-p1') as Json;
      expect(stored.metadata.managedFields).toHaveLength(4);
      expect(modified).toEqual(strip(stored));
      expect(kept[0].events[0].object).toEqual(stored);
    } finally {
      for (const w of [...dropped, ...kept, ...reference]) w.close();
    }
  });

  it('only the chosen clause\'s drop counts; drop takes "+"-separated targets and ignores those it does not know', async () => {
    const s = await seeded(true, { token: TOKEN, managedFieldsOptOut: true });
    const without = await seeded(false);
    const path = '/api/v1/namespaces/a/pods';
    const bytesOf = async (server: KubeApiServer, accept: string) => (await callBytes(server, path, { accept })).bytes;
    const full = await bytesOf(s, 'application/json');
    const fullDropped = await bytesOf(without, 'application/json');
    const meta = await bytesOf(s, METADATA_LIST);
    const metaDropped = await bytesOf(without, METADATA_LIST);
    const pb = await bytesOf(s, PROTOBUF_METADATA_LIST);
    const pbDropped = await bytesOf(without, PROTOBUF_METADATA_LIST);
    expect(hasManagedFields(full) && hasManagedFields(meta) && hasManagedFields(pb)).toBe(true);
    const same = async (accept: string, expected: Buffer) => expect((await bytesOf(s, accept)).equals(expected), accept).toBe(true);

    // Targets: known ones among unknown ones drop; unknown ones alone, an empty list or a near miss do not.
    await same('application/json;drop=example.com/future+metadata.managedFields', fullDropped);
    await same('application/json;drop=metadata.managedFields+example.com/future', fullDropped);
    await same('application/json;drop=metadata.annotations+metadata.managedFields+metadata.labels', fullDropped);
    await same('application/json;drop=example.com/future', full);
    await same('application/json;drop=metadata.annotations', full);
    await same('application/json;drop=', full);
    await same('application/json;drop=metadata', full);
    await same('application/json;drop=metadata.managedFieldsAndMore', full);
    await same('application/json;drop=managedFields', full);
    // Its place among the other parameters does not matter.
    await same('application/json;drop=metadata.managedFields;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', metaDropped);

    // The clause the server answers in decides; the others' parameters are not looked at.
    const METADATA_CLAUSE = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
    await same(`${METADATA_CLAUSE},application/json;drop=metadata.managedFields`, meta);
    await same(`${METADATA_CLAUSE};drop=metadata.managedFields,application/json`, metaDropped);
    await same(
      `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1;drop=metadata.managedFields,${METADATA_CLAUSE}`,
      pbDropped,
    );
    await same(
      `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${METADATA_CLAUSE};drop=metadata.managedFields`,
      pb,
    );
    // A server that does not speak protobuf for this resource answers in the JSON clause, with its own parameters.
    s.faults.jsonOnly({ group: '', resource: 'pods' });
    without.faults.jsonOnly({ group: '', resource: 'pods' });
    await same(
      `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1;drop=metadata.managedFields,${METADATA_CLAUSE}`,
      meta,
    );
    await same(
      `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,${METADATA_CLAUSE};drop=metadata.managedFields`,
      metaDropped,
    );
    await same(dropping(PROTOBUF_METADATA_LIST), metaDropped);
    s.faults.clear();

    // Requests that asked and requests that did not, one after the other and at once: each gets its own answer.
    const mixed = await Promise.all(
      [
        'application/json',
        dropping('application/json'),
        METADATA_LIST,
        dropping(METADATA_LIST),
        'application/json',
        dropping(METADATA_LIST),
      ].map((accept) => bytesOf(s, accept)),
    );
    expect(
      mixed.map((b) =>
        b.equals(full)
          ? 'full'
          : b.equals(fullDropped)
            ? 'full dropped'
            : b.equals(meta)
              ? 'metadata'
              : b.equals(metaDropped)
                ? 'metadata dropped'
                : 'other',
      ),
    ).toEqual(['full', 'full dropped', 'metadata', 'metadata dropped', 'full', 'metadata dropped']);
  });
});

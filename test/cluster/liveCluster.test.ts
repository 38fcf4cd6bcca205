// The live cluster source end to end through the real @kubernetes/client-node stack (kubeconfig, TLS, token)
// against the Kubernetes API test server: list, watch, faults, partial access, and never a write.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveCluster, type LiveClusterOptions } from '../../server/src/sources/cluster/liveCluster';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { ACCEPT_OBJECTS } from '../../server/src/sources/cluster/apiClient';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { namespacesNeedingPodSpecs } from '../../server/src/engine/simulation/podSpecScope';
import { terminatingItems } from '../../server/src/app/stuck';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { seedShop, ns, replicaSet, pod, configMap, pvc, terminatingNs, STUCK_NAMESPACE_CONDITIONS } from './clusterFixtures';

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
  for (const o of server
    .objects()
    .sort((a, b) => Number(a.kind === 'CustomResourceDefinition') - Number(b.kind === 'CustomResourceDefinition'))) {
    const m = o.metadata as { namespace?: string; name: string };
    server.remove({ apiVersion: o.apiVersion as string, kind: o.kind as string, namespace: m.namespace, name: m.name });
  }
  server.resetLog();
});

function connect(extra: Partial<LiveClusterOptions> = {}): LiveCluster {
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const live = new LiveCluster({
    target,
    rediscoverMs: 0,
    reflector: { backoffMs: { initial: 20, max: 200 }, forbiddenRetryMs: 60_000 },
    ...extra,
  });
  open.push(live);
  return live;
}

/** What the server stores that the GC would watch, as uid → ownerReference uids. */
function serverGraph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Custom resources before their CustomResourceDefinitions.
  for (const o of server
    .objects()
    .sort((a, b) => Number(a.kind === 'CustomResourceDefinition') - Number(b.kind === 'CustomResourceDefinition'))) {
    if (o.kind === 'Event') continue;
    const m = o.metadata as { uid: string; ownerReferences?: { uid: string }[] };
    out.set(
      m.uid,
      (m.ownerReferences ?? []).map((r) => r.uid),
    );
  }
  return out;
}

function liveGraph(live: LiveCluster): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of live.inventory.objects.values())
    out.set(
      o.uid,
      o.ownerReferences.map((r) => r.uid),
    );
  return out;
}

async function until(what: string, cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('LiveCluster against the API test server', () => {
  it("lists every deletable resource metadata-only and holds exactly the server's graph", async () => {
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
    expect(server.writes()).toBe(0);
  });

  it('follows watch events: added, modified, deleted', async () => {
    seedShop(server);
    const live = connect();
    await live.start();
    server.add(configMap('shop', 'late', 'cm-late'));
    await until('the new ConfigMap', () => live.inventory.objects.has('cm-late'));
    server.update(
      pod('shop', 'web-1', 'p-web-1', {
        owner: replicaSet('shop', 'web-rs', 'rs-web'),
        deletionTimestamp: '2026-11-21T10:00:00Z',
        finalizers: ['example.com/hold'],
      }),
    );
    await until('the Pod terminating', () => live.inventory.objects.get('p-web-1')?.deletionTimestamp !== undefined);
    server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'late' });
    await until('the ConfigMap gone', () => !live.inventory.objects.has('cm-late'));
    expect(liveGraph(live)).toEqual(serverGraph());
    expect(server.writes()).toBe(0);
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
    await until('the relist after 410', () => live.inventory.objects.has('cm-after') && !live.inventory.objects.has('cm-settings')).catch(
      (e) => {
        throw new Error(
          `${e.message}; requests: ${server.requests
            .filter((r) => r.resource === 'configmaps')
            .map((r) => `${r.verb} ${r.status} ${JSON.stringify(r.query)}`)
            .join(' | ')}`,
        );
      },
    );
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
    server.add({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name: 'w',
        namespace: 'shop',
        uid: 'w-1',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-web' }],
      },
    });
    await until('the Widget', () => live.inventory.objects.has('w-1'), 8000);
    expect(live.inventory.graph.get('d-web')?.dependents.size).toBe(2);
  });

  it('custom resources: a CRD event makes it rediscover at once (no period), and a deleted CRD takes its objects along', async () => {
    seedShop(server);
    const live = connect({ rediscoverMs: 0 });
    await live.start();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com', uid: 'crd-gadgets' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    };
    server.add(crd);
    server.add({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'shop', uid: 'g-1' } });
    await until('the Gadget', () => live.inventory.objects.has('g-1'), 8000);
    server.remove({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'gadgets.example.com' });
    await until('the Gadget gone with its CRD', () => !live.inventory.objects.has('g-1'), 8000);
    expect(server.writes()).toBe(0);
  });

  it('simulating a namespace deletion on the live graph', async () => {
    seedShop(server);
    server.resetLog();
    const live = connect({ watch: false });
    await live.start();
    const r = simulate(live.inventory, [{ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop', propagationPolicy: null }], {
      controllers: 'builtin',
    });
    expect(r.deleted.map((d) => d.uid)).toEqual(expect.arrayContaining(['d-web', 'rs-web', 'p-web-1', 'cm-settings', 'ns-shop']));
    expect(r.stuck).toEqual([]);
    expect(server.writes()).toBe(0);
    expect(Object.keys(server.countByVerb()).sort()).toEqual(expect.arrayContaining(['list']));
  });

  it('a terminating Namespace: its status conditions are facts of the live object, and its stuck item shows those that hold', async () => {
    server.add(terminatingNs('legacy', 'ns-legacy', STUCK_NAMESPACE_CONDITIONS));
    server.add(
      pod('legacy', 'held', 'p-legacy-held', { deletionTimestamp: '2026-11-20T09:00:00Z', finalizers: ['storage.acme.io/protect'] }),
    );
    const live = connect();
    await live.start();
    // Listed in full: a real apiserver's list items carry no kind, and the spec and status are read all the same.
    expect(live.inventory.objects.get('ns-legacy')?.facts).toMatchObject({
      namespaceFinalizers: ['kubernetes'],
      phase: 'Terminating',
      namespaceConditions: STUCK_NAMESPACE_CONDITIONS,
    });
    const builtin = { controllers: 'builtin' as const, finalizerOwners: [] };
    const item = () => terminatingItems(live.inventory, builtin, Date.now(), 600).find((i) => i.uid === 'ns-legacy');
    expect(item()).toMatchObject({ state: 'stuck' });
    expect(item()!.namespaceConditions?.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(item()!.blockedBy[0]).toMatchObject({ type: 'namespace-content', conditions: item()!.namespaceConditions });
    // The namespace controller's next pass: discovery works again. A watch event brings the new conditions.
    const healed = STUCK_NAMESPACE_CONDITIONS.map((c) =>
      c.type === 'NamespaceDeletionDiscoveryFailure'
        ? { ...c, status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' }
        : c,
    );
    server.update(terminatingNs('legacy', 'ns-legacy', healed));
    await until('the healed conditions', () => item()?.namespaceConditions?.length === 2);
    expect(item()!.namespaceConditions!.map((c) => c.type)).toEqual(['NamespaceContentRemaining', 'NamespaceFinalizersRemaining']);
    expect(server.writes()).toBe(0);
  });

  it('Pods read in full where a terminating claim needs them (pvc-protection sees who mounts it): at the first sync and when a new Pod appears, not on every event', async () => {
    server.add(ns('data', 'ns-data'));
    server.add(pvc('data', 'db-data', 'pvc-db-data', { deletionTimestamp: '2026-11-20T09:00:00Z' }));
    server.add(pod('data', 'db-0', 'p-db-0', { claims: ['db-data'] }));
    seedShop(server);
    server.resetLog();
    const live = connect();
    await live.start();
    const builtin = { controllers: 'builtin' as const };
    const stuckClaim = () => simulate(live.inventory, [], builtin).stuck.find((e) => e.uid === 'pvc-db-data');
    // The claim is terminating: before the watches start, one full LIST of the Pods in data (shop holds no claim).
    expect(server.requests.filter((r) => r.resource === 'pods' && r.accept === ACCEPT_OBJECTS).map((r) => `${r.verb} ${r.path}`)).toEqual([
      'list /api/v1/namespaces/data/pods',
    ]);
    expect(live.inventory.objects.get('p-db-0')?.facts).toEqual({
      nodeName: 'node-1',
      terminationGracePeriodSeconds: 30,
      claimNames: ['db-data'],
      images: ['example/web:1'],
      phase: 'Running',
    });
    expect(live.inventory.objects.get('p-web-1')?.facts.specUnread).toBe(true);
    expect(namespacesNeedingPodSpecs(live.inventory, [])).toEqual([]);
    expect(stuckClaim()?.blockedBy[0]).toMatchObject({
      type: 'finalizer',
      finalizer: 'kubernetes.io/pvc-protection',
      message: 'still mounted by Pod data/db-0',
    });

    // A change reaches the metadata-only watch: the volumes and node stay known (no read for it), phase and images
    // are unknown again; the claim is still held.
    const fullReads = () => server.requests.filter((r) => r.resource === 'pods' && r.accept === ACCEPT_OBJECTS).length;
    server.update(pod('data', 'db-0', 'p-db-0', { claims: ['db-data'], labels: { tier: 'db' } }));
    await until('the relabelled Pod', () => live.inventory.objects.get('p-db-0')?.labels?.tier === 'db');
    expect(live.inventory.objects.get('p-db-0')?.facts).toEqual({
      specUnread: true,
      claimNames: ['db-data'],
      terminationGracePeriodSeconds: 30,
      nodeName: 'node-1',
    });
    expect(stuckClaim()?.blockedBy[0]).toMatchObject({ message: 'still mounted by Pod data/db-0' });
    // A new Pod there: the Pods of data are read again (this is the second read: none was made for the relabel).
    server.add(pod('data', 'db-1', 'p-db-1', { claims: ['db-data'] }));
    await until('the new Pod read in full', () => live.inventory.objects.get('p-db-1')?.facts.phase === 'Running');
    expect(fullReads()).toBe(2);
    expect(live.inventory.objects.get('p-db-0')?.facts.phase).toBe('Running');
    // Gone from the server: gone from the graph.
    server.remove({ apiVersion: 'v1', kind: 'Pod', namespace: 'data', name: 'db-0' });
    await until('db-0 gone', () => !live.inventory.objects.has('p-db-0'));
    expect(stuckClaim()?.blockedBy[0]).toMatchObject({ message: 'still mounted by Pod data/db-1' });
    expect(liveGraph(live)).toEqual(serverGraph());
    expect(server.writes()).toBe(0);
  });

  it("a one-shot reading (the CLI's) reads no Pod in full by itself: it asks (readPodSpecs)", async () => {
    server.add(ns('data', 'ns-data'));
    server.add(pvc('data', 'db-data', 'pvc-db-data', { deletionTimestamp: '2026-11-20T09:00:00Z' }));
    server.add(pod('data', 'db-0', 'p-db-0', { claims: ['db-data'] }));
    server.resetLog();
    const live = connect({ watch: false });
    await live.start();
    expect(live.inventory.objects.get('p-db-0')?.facts).toEqual({ specUnread: true });
    expect(server.requests.filter((r) => r.resource === 'pods' && r.accept === ACCEPT_OBJECTS)).toEqual([]);
    expect(await live.readPodSpecs(namespacesNeedingPodSpecs(live.inventory, []))).toEqual([]);
    expect(live.inventory.objects.get('p-db-0')?.facts.claimNames).toEqual(['db-data']);
  });

  it('Pods that may not be read in full: an incomplete-preview sentence, and the rest still read', async () => {
    for (const n of ['data', 'vault']) {
      server.add(ns(n, `ns-${n}`));
      server.add(pvc(n, 'data', `pvc-${n}`));
      server.add(pod(n, 'app', `p-${n}`, { claims: ['data'] }));
    }
    const live = connect();
    await live.start();
    server.faults.forbid({ group: '', resource: 'pods', namespace: 'vault' });
    const notes = await live.readPodSpecs(['data', 'vault']);
    expect(notes).toEqual([
      expect.stringMatching(
        /^this preview is incomplete: cannot read the Pods in vault in full \(pods is forbidden: .*\), so which PersistentVolumeClaims its Pods mount \(and their nodes and phases\) is unknown$/,
      ),
    ]);
    expect(live.inventory.objects.get('p-data')?.facts.claimNames).toEqual(['data']);
    expect(live.inventory.objects.get('p-vault')?.facts).toEqual({ specUnread: true });
  });

  it('a watch that goes silent without closing is cut after its timeout and resumed from where it was: nothing lost', async () => {
    seedShop(server);
    const live = connect({ reflector: { backoffMs: { initial: 20, max: 200 }, watchTimeoutSeconds: 1, watchIdleMarginMs: 300 } });
    await live.start();
    const count = (verb: string) => server.requests.filter((r) => r.verb === verb && r.resource === 'configmaps').length;
    const lists = count('list');
    await until('the first watches', () => count('watch') > 0);
    // Every open watch now looks alive to the socket but says nothing: no events, no bookmarks, no end.
    server.faults.stallWatches();
    const stalled = count('watch');
    server.add(configMap('shop', 'during-stall', 'cm-stall'));
    await until('the ConfigMap made while the watch was silent', () => live.inventory.objects.has('cm-stall'), 5000);
    expect(count('watch')).toBeGreaterThan(stalled);
    expect(count('list')).toBe(lists); // resumed from its resourceVersion, not relisted
    const resumed = server.requests.filter((r) => r.verb === 'watch' && r.resource === 'configmaps').slice(stalled);
    expect(resumed[0].query.resourceVersion).toMatch(/^\d+$/);
    expect(live.status().state).toBe('watching');
    expect(liveGraph(live)).toEqual(serverGraph());
  });

  it('a watch whose request is never answered is cut the same way', async () => {
    seedShop(server);
    const live = connect({ reflector: { backoffMs: { initial: 20, max: 200 }, watchTimeoutSeconds: 1, watchIdleMarginMs: 300 } });
    await live.start();
    const watches = () => server.requests.filter((r) => r.verb === 'watch' && r.resource === 'configmaps').length;
    // The next watch requests get no answer for 10 s (the connections stay open), then the fault is lifted.
    server.faults.delay(10_000, { group: '', resource: 'configmaps' });
    server.faults.dropWatches();
    const before = watches();
    await until('a second unanswered watch, after the first was cut', () => watches() >= before + 2, 5000);
    server.faults.delay(0);
    server.add(configMap('shop', 'after-silence', 'cm-after-silence'));
    await until('the ConfigMap', () => live.inventory.objects.has('cm-after-silence'), 5000);
    expect(liveGraph(live)).toEqual(serverGraph());
  });

  it('periodic rediscovery registers only the kinds that changed', async () => {
    seedShop(server);
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
    const live = connect({ rediscoverMs: 50 });
    await live.start();
    const discoveries = () => server.requests.filter((r) => r.verb === 'discovery' && r.path === '/apis').length;
    const revision = live.inventory.kinds.revision;
    const before = discoveries();
    await until('three more discoveries', () => discoveries() >= before + 3);
    expect(live.inventory.kinds.revision).toBe(revision);
  });

  it('the initial sync: one change notification once every first LIST is over, then the watches start, each from its LIST: nothing made meanwhile is lost', async () => {
    seedShop(server);
    // ConfigMaps are listed last (slowly): Pods are listed long before, and a Pod is added in between.
    server.faults.delay(400, { group: '', resource: 'configmaps' });
    let changes = 0;
    const live = connect({ onChange: () => changes++ });
    const started = live.start();
    await until('the Pods listed', () => server.requests.some((r) => r.verb === 'list' && r.resource === 'pods' && r.status === 200));
    server.add(pod('shop', 'web-2', 'p-web-2', { owner: replicaSet('shop', 'web-rs', 'rs-web') }));
    expect(changes).toBe(0); // nothing is told while the sync lasts
    expect(server.requests.some((r) => r.verb === 'watch')).toBe(false);
    await started;
    expect(changes).toBe(1);
    server.faults.delay(0);
    await until('the watches', () => server.requests.some((r) => r.verb === 'watch'));
    const firstWatch = server.requests.findIndex((r) => r.verb === 'watch');
    const lastList = server.requests.map((r) => r.verb).lastIndexOf('list');
    expect(firstWatch).toBeGreaterThan(lastList);
    await until('the Pod added during the initial sync', () => live.inventory.objects.has('p-web-2'));
    const podWatch = server.requests.find((r) => r.verb === 'watch' && r.resource === 'pods')!;
    const podList = server.requests.find((r) => r.verb === 'list' && r.resource === 'pods')!;
    expect(Number(podWatch.query.resourceVersion)).toBeLessThan(Number(server.resourceVersion()));
    expect(podList.query.continue).toBeUndefined();
    expect(liveGraph(live)).toEqual(serverGraph());
    expect(server.writes()).toBe(0);
  });

  describe('workloads: listed metadata-only, their images read when a custom finalizer must be attributed', () => {
    const T = '2026-11-20T08:00:00Z';
    // ops-manager shares no word with widgets.example.com by name, only by its image; widgets-web by name only.
    // With the images, the guess is ops-manager (image words "example", "widgets"; the registry host is no evidence);
    // without them, widgets-web.
    const opsManager = (image: string, generation: number, labels: Record<string, string> = {}) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ops-manager', namespace: 'platform', uid: 'd-ops', creationTimestamp: T, generation, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'ops' } },
        template: { metadata: { labels: { app: 'ops' } }, spec: { containers: [{ name: 'manager', image }] } },
      },
    });
    const widgetsWeb = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'widgets-web', namespace: 'shop', uid: 'd-widgets-web', creationTimestamp: T, generation: 3 },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'ww' } },
        template: { metadata: { labels: { app: 'ww' } }, spec: { containers: [{ name: 'web', image: 'docker.io/library/nginx:1.27' }] } },
      },
    };
    const held = (terminating: boolean) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'held',
        namespace: 'widgets',
        uid: 'cm-held',
        creationTimestamp: T,
        finalizers: ['widgets.example.com/cleanup'],
        ...(terminating ? { deletionTimestamp: '2026-11-20T09:00:00Z' } : {}),
      },
      data: { k: 'v' },
    });
    const seed = (terminating: boolean) => {
      seedShop(server);
      server.add(ns('platform', 'ns-platform'));
      server.add(ns('widgets', 'ns-widgets'));
      server.add(opsManager('registry.example.org/example/widgets-operator:2.1', 1));
      server.add(widgetsWeb);
      server.add(held(terminating));
    };
    const builtin = { controllers: 'builtin' as const };
    const assumed = (inv: LiveCluster['inventory'], requests: Parameters<typeof simulate>[1] = []) =>
      simulate(inv, requests, builtin).notes.filter((n) => n.startsWith('Assumed: widgets.example.com/cleanup'));
    /** The same cluster read once with every workload in full (the CLI's one-shot reading): the reference. */
    const reference = async () => {
      const full = connect({ watch: false });
      await full.start();
      return full;
    };
    const deploymentLists = () => server.requests.filter((r) => r.verb === 'list' && r.resource === 'deployments');

    it('a terminating object with a custom finalizer: the workloads are read in full before the sync ends, and the guess is the one full objects give', async () => {
      seed(true);
      const live = connect();
      await live.start();
      expect(deploymentLists().map((r) => `${/PartialObjectMetadata/.test(r.accept) ? 'metadata' : 'full'} ${r.path}`)).toEqual([
        'metadata /apis/apps/v1/deployments',
        'full /apis/apps/v1/deployments',
      ]);
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ images: ['registry.example.org/example/widgets-operator:2.1'] });
      const ref = await reference();
      expect(assumed(live.inventory)[0]).toMatch(
        /^Assumed: widgets\.example\.com\/cleanup is removed by Deployment platform\/ops-manager \(guessed from the words "example", "widgets"/,
      );
      expect(assumed(live.inventory)).toEqual(assumed(ref.inventory));
      const builtinStuck = { controllers: 'builtin' as const, finalizerOwners: [] };
      expect(terminatingItems(live.inventory, builtinStuck, 0)).toEqual(terminatingItems(ref.inventory, builtinStuck, 0));

      // A label change (same generation) keeps the images known: no read.
      server.resetLog();
      server.update(opsManager('registry.example.org/example/widgets-operator:2.1', 1, { tier: 'ops' }));
      await until('the relabelled Deployment', () => live.inventory.objects.get('d-ops')?.labels?.tier === 'ops');
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ images: ['registry.example.org/example/widgets-operator:2.1'] });
      // A new spec (the API bumps the generation): read again, by name, and the guess follows.
      server.update(opsManager('docker.io/library/busybox:1.36', 2, { tier: 'ops' }));
      await until('the new image', () => live.inventory.objects.get('d-ops')?.facts.images?.[0] === 'docker.io/library/busybox:1.36');
      expect(deploymentLists().map((r) => `${r.path}?${new URLSearchParams(r.query)}`)).toEqual([
        '/apis/apps/v1/namespaces/platform/deployments?fieldSelector=metadata.name%3Dops-manager&limit=500',
      ]);
      expect(assumed(live.inventory)[0]).toMatch(/removed by Deployment shop\/widgets-web/);
      expect(assumed(live.inventory)).toEqual(assumed((await reference()).inventory));
      expect(liveGraph(live)).toEqual(serverGraph());
      expect(server.writes()).toBe(0);
    });

    it('nothing terminating: no workload is read in full until a simulation asks (readPodSpecs), then the same guess as full objects', async () => {
      seed(false);
      const live = connect();
      await live.start();
      expect(deploymentLists().every((r) => /PartialObjectMetadata/.test(r.accept))).toBe(true);
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ specUnread: true });
      const target = [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'widgets', name: 'held', propagationPolicy: null }];
      expect(await live.readPodSpecs(namespacesNeedingPodSpecs(live.inventory, target))).toEqual([]);
      expect(
        deploymentLists()
          .filter((r) => !/PartialObjectMetadata/.test(r.accept))
          .map((r) => r.path),
      ).toEqual(['/apis/apps/v1/deployments']);
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ images: ['registry.example.org/example/widgets-operator:2.1'] });
      const ref = await reference();
      expect(assumed(live.inventory, target)[0]).toMatch(/removed by Deployment platform\/ops-manager/);
      expect(assumed(live.inventory, target)).toEqual(assumed(ref.inventory, target));
      // A second simulation reads nothing more.
      const before = server.requests.length;
      await live.readPodSpecs([]);
      expect(server.requests.slice(before).filter((r) => r.verb === 'list')).toEqual([]);
      expect(server.writes()).toBe(0);
    });

    it('workloads that may not be read in full: an incomplete-preview sentence, and the guess made without their images', async () => {
      seed(false);
      const live = connect();
      await live.start();
      await until('the Deployments watched', () =>
        server.requests.some((r) => r.verb === 'watch' && r.resource === 'deployments' && r.status === 200),
      );
      server.faults.fail({ group: 'apps', resource: 'deployments' }, { status: 500, times: 1 });
      // What the simulation is told: its notes are the Pods' (none here) and incompleteNotes(), as LiveSession.simulate does.
      expect(await live.readPodSpecs([])).toEqual([]);
      expect(live.incompleteNotes()).toEqual([
        expect.stringMatching(
          /^this preview is incomplete: reading the deployments\.apps in full fails \(.*\), so which workload runs the controller of a custom finalizer is guessed without their container images$/,
        ),
      ]);
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ specUnread: true });
      // The next simulation tries again, and succeeds.
      expect(await live.readPodSpecs([])).toEqual([]);
      expect(live.incompleteNotes()).toEqual([]);
      expect(live.inventory.objects.get('d-ops')?.facts).toEqual({ images: ['registry.example.org/example/widgets-operator:2.1'] });
    });
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
    writeFileSync(
      path,
      server.kubeconfig().replace(/token: .*/, 'exec: { apiVersion: client.authentication.k8s.io/v1, command: /bin/true }'),
    );
    expect(() => resolveTarget({ kubeconfig: path, allowExec: false })).toThrow(
      /runs only in a trusted workspace|authenticates by running a command/,
    );
    expect(() => resolveTarget({ kubeconfig: path, allowExec: true })).not.toThrow();
  });
});

// A cluster's identity and relisting, against the Kubernetes API test server: the live view knows which cluster it
// watches (the kube-system Namespace's uid, the server's version); another cluster behind the same URL (a loopback
// proxy pointed elsewhere) is listed from scratch; a resourceVersion the server never had ("Too large resource
// version", as kube-apiserver answers it) relists, as client-go's reflector does; so does every watch silent too long.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ApiClient, ApiError } from '../../server/src/sources/cluster/apiClient';
import { discover } from '../../server/src/sources/cluster/discovery';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster, type LiveClusterOptions } from '../../server/src/sources/cluster/liveCluster';
import { Reflector } from '../../server/src/sources/cluster/reflector';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { tooLargeResourceVersion } from '../../testkit/kubeApiServer/formats';
import { until } from '../../testkit/cluster/controlPlane';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';
import { ns } from './clusterFixtures';

const TOKEN = 'identity-token';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const configMap = (namespace: string, name: string, uid: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid, creationTimestamp: '2026-11-20T08:00:00Z' },
});

/** A test server holding kube-system (uid `kubeSystem`), namespace `app` and `count` ConfigMaps there. */
async function cluster(kubeSystem: string, count: number, prefix: string, churn = 0): Promise<KubeApiServer> {
  const s = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 60_000 });
  cleanups.push(() => s.close());
  s.add(ns('kube-system', kubeSystem));
  s.add(ns('app', `${prefix}-ns-app`));
  s.addMany(Array.from({ length: count }, (_, i) => configMap('app', `${prefix}-${i}`, `${prefix}-cm-${i}`)));
  // Writes that move its resourceVersion on (a cluster that has lived longer than the other).
  for (let i = 0; i < churn; i++) s.update({ ...configMap('app', `${prefix}-0`, `${prefix}-cm-0`), data: { n: String(i) } });
  return s;
}

/** A kubeconfig for `server`, through the proxy: the same CA and token reach whichever server is behind it. */
function viaProxy(server: KubeApiServer, proxy: TcpProxy): string {
  const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, server.kubeconfig().replace(server.url, `https://127.0.0.1:${proxy.port}`));
  return file;
}

function connect(kubeconfig: string, extra: Partial<LiveClusterOptions> = {}): LiveCluster {
  const live = new LiveCluster({
    target: resolveTarget({ kubeconfig, allowExec: false }),
    rediscoverMs: 0,
    identityCheckMs: 0,
    reflector: { backoffMs: { initial: 20, max: 200 } },
    ...extra,
  });
  cleanups.push(() => live.stop());
  return live;
}

const uidsOf = (live: LiveCluster) => [...live.inventory.objects.keys()].sort();
const uidsIn = (server: KubeApiServer) =>
  server
    .objects()
    .map((o) => (o.metadata as { uid: string }).uid)
    .sort();
const equal = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

describe("a cluster's identity", () => {
  it('is the kube-system Namespace uid and the server version, in the status', async () => {
    const a = await cluster('ks-a', 3, 'a');
    const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const live = connect(a.writeKubeconfig(dir));
    await live.start();
    expect(live.status().identity).toEqual({ uid: 'ks-a', serverVersion: 'v1.31.0', kubeVersion: '1.31' });
    expect(live.status().relists).toBe(0);
    expect(a.requests.filter((r) => r.path === '/api/v1/namespaces/kube-system' || r.path === '/version').map((r) => r.method)).toEqual([
      'GET',
      'GET',
    ]);
    expect(a.writes()).toBe(0);
  });

  it('is unknown, and says why, where kube-system cannot be read', async () => {
    const a = await cluster('ks-a', 1, 'a');
    a.faults.forbid({ group: '', resource: 'namespaces' });
    const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const live = connect(a.writeKubeconfig(dir));
    await live.start();
    expect(live.status().identity).toMatchObject({
      serverVersion: 'v1.31.0',
      problem: expect.stringMatching(/kube-system failed: .*forbidden/i),
    });
    expect(live.status().identity?.uid).toBeUndefined();
  });
});

describe('relisting from scratch', () => {
  it('another cluster behind the same URL: everything is listed again once, and the view is the new cluster', async () => {
    const a = await cluster('ks-a', 40, 'a', 30);
    const b = await cluster('ks-b', 5, 'b');
    const proxy = await startTcpProxy(a.url);
    cleanups.push(() => proxy.close());
    const live = connect(viaProxy(a, proxy));
    await live.start();
    expect(equal(uidsOf(live), uidsIn(a))).toBe(true);
    // The load balancer moves: the watches are cut, resume against b from a's resourceVersions (which b never had).
    proxy.retarget(b.url);
    await until('the view is the new cluster', () => equal(uidsOf(live), uidsIn(b)));
    const s = live.status();
    expect(s.identity?.uid).toBe('ks-b');
    expect(s.relists).toBe(1);
    expect(s.lastRelist).toMatchObject({
      reason: 'cluster-changed',
      message: "the server now answers as another cluster: the kube-system Namespace's uid was ks-a, it is ks-b",
    });
    // What b creates afterwards arrives through the new watches.
    b.add(configMap('app', 'b-new', 'b-cm-new'));
    await until('the new ConfigMap is watched', () => equal(uidsOf(live), uidsIn(b)));
    expect(live.status().relists).toBe(1);
    expect(a.writes() + b.writes()).toBe(0);
  });

  it('the periodic check finds another cluster even when no watch fails (the uid changed behind an open connection)', async () => {
    const a = await cluster('ks-a', 4, 'a');
    const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const live = connect(a.writeKubeconfig(dir), { identityCheckMs: 100 });
    await live.start();
    // A restore into the same server, with a fresh kube-system (as a new cluster's).
    a.remove({ apiVersion: 'v1', kind: 'Namespace', name: 'kube-system' });
    a.add(ns('kube-system', 'ks-restored'));
    await until('the relist', () => live.status().relists === 1);
    expect(live.status().lastRelist?.reason).toBe('cluster-changed');
    await until('the view is the server', () => equal(uidsOf(live), uidsIn(a)));
  });

  it('"Too large resource version": a watch from a resourceVersion the server never had lists from scratch', async () => {
    // The same kube-system uid (a restore of another cluster's backup, say): only the resourceVersion can tell.
    const a = await cluster('ks-same', 10, 'a', 50);
    const b = await cluster('ks-same', 3, 'b');
    expect(Number(b.resourceVersion())).toBeLessThan(Number(a.resourceVersion()));
    const proxy = await startTcpProxy(a.url);
    cleanups.push(() => proxy.close());
    const live = connect(viaProxy(a, proxy), {
      namespaces: ['app'],
      reflector: { backoffMs: { initial: 20, max: 200 }, watchTimeoutSeconds: 2 },
    });
    await live.start();
    proxy.retarget(b.url);
    await until('the view is the new server', () => equal(uidsOf(live), uidsIn(b)));
    const s = live.status();
    expect(s.lastRelist).toMatchObject({
      reason: 'resource-version-too-large',
      message: expect.stringMatching(/Too large resource version: \d+, current: \d+/),
    });
    expect(s.identity?.uid).toBe('ks-same');
    // The watch from a's resourceVersion was silent (b has nothing newer), and the one-item LIST "not older than" it
    // got kube-apiserver's 504.
    const probes = b.requests.filter((r) => r.query.resourceVersionMatch === 'NotOlderThan');
    expect(probes.length).toBeGreaterThan(0);
    expect(probes[0]).toMatchObject({ status: 504, query: { limit: '1' } });
    expect(b.writes()).toBe(0);
  });

  it('an ERROR event with the ResourceVersionTooLarge cause relists (as etcd3 watchers send it)', async () => {
    const a = await cluster('ks-a', 2, 'a');
    const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const client = new ApiClient(resolveTarget({ kubeconfig: a.writeKubeconfig(dir), allowExec: false }));
    cleanups.push(() => client.close());
    const configmaps = (await discover(client)).resources.find((r) => r.group === '' && r.resource === 'configmaps')!;
    const tooLarge: string[] = [];
    let held: string[] = [];
    const reflector = new Reflector<string>(
      client,
      configmaps,
      'app',
      {
        convert: (item) => (item as { metadata: { uid: string } }).metadata.uid,
        replace: (uids) => (held = uids),
        event: () => undefined,
        state: () => undefined,
        resourceVersionTooLarge: (e) => tooLarge.push(e.message),
      },
      { accept: ACCEPT_METADATA_LIST, watchAccept: ACCEPT_METADATA_WATCH, backoffMs: { initial: 20, max: 200 } },
    );
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    void reflector.start(abort.signal).done;
    await until('watching', () => reflector.state === 'watching' && a.requests.some((r) => r.query.watch === '1'));
    a.faults.rawWatchEvent(
      { group: '', resource: 'configmaps' },
      JSON.stringify({ type: 'ERROR', object: tooLargeResourceVersion(999_999, Number(a.resourceVersion()), 1) }),
    );
    await until('listed again', () => reflector.lists === 2 && reflector.state === 'watching');
    expect(tooLarge).toEqual([expect.stringMatching(/^Timeout: Too large resource version: 999999, current: \d+$/)]);
    expect(reflector.tooLargeRelists).toBe(1);
    expect(held.sort()).toEqual(['a-cm-0', 'a-cm-1']);
  });

  it("ApiError knows the answer as client-go does: the cause, or an older server's 504 message", () => {
    const withCause = new ApiError(504, 'Timeout', 'Timeout: Too large resource version: 5, current: 3', '/x', 1, [
      'ResourceVersionTooLarge',
    ]);
    const older = new ApiError(504, 'Timeout', 'Timeout: Too large resource version: 5, current: 3', '/x');
    const other = new ApiError(504, 'Timeout', 'Timeout: request did not complete within 60s', '/x');
    expect([withCause, older, other].map((e) => e.resourceVersionTooLarge)).toEqual([true, true, false]);
  });

  it('every watch silent past the bound: everything is listed again, and the status says how long', async () => {
    const a = await cluster('ks-a', 2, 'a');
    const dir = mkdtempSync(join(tmpdir(), 'kgl-identity-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const live = connect(a.writeKubeconfig(dir), {
      namespaces: ['app'],
      identityCheckMs: 100,
      silentWatchesRelistMs: 1500,
      // Bookmarks every minute (cluster()), watches of 2 s: nothing at all arrives on a quiet server.
      reflector: { backoffMs: { initial: 20, max: 200 }, watchTimeoutSeconds: 2 },
    });
    await live.start();
    await until('the relist', () => (live.status().relists ?? 0) >= 1, 600);
    expect(live.status().lastRelist).toMatchObject({
      reason: 'watches-silent',
      message: expect.stringMatching(
        /^none of the \d+ watches has received anything, not even a bookmark, for \d+ s \(the bound is 2 s\)$/,
      ),
    });
    expect(equal(uidsOf(live), uidsIn(a))).toBe(true);
  });
});

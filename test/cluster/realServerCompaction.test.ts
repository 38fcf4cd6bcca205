// 410 Gone on the real kube-apiserver (test/controlplane, v1.37.2), after etcd compaction. With its watch cache on,
// 1.37 serves continue tokens and watches from the cache, so compaction changes nothing a client sees; these run with
// `--watch-cache=false`, where the storage layer answers from etcd and an old resourceVersion is gone. The product must
// list again and end with the server's objects: nothing lost, nothing twice. Skipped only where `go` is missing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ApiClient, type WatchEvent } from '../../server/src/sources/cluster/apiClient';
import { discover, type DiscoveredResource } from '../../server/src/sources/cluster/discovery';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import { Reflector } from '../../server/src/sources/cluster/reflector';
import { auditLog, productRequests } from '../helpers/auditLog';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';

type Obj = Record<string, unknown>;
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerCompaction.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-compaction-'));
const audit = auditLog(dir);
const AUDIT_LOG = audit.log;
let plane: ControlPlane;
const clients: ApiClient[] = [];
let configmaps: DiscoveredResource;

const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
const target = () => resolveTarget({ kubeconfig: plane.kubeconfig, allowExec: false });
const newClient = () => {
  const c = new ApiClient(target());
  clients.push(c);
  return c;
};
const configMaps = (namespace: string, names: string[]) =>
  kubectl(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: names.map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } })),
    }),
  );
const uids = (namespace: string) =>
  new Set(kubectl(['get', 'configmaps', '-n', namespace, '-o', 'jsonpath={.items[*].metadata.uid}']).split(' ').filter(Boolean));

/**
 * Compacts etcd at its current revision and waits for it. Two writes first: a watch from resourceVersion R reads from
 * R + 1, so what was current must be at least two revisions older than the compaction to be gone.
 */
async function compact(): Promise<void> {
  for (const n of [1, 2]) kubectl(['create', 'secret', 'generic', `bump-${Date.now()}-${n}`, '-n', 'default']);
  const done = () => plane.logs().split('etcd compacted at revision').length - 1;
  const before = done();
  plane.compact();
  await until('etcd compacted', () => done() > before);
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('410 Gone after compaction, on a real kube-apiserver without its watch cache', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ apiserverArgs: ['--watch-cache=false', ...audit.apiserverArgs] });
    configmaps = (await discover(newClient())).resources.find((r) => r.group === '' && r.resource === 'configmaps')!;
  }, 900_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a continue token older than the compaction: 410 Expired, and the Reflector starts the LIST over (every object, once)', async () => {
    kubectl(['create', 'namespace', 'pages']);
    configMaps(
      'pages',
      Array.from({ length: 120 }, (_, i) => `cm-${i}`),
    );
    const client = newClient();
    const answers: string[] = [];
    const getJson = client.getJson.bind(client);
    let compacted = false;
    client.getJson = (async (p: string, ...rest: Parameters<ApiClient['getJson']> extends [string, ...infer R] ? R : never) => {
      try {
        const page = await getJson<{ items: unknown[] }>(p, ...rest);
        answers.push(`${page.items.length}`);
        return page;
      } catch (e) {
        answers.push(`${(e as { status?: number }).status} ${(e as Error).message}`);
        throw e;
      } finally {
        // Compaction after the first page: its continue token now names a compacted revision.
        if (!compacted) {
          compacted = true;
          await compact();
        }
      }
    }) as ApiClient['getJson'];
    let items: Obj[] = [];
    const reflector = new Reflector<Obj>(
      client,
      configmaps,
      'pages',
      {
        convert: (item) => item as Obj,
        replace: (objects) => (items = objects),
        event: () => undefined,
        state: () => undefined,
      },
      { accept: ACCEPT_METADATA_LIST, pageSize: 50, watch: false, withoutManagedFields: true },
    );
    await reflector.start(new AbortController().signal).done;
    expect(answers).toEqual(['50', expect.stringMatching(/^410 The provided continue parameter is too old/), '50', '50', '20']);
    expect(reflector.lists).toBe(2);
    expect(reflector.lastError).toBeUndefined();
    const got = items.map((o) => (o.metadata as { uid: string }).uid);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(uids('pages'));
  });

  it("a watch from a compacted resourceVersion: an ERROR event with 410 Expired; LiveCluster lists again and holds the server's objects", async () => {
    kubectl(['create', 'namespace', 'watched']);
    configMaps('watched', ['a', 'b']);
    // Watches end every 2 s and are asked again from the last resourceVersion seen (no bookmarks without the cache).
    const live = new LiveCluster({
      target: target(),
      namespaces: ['watched'],
      rediscoverMs: 0,
      reflector: { watchTimeoutSeconds: 2, backoffMs: { initial: 100, max: 1000 } },
    });
    try {
      await live.start();
      const client = newClient();
      const listed = await client.getJson<{ metadata: { resourceVersion: string } }>(
        '/api/v1/namespaces/watched/configmaps?limit=500',
        ACCEPT_METADATA_LIST,
      );
      await compact();
      // What the server says to a watch from before the compaction (what the product's next watch gets).
      const events: WatchEvent[] = [];
      await client.watch(
        `/api/v1/namespaces/watched/configmaps?watch=1&timeoutSeconds=10&resourceVersion=${listed.metadata.resourceVersion}`,
        ACCEPT_METADATA_WATCH,
        (e) => events.push(e),
        new AbortController().signal,
      );
      expect(events).toEqual([
        {
          type: 'ERROR',
          object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired', message: expect.stringMatching(/too old/) }),
        },
      ]);
      const lists = () =>
        productRequests(AUDIT_LOG).filter((e) => e.verb === 'list' && e.requestURI.startsWith('/api/v1/namespaces/watched/configmaps?'))
          .length;
      await until('the product lists the ConfigMaps again', () => lists() >= 2);
      // Made after the relist began or during it: the watch from the new LIST brings it.
      configMaps('watched', ['c']);
      kubectl(['delete', 'configmap', 'a', '-n', 'watched']);
      const want = uids('watched');
      await until("the live ConfigMaps are the server's", () => {
        const live_ = new Set(
          [...live.inventory.objects.values()].filter((o) => o.kind === 'ConfigMap' && o.namespace === 'watched').map((o) => o.uid),
        );
        return live_.size === want.size && [...want].every((u) => live_.has(u));
      });
      expect(live.status().problems).toEqual([]);
    } finally {
      await live.stop();
    }
  }, 120_000);

  it('the audit log: every request of the product here was a GET (get, list or watch)', () => {
    const verbs = new Set(productRequests(AUDIT_LOG).map((e) => e.verb));
    expect(productRequests(AUDIT_LOG).length).toBeGreaterThan(20);
    expect([...verbs].sort()).toEqual(['get', 'list', 'watch']);
  });
});

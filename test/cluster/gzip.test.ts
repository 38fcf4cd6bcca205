// gzip on the live path, on the API test server: it compresses as kube-apiserver v1.37 does (asked with a token exactly
// `gzip`, and the answer over 128 KiB: responsewriters/writers.go; a watch only when it is a watch-list:
// handlers/watch.go), and the product's client asks, decompresses and counts both sizes. The same on the real
// server: realServerLive.test.ts. Gzip bombs and corrupt streams: hostileServer.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCEPT_METADATA_LIST,
  ACCEPT_METADATA_WATCH,
  ACCEPT_OBJECTS,
  ApiClient,
  type WatchEvent,
} from '../../server/src/sources/cluster/apiClient';
import { resolveTarget, type ClusterTarget } from '../../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../../server/src/sources/cluster/liveCluster';
import { rawGet } from '../helpers/rawGet';
import { GZIP_THRESHOLD_BYTES, startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, ns } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let target: ClusterTarget;
const clients: ApiClient[] = [];
const newClient = () => {
  const c = new ApiClient(target);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'gzip-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-gzip-'));
  target = resolveTarget({ kubeconfig: server.writeKubeconfig(dir), allowExec: false });
  server.add(ns('big', 'ns-big'));
  // 300 ConfigMaps of about 2 KB each, half of it metadata: a LIST of them, in full or metadata-only, is over the
  // threshold; one of them is not.
  server.addMany(
    Array.from({ length: 300 }, (_, i) => {
      const cm = configMap('big', `cm-${i}`, `u-cm-${i}`) as { metadata: Record<string, unknown> };
      return {
        ...cm,
        metadata: { ...cm.metadata, annotations: { note: `note ${i} `.repeat(100) } },
        data: { text: `line ${i} `.repeat(100) },
      };
    }),
  );
});

afterAll(async () => {
  for (const c of clients) c.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const LIST = '/api/v1/namespaces/big/configmaps';

describe('the API test server compresses as kube-apiserver does', () => {
  it('an answer over 128 KiB, asked with gzip: gzip level 1, Content-Encoding and Vary, no Content-Length; the same JSON as unasked', async () => {
    const plain = await rawGet(target, LIST, { Accept: 'application/json' });
    const zipped = await rawGet(target, LIST, { Accept: 'application/json', 'Accept-Encoding': 'gzip' });
    expect(plain.body.length).toBeGreaterThan(GZIP_THRESHOLD_BYTES);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-type': 'application/json' });
    expect(zipped.headers['content-length']).toBeUndefined();
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 5);
  });

  it('not compressed: an answer of 128 KiB or less, or Accept-Encoding without the exact token gzip', async () => {
    const small = await rawGet(target, `${LIST}?limit=1`, { Accept: 'application/json', 'Accept-Encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(GZIP_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    for (const asked of ['deflate', 'gzip;q=1', 'x-gzip']) {
      const big = await rawGet(target, LIST, { Accept: 'application/json', 'Accept-Encoding': asked });
      expect(big.headers['content-encoding'], asked).toBeUndefined();
    }
    expect((await rawGet(target, LIST, { Accept: 'application/json', 'Accept-Encoding': 'br, gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );
  });

  it('watches: a watch-list (sendInitialEvents) asked with gzip is compressed, a gzip member per event; other watches never', async () => {
    const client = newClient();
    const watch = async (query: string) => {
      server.resetLog();
      const events: WatchEvent[] = [];
      await client.watch(
        `${LIST}?watch=1&timeoutSeconds=1&${query}`,
        ACCEPT_METADATA_WATCH,
        (e) => events.push(e),
        new AbortController().signal,
      );
      return { events, record: server.requests.find((r) => r.verb === 'watch')! };
    };
    const list = await watch('sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan');
    const plain = await watch('resourceVersion=0');
    expect(list.record.contentEncoding).toBe('gzip');
    expect(plain.record.contentEncoding).toBeUndefined();
    expect(list.record.acceptEncoding).toBe('gzip');
    // The same 300 objects either way; the watch-list ends with its initial-events-end bookmark.
    const names = (events: WatchEvent[]) =>
      events
        .filter((e) => e.type === 'ADDED')
        .map((e) => (e.object.metadata as { name: string }).name)
        .sort();
    expect(names(list.events)).toHaveLength(300);
    expect(names(list.events)).toEqual(names(plain.events));
    expect(list.events.at(-1)).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
    });
  });
});

describe('the product asks for gzip and decompresses', () => {
  it('a LIST in full and a metadata-only LIST: the same objects as uncompressed, both sizes counted', async () => {
    const client = newClient();
    const full = await client.getJson<{ items: unknown[] }>(LIST, ACCEPT_OBJECTS);
    const uncompressed = JSON.parse((await rawGet(target, LIST, { Accept: ACCEPT_OBJECTS })).body.toString('utf8')) as unknown;
    expect(full).toEqual(uncompressed);
    expect(client.stats.gzipAnswers).toBe(1);
    expect(client.stats.bytes).toBeLessThan(client.stats.decodedBytes / 5);
    expect(server.requests.at(-2)).toMatchObject({ acceptEncoding: 'gzip', contentEncoding: 'gzip' });
    // Protobuf too, and a small answer is read as sent.
    const before = { ...client.stats };
    const metadata = await client.getJson<{ items: unknown[] }>(LIST, ACCEPT_METADATA_LIST);
    expect(metadata.items).toHaveLength(300);
    const one = await client.getJson<{ items: unknown[] }>(`${LIST}?limit=1`, ACCEPT_OBJECTS);
    expect(one.items).toHaveLength(1);
    expect(client.stats.protobufAnswers - before.protobufAnswers).toBe(1);
    expect(client.stats.gzipAnswers - before.gzipAnswers).toBe(
      server.requests.slice(-2).filter((r) => r.contentEncoding === 'gzip').length,
    );
  });

  it('a live connection on compressed answers holds every object; its bytes are what came over the wire', async () => {
    server.resetLog();
    const live = new LiveCluster({ target, rediscoverMs: 0, watch: false, reflector: { pageSize: 1000 } });
    try {
      await live.start();
      expect(live.status().problems).toEqual([]);
      for (let i = 0; i < 300; i++) expect(live.inventory.objects.has(`u-cm-${i}`)).toBe(true);
      expect(server.requests.some((r) => r.contentEncoding === 'gzip')).toBe(true);
      expect(live.client.stats.bytes).toBe(server.bytesSent());
      expect(live.client.stats.decodedBytes).toBeGreaterThan(live.client.stats.bytes);
    } finally {
      await live.stop();
    }
  });
});

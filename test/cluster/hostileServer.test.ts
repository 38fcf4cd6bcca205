// The live cluster source against a hostile API server (the API test server's hostile faults): oversized and endless
// answers, trickling bytes, null and malformed items (LIST and watch), 429 Too Many Requests with Retry-After, and
// over-long Status messages. Each bad resource (or item) is left out and named in the incomplete-preview notes; the
// rest of the preview still answers. Small limits are passed as options, so nothing here sends gigabytes or waits long.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveCluster, type LiveClusterOptions } from '../../server/src/sources/cluster/liveCluster';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import type { HostileAnswer } from '../../testkit/kubeApiServer/hostile';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
const open: LiveCluster[] = [];
const MB = 1_000_000;

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'hostile-token', watchBookmarkIntervalMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'kgl-hostile-'));
  kubeconfig = server.writeKubeconfig(dir);
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.stop()));
  server.faults.clear();
  for (const o of server.objects()) {
    const m = o.metadata as { namespace?: string; name: string };
    server.remove({ apiVersion: o.apiVersion as string, kind: o.kind as string, namespace: m.namespace, name: m.name });
  }
  server.resetLog();
});

/** Waits requested by the retry logic, recorded instead of slept. */
let waits: number[] = [];
const noSleep = async (ms: number) => void waits.push(ms);

function connect(extra: Partial<LiveClusterOptions> = {}): LiveCluster {
  waits = [];
  const target = resolveTarget({ kubeconfig, allowExec: false });
  const live = new LiveCluster({
    target,
    rediscoverMs: 0,
    watch: false,
    reflector: { backoffMs: { initial: 20, max: 200 }, forbiddenRetryMs: 60_000 },
    limits: { maxAnswerBytes: MB, requestTimeoutMs: 5_000, sleep: noSleep },
    ...extra,
  });
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

const configMapLists = () => server.requests.filter((r) => r.verb === 'list' && r.resource === 'configmaps');

describe('bounded answers', () => {
  it('an oversized LIST answer stops at the answer cap: that resource is left out and named, the rest answers', async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'huge', bytes: 200 * MB });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.inventory.objects.has('cm-settings')).toBe(false);
    const notes = live.incompleteNotes();
    expect(notes).toEqual([
      expect.stringMatching(
        /^this preview is incomplete: listing configmaps fails \(the answer to GET \/api\/v1\/configmaps\?limit=500 is larger than 1 MB \(the limit of one answer\), so it was not read\)$/,
      ),
    ]);
    // Not read past the cap, and not asked again (the same answer would come back): far less than was on offer.
    expect(configMapLists()).toHaveLength(1);
    expect(configMapLists()[0].bytes).toBeLessThan(50 * MB);
  });

  it('an endless LIST answer stops at the cap too', async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'huge', bytes: Infinity });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('d-web')).toBe(true);
    expect(live.incompleteNotes()).toEqual([expect.stringMatching(/listing configmaps fails \(.*larger than 1 MB/)]);
  });

  it('an answer holding more values than the cap (100 MB of {} parse into 2 GB) is not parsed: named, the rest answers', async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'tiny', bytes: 300_000, item: '{}' });
    const live = connect({ limits: { maxAnswerBytes: MB, maxAnswerValues: 50_000, sleep: noSleep } });
    await live.start();
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.incompleteNotes()).toEqual([
      'this preview is incomplete: listing configmaps fails (the answer to GET /api/v1/configmaps?limit=500 holds more than 50,000 values (the limit of one answer), so it was not read)',
    ]);
  });

  it('a page of many bad items is one counted note, not one entry per item', async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'tiny', bytes: 500_000, item: 'null' });
    const live = connect();
    await live.start();
    const notes = live.incompleteNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^this preview is incomplete: [\d,]{6,} configmaps have malformed metadata and were left out \(the first: an item of the LIST is null, not an object\)$/,
    );
  });

  it('a resource whose pages add up past the LIST cap is left out (a server that never stops paginating)', async () => {
    seedShop(server);
    for (let i = 0; i < 40; i++) server.add(configMap('shop', `cm-${i}`, `cm-many-${i}`));
    const live = connect({ limits: { maxAnswerBytes: MB, maxListBytes: 3_000, sleep: noSleep }, reflector: { pageSize: 5 } });
    await live.start();
    expect(live.inventory.objects.has('cm-many-0')).toBe(false);
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.incompleteNotes().find((n) => n.includes('configmaps'))).toMatch(
      /the LIST of \/api\/v1\/configmaps is larger than 3 KB in all \(the limit of one LIST\)/,
    );
  });

  it('a trickling server (one byte at a time) is cut at the request deadline: named, the rest answers', { timeout: 20_000 }, async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'trickle', intervalMs: 50 });
    const live = connect({ limits: { maxAnswerBytes: MB, requestTimeoutMs: 1_000, sleep: noSleep } });
    await live.start();
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.incompleteNotes()).toEqual([
      expect.stringMatching(
        /^this preview is incomplete: listing configmaps fails \(GET \/api\/v1\/configmaps\?limit=500 did not complete within 1 s \(the request deadline\)\)$/,
      ),
    ]);
    // One-shot: a request that ran out of time is not asked again (the CLI would wait the deadline again).
    expect(configMapLists()).toHaveLength(1);
  });

  it('the deadline does not cut watches (long-lived by design): they keep their idle timeout', async () => {
    seedShop(server);
    const live = connect({ watch: true, limits: { requestTimeoutMs: 1_000, sleep: noSleep } });
    await live.start();
    await new Promise((r) => setTimeout(r, 1_300));
    server.add(configMap('shop', 'late', 'cm-late'));
    await until('the ConfigMap added after the deadline', () => live.inventory.objects.has('cm-late'));
    expect(live.status().problems).toEqual([]);
    const watches = server.requests.filter((r) => r.verb === 'watch' && r.resource === 'configmaps');
    expect(watches).toHaveLength(1);
  });
});

describe('gzip', () => {
  /** The shop with a hostile answer to every LIST of configmaps, read once: only the configmaps are left out. */
  async function withConfigMapsAnswered(answer: HostileAnswer): Promise<LiveCluster> {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, answer);
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.inventory.objects.has('cm-settings')).toBe(false);
    return live;
  }
  const TOO_LARGE =
    'this preview is incomplete: listing configmaps fails (the answer to GET /api/v1/configmaps?limit=500 is larger than 1 MB (the limit of one answer), so it was not read)';

  it('a gzip bomb is refused as an oversized answer is (the cap counts decompressed bytes), without inflating it: named, the rest answers', async () => {
    // 10 GB decompressed in about 10 MB on the wire; a 1 MB cap.
    const live = await withConfigMapsAnswered({ kind: 'gzipBomb', bytes: 10_000 * MB });
    expect(live.incompleteNotes()).toEqual([TOO_LARGE]);
    expect(configMapLists()).toHaveLength(1);
    // Decompressed: the cap and at most one more of zlib's 16 KB output chunks, the other resources' small answers aside.
    const others = server.requests.filter((r) => r.resource !== 'configmaps').reduce((n, r) => n + r.bytes, 0);
    expect(live.client.stats.decodedBytes - others).toBeLessThan(MB + 17_000);
    expect(live.client.stats.gzipAnswers).toBe(1);
  });

  it('an endless gzip bomb stops at the cap too', async () => {
    const live = await withConfigMapsAnswered({ kind: 'gzipBomb', bytes: Infinity });
    expect(live.incompleteNotes()).toEqual([TOO_LARGE]);
  });

  it.each([
    ['checksum', 'incorrect data check'],
    ['truncated', 'it ends too early'],
    ['notGzip', 'incorrect header check'],
  ] as const)('a corrupt gzip stream (%s) fails that resource only, saying so; the rest answers', async (how, why) => {
    const live = await withConfigMapsAnswered({ kind: 'corruptGzip', how });
    expect(live.incompleteNotes()).toEqual([
      `this preview is incomplete: listing configmaps fails (the server's gzip-compressed answer to GET /api/v1/configmaps?limit=500 cannot be decompressed (${why}))`,
    ]);
    expect(configMapLists().every((r) => r.contentEncoding === 'gzip')).toBe(true);
  });
});

describe('odd LIST items', () => {
  const odd = [
    null,
    { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'num-uid', namespace: 'shop', uid: 42 } },
    {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'bad-refs', namespace: 'shop', uid: 'u-br', ownerReferences: 'x' },
    },
    {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'bad-fins', namespace: 'shop', uid: 'u-bf', finalizers: { a: 'b' } },
    },
    { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'good-extra', namespace: 'shop', uid: 'u-good' } },
  ];

  it('drops only the bad items and names them per namespace; a null item is one of them, not the whole resource', async () => {
    seedShop(server);
    server.faults.hostile({ group: '', resource: 'configmaps' }, { kind: 'items', items: odd });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('cm-settings')).toBe(true);
    expect(live.inventory.objects.has('u-good')).toBe(true);
    for (const uid of ['u-br', 'u-bf']) expect(live.inventory.objects.has(uid), uid).toBe(false);
    const notes = live.incompleteNotes();
    expect(notes).toHaveLength(2);
    expect(notes).toContain(
      'this preview is incomplete: 3 configmaps in shop have malformed metadata and were left out (the first, "num-uid": metadata.uid must be a string, found a number)',
    );
    expect(notes.find((n) => !n.includes(' in shop '))).toMatch(
      /^this preview is incomplete: 1 configmap has malformed metadata and was left out \(an item of the LIST is null, not an object\)$/,
    );
    for (const n of notes) expect(n).not.toMatch(/Cannot read|TypeError|undefined/);
  });

  it('validates items of a LIST read in full (namespaces) the same way', async () => {
    seedShop(server);
    server.faults.hostile(
      { group: '', resource: 'namespaces' },
      { kind: 'items', items: [{ metadata: { name: 'ns-bad', uid: 7 } }, 'text', { metadata: { name: 'ns-fine', uid: 'u-ns-fine' } }] },
    );
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('ns-shop')).toBe(true);
    expect(live.inventory.objects.has('u-ns-fine')).toBe(true);
    expect(live.incompleteNotes()).toEqual([
      'this preview is incomplete: 2 namespaces have malformed metadata and were left out (the first, "ns-bad": metadata.uid must be a string, found a number)',
    ]);
  });

  it('malformed objects in watch events are left out and named; the watch goes on', async () => {
    seedShop(server);
    const live = connect({ watch: true });
    await live.start();
    await until('the ConfigMaps watched', () =>
      server.requests.some((r) => r.verb === 'watch' && r.resource === 'configmaps' && r.status === 200),
    );
    const cm = { group: '', resource: 'configmaps' };
    server.faults.rawWatchEvent(cm, JSON.stringify({ type: 'ADDED', object: null }));
    server.faults.rawWatchEvent(
      cm,
      JSON.stringify({
        type: 'ADDED',
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'w-bad', namespace: 'shop', uid: 5 } },
      }),
    );
    server.add(configMap('shop', 'late', 'cm-late'));
    await until('the ConfigMap after the bad events', () => live.inventory.objects.has('cm-late'));
    expect(live.inventory.objects.has('cm-settings')).toBe(true);
    const notes = live.incompleteNotes();
    expect(notes).toContain(
      'this preview is incomplete: 1 configmap in shop has malformed metadata and was left out ("w-bad": metadata.uid must be a string, found a number)',
    );
    expect(notes.some((n) => /1 configmap has malformed metadata .*null/.test(n))).toBe(true);
    // A good copy of the same object later clears it.
    server.faults.rawWatchEvent(
      cm,
      JSON.stringify({
        type: 'MODIFIED',
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { name: 'w-bad', namespace: 'shop', uid: 'u-w-bad', resourceVersion: '999999' },
        },
      }),
    );
    await until('the fixed object', () => live.inventory.objects.has('u-w-bad'));
    expect(live.incompleteNotes().some((n) => n.includes('"w-bad"'))).toBe(false);
  });
});

describe('429 Too Many Requests', () => {
  it('is retried as Retry-After says (bounded), then the LIST succeeds', async () => {
    seedShop(server);
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 429, times: 3, retryAfter: '2' });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('cm-settings')).toBe(true);
    expect(live.incompleteNotes()).toEqual([]);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it("5xx with Retry-After is retried too; 5xx without it is not (the reflector's own backoff handles it)", async () => {
    seedShop(server);
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 503, times: 2, retryAfter: '0' });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('cm-settings')).toBe(true);
    expect(waits).toHaveLength(2);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
  });

  it('gives up after 10 retries, and says so in the note', async () => {
    seedShop(server);
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 429, times: 1000, retryAfter: '1' });
    const live = connect();
    await live.start();
    expect(live.inventory.objects.has('p-web-1')).toBe(true);
    expect(live.incompleteNotes()).toEqual([
      expect.stringMatching(
        /^this preview is incomplete: listing configmaps fails \(Too many requests, please try again later\. \(429 TooManyRequests, still after 10 retries\)\)$/,
      ),
    ]);
    // 10 retries, each after the Retry-After; a one-shot reading does not list again after them (the server said no).
    expect(waits).toEqual(Array(10).fill(1000));
    expect(configMapLists()).toHaveLength(11);
  });

  it('never waits past the request deadline: a Retry-After beyond it is not waited for', async () => {
    seedShop(server);
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 429, times: 1000, retryAfter: '120' });
    const live = connect({ limits: { requestTimeoutMs: 5_000, sleep: noSleep } });
    await live.start();
    expect(waits).toEqual([]);
    expect(live.incompleteNotes()).toEqual([
      expect.stringMatching(/listing configmaps fails \(.*Retry-After of 120 s is past the request deadline/),
    ]);
  });
});

describe('server-provided messages', () => {
  it('a Status message is capped (a hostile server cannot flood the output)', async () => {
    seedShop(server);
    const flood = `${'A'.repeat(100_000)}\u001b]0;pwned\u0007`;
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 500, times: 1000, message: flood });
    server.faults.fail({ group: '', resource: 'secrets' }, { status: 403, times: 1000, message: flood });
    const live = connect();
    await live.start();
    const notes = live.incompleteNotes();
    expect(notes).toHaveLength(2);
    for (const n of notes) {
      expect(n.length).toBeLessThan(700);
      expect(n).toContain('…');
      expect(n).not.toContain('pwned');
    }
  });

  it("a watch ERROR event's message is capped too", async () => {
    seedShop(server);
    const live = connect({ watch: true });
    await live.start();
    await until('the ConfigMaps watched', () =>
      server.requests.some((r) => r.verb === 'watch' && r.resource === 'configmaps' && r.status === 200),
    );
    server.faults.fail({ group: '', resource: 'configmaps' }, { status: 500, times: 1000, message: 'B'.repeat(50_000) });
    server.faults.rawWatchEvent(
      { group: '', resource: 'configmaps' },
      JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 500, reason: 'InternalError', message: 'C'.repeat(50_000) } }),
    );
    await until('the watch error reported', () => live.status().problems.length > 0);
    for (const p of live.status().problems) expect(p.message.length, p.message.slice(0, 40)).toBeLessThanOrEqual(501);
  });
});

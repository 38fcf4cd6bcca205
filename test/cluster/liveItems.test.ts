// What a server sends, checked piece by piece: items of any shape (readLiveObject), a protobuf list with one unreadable
// item, discovery documents with entries of the wrong shape, and an answer or a watch line past the byte cap.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../server/src/sources/cluster/apiClient';
import { discover, type DiscoveredResource } from '../../server/src/sources/cluster/discovery';
import type { ClusterTarget } from '../../server/src/sources/cluster/kubeconfig';
import { formatBytes, serverText } from '../../server/src/sources/cluster/limits';
import { decodeProtobuf } from '../../server/src/sources/cluster/protobuf';
import { MalformedItems } from '../../server/src/sources/cluster/malformedItems';
import { isMalformed, readLiveObject } from '../../server/src/sources/cluster/toKubeObject';
import { metadataListProtobuf, partialObjectMetadataBytes } from '../../testkit/kubeApiServer/protobuf';

const CONFIGMAPS: DiscoveredResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  singular: 'configmap',
  shortNames: ['cm'],
  verbs: ['list', 'watch', 'delete'],
};
const read = (item: unknown, metadataOnly = true) => readLiveObject(item, CONFIGMAPS, metadataOnly, 'ctx');
const why = (item: unknown, metadataOnly = true) => {
  const r = read(item, metadataOnly);
  return isMalformed(r) ? r : undefined;
};

describe('readLiveObject: one item at a time', () => {
  it('reads a well-formed item, metadata-only or in full', () => {
    const meta = {
      name: 'a',
      namespace: 'shop',
      uid: 'u-a',
      finalizers: ['x/y'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'u-b' }],
    };
    for (const full of [false, true]) {
      const o = read({ metadata: meta, data: { k: 'v' } }, !full);
      expect(isMalformed(o)).toBe(false);
      expect(o).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', namespace: 'shop', uid: 'u-a', finalizers: ['x/y'] });
    }
  });

  it('names what is wrong, and who, for every odd shape', () => {
    expect(why(null)).toEqual({ malformed: 'an item of the LIST is null, not an object' });
    expect(why(7)).toEqual({ malformed: 'an item of the LIST is a number, not an object' });
    expect(why([{}])).toEqual({ malformed: 'an item of the LIST is an array, not an object' });
    expect(readLiveObject('x', CONFIGMAPS, true, 'ctx', 'watch')).toEqual({
      malformed: 'the object of a watch event is a string, not an object',
    });
    expect(why({ metadata: null })).toEqual({ malformed: 'its metadata is null, not an object' });
    expect(why({ metadata: { name: 'n', namespace: 'shop', uid: 42 } })).toEqual({
      malformed: 'metadata.uid must be a string, found a number',
      name: 'n',
      namespace: 'shop',
    });
    expect(why({ metadata: { name: 'n', namespace: 'shop', uid: 'u', ownerReferences: 'x' } })?.malformed).toBe(
      'metadata.ownerReferences must be a list, found a string',
    );
    expect(why({ metadata: { name: 'n', namespace: 'shop', uid: 'u', finalizers: { a: 'b' } } })?.malformed).toMatch(
      /^metadata\.finalizers must be a list/,
    );
    expect(why({ metadata: { name: 'n', namespace: 'shop', uid: 'u', ownerReferences: [null] } })?.malformed).toMatch(/ownerReferences/);
    expect(why({ metadata: { name: 'n', namespace: 'shop' } })).toEqual({
      malformed: 'metadata.uid is missing',
      name: 'n',
      namespace: 'shop',
    });
    expect(why({ metadata: { namespace: 'shop', uid: 'u' } })).toEqual({ malformed: 'metadata.name is missing', namespace: 'shop' });
    // Read in full: a wrong kind of field the simulation reads is the same.
    expect(why({ metadata: { name: 'n', uid: 5 } }, false)?.malformed).toBe('metadata.uid must be a string, found a number');
  });

  it('cuts a server-provided name', () => {
    const long = 'n'.repeat(10_000);
    expect(why({ metadata: { name: long, namespace: 'shop', uid: 1 } })?.name).toBe(serverText(long, 100));
    expect(serverText('é'.repeat(600)).length).toBe(501);
    expect(serverText('\u{1F600}'.repeat(300), 501).endsWith('…')).toBe(true);
    expect([formatBytes(512_000_000), formatBytes(2e9), formatBytes(3000), formatBytes(12)]).toEqual([
      '512 MB',
      '2 GB',
      '3 KB',
      '12 bytes',
    ]);
  });
});

describe('MalformedItems', () => {
  it('keeps 1,000 named items one by one, counts the rest per namespace, and clears a name a good copy brings', () => {
    const m = new MalformedItems();
    for (let i = 0; i < 1500; i++) m.add({ malformed: 'metadata.uid is missing', namespace: i % 2 ? 'a' : 'b', name: `n${i}` });
    for (let i = 0; i < 10; i++) m.add({ malformed: 'an item of the LIST is null, not an object' });
    expect(m.size).toBe(1510);
    m.clear('b', 'n0');
    m.clear('b', 'n1400'); // beyond the 1,000 kept: only counted, so it stays counted
    expect(m.size).toBe(1509);
    expect(m.notes(CONFIGMAPS)).toEqual([
      'this preview is incomplete: 750 configmaps in a have malformed metadata and were left out (the first, "n1": metadata.uid is missing)',
      'this preview is incomplete: 749 configmaps in b have malformed metadata and were left out (the first, "n2": metadata.uid is missing)',
      'this preview is incomplete: 10 configmaps have malformed metadata and were left out (the first: an item of the LIST is null, not an object)',
    ]);
  });
});

describe('a protobuf list with one unreadable item', () => {
  it('reads the others; that one is malformed, with the reason', () => {
    // ObjectMeta holding a field of wire type 7 (no such type): that item alone cannot be read.
    const broken = Buffer.from([0x0a, 0x02, 0xa7, 0x01]);
    const list = metadataListProtobuf('v1', { resourceVersion: '9' }, [
      partialObjectMetadataBytes({ metadata: { name: 'a', namespace: 'x', uid: 'u-a' } }),
      broken,
      partialObjectMetadataBytes({ metadata: { name: 'c', namespace: 'x', uid: 'u-c' } }),
    ]);
    const doc = decodeProtobuf(list) as { items: unknown[] };
    const items = doc.items.map((i) => read(i));
    expect(items.filter((i) => !isMalformed(i)).map((i) => (i as { name: string }).name)).toEqual(['a', 'c']);
    expect(items[1]).toEqual({ malformed: 'an item of the LIST cannot be read from protobuf: wire type 7 is not one this reader knows' });
  });
});

// A plain HTTP server whose answers are set per path.
let server: Server;
let target: ClusterTarget;
let client: ApiClient;
const answers = new Map<string, (res: ServerResponse) => void>();
const json = (body: unknown) => (res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const answer = answers.get((req.url ?? '').split('?')[0]);
    if (answer) answer(res);
    else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('404 page not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = {
    context: 'test',
    server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    namespace: 'default',
    user: 'test',
    proxied: false,
    applyAuth: async () => undefined,
  };
  client = new ApiClient(target, { maxAnswerBytes: 1_000_000, requestTimeoutMs: 10_000 });
});

afterAll(async () => {
  client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('discovery documents of the wrong shape', () => {
  it('passes over the odd entries and discovers the rest (no TypeError ends the connection)', async () => {
    answers.set('/api', json({ versions: [null, 'v1', 3] }));
    answers.set('/apis', json({ groups: [null, { name: 'apps', versions: 'x' }, { name: 7 }] }));
    answers.set(
      '/api/v1',
      json({
        resources: [
          null,
          { name: 5 },
          { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['list', 'watch', 'delete'], shortNames: 'cm' },
          { name: 'pods', kind: 'Pod', namespaced: 'yes', verbs: ['list', 'watch', 'delete'] },
        ],
      }),
    );
    const found = await discover(client);
    expect(found.resources.map((r) => r.resource)).toEqual(['configmaps']);
    expect(found.resources[0].shortNames).toEqual([]);
    answers.set('/api', json(null));
    answers.set('/apis', json('nothing'));
    expect((await discover(client)).resources).toEqual([]);
  });
});

describe('the request deadline', () => {
  it("starts once the credentials are there (an exec plugin's login is not the server's time)", async () => {
    answers.set('/version', json({ major: '1' }));
    const slowLogin = new ApiClient(
      { ...target, applyAuth: () => new Promise((resolve) => setTimeout(resolve, 1_500)) },
      { requestTimeoutMs: 1_000 },
    );
    try {
      expect(await slowLogin.getJson('/version')).toEqual({ major: '1' });
    } finally {
      slowLogin.close();
    }
  });

  it('a Retry-After too long to wait for, without a deadline, is not waited for', async () => {
    answers.set('/api/v1/events', (res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '3600' });
      res.end(JSON.stringify({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' }));
    });
    const waits: number[] = [];
    const noDeadline = new ApiClient(target, { requestTimeoutMs: 0, sleep: async (ms) => void waits.push(ms) });
    try {
      const e = await noDeadline.getJson('/api/v1/events').catch((err: unknown) => err);
      expect((e as ApiError).message).toBe(
        'slow down (429 TooManyRequests; its Retry-After of 3600 s is longer than the 60 s this client waits at once)',
      );
      expect(waits).toEqual([]);
    } finally {
      noDeadline.close();
    }
  });
});

describe('answers past the byte cap', () => {
  it('refuses an answer whose Content-Length is over the cap without reading it', async () => {
    answers.set('/api/v1/configmaps', (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000000000' });
      res.write('{"items":[');
    });
    const e = await client.getJson('/api/v1/configmaps?limit=500').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).reason).toBe('TooLarge');
    expect((e as ApiError).message).toBe(
      'the answer to GET /api/v1/configmaps?limit=500 is larger than 1 MB (the limit of one answer), so it was not read',
    );
  });

  it('cuts a watch whose line never ends at the cap', async () => {
    answers.set('/api/v1/secrets', (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // 2 MB of one line, then nothing more (the connection stays open): without the cap it would be held forever.
      res.write(`{"type":"ADDED","object":{"metadata":{"name":"${'x'.repeat(2_000_000)}`);
    });
    const e = await client
      .watch('/api/v1/secrets?watch=1', 'application/json', () => undefined, new AbortController().signal)
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).reason).toBe('TooLarge');
    expect((e as ApiError).message).toMatch(/a watch event from GET \/api\/v1\/secrets\?watch=1 is larger than 1 MB/);
  });

  it('a watch event that is JSON but not an event is a BadResponse, not a TypeError', async () => {
    answers.set('/api/v1/pods', (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('null\n');
    });
    const e = await client
      .watch('/api/v1/pods?watch=1', 'application/json', () => undefined, new AbortController().signal)
      .catch((err: unknown) => err);
    expect((e as ApiError).reason).toBe('BadResponse');
  });
});

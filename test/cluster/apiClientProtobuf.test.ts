// ApiClient.getJson with protobuf answers from a server that misbehaves: unreadable bytes are a BadResponse that names
// the path; an error status with a protobuf Status body is an ApiError with the Status's reason and message.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_METADATA_LIST, ApiClient, ApiError } from '../../server/src/sources/cluster/apiClient';
import type { ClusterTarget } from '../../server/src/sources/cluster/kubeconfig';
import { status } from '../../testkit/kubeApiServer/formats';
import { metadataListProtobuf, partialObjectMetadataBytes, statusProtobuf } from '../../testkit/kubeApiServer/protobuf';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const LIST = metadataListProtobuf('v1', { resourceVersion: '42' }, [
  partialObjectMetadataBytes({
    metadata: { name: 'a', namespace: 'x', uid: 'u-a', creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web' } },
  }),
  partialObjectMetadataBytes({ metadata: { name: 'b', namespace: 'x', uid: 'u-b', creationTimestamp: '2026-01-01T00:00:00Z' } }),
]);
const FORBIDDEN = status(403, 'pods is forbidden: User "test" cannot list resource "pods" in API group "" in the namespace "x"', {
  kind: 'pods',
});
const EXPIRED = status(410, 'The provided continue parameter is too old to display a consistent list result.', undefined, {
  metadata: { continue: 'next' },
});

/** runtime.TypeMeta { apiVersion = 1: "v1", kind = 2: "PodList" }: a full list, which a metadata-only client does not read. */
const TYPE_META = Buffer.concat([Buffer.from([0x0a, 2]), Buffer.from('v1'), Buffer.from([0x12, 7]), Buffer.from('PodList')]);

/** What the server answers, by the namespace in the path: code, Content-Type, body. */
const ANSWERS: Record<string, [number, string, Buffer]> = {
  ok: [200, PROTOBUF, LIST],
  'ok-type-params': [200, 'Application/Vnd.Kubernetes.Protobuf; charset=binary', LIST],
  garbage: [200, PROTOBUF, Buffer.from([0x13, 0x37, 0xca, 0xfe, 0xba, 0xbe, 0x00, 0xff, 0x42])],
  truncated: [200, PROTOBUF, LIST.subarray(0, LIST.length - 30)],
  json: [200, PROTOBUF, Buffer.from('{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},"items":[]}')],
  podlist: [
    200,
    PROTOBUF,
    Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, TYPE_META.length]), TYPE_META, Buffer.from([0x12, 0x00])]),
  ],
  empty: [200, PROTOBUF, Buffer.alloc(0)],
  forbidden: [403, PROTOBUF, statusProtobuf(FORBIDDEN)],
  expired: [410, PROTOBUF, statusProtobuf(EXPIRED)],
  throttled: [429, PROTOBUF, statusProtobuf(status(429, undefined, { retryAfterSeconds: 1 }))],
  unavailable: [503, PROTOBUF, statusProtobuf(status(503))],
  'broken-error': [500, PROTOBUF, Buffer.from('upstream connect error or disconnect/reset before headers')],
  'list-not-status': [502, PROTOBUF, LIST],
};

let server: Server;
let client: ApiClient;
const accepts: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    accepts.push(req.headers.accept ?? '');
    const ns = /^\/api\/v1\/namespaces\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '';
    const [code, type, body] = ANSWERS[ns] ?? [404, 'text/plain', Buffer.from('404 page not found')];
    res.writeHead(code, { 'Content-Type': type, 'Content-Length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target: ClusterTarget = {
    context: 'test',
    server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    namespace: 'default',
    user: 'test',
    proxied: false,
    applyAuth: async () => undefined,
  };
  client = new ApiClient(target);
});

afterAll(async () => {
  client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const path = (ns: string) => `/api/v1/namespaces/${ns}/pods?limit=500`;

async function failure(ns: string): Promise<ApiError> {
  const e = await client.getJson(path(ns), ACCEPT_METADATA_LIST).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, ns).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('ApiClient.getJson with protobuf answers', () => {
  it('reads a protobuf list into its JSON form (whatever the case of the Content-Type, with parameters), asking protobuf first', async () => {
    for (const ns of ['ok', 'ok-type-params']) {
      const doc = await client.getJson<{ kind: string; metadata: unknown; items: { metadata: { name: string; labels?: unknown } }[] }>(
        path(ns),
        ACCEPT_METADATA_LIST,
      );
      expect(doc.kind).toBe('PartialObjectMetadataList');
      expect(doc.metadata).toEqual({ resourceVersion: '42' });
      expect(doc.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
      expect(doc.items[0].metadata.labels).toEqual({ app: 'web' });
    }
    expect(accepts.at(-1)).toBe(ACCEPT_METADATA_LIST);
  });

  it('unreadable protobuf (garbage, truncated, JSON, another kind, nothing) is a BadResponse that names the path', async () => {
    const reasons: Record<string, RegExp> = {
      garbage: /prefix "k8s\\0"/,
      truncated: /runs past the end/,
      json: /prefix "k8s\\0"/,
      podlist: /PodList/,
      empty: /prefix "k8s\\0"/,
    };
    for (const [ns, why] of Object.entries(reasons)) {
      const e = await failure(ns);
      expect(e.reason, ns).toBe('BadResponse');
      expect(e.status, ns).toBe(200);
      expect(e.path, ns).toBe(path(ns));
      expect(e.message, ns).toContain(`GET ${path(ns)}`);
      expect(e.message, ns).toMatch(/protobuf answer .* cannot be read/);
      expect(e.message, ns).toMatch(why);
      expect(e.expired, ns).toBe(false);
    }
  });

  it('an error status with a protobuf Status body: the ApiError carries its reason and message', async () => {
    const forbidden = await failure('forbidden');
    expect([forbidden.status, forbidden.reason, forbidden.message, forbidden.path]).toEqual([
      403,
      'Forbidden',
      FORBIDDEN.message,
      path('forbidden'),
    ]);
    const expired = await failure('expired');
    expect([expired.status, expired.reason, expired.message]).toEqual([410, 'Expired', EXPIRED.message]);
    expect(expired.expired).toBe(true);
    const throttled = await failure('throttled');
    expect([throttled.status, throttled.reason, throttled.message]).toEqual([
      429,
      'TooManyRequests',
      'Too many requests, please try again later.',
    ]);
    const unavailable = await failure('unavailable');
    expect([unavailable.status, unavailable.reason, unavailable.message]).toEqual([
      503,
      'ServiceUnavailable',
      'the server is currently unable to handle the request',
    ]);
  });

  it("an error status whose protobuf body is unreadable, or not a Status: the HTTP status's reason and a plain sentence", async () => {
    const broken = await failure('broken-error');
    expect([broken.status, broken.reason, broken.message]).toEqual([
      500,
      'InternalError',
      `GET ${path('broken-error')} answered 500 InternalError`,
    ]);
    const notStatus = await failure('list-not-status');
    expect([notStatus.status, notStatus.reason, notStatus.message]).toEqual([
      502,
      'HTTP502',
      `GET ${path('list-not-status')} answered 502 HTTP502`,
    ]);
    const plain = await failure('nowhere');
    expect([plain.status, plain.reason]).toEqual([404, 'NotFound']);
  });
});

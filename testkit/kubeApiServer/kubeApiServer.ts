// A Kubernetes API server for tests and benchmarks. It speaks enough of the real protocol for kubectl and
// @kubernetes/client-node: discovery (legacy and aggregated), GET / LIST (pagination, selectors, metadata-only,
// Table) / WATCH (resourceVersion, bookmarks, 410 after compaction) over HTTPS with a bearer token, Status errors,
// and faults to inject. Writes are refused (405) but counted: the product under test must only read. Only with
// `patches: true` is a JSON patch applied (a way out the user asked for, issue 18): dryRun=All checked and not
// stored, the scale subresource, a refusal injected with faults.rejectPatches (an RBAC denial, a webhook).
// Objects are added by the test (add, addMany, update, remove) and served as stored, whatever version is asked.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzip } from 'node:zlib';
import { Discovery, type ResourceInfo } from './discovery';
import { readFixture } from './fixtures';
import { corruptGzip, type HostileAnswer, sendGzipBomb, sendHuge, sendTrickle, withExtraItems } from './hostile';
import {
  acceptedForms,
  AGGREGATED_CONTENT_TYPE,
  contentType,
  type Form,
  listBody,
  metadataFormMismatch,
  objectBody,
  qualifiedResource,
  status,
  tooLargeResourceVersion,
} from './formats';
import { kubeconfigText, type KubeconfigOptions, TEST_USER } from './kubeconfig';
import { resolveRequest, type RequestInfo, type Verb } from './requestInfo';
import { both, type Obj, parseFieldSelector, parseLabelSelector, type Predicate, SelectorError } from './selectors';
import { Expired, Store, type StoreEvent } from './store';
import { applyJsonPatch } from './jsonPatch';
import { asksGzip, GZIP_HEADERS, Watches } from './watch';

export interface KubeApiServerOptions {
  /** serve HTTPS with the committed test CA (test/fixtures/kube-api-tls); default true */
  tls?: boolean;
  /** if set, every request must carry `Authorization: Bearer <token>` (else 401 Status) */
  token?: string;
  /** BOOKMARK period on watches that asked allowWatchBookmarks=true; default 1000 */
  watchBookmarkIntervalMs?: number;
  /**
   * the ManagedFieldsOptOut feature gate (alpha in Kubernetes 1.38, off by default): `drop=metadata.managedFields` in
   * an Accept clause then leaves managedFields out of every object served (GET, LIST, WATCH; every form); off, the
   * parameter is ignored, as older servers ignore parameters they do not know. Also settable later: managedFieldsOptOut.
   */
  managedFieldsOptOut?: boolean;
  /** apply `application/json-patch+json` PATCHes (objects and the scale subresource) instead of answering 405 */
  patches?: boolean;
}

export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  accept: string;
  /** the request's Accept-Encoding ('' when none) */
  acceptEncoding: string;
  /** 'gzip' when the answer was compressed (as kube-apiserver: asked, and over 128 KiB; a watch-list asked) */
  contentEncoding?: 'gzip';
  verb: Verb;
  group?: string;
  version?: string;
  resource?: string;
  namespace?: string;
  status: number;
  /** response body bytes sent (for watches: total streamed so far) */
  bytes: number;
  /** a PATCH's Content-Type and body, when the server applies patches */
  contentType?: string;
  body?: string;
  /** a PATCH's User-Agent (a way out's names the uid it is for) */
  userAgent?: string;
}

/** group '' = core */
export interface ResourceRef {
  group: string;
  resource: string;
  namespace?: string;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface KubeApiServerFaults {
  /** 403 Forbidden for list/watch/get of the resource (in that namespace only, if given) */
  forbid(r: ResourceRef): void;
  /**
   * the next `times` list/watch requests of the resource answer `status` (429 with Retry-After: 1); `retryAfter` sets
   * the Retry-After header of any status ('' = none), `message` the Status message (over-long, control characters…)
   */
  fail(r: ResourceRef, opts: { status: number; times: number; retryAfter?: string; message?: string }): void;
  /**
   * every LIST of the resource (until clear()) gets a hostile answer (hostile.ts): an endless or oversized items array
   * streamed lazily, the real answer trickled one byte at a time, or the real answer in JSON with raw values appended
   */
  hostile(r: ResourceRef, answer: HostileAnswer): void;
  /** sends this raw text as one line to every open watch of the resource (a malformed event or object) */
  rawWatchEvent(r: ResourceRef, line: string): void;
  /** delays every response (or those of one resource) by `ms`; delay(0) clears all delays, delay(0, r) that one */
  delay(ms: number, r?: ResourceRef): void;
  /** `group/version` listed in discovery but down: its document and its resources answer 503, aggregated discovery marks it Stale */
  failDiscovery(groupVersion: string): void;
  /** destroys every open watch connection (no final event) */
  dropWatches(): void;
  /** destroys each watch connection once it has sent this many events (bookmarks included); 0 = off */
  dropWatchesAfter(events: number): void;
  /**
   * every open watch connection goes silent but stays open (a connection that died without a FIN): no events, no
   * bookmarks, no end at its timeoutSeconds; watches opened later are normal. Not undone by clear().
   */
  stallWatches(): void;
  /** forgets the history (etcd compaction): older resourceVersions and continue tokens are answered 410 Expired */
  compact(): void;
  /**
   * the resource (or every resource) is served as by an API server that does not speak protobuf (some aggregated APIs):
   * Accept's protobuf ranges are passed over and JSON is negotiated
   */
  jsonOnly(r?: ResourceRef): void;
  /**
   * every PATCH of the resource (until clear()) is refused with `status` and `message`, dry runs too unless
   * `dryRun: false` (an admission webhook's denial is `status: 400`, an RBAC one 403)
   */
  rejectPatches(r: ResourceRef, opts: { status: number; message: string; dryRun?: boolean }): void;
  /** removes every fault (compaction is not undone) */
  clear(): void;
}

export interface KubeApiServer {
  /** https://127.0.0.1:PORT (http:// with tls: false) */
  readonly url: string;
  kubeconfig(opts?: KubeconfigOptions): string;
  /** writes the kubeconfig to `dir`/kubeconfig and returns that path */
  writeKubeconfig(dir: string, opts?: KubeconfigOptions): string;
  /** stores a new object (uid and creationTimestamp filled if absent; resourceVersion always set); ADDED; returns a copy */
  add(obj: Record<string, unknown>): Record<string, unknown>;
  /** add() for many objects at once (ADDED events too, to watches open at the time) */
  addMany(objs: Record<string, unknown>[]): void;
  /** replaces the object of the same apiVersion group, kind, namespace and name; MODIFIED; returns a copy */
  update(obj: Record<string, unknown>): Record<string, unknown>;
  /** DELETED; a CustomResourceDefinition takes its custom resources with it */
  remove(ref: ObjectRef): void;
  /** copies of everything stored */
  objects(): Record<string, unknown>[];
  resourceVersion(): string;
  readonly faults: KubeApiServerFaults;
  /** the ManagedFieldsOptOut feature gate (see KubeApiServerOptions) */
  managedFieldsOptOut: boolean;
  readonly requests: RequestRecord[];
  countByVerb(): Record<string, number>;
  /** requests with a write verb (create, update, patch, delete, deletecollection): the product must send none */
  writes(): number;
  /** response body bytes since the last resetLog(), open watches included */
  bytesSent(): number;
  resetLog(): void;
  close(): Promise<void>;
}

/** responsewriters.defaultGzipThresholdBytes (apiserver v0.37.2 writers.go): smaller answers are never compressed. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

// The release the discovery fixture comes from (about v1.31); gitCommit is the fixture's commit. Note that a kubectl
// that dispatches on the server's version (Google Cloud SDK's) then runs its kubectl 1.31.
const SERVER_VERSION = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0',
  gitCommit: '0209a4cb57a359609b96779f044bcdff8e8df70d',
  gitTreeState: 'clean',
  buildDate: '2024-08-13T00:00:00Z',
  goVersion: 'go1.22.5',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const CRD_GROUP = 'apiextensions.k8s.io';
const WRITE_VERBS = new Set<Verb>(['create', 'update', 'patch', 'delete', 'deletecollection']);

function metadataOf(obj: Obj): Obj {
  const m = obj.metadata;
  return m && typeof m === 'object' ? (m as Obj) : {};
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** An autoscaling/v1 Scale of a workload: replicas is omitempty, so 0 replicas is an empty spec. */
function scaleOf(obj: Obj): Obj {
  const m = metadataOf(obj);
  const replicas = ((obj.spec as Obj | undefined)?.replicas as number | undefined) ?? 1;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion },
    spec: replicas ? { replicas } : {},
    status: { replicas: ((obj.status as Obj | undefined)?.replicas as number | undefined) ?? 0 },
  };
}

function withScale(obj: Obj, scale: Obj): Obj {
  const replicas = ((scale.spec as Obj | undefined)?.replicas as number | undefined) ?? 0;
  return { ...obj, spec: { ...((obj.spec as Obj | undefined) ?? {}), replicas } };
}

/** A request's body, up to 1 MB (a patch is a few hundred bytes). */
function readRequestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1_000_000) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function refMatches(ref: ResourceRef, info: RequestInfo): boolean {
  return ref.group === info.group && ref.resource === info.resource && (ref.namespace === undefined || ref.namespace === info.namespace);
}

function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } | undefined {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: unknown; rv?: unknown; start?: unknown };
    return t.v === 'meta.k8s.io/v1' && typeof t.rv === 'number' && typeof t.start === 'string' ? { rv: t.rv, start: t.start } : undefined;
  } catch {
    return undefined;
  }
}

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

export async function startKubeApiServer(opts: KubeApiServerOptions = {}): Promise<KubeApiServer> {
  const tls = opts.tls ?? true;
  const token = opts.token;
  const discovery = new Discovery();
  const store = new Store();
  const watches = new Watches(opts.watchBookmarkIntervalMs ?? 1000, () => store.rv);
  store.onEvent((e) => watches.dispatch(e));

  const requests: RequestRecord[] = [];
  let bytes = 0;
  const forbidden: ResourceRef[] = [];
  const jsonOnly: (ResourceRef | 'all')[] = [];
  const failures: { ref: ResourceRef; status: number; remaining: number; retryAfter?: string; message?: string }[] = [];
  const hostile: { ref: ResourceRef; answer: HostileAnswer }[] = [];
  const patchRefusals: { ref: ResourceRef; status: number; message: string; dryRun: boolean }[] = [];
  let delayAll = 0;
  const delays: { ref: ResourceRef; ms: number }[] = [];
  const pendingDelays = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closed = false;

  const caPem = tls ? readFixture('kube-api-tls', 'ca.crt') : undefined;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        reply(res, undefined, 500, status(500, `Internal error occurred: ${String(err)}`)); // a bug here
      else res.destroy();
    });
  };
  const server: Server = tls
    ? createHttpsServer({ cert: readFixture('kube-api-tls', 'server.crt'), key: readFixture('kube-api-tls', 'server.key') }, handler)
    : createHttpServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  // ---- responses

  /** Where an answer goes, and how it is sent (a hostile answer sends it otherwise). */
  interface ReplyTo {
    res: ServerResponse;
    reply: typeof reply;
  }

  function reply(
    res: ServerResponse,
    record: RequestRecord | undefined,
    code: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const length = Buffer.byteLength(text);
    if (record) record.status = code;
    if (record && asksGzip(record.acceptEncoding) && length > GZIP_THRESHOLD_BYTES) {
      // As kube-apiserver's deferredResponseWriter: level 1, chunked (no Content-Length), Vary added.
      record.contentEncoding = 'gzip';
      gzip(text, { level: 1 }, (err, zipped) => {
        if (err) return void res.destroy(err);
        res.writeHead(code, { 'Content-Type': 'application/json', ...headers, ...GZIP_HEADERS });
        res.end(zipped);
        bytes += zipped.length;
        record.bytes += zipped.length;
      });
      return;
    }
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': String(length), ...headers });
    res.end(text);
    bytes += length;
    if (record) record.bytes += length;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          pendingDelays.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      pendingDelays.add(entry);
    });
  }

  // ---- requests

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Bodies of refused writes are not read; a patch's is, when patches are applied.
    const body = opts.patches && req.method === 'PATCH' ? await readRequestBody(req) : (req.resume(), undefined);
    const parsed = new URL(req.url ?? '/', 'http://localhost');
    const query: Record<string, string> = {};
    for (const [k, v] of parsed.searchParams) query[k] = v;
    const method = req.method ?? 'GET';
    const info = resolveRequest(method, parsed.pathname, query, discovery);
    const record: RequestRecord = {
      method,
      path: parsed.pathname,
      query,
      accept: req.headers.accept ?? '',
      acceptEncoding: req.headers['accept-encoding'] ?? '',
      verb: info.verb,
      ...(info.group !== undefined ? { group: info.group } : {}),
      ...(info.version !== undefined ? { version: info.version } : {}),
      ...(info.resource !== undefined ? { resource: info.resource } : {}),
      ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
      status: 0,
      bytes: 0,
      ...(body !== undefined ? { contentType: req.headers['content-type'] ?? '', body, userAgent: req.headers['user-agent'] ?? '' } : {}),
    };
    requests.push(record);

    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      reply(res, record, 401, status(401));
      return;
    }
    const ms = Math.max(delayAll, ...delays.filter((d) => refMatches(d.ref, info)).map((d) => d.ms));
    if (ms > 0) await sleep(ms);
    if (closed || req.socket.destroyed) return; // nobody left to answer (a watch must not be registered)

    if (info.discovery) serveDiscovery(req, res, record, info);
    else if (info.unknownPath) serveOther(res, record, parsed.pathname);
    else if (body !== undefined) servePatch(res, record, info, query, body);
    else serveResource(req, res, record, info, query);
  }

  /** A JSON patch to an object or its scale subresource, as the apiserver applies it (dryRun=All: checked, not stored). */
  function servePatch(res: ServerResponse, record: RequestRecord, info: RequestInfo, query: Record<string, string>, body: string): void {
    const group = info.group ?? '';
    const r = discovery.resource(group, info.version ?? '', info.resource ?? '');
    if (!r || info.name === undefined) return reply(res, record, 404, status(404, 'the server could not find the requested resource', {}));
    const scale = info.subresource === 'scale';
    if (info.subresource !== undefined && !(scale && r.subresources.some((s) => s.name === 'scale')))
      return reply(res, record, 404, status(404, 'the server could not find the requested resource', {}));
    if (record.contentType !== 'application/json-patch+json')
      return reply(
        res,
        record,
        415,
        status(415, `the body of the request was in an unknown format - accepted media types include: application/json-patch+json`),
      );
    const dryRun = query.dryRun === 'All';
    const refusal = patchRefusals.find((f) => refMatches(f.ref, info) && (f.dryRun || !dryRun));
    if (refusal) return reply(res, record, refusal.status, status(refusal.status, refusal.message));
    const rkey = `${r.group}/${r.name}`;
    const key = r.namespaced ? `${info.namespace}/${info.name}` : info.name;
    const stored = store.get(rkey, key);
    if (!stored) {
      const message = `${qualifiedResource({ group, resource: r.name })} "${info.name}" not found`;
      return reply(res, record, 404, status(404, message, { name: info.name, ...(group ? { group } : {}), kind: r.name }));
    }
    let patched: Obj;
    try {
      const ops = JSON.parse(body) as unknown;
      patched = scale ? withScale(stored, applyJsonPatch(scaleOf(stored), ops)) : applyJsonPatch(stored, ops);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return reply(res, record, 422, status(422, `the server rejected our request due to an error in our request: ${why}`));
    }
    if (dryRun) return reply(res, record, 200, scale ? scaleOf(patched) : patched);
    const m = metadataOf(patched);
    // The apiserver removes a terminating object whose last finalizer goes (R9).
    const finalizers = Array.isArray(m.finalizers) ? m.finalizers : [];
    if (m.deletionTimestamp && finalizers.length === 0) {
      store.delete(rkey, key);
      return reply(res, record, 200, patched);
    }
    const saved = store.put(rkey, key, patched);
    return reply(res, record, 200, scale ? scaleOf(saved) : saved);
  }

  function serveOther(res: ServerResponse, record: RequestRecord, path: string): void {
    if (['/healthz', '/livez', '/readyz'].includes(path)) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      record.status = 200;
      record.bytes += 2;
      bytes += 2;
      return;
    }
    // /openapi/v2 and /openapi/v3 too: kubectl get, api-resources and watch do without them.
    reply(res, record, 404, status(404, 'the server could not find the requested resource', {}));
  }

  function serveDiscovery(req: IncomingMessage, res: ServerResponse, record: RequestRecord, info: RequestInfo): void {
    if (record.verb !== 'discovery') {
      reply(res, record, 405, status(405, undefined, {}));
      return;
    }
    const notFound = () => reply(res, record, 404, status(404, 'the server could not find the requested resource', {}));
    const aggregated = acceptedForms(req.headers.accept).find((f) => f.as === 'discovery' || f.as === 'object');
    switch (info.discovery) {
      case 'version':
        return reply(res, record, 200, SERVER_VERSION);
      case 'api':
      case 'apis':
        if (aggregated?.as === 'discovery') {
          reply(res, record, 200, discovery.aggregated(info.discovery, aggregated.version), {
            'Content-Type': AGGREGATED_CONTENT_TYPE(aggregated.version),
          });
        } else if (info.discovery === 'api') {
          reply(res, record, 200, discovery.legacyApiVersions(`127.0.0.1:${port}`));
        } else {
          reply(res, record, 200, discovery.legacyGroupList());
        }
        return;
      case 'apiVersion':
        return info.version === 'v1' ? reply(res, record, 200, discovery.legacyCoreResources()) : notFound();
      case 'group': {
        const doc = discovery.legacyGroup(info.group ?? '');
        return doc ? reply(res, record, 200, doc) : notFound();
      }
      case 'groupVersion': {
        const [g, v] = [info.group ?? '', info.version ?? ''];
        if (discovery.isFailed(g, v)) return reply(res, record, 503, status(503));
        const doc = discovery.legacyResourceList(g, v);
        return doc ? reply(res, record, 200, doc) : notFound();
      }
    }
  }

  function serveResource(
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    info: RequestInfo,
    query: Record<string, string>,
  ): void {
    const group = info.group ?? '';
    const version = info.version ?? '';
    const notFound = () => reply(res, record, 404, status(404, 'the server could not find the requested resource', {}));
    if (discovery.isFailed(group, version)) return reply(res, record, 503, status(503));
    const r = discovery.resource(group, version, info.resource ?? '');
    if (!r) return notFound();
    // Cluster-scoped resources have no namespaced path (a Namespace's own requests carry its name as namespace).
    const namespace = r.namespaced ? info.namespace : undefined;
    if (!r.namespaced && info.namespace !== undefined && r.name !== 'namespaces') return notFound();
    if (info.subresource !== undefined && !(info.subresource === 'status' && r.subresources.some((s) => s.name === 'status'))) {
      return notFound();
    }
    if (WRITE_VERBS.has(info.verb) || info.verb === 'other') return reply(res, record, 405, status(405, undefined, {}));
    const verb = info.verb as 'get' | 'list' | 'watch';
    if (!r.verbs.includes(verb)) return reply(res, record, 405, status(405, undefined, {}));

    const denied = forbidden.find((f) => refMatches(f, info));
    if (denied) {
      const scope = namespace !== undefined ? `in the namespace "${namespace}"` : 'at the cluster scope';
      const message = `${qualifiedResource({ group, resource: r.name })} is forbidden: User "${TEST_USER}" cannot ${verb} resource "${r.name}" in API group "${group}" ${scope}`;
      return reply(
        res,
        record,
        403,
        status(403, message, { ...(info.name ? { name: info.name } : {}), ...(group ? { group } : {}), kind: r.name }),
      );
    }
    if (verb !== 'get') {
      const failure = failures.find((f) => f.remaining > 0 && refMatches(f.ref, info));
      if (failure) {
        failure.remaining--;
        const after = failure.retryAfter ?? (failure.status === 429 ? '1' : '');
        const retry = after !== '' ? { 'Retry-After': after } : undefined;
        const seconds = Number(after);
        const details = retry && Number.isInteger(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {};
        return reply(res, record, failure.status, status(failure.status, failure.message, details), retry);
      }
    }

    // Protobuf for metadata-only GETs and LISTs, unless this resource's server does not speak it (formats.ts).
    const hostileAnswer = verb === 'list' ? hostile.find((h) => refMatches(h.ref, info))?.answer : undefined;
    if (hostileAnswer?.kind === 'huge' || hostileAnswer?.kind === 'tiny') {
      record.status = 200;
      return sendHuge(
        res,
        hostileAnswer.bytes,
        (n) => {
          record.bytes += n;
          bytes += n;
        },
        hostileAnswer.kind === 'tiny' ? hostileAnswer.item : undefined,
      );
    }
    if (hostileAnswer?.kind === 'gzipBomb') {
      record.status = 200;
      record.contentEncoding = 'gzip';
      return sendGzipBomb(res, hostileAnswer.bytes, (n) => {
        record.bytes += n;
        bytes += n;
      });
    }
    const protobufServed =
      verb !== 'watch' && hostileAnswer?.kind !== 'items' && !jsonOnly.some((ref) => ref === 'all' || refMatches(ref, info));
    const accepted = acceptedForms(req.headers.accept).find(
      (f): f is Exclude<Form, { as: 'discovery' }> => f.as !== 'discovery' && !(f.as === 'metadata' && f.protobuf && !protobufServed),
    );
    const form = accepted && accepted.drop && !api.managedFieldsOptOut ? { ...accepted, drop: false } : accepted;
    if (!form) {
      return reply(res, record, 406, status(406, 'only the following media types are accepted: application/json'));
    }
    // A metadata form that does not fit the verb: 406 for a GET or a LIST; a watch is answered and then cut (watch.ts).
    const mismatch = verb !== 'watch' ? metadataFormMismatch(form, verb === 'list', r) : undefined;
    if (mismatch) return reply(res, record, 406, status(406, mismatch));
    const includeObject = query.includeObject || 'Metadata';
    const rkey = `${r.group}/${r.name}`;

    if (verb === 'get') {
      const obj = store.get(rkey, namespace !== undefined ? `${namespace}/${info.name}` : (info.name ?? ''));
      if (!obj) {
        const message = `${qualifiedResource({ group, resource: r.name })} "${info.name}" not found`;
        return reply(res, record, 404, status(404, message, { name: info.name, ...(group ? { group } : {}), kind: r.name }));
      }
      return reply(res, record, 200, objectBody(r, obj, form, includeObject), { 'Content-Type': contentType(form) });
    }

    let filter: Predicate | undefined;
    try {
      filter = both(parseLabelSelector(query.labelSelector ?? ''), parseFieldSelector(query.fieldSelector ?? '', r.name));
    } catch (err) {
      if (err instanceof SelectorError) return reply(res, record, 400, status(400, err.message));
      throw err;
    }
    if (verb === 'list') return serveList(hostileReply(res, hostileAnswer), record, r, rkey, namespace, filter, form, includeObject, query);
    if (info.name !== undefined) filter = both(filter, (o) => metadataOf(o).name === info.name);
    serveWatch(res, record, r, rkey, namespace, filter, form, includeObject, query);
  }

  /** reply() as a hostile answer says: the real answer trickled, with raw items appended, or in broken gzip. */
  function hostileReply(res: ServerResponse, answer: HostileAnswer | undefined): ReplyTo {
    if (!answer || answer.kind === 'huge' || answer.kind === 'tiny' || answer.kind === 'gzipBomb') return { res, reply };
    return {
      res,
      reply: (to, record, code, body, headers = {}) => {
        const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (answer.kind === 'corruptGzip') {
          if (code !== 200) return reply(to, record, code, text, headers);
          const sent = corruptGzip(Buffer.from(text), answer.how);
          to.writeHead(code, { 'Content-Type': 'application/json', ...headers, ...GZIP_HEADERS });
          to.end(sent);
          if (record) {
            record.status = code;
            record.contentEncoding = 'gzip';
            record.bytes += sent.length;
          }
          bytes += sent.length;
          return;
        }
        if (answer.kind === 'items')
          return reply(to, record, code, code === 200 ? withExtraItems(String(text), answer.items) : text, headers);
        if (record) record.status = code;
        sendTrickle(to, code, text, { 'Content-Type': 'application/json', ...headers }, answer.intervalMs, (n) => {
          if (record) record.bytes += n;
          bytes += n;
        });
      },
    };
  }

  function serveList(
    to: ReplyTo,
    record: RequestRecord,
    r: ResourceInfo,
    rkey: string,
    namespace: string | undefined,
    filter: Predicate | undefined,
    form: Form,
    includeObject: string,
    query: Record<string, string>,
  ): void {
    const res = to.res;
    const reply = to.reply;
    const limit = Number(query.limit ?? 0);
    let atRv: number | undefined;
    let start: string | undefined;
    if (query.continue) {
      const token = decodeContinue(query.continue);
      if (!token)
        return reply(
          res,
          record,
          400,
          status(400, 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'),
        );
      if (token.rv !== -1 && store.isExpired(token.rv)) {
        // Like the apiserver, hand out a token that continues inconsistently, from the current state.
        return reply(
          res,
          record,
          410,
          status(410, CONTINUE_EXPIRED, undefined, { metadata: { continue: encodeContinue(-1, token.start) } }),
        );
      }
      atRv = token.rv === -1 ? undefined : token.rv;
      start = token.start;
    } else if (query.resourceVersionMatch === 'Exact' && query.resourceVersion) {
      atRv = Number(query.resourceVersion);
      if (!Number.isInteger(atRv) || atRv <= 0)
        return reply(res, record, 400, status(400, `invalid resource version: ${query.resourceVersion}`));
      if (atRv > store.rv) return reply(res, record, 504, tooLargeResourceVersion(atRv, store.rv, 0));
    } else if (query.resourceVersionMatch === 'NotOlderThan' && query.resourceVersion) {
      // Served from the watch cache, which waits 3 s to catch up before it answers so (at once here), Retry-After: 1.
      const notOlder = Number(query.resourceVersion);
      if (!Number.isInteger(notOlder) || notOlder < 0)
        return reply(res, record, 400, status(400, `invalid resource version: ${query.resourceVersion}`));
      if (notOlder > store.rv) return reply(res, record, 504, tooLargeResourceVersion(notOlder, store.rv, 1), { 'Retry-After': '1' });
    }
    let result;
    try {
      result = store.list(rkey, {
        ...(namespace !== undefined ? { prefix: `${namespace}/` } : {}),
        ...(filter ? { filter } : {}),
        ...(limit > 0 ? { limit } : {}),
        ...(start !== undefined ? { start } : {}),
        ...(atRv !== undefined ? { atRv } : {}),
      });
    } catch (err) {
      if (err instanceof Expired) return reply(res, record, 410, status(410, `The resourceVersion for the provided list is too old.`));
      throw err;
    }
    const meta = {
      resourceVersion: String(result.rv),
      ...(result.next !== undefined ? { continue: encodeContinue(result.rv, result.next) } : {}),
      ...(result.remaining !== undefined ? { remainingItemCount: result.remaining } : {}),
    };
    reply(res, record, 200, listBody(r, result.items, meta, form, includeObject), { 'Content-Type': contentType(form) });
  }

  function serveWatch(
    res: ServerResponse,
    record: RequestRecord,
    r: ResourceInfo,
    rkey: string,
    namespace: string | undefined,
    filter: Predicate | undefined,
    form: Form,
    includeObject: string,
    query: Record<string, string>,
  ): void {
    if (namespace !== undefined) filter = both((o) => metadataOf(o).namespace === namespace, filter);
    const onBytes = (n: number) => {
      record.bytes += n;
      bytes += n;
    };
    const rvParam = query.resourceVersion ?? '';
    const sendInitialEvents = query.sendInitialEvents === 'true';
    let initial: StoreEvent[];
    if (sendInitialEvents || rvParam === '' || rvParam === '0') {
      // "Any" starting point: the current state as synthetic ADDED events, then changes.
      initial = store.all(rkey).map((obj) => ({ rv: store.rv, rkey, key: '', type: 'ADDED', obj }));
    } else {
      const rv = Number(rvParam);
      if (!Number.isInteger(rv) || rv < 0) return reply(res, record, 400, status(400, `invalid resource version: ${rvParam}`));
      try {
        initial = store.eventsSince(rkey, rv);
      } catch (err) {
        if (!(err instanceof Expired)) throw err;
        record.status = 200;
        watches.expired(res, err.message, onBytes);
        return;
      }
    }
    record.status = 200;
    const timeoutSeconds = Number(query.timeoutSeconds ?? 0);
    const gzipped = sendInitialEvents && asksGzip(record.acceptEncoding);
    if (gzipped) record.contentEncoding = 'gzip';
    watches.open(
      res,
      {
        rkey,
        resource: r,
        form,
        includeObject,
        onBytes,
        ...(filter ? { filter } : {}),
        bookmarks: query.allowWatchBookmarks === 'true' || query.allowWatchBookmarks === '1',
        ...(timeoutSeconds > 0 ? { timeoutSeconds } : {}),
        gzip: gzipped,
      },
      initial,
      sendInitialEvents,
    );
  }

  // ---- state changes by the test

  function resourceOf(apiVersion: unknown, kind: unknown): ResourceInfo {
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      throw new Error('kubeApiServer: an object needs a string apiVersion and kind');
    }
    const r = discovery.resourceForKind(groupOf(apiVersion), kind);
    if (!r) throw new Error(`kubeApiServer: nothing serves kind ${kind} of ${apiVersion} (add its CustomResourceDefinition first)`);
    return r;
  }

  function keyOf(r: ResourceInfo, namespace: unknown, name: unknown): string {
    if (typeof name !== 'string' || name === '') throw new Error(`kubeApiServer: a ${r.kind} needs metadata.name`);
    return r.namespaced ? `${typeof namespace === 'string' && namespace ? namespace : 'default'}/${name}` : name;
  }

  /** A fresh copy of `input` with the metadata the apiserver fills in, ready for the store. */
  function prepare(input: Obj, previous?: Obj, now = timestamp()): { r: ResourceInfo; key: string; obj: Obj } {
    const obj = JSON.parse(JSON.stringify(input)) as Obj;
    const r = resourceOf(obj.apiVersion, obj.kind);
    const metadata = metadataOf(obj);
    obj.metadata = metadata;
    if (r.namespaced) metadata.namespace = typeof metadata.namespace === 'string' && metadata.namespace ? metadata.namespace : 'default';
    else delete metadata.namespace;
    const old = previous ? metadataOf(previous) : {};
    metadata.uid ??= old.uid ?? randomUUID();
    metadata.creationTimestamp ??= old.creationTimestamp ?? now;
    return { r, key: keyOf(r, metadata.namespace, metadata.name), obj };
  }

  /** RFC 3339 in seconds, as the apiserver writes timestamps */
  function timestamp(): string {
    return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  }

  function isCrd(obj: Obj): boolean {
    return obj.kind === 'CustomResourceDefinition' && groupOf(String(obj.apiVersion)) === CRD_GROUP;
  }

  function addOne(input: Obj, bulk: boolean, now?: string): Obj {
    const { r, key, obj } = prepare(input, undefined, now);
    const rkey = `${r.group}/${r.name}`;
    if (store.get(rkey, key))
      throw new Error(`kubeApiServer: ${qualifiedResource({ group: r.group, resource: r.name })} "${key}" already exists`);
    if (isCrd(obj)) discovery.setCrd(obj);
    return store.put(rkey, key, obj, bulk);
  }

  function removeResources(resources: ResourceInfo[]): void {
    const gone = new Set(resources.map((x) => `${x.group}/${x.name}`));
    for (const rkey of gone) {
      for (const o of store.all(rkey)) {
        const m = metadataOf(o);
        store.delete(rkey, m.namespace ? `${String(m.namespace)}/${String(m.name)}` : String(m.name));
      }
      watches.endResource(rkey);
    }
  }

  const faults: KubeApiServerFaults = {
    forbid: (r) => void forbidden.push({ ...r }),
    fail: (r, o) =>
      void failures.push({ ref: { ...r }, status: o.status, remaining: o.times, retryAfter: o.retryAfter, message: o.message }),
    delay: (ms, r) => {
      if (!r) {
        delayAll = ms;
        if (ms <= 0) delays.length = 0;
        return;
      }
      const i = delays.findIndex((d) => d.ref.group === r.group && d.ref.resource === r.resource && d.ref.namespace === r.namespace);
      if (i >= 0) delays.splice(i, 1);
      if (ms > 0) delays.push({ ref: { ...r }, ms });
    },
    hostile: (r, answer) => void hostile.push({ ref: { ...r }, answer }),
    rawWatchEvent: (r, line) => watches.raw(`${r.group}/${r.resource}`, line),
    failDiscovery: (gv) => discovery.failGroupVersion(gv),
    dropWatches: () => watches.dropAll(),
    stallWatches: () => watches.stall(),
    dropWatchesAfter: (n) => {
      watches.dropAfter = n;
    },
    compact: () => store.compact(),
    jsonOnly: (r) => void jsonOnly.push(r ? { ...r } : 'all'),
    rejectPatches: (r, o) => void patchRefusals.push({ ref: { ...r }, status: o.status, message: o.message, dryRun: o.dryRun ?? true }),
    clear: () => {
      patchRefusals.length = 0;
      forbidden.length = 0;
      jsonOnly.length = 0;
      failures.length = 0;
      hostile.length = 0;
      delays.length = 0;
      delayAll = 0;
      discovery.clearFailures();
      watches.dropAfter = 0;
    },
  };

  const api: KubeApiServer = {
    url,
    managedFieldsOptOut: opts.managedFieldsOptOut ?? false,
    kubeconfig: (o) => kubeconfigText(url, caPem, token, o),
    writeKubeconfig: (dir, o) => {
      const path = join(dir, 'kubeconfig');
      writeFileSync(path, kubeconfigText(url, caPem, token, o));
      return path;
    },
    add: (obj) => JSON.parse(JSON.stringify(addOne(obj, false))) as Obj,
    addMany: (objs) => {
      const now = timestamp();
      for (const obj of objs) addOne(obj, true, now);
    },
    update: (input) => {
      const probe = prepare(input);
      const rkey = `${probe.r.group}/${probe.r.name}`;
      const previous = store.get(rkey, probe.key);
      if (!previous) throw new Error(`kubeApiServer: update of ${rkey} "${probe.key}", which is not stored`);
      const { obj } = prepare(input, previous);
      if (isCrd(obj)) {
        const before = discovery.deleteCrd(String(metadataOf(obj).name));
        const after = discovery.setCrd(obj);
        removeResources(before.filter((b) => !after.some((a) => a.group === b.group && a.name === b.name)));
      }
      return JSON.parse(JSON.stringify(store.put(rkey, probe.key, obj))) as Obj;
    },
    remove: (ref) => {
      const r = resourceOf(ref.apiVersion, ref.kind);
      const rkey = `${r.group}/${r.name}`;
      const key = keyOf(r, ref.namespace, ref.name);
      const obj = store.get(rkey, key);
      if (!obj) throw new Error(`kubeApiServer: remove of ${rkey} "${key}", which is not stored`);
      if (isCrd(obj)) {
        // Like the apiserver's CRD finalizer: its custom resources go first (DELETED events), then its watches end.
        removeResources(discovery.deleteCrd(ref.name));
      }
      store.delete(rkey, key);
    },
    objects: () => store.resourceKeys().flatMap((rkey) => store.all(rkey).map((o) => JSON.parse(JSON.stringify(o)) as Obj)),
    resourceVersion: () => String(store.rv),
    faults,
    requests,
    countByVerb: () => {
      const counts: Record<string, number> = {};
      for (const r of requests) counts[r.verb] = (counts[r.verb] ?? 0) + 1;
      return counts;
    },
    writes: () => requests.filter((r) => WRITE_VERBS.has(r.verb)).length,
    bytesSent: () => bytes,
    resetLog: () => {
      requests.length = 0;
      bytes = 0;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const d of pendingDelays) {
        clearTimeout(d.timer);
        d.resolve();
      }
      pendingDelays.clear();
      await watches.endAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return api;
}

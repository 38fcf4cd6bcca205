// The only code that talks to a Kubernetes API server. It can send GET and nothing else: there is no method
// parameter anywhere, so no code path of the product can create, change or delete anything in a cluster.
// Authentication and TLS come from @kubernetes/client-node (kubeconfig.ts) per request, so exec plugins and
// OIDC tokens are refreshed as the library decides; connections are kept alive and reused. Every answer is bounded
// (limits.ts): its bytes are counted while they arrive and the reading stops at the cap, a GET has a total deadline,
// and text the server provides is cut before it becomes a message. Answers are asked gzip-compressed, as client-go
// asks (kube-apiserver compresses those over 128 KiB), and decompressed as they arrive: every cap counts the
// decompressed bytes, and the compressed ones too.

import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as tls from 'node:tls';
import * as zlib from 'node:zlib';
import type { ClusterTarget } from './kubeconfig';
import {
  formatBytes,
  formatSeconds,
  MAX_ERROR_BODY_BYTES,
  MAX_RETRY_WAIT_MS,
  resolveLimits,
  serverText,
  structuralBytes,
  type ApiLimits,
  type ListBudget,
  type ResolvedLimits,
} from './limits';
import { withoutManagedFields } from './managedFields';
import { decodeProtobuf, PROTOBUF_MEDIA_TYPE, ProtobufError } from './protobuf';

/** A failed request, in the API's own terms when the server answered with a Status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** metav1.Status reason (Forbidden, NotFound, Expired, …) or a transport error code (ECONNREFUSED…). */
    readonly reason: string,
    message: string,
    readonly path: string,
    /** A 429 or 5xx answer's Retry-After (whole seconds), when it had one: the request may be retried then. */
    readonly retryAfterSeconds?: number,
    /** The Status's details.causes types (`ResourceVersionTooLarge`…), when it had any. */
    readonly causes: readonly string[] = [],
  ) {
    super(message);
  }

  /**
   * The resourceVersion asked for is newer than the server's (client-go's isTooLargeResourceVersionError): the
   * ResourceVersionTooLarge cause, or from servers before 1.17.0-1.18.5 a 504 Timeout that says so in its message.
   */
  get resourceVersionTooLarge(): boolean {
    if (this.causes.includes('ResourceVersionTooLarge')) return true;
    return (this.status === 504 || this.reason === 'Timeout') && this.message.includes('Too large resource version');
  }

  /** 410 Gone: a resourceVersion or continue token the server no longer has. */
  get expired(): boolean {
    return this.status === 410 || this.reason === 'Expired' || this.reason === 'Gone';
  }
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Record<string, unknown>;
}

export interface ApiStats {
  requests: number;
  /** Response body bytes as they came over the wire (compressed where the server compressed them). */
  bytes: number;
  /** The same bodies decompressed: what was parsed. Equals `bytes` where nothing was compressed. */
  decodedBytes: number;
  /** Answers the server sent in protobuf (the rest were JSON). */
  protobufAnswers: number;
  /** Answers the server sent gzip-compressed. */
  gzipAnswers: number;
}

/**
 * Asked of every object we read: leave metadata.managedFields out. Kubernetes 1.38's ManagedFieldsOptOut (alpha, a
 * feature gate of the apiserver) honours it in every form and verb; older servers ignore parameters they do not know
 * (negotiation keeps them as "unrecognized"), so it costs nothing where it does not help. Nothing here reads them.
 */
const DROP = 'drop=metadata.managedFields';
const METADATA_LIST = 'as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/**
 * A watch's events carry one object each, so it is asked as PartialObjectMetadata (as client-go's metadata client asks):
 * a real apiserver answers a watch asked as PartialObjectMetadataList with 200 and then cuts the stream at its first
 * event, having sent nothing ("you requested PartialObjectMetadataList, but the requested object is not a list").
 */
const METADATA_OBJECT = 'as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/**
 * A metadata-only LIST, asked as kube-controller-manager's garbage collector asks (client-go's metadata client):
 * protobuf first, which skips managedFields cheaply when they come (protobuf.ts), then JSON for servers that do not
 * speak it (some aggregated APIs), then a plain JSON answer.
 */
export const ACCEPT_METADATA_LIST = `${PROTOBUF_MEDIA_TYPE};${METADATA_LIST};${DROP},application/json;${METADATA_LIST};${DROP},application/json;${DROP}`;
/** Metadata-only watches are read as JSON: newline-delimited events (a protobuf watch is length-framed). */
export const ACCEPT_METADATA_WATCH = `application/json;${METADATA_OBJECT};${DROP},application/json;${DROP}`;
/** Objects read in full (the kinds whose spec the simulation needs). */
export const ACCEPT_OBJECTS = `application/json;${DROP}`;
/** Documents that are not objects (discovery). */
export const ACCEPT_JSON = 'application/json';

export interface ReadOptions {
  /**
   * Skip every object's metadata.managedFields in the bytes, before parsing (managedFields.ts): for responses
   * whose schema has no other array-valued "managedFields" (metadata-only ones, built-in kinds). Nothing here reads them.
   */
  withoutManagedFields?: boolean;
  /** The bytes left to the LIST this page belongs to (ApiClient.listBudget), spent as pages are read. */
  budget?: ListBudget;
}

const USER_AGENT = 'kube-gc-lens (read-only)';
const NEWLINE = 0x0a;

export class ApiClient {
  readonly stats: ApiStats = { requests: 0, bytes: 0, decodedBytes: 0, protobufAnswers: 0, gzipAnswers: 0 };
  readonly limits: ResolvedLimits;
  private readonly base: URL;
  private agent: http.Agent | undefined;
  private readonly open = new Set<http.ClientRequest>();

  constructor(
    private readonly target: ClusterTarget,
    limits: ApiLimits = {},
  ) {
    this.base = new URL(target.server);
    this.limits = resolveLimits(limits);
  }

  /** A fresh byte budget for one LIST of `path`, all its pages together. */
  listBudget(path: string): ListBudget {
    return { left: this.limits.maxListBytes, limit: this.limits.maxListBytes, what: path };
  }

  /**
   * GET a document: JSON, or a protobuf answer (when `accept` allows one) read into the shape its JSON form parses to.
   * Errors are ApiErrors with the server's Status reason and message. A 429 (or 5xx) with Retry-After is retried as
   * client-go does (at most `maxRetries` times), all within the request deadline; an answer past the byte cap, or
   * one not complete by the deadline, is an error that says which.
   */
  async getJson<T = Record<string, unknown>>(path: string, accept = ACCEPT_JSON, signal?: AbortSignal, read: ReadOptions = {}): Promise<T> {
    const { requestTimeoutMs, maxRetries } = this.limits;
    // This request's own signal: the caller's abort, or the deadline (which also cuts a wait between retries).
    const own = new AbortController();
    const forward = () => own.abort();
    if (signal?.aborted) own.abort();
    else signal?.addEventListener('abort', forward, { once: true });
    // The clock starts once the credentials are there: an exec plugin's interactive login is the user's time, not the
    // server's (kubectl's default is no deadline at all, so a first login there is never cut either).
    let deadline = Infinity;
    let late = false;
    let timer: NodeJS.Timeout | undefined;
    const startClock = () => {
      if (requestTimeoutMs <= 0 || timer) return;
      deadline = Date.now() + requestTimeoutMs;
      timer = setTimeout(() => {
        late = true;
        own.abort();
      }, requestTimeoutMs);
    };
    const lateError = () =>
      new ApiError(
        0,
        'DeadlineExceeded',
        `GET ${path} did not complete within ${formatSeconds(requestTimeoutMs)} (the request deadline)`,
        path,
      );
    try {
      for (let retry = 0; ; retry++) {
        try {
          return await this.getOnce<T>(path, accept, own.signal, read, startClock);
        } catch (e) {
          if (late) throw lateError();
          // A resourceVersion newer than the server's: asking again at once brings the same (the caller lists anew).
          if (!(e instanceof ApiError) || e.retryAfterSeconds === undefined || signal?.aborted || e.resourceVersionTooLarge) throw e;
          const why = `${e.status} ${e.reason}`;
          // Both keep retryAfterSeconds: the caller knows the server's wish was already honoured (or could not be).
          if (retry >= maxRetries)
            throw new ApiError(e.status, e.reason, `${e.message} (${why}, still after ${retry} retries)`, path, e.retryAfterSeconds);
          // client-go waits what Retry-After says; a 0 still backs off a little, so a server that says "now" is not hammered.
          const wait = e.retryAfterSeconds > 0 ? e.retryAfterSeconds * 1000 : Math.min(100 * 2 ** retry, 1000);
          if (Date.now() + wait > deadline || (requestTimeoutMs <= 0 && wait > MAX_RETRY_WAIT_MS)) {
            const limit =
              requestTimeoutMs > 0
                ? 'is past the request deadline'
                : `is longer than the ${formatSeconds(MAX_RETRY_WAIT_MS)} this client waits at once`;
            throw new ApiError(
              e.status,
              e.reason,
              `${e.message} (${why}; its Retry-After of ${e.retryAfterSeconds} s ${limit})`,
              path,
              e.retryAfterSeconds,
            );
          }
          await this.limits.sleep(wait, own.signal);
          if (late) throw lateError();
          if (own.signal.aborted) throw abortError(path);
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }

  private async getOnce<T>(path: string, accept: string, signal: AbortSignal, read: ReadOptions, authenticated: () => void): Promise<T> {
    const res = await this.request(path, accept, signal, false, authenticated);
    const code = res.statusCode ?? 0;
    if (code >= 400) {
      // An error's body is a Status of a few KB: a longer one is not read, the HTTP status says enough.
      const body = await readBody(res, this.stats, MAX_ERROR_BODY_BYTES, () => new ApiError(code, 'TooLarge', '', path), path).catch(
        (e: unknown) => {
          if (e instanceof ApiError && e.reason === 'TooLarge') return Buffer.alloc(0);
          throw e;
        },
      );
      if (!isProtobuf(res)) throw statusError(code, body.toString('utf8'), path, retryAfter(res));
      let status: Record<string, unknown> = {};
      try {
        status = decodeProtobuf(body, 0);
      } catch {
        // not a readable Status: the HTTP status speaks
      }
      throw statusError(code, status, path, retryAfter(res));
    }
    const budget = read.budget;
    const max = budget ? Math.min(this.limits.maxAnswerBytes, budget.left) : this.limits.maxAnswerBytes;
    const tooLarge = () =>
      budget && budget.left < this.limits.maxAnswerBytes
        ? new ApiError(
            code,
            'TooLarge',
            `the LIST of ${budget.what} is larger than ${formatBytes(budget.limit)} in all (the limit of one LIST), so it was not read`,
            path,
          )
        : new ApiError(
            code,
            'TooLarge',
            `the answer to GET ${path} is larger than ${formatBytes(this.limits.maxAnswerBytes)} (the limit of one answer), so it was not read`,
            path,
          );
    const maxValues = this.limits.maxAnswerValues;
    const tooMany = () =>
      new ApiError(
        code,
        'TooLarge',
        `the answer to GET ${path} holds more than ${maxValues.toLocaleString('en-US')} values (the limit of one answer), so it was not read`,
        path,
      );
    const bytes = await readBody(res, this.stats, max, tooLarge, path, isProtobuf(res) ? undefined : { max: maxValues, tooMany });
    if (budget) budget.left -= bytes.length;
    if (isProtobuf(res)) {
      this.stats.protobufAnswers++;
      let doc: Record<string, unknown>;
      try {
        doc = decodeProtobuf(bytes, Math.floor(maxValues / 4));
      } catch (e) {
        if (e instanceof ProtobufError && e.tooManyItems) throw tooMany();
        throw new ApiError(
          code,
          'BadResponse',
          `the server's protobuf answer to GET ${path} cannot be read: ${serverText(e instanceof ProtobufError ? e.message : String(e))}`,
          path,
        );
      }
      return doc as T;
    }
    const body = (read.withoutManagedFields ? withoutManagedFields(bytes) : bytes).toString('utf8');
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new ApiError(code, 'BadResponse', `the server's answer to GET ${path} is not JSON`, path);
    }
  }

  /**
   * GET a watch stream: calls `onEvent` for every event, resolves when the server ends the stream (a watch
   * timeout) and rejects on a transport error or an error status. Aborting the signal ends it quietly. With
   * `idleMs`, a watch that receives no byte for that long (not even a bookmark, or no answer at all) is presumed
   * dead, as a TCP connection that died silently would be: it is cut and the promise rejects with reason `Idle`.
   */
  async watch(
    path: string,
    accept: string,
    onEvent: (e: WatchEvent) => void,
    signal: AbortSignal,
    idleMs = 0,
    read: ReadOptions = {},
  ): Promise<void> {
    // This request's own signal: the caller's abort, or the idle timer.
    const own = new AbortController();
    const forward = () => own.abort();
    if (signal.aborted) own.abort();
    else signal.addEventListener('abort', forward, { once: true });
    let idle = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (idleMs <= 0) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        own.abort();
      }, idleMs);
    };
    const idleError = () =>
      new ApiError(
        0,
        'Idle',
        `the watch ${path} received nothing for ${Math.round(idleMs / 1000)} s, so its connection is presumed dead`,
        path,
      );
    const dropped = () => new ApiError(0, 'ConnectionDropped', `the watch ${path} was cut off`, path);
    let gunzip: Readable | undefined;
    try {
      arm();
      const res = await this.request(path, accept, own.signal, true);
      if ((res.statusCode ?? 0) >= 400) {
        const tooLarge = () =>
          new ApiError(
            res.statusCode ?? 0,
            'TooLarge',
            `the error answer to GET ${path} is larger than ${formatBytes(this.limits.maxAnswerBytes)}`,
            path,
          );
        throw statusError(
          res.statusCode ?? 0,
          (await readBody(res, this.stats, this.limits.maxAnswerBytes, tooLarge, path)).toString('utf8'),
          path,
        );
      }
      arm();
      const maxLine = this.limits.maxAnswerBytes;
      const { body, gzip, stop: stopBody } = decodedBody(res, this.stats, path);
      if (gzip) gunzip = body;
      await new Promise<void>((resolve, reject) => {
        // Bytes, split on newlines (never part of a multi-byte UTF-8 sequence): each line is decoded once, whole. The
        // pieces of a line still open are kept apart and joined once, when it ends (or refused past the answer cap).
        const pending: Buffer[] = [];
        let pendingBytes = 0;
        /** Why we cut the stream ourselves: what the watch rejects with, whichever event comes first. */
        let cause: Error | undefined;
        const stop = (e: Error) => {
          cause ??= e;
          res.destroy(e);
          if (gzip) stopBody();
        };
        const handle = (raw: Buffer): boolean => {
          const line = (read.withoutManagedFields ? withoutManagedFields(raw) : raw).toString('utf8').trim();
          if (!line) return true;
          let event: WatchEvent;
          try {
            event = JSON.parse(line) as WatchEvent;
          } catch {
            stop(new ApiError(0, 'BadResponse', `a watch event from GET ${path} is not JSON`, path));
            return false;
          }
          if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
            stop(new ApiError(0, 'BadResponse', `a watch event from GET ${path} is not an object with a type`, path));
            return false;
          }
          try {
            onEvent(event);
          } catch (e) {
            stop(e instanceof Error ? e : new Error(String(e)));
            return false;
          }
          return true;
        };
        // Any byte on the wire shows the connection alive (an event may span gzip blocks).
        res.on('data', (chunk: Buffer) => {
          arm();
          this.stats.bytes += chunk.length;
        });
        body.on('data', (chunk: Buffer) => {
          if (cause) return;
          this.stats.decodedBytes += chunk.length;
          let start = 0;
          let nl: number;
          while ((nl = chunk.indexOf(NEWLINE, start)) >= 0) {
            let raw = chunk.subarray(start, nl);
            if (pending.length) {
              raw = Buffer.concat([...pending, raw]);
              pending.length = 0;
              pendingBytes = 0;
            }
            start = nl + 1;
            if (!handle(raw)) return;
          }
          if (start < chunk.length) {
            pending.push(chunk.subarray(start));
            pendingBytes += chunk.length - start;
            if (pendingBytes > maxLine) {
              pending.length = 0;
              stop(
                new ApiError(
                  0,
                  'TooLarge',
                  `a watch event from GET ${path} is larger than ${formatBytes(maxLine)} (the limit of one answer)`,
                  path,
                ),
              );
            }
          }
        });
        body.on('end', () => (cause ? reject(cause) : resolve()));
        if (gzip) body.on('error', (e) => stop(gzipError(e, 200, path)));
        res.on('aborted', () => reject(cause ?? (idle ? idleError() : dropped())));
        res.on('error', (e) => reject(cause ?? (idle ? idleError() : signal.aborted ? abortError(path) : transportError(e, path))));
        // A whole gzip stream may still be decompressing when the response closes: its end (or error) settles it.
        res.on('close', () =>
          cause
            ? reject(cause)
            : idle
              ? reject(idleError())
              : signal.aborted
                ? resolve()
                : res.complete
                  ? gzip
                    ? undefined
                    : resolve()
                  : reject(dropped()),
        );
      });
    } catch (e) {
      if (idle) throw idleError();
      throw e;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
      gunzip?.destroy(); // its native memory, however the watch ended
    }
  }

  /** Ends every request in flight and the kept-alive connections. */
  close(): void {
    for (const req of this.open) req.destroy();
    this.open.clear();
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async request(
    path: string,
    accept: string,
    signal: AbortSignal | undefined,
    streaming: boolean,
    authenticated?: () => void,
  ): Promise<http.IncomingMessage> {
    if (signal?.aborted) throw abortError(path);
    const opts: https.RequestOptions = { headers: {} };
    // Applies the kubeconfig's TLS material and credentials (token, client certificate, exec plugin, OIDC…).
    await this.target.applyAuth(opts);
    authenticated?.();
    if (signal?.aborted) throw abortError(path);
    // gzip as client-go asks it (Go's transport): the apiserver compresses answers over 128 KiB, full LISTs 5-10 times.
    const headers = { ...(opts.headers as Record<string, string>), Accept: accept, 'Accept-Encoding': 'gzip', 'User-Agent': USER_AGENT };
    const url = new URL(this.base.pathname.replace(/\/$/, '') + path, this.base);
    const isHttps = url.protocol === 'https:';
    const agent = this.target.proxied ? opts.agent : (this.agent ??= makeAgent(isHttps, opts));
    this.stats.requests++;
    return new Promise((resolve, reject) => {
      const req = (isHttps ? https : http).request(
        {
          method: 'GET',
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers,
          agent,
          auth: opts.auth,
          signal,
          // No response within this time: the connection is presumed dead. Watches get a longer budget.
          timeout: streaming ? 0 : 60_000,
        },
        (res) => {
          res.on('close', () => this.open.delete(req));
          resolve(res);
        },
      );
      this.open.add(req);
      req.on('timeout', () => req.destroy(new ApiError(0, 'Timeout', `GET ${path} got no answer within 60 s`, path)));
      req.on('error', (e) => {
        this.open.delete(req);
        reject(signal?.aborted ? abortError(path) : transportError(e, path));
      });
      req.end();
    });
  }
}

/**
 * One agent per client: connections kept alive and reused (no limit on sockets: each watch holds one), TLS sessions
 * resumed, and one TLS context for every connection (made from the kubeconfig's CA and client certificate once,
 * rather than parsed again for each new socket).
 */
function makeAgent(isHttps: boolean, opts: https.RequestOptions): http.Agent {
  if (!isHttps) return new http.Agent({ keepAlive: true });
  const secureContext = tls.createSecureContext({
    ca: opts.ca,
    cert: opts.cert,
    key: opts.key,
    pfx: opts.pfx,
    passphrase: opts.passphrase,
  });
  return new https.Agent({
    keepAlive: true,
    secureContext,
    servername: opts.servername,
    rejectUnauthorized: opts.rejectUnauthorized,
  });
}

/**
 * The body as sent: the response itself, or, gzip-compressed, a gunzip stream it is piped into (multi-member streams
 * too: a 1.37 watch-list closes a member per flush), so nothing is inflated faster than it is read. Another encoding
 * was not asked for: an ApiError. `stop` ends both.
 */
function decodedBody(res: http.IncomingMessage, stats: ApiStats, path: string): { body: Readable; gzip: boolean; stop: () => void } {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (encoding === '' || encoding === 'identity') return { body: res, gzip: false, stop: () => res.destroy() };
  if (encoding !== 'gzip' && encoding !== 'x-gzip') {
    res.destroy();
    throw new ApiError(
      res.statusCode ?? 0,
      'BadResponse',
      `the server answered GET ${path} in the content encoding "${serverText(encoding, 64)}", which was not asked for`,
      path,
    );
  }
  stats.gzipAnswers++;
  const gunzip = zlib.createGunzip();
  res.pipe(gunzip);
  return {
    body: gunzip,
    gzip: true,
    stop: () => {
      res.destroy();
      gunzip.destroy();
    },
  };
}

/** A gzip stream that does not decompress (corrupt, cut short, not gzip at all): this answer only. */
function gzipError(e: unknown, code: number, path: string): ApiError {
  const why =
    (e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? 'it ends too early' : serverText((e as Error).message ?? String(e), 100);
  return new ApiError(code, 'BadResponse', `the server's gzip-compressed answer to GET ${path} cannot be decompressed (${why})`, path);
}

/**
 * The body, counted while it arrives: past `max` bytes, compressed or decompressed (or a Content-Length above it), the
 * reading stops, what was read is dropped and the connection is closed, so an oversized or endless answer, or a gzip
 * bomb, costs at most `max` bytes of memory. With `values` (a JSON answer), its values are counted too once it is
 * longer than their cap (each takes a byte at least, so a shorter one cannot hold more): many tiny values stop the
 * reading early, before parsing could allocate them.
 */
function readBody(
  res: http.IncomingMessage,
  stats: ApiStats,
  max: number,
  tooLarge: () => ApiError,
  path: string,
  values?: { max: number; tooMany: () => ApiError },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let wire = 0;
    let size = 0;
    let counted = 0;
    let structural = 0;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(e);
    };
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      fail(tooLarge());
      res.destroy();
      return;
    }
    let decoded: ReturnType<typeof decodedBody>;
    try {
      decoded = decodedBody(res, stats, path);
    } catch (e) {
      return fail(e as Error);
    }
    const { body, gzip, stop } = decoded;
    const over = (e: ApiError) => {
      fail(e);
      stop();
    };
    // Compressed bytes are capped too: endless empty gzip members would decompress to nothing.
    if (gzip) {
      res.on('data', (c: Buffer) => {
        stats.bytes += c.length;
        wire += c.length;
        if (wire > max) over(tooLarge());
      });
    }
    body.on('data', (c: Buffer) => {
      if (settled) return;
      if (!gzip) stats.bytes += c.length;
      stats.decodedBytes += c.length;
      size += c.length;
      if (size > max) return over(tooLarge());
      chunks.push(c);
      if (values && size > values.max) {
        for (; counted < chunks.length; counted++) {
          structural += structuralBytes(chunks[counted], values.max - structural);
          if (structural + 1 > values.max) return over(values.tooMany());
        }
      }
    });
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    const cut = () => new ApiError(0, 'ConnectionDropped', `the answer to GET ${path} was cut off`, path);
    if (gzip) body.on('error', (e) => fail(gzipError(e, res.statusCode ?? 0, path)));
    res.on('error', (e) => fail(e instanceof ApiError ? e : cut()));
    res.on('aborted', () => fail(cut()));
    // A whole gzip answer may still be decompressing when the response closes: its end (or error) settles it.
    res.on('close', () => (gzip && res.complete ? undefined : fail(cut())));
  });
}

/** Retry-After in whole seconds, on the answers client-go retries (429 and 5xx); undefined otherwise. */
function retryAfter(res: http.IncomingMessage): number | undefined {
  const code = res.statusCode ?? 0;
  if (code !== 429 && code < 500) return undefined;
  const v = res.headers['retry-after'];
  if (typeof v !== 'string' || !/^\s*\d{1,9}\s*$/.test(v)) return undefined;
  return Number(v);
}

function isProtobuf(res: http.IncomingMessage): boolean {
  return (res.headers['content-type'] ?? '').toLowerCase().startsWith(PROTOBUF_MEDIA_TYPE);
}

/**
 * An error status as the API reports it (a metav1.Status body: JSON text, or already read from protobuf), or a plain
 * sentence when the body is not one.
 */
export function statusError(status: number, body: string | Record<string, unknown>, path: string, retryAfterSeconds?: number): ApiError {
  let reason = httpReason(status);
  let message = `GET ${path} answered ${status} ${reason}`;
  let causes: string[] = [];
  try {
    const s = (typeof body === 'string' ? JSON.parse(body) : body) as { kind?: unknown; reason?: unknown; message?: unknown };
    if (s && s.kind === 'Status') {
      // The server's words, cut: a hostile server cannot flood what is printed.
      if (typeof s.reason === 'string' && s.reason) reason = serverText(s.reason, 64);
      if (typeof s.message === 'string' && s.message) message = serverText(s.message);
      causes = statusCauses(s);
    }
  } catch {
    // not a Status: keep the plain sentence
  }
  return new ApiError(status, reason, message, path, retryAfterSeconds, causes);
}

/** A metav1.Status's details.causes[].type (`reason` in JSON, as metav1.StatusCause names it), at most 8, each cut. */
export function statusCauses(s: unknown): string[] {
  const details = typeof s === 'object' && s !== null ? (s as { details?: unknown }).details : undefined;
  const causes = typeof details === 'object' && details !== null ? (details as { causes?: unknown }).causes : undefined;
  if (!Array.isArray(causes)) return [];
  return causes
    .slice(0, 8)
    .map((c: unknown) => (typeof c === 'object' && c !== null ? (c as { reason?: unknown }).reason : undefined))
    .filter((t): t is string => typeof t === 'string' && t !== '')
    .map((t) => serverText(t, 64));
}

function httpReason(status: number): string {
  switch (status) {
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'NotFound';
    case 410:
      return 'Gone';
    case 429:
      return 'TooManyRequests';
    case 500:
      return 'InternalError';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return `HTTP${status}`;
  }
}

function transportError(e: unknown, path: string): ApiError {
  if (e instanceof ApiError) return e;
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? 'ConnectionError';
  return new ApiError(0, code, `GET ${path} failed: ${err.message ?? String(e)}`, path);
}

function abortError(path: string): ApiError {
  return new ApiError(0, 'Aborted', `GET ${path} was cancelled`, path);
}

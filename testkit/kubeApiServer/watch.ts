// Open watch connections: newline-delimited JSON events, one chunk per event. Store events reach them synchronously,
// so a watch started from a resourceVersion loses nothing between its replay and the live stream.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { ResourceInfo } from './discovery';
import { type Form, metadataJson, objectJson, servedForm, status, table } from './formats';
import type { Obj, Predicate } from './selectors';
import type { StoreEvent } from './store';

export interface WatchOptions {
  rkey: string;
  resource: ResourceInfo;
  filter?: Predicate;
  form: Form;
  includeObject: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  /**
   * gzip, as 1.37's WatchListCompression does for a watch-list (sendInitialEvents) that asks for it: a gzip member per
   * flush (here per event), Content-Encoding: gzip; other watches are never compressed (handlers/watch.go).
   */
  gzip?: boolean;
  /** counts the bytes written on the request's record */
  onBytes(n: number): void;
}

interface Conn extends WatchOptions {
  res: ServerResponse;
  /** The resourceVersion when the watch opened: only a later one is worth a bookmark. */
  openedRv: number;
  events: number;
  tableHeadersSent: boolean;
  timer?: NodeJS.Timeout;
  done: boolean;
  /** stall(): open but silent, as a connection that died without a FIN */
  stalled?: boolean;
}

/** The headers kube-apiserver adds to a compressed answer (responsewriters/writers.go, handlers/watch.go). */
export const GZIP_HEADERS = { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' };

/** Whether Accept-Encoding asks for gzip as the apiserver reads it: a comma-separated token exactly `gzip` (compression.go). */
export function asksGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((t) => t.trim() === 'gzip');
}

export class Watches {
  /** destroy each connection after this many events (0 = never) */
  dropAfter = 0;
  private readonly conns = new Set<Conn>();
  private bookmarkTimer?: NodeJS.Timeout;

  constructor(
    private readonly bookmarkIntervalMs: number,
    private readonly currentRv: () => number,
  ) {}

  /** Starts the stream: headers, then `initial` (a replay or synthetic ADDED events), then live events. */
  open(res: ServerResponse, opts: WatchOptions, initial: StoreEvent[], initialEventsEnd = false): void {
    const conn: Conn = { ...opts, res, openedRv: this.currentRv(), events: 0, tableHeadersSent: false, done: false };
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...(opts.gzip ? GZIP_HEADERS : {}) });
    res.flushHeaders();
    this.conns.add(conn);
    res.on('close', () => this.forget(conn));
    if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0) {
      conn.timer = setTimeout(() => this.end(conn), opts.timeoutSeconds * 1000);
    }
    // The initial burst (possibly every object of the resource) goes out in as few packets as possible.
    res.cork();
    for (const e of initial) {
      if (conn.done) break;
      this.deliver(conn, e);
    }
    if (initialEventsEnd && conn.bookmarks) this.bookmark(conn, { 'k8s.io/initial-events-end': 'true' });
    res.uncork();
    this.updateBookmarkTimer();
  }

  /** A watch that starts too late: 200, one ERROR event with a 410 Expired Status, end (as the apiserver does). */
  expired(res: ServerResponse, message: string, onBytes: (n: number) => void): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    const line = `${JSON.stringify({ type: 'ERROR', object: status(410, message) })}\n`;
    onBytes(Buffer.byteLength(line));
    res.end(line);
  }

  dispatch(e: StoreEvent): void {
    for (const conn of this.conns) if (conn.rkey === e.rkey) this.deliver(conn, e);
  }

  /** Sends one raw line (anything, malformed included) to every open watch of a resource. */
  raw(rkey: string, line: string): void {
    for (const conn of this.conns) if (conn.rkey === rkey) this.write(conn, `${line}\n`);
  }

  /** Ends the watches of a resource that stopped being served (its CRD was deleted). */
  endResource(rkey: string): void {
    for (const conn of this.conns) if (conn.rkey === rkey) this.end(conn);
  }

  /**
   * Every open connection goes silent without closing (a TCP connection that died without a FIN or RST): no more
   * events, bookmarks or end at timeoutSeconds. Connections opened later are not affected.
   */
  stall(): void {
    for (const conn of this.conns) {
      conn.stalled = true;
      clearTimeout(conn.timer);
    }
  }

  /** Destroys every connection: no final event, no end of the chunked stream. */
  dropAll(): void {
    for (const conn of this.conns) this.destroy(conn);
  }

  /** Ends every watch cleanly; resolves once the ends are flushed (or the connections gone). */
  endAll(): Promise<void> {
    const ended = [...this.conns].map(
      (conn) =>
        new Promise<void>((resolve) => {
          conn.res.once('finish', resolve).once('close', resolve);
          this.end(conn);
        }),
    );
    return Promise.all(ended).then(() => undefined);
  }

  /** Selector transitions as the apiserver's watch cache makes them: entering is ADDED, leaving is DELETED. */
  private deliver(conn: Conn, e: StoreEvent): void {
    const pass = (o: Obj | undefined) => o !== undefined && (!conn.filter || conn.filter(o));
    const was = pass(e.prev);
    const is = e.type !== 'DELETED' && pass(e.obj);
    if (e.type === 'DELETED') {
      if (was) this.send(conn, 'DELETED', e.obj);
    } else if (is) {
      this.send(conn, was ? 'MODIFIED' : 'ADDED', e.obj);
    } else if (was && e.prev) {
      this.send(conn, 'DELETED', { ...e.prev, metadata: { ...(e.prev.metadata as Obj), resourceVersion: String(e.rv) } });
    }
  }

  private send(conn: Conn, type: string, stored: Obj): void {
    const obj = servedForm(stored, conn.form);
    const r = conn.resource;
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    let json: string;
    if (conn.form.as === 'metadata') json = metadataJson(obj, conn.form.version);
    else if (conn.form.as === 'table') {
      const rv = String((obj.metadata as Obj | undefined)?.resourceVersion ?? '');
      const t = table([obj], apiVersion, { resourceVersion: rv }, conn.form.version, conn.includeObject, !conn.tableHeadersSent);
      conn.tableHeadersSent = true;
      json = JSON.stringify(t);
    } else json = objectJson(obj, apiVersion);
    this.write(conn, `{"type":"${type}","object":${json}}\n`);
  }

  private bookmark(conn: Conn, annotations?: Record<string, string>): void {
    const r = conn.resource;
    const metadata: Obj = { resourceVersion: String(this.currentRv()), ...(annotations ? { annotations } : {}) };
    const object =
      conn.form.as === 'metadata'
        ? { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${conn.form.version}`, metadata }
        : { kind: r.kind, apiVersion: r.group ? `${r.group}/${r.version}` : r.version, metadata };
    this.write(conn, `${JSON.stringify({ type: 'BOOKMARK', object })}\n`);
  }

  private write(conn: Conn, line: string): void {
    if (conn.done || conn.stalled) return;
    // Asked as PartialObjectMetadataList: the apiserver cannot turn an event's object into a list, logs "failed to
    // transform object" and ends the stream at its first event (or bookmark), having sent nothing.
    if (conn.form.as === 'metadata' && conn.form.list) return this.end(conn);
    const data = conn.gzip ? gzipSync(line, { level: 1 }) : line;
    conn.onBytes(Buffer.byteLength(data));
    conn.events++;
    if (this.dropAfter > 0 && conn.events >= this.dropAfter) {
      conn.res.write(data, () => this.destroy(conn));
      this.forget(conn);
    } else {
      conn.res.write(data);
    }
  }

  private end(conn: Conn): void {
    if (!conn.done) conn.res.end();
    this.forget(conn);
  }

  private destroy(conn: Conn): void {
    this.forget(conn);
    conn.res.socket?.destroy();
  }

  private forget(conn: Conn): void {
    conn.done = true;
    clearTimeout(conn.timer);
    if (this.conns.delete(conn)) this.updateBookmarkTimer();
  }

  /** One timer for every watch that asked for bookmarks, running only while there is one. */
  private updateBookmarkTimer(): void {
    const wanted = [...this.conns].some((c) => c.bookmarks);
    if (wanted && !this.bookmarkTimer) {
      this.bookmarkTimer = setInterval(() => {
        // As kube-apiserver's watch cache: a bookmark only carries a resourceVersion newer than the watch's start, so a
        // watch on a server where nothing has changed since it opened gets none (found on v1.37.2).
        for (const conn of this.conns) if (conn.bookmarks && this.currentRv() > conn.openedRv) this.bookmark(conn);
      }, this.bookmarkIntervalMs);
      this.bookmarkTimer.unref();
    } else if (!wanted && this.bookmarkTimer) {
      clearInterval(this.bookmarkTimer);
      this.bookmarkTimer = undefined;
    }
  }
}

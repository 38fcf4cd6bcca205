// Hostile answers for the API test server's fault set: what a broken or malicious apiserver (or something posing as
// one on the path) can send to a client that only reads. Each is generated as it is sent, never held whole in memory:
// a 3 GB answer costs the server a few KB.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export type HostileAnswer =
  /**
   * A JSON PartialObjectMetadataList (or `kind` list) whose items array goes on for `bytes` bytes in all (Infinity: it
   * never ends), streamed lazily with backpressure. Every item is a valid ConfigMap-like metadata object.
   */
  | { kind: 'huge'; bytes: number }
  /** The same, every item this raw JSON text (`null`, `{}`, `0`…): many values in few bytes. */
  | { kind: 'tiny'; bytes: number; item: string }
  /** The real answer, sent one byte every `intervalMs` (a server or proxy that trickles). */
  | { kind: 'trickle'; intervalMs: number }
  /** The real answer in JSON with these raw values appended to its items (null, numbers, odd metadata…). */
  | { kind: 'items'; items: unknown[] }
  /**
   * A gzip bomb, asked for gzip or not: an empty JSON list whose items array holds `bytes` of spaces (Infinity: it never
   * ends), about 1 KB on the wire per MB it decompresses to (gzip members of 1 MB of spaces each).
   */
  | { kind: 'gzipBomb'; bytes: number }
  /**
   * The real answer gzip-compressed (whatever its size) and broken: its CRC-32 wrong (every byte decompresses, the check
   * at the end fails), cut short inside the stream, or not gzip at all under Content-Encoding: gzip.
   */
  | { kind: 'corruptGzip'; how: 'checksum' | 'truncated' | 'notGzip' };

/** The ResourceRef the answer applies to is matched by the server; this sends it. */
export function sendHuge(res: ServerResponse, bytes: number, onBytes: (n: number) => void, rawItem?: string): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const head = '{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"1"},"items":[';
  let sent = 0;
  let n = 0;
  // ~64 KB per write: many items at once, so the generator is not the bottleneck of a multi-GB answer.
  const chunk = (): string => {
    const parts: string[] = [];
    let size = 0;
    while (size < 65_536) {
      const item = `${n === 0 ? '' : ','}${rawItem ?? `{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"huge-${n}","namespace":"flood","uid":"u-huge-${n}","creationTimestamp":"2026-11-20T08:00:00Z"}}`}`;
      n++;
      parts.push(item);
      size += item.length;
    }
    return parts.join('');
  };
  const pump = (): void => {
    while (!res.destroyed) {
      if (sent === 0) {
        sent += head.length;
        onBytes(head.length);
        if (!res.write(head)) return void res.once('drain', pump);
        continue;
      }
      if (sent >= bytes) {
        res.end(']}');
        onBytes(2);
        return;
      }
      const c = chunk();
      sent += c.length;
      onBytes(c.length);
      if (!res.write(c)) return void res.once('drain', pump);
    }
  };
  res.on('error', () => undefined);
  pump();
}

/** `body`, one byte every `intervalMs`; stops when the client goes away. */
export function sendTrickle(
  res: ServerResponse,
  code: number,
  body: string | Buffer,
  headers: Record<string, string>,
  intervalMs: number,
  onBytes: (n: number) => void,
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  res.writeHead(code, { ...headers, 'Content-Length': String(bytes.length) });
  res.flushHeaders();
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= bytes.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(bytes.subarray(i, i + 1));
    onBytes(1);
    i++;
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
}

/** A JSON list body with `extra` raw values appended to its items array. */
export function withExtraItems(body: string, extra: unknown[]): string {
  if (!extra.length) return body;
  const end = body.lastIndexOf(']}');
  if (end < 0) throw new Error('kubeApiServer: not a JSON list body');
  const open = body.lastIndexOf('"items":[', end);
  const empty = body.slice(open + '"items":['.length, end).trim() === '';
  return `${body.slice(0, end)}${empty ? '' : ','}${extra.map((v) => JSON.stringify(v)).join(',')}${body.slice(end)}`;
}

/** 1 MB of spaces as one gzip member (about 1 KB): a bomb is this, repeated. */
let spacesMember: Buffer | undefined;
const MEMBER_BYTES = 1_000_000;

/** A gzip bomb (see HostileAnswer): streamed with backpressure, each member made once. */
export function sendGzipBomb(res: ServerResponse, bytes: number, onBytes: (n: number) => void): void {
  spacesMember ??= gzipSync(Buffer.alloc(MEMBER_BYTES, 0x20), { level: 9 });
  const member = spacesMember;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
  const send = (b: Buffer): boolean => {
    onBytes(b.length);
    return res.write(b);
  };
  let decoded = 0;
  const pump = (): void => {
    while (!res.destroyed) {
      if (decoded >= bytes) {
        const end = gzipSync(']}');
        onBytes(end.length);
        res.end(end);
        return;
      }
      decoded += MEMBER_BYTES;
      if (!send(member)) return void res.once('drain', pump);
    }
  };
  res.on('error', () => undefined);
  send(gzipSync('{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"1"},"items":['));
  pump();
}

/** `body` gzip-compressed, then broken as `how` says (see HostileAnswer). */
export function corruptGzip(body: Buffer, how: 'checksum' | 'truncated' | 'notGzip'): Buffer {
  if (how === 'notGzip') return body;
  const zipped = gzipSync(body, { level: 1 });
  if (how === 'truncated') return zipped.subarray(0, Math.max(10, Math.floor(zipped.length / 2)));
  // The trailer is CRC-32 then ISIZE (RFC 1952): flip the CRC's bits.
  for (let i = zipped.length - 8; i < zipped.length - 4; i++) zipped[i] ^= 0xff;
  return zipped;
}

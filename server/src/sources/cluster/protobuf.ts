// Reading the apiserver's protobuf answers to metadata-only requests, as kube-controller-manager's garbage collector
// asks for them (client-go's metadata client: `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList…`).
// Compared with JSON, every object's managedFields (most of a metadata-only LIST's bytes) are skipped by their length
// prefix instead of being scanned, and the bytes are fewer.
//
// Only what a metadata-only request can answer is read: PartialObjectMetadataList, PartialObjectMetadata and Status,
// into the same JSON shape the JSON answer parses to (so everything downstream is shared). Field numbers are those of
// k8s.io/apimachinery's generated.proto (meta/v1 and runtime); fields we do not read are skipped by wire type.
//
// The envelope (k8s.io/apimachinery/pkg/runtime/serializer/protobuf): the 4 bytes "k8s\0", then a runtime.Unknown
// { typeMeta = 1 { apiVersion = 1, kind = 2 }, raw = 2, contentEncoding = 3, contentType = 4 } whose raw is the message.

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];

/** A protobuf answer this client cannot read (not one of the kinds above, or malformed). */
export class ProtobufError extends Error {
  /** The list holds more items than the caller allows (what decoding them would allocate). */
  tooManyItems = false;
}

/**
 * Set (to the reason) on a list item whose own bytes cannot be read, though the list's framing can: that item alone is
 * malformed (toKubeObject.ts names it), the others are read.
 */
export const UNREADABLE_ITEM = Symbol('unreadable item');

type J = Record<string, unknown>;

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

/** A cursor over one message's bytes. */
class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  get more(): boolean {
    return this.pos < this.end;
  }

  varint(): number {
    const b = this.buf;
    let x = 0;
    let mul = 1;
    // Up to 7 bytes (49 bits) a double holds the value exactly.
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new ProtobufError('a varint runs past the end of its message');
      const c = b[this.pos++];
      x += (c & 0x7f) * mul;
      if (c < 0x80) return x;
      mul *= 128;
    }
    // Longer: int64 negatives are 10-byte two's complement, which a double cannot add up exactly (-1 would round to 0).
    let big = BigInt(x);
    for (let shift = 49n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufError('a varint runs past the end of its message');
      const c = b[this.pos++];
      big |= BigInt(c & 0x7f) << shift;
      if (c < 0x80) return Number(BigInt.asIntN(64, big));
    }
    throw new ProtobufError('a varint is longer than 10 bytes');
  }

  /** The [start, end) of a length-delimited field's bytes; the cursor moves past them. */
  span(): number {
    const len = this.varint();
    const start = this.pos;
    if (len < 0 || start + len > this.end) throw new ProtobufError('a field runs past the end of its message');
    this.pos = start + len;
    return start;
  }

  string(): string {
    const start = this.span();
    return start === this.pos ? '' : this.buf.toString('utf8', start, this.pos);
  }

  /** A string that repeats across objects (namespace, label, finalizer, owner kind), shared as JSON.parse shares them. */
  sharedString(): string {
    const start = this.span();
    return sharedText(this.buf, start, this.pos);
  }

  sub(): Reader {
    const start = this.span();
    return new Reader(this.buf, start, this.pos);
  }

  skip(wire: number): void {
    switch (wire) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case BYTES:
        this.span();
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        throw new ProtobufError(`wire type ${wire} is not one this reader knows`);
    }
    if (this.pos > this.end) throw new ProtobufError('a field runs past the end of its message');
  }
}

/**
 * One copy of each repeated short string. JSON.parse shares short strings it has seen (V8 internalizes them); decoded
 * bytes are a new string each time, and 100,000 objects' namespaces, labels and owner kinds would be held once per
 * object (tens of MB in the language server). Looked up by the bytes themselves, so a string seen before costs
 * neither a decoding nor a hash of a new string. An open-addressing table; when it is full it starts over.
 */
const SHARED_MAX_BYTES = 64;
const SHARED_SLOTS = 1 << 16;
const SHARED_MAX_COUNT = SHARED_SLOTS >> 1;
const PROBES = 8;
let sharedHashes = new Int32Array(SHARED_SLOTS);
let sharedBytes: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(SHARED_SLOTS);
let sharedValues: (string | undefined)[] = new Array<string | undefined>(SHARED_SLOTS);
let sharedCount = 0;

function sharedText(buf: Buffer, start: number, end: number): string {
  const n = end - start;
  if (n === 0) return '';
  if (n > SHARED_MAX_BYTES) return buf.toString('utf8', start, end);
  let h = 0x811c9dc5 | 0; // FNV-1a
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  let slot = h & (SHARED_SLOTS - 1);
  for (let p = 0; p < PROBES; p++, slot = (slot + 1) & (SHARED_SLOTS - 1)) {
    const bytes = sharedBytes[slot];
    if (bytes === undefined) {
      const text = buf.toString('utf8', start, end);
      if (sharedCount >= SHARED_MAX_COUNT) {
        sharedHashes = new Int32Array(SHARED_SLOTS);
        sharedBytes = new Array<Uint8Array | undefined>(SHARED_SLOTS);
        sharedValues = new Array<string | undefined>(SHARED_SLOTS);
        sharedCount = 0;
        return text;
      }
      sharedHashes[slot] = h;
      sharedBytes[slot] = Uint8Array.prototype.slice.call(buf, start, end);
      sharedValues[slot] = text;
      sharedCount++;
      return text;
    }
    if (sharedHashes[slot] === h && bytes.length === n && sameBytes(bytes, buf, start)) return sharedValues[slot]!;
  }
  return buf.toString('utf8', start, end); // a crowded neighbourhood: not shared
}

function sameBytes(a: Uint8Array, buf: Buffer, start: number): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== buf[start + i]) return false;
  return true;
}

/**
 * The apiserver's generated marshalling writes every non-pointer field, empty or zero; the JSON form omits those
 * (omitempty). Set a field only when it has a value, so both forms read alike.
 */
function set(o: J, key: string, v: string | number): void {
  if (v !== '' && v !== 0) o[key] = v;
}

/** The message of an envelope: its kind and apiVersion, and a reader over its raw bytes. */
function unwrap(buf: Buffer): { apiVersion: string; kind: string; raw: Reader } {
  if (buf.length < 4 || MAGIC.some((m, i) => buf[i] !== m))
    throw new ProtobufError('the answer does not start with the Kubernetes protobuf prefix "k8s\\0"');
  const r = new Reader(buf, 4, buf.length);
  let apiVersion = '';
  let kind = '';
  let raw: Reader | undefined;
  let encoding = '';
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === BYTES) {
      const t = r.sub();
      while (t.more) {
        const tt = t.varint();
        if (tt >>> 3 === 1 && (tt & 7) === BYTES) apiVersion = t.string();
        else if (tt >>> 3 === 2 && (tt & 7) === BYTES) kind = t.string();
        else t.skip(tt & 7);
      }
    } else if (field === 2 && (tag & 7) === BYTES) raw = r.sub();
    else if (field === 3 && (tag & 7) === BYTES) encoding = r.string();
    else r.skip(tag & 7);
  }
  if (encoding) throw new ProtobufError(`the answer's content encoding "${encoding}" is not one this client reads`);
  return { apiVersion, kind, raw: raw ?? new Reader(buf, buf.length, buf.length) };
}

/**
 * A protobuf answer in the shape its JSON form parses to. Reads PartialObjectMetadataList, PartialObjectMetadata and
 * Status (meta.k8s.io/v1 or v1beta1, Status in v1); metadata.managedFields are left out (skipped, never read).
 */
export function decodeProtobuf(buf: Buffer, maxItems = Infinity): J {
  const { apiVersion, kind, raw } = unwrap(buf);
  switch (kind) {
    case 'PartialObjectMetadataList':
      return { kind, apiVersion, ...metadataList(raw, apiVersion, maxItems) };
    case 'PartialObjectMetadata':
      return { kind, apiVersion, metadata: partialObjectMetadata(raw) };
    case 'Status':
      return { kind, apiVersion, ...statusOf(raw) };
    default:
      throw new ProtobufError(`the answer is a ${kind || 'message without a kind'} in protobuf, which this client does not read`);
  }
}

function metadataList(r: Reader, apiVersion: string, maxItems: number): J {
  const items: J[] = [];
  let metadata: J = {};
  while (r.more) {
    const tag = r.varint();
    if (tag === ((2 << 3) | BYTES)) {
      if (items.length >= maxItems) {
        const e = new ProtobufError(`the list holds more than ${maxItems} items`);
        e.tooManyItems = true;
        throw e;
      }
      items.push(listItem(r.sub(), apiVersion));
    } else if (tag === ((1 << 3) | BYTES)) metadata = listMeta(r.sub());
    else r.skip(tag & 7);
  }
  return { metadata, items };
}

function listItem(r: Reader, apiVersion: string): J {
  try {
    return { kind: 'PartialObjectMetadata', apiVersion, metadata: partialObjectMetadata(r) };
  } catch (e) {
    if (!(e instanceof ProtobufError)) throw e;
    return { kind: 'PartialObjectMetadata', apiVersion, [UNREADABLE_ITEM]: e.message };
  }
}

function partialObjectMetadata(r: Reader): J {
  let meta: J = {};
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | BYTES)) meta = objectMeta(r.sub());
    else r.skip(tag & 7);
  }
  return meta;
}

function listMeta(r: Reader): J {
  const m: J = {};
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (2 << 3) | BYTES:
        set(m, 'resourceVersion', r.string());
        break;
      case (3 << 3) | BYTES:
        set(m, 'continue', r.string());
        break;
      case (4 << 3) | VARINT:
        m.remainingItemCount = r.varint();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return m;
}

function objectMeta(r: Reader): J {
  const m: J = {};
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | BYTES:
        set(m, 'name', r.string());
        break;
      case (2 << 3) | BYTES:
        set(m, 'generateName', r.string());
        break;
      case (3 << 3) | BYTES:
        set(m, 'namespace', r.sharedString());
        break;
      case (5 << 3) | BYTES:
        set(m, 'uid', r.string());
        break;
      case (6 << 3) | BYTES:
        set(m, 'resourceVersion', r.string());
        break;
      case (7 << 3) | VARINT:
        set(m, 'generation', r.varint());
        break;
      case (8 << 3) | BYTES:
        m.creationTimestamp = time(r.sub());
        break;
      case (9 << 3) | BYTES:
        m.deletionTimestamp = time(r.sub());
        break;
      case (10 << 3) | VARINT:
        m.deletionGracePeriodSeconds = r.varint();
        break;
      case (11 << 3) | BYTES:
        mapEntry((m.labels ??= {}) as Record<string, string>, r.sub(), true);
        break;
      case (12 << 3) | BYTES:
        mapEntry((m.annotations ??= {}) as Record<string, string>, r.sub(), false);
        break;
      case (13 << 3) | BYTES:
        ((m.ownerReferences ??= []) as J[]).push(ownerReference(r.sub()));
        break;
      case (14 << 3) | BYTES:
        ((m.finalizers ??= []) as string[]).push(r.sharedString());
        break;
      default:
        r.skip(tag & 7); // managedFields (17), selfLink (4) and anything newer
    }
  }
  return m;
}

/** One map<string, string> entry; labels are kept by the graph (shared strings), annotations are not. */
function mapEntry(into: Record<string, string>, r: Reader, share: boolean): void {
  let key = '';
  let value = '';
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | BYTES)) key = share ? r.sharedString() : r.string();
    else if (tag === ((2 << 3) | BYTES)) value = share ? r.sharedString() : r.string();
    else r.skip(tag & 7);
  }
  into[key] = value;
}

function ownerReference(r: Reader): J {
  const o: J = {};
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | BYTES:
        o.kind = r.sharedString();
        break;
      case (3 << 3) | BYTES:
        o.name = r.string();
        break;
      case (4 << 3) | BYTES:
        o.uid = r.string();
        break;
      case (5 << 3) | BYTES:
        o.apiVersion = r.sharedString();
        break;
      case (6 << 3) | VARINT:
        o.controller = r.varint() !== 0;
        break;
      case (7 << 3) | VARINT:
        o.blockOwnerDeletion = r.varint() !== 0;
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return o;
}

/**
 * A metav1.Time as its JSON form: RFC 3339 in UTC to the second (what the JSON encoder writes), or null for the zero
 * time, which the apiserver encodes as an empty message.
 */
function time(r: Reader): string | null {
  if (!r.more) return null;
  let seconds = 0;
  while (r.more) {
    const tag = r.varint();
    if (tag === ((1 << 3) | VARINT)) seconds = r.varint();
    else r.skip(tag & 7); // nanos: the JSON form has none
  }
  // metav1.Time's range is years 0001-9999.
  if (!(seconds >= -62135596800 && seconds <= 253402300799)) throw new ProtobufError(`a timestamp of ${seconds} s is out of range`);
  return rfc3339(seconds);
}

const DAY_S = 86_400;
/** "YYYY-MM-DDT" as character codes, by day since the epoch: a cluster's timestamps fall on few days. */
const dayPrefixes = new Map<number, number[]>();
const ZERO = 0x30;
const COLON = 0x3a;
const Z = 0x5a;

/**
 * "YYYY-MM-DDTHH:MM:SSZ" of a time in seconds since the epoch (years 0001-9999). Made in one String.fromCharCode, so
 * the string is flat: formatting a Date is slow, and concatenation would leave a tree of pieces in every object.
 */
export function rfc3339(seconds: number): string {
  const day = Math.floor(seconds / DAY_S);
  let p = dayPrefixes.get(day);
  if (p === undefined) {
    if (dayPrefixes.size >= 10_000) dayPrefixes.clear();
    const text = new Date(day * DAY_S * 1000).toISOString();
    dayPrefixes.set(day, (p = Array.from({ length: 11 }, (_, i) => text.charCodeAt(i))));
  }
  const s = seconds - day * DAY_S;
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  const sec = s % 60;
  return String.fromCharCode(
    p[0],
    p[1],
    p[2],
    p[3],
    p[4],
    p[5],
    p[6],
    p[7],
    p[8],
    p[9],
    p[10],
    ZERO + Math.floor(h / 10),
    ZERO + (h % 10),
    COLON,
    ZERO + Math.floor(m / 10),
    ZERO + (m % 10),
    COLON,
    ZERO + Math.floor(sec / 10),
    ZERO + (sec % 10),
    Z,
  );
}

function statusOf(r: Reader): J {
  const s: J = {};
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | BYTES:
        s.metadata = listMeta(r.sub());
        break;
      case (2 << 3) | BYTES:
        set(s, 'status', r.string());
        break;
      case (3 << 3) | BYTES:
        set(s, 'message', r.string());
        break;
      case (4 << 3) | BYTES:
        set(s, 'reason', r.string());
        break;
      case (5 << 3) | BYTES:
        s.details = statusDetails(r.sub());
        break;
      case (6 << 3) | VARINT:
        set(s, 'code', r.varint());
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return s;
}

function statusDetails(r: Reader): J {
  const d: J = {};
  while (r.more) {
    const tag = r.varint();
    switch (tag) {
      case (1 << 3) | BYTES:
        set(d, 'name', r.string());
        break;
      case (2 << 3) | BYTES:
        set(d, 'group', r.string());
        break;
      case (3 << 3) | BYTES:
        set(d, 'kind', r.string());
        break;
      case (6 << 3) | BYTES:
        set(d, 'uid', r.string());
        break;
      case (5 << 3) | VARINT:
        set(d, 'retryAfterSeconds', r.varint());
        break; // omitempty in JSON; always written here
      default:
        r.skip(tag & 7); // causes
    }
  }
  return d;
}

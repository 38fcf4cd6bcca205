// The API test server's protobuf encoder: what the apiserver writes for `application/vnd.kubernetes.protobuf` with
// `as=PartialObjectMetadata[List];g=meta.k8s.io`, and for Status. Written from k8s.io/apimachinery's generated.proto
// (meta/v1 and runtime) and its generated marshalling: fields in field-number order, every non-pointer field written
// even when empty or zero, map entries sorted by key, metav1.Time as { seconds = 1 } (an empty message for the zero
// time), all wrapped in the "k8s\0" prefix and a runtime.Unknown envelope. Independent of the product's decoder
// (server/src/sources/cluster/protobuf.ts), which the tests check against this and against protobufjs.

type J = Record<string, unknown>;

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** A message being written: a list of byte chunks. */
class Message {
  private readonly parts: Buffer[] = [];
  private size = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
  }

  private tag(field: number, wire: number): void {
    this.push(varint(field * 8 + wire));
  }

  uint(field: number, n: number): this {
    this.tag(field, 0);
    this.push(varint(n));
    return this;
  }

  bool(field: number, b: boolean): this {
    return this.uint(field, b ? 1 : 0);
  }

  bytes(field: number, b: Buffer): this {
    this.tag(field, 2);
    this.push(varint(b.length));
    this.push(b);
    return this;
  }

  string(field: number, s: unknown): this {
    return this.bytes(field, Buffer.from(typeof s === 'string' ? s : '', 'utf8'));
  }

  message(field: number, m: Message): this {
    return this.bytes(field, m.done());
  }

  done(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** An unsigned varint; negative numbers as 10-byte two's complement, as int64 fields are written. */
function varint(n: number): Buffer {
  let v = BigInt.asUintN(64, BigInt(Math.trunc(n)));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** metav1.Time from its JSON form (RFC 3339); the zero time (null, absent) is an empty message. */
function time(v: unknown): Message {
  const m = new Message();
  if (typeof v !== 'string' || !v) return m;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return m;
  return m.uint(1, Math.floor(ms / 1000));
}

function stringMap(field: number, into: Message, v: unknown): void {
  if (!v || typeof v !== 'object') return;
  for (const key of Object.keys(v).sort()) into.message(field, new Message().string(1, key).string(2, (v as J)[key]));
}

function ownerReference(o: J): Message {
  const m = new Message().string(1, o.kind).string(3, o.name).string(4, o.uid).string(5, o.apiVersion);
  if (typeof o.controller === 'boolean') m.bool(6, o.controller);
  if (typeof o.blockOwnerDeletion === 'boolean') m.bool(7, o.blockOwnerDeletion);
  return m;
}

function managedFieldsEntry(e: J): Message {
  const m = new Message().string(1, e.manager).string(2, e.operation).string(3, e.apiVersion);
  if (e.time) m.message(4, time(e.time));
  m.string(6, e.fieldsType);
  // FieldsV1 { Raw = 1 }: the field set as its JSON text.
  if (e.fieldsV1 !== undefined) m.message(7, new Message().bytes(1, Buffer.from(JSON.stringify(e.fieldsV1), 'utf8')));
  return m.string(8, e.subresource);
}

export function objectMeta(meta: J): Message {
  const m = new Message()
    .string(1, meta.name)
    .string(2, meta.generateName)
    .string(3, meta.namespace)
    .string(4, meta.selfLink)
    .string(5, meta.uid)
    .string(6, meta.resourceVersion)
    .uint(7, num(meta.generation))
    .message(8, time(meta.creationTimestamp));
  if (meta.deletionTimestamp) m.message(9, time(meta.deletionTimestamp));
  if (typeof meta.deletionGracePeriodSeconds === 'number') m.uint(10, meta.deletionGracePeriodSeconds);
  stringMap(11, m, meta.labels);
  stringMap(12, m, meta.annotations);
  for (const o of Array.isArray(meta.ownerReferences) ? meta.ownerReferences : []) m.message(13, ownerReference(o as J));
  for (const f of Array.isArray(meta.finalizers) ? meta.finalizers : []) m.string(14, f);
  for (const e of Array.isArray(meta.managedFields) ? meta.managedFields : []) m.message(17, managedFieldsEntry(e as J));
  return m;
}

/** PartialObjectMetadata { metadata = 1 }: the bytes of one, without envelope (a list's item, or raw of one). */
export function partialObjectMetadataBytes(obj: J): Buffer {
  return new Message().message(1, objectMeta((obj.metadata ?? {}) as J)).done();
}

function listMeta(meta: J): Message {
  const m = new Message().string(1, '').string(2, meta.resourceVersion).string(3, meta.continue);
  if (typeof meta.remainingItemCount === 'number') m.uint(4, meta.remainingItemCount);
  return m;
}

/** runtime.Unknown { typeMeta = 1 { apiVersion = 1, kind = 2 }, raw = 2, contentEncoding = 3, contentType = 4 }. */
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const unknown = new Message().message(1, new Message().string(1, apiVersion).string(2, kind)).bytes(2, raw).string(3, '').string(4, '');
  return Buffer.concat([MAGIC, unknown.done()]);
}

/** A PartialObjectMetadataList from items already encoded by partialObjectMetadataBytes (the server caches those). */
export function metadataListProtobuf(
  version: string,
  meta: { resourceVersion?: string; continue?: string; remainingItemCount?: number },
  items: Buffer[],
): Buffer {
  const list = new Message().message(1, listMeta({ ...meta }));
  for (const item of items) list.bytes(2, item);
  return envelope(`meta.k8s.io/${version}`, 'PartialObjectMetadataList', list.done());
}

export function metadataProtobuf(version: string, item: Buffer): Buffer {
  return envelope(`meta.k8s.io/${version}`, 'PartialObjectMetadata', item);
}

/** A metav1.Status from its JSON form. */
export function statusProtobuf(s: J): Buffer {
  const m = new Message()
    .message(1, listMeta((s.metadata ?? {}) as J))
    .string(2, s.status)
    .string(3, s.message)
    .string(4, s.reason);
  const d = s.details as J | undefined;
  if (d) {
    const details = new Message().string(1, d.name).string(2, d.group).string(3, d.kind);
    for (const c of Array.isArray(d.causes) ? d.causes : []) {
      const cause = c as J;
      details.message(4, new Message().string(1, cause.reason).string(2, cause.message).string(3, cause.field));
    }
    details.uint(5, num(d.retryAfterSeconds)).string(6, d.uid);
    m.message(5, details);
  }
  m.uint(6, num(s.code));
  return envelope('v1', 'Status', m.done());
}

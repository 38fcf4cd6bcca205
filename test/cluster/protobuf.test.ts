// The protobuf answers to metadata-only requests (server/src/sources/cluster/protobuf.ts): cross-checked with protobufjs
// over a transcription of k8s.io/apimachinery's generated.proto (test/fixtures/k8s-meta.proto), an implementation that
// shares nothing with the product's decoder nor with the test server's encoder (testkit/kubeApiServer/protobuf.ts), which
// it checks too; a round trip of real objects; and the edge cases of the wire format.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Root, type Type, Writer } from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { decodeProtobuf, ProtobufError } from '../../server/src/sources/cluster/protobuf';
import { toKubeObject } from '../../server/src/sources/cluster/toKubeObject';
import type { DiscoveredResource } from '../../server/src/sources/cluster/discovery';
import { metadataListProtobuf, metadataProtobuf, partialObjectMetadataBytes, statusProtobuf } from '../../testkit/kubeApiServer/protobuf';
import { status } from '../../testkit/kubeApiServer/formats';

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FIXTURES = join(__dirname, '..', 'fixtures');
const root = new Root().loadSync(join(FIXTURES, 'k8s-meta.proto'), { keepCase: true });
const type = (name: string): Type => root.lookupType(`k8s.io.apimachinery.pkg.apis.meta.v1.${name}`);
const MAGIC = Buffer.from('k8s\0', 'latin1');

// ---- protobufjs: JSON form → message, message → JSON form

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** metav1.Time from its JSON form: seconds since the epoch; the zero time (null) is an empty message. */
const pbTime = (v: unknown): J => (typeof v === 'string' ? { seconds: Date.parse(v) / 1000 } : {});

/** ObjectMeta as protobufjs takes it. `goStyle` also writes every empty string and zero, as the apiserver's marshalling does. */
function pbMeta(m: J, goStyle = false): J {
  const out: J = {};
  for (const k of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion']) {
    if (m[k] !== undefined) out[k] = m[k];
    else if (goStyle) out[k] = '';
  }
  if (m.generation !== undefined) out.generation = m.generation;
  else if (goStyle) out.generation = 0;
  if ('creationTimestamp' in m || goStyle) out.creationTimestamp = pbTime(m.creationTimestamp);
  if (m.deletionTimestamp !== undefined) out.deletionTimestamp = pbTime(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  if (m.labels) out.labels = m.labels;
  if (m.annotations) out.annotations = m.annotations;
  if (m.ownerReferences) out.ownerReferences = m.ownerReferences;
  if (m.finalizers) out.finalizers = m.finalizers;
  if (m.managedFields) {
    out.managedFields = (m.managedFields as J[]).map((e) => ({
      ...(e.manager !== undefined ? { manager: e.manager } : {}),
      ...(e.operation !== undefined ? { operation: e.operation } : {}),
      ...(e.apiVersion !== undefined ? { apiVersion: e.apiVersion } : {}),
      ...(e.time !== undefined ? { time: pbTime(e.time) } : {}),
      ...(e.fieldsType !== undefined ? { fieldsType: e.fieldsType } : {}),
      ...(e.fieldsV1 !== undefined ? { fieldsV1: { Raw: Buffer.from(JSON.stringify(e.fieldsV1), 'utf8') } } : {}),
      ...(e.subresource !== undefined ? { subresource: e.subresource } : {}),
    }));
  }
  return out;
}

function encode(name: string, obj: J): Buffer {
  const t = type(name);
  const err = t.verify(t.fromObject(obj));
  if (err) throw new Error(`${name}: ${err}`);
  return Buffer.from(t.encode(t.fromObject(obj)).finish());
}

/** The "k8s\0" prefix and a runtime.Unknown around `raw`, as the apiserver writes it (empty contentEncoding and contentType). */
function envelope(kind: string, raw: Buffer, apiVersion = 'meta.k8s.io/v1', contentEncoding = ''): Buffer {
  return Buffer.concat([MAGIC, encode('Unknown', { typeMeta: { apiVersion, kind }, raw, contentEncoding, contentType: '' })]);
}

function pbList(list: J, goStyle = false): Buffer {
  const meta = list.metadata as J;
  const raw = encode('PartialObjectMetadataList', {
    metadata: { ...(goStyle ? { selfLink: '', continue: '' } : {}), ...meta },
    items: (list.items as J[]).map((i) => ({ metadata: pbMeta(i.metadata, goStyle) })),
  });
  return envelope('PartialObjectMetadataList', raw);
}

/** A Time message back to its JSON form (RFC 3339 to the second; null for the zero time). */
const jsonTime = (t: J | undefined): string | null =>
  t && t.seconds !== undefined ? new Date(Number(t.seconds) * 1000).toISOString().replace(/\.\d+Z$/, 'Z') : null;

/** An ObjectMeta message (protobufjs toObject) to the JSON form Go's encoding/json gives (omitempty honoured). */
function jsonMeta(m: J): J {
  const out: J = {};
  for (const k of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion']) if (m[k]) out[k] = m[k];
  if (m.generation) out.generation = m.generation;
  out.creationTimestamp = jsonTime(m.creationTimestamp); // a struct: never omitted, null when zero
  if (m.deletionTimestamp) out.deletionTimestamp = jsonTime(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  if (m.labels && Object.keys(m.labels).length) out.labels = m.labels;
  if (m.annotations && Object.keys(m.annotations).length) out.annotations = m.annotations;
  if (m.ownerReferences?.length) out.ownerReferences = m.ownerReferences;
  if (m.finalizers?.length) out.finalizers = m.finalizers;
  if (m.managedFields?.length) {
    out.managedFields = (m.managedFields as J[]).map((e) => {
      const o: J = {};
      for (const k of ['manager', 'operation', 'apiVersion']) if (e[k]) o[k] = e[k];
      if (e.time) o.time = jsonTime(e.time);
      if (e.fieldsType) o.fieldsType = e.fieldsType;
      if (e.fieldsV1) o.fieldsV1 = JSON.parse(Buffer.from(e.fieldsV1.Raw as Uint8Array).toString('utf8'));
      if (e.subresource) o.subresource = e.subresource;
      return o;
    });
  }
  return out;
}

/** Reads an encoded answer with protobufjs: the envelope, then its message in the JSON form. */
function readWithProtobufjs(buf: Buffer): { typeMeta: J; contentEncoding: string; contentType: string; message: J } {
  expect(buf.subarray(0, 4)).toEqual(MAGIC);
  const unknown = type('Unknown').toObject(type('Unknown').decode(buf.subarray(4)), { longs: Number, defaults: true });
  const kind = unknown.typeMeta.kind as string;
  const message = type(kind).toObject(type(kind).decode(unknown.raw as Uint8Array), { longs: Number });
  return { typeMeta: unknown.typeMeta, contentEncoding: unknown.contentEncoding, contentType: unknown.contentType, message };
}

// ---- JSON forms

const withoutManagedFields = (meta: J): J => {
  const { managedFields: _managedFields, ...rest } = meta;
  return rest;
};

/** The metadata-only JSON LIST of `metas`, as the apiserver answers it, parsed. */
const jsonList = (metas: J[], listMeta: J, version = 'v1'): J =>
  clone({
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    items: metas.map((metadata) => ({ kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata })),
  });

/** What decodeProtobuf must give for a LIST: the JSON form without managedFields. */
const expectedList = (metas: J[], listMeta: J): J => jsonList(metas.map(withoutManagedFields), listMeta);

const T0 = '2026-03-01T10:00:00Z';
const FIELDS = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"0b9c"}': {} } },
  'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } },
};

/** Realistic metadata: a terminating Pod with finalizers, a ReplicaSet, a cluster-scoped object, and a long list. */
function realistic(): J[] {
  const pod: J = {
    name: 'web-7d4b9c5f6-x2x7q',
    generateName: 'web-7d4b9c5f6-',
    namespace: 'shop',
    uid: '6f1c2e0a-7b1d-4c55-9a57-2f4b1e0c9d11',
    resourceVersion: '48213',
    creationTimestamp: T0,
    deletionTimestamp: '2026-03-01T11:00:30Z',
    deletionGracePeriodSeconds: 30,
    labels: { app: 'web', 'pod-template-hash': '7d4b9c5f6', empty: '' },
    annotations: {
      'kubernetes.io/description': 'Café «crème» — 東京のサーバー 🚀 (naïve façade)',
      'example.com/ελληνικά': 'Ωμέγα ✓',
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', annotations: { note: 'x'.repeat(300) } },
      }),
    },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-7d4b9c5f6',
        uid: '0b9c1d2e-0000-4000-8000-000000000001',
        controller: true,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', uid: '0b9c1d2e-0000-4000-8000-000000000002' },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        name: 'w',
        uid: '0b9c1d2e-0000-4000-8000-000000000003',
        controller: false,
        blockOwnerDeletion: false,
      },
    ],
    finalizers: ['example.com/hold', 'foregroundDeletion'],
    managedFields: [
      { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: FIELDS },
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-03-01T10:00:05Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:phase': {} } },
        subresource: 'status',
      },
    ],
  };
  const rs: J = {
    name: 'web-7d4b9c5f6',
    namespace: 'shop',
    uid: '0b9c1d2e-0000-4000-8000-000000000001',
    resourceVersion: '48100',
    generation: 3,
    creationTimestamp: T0,
    labels: { app: 'web' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'a1', controller: true, blockOwnerDeletion: true }],
    managedFields: [
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: FIELDS,
      },
    ],
  };
  const pv: J = {
    name: 'pv-data',
    uid: 'c0ffee00-0000-4000-8000-000000000000',
    resourceVersion: '7',
    creationTimestamp: '1999-12-31T23:59:59Z',
    finalizers: ['kubernetes.io/pv-protection'],
    annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' },
  };
  const many = Array.from({ length: 150 }, (_, i) => ({
    name: `cm-${i}`,
    namespace: `ns-${i % 7}`,
    uid: `uid-${i}`,
    resourceVersion: String(1000 + i),
    creationTimestamp: T0,
    labels: { index: String(i) },
    managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: T0, fieldsType: 'FieldsV1', fieldsV1: FIELDS }],
  }));
  return clone([pod, rs, pv, ...many]);
}

const LIST_META = {
  resourceVersion: '48213',
  continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgyMTMsInN0YXJ0Ijoic2hvcC93ZWIifQ',
  remainingItemCount: 1234,
};

describe('decodeProtobuf against protobufjs (an independent implementation of generated.proto)', () => {
  it('reads a PartialObjectMetadataList encoded by protobufjs into exactly the JSON form, managedFields left out', () => {
    const metas = realistic();
    const list = jsonList(metas, LIST_META);
    const bytes = pbList(list);
    expect(bytes.length).toBeGreaterThan(16_384); // lengths of three varint bytes
    expect(decodeProtobuf(bytes)).toEqual(expectedList(metas, LIST_META));
  });

  it('leaves out the empty strings and zeros the apiserver writes for every non-pointer field (omitempty in JSON)', () => {
    const metas = realistic().slice(0, 3);
    const bytes = pbList(jsonList(metas, { resourceVersion: '9' }), true);
    // The empty fields are on the wire: an empty generateName (field 2) for the ReplicaSet, an empty selfLink…
    const decoded = decodeProtobuf(bytes);
    expect(decoded).toEqual(expectedList(metas, { resourceVersion: '9' }));
    expect(Object.keys(decoded.metadata as J)).toEqual(['resourceVersion']);
    const rs = (decoded.items as J[])[1].metadata as J;
    expect(rs).not.toHaveProperty('generateName');
    expect(rs).not.toHaveProperty('selfLink');
    expect((decoded.items as J[])[2].metadata).not.toHaveProperty('generation');
    expect((decoded.items as J[])[2].metadata).not.toHaveProperty('namespace');
  });

  it('reads one PartialObjectMetadata, and a v1beta1 list', () => {
    const [pod] = realistic();
    const one = envelope('PartialObjectMetadata', encode('PartialObjectMetadata', { metadata: pbMeta(pod, true) }));
    expect(decodeProtobuf(one)).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: withoutManagedFields(pod),
    });
    const beta = envelope(
      'PartialObjectMetadataList',
      encode('PartialObjectMetadataList', { metadata: { resourceVersion: '3' }, items: [{ metadata: pbMeta(pod) }] }),
      'meta.k8s.io/v1beta1',
    );
    const decoded = decodeProtobuf(beta);
    expect(decoded).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: { resourceVersion: '3' },
    });
    expect(decoded.items).toEqual([
      { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: withoutManagedFields(pod) },
    ]);
  });

  it('reads a Status encoded by protobufjs (its causes are not read)', () => {
    const s = {
      metadata: { selfLink: '', resourceVersion: '', continue: '' },
      status: 'Failure',
      message: 'Pod "x" is invalid: metadata.name: Invalid value',
      reason: 'Invalid',
      details: {
        name: 'x',
        group: '',
        kind: 'Pod',
        uid: '',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value', field: 'metadata.name' }],
        retryAfterSeconds: 0,
      },
      code: 422,
    };
    expect(decodeProtobuf(envelope('Status', encode('Status', s), 'v1'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: s.message,
      reason: 'Invalid',
      details: { name: 'x', kind: 'Pod' },
      code: 422,
    });
    const throttled = {
      metadata: {},
      status: 'Failure',
      message: 'Too many requests',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 7 },
      code: 429,
    };
    expect(decodeProtobuf(envelope('Status', encode('Status', throttled), 'v1'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      ...throttled,
    });
  });

  it("the test server's encoder, read by protobufjs, gives back its input, managedFields and all", () => {
    const metas = realistic();
    const items = metas.map((metadata) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata }));
    const bytes = metadataListProtobuf('v1', LIST_META, items.map(partialObjectMetadataBytes));
    const read = readWithProtobufjs(bytes);
    expect(read.typeMeta).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' });
    expect([read.contentEncoding, read.contentType]).toEqual(['', '']);
    const listMeta = { ...read.message.metadata };
    expect(listMeta.selfLink).toBe('');
    delete listMeta.selfLink;
    expect(listMeta).toEqual(LIST_META);
    expect((read.message.items as J[]).map((i) => jsonMeta(i.metadata))).toEqual(metas);
    // And the product's decoder agrees with it.
    expect(decodeProtobuf(bytes)).toEqual(expectedList(metas, LIST_META));

    const one = readWithProtobufjs(metadataProtobuf('v1', partialObjectMetadataBytes({ metadata: metas[0] })));
    expect(one.typeMeta).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata' });
    expect(jsonMeta(one.message.metadata)).toEqual(metas[0]);

    const st = status(403, 'pods is forbidden: User "test" cannot list resource "pods"', {
      kind: 'pods',
      causes: [{ reason: 'R', message: 'M', field: 'F' }],
    });
    const readStatus = readWithProtobufjs(statusProtobuf(st));
    expect(readStatus.typeMeta).toEqual({ apiVersion: 'v1', kind: 'Status' });
    expect(readStatus.message).toMatchObject({
      status: 'Failure',
      message: st.message,
      reason: 'Forbidden',
      code: 403,
      details: { kind: 'pods', causes: [{ reason: 'R', message: 'M', field: 'F' }] },
    });
  });
});

// ---- real objects

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.json')) out.push(p);
  }
  return out;
}

/** The objects of a dump file (a JSON array, a List or one object) that have metadata. */
function objectsOf(file: string): J[] {
  const d = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const items = (Array.isArray(d) ? d : Array.isArray((d as J).items) ? (d as J).items : [d]) as unknown[];
  return items.filter((o): o is J => !!o && typeof o === 'object' && typeof (o as J).metadata?.name === 'string');
}

describe('a round trip of real objects: the test encoder, then decodeProtobuf, gives the JSON metadata-only LIST', () => {
  const files = [
    ...walk(join(FIXTURES, 'cluster-dumps')),
    ...walk(join(FIXTURES, 'loader', 'sonobuoy')),
    ...walk(join(FIXTURES, 'loader', 'insights-archive', 'config', 'persistentvolumes')),
  ];

  it('for every page of every dump file', () => {
    let objects = 0;
    let managed = 0;
    for (const file of files) {
      // As served: compact JSON, parsed (the metadata-only JSON LIST items carry the metadata as stored).
      const metas = objectsOf(file).map((o) => o.metadata as J);
      if (metas.length === 0) continue;
      // Pages of 3, each but the last with a continue token and a remaining count.
      for (let start = 0; start < metas.length; start += 3) {
        const page = metas.slice(start, start + 3);
        const rest = metas.length - start - page.length;
        const listMeta = { resourceVersion: '345113', ...(rest > 0 ? { continue: `token-${start + 3}`, remainingItemCount: rest } : {}) };
        const bytes = metadataListProtobuf(
          'v1',
          listMeta,
          page.map((metadata) => partialObjectMetadataBytes({ metadata })),
        );
        const json = JSON.parse(JSON.stringify(jsonList(page, listMeta))) as J;
        for (const item of json.items as J[]) {
          delete item.metadata.managedFields;
          // selfLink (a field apiservers stopped writing in 1.20, and nothing reads) is skipped by the decoder.
          delete item.metadata.selfLink;
        }
        expect(decodeProtobuf(bytes), `${file}, page at ${start}`).toEqual(json);
        // The encoder read back by protobufjs: everything, managedFields included (selfLink too).
        expect(
          (readWithProtobufjs(bytes).message.items as J[]).map((i) => jsonMeta(i.metadata)),
          file,
        ).toEqual(page);
      }
      objects += metas.length;
      managed += metas.filter((m) => Array.isArray(m.managedFields)).length;
    }
    expect(objects).toBeGreaterThan(300);
    expect(managed).toBeGreaterThan(30);
  });
});

// ---- edge cases

/** Field bytes built by hand with protobufjs' Writer. */
const tag = (w: Writer, field: number, wire: number) => w.uint32(((field << 3) | wire) >>> 0);
const bytesField = (field: number, b: Uint8Array) => Buffer.from(tag(Writer.create(), field, 2).bytes(b).finish());
const stringField = (field: number, s: string) => Buffer.from(tag(Writer.create(), field, 2).string(s).finish());

/** One unknown field of each wire type (varint, fixed64, bytes, fixed32), numbered from `from`. */
function unknowns(from: number): Buffer {
  const w = Writer.create();
  tag(w, from, 0).uint64(12_345_678_901_234);
  tag(w, from + 1, 1).fixed64(0xdeadbeef);
  tag(w, from + 2, 2).bytes(Buffer.from('k8s\0 not a field of ours \u00e9', 'utf8'));
  tag(w, from + 3, 5).fixed32(0xfffffffe);
  tag(w, from + 4, 0).int64(-1); // a 10-byte varint
  return Buffer.from(w.finish());
}

const CONFIGMAPS: DiscoveredResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  singular: 'configmap',
  shortNames: ['cm'],
  verbs: ['list', 'watch'],
};
const kube = (item: J) => toKubeObject(item, CONFIGMAPS, true, 'ctx');

describe('edge cases of the wire format', () => {
  it('the zero creationTimestamp (an empty Time message) is null, as in JSON, and both give a KubeObject without one', () => {
    const raw = Buffer.concat([
      bytesField(1, Buffer.concat([stringField(1, 'cm'), stringField(3, 'shop'), stringField(5, 'u1'), bytesField(8, Buffer.alloc(0))])),
    ]);
    const decoded = decodeProtobuf(envelope('PartialObjectMetadata', raw));
    // Go writes the zero metav1.Time as JSON null (the field is a struct: omitempty does not apply).
    const json = JSON.parse(
      '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"cm","namespace":"shop","uid":"u1","creationTimestamp":null}}',
    ) as J;
    expect(decoded).toEqual(json);
    expect((decoded.metadata as J).creationTimestamp).toBeNull();
    const fromProtobuf = kube(decoded);
    expect(fromProtobuf).toBeDefined();
    expect(fromProtobuf?.creationTimestamp).toBeUndefined();
    expect(fromProtobuf).toEqual(kube(json));
    // Without field 8 at all: no creationTimestamp key.
    const absent = decodeProtobuf(envelope('PartialObjectMetadata', bytesField(1, stringField(1, 'cm'))));
    expect(absent.metadata).toEqual({ name: 'cm' });
    // The test encoder writes an object without one as the apiserver does: an empty message, read as null.
    expect(
      (decodeProtobuf(metadataProtobuf('v1', partialObjectMetadataBytes({ metadata: { name: 'cm' } }))).metadata as J).creationTimestamp,
    ).toBeNull();
    // And a real time with nanos (which JSON does not carry) is to the second.
    const withNanos = bytesField(
      1,
      bytesField(8, Buffer.from(type('Time').encode({ seconds: 1_772_359_200, nanos: 999_999_999 }).finish())),
    );
    expect((decodeProtobuf(envelope('PartialObjectMetadata', withNanos)).metadata as J).creationTimestamp).toBe('2026-03-01T10:00:00Z');
  });

  it('skips unknown fields of every wire type, wherever they are', () => {
    const [pod] = realistic();
    const owner = Buffer.concat([encode('OwnerReference', pod.ownerReferences[0]), unknowns(40)]);
    const time = Buffer.concat([unknowns(40), encode('Time', pbTime(T0))]);
    const label = Buffer.concat([stringField(1, 'app'), unknowns(40), stringField(2, 'web')]);
    const meta = Buffer.concat([
      stringField(1, pod.name),
      unknowns(20),
      stringField(3, pod.namespace),
      stringField(5, pod.uid),
      stringField(15, 'clusterName, a field removed since'),
      bytesField(8, time),
      bytesField(11, label),
      bytesField(13, owner),
      unknowns(100),
      stringField(14, 'example.com/hold'),
      bytesField(17, encode('ManagedFieldsEntry', pbMeta(pod).managedFields[0])),
      unknowns(536_870_900), // the largest field numbers
    ]);
    const item = Buffer.concat([unknowns(2), bytesField(1, meta), unknowns(20)]);
    const listMeta = Buffer.concat([unknowns(10), stringField(2, '77'), unknowns(5)]);
    const list = Buffer.concat([unknowns(3), bytesField(1, listMeta), bytesField(2, item), unknowns(30), bytesField(2, item)]);
    const typeMeta = Buffer.concat([stringField(1, 'meta.k8s.io/v1'), unknowns(3), stringField(2, 'PartialObjectMetadataList')]);
    const buf = Buffer.concat([MAGIC, bytesField(1, typeMeta), unknowns(5), bytesField(2, list), stringField(4, ''), unknowns(9)]);
    const metadata = {
      name: pod.name,
      namespace: pod.namespace,
      uid: pod.uid,
      creationTimestamp: T0,
      labels: { app: 'web' },
      ownerReferences: [pod.ownerReferences[0]],
      finalizers: ['example.com/hold'],
    };
    expect(decodeProtobuf(buf)).toEqual(jsonList([metadata, metadata], { resourceVersion: '77' }));
  });

  it("reads negative int64 varints (10 bytes, two's complement) and large ones exactly", () => {
    const values = [-1, -2, -30, -4097, -(2 ** 31), -(2 ** 40) - 3, -(2 ** 53) + 1, 1, 2 ** 31, 2 ** 53 - 1];
    for (const v of values) {
      const meta = encode('ObjectMeta', { name: 'x', generation: v, deletionGracePeriodSeconds: v });
      if (v < 0) expect(Writer.create().int64(v).finish().length).toBe(10); // as written on the wire
      const list = Buffer.concat([
        bytesField(1, encode('ListMeta', { resourceVersion: '1', remainingItemCount: v })),
        bytesField(2, bytesField(1, meta)),
      ]);
      const decoded = decodeProtobuf(envelope('PartialObjectMetadataList', list));
      expect(decoded.metadata, String(v)).toEqual({ resourceVersion: '1', remainingItemCount: v });
      expect((decoded.items as J[])[0].metadata, String(v)).toEqual({ name: 'x', generation: v, deletionGracePeriodSeconds: v });
    }
    // A time before 1970 (negative seconds) too.
    const before = bytesField(1, bytesField(8, encode('Time', { seconds: -1 })));
    expect((decodeProtobuf(envelope('PartialObjectMetadata', before)).metadata as J).creationTimestamp).toBe('1969-12-31T23:59:59Z');
    // metav1.Time's whole range, years 0001 to 9999, and nothing outside it.
    const at = (t: J) => decodeProtobuf(envelope('PartialObjectMetadata', bytesField(1, bytesField(8, encode('Time', t))))).metadata as J;
    for (const t of [
      '1901-12-13T20:45:52Z',
      '0001-01-01T00:00:01Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '2024-02-29T23:59:59Z',
      '2026-12-31T00:00:00Z',
    ]) {
      expect(at(pbTime(t)).creationTimestamp, t).toBe(t);
    }
    expect(() => at({ seconds: Date.parse('9999-12-31T23:59:59Z') / 1000 + 1 })).toThrow(/out of range/);
    expect(() => at({ seconds: Date.parse('0001-01-01T00:00:00Z') / 1000 - 1 })).toThrow(ProtobufError);
  });

  it('a truncated answer, cut anywhere before its message ends, is a ProtobufError', () => {
    const metas = realistic().slice(0, 3);
    const bytes = metadataListProtobuf(
      'v1',
      { resourceVersion: '5' },
      metas.map((metadata) => partialObjectMetadataBytes({ metadata })),
    );
    // The envelope ends with contentEncoding and contentType, both empty (2 bytes each): cut before them, raw is incomplete.
    expect(bytes.subarray(-4)).toEqual(Buffer.from([0x1a, 0x00, 0x22, 0x00]));
    // Cut right after typeMeta, the envelope is a well-formed one without raw: an empty message (the apiserver always
    // writes raw; an answer cut short is caught by HTTP, its Content-Length or chunked framing).
    const rawAt = 6 + bytes[5];
    expect(bytes[rawAt]).toBe(0x12);
    expect(decodeProtobuf(bytes.subarray(0, rawAt))).toEqual(jsonList([], {}));
    let checked = 0;
    for (let cut = 0; cut < bytes.length - 4; cut++) {
      if (cut === rawAt) continue;
      expect(() => decodeProtobuf(bytes.subarray(0, cut)), `cut at ${cut}`).toThrow(ProtobufError);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
    // A varint that never ends, and one longer than 10 bytes.
    expect(() => decodeProtobuf(Buffer.concat([MAGIC, Buffer.from([0x08, 0xff, 0xff])]))).toThrow(ProtobufError);
    expect(() => decodeProtobuf(Buffer.concat([MAGIC, Buffer.from([0x08, ...Array(11).fill(0xff), 0x01])]))).toThrow(
      /longer than 10 bytes/,
    );
    // A fixed64 or fixed32 that runs past its message.
    const fixed = (wire: number, n: number) =>
      envelope(
        'PartialObjectMetadata',
        bytesField(1, Buffer.concat([Buffer.from(tag(Writer.create(), 20, wire).finish()), Buffer.alloc(n)])),
      );
    expect(() => decodeProtobuf(fixed(1, 7))).toThrow(ProtobufError);
    expect(() => decodeProtobuf(fixed(5, 3))).toThrow(ProtobufError);
    expect(decodeProtobuf(fixed(1, 8)).metadata).toEqual({});
    // Group wire types (3, 4) are not used by Kubernetes.
    expect(() => decodeProtobuf(envelope('PartialObjectMetadata', Buffer.from(tag(Writer.create(), 20, 3).finish())))).toThrow(
      /wire type 3/,
    );
  });

  it('a wrong prefix, or JSON, is a ProtobufError', () => {
    const good = metadataProtobuf('v1', partialObjectMetadataBytes({ metadata: { name: 'x' } }));
    expect(decodeProtobuf(good)).toMatchObject({ metadata: { name: 'x' } });
    for (const bad of [
      Buffer.concat([Buffer.from('k8s\x01'), good.subarray(4)]),
      Buffer.concat([Buffer.from('K8s\0'), good.subarray(4)]),
      good.subarray(4),
      Buffer.from('{"kind":"PartialObjectMetadataList"}'),
      Buffer.alloc(0),
      Buffer.from('k8s'),
    ]) {
      expect(() => decodeProtobuf(bad)).toThrow(ProtobufError);
      expect(() => decodeProtobuf(bad)).toThrow(/prefix "k8s\\0"/);
    }
  });

  it('another kind (a full PodList, say) is a ProtobufError that names it; so is an envelope without a kind', () => {
    const podList = envelope('PodList', bytesField(1, encode('ListMeta', { resourceVersion: '1' })), 'v1');
    expect(() => decodeProtobuf(podList)).toThrow(ProtobufError);
    expect(() => decodeProtobuf(podList)).toThrow(/PodList/);
    expect(() => decodeProtobuf(envelope('Table', Buffer.alloc(0)))).toThrow(/Table/);
    expect(() => decodeProtobuf(envelope('', Buffer.alloc(0)))).toThrow(ProtobufError);
    expect(() => decodeProtobuf(Buffer.concat([MAGIC, bytesField(2, Buffer.alloc(0))]))).toThrow(/without a kind/);
  });

  it('a content encoding (gzip…) is a ProtobufError that names it', () => {
    const raw = encode('PartialObjectMetadataList', { metadata: { resourceVersion: '1' }, items: [] });
    expect(decodeProtobuf(envelope('PartialObjectMetadataList', raw))).toEqual(jsonList([], { resourceVersion: '1' }));
    const gz = envelope('PartialObjectMetadataList', raw, 'meta.k8s.io/v1', 'gzip');
    expect(() => decodeProtobuf(gz)).toThrow(ProtobufError);
    expect(() => decodeProtobuf(gz)).toThrow(/"gzip"/);
  });

  it("Status: the test encoder's, decoded, gives its JSON form (details.causes left out)", () => {
    const notFound = status(404, 'pods "nope" not found', { name: 'nope', kind: 'pods' });
    expect(decodeProtobuf(statusProtobuf(notFound))).toEqual(notFound);
    const throttled = status(429, undefined, { retryAfterSeconds: 1 });
    expect(decodeProtobuf(statusProtobuf(throttled))).toEqual(throttled);
    const expired = status(410, 'The provided continue parameter is too old', undefined, { metadata: { continue: 'abc' } });
    expect(decodeProtobuf(statusProtobuf(expired))).toEqual(expired);
    const forbidden = status(403, 'widgets.example.com "w" is forbidden', { name: 'w', group: 'example.com', kind: 'widgets', uid: 'u-w' });
    expect(decodeProtobuf(statusProtobuf(forbidden))).toEqual(forbidden);
    const invalid = status(422, 'Pod "x" is invalid', {
      name: 'x',
      kind: 'Pod',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value', field: 'metadata.name' }],
    });
    const { causes: _causes, ...details } = invalid.details as J;
    expect(decodeProtobuf(statusProtobuf(invalid))).toEqual({ ...invalid, details });
    expect(decodeProtobuf(statusProtobuf(status(500)))).toEqual(status(500));
  });
});

describe('shared strings', () => {
  it('gives every label its own text, however many distinct values and colliding neighbours there are', () => {
    // 40,000 distinct keys and values: more than the shared table holds, so it starts over midway; similar short
    // strings (and UTF-8 ones, and ones over its length limit) meet in its slots.
    const items = Array.from({ length: 40_000 }, (_, i) => ({
      metadata: {
        name: `o${i}`,
        namespace: `ns-${i % 7}`,
        uid: `u-${i}`,
        creationTimestamp: '2026-11-20T08:00:00Z',
        labels: { [`k${i}`]: `v${i}`, same: 'x', [`ü${i % 50}`]: 'ñ'.repeat(i % 5), long: 'l'.repeat(60 + (i % 10)) },
        finalizers: [`example.com/f${i % 3}`],
      },
    }));
    const decoded = decodeProtobuf(metadataListProtobuf('v1', { resourceVersion: '9' }, items.map(partialObjectMetadataBytes)));
    const got = (decoded.items as J[]).map((x) => x.metadata);
    expect(got).toEqual(items.map((x) => x.metadata));
    // A later page meets the table as the first one left it.
    const again = decodeProtobuf(metadataListProtobuf('v1', { resourceVersion: '9' }, items.slice(0, 10).map(partialObjectMetadataBytes)));
    expect((again.items as J[]).map((x) => x.metadata)).toEqual(items.slice(0, 10).map((x) => x.metadata));
  });
});

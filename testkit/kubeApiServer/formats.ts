// Content negotiation and the shapes the apiserver answers in: full objects and <Kind>List, metadata-only
// (meta.k8s.io PartialObjectMetadata / PartialObjectMetadataList, in JSON or protobuf), Table (kubectl get's
// server-side printing, with the default table convertor's columns), aggregated discovery, and Status for every error.
// Protobuf is served for metadata-only GETs and LISTs only: full objects would need every kind's schema (a real
// apiserver serves built-in kinds in protobuf, custom resources not), and watches stay JSON here.
import type { ResourceInfo } from './discovery';
import { metadataListProtobuf, metadataProtobuf, partialObjectMetadataBytes } from './protobuf';
import type { Obj } from './selectors';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export type Form = (
  | { as: 'object' }
  /** `list`: asked as PartialObjectMetadataList (a LIST's form), else as PartialObjectMetadata (a GET's or a watch's). */
  | { as: 'metadata'; version: string; protobuf?: boolean; list: boolean }
  | { as: 'table'; version: string }
  | { as: 'discovery'; version: 'v2' | 'v2beta1' }
) & {
  /**
   * `drop=metadata.managedFields` was asked (Kubernetes 1.38's alpha ManagedFieldsOptOut: the apiserver leaves every
   * object's managedFields out, in every form and verb, when its feature gate is on; older servers ignore the parameter).
   */
  drop?: boolean;
};

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*']);

/** The representations an Accept header asks for, in the client's order; unsupported ones are left out. */
export function acceptedForms(accept: string | undefined): Form[] {
  if (!accept || accept.trim() === '') return [{ as: 'object' }];
  const forms: Form[] = [];
  for (const range of accept.split(',')) {
    const [type, ...paramParts] = range.split(';').map((p) => p.trim());
    const protobuf = type.toLowerCase() === PROTOBUF;
    if (!JSON_TYPES.has(type.toLowerCase()) && !protobuf) continue;
    const params: Record<string, string> = {};
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    const { as, g, v } = params;
    // Unknown drop targets are ignored, as the apiserver does (forward compatibility).
    const drop = params.drop !== undefined && params.drop.split('+').includes('metadata.managedFields') ? { drop: true } : {};
    if (protobuf) {
      if (g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1') && isMetadataAs(as))
        forms.push({ as: 'metadata', version: v, protobuf: true, list: as === 'PartialObjectMetadataList', ...drop });
      continue;
    }
    if (as === undefined) forms.push({ as: 'object', ...drop });
    else if (g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1') && as === 'Table') forms.push({ as: 'table', version: v, ...drop });
    else if (g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1') && isMetadataAs(as))
      forms.push({ as: 'metadata', version: v, list: as === 'PartialObjectMetadataList', ...drop });
    else if (g === 'apidiscovery.k8s.io' && (v === 'v2' || v === 'v2beta1') && as === 'APIGroupDiscoveryList')
      forms.push({ as: 'discovery', version: v });
  }
  return forms;
}

const isMetadataAs = (as: string | undefined) => as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList';

/**
 * Why a metadata form does not fit the verb, as the apiserver says it (406 NotAcceptable for a GET or a LIST), or
 * undefined when it fits. The Go type it names is the internal one: `*core.ConfigMap`, `*apps.DeploymentList`.
 */
export function metadataFormMismatch(form: Form, list: boolean, r: ResourceInfo): string | undefined {
  if (form.as !== 'metadata' || form.list === list) return undefined;
  const type = r.custom ? 'unstructured.Unstructured' : `${r.group ? r.group.split('.')[0] : 'core'}.${r.kind}`;
  return form.list
    ? `you requested PartialObjectMetadataList, but the requested object is not a list (*${type})`
    : `you requested PartialObjectMetadata, but the requested object is a list (*${type}List)`;
}

/** The Content-Type of an answer in `form`: the apiserver names the serializer only, without the as= parameters. */
export function contentType(form: Form): string {
  return form.as === 'metadata' && form.protobuf ? PROTOBUF : 'application/json';
}

export const AGGREGATED_CONTENT_TYPE = (version: string) => `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;

// ---- Status

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const MESSAGES: Record<number, string> = {
  401: 'Unauthorized',
  405: 'the server does not allow this method on the requested resource',
  429: 'Too many requests, please try again later.',
  500: 'Internal error occurred: injected failure',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

export function status(code: number, message?: string, details?: Obj, extra?: Obj): Obj {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: message ?? MESSAGES[code] ?? `the server responded with status ${code}`,
    reason: REASONS[code] ?? (code >= 500 ? 'InternalError' : 'BadRequest'),
    ...(details ? { details } : {}),
    code,
    ...extra,
  };
}

/**
 * kube-apiserver's answer to a resourceVersion newer than its own (storage.NewTooLargeResourceVersionError: a 504
 * Timeout with the ResourceVersionTooLarge cause; the watch cache asks to retry after 1 s, etcd after 0).
 */
export function tooLargeResourceVersion(asked: number, current: number, retrySeconds: number): Obj {
  return status(504, `Timeout: Too large resource version: ${asked}, current: ${current}`, {
    // metav1.StatusCause's Type is `reason` in JSON.
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    ...(retrySeconds > 0 ? { retryAfterSeconds: retrySeconds } : {}),
  });
}

/** `pods` or `deployments.apps`: how the apiserver names a resource in messages. */
export function qualifiedResource(r: { group: string; resource: string }): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

// ---- objects

const strippedObjects = new WeakMap<Obj, Obj>();

/**
 * The object as served in `form`: without metadata.managedFields when the form dropped them. A stored object's copy
 * is kept, so every cache below (keyed by object) holds the stripped forms beside the full ones.
 */
export function servedForm(obj: Obj, form: Form): Obj {
  const meta = obj.metadata as Obj | undefined;
  if (!form.drop || !meta || !('managedFields' in meta)) return obj;
  let copy = strippedObjects.get(obj);
  if (copy === undefined) {
    const { managedFields: _managedFields, ...rest } = meta;
    strippedObjects.set(obj, (copy = { ...obj, metadata: rest }));
  }
  return copy;
}

const fullJson = new WeakMap<Obj, string>();

/** The object as served at `apiVersion` (stored objects are not converted: only apiVersion is rewritten). */
export function servedObject(obj: Obj, apiVersion: string): Obj {
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/** JSON of a stored object; cached, since stored objects never change. */
export function objectJson(obj: Obj, apiVersion: string): string {
  if (obj.apiVersion !== apiVersion) return JSON.stringify(servedObject(obj, apiVersion));
  let json = fullJson.get(obj);
  if (json === undefined) fullJson.set(obj, (json = JSON.stringify(obj)));
  return json;
}

const itemJson = new WeakMap<Obj, string>();

/** JSON of a stored built-in object as an item of a full LIST: without apiVersion and kind. */
function listItemJson(obj: Obj): string {
  let json = itemJson.get(obj);
  if (json === undefined) {
    const { apiVersion: _apiVersion, kind: _kind, ...rest } = obj;
    itemJson.set(obj, (json = JSON.stringify(rest)));
  }
  return json;
}

export function partialMetadata(obj: Obj, version: string): Obj {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata ?? {} };
}

const metadataJsonV1 = new WeakMap<Obj, string>();

/**
 * JSON of a stored object as a PartialObjectMetadata; cached like the full JSON (stored objects never change), so
 * that a metadata-only LIST costs the server what a full one does: a join of cached strings.
 */
export function metadataJson(obj: Obj, version: string): string {
  if (version !== 'v1') return JSON.stringify(partialMetadata(obj, version));
  let json = metadataJsonV1.get(obj);
  if (json === undefined) metadataJsonV1.set(obj, (json = JSON.stringify(partialMetadata(obj, version))));
  return json;
}

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

const metadataProtobufItem = new WeakMap<Obj, Buffer>();

/** A stored object as a protobuf PartialObjectMetadata (no envelope); cached like the JSON forms. */
function metadataItemProtobuf(obj: Obj): Buffer {
  let bytes = metadataProtobufItem.get(obj);
  if (bytes === undefined) metadataProtobufItem.set(obj, (bytes = partialObjectMetadataBytes(obj)));
  return bytes;
}

export function listBody(r: ResourceInfo, stored: Obj[], meta: ListMeta, form: Form, includeObject: string): string | Buffer {
  const items = stored.map((o) => servedForm(o, form));
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  const metaJson = JSON.stringify(meta);
  if (form.as === 'metadata' && form.protobuf) return metadataListProtobuf(form.version, meta, items.map(metadataItemProtobuf));
  if (form.as === 'metadata') {
    const body = items.map((o) => metadataJson(o, form.version)).join(',');
    return `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/${form.version}","metadata":${metaJson},"items":[${body}]}`;
  }
  if (form.as === 'table') return JSON.stringify(table(items, apiVersion, meta, form.version, includeObject, true));
  // The apiserver writes apiVersion and kind on the list only: items of a built-in resource have neither (a custom
  // resource's items, stored unstructured, keep theirs).
  const body = items.map((o) => (r.custom ? objectJson(o, apiVersion) : listItemJson(o))).join(',');
  return `{"kind":"${r.listKind}","apiVersion":"${apiVersion}","metadata":${metaJson},"items":[${body}]}`;
}

export function objectBody(r: ResourceInfo, stored: Obj, form: Form, includeObject: string): string | Buffer {
  const obj = servedForm(stored, form);
  const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
  if (form.as === 'metadata' && form.protobuf) return metadataProtobuf(form.version, metadataItemProtobuf(obj));
  if (form.as === 'metadata') return metadataJson(obj, form.version);
  if (form.as === 'table') {
    const rv = String((obj.metadata as Obj | undefined)?.resourceVersion ?? '');
    return JSON.stringify(table([obj], apiVersion, { resourceVersion: rv }, form.version, includeObject, true));
  }
  return objectJson(obj, apiVersion);
}

// The columns of the apiserver's default table convertor (what CRDs without printer columns and generic resources
// print): Name and Created At.
const COLUMNS = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
  {
    name: 'Created At',
    type: 'date',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
  },
];

export function table(items: Obj[], apiVersion: string, meta: ListMeta, version: string, includeObject: string, headers: boolean): Obj {
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: meta,
    columnDefinitions: headers ? COLUMNS : null,
    rows: items.map((o) => {
      const m = (o.metadata ?? {}) as Obj;
      const row: Obj = { cells: [m.name ?? '', m.creationTimestamp ?? null] };
      if (includeObject === 'Object') row.object = servedObject(o, apiVersion);
      else if (includeObject !== 'None') row.object = partialMetadata(o, version);
      return row;
    }),
  };
}

// A served object (full, or PartialObjectMetadata) to the engine's KubeObject, read by the same code as a
// JSON manifest so a live object and its exported copy give the same answer. Whatever a server sends is checked one
// item at a time: an item that is not an object, or whose metadata cannot be read, is malformed, with the reason,
// and only that item is left out.

import type { KubeObject } from '../../engine/model';
import { Extractor } from '../manifests/extract';
import { fastObject } from '../manifests/fastJson';
import { plainReader } from '../manifests/reader';
import { apiVersionOf, type DiscoveredResource } from './discovery';
import { serverText } from './limits';
import { UNREADABLE_ITEM } from './protobuf';

/** Where live objects "are", for messages: not a file, the cluster. */
export const LIVE_SOURCE_PREFIX = 'cluster:';

/** An item left out: why, and who it is when that can be told (for the incomplete-preview note). */
export interface MalformedItem {
  malformed: string;
  namespace?: string;
  name?: string;
}

/** Where an item came from, for the reason of a malformed one. */
export type ItemOrigin = 'list' | 'watch';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  const t = typeof v;
  return t === 'object' || t === 'undefined' ? t : `a ${t}`;
}

export function readLiveObject(
  item: unknown,
  resource: DiscoveredResource,
  metadataOnly: boolean,
  context: string,
  origin: ItemOrigin = 'list',
): KubeObject | MalformedItem {
  const what = origin === 'list' ? 'an item of the LIST' : 'the object of a watch event';
  if (!isObject(item)) return { malformed: `${what} is ${typeOf(item)}, not an object` };
  const unreadable = (item as { [UNREADABLE_ITEM]?: string })[UNREADABLE_ITEM];
  if (unreadable !== undefined) return { malformed: `${what} cannot be read from protobuf: ${serverText(unreadable, 200)}` };
  const meta = item.metadata;
  if (!isObject(meta)) return { malformed: `its metadata is ${typeOf(meta)}, not an object` };
  const who = {
    ...(typeof meta.namespace === 'string' && meta.namespace ? { namespace: serverText(meta.namespace, 100) } : {}),
    ...(typeof meta.name === 'string' && meta.name ? { name: serverText(meta.name, 100) } : {}),
  };
  // A PartialObjectMetadata says meta.k8s.io/v1 PartialObjectMetadata; the resource says what it really is. The
  // items of a full LIST of a built-in resource carry no apiVersion or kind (only the list does): the resource's.
  const value = metadataOnly
    ? { apiVersion: apiVersionOf(resource), kind: resource.kind, metadata: meta }
    : typeof item.kind !== 'string' || !item.kind || typeof item.apiVersion !== 'string' || !item.apiVersion
      ? { ...item, apiVersion: apiVersionOf(resource), kind: resource.kind }
      : item;
  let o = fastObject(value);
  if (!o) {
    const ex = new Extractor(plainReader, LIVE_SOURCE_PREFIX + context, fastObject);
    ex.document(value);
    o = ex.objects[0]?.object;
    if (!o) {
      const problem = ex.problems.find((p) => p.severity === 'error') ?? ex.problems[0];
      return { malformed: problem ? problem.message.replace(/\.$/, '') : 'its metadata cannot be read', ...who };
    }
  }
  // The live graph knows objects by uid, and the GC by uid and name: without them an object cannot be placed.
  if (!o.uid) return { malformed: 'metadata.uid is missing', ...who };
  if (!o.name) return { malformed: 'metadata.name is missing', ...who };
  if (metadataOnly) o.facts = { ...o.facts, specUnread: true };
  return o;
}

export function isMalformed(v: KubeObject | MalformedItem): v is MalformedItem {
  return 'malformed' in v;
}

/** readLiveObject, for callers that only skip what is malformed (reads in full that only add facts). */
export function toKubeObject(item: unknown, resource: DiscoveredResource, metadataOnly: boolean, context: string): KubeObject | undefined {
  const o = readLiveObject(item, resource, metadataOnly, context);
  return isMalformed(o) ? undefined : o;
}

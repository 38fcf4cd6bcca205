// A served object (full, or PartialObjectMetadata) to the engine's KubeObject, read by the same code as a
// JSON manifest so a live object and its exported copy give the same answer.

import type { KubeObject } from '../../engine/model';
import { Extractor } from '../manifests/extract';
import { fastObject } from '../manifests/fastJson';
import { plainReader } from '../manifests/reader';
import { apiVersionOf, type DiscoveredResource } from './discovery';

/** Where live objects "are", for messages: not a file, the cluster. */
export const LIVE_SOURCE_PREFIX = 'cluster:';

export function toKubeObject(item: Record<string, unknown>, resource: DiscoveredResource, metadataOnly: boolean, context: string): KubeObject | undefined {
  // A PartialObjectMetadata says meta.k8s.io/v1 PartialObjectMetadata; the resource says what it really is. The
  // items of a full LIST of a built-in resource carry no apiVersion or kind (only the list does): the resource's.
  const value = metadataOnly
    ? { apiVersion: apiVersionOf(resource), kind: resource.kind, metadata: item.metadata }
    : !item.kind || !item.apiVersion ? { ...item, apiVersion: apiVersionOf(resource), kind: resource.kind } : item;
  let o = fastObject(value);
  if (!o) {
    const ex = new Extractor(plainReader, LIVE_SOURCE_PREFIX + context, fastObject);
    ex.document(value);
    o = ex.objects[0]?.object;
  }
  if (!o) return undefined;
  if (metadataOnly) o.facts = { ...o.facts, specUnread: true };
  return o;
}

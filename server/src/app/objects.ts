// An object as every front end lists it: its summary and where it is written.

import type { KubeObject } from '../engine/model';
import type { ObjectSummary, SourceLocation } from '../../../shared/src/protocol';

export function locationOf(o: KubeObject | undefined): SourceLocation | undefined {
  const r = o?.source?.ranges;
  if (!o?.source || !r) return undefined;
  return { uri: o.source.file, range: r.name ?? r.object };
}

export function summaryOf(o: KubeObject): ObjectSummary {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: o.namespace,
    name: o.name,
    uid: o.uid,
    syntheticUid: o.syntheticUid === true,
    beingDeleted: o.deletionTimestamp !== undefined,
    finalizers: [...o.finalizers],
    ownerCount: o.ownerReferences.length,
    location: locationOf(o),
  };
}

// From "which part of the object" to a source range, when the object's positions are known.

import type { KubeObject, Range } from '../model';
import type { Finding, FindingLocation } from './findingTypes';

export function rangeOf(o: KubeObject, location: FindingLocation): Range | undefined {
  const r = o.source?.ranges;
  if (!r) return undefined;
  switch (location.kind) {
    case 'object':
      return r.name ?? r.object;
    case 'deletionTimestamp':
      return r.deletionTimestamp ?? r.name ?? r.object;
    case 'finalizer':
      return r.finalizerEntries[location.index] ?? r.finalizers ?? r.object;
    case 'ownerReference': {
      const e = r.ownerReferenceEntries[location.index];
      if (!e) return r.ownerReferences ?? r.object;
      return (location.field && e[location.field]) || e.entry;
    }
  }
}

/** Fills in ranges of findings whose objects got their positions after the analysis (JSON, see sources/). */
export function attachRanges(findings: Finding[], objectOf: (uid: string) => KubeObject | undefined): void {
  for (const f of findings) {
    if (f.range) continue;
    const o = objectOf(f.object.uid);
    if (o) f.range = rangeOf(o, f.location);
    for (const rel of f.related) {
      if (rel.range || !rel.object) continue;
      const ro = objectOf(rel.object.uid);
      if (ro) rel.range = rangeOf(ro, { kind: 'object' });
    }
  }
}

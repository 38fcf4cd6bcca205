// FieldRanges of one object, from whatever located its values (YAML nodes or the JSON scanner).

import type { FieldRanges, OwnerReferenceRanges, Range } from '../../engine/model';
import { ZERO_RANGE, type LineIndex } from './lineIndex';

export interface RangeSource<N> {
  get(n: N, key: string): N | undefined;
  items(n: N): readonly (N | undefined)[];
  /** Offsets of a node. */
  nodeOffsets(n: N | undefined): [number, number] | undefined;
  /** Offsets of the value of `key`, or of the key itself when the value is empty. */
  fieldOffsets(n: N, key: string): [number, number] | undefined;
}

const OWNER_FIELDS = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'] as const;

export function buildRanges<N>(src: RangeSource<N>, obj: N, lines: LineIndex): FieldRanges {
  const toRange = (o: [number, number] | undefined): Range | undefined => (o ? lines.range(o[0], o[1]) : undefined);
  const ranges: FieldRanges = {
    object: toRange(src.nodeOffsets(obj)) ?? ZERO_RANGE,
    ownerReferenceEntries: [],
    finalizerEntries: [],
  };
  const set = <K extends keyof FieldRanges>(key: K, value: FieldRanges[K] | undefined) => {
    if (value !== undefined) ranges[key] = value;
  };
  set('apiVersion', toRange(src.fieldOffsets(obj, 'apiVersion')));
  set('kind', toRange(src.fieldOffsets(obj, 'kind')));
  const meta = src.get(obj, 'metadata');
  if (meta === undefined) return ranges;
  set('name', toRange(src.fieldOffsets(meta, 'name') ?? src.fieldOffsets(meta, 'generateName')));
  set('namespace', toRange(src.fieldOffsets(meta, 'namespace')));
  set('uid', toRange(src.fieldOffsets(meta, 'uid')));
  set('deletionTimestamp', toRange(src.fieldOffsets(meta, 'deletionTimestamp')));
  set('ownerReferences', toRange(src.fieldOffsets(meta, 'ownerReferences')));
  set('finalizers', toRange(src.fieldOffsets(meta, 'finalizers')));
  const refs = src.get(meta, 'ownerReferences');
  if (refs !== undefined) {
    for (const entry of src.items(refs)) {
      const er: OwnerReferenceRanges = { entry: toRange(src.nodeOffsets(entry)) ?? ZERO_RANGE };
      if (entry !== undefined) {
        for (const f of OWNER_FIELDS) {
          const r = toRange(src.fieldOffsets(entry, f));
          if (r) er[f] = r;
        }
      }
      ranges.ownerReferenceEntries.push(er);
    }
  }
  const fins = src.get(meta, 'finalizers');
  if (fins !== undefined) {
    for (const f of src.items(fins)) ranges.finalizerEntries.push(toRange(src.nodeOffsets(f)) ?? ZERO_RANGE);
  }
  return ranges;
}

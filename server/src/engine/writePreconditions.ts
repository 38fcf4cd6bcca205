// The preconditions every write of a way out starts with (docs/reliability.md, "Preconditions on every write"): JSON
// patch `test` ops the apiserver checks on the object as it is stored, so that a PATCH sent by name reaches only the
// object the user saw, in the state the way out was simulated on, or is refused (422) and changes nothing.

import { isSyntheticUid, type KubeObject } from './model';

/** One operation of an RFC 6902 JSON patch (the wire's JsonPatchOp). */
export interface JsonPatchOperation {
  op: 'test' | 'remove' | 'add' | 'replace';
  path: string;
  value?: unknown;
}

export const UID_PATH = '/metadata/uid';
export const RESOURCE_VERSION_PATH = '/metadata/resourceVersion';

/**
 * The test of `o`'s uid, and with `sameState` of the resourceVersion it was read at, when it was read with one.
 * A uid made up for a manifest without one (syntheticUid) is never tested: no cluster object can have it, so the
 * printed command tests only what the manifest says (its finalizer, its replicas); the editor sends only live
 * objects, which always have a real uid (and refuses a patch whose first op is not its test: app/wayOutActions.ts).
 */
export function preconditionOps(o: Pick<KubeObject, 'uid' | 'syntheticUid' | 'resourceVersion'>, sameState: boolean): JsonPatchOperation[] {
  if (o.syntheticUid || isSyntheticUid(o.uid) || !o.uid) return [];
  return [
    { op: 'test', path: UID_PATH, value: o.uid },
    ...(sameState && o.resourceVersion ? [{ op: 'test' as const, path: RESOURCE_VERSION_PATH, value: o.resourceVersion }] : []),
  ];
}

// One link of a why-chain (BlockReason), as the report and the stuck-objects tree name it.

import type { BlockReason, BlockType } from '../../../shared/src/protocol';
import { describeObject } from './objects';

const TITLES: Record<BlockType, string> = {
  finalizer: 'finalizer',
  'waiting-for-dependents': 'waiting for dependents',
  'graceful-termination': 'graceful termination',
  'namespace-content': 'namespace content',
  'namespace-controller': 'namespace controller',
  'unresolvable-owner': 'unresolvable owner',
  'invalid-scope': 'invalid scope',
  'unavailable-apiservice': 'unavailable APIService',
  'blocking-webhook': 'blocking webhook',
};

export type ReasonHeading =
  /** A reason about the object itself: `finalizer` + `kubernetes.io/pvc-protection`, then the message. */
  | { kind: 'reason'; title: string; finalizer?: string; message: string }
  /** A link that names another object (a Pod using the claim, content left in the namespace): the object, then its role. */
  | { kind: 'object'; object: NonNullable<BlockReason['object']>; message: string };

export function reasonHeading(r: BlockReason): ReasonHeading {
  // The engine's "object" links carry no finalizer or controller of their own and start their message with the
  // object's name ("Pod shop/db-0 uses the claim (Terminating)"); the name becomes the heading.
  if (r.object && r.finalizer === undefined && r.controller === undefined) {
    const name = describeObject(r.object);
    const message = r.message.startsWith(`${name} `) ? r.message.slice(name.length + 1) : r.message;
    return { kind: 'object', object: r.object, message };
  }
  const title = TITLES[r.type] ?? r.type;
  // The foreground wait names its finalizer (foregroundDeletion) only through its title.
  const finalizer = r.type === 'finalizer' ? r.finalizer : undefined;
  return { kind: 'reason', title, ...(finalizer !== undefined ? { finalizer } : {}), message: r.message };
}

/** Plain text lines about a reason, for tooltips. */
export function reasonFacts(r: BlockReason): string[] {
  const lines = [r.message];
  if (r.finalizer !== undefined) lines.push(`Finalizer: ${r.finalizer}`);
  if (r.controller !== undefined) lines.push(`Controller: ${r.controller}`);
  if (r.object) lines.push(`Object: ${describeObject(r.object)} (uid ${r.object.uid})`);
  if (r.step !== undefined) lines.push(`Step: ${r.step}`);
  return lines;
}

// The Stuck Objects tree as plain data: one root per StuckItem (stuck now, or a predicted deadlock), its
// why-chain (BlockReason.blockedBy) as children. stuckObjectsView.ts turns nodes into VS Code tree items.

import type { BlockReason, BlockType } from '../../../server/src/engine/simulation/types';
import type { SourceLocation, StuckItem } from '../../../server/src/protocol';
import { reasonFacts, reasonHeading } from './blockReasons';
import { describeObject, formatAge, locationLabel } from './objects';

/** What the context menu may offer: `object.revealable` (reveal + simulate), `object` (simulate), `reason` (nothing). */
export type StuckNodeContext = 'object.revealable' | 'object' | 'reason';

export interface StuckTreeNode {
  /** Stable across refreshes, so VS Code keeps what the user expanded. */
  id: string;
  label: string;
  description: string;
  /** Plain text (not markdown). */
  tooltip: string;
  /** A codicon id. */
  icon: string;
  /** Roots are drawn in the warning colour. */
  warning: boolean;
  contextValue: StuckNodeContext;
  /** 0 for a root, then one more per link of the chain. */
  depth: number;
  uid?: string;
  location?: SourceLocation;
  hasChildren: boolean;
  /** The children's source: the reasons below this node, or one sentence when there are none. */
  reasons: BlockReason[];
  note?: string;
  locations: Record<string, SourceLocation>;
}

const ROOT_DESCRIPTIONS: Record<StuckItem['kind'], string> = {
  'stuck': 'stuck terminating',
  'slow': 'terminating for long',
  'finalizer-deadlock': 'predicted finalizer deadlock',
  'foreground-deadlock': 'predicted foreground deadlock',
};

const ROOT_ICONS: Record<StuckItem['kind'], string> = {
  'stuck': 'watch',
  'slow': 'history',
  'finalizer-deadlock': 'lock',
  'foreground-deadlock': 'debug-pause',
};

const REASON_ICONS: Record<BlockType, string> = {
  'finalizer': 'lock',
  'waiting-for-dependents': 'debug-pause',
  'graceful-termination': 'debug-stop',
  'namespace-content': 'folder',
  'namespace-controller': 'circle-slash',
  'unresolvable-owner': 'question',
  'invalid-scope': 'error',
};

/** Deeper than the engine ever goes; stops a hostile or cyclic input from growing the tree forever. */
const MAX_DEPTH = 12;

export function stuckRoots(items: StuckItem[]): StuckTreeNode[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const o = item.object;
    const base = `${item.kind}:${o.uid}`;
    // The server lists each object once per kind; a repeat still gets its own id.
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const age = item.ageSeconds !== undefined ? formatAge(item.ageSeconds) : undefined;
    const tooltip = [
      `${describeObject(o)} (${o.apiVersion})`,
      item.reason,
      item.deletionTimestamp ? `Terminating since ${item.deletionTimestamp}${age ? `, ${age} before the newest timestamp in the input` : ''}` : undefined,
      o.finalizers.length ? `Finalizers: ${o.finalizers.join(', ')}` : undefined,
      o.location ? `Written in ${locationLabel(o.location)}` : undefined,
    ].filter((x): x is string => x !== undefined);
    return {
      id: n ? `${base}#${n}` : base,
      label: describeObject(o),
      description: age ? `${ROOT_DESCRIPTIONS[item.kind]} · ${age}` : ROOT_DESCRIPTIONS[item.kind],
      tooltip: tooltip.join('\n'),
      icon: ROOT_ICONS[item.kind],
      warning: true,
      contextValue: o.location ? 'object.revealable' : 'object',
      depth: 0,
      uid: o.uid,
      ...(o.location ? { location: o.location } : {}),
      hasChildren: item.blockedBy.length > 0 || item.reason !== '',
      reasons: item.blockedBy,
      ...(item.blockedBy.length ? {} : { note: item.reason }),
      locations: item.locations ?? {},
    };
  });
}

export function childrenOf(node: StuckTreeNode): StuckTreeNode[] {
  const depth = node.depth + 1;
  if (node.reasons.length === 0) {
    if (!node.note) return [];
    return [{
      id: `${node.id}/note`, label: node.note, description: '', tooltip: node.note, icon: 'info', warning: false,
      contextValue: 'reason', depth, hasChildren: false, reasons: [], locations: node.locations,
    }];
  }
  return node.reasons.map((r, i) => reasonNode(r, `${node.id}/${i}`, depth, node.locations));
}

function reasonNode(r: BlockReason, id: string, depth: number, locations: Record<string, SourceLocation>): StuckTreeNode {
  const h = reasonHeading(r);
  const uid = r.object?.uid;
  const location = uid !== undefined && Object.prototype.hasOwnProperty.call(locations, uid) ? locations[uid] : undefined;
  const children = depth < MAX_DEPTH ? r.blockedBy ?? [] : [];
  return {
    id,
    label: h.kind === 'object' ? describeObject(h.object) : h.finalizer !== undefined ? `${h.title} ${h.finalizer}` : h.title,
    description: h.message,
    tooltip: [...reasonFacts(r), ...(location ? [`Written in ${locationLabel(location)}`] : [])].join('\n'),
    icon: REASON_ICONS[r.type] ?? 'circle-outline',
    warning: false,
    contextValue: uid === undefined ? 'reason' : location ? 'object.revealable' : 'object',
    depth,
    ...(uid !== undefined ? { uid } : {}),
    ...(location ? { location } : {}),
    hasChildren: children.length > 0,
    reasons: children,
    locations,
  };
}

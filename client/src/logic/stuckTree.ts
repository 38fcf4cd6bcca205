// The Stuck Objects tree as plain data: one root per StuckItem (stuck now, or a predicted deadlock), its
// why-chain (BlockReason.blockedBy) as children. stuckObjectsView.ts turns nodes into VS Code tree items.

import type { BlockReason, BlockType, NamespaceCondition, WayOut, WayOutRisk } from '../../../shared/src/protocol';
import type { SourceLocation, StuckItem } from '../../../shared/src/protocol';
import { reasonFacts, reasonHeading } from './blockReasons';
import { count, describeObject, formatAge, locationLabel } from './objects';
import { wayOutAction, wayOutTooltip } from './wayOuts';

/**
 * What the context menu may offer: `object.revealable` (reveal + simulate), `object` (simulate), `object.live` (a
 * live object: simulate on the live graph), `object.live.revealable` (and open its read-only live document),
 * `reason` (nothing), `section.workspace` / `section.live` (the two sections shown while connected to a cluster),
 * `wayOut` (copy its command), `wayOut.live.finalizer` / `wayOut.live.fix` (a live way out the editor can send:
 * Remove Finalizer… / Apply Fix…, besides copying it).
 */
export type StuckNodeContext =
  | 'object.revealable'
  | 'object'
  | 'object.live'
  | 'object.live.revealable'
  | 'reason'
  | 'section.workspace'
  | 'section.live'
  | 'wayOut'
  | 'wayOut.live.finalizer'
  | 'wayOut.live.fix';

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
  /** The object (or the chain's object) is in the live cluster: Simulate Delete runs on the live graph. */
  live?: boolean;
  /** A section's nodes, computed up front (sections only). */
  children?: StuckTreeNode[];
  /** Shown expanded (sections). */
  expanded?: boolean;
  /** A Namespace's status conditions that hold (roots only): children after the why-chain. */
  conditions?: NamespaceCondition[];
  /** The ways out of a stuck root, safest first: its last children. */
  waysOut?: WayOut[];
  /** A way-out node: the way out, and the uid of the stuck object it releases. */
  wayOut?: WayOut;
  stuckUid?: string;
  /** A live root and its ways out: the kube-system uid of the cluster the row was computed on (sent with a way out). */
  clusterUid?: string;
}

const ROOT_DESCRIPTIONS: Record<StuckItem['state'], string> = {
  stuck: 'stuck terminating',
  slow: 'still cleaning up',
  'finalizer-deadlock': 'predicted finalizer deadlock',
  'foreground-deadlock': 'predicted foreground deadlock',
};

const ROOT_ICONS: Record<StuckItem['state'], string> = {
  stuck: 'watch',
  slow: 'history',
  'finalizer-deadlock': 'lock',
  'foreground-deadlock': 'debug-pause',
};

const REASON_ICONS: Record<BlockType, string> = {
  finalizer: 'lock',
  'waiting-for-dependents': 'debug-pause',
  'graceful-termination': 'debug-stop',
  'namespace-content': 'folder',
  'namespace-controller': 'circle-slash',
  'unresolvable-owner': 'question',
  'invalid-scope': 'error',
  'unavailable-apiservice': 'debug-disconnect',
  'blocking-webhook': 'shield',
};

/** Deeper than the engine ever goes; stops a hostile or cyclic input from growing the tree forever. */
const MAX_DEPTH = 12;

/** How the roots of one list are made: the workspace's (the default) or a live cluster's. */
export interface StuckRootOptions {
  /**
   * The items are live objects: ids get a `live/` prefix (the same uid can be in the workspace too), ages are
   * counted from deletionTimestamp to `now` (ms; the view refreshes ages without asking the server), and
   * Simulate Delete runs on the live graph.
   */
  live?: { now: number };
}

/** Seconds from `since` (RFC 3339) to `now` (ms), or undefined when it does not parse. */
function secondsSince(since: string | undefined, now: number): number | undefined {
  const t = since === undefined ? NaN : Date.parse(since);
  return Number.isNaN(t) ? undefined : Math.max(0, (now - t) / 1000);
}

export function stuckRoots(items: StuckItem[], options: StuckRootOptions = {}): StuckTreeNode[] {
  const seen = new Map<string, number>();
  const live = options.live;
  return items.map((item) => {
    const o = item;
    const base = `${live ? 'live/' : ''}${item.state}:${o.uid}`;
    // The server lists each object once per kind; a repeat still gets its own id.
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const seconds = (live ? secondsSince(item.since ?? undefined, live.now) : undefined) ?? item.ageSeconds;
    const age = seconds !== undefined ? formatAge(seconds) : undefined;
    const ageNote = live ? ' ago' : ' before the newest timestamp in the input';
    const tooltip = [
      `${describeObject(o)} (${o.apiVersion})`,
      item.reason,
      item.since ? `Terminating since ${item.since}${age ? `, ${age}${ageNote}` : ''}` : undefined,
      o.finalizers.length ? `Finalizers: ${o.finalizers.join(', ')}` : undefined,
      o.location ? `Written in ${locationLabel(o.location)}` : undefined,
    ].filter((x): x is string => x !== undefined);
    return {
      id: n ? `${base}#${n}` : base,
      label: describeObject(o),
      // A finish that rests on a guessed controller is not proven: said where a stuck one says "stuck".
      description: `${item.guess !== undefined ? 'not proven to finish (guessed controller)' : ROOT_DESCRIPTIONS[item.state]}${age ? ` · ${age}` : ''}`,
      tooltip: tooltip.join('\n'),
      icon: ROOT_ICONS[item.state],
      // A slow one is probably still cleaning up: no alarm colour.
      warning: item.state !== 'slow',
      contextValue: live ? (o.location ? 'object.live.revealable' : 'object.live') : o.location ? 'object.revealable' : 'object',
      depth: 0,
      uid: o.uid,
      ...(o.location ? { location: o.location } : {}),
      hasChildren:
        item.blockedBy.length > 0 || item.reason !== '' || (item.namespaceConditions?.length ?? 0) > 0 || (item.waysOut?.length ?? 0) > 0,
      reasons: item.blockedBy,
      ...(item.blockedBy.length ? {} : { note: item.reason }),
      locations: item.locations ?? {},
      ...(live ? { live: true } : {}),
      ...(item.namespaceConditions?.length ? { conditions: item.namespaceConditions } : {}),
      ...(item.waysOut?.length ? { waysOut: item.waysOut } : {}),
      ...(live && item.clusterUid !== undefined ? { clusterUid: item.clusterUid } : {}),
    };
  });
}

const RISK_ICONS: Record<WayOutRisk, string> = { safe: 'pass', caution: 'warning', dangerous: 'flame' };

/** One way out of a stuck root: risk and title, its simulated outcome beside; live ones the editor can send say how. */
function wayOutNode(root: StuckTreeNode, w: WayOut, i: number): StuckTreeNode {
  const action = root.live ? wayOutAction(w) : undefined;
  return {
    id: `${root.id}/way:${i}`,
    label: `Way out (${w.risk}): ${w.title}`,
    description: w.outcome.summary,
    tooltip: wayOutTooltip(w),
    icon: RISK_ICONS[w.risk] ?? 'circle-outline',
    warning: false,
    contextValue: action === 'remove-finalizer' ? 'wayOut.live.finalizer' : action === 'apply-fix' ? 'wayOut.live.fix' : 'wayOut',
    depth: root.depth + 1,
    hasChildren: false,
    reasons: [],
    locations: root.locations,
    wayOut: w,
    ...(root.uid !== undefined ? { stuckUid: root.uid } : {}),
    ...(root.live ? { live: true } : {}),
    ...(root.clusterUid !== undefined ? { clusterUid: root.clusterUid } : {}),
  };
}

export function childrenOf(node: StuckTreeNode): StuckTreeNode[] {
  if (node.children) return node.children;
  const ways = (node.waysOut ?? []).map((w, i) => wayOutNode(node, w, i));
  // The chain of a live object names live objects: they simulate on the live graph too.
  if (node.live) return [...reasonChildren(node).map(asLive), ...ways];
  return [...reasonChildren(node), ...ways];
}

function asLive(n: StuckTreeNode): StuckTreeNode {
  const contextValue =
    n.contextValue === 'object'
      ? ('object.live' as const)
      : n.contextValue === 'object.revealable'
        ? ('object.live.revealable' as const)
        : n.contextValue;
  return { ...n, live: true, contextValue };
}

function reasonChildren(node: StuckTreeNode): StuckTreeNode[] {
  const depth = node.depth + 1;
  // The engine's why-chain (or its sentence) first, then what the cluster's namespace controller reports.
  const reported = (node.conditions ?? []).map((c) => conditionNode(c, `${node.id}/condition:${c.type}`, depth, node.locations));
  if (node.reasons.length === 0) {
    if (!node.note) return reported;
    return [
      {
        id: `${node.id}/note`,
        label: node.note,
        description: '',
        tooltip: node.note,
        icon: 'info',
        warning: false,
        contextValue: 'reason',
        depth,
        hasChildren: false,
        reasons: [],
        locations: node.locations,
      },
      ...reported,
    ];
  }
  return [...node.reasons.map((r, i) => reasonNode(r, `${node.id}/${i}`, depth, node.locations)), ...reported];
}

/** Conditions that stop the namespace controller from finishing, whatever is left inside. */
const FAILURE_CONDITIONS = new Set([
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
]);

/** One status condition of a Namespace: its type, then its message (the reason when there is no message). */
function conditionNode(c: NamespaceCondition, id: string, depth: number, locations: Record<string, SourceLocation>): StuckTreeNode {
  const tooltip = [
    `${c.type}: ${c.status}${c.reason ? ` (${c.reason})` : ''}`,
    ...(c.message ? [c.message] : []),
    ...(c.lastTransitionTime ? [`Since ${c.lastTransitionTime}`] : []),
    "Reported by the namespace controller in the Namespace's status.conditions",
  ];
  return {
    id,
    label: c.type,
    description: c.message ?? c.reason ?? '',
    tooltip: tooltip.join('\n'),
    icon: FAILURE_CONDITIONS.has(c.type) ? 'warning' : 'info',
    warning: false,
    contextValue: 'reason',
    depth,
    hasChildren: false,
    reasons: [],
    locations,
  };
}

function reasonNode(r: BlockReason, id: string, depth: number, locations: Record<string, SourceLocation>): StuckTreeNode {
  const h = reasonHeading(r);
  const uid = r.object?.uid;
  const location = uid !== undefined && Object.prototype.hasOwnProperty.call(locations, uid) ? locations[uid] : undefined;
  const children = depth < MAX_DEPTH ? (r.blockedBy ?? []) : [];
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

// ---------------------------------------------------------------------------------------------------------------
// Sections: while connected to a cluster the view shows the workspace's list and the live cluster's side by side.

/** What a section lists: items, or why there are none to show yet. */
export type SectionSource = { items: StuckItem[] } | { error: string } | { pending: string };

/**
 * What a section shows, less what only time changes (each item's age): two answers with the same key draw the same
 * tree, so a refresh that brings nothing new need not redraw it (a redraw closes the context menu a user has open).
 */
export function sectionKey(source: SectionSource | undefined): string {
  if (!source) return '';
  if (!('items' in source)) return JSON.stringify(source);
  return JSON.stringify(source.items.map(({ ageSeconds: _age, ...rest }) => rest));
}

export interface LiveSectionInput {
  /** The kubeconfig context. */
  context: string;
  source: SectionSource;
  /** Now (ms), for the ages. */
  now: number;
  stuckAfterMinutes: number;
}

/** `2 stuck · 1 still cleaning up · 1 predicted deadlock`, or `nothing stuck`. */
export function sectionSummary(items: StuckItem[]): string {
  const n = (states: StuckItem['state'][]) => items.filter((i) => states.includes(i.state)).length;
  const parts = [
    n(['stuck']) ? `${n(['stuck'])} stuck` : undefined,
    n(['slow']) ? `${n(['slow'])} still cleaning up` : undefined,
    n(['finalizer-deadlock', 'foreground-deadlock'])
      ? count(n(['finalizer-deadlock', 'foreground-deadlock']), 'predicted deadlock')
      : undefined,
  ].filter((x): x is string => x !== undefined);
  return parts.length ? parts.join(' · ') : 'nothing stuck';
}

/** The two sections: "Workspace manifests" and "Live cluster (<context>)", both expanded. */
export function stuckSections(workspace: SectionSource, live: LiveSectionInput): StuckTreeNode[] {
  return [
    section(
      {
        id: 'section:workspace',
        label: 'Workspace manifests',
        icon: 'file-code',
        contextValue: 'section.workspace',
        tooltip: "Objects of the workspace's manifests being deleted that cannot finish, and predicted finalizer and foreground deadlocks.",
        empty: 'Nothing is stuck in the workspace, and no deadlock is predicted.',
      },
      workspace,
      (items) => stuckRoots(items),
    ),
    section(
      {
        id: 'section:live',
        label: `Live cluster (${live.context})`,
        icon: 'cloud',
        contextValue: 'section.live',
        tooltip: `Live objects of context ${live.context} with a deletionTimestamp that cannot finish, or terminating for longer than ${count(live.stuckAfterMinutes, 'minute')} (still cleaning up). Refreshed from the cluster's watch events.`,
        empty: `Nothing is stuck: no live object is terminating without being able to finish, or for longer than ${count(live.stuckAfterMinutes, 'minute')}.`,
      },
      live.source,
      (items) => stuckRoots(items, { live: { now: live.now } }),
      true,
    ),
  ];
}

interface SectionText {
  id: string;
  label: string;
  icon: string;
  contextValue: 'section.workspace' | 'section.live';
  tooltip: string;
  empty: string;
}

function section(t: SectionText, source: SectionSource, roots: (items: StuckItem[]) => StuckTreeNode[], live = false): StuckTreeNode {
  const message = (label: string, icon: string): StuckTreeNode => ({
    id: `${t.id}/message`,
    label,
    description: '',
    tooltip: label,
    icon,
    warning: false,
    contextValue: 'reason',
    depth: 1,
    hasChildren: false,
    reasons: [],
    locations: {},
  });
  let children: StuckTreeNode[];
  let description: string;
  if ('items' in source) {
    children = source.items.length ? roots(source.items) : [message(t.empty, 'check')];
    description = sectionSummary(source.items);
  } else if ('error' in source) {
    children = [message(`Could not list the stuck objects: ${source.error}`, 'error')];
    description = 'error';
  } else {
    children = [message(source.pending, 'loading~spin')];
    description = '';
  }
  return {
    id: t.id,
    label: t.label,
    description,
    tooltip: t.tooltip,
    icon: t.icon,
    warning: false,
    contextValue: t.contextValue,
    depth: 0,
    hasChildren: true,
    reasons: [],
    locations: {},
    children,
    expanded: true,
    ...(live ? { live: true } : {}),
  };
}

// What each node and edge looks like, whatever draws it (the SVG and canvas renderers, the SVG/PNG/DOT exports):
// its two text lines, its badge, its simulation overlay. Pure (no DOM).

import { kindBadge } from './kinds';
import type { Point } from './layout';
import type { NamespaceBox } from './namespaces';
import type { PlaybackFrame } from './playback';
import { STATE_LABELS, type GraphView, type ViewEdge, type ViewNode } from './viewModel';

/** Characters of a name that fit on a node's line. */
export const LINE_CHARS = 24;

/**
 * `s` in at most `max` characters. Names are cut in the middle (`web-1-7…f8-abcde`): the pods of one ReplicaSet
 * differ only in their suffix, which must stay; sentences (`end`) are cut at the end; namespaces (`tail`) keep more
 * of their end. The full text is in the
 * node's tooltip and description.
 */
export function truncate(s: string, max = LINE_CHARS, cut: 'middle' | 'end' | 'tail' = 'middle'): string {
  // Controls and bidi overrides never reach the picture: they could make a name read as another.
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
  const chars = [...clean]; // code points: a surrogate pair is never split
  if (chars.length <= max) return clean;
  if (cut === 'end') return `${chars.slice(0, max - 1).join('')}…`;
  // `tail`: names whose start is shared (openshift-…) keep three quarters of their end.
  const tail = cut === 'tail' ? Math.ceil(((max - 1) * 3) / 4) : Math.ceil((max - 1) / 2);
  return `${chars.slice(0, max - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** Line 1: the name (or "437 Pods"); line 2: the namespace and the state when it is not "present". */
export function nodeLines(node: ViewNode): [string, string] {
  const where = node.members ? 'collapsed' : node.namespace || 'cluster-scoped';
  const state = node.status === 'present' ? (node.tags.includes('dangling') ? 'dangling reference' : '') : STATE_LABELS[node.status];
  return [truncate(node.name), truncate(state ? `${where} · ${state}` : where, LINE_CHARS + 6)];
}

/** The name as it fits beside the badge (shorter when the findings count takes the corner). */
export function nameLine(node: ViewNode): string {
  return truncate(node.name, node.findings ? 14 : 18);
}

export function nodeBadge(node: ViewNode): string {
  return kindBadge(node.kind);
}

export type OverlayState = 'removed' | 'deleting' | 'stuck';

export interface NodeOverlay {
  state?: OverlayState;
  /** Removal order (1 = first to go), for objects the simulation deletes. */
  order?: number;
  /** Why it cannot finish (stuck at the end of the timeline). */
  reason?: string;
  /** The step just played targets it. */
  current: boolean;
  /** The simulation names it (anything else is dimmed while a simulation is shown). */
  affected: boolean;
}

const NO_OVERLAY: NodeOverlay = { current: false, affected: false };

export function nodeOverlay(node: ViewNode, frame: PlaybackFrame | undefined): NodeOverlay {
  if (!frame) return NO_OVERLAY;
  const uids = node.members ?? [node.id];
  let removed = 0;
  let deleting = 0;
  let reason: string | undefined;
  let order: number | undefined;
  let affected = false;
  let current = false;
  for (const uid of uids) {
    if (frame.removed.has(uid)) removed++;
    else if (frame.deleting.has(uid)) deleting++;
    const r = frame.stuck.get(uid);
    if (r !== undefined && reason === undefined) reason = r;
    const o = frame.removalOrder.get(uid);
    if (o !== undefined && (order === undefined || o < order)) order = o;
    if (frame.affected.has(uid)) affected = true;
    if (frame.current?.target.uid === uid) current = true;
  }
  const state: OverlayState | undefined =
    reason !== undefined ? 'stuck' : removed === uids.length ? 'removed' : removed || deleting ? 'deleting' : undefined;
  return { state, order: node.members ? undefined : order, reason, current, affected };
}

/** `cut`: an orphaned dependent's reference, removed by the GC; `gone`: an end of it was removed. */
export function edgeOverlay(edge: ViewEdge, view: GraphView, frame: PlaybackFrame | undefined): 'cut' | 'gone' | undefined {
  if (!frame) return undefined;
  const members = view.byId.get(edge.dependent)?.members;
  const dependents = members ?? [edge.dependent];
  if (dependents.every((d) => frame.cut.has(`${d}>${edge.owner}`))) return 'cut';
  const gone = (id: string) => (view.byId.get(id)?.members ?? [id]).every((u) => frame.removed.has(u));
  if (gone(edge.owner) || gone(edge.dependent)) return 'gone';
  return undefined;
}

/** The second line under a simulation: what happens to it; otherwise nodeLines' second line. */
export function subline(node: ViewNode, overlay: NodeOverlay): string {
  if (overlay.state === 'stuck') return truncate(`${OVERLAY_MARKS.stuck} stuck: ${overlay.reason ?? ''}`, LINE_CHARS + 6, 'end');
  if (overlay.state === 'removed')
    return `${OVERLAY_MARKS.removed} ${node.members ? 'all removed' : `removed${overlay.order ? ` · #${overlay.order}` : ''}`}`;
  if (overlay.state === 'deleting') return `${OVERLAY_MARKS.deleting} ${node.members ? 'being deleted (some removed)' : 'being deleted'}`;
  return nodeLines(node)[1];
}

/**
 * What tells the playback's states apart besides colour (light, dark and high-contrast themes alike): a mark in the
 * second line, and the box's outline (styles.css, palette.ts): removed, a dashed outline and a struck name; stuck, a
 * double outline; untouched, faded with its outline unchanged.
 */
export const OVERLAY_MARKS: Readonly<Record<OverlayState, string>> = { removed: '✕', deleting: '…', stuck: '⊘' };

/** What a renderer draws. */
export interface Scene {
  view: GraphView;
  positions: ReadonlyMap<string, Point>;
  reversed: ReadonlySet<string>;
  /** The namespaces' containers (model/namespaces.ts). */
  boxes: readonly NamespaceBox[];
  frame?: PlaybackFrame;
  selected?: string;
}

/**
 * Semantic zoom: below this scale objects are too small to tell apart (about 55 × 13 screen pixels), so each
 * namespace is drawn as one aggregate box with its counts and its kinds ("openshift-monitoring: 228 objects, 2
 * stuck"); zoom in, or click a box, to see its objects.
 */
export const OVERVIEW_SCALE = 0.3;

export type ZoomLevel = 'overview' | 'objects';

/** A view of fewer objects than this is never aggregated: its boxes show well enough, and are what a user clicks. */
export const OVERVIEW_MIN_NODES = 100;

/** The level of detail at scale `k` of a view of `nodes` nodes in `boxes` namespace boxes. */
export function zoomLevel(k: number, boxes: number, nodes: number): ZoomLevel {
  return k < OVERVIEW_SCALE && boxes > 0 && nodes > OVERVIEW_MIN_NODES ? 'overview' : 'objects';
}

/** Dimmed: not matched by an active search, or not touched by the simulation shown. */
export function isDimmed(node: ViewNode, overlay: NodeOverlay, scene: Scene, searching: boolean): boolean {
  return (searching && !node.match) || (scene.frame !== undefined && !overlay.affected);
}

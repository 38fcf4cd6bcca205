// Namespaces in the graph (issue 17): each namespace is drawn as a container of its objects (the Namespace object in
// its top-left corner, its objects laid out inside, the cluster-scoped objects in a box of their own), and at the
// overview level as one aggregate box with its counts and states. Pure (no DOM): unit-tested in test/webview.

import { dependentsOf, ownersOf, type GraphIndex } from './graphIndex';
import { boundsOf, layeredLayout, NODE_HEIGHT, NODE_WIDTH, type Layout, type Point } from './layout';
import { nodeStatus, type GraphView, type NodeStatus, type ViewNode } from './viewModel';

/** Room inside a container around its objects, and its label strip on top. */
export const BOX_PADDING = 16;
export const BOX_HEADER = 26;
const BOX_GAP = 48;

/** The namespace a node is drawn in: its own, or for a Namespace object the namespace it is ('' cluster-scoped). */
export function homeOf(node: { kind: string; name: string; namespace: string; members?: unknown }): string {
  return node.kind === 'Namespace' && !node.namespace && !node.members ? node.name : node.namespace;
}

export interface NamespaceBox {
  /** '' for the cluster-scoped objects. */
  namespace: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The Namespace object's node id, when the graph has it. */
  namespaceNode?: string;
  /** The node ids drawn in it. */
  ids: string[];
  /** Objects in it (a collapsed group counts its members), the Namespace object included. */
  objects: number;
  /** Objects by state (present left out). */
  states: Partial<Record<NodeStatus, number>>;
  /** Objects per kind, most first, then by name. */
  kinds: { kind: string; objects: number; stuck: number }[];
}

/**
 * The layered layout (layout.ts) per namespace, each namespace's objects in a block of their own with its Namespace
 * object in the top-left corner, blocks packed in rows, largest first. Edges between namespaces (a cluster-scoped
 * owner) cross between blocks.
 */
export function namespacedLayout(view: { nodes: readonly ViewNode[]; edges: GraphView['edges'] }): Layout {
  const groups = new Map<string, ViewNode[]>();
  for (const n of view.nodes) {
    const home = homeOf(n);
    const list = groups.get(home);
    if (list) list.push(n);
    else groups.set(home, [n]);
  }
  const homeById = new Map<string, string>();
  for (const [home, nodes] of groups) for (const n of nodes) homeById.set(n.id, home);
  const edgesByHome = new Map<string, GraphView['edges'][number][]>();
  for (const e of view.edges) {
    const home = homeById.get(e.owner);
    if (home === undefined || home !== homeById.get(e.dependent)) continue;
    const list = edgesByHome.get(home);
    if (list) list.push(e);
    else edgesByHome.set(home, [e]);
  }
  interface Block {
    home: string;
    positions: Map<string, Point>;
    width: number;
    height: number;
    size: number;
  }
  const reversed = new Set<string>();
  const blocks: Block[] = [];
  for (const [home, nodes] of groups) {
    const header = nodes.find((n) => n.kind === 'Namespace' && !n.members && homeOf(n) === home && home !== '');
    const content = header ? nodes.filter((n) => n !== header) : nodes;
    const laid = layeredLayout({ nodes: content, edges: edgesByHome.get(home) ?? [] });
    for (const r of laid.reversed) reversed.add(r);
    const b = boundsOf(laid.positions.values());
    const top = BOX_HEADER + (header ? NODE_HEIGHT + BOX_PADDING : 0);
    const positions = new Map<string, Point>();
    if (header) positions.set(header.id, { x: BOX_PADDING + NODE_WIDTH / 2, y: BOX_HEADER + NODE_HEIGHT / 2 });
    let width = BOX_PADDING * 2 + NODE_WIDTH;
    let height = top + BOX_PADDING;
    if (b) {
      for (const [id, p] of laid.positions) positions.set(id, { x: p.x - b.minX + BOX_PADDING, y: p.y - b.minY + top });
      width = Math.max(width, b.maxX - b.minX + BOX_PADDING * 2);
      height = top + (b.maxY - b.minY) + BOX_PADDING;
    }
    blocks.push({ home, positions, width, height, size: nodes.length });
  }
  blocks.sort((a, b) => b.size - a.size || a.home.localeCompare(b.home));
  const placed = shelfPack(blocks);
  const positions = new Map<string, Point>();
  blocks.forEach((b, i) => {
    const at = placed[i];
    for (const [id, p] of b.positions) positions.set(id, { x: at.x + p.x, y: at.y + p.y });
  });
  return { positions, reversed };
}

/** A panel beside the editor is about this much wider than tall: the packing aims for that shape. */
const TARGET_ASPECT = 1.6;

/**
 * Blocks (in order) in rows, the row width chosen among the widths the blocks' order offers so that the whole is
 * closest to the panel's shape (the largest fit scale): a few large namespaces side by side rather than stacked.
 */
export function shelfPack(blocks: readonly { width: number; height: number }[]): Point[] {
  const pack = (rowWidth: number) => {
    const at: Point[] = [];
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    let width = 0;
    for (const b of blocks) {
      if (x > 0 && x + b.width > rowWidth) {
        x = 0;
        y += rowHeight + BOX_GAP;
        rowHeight = 0;
      }
      at.push({ x, y });
      x += b.width + BOX_GAP;
      width = Math.max(width, x - BOX_GAP);
      rowHeight = Math.max(rowHeight, b.height);
    }
    return { at, width, height: y + rowHeight };
  };
  const widest = Math.max(0, ...blocks.map((b) => b.width));
  const candidates = new Set<number>([widest]);
  let sum = 0;
  for (const b of blocks.slice(0, 200)) {
    sum += b.width + (sum ? BOX_GAP : 0);
    if (sum >= widest) candidates.add(sum);
  }
  let best: ReturnType<typeof pack> | undefined;
  let bestSide = Infinity;
  for (const w of candidates) {
    const p = pack(w);
    const side = Math.max(p.width, p.height * TARGET_ASPECT);
    if (side < bestSide) {
      bestSide = side;
      best = p;
    }
  }
  return best?.at ?? [];
}

/** The containers around the nodes where they are (after a stable update too), with their counts. */
export function namespaceBoxes(view: GraphView, positions: ReadonlyMap<string, Point>, index: GraphIndex): NamespaceBox[] {
  const byHome = new Map<string, { ids: string[]; points: Point[]; nodes: ViewNode[] }>();
  for (const n of view.nodes) {
    const p = positions.get(n.id);
    if (!p) continue;
    const home = homeOf(n);
    let g = byHome.get(home);
    if (!g) byHome.set(home, (g = { ids: [], points: [], nodes: [] }));
    g.ids.push(n.id);
    g.points.push(p);
    g.nodes.push(n);
  }
  const out: NamespaceBox[] = [];
  for (const [namespace, g] of byHome) {
    const b = boundsOf(g.points)!;
    const states: Partial<Record<NodeStatus, number>> = {};
    const kinds = new Map<string, { kind: string; objects: number; stuck: number }>();
    let objects = 0;
    let namespaceNode: string | undefined;
    for (const n of g.nodes) {
      if (n.kind === 'Namespace' && !n.members && namespace !== '') namespaceNode = n.id;
      const k = kinds.get(n.kind) ?? { kind: n.kind, objects: 0, stuck: 0 };
      kinds.set(n.kind, k);
      // A collapsed group counts each of its members in its own state.
      const statuses = n.members ? n.members.map((uid) => nodeStatus(index.nodes.get(uid)!)) : [n.status];
      for (const status of statuses) {
        objects++;
        k.objects++;
        if (status === 'stuck') k.stuck++;
        if (status !== 'present') states[status] = (states[status] ?? 0) + 1;
      }
    }
    out.push({
      namespace,
      x: b.minX - BOX_PADDING,
      y: b.minY - BOX_HEADER,
      width: b.maxX - b.minX + 2 * BOX_PADDING,
      height: b.maxY - b.minY + BOX_HEADER + BOX_PADDING,
      ...(namespaceNode ? { namespaceNode } : {}),
      ids: g.ids,
      objects,
      states,
      kinds: [...kinds.values()].sort((a, b) => b.objects - a.objects || a.kind.localeCompare(b.kind)),
    });
  }
  return out;
}

/** "namespace shop", "cluster-scoped". */
export function boxName(box: NamespaceBox): string {
  return box.namespace === '' ? 'cluster-scoped' : box.namespace;
}

/** "openshift-monitoring: 228 objects, 2 stuck, 1 being deleted": the overview's line, and its screen-reader text. */
export function boxSummary(box: NamespaceBox): string {
  const s = box.states;
  const parts = [`${box.objects} object${box.objects === 1 ? '' : 's'}`];
  if (s.stuck) parts.push(`${s.stuck} stuck`);
  const deleting = (s['being-deleted'] ?? 0) + (s['deleting-dependents'] ?? 0);
  if (deleting) parts.push(`${deleting} being deleted`);
  if (s.virtual) parts.push(`${s.virtual} missing owner${s.virtual === 1 ? '' : 's'}`);
  return `${boxName(box)}: ${parts.join(', ')}`;
}

/** The box at a point of the graph (overview clicks). */
export function boxAt(boxes: readonly NamespaceBox[], p: Point): NamespaceBox | undefined {
  return boxes.find((b) => p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height);
}

/**
 * What Show in Graph on a Namespace shows: what it holds (its objects, with their owners and dependents outside it)
 * and what blocks it: the objects the why-chains of the Namespace and of its stuck content name (`blockedBy`), with
 * their owners, so a blocking operator's Deployment is there. `name`: the namespace; its Namespace object, if in the
 * graph, is included.
 */
export function namespaceScope(index: GraphIndex, name: string): Set<string> {
  const out = new Set<string>();
  const held: string[] = [];
  for (const uid of index.order) {
    const n = index.nodes.get(uid)!;
    if (n.namespace === name || (n.kind === 'Namespace' && !n.namespace && n.name === name)) held.push(uid);
  }
  const add = (uid: string) => {
    if (!index.nodes.has(uid) || out.has(uid)) return;
    out.add(uid);
    for (const e of ownersOf(index, uid)) out.add(e.to);
  };
  for (const uid of held) {
    add(uid);
    for (const e of dependentsOf(index, uid)) out.add(e.from);
  }
  for (const uid of held) for (const b of index.nodes.get(uid)!.blockedBy ?? []) add(b);
  return out;
}

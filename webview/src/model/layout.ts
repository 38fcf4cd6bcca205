// The layered layout: owners above dependents. Pure (no DOM): unit-tested in test/webview.
//
// Per connected component (a Sugiyama-style layering, kept simple because ownership graphs are mostly trees):
//  1. cycles are broken by a depth-first search from the objects without owners: an edge back to an object on the
//     search's path is laid upside down (and reported in `reversed`, so it can be drawn as a cycle edge);
//  2. layers by longest path: an object sits one layer below its lowest owner, so several owners all stay above it;
//  3. order within a layer: the search's order, then barycenter sweeps down and up (fewer crossings);
//  4. x: each layer in turn is pulled towards its owners' (down) or dependents' (up) positions, keeping its order
//     and the minimum gap, the closest fit in the least-squares sense (pool-adjacent-violators, linear time).
// Components are then packed in rows, largest first. `stabilize` keeps the positions of nodes that stay when the
// graph changes, so an update does not make the picture jump.

export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 44;
export const H_GAP = 20;
export const LAYER_GAP = 60;
export const COMPONENT_GAP = 60;
const LAYER_STEP = NODE_HEIGHT + LAYER_GAP;
const SLOT = NODE_WIDTH + H_GAP;
const SWEEPS = 4;

export interface Point {
  x: number;
  y: number;
}

export interface LayoutEdge {
  /** `<dependent>><owner>`, as ViewEdge.id. */
  id: string;
  owner: string;
  dependent: string;
}

export interface LayoutInput {
  nodes: readonly { id: string }[];
  edges: readonly LayoutEdge[];
}

export interface Layout {
  /** Node centres. */
  positions: Map<string, Point>;
  /** Ids of the edges laid against the layers (they close a cycle). */
  reversed: Set<string>;
}

export function layeredLayout(input: LayoutInput): Layout {
  const n = input.nodes.length;
  const indexOf = new Map<string, number>();
  input.nodes.forEach((node, i) => indexOf.set(node.id, i));
  // Adjacency over node indexes; edge ids kept to report reversed ones.
  const down: number[][] = Array.from({ length: n }, () => []);
  const downEdge: string[][] = Array.from({ length: n }, () => []);
  const up: number[][] = Array.from({ length: n }, () => []);
  const seen = new Set<string>();
  for (const e of input.edges) {
    const o = indexOf.get(e.owner);
    const d = indexOf.get(e.dependent);
    if (o === undefined || d === undefined || o === d) continue;
    const key = `${o}:${d}`;
    if (seen.has(key)) continue;
    seen.add(key);
    down[o].push(d);
    downEdge[o].push(e.id);
    up[d].push(o);
  }

  const reversed = new Set<string>();
  const components = connectedComponents(n, down, up);
  const laid = components.map((members) => layoutComponent(members, down, downEdge, up, reversed));
  const positions = pack(laid, input.nodes);
  return { positions, reversed };
}

function connectedComponents(n: number, down: number[][], up: number[][]): number[][] {
  const comp = new Int32Array(n).fill(-1);
  const out: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (comp[s] >= 0) continue;
    const id = out.length;
    const members: number[] = [];
    const stack = [s];
    comp[s] = id;
    while (stack.length) {
      const v = stack.pop()!;
      members.push(v);
      for (const w of down[v])
        if (comp[w] < 0) {
          comp[w] = id;
          stack.push(w);
        }
      for (const w of up[v])
        if (comp[w] < 0) {
          comp[w] = id;
          stack.push(w);
        }
    }
    members.sort((a, b) => a - b);
    out.push(members);
  }
  return out;
}

interface LaidComponent {
  members: number[];
  /** Relative centres, top-left of the component's box at (0, 0). */
  xs: Map<number, number>;
  ys: Map<number, number>;
  width: number;
  height: number;
}

function layoutComponent(members: number[], down: number[][], downEdge: string[][], up: number[][], reversed: Set<string>): LaidComponent {
  // 1. Depth-first from the roots (no owners), then from whatever is left (a cycle has no root): preorder for the
  // first ordering; edges to a node still on the path are back edges, laid reversed.
  const state = new Map<number, 1 | 2>();
  const preorder = new Map<number, number>();
  const dagDown = new Map<number, number[]>();
  const dagUp = new Map<number, number[]>();
  for (const v of members) {
    dagDown.set(v, []);
    dagUp.set(v, []);
  }
  const addDag = (o: number, d: number) => {
    dagDown.get(o)!.push(d);
    dagUp.get(d)!.push(o);
  };
  const starts = [...members.filter((v) => up[v].length === 0), ...members];
  for (const s of starts) {
    if (state.has(s)) continue;
    // Iterative DFS: [node, next child index].
    const stack: [number, number][] = [[s, 0]];
    state.set(s, 1);
    preorder.set(s, preorder.size);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, i] = top;
      if (i >= down[v].length) {
        state.set(v, 2);
        stack.pop();
        continue;
      }
      top[1]++;
      const w = down[v][i];
      const st = state.get(w);
      if (st === 1) {
        reversed.add(downEdge[v][i]);
        addDag(w, v);
      } else {
        addDag(v, w);
        if (st === undefined) {
          state.set(w, 1);
          preorder.set(w, preorder.size);
          stack.push([w, 0]);
        }
      }
    }
  }

  // 2. Longest-path layers (Kahn's order over the acyclic edges).
  const layer = new Map<number, number>();
  const indegree = new Map<number, number>();
  for (const v of members) indegree.set(v, dagUp.get(v)!.length);
  const queue = members.filter((v) => indegree.get(v) === 0);
  for (const v of queue) layer.set(v, 0);
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q];
    const lv = layer.get(v)!;
    for (const w of dagDown.get(v)!) {
      if (lv + 1 > (layer.get(w) ?? 0)) layer.set(w, lv + 1);
      const left = indegree.get(w)! - 1;
      indegree.set(w, left);
      if (left === 0) queue.push(w);
    }
  }
  let depth = 0;
  for (const v of members) depth = Math.max(depth, layer.get(v) ?? 0);
  const layers: number[][] = Array.from({ length: depth + 1 }, () => []);
  for (const v of members) layers[layer.get(v) ?? 0].push(v);

  // 3. Order: preorder, then barycenter sweeps.
  const pos = new Map<number, number>();
  for (const l of layers) {
    l.sort((a, b) => preorder.get(a)! - preorder.get(b)!);
    l.forEach((v, i) => pos.set(v, i));
  }
  const sweep = (l: number[], neighbours: Map<number, number[]>) => {
    const key = new Map<number, number>();
    for (const v of l) {
      const ns = neighbours.get(v)!;
      key.set(v, ns.length ? ns.reduce((s, w) => s + pos.get(w)!, 0) / ns.length : pos.get(v)!);
    }
    l.sort((a, b) => key.get(a)! - key.get(b)! || pos.get(a)! - pos.get(b)!);
    l.forEach((v, i) => pos.set(v, i));
  };
  for (let s = 0; s < SWEEPS; s++) {
    for (let i = 1; i < layers.length; i++) sweep(layers[i], dagUp);
    for (let i = layers.length - 2; i >= 0; i--) sweep(layers[i], dagDown);
  }

  // 4. x positions, pulled towards the neighbours layer by layer (down, up, down, up: parents end centred).
  const xs = new Map<number, number>();
  for (const l of layers) l.forEach((v, i) => xs.set(v, i * SLOT));
  const align = (l: number[], neighbours: Map<number, number[]>) => {
    const desired = l.map((v) => {
      const ns = neighbours.get(v)!;
      return ns.length ? ns.reduce((s, w) => s + xs.get(w)!, 0) / ns.length : xs.get(v)!;
    });
    const placed = closestOrderedFit(desired, SLOT);
    l.forEach((v, i) => xs.set(v, placed[i]));
  };
  for (let s = 0; s < 2; s++) {
    for (let i = 1; i < layers.length; i++) align(layers[i], dagUp);
    for (let i = layers.length - 2; i >= 0; i--) align(layers[i], dagDown);
  }

  let minX = Infinity;
  let maxX = -Infinity;
  for (const v of members) {
    minX = Math.min(minX, xs.get(v)!);
    maxX = Math.max(maxX, xs.get(v)!);
  }
  const ys = new Map<number, number>();
  for (const v of members) {
    xs.set(v, xs.get(v)! - minX + NODE_WIDTH / 2);
    ys.set(v, (layer.get(v) ?? 0) * LAYER_STEP + NODE_HEIGHT / 2);
  }
  return { members, xs, ys, width: maxX - minX + NODE_WIDTH, height: depth * LAYER_STEP + NODE_HEIGHT };
}

/**
 * Positions as close as possible (least squares) to `desired`, in the same order, at least `gap` apart:
 * with y_i = x_i - i·gap the constraint is "y non-decreasing", an isotonic regression solved by pooling
 * adjacent violators.
 */
export function closestOrderedFit(desired: readonly number[], gap: number): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < desired.length; i++) {
    sums.push(desired[i] - i * gap);
    counts.push(1);
    while (sums.length > 1 && sums[sums.length - 2] / counts[counts.length - 2] > sums[sums.length - 1] / counts[counts.length - 1]) {
      const s = sums.pop()!;
      const c = counts.pop()!;
      sums[sums.length - 1] += s;
      counts[counts.length - 1] += c;
    }
  }
  const out: number[] = [];
  for (let b = 0; b < sums.length; b++) {
    const mean = sums[b] / counts[b];
    for (let k = 0; k < counts[b]; k++) out.push(mean + out.length * gap);
  }
  return out;
}

/** Shelf packing: components in rows (largest first), rows about as wide as the whole is tall times 1.6. */
function pack(laid: LaidComponent[], nodes: readonly { id: string }[]): Map<string, Point> {
  const order = laid
    .map((_c, i) => i)
    .sort((a, b) => laid[b].members.length - laid[a].members.length || laid[a].members[0] - laid[b].members[0]);
  let area = 0;
  let widest = 0;
  for (const c of laid) {
    area += (c.width + COMPONENT_GAP) * (c.height + COMPONENT_GAP);
    widest = Math.max(widest, c.width);
  }
  const rowWidth = Math.max(widest, Math.sqrt(area * 1.6));
  const positions = new Map<string, Point>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const i of order) {
    const c = laid[i];
    if (x > 0 && x + c.width > rowWidth) {
      x = 0;
      y += rowHeight + COMPONENT_GAP;
      rowHeight = 0;
    }
    for (const v of c.members) positions.set(nodes[v].id, { x: x + c.xs.get(v)!, y: y + c.ys.get(v)! });
    x += c.width + COMPONENT_GAP;
    rowHeight = Math.max(rowHeight, c.height);
  }
  return positions;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** The box around the nodes (their full size), or undefined when there are none. */
export function boundsOf(positions: Iterable<Point>): Bounds | undefined {
  let b: Bounds | undefined;
  for (const p of positions) {
    if (!b) b = { minX: p.x, minY: p.y, maxX: p.x, maxY: p.y };
    else {
      b.minX = Math.min(b.minX, p.x);
      b.minY = Math.min(b.minY, p.y);
      b.maxX = Math.max(b.maxX, p.x);
      b.maxY = Math.max(b.maxY, p.y);
    }
  }
  if (!b) return undefined;
  return { minX: b.minX - NODE_WIDTH / 2, minY: b.minY - NODE_HEIGHT / 2, maxX: b.maxX + NODE_WIDTH / 2, maxY: b.maxY + NODE_HEIGHT / 2 };
}

/**
 * Positions for a new layout that keep the old ones: nodes that stay keep where they were; a new node goes where
 * the fresh layout puts it relative to a neighbour already placed (so a new Pod appears under its ReplicaSet);
 * new nodes with no placed neighbour keep their fresh arrangement, below everything else. A new node that would
 * overlap another moves right until it does not.
 */
export function stabilize(fresh: Layout, previous: ReadonlyMap<string, Point>, edges: readonly LayoutEdge[]): Map<string, Point> {
  const out = new Map<string, Point>();
  for (const id of fresh.positions.keys()) {
    const old = previous.get(id);
    if (old) out.set(id, old);
  }
  if (out.size === 0) return new Map(fresh.positions);
  if (out.size === fresh.positions.size) return out;

  const neighbours = new Map<string, string[]>();
  const link = (a: string, b: string) => {
    const l = neighbours.get(a);
    if (l) l.push(b);
    else neighbours.set(a, [b]);
  };
  for (const e of edges) {
    if (!fresh.positions.has(e.owner) || !fresh.positions.has(e.dependent)) continue;
    link(e.owner, e.dependent);
    link(e.dependent, e.owner);
  }

  const grid = new OccupancyGrid();
  for (const p of out.values()) grid.add(p);
  const place = (id: string, want: Point) => {
    const p = grid.free(want);
    grid.add(p);
    out.set(id, p);
  };

  // Breadth-first from the kept nodes: each new node relative to the neighbour that reached it.
  const queue = [...out.keys()];
  for (let q = 0; q < queue.length; q++) {
    const from = queue[q];
    for (const id of neighbours.get(from) ?? []) {
      if (out.has(id)) continue;
      const a = fresh.positions.get(from)!;
      const b = fresh.positions.get(id)!;
      const at = out.get(from)!;
      place(id, { x: at.x + b.x - a.x, y: at.y + b.y - a.y });
      queue.push(id);
    }
  }

  // The rest (new components): their fresh arrangement, under what is there.
  const rest = [...fresh.positions.keys()].filter((id) => !out.has(id));
  if (rest.length) {
    const kept = boundsOf(out.values())!;
    const theirs = boundsOf(rest.map((id) => fresh.positions.get(id)!))!;
    const dx = kept.minX - theirs.minX;
    const dy = kept.maxY + COMPONENT_GAP - theirs.minY;
    for (const id of rest) {
      const p = fresh.positions.get(id)!;
      place(id, { x: p.x + dx, y: p.y + dy });
    }
  }
  return out;
}

/** Which node boxes are taken, bucketed by cell, to find a free spot for a new node quickly. */
class OccupancyGrid {
  private readonly cells = new Map<string, Point[]>();

  add(p: Point): void {
    const k = this.key(Math.floor(p.x / SLOT), Math.floor(p.y / LAYER_STEP));
    const l = this.cells.get(k);
    if (l) l.push(p);
    else this.cells.set(k, [p]);
  }

  free(want: Point): Point {
    let p = want;
    for (let i = 0; i < 10_000 && this.overlaps(p); i++) p = { x: p.x + SLOT / 2, y: p.y };
    return p;
  }

  private overlaps(p: Point): boolean {
    const cx = Math.floor(p.x / SLOT);
    const cy = Math.floor(p.y / LAYER_STEP);
    for (let i = cx - 1; i <= cx + 1; i++) {
      for (let j = cy - 1; j <= cy + 1; j++) {
        for (const q of this.cells.get(this.key(i, j)) ?? []) {
          if (Math.abs(q.x - p.x) < NODE_WIDTH + H_GAP / 2 && Math.abs(q.y - p.y) < NODE_HEIGHT + 8) return true;
        }
      }
    }
    return false;
  }

  private key(i: number, j: number): string {
    return `${i},${j}`;
  }
}

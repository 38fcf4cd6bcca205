// Keyboard navigation over the drawn graph: arrows move the selection along ownership (up: an owner, down: a
// dependent) and along the row (left/right: the nearest node at the same height). Pure (no DOM).

import type { Point } from './layout';
import type { GraphView } from './viewModel';

export type Direction = 'up' | 'down' | 'left' | 'right';

/** The node the selection moves to from `from` (undefined: stay). */
export function neighbour(view: GraphView, positions: ReadonlyMap<string, Point>, from: string, direction: Direction): string | undefined {
  const p = positions.get(from);
  if (!p) return undefined;
  const nearestX = (ids: string[]) => {
    let best: string | undefined;
    let bestD = Infinity;
    for (const id of ids) {
      const q = positions.get(id);
      if (!q) continue;
      const d = Math.abs(q.x - p.x) + Math.abs(q.y - p.y) / 1000;
      if (d < bestD) {
        bestD = d;
        best = id;
      }
    }
    return best;
  };
  if (direction === 'up' || direction === 'down') {
    const linked = view.edges
      .filter((e) => (direction === 'up' ? e.dependent === from : e.owner === from))
      .map((e) => (direction === 'up' ? e.owner : e.dependent));
    return nearestX(linked);
  }
  // Same row: the closest node strictly left or right at the same y.
  let best: string | undefined;
  let bestD = Infinity;
  for (const [id, q] of positions) {
    if (id === from || Math.abs(q.y - p.y) > 1 || !view.byId.has(id)) continue;
    const dx = q.x - p.x;
    if ((direction === 'left' ? -dx : dx) <= 0) continue;
    if (Math.abs(dx) < bestD) {
      bestD = Math.abs(dx);
      best = id;
    }
  }
  return best;
}

/** Where navigation starts when nothing is selected: the node nearest to `centre`. */
export function nearestTo(positions: ReadonlyMap<string, Point>, centre: Point, among?: ReadonlySet<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const [id, q] of positions) {
    if (among && !among.has(id)) continue;
    const d = (q.x - centre.x) ** 2 + (q.y - centre.y) ** 2;
    if (d < bestD) {
      bestD = d;
      best = id;
    }
  }
  return best;
}

// The layered layout: owners above dependents, several owners, cycles, packing, and stable positions on updates.

import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  closestOrderedFit,
  layeredLayout,
  NODE_HEIGHT,
  NODE_WIDTH,
  stabilize,
  type LayoutInput,
  type Point,
} from '../../webview/src/model/layout';
import { indexGraph } from '../../webview/src/model/graphIndex';
import { buildView } from '../../webview/src/model/viewModel';
import { deploymentTree, largeGraph, statesGraph } from '../../testkit/webview/fixtures';
import type { GraphData } from '../../shared/src/protocol';

const NO_FILTERS = { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] };

function inputOf(graph: GraphData): LayoutInput {
  const view = buildView(indexGraph(graph), NO_FILTERS);
  return { nodes: view.nodes, edges: view.edges };
}

function overlaps(positions: Map<string, Point>): string[] {
  const list = [...positions];
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, p] = list[i];
      const [b, q] = list[j];
      if (Math.abs(p.x - q.x) < NODE_WIDTH && Math.abs(p.y - q.y) < NODE_HEIGHT) out.push(`${a}/${b}`);
    }
  }
  return out;
}

describe('layeredLayout', () => {
  it('puts owners above dependents, one layer per level, and centres a parent over its children', () => {
    const { positions, reversed } = layeredLayout(inputOf(deploymentTree()));
    const y = (id: string) => positions.get(id)!.y;
    expect(y('d1')).toBeLessThan(y('rs1'));
    expect(y('rs1')).toBeLessThan(y('p1'));
    expect(y('p1')).toBe(y('p2'));
    expect(y('p2')).toBe(y('p3'));
    const xs = ['p1', 'p2', 'p3'].map((id) => positions.get(id)!.x);
    expect(positions.get('rs1')!.x).toBeCloseTo((Math.min(...xs) + Math.max(...xs)) / 2, 5);
    expect(positions.get('d1')!.x).toBeCloseTo(positions.get('rs1')!.x, 5);
    expect(reversed.size).toBe(0);
    expect(overlaps(positions)).toEqual([]);
  });

  it('puts a dependent of several owners below all of them', () => {
    const { positions } = layeredLayout(inputOf(statesGraph()));
    expect(positions.get('shared')!.y).toBeGreaterThan(positions.get('o1')!.y);
    expect(positions.get('shared')!.y).toBeGreaterThan(positions.get('o2')!.y);
    // A dependent sits below the lowest of its owners, so an owner one level down pushes it further.
    const chain = layeredLayout({
      nodes: [{ id: 'top' }, { id: 'mid' }, { id: 'low' }],
      edges: [
        { id: 'mid>top', owner: 'top', dependent: 'mid' },
        { id: 'low>top', owner: 'top', dependent: 'low' },
        { id: 'low>mid', owner: 'mid', dependent: 'low' },
      ],
    }).positions;
    expect(chain.get('low')!.y).toBeGreaterThan(chain.get('mid')!.y);
  });

  it('lays out a cycle (each owns the other) with one edge reversed, and a self-reference is ignored', () => {
    const { positions, reversed } = layeredLayout({
      nodes: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'self' }],
      edges: [
        { id: 'b>a', owner: 'a', dependent: 'b' },
        { id: 'c>b', owner: 'b', dependent: 'c' },
        { id: 'a>c', owner: 'c', dependent: 'a' },
        { id: 'self>self', owner: 'self', dependent: 'self' },
      ],
    });
    expect(reversed.size).toBe(1);
    const ys = new Set(['a', 'b', 'c'].map((id) => positions.get(id)!.y));
    expect(ys.size).toBe(3);
    expect(positions.has('self')).toBe(true);
  });

  it('packs components in rows without overlaps, deterministically', () => {
    const input = inputOf(largeGraph(600));
    const a = layeredLayout(input).positions;
    const b = layeredLayout(input).positions;
    expect([...a]).toEqual([...b]);
    expect(overlaps(a)).toEqual([]);
    const box = boundsOf(a.values())!;
    const ratio = (box.maxX - box.minX) / (box.maxY - box.minY);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(4);
  });

  it('lays out 5,000 nodes (its time: npm run bench, webview)', () => {
    const input = inputOf(largeGraph(5000));
    const { positions } = layeredLayout(input);
    expect(positions.size).toBe(5000);
  });
});

describe('closestOrderedFit', () => {
  it('keeps positions that are far enough apart, and spreads those that are too close around their mean', () => {
    expect(closestOrderedFit([0, 100, 300], 50)).toEqual([0, 100, 300]);
    expect(closestOrderedFit([10, 10, 10], 20)).toEqual([-10, 10, 30]);
    expect(closestOrderedFit([0, 0, 200], 50)).toEqual([-25, 25, 200]);
  });
});

describe('stabilize', () => {
  it('keeps the positions of nodes that stay and puts a new Pod under its ReplicaSet, without overlaps', () => {
    const before = deploymentTree();
    const first = layeredLayout(inputOf(before)).positions;
    // Move the tree somewhere else, as the user would see it after another update.
    const previous = new Map([...first].map(([id, p]) => [id, { x: p.x + 1000, y: p.y + 500 }]));
    const after: GraphData = {
      nodes: [...before.nodes, { ...before.nodes[2], uid: 'p4', name: 'web-1-d' }],
      edges: [...before.edges, { from: 'p4', to: 'rs1', controller: true, blockOwnerDeletion: true }],
    };
    const input = inputOf(after);
    const next = stabilize(layeredLayout(input), previous, input.edges);
    for (const id of previous.keys()) expect(next.get(id)).toEqual(previous.get(id));
    expect(next.get('p4')!.y).toBe(previous.get('p1')!.y);
    expect(overlaps(next)).toEqual([]);
  });

  it('puts new components below what is there, and drops nodes that went', () => {
    const first = layeredLayout(inputOf(deploymentTree())).positions;
    const graph = statesGraph();
    const merged: GraphData = {
      nodes: [...deploymentTree().nodes.slice(0, 2), ...graph.nodes],
      edges: [deploymentTree().edges[0], ...graph.edges],
    };
    const input = inputOf(merged);
    const next = stabilize(layeredLayout(input), first, input.edges);
    expect(next.has('p1')).toBe(false);
    expect(next.get('d1')).toEqual(first.get('d1'));
    const keptBottom = Math.max(first.get('d1')!.y, first.get('rs1')!.y);
    for (const n of graph.nodes) expect(next.get(n.uid)!.y).toBeGreaterThan(keptBottom);
    expect(overlaps(next)).toEqual([]);
  });

  it('returns the fresh layout when nothing stays', () => {
    const input = inputOf(deploymentTree());
    const fresh = layeredLayout(input);
    expect(stabilize(fresh, new Map(), input.edges)).toEqual(fresh.positions);
  });
});

describe('keyboard navigation', () => {
  it('moves up to an owner, down to a dependent, left and right along the row', async () => {
    const { neighbour, nearestTo } = await import('../../webview/src/model/navigation');
    const view = buildView(indexGraph(deploymentTree()), NO_FILTERS);
    const { positions } = layeredLayout({ nodes: view.nodes, edges: view.edges });
    expect(neighbour(view, positions, 'rs1', 'up')).toBe('d1');
    expect(neighbour(view, positions, 'd1', 'up')).toBeUndefined();
    expect(neighbour(view, positions, 'rs1', 'down')).toBe('p2');
    expect(neighbour(view, positions, 'p2', 'left')).toBe('p1');
    expect(neighbour(view, positions, 'p2', 'right')).toBe('p3');
    expect(neighbour(view, positions, 'p3', 'right')).toBeUndefined();
    expect(neighbour(view, positions, 'nope', 'up')).toBeUndefined();
    expect(nearestTo(positions, positions.get('p3')!)).toBe('p3');
  });
});

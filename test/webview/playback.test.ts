// A simulated deletion played out: removal order, deleting, orphan edges cut, stuck at the end.

import { describe, expect, it } from 'vitest';
import { playbackFrame, stepCaption } from '../../webview/src/model/playback';
import { edgeOverlay, nodeOverlay } from '../../webview/src/model/scene';
import { indexGraph } from '../../webview/src/model/graphIndex';
import { buildView } from '../../webview/src/model/viewModel';
import { deploymentReport, deploymentTree, fanOut, orphanReport } from '../../testkit/webview/fixtures';

describe('playbackFrame', () => {
  it('removes objects in the order of their removal steps, and shows stuck ones only at the end', () => {
    const report = deploymentReport();
    const at = (i: number) => playbackFrame(report, i);
    expect(at(0)).toMatchObject({ index: 0, total: 9, current: undefined });
    expect([...at(0).removed]).toEqual([]);
    expect([...at(1).deleting]).toEqual(['d1']);
    expect([...at(2).removed]).toEqual(['d1']);
    expect([...at(2).deleting]).toEqual([]);
    expect([...at(5).removed]).toEqual(['d1', 'rs1']);
    expect([...at(5).deleting]).toEqual(['p1']);
    expect(at(8).stuck.size).toBe(0);
    const end = at(9);
    expect([...end.removed]).toEqual(['d1', 'rs1', 'p1', 'p2']);
    expect([...end.deleting]).toEqual(['p3']);
    expect([...end.stuck]).toEqual([['p3', 'waits for finalizer example.com/hold, which nobody removes']]);
    expect([...end.removalOrder]).toEqual([
      ['d1', 1],
      ['rs1', 2],
      ['p1', 3],
      ['p2', 4],
    ]);
    // Out of range: clamped.
    expect(playbackFrame(report, 99).index).toBe(9);
    expect(playbackFrame(report, -3).index).toBe(0);
    expect(playbackFrame(report, NaN).index).toBe(9);
  });

  it("cuts an orphaned dependent's edge when the GC patches its ownerReferences", () => {
    const report = orphanReport();
    expect([...playbackFrame(report, 1).cut]).toEqual([]);
    expect([...playbackFrame(report, 2).cut]).toEqual(['p1>rs1']);
    expect([...playbackFrame(report, 6).cut]).toEqual(['p1>rs1', 'p2>rs1', 'p3>rs1']);
  });

  it('captions each step', () => {
    const report = deploymentReport();
    expect(stepCaption(playbackFrame(report, 0))).toBe('Before the DELETE · 9 steps');
    expect(stepCaption(playbackFrame(report, 3))).toBe('Step 3/9 · garbage-collector: delete ReplicaSet shop/web-1 (owner gone)');
  });
});

describe('overlays', () => {
  it('gives nodes and edges their simulation state; a group is removed when all its members are', () => {
    const view = buildView(indexGraph(deploymentTree()), { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] });
    const frame = playbackFrame(deploymentReport(), 9);
    expect(nodeOverlay(view.byId.get('d1')!, frame)).toMatchObject({ state: 'removed', order: 1, affected: true });
    expect(nodeOverlay(view.byId.get('p3')!, frame)).toMatchObject({ state: 'stuck', reason: expect.stringContaining('example.com/hold') });
    expect(nodeOverlay(view.byId.get('cm1')!, frame)).toMatchObject({ state: undefined, affected: false });
    expect(nodeOverlay(view.byId.get('d1')!, undefined)).toEqual({ current: false, affected: false });
    expect(edgeOverlay(view.edges[0], view, frame)).toBe('gone');
    const orphaned = playbackFrame(orphanReport(), 6);
    expect(edgeOverlay(view.edges.find((e) => e.id === 'p1>rs1')!, view, orphaned)).toBe('cut');

    const big = buildView(indexGraph(fanOut(20)), { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] });
    const group = big.nodes[1];
    const all = { ...playbackFrame(deploymentReport(), 0), removed: new Set(group.members) };
    expect(nodeOverlay(group, all).state).toBe('removed');
    const some = { ...all, removed: new Set(group.members!.slice(0, 3)) };
    expect(nodeOverlay(group, some).state).toBe('deleting');
  });
});

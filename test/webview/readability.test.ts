// Issue 17, the graph's readability, on the built bundle in headless Chromium (testkit/webview/harness.ts, the
// production page and its CSP): a simulation belongs to the view it was played in, a resized panel fits again,
// names cut in the middle, playback states told apart without colour, playback opening with the Report's summary
// and zoomed to what it affects. Screenshots: test-output/webview/readability-*.png.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { GraphData } from '../../shared/src/protocol';
import { Harness, THEMES } from '../../testkit/webview/harness';
import { deploymentReport, deploymentTree, largeGraph, largeGraphReport } from '../../testkit/webview/fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks run in the page (no DOM types here) */
declare const document: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const workspace = { kind: 'workspace' as const };
let browser: Browser;
let h: Harness | undefined;

async function open(graph: GraphData, options: Parameters<typeof Harness.open>[1] = {}): Promise<Harness> {
  h = await Harness.open(browser, options);
  await h.showGraph({ type: 'graph', source: workspace, graph, revision: 1 });
  return h;
}

const nodeClass = (x: Harness, id: string) => x.page.locator(`.graph-svg g.node[data-id="${id}"]`).getAttribute('class');

/** Whether the node's box lies inside the graph area. */
async function inView(x: Harness, id: string): Promise<boolean> {
  const area = (await x.page.locator('.graph').boundingBox())!;
  const b = await x.page.locator(`g.node[data-id="${id}"] rect.box`).boundingBox();
  if (!b) return false;
  return b.x >= area.x && b.y >= area.y && b.x + b.width <= area.x + area.width && b.y + b.height <= area.y + area.height;
}

describe('the graph reads well (issue 17)', () => {
  beforeAll(async () => {
    browser = await Harness.launch();
  });

  afterEach(async () => {
    if (!h) return;
    const problems = await h.violations();
    await h.close();
    h = undefined;
    expect(problems, 'CSP violations or console errors').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a new Show in Graph after a simulation starts clean, and the old simulation does not come back after a reload', async () => {
    const x = await open(deploymentTree());
    await x.send({ type: 'simulation', report: deploymentReport(), id: 7 });
    const timeline = x.page.locator('footer.timeline');
    await timeline.waitFor();
    await timeline.locator('button[aria-label="Last step"]').click();
    await x.settle();
    expect(await nodeClass(x, 'd1')).toContain('ov-removed');
    await x.send({ type: 'focus', uid: 'cm1' });
    await x.settle();
    expect(await timeline.isVisible()).toBe(false);
    expect(await x.page.locator('.graph-svg g.node[class*="ov-"], .graph-svg g.node.dim').count()).toBe(0);
    expect(await x.state()).toMatchObject({ focus: 'cm1', dismissed: 7 });
    // The host sends its last simulation again on every `ready`: this one stays closed.
    await x.page.reload();
    await x.waitForPosted((m) => m.type === 'ready');
    await x.showGraph({ type: 'graph', source: workspace, graph: deploymentTree(), revision: 1 });
    await x.send({ type: 'simulation', report: deploymentReport(), id: 7 });
    await x.settle();
    expect(await x.page.locator('footer.timeline').isVisible()).toBe(false);
    // A new simulation still plays.
    await x.send({ type: 'simulation', report: deploymentReport(), id: 8 });
    await x.page.locator('footer.timeline').waitFor();
  });

  it('a panel laid out tiny and then maximised fits the graph again (no blank panel)', async () => {
    const x = await open(deploymentTree(), { viewport: { width: 1280, height: 130 } });
    await x.page.setViewportSize({ width: 1600, height: 900 });
    await x.settle();
    const k = await x.zoomStill();
    expect(k).toBeGreaterThan(0.5);
    for (const id of ['d1', 'rs1', 'p1', 'p3', 'cm1']) expect(await inView(x, id), id).toBe(true);
    await x.screenshot('readability-01-after-maximise');
    // A zoom the user chose is theirs: a resize keeps it.
    await x.page.locator('.graph').focus();
    await x.page.keyboard.press('-');
    const chosen = await x.zoomStill();
    await x.page.setViewportSize({ width: 1400, height: 800 });
    await x.settle();
    expect(await x.zoomStill()).toBeCloseTo(chosen, 3);
  });

  it('cuts long names in the middle, so the pods of one ReplicaSet read apart; the full name is the tooltip', async () => {
    const graph = deploymentTree();
    const rs = 'prometheus-operator-admission-webhook-7d9f8c6b5';
    for (const n of graph.nodes) if (n.kind === 'Pod') n.name = `${rs}-${n.uid === 'p1' ? 'x7k2q' : n.uid === 'p2' ? 'm4r9z' : 'b8c1d'}`;
    const x = await open(graph);
    const names = await Promise.all(['p1', 'p2', 'p3'].map((id) => x.page.locator(`g.node[data-id="${id}"] text.name`).textContent()));
    expect(new Set(names).size).toBe(3);
    expect(names[0]).toMatch(/^prom.*….*-x7k2q$/);
    expect(await x.page.locator('g.node[data-id="p2"] > title').textContent()).toContain(`${rs}-m4r9z`);
    await x.screenshot('readability-02-middle-truncation');
  });

  it('on the canvas, the node under the mouse gives its full description as the tooltip', async () => {
    const x = await open(largeGraph(600));
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('canvas');
    await x.page.locator('.graph').focus();
    for (let i = 0; i < 10; i++) await x.page.keyboard.press('+');
    await x.zoomStill();
    // Walk the middle of the area until the pointer is over a node.
    const area = (await x.page.locator('.graph').boundingBox())!;
    let title = '';
    for (let dy = -120; dy <= 120 && !title; dy += 12) {
      await x.page.mouse.move(area.x + area.width / 2, area.y + area.height / 2 + dy);
      title = (await x.page.locator('.graph').getAttribute('title')) ?? '';
    }
    expect(title).toMatch(/^(Deployment|ReplicaSet|Pod|ConfigMap) team-\d+\/\S+, /);
  });

  it('during playback, removed, untouched and stuck objects differ by more than colour, in every theme', async () => {
    const x = await open(deploymentTree());
    await x.send({ type: 'simulation', report: deploymentReport(), id: 1 });
    const timeline = x.page.locator('footer.timeline');
    await timeline.locator('button[aria-label="Pause"]').click();
    await timeline.locator('button[aria-label="Last step"]').click();
    await x.settle();
    const look = (id: string) =>
      x.page.evaluate((id: string) => {
        const g = document.querySelector(`g.node[data-id="${id}"]`);
        const box = getComputedStyle(g.querySelector('rect.box'));
        return {
          opacity: getComputedStyle(g).opacity,
          dash: box.strokeDasharray,
          outline: getComputedStyle(g.querySelector('rect.outline')).display,
          strike: getComputedStyle(g.querySelector('text.name')).textDecorationLine,
          sub: g.querySelector('text.sub').textContent,
        };
      }, id);
    for (const theme of Object.keys(THEMES) as (keyof typeof THEMES)[]) {
      await x.applyTheme(theme);
      await x.page.waitForTimeout(500); // the opacity transition
      const removed = await look('d1');
      const untouched = await look('cm1');
      const stuck = await look('p3');
      expect(removed, theme).toMatchObject({ strike: 'line-through', outline: 'none' });
      expect(removed.dash, theme).not.toBe('none');
      expect(removed.sub, theme).toMatch(/^✕ removed/);
      expect(untouched, theme).toMatchObject({ strike: 'none', dash: 'none', outline: 'none' });
      expect(Number(untouched.opacity), theme).toBeLessThan(Number(removed.opacity));
      expect(stuck, theme).toMatchObject({ strike: 'none', outline: 'inline', opacity: '1' });
      expect(stuck.sub, theme).toMatch(/^⊘ stuck/);
      await x.screenshot(`readability-03-playback-${theme}`);
    }
  });

  it("playback opens with the Report's summary and zooms to the objects it affects", async () => {
    const x = await open(largeGraph(250), { viewport: { width: 1400, height: 900 } });
    const fitted = await x.zoomStill();
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('svg');
    const report = largeGraphReport(37);
    await x.send({ type: 'simulation', report, id: 1 });
    const timeline = x.page.locator('footer.timeline');
    await timeline.waitFor();
    expect(await timeline.locator('.timeline-title').innerText()).toBe(report.summary);
    expect(report.summary).toMatch(/^Deleting Deployment team-37\/app-37/);
    const k = await x.zoomStill();
    expect(k).toBeGreaterThan(fitted * 2);
    for (const id of ['d-37', 'rs-37', 'p-37-0', 'p-37-2']) expect(await inView(x, id), id).toBe(true);
    await x.screenshot('readability-04-playback-zoomed');
  });
});

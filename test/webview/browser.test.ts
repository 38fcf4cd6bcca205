// The built webview bundle in headless Chromium, in the production page (its CSP, its nonce'd script) with a
// stand-in for the VS Code webview API (harness.ts). Every test ends by checking that nothing violated the CSP.
// Screenshots: test-output/webview/*.png.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PROTOCOL_VERSION } from '../../shared/src/protocolVersion';
import type { GraphData } from '../../shared/src/protocol';
import { Harness } from '../../testkit/webview/harness';
import {
  deploymentReport,
  deploymentTree,
  fanOut,
  HOSTILE_NAME,
  hostileGraph,
  largeGraph,
  orphanReport,
  statesGraph,
} from '../../testkit/webview/fixtures';

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

const nodeIds = (x: Harness) =>
  x.page
    .locator('.graph-svg g.node')
    .evaluateAll((els: { getAttribute(n: string): string }[]) => els.map((e) => e.getAttribute('data-id')));
const nodeClass = (x: Harness, id: string) => x.page.locator(`.graph-svg g.node[data-id="${id}"]`).getAttribute('class');
const nodeTransform = (x: Harness, id: string) => x.page.locator(`.graph-svg g.node[data-id="${id}"]`).getAttribute('transform');

describe('the graph webview in Chromium', () => {
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

  it('says ready with the protocol version, and renders a Deployment tree: owners above dependents', async () => {
    const x = await open(deploymentTree());
    expect((await x.posted())[0]).toEqual({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    expect(await nodeIds(x)).toEqual(['d1', 'rs1', 'p1', 'p2', 'p3', 'cm1']);
    expect(await x.page.locator('.graph-svg path.edge').count()).toBe(4);
    const y = async (id: string) => (await x.page.locator(`g.node[data-id="${id}"]`).boundingBox())!.y;
    expect(await y('d1')).toBeLessThan(await y('rs1'));
    expect(await y('rs1')).toBeLessThan(await y('p1'));
    expect(await x.page.locator('g.node[data-id="rs1"]').getAttribute('aria-label')).toBe(
      'ReplicaSet shop/web-1, present, 1 owner, 3 dependents',
    );
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('6 of 6 objects');
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('svg');
    await x.screenshot('01-deployment-tree');
  });

  it('draws every state, edge style and the legend', async () => {
    const x = await open(statesGraph(), {
      state: { version: 1, search: '', hidden: { namespaces: [], kinds: [], states: [] }, expanded: [], details: true, legend: true },
    });
    expect(await nodeClass(x, 'ghost')).toContain('st-virtual');
    expect(await nodeClass(x, 'orphan')).toContain('tag-dangling');
    expect(await nodeClass(x, 'orphan')).toContain('tag-finding');
    expect(await nodeClass(x, 'ns')).toContain('st-being-deleted');
    expect(await nodeClass(x, 'fg')).toContain('st-deleting-dependents');
    expect(await nodeClass(x, 'mq')).toContain('st-stuck');
    expect(await x.page.locator('.graph-svg path.edge.dangling').count()).toBe(1);
    expect(await x.page.locator('.graph-svg path.edge.cycle').count()).toBe(1);
    expect(await x.page.locator('.graph-svg path.edge.reference').count()).toBe(3);
    expect(await x.page.locator('.graph-svg path.edge.block').count()).toBe(3);
    expect(await x.page.locator('.legend').isVisible()).toBe(true);
    expect(await x.page.locator('.legend li').count()).toBe(22);
    await x.screenshot('02-states-and-legend');
  });

  it('a click selects the object, shows its details and asks the host to reveal it', async () => {
    const x = await open(deploymentTree());
    await x.clickWhenStill('g.node[data-id="rs1"]');
    expect(await x.waitForPosted((m) => m.type === 'reveal')).toEqual({ type: 'reveal', uid: 'rs1' });
    const details = x.page.locator('.details');
    expect(await details.locator('h2').innerText()).toBe('ReplicaSet web-1');
    expect(await details.locator('.links').first().innerText()).toContain('Deployment shop/web');
    expect(await nodeClass(x, 'rs1')).toContain('selected');
    // The owner link in the details selects the owner (without revealing it).
    await x.clearPosted();
    await details.locator('button.link', { hasText: 'Deployment shop/web' }).click();
    await x.settle();
    expect(await details.locator('h2').innerText()).toBe('Deployment web');
    expect(await x.posted()).toEqual([]);
    // Simulate delete from the details panel, with a policy.
    await details.locator('select').selectOption('Foreground');
    await details.locator('button', { hasText: 'Simulate delete' }).click();
    expect(await x.waitForPosted((m) => m.type === 'simulate')).toEqual({ type: 'simulate', uid: 'd1', policy: 'Foreground' });
    // The selection is state: saved for the next time the page is shown.
    expect(await x.state()).toMatchObject({ selected: 'd1' });
    await x.screenshot('03-selected-details');
  });

  it('the keyboard moves along ownership, Enter reveals, and the selection is announced', async () => {
    const x = await open(deploymentTree());
    await x.clickWhenStill('g.node[data-id="p2"]');
    await x.page.locator('.graph').focus();
    await x.clearPosted();
    await x.page.keyboard.press('ArrowUp');
    await x.settle();
    expect(await nodeClass(x, 'rs1')).toContain('selected');
    expect(await x.page.locator('.graph').getAttribute('aria-activedescendant')).toBe(
      await x.page.locator('g.node[data-id="rs1"]').getAttribute('id'),
    );
    expect(await x.page.locator('[aria-live="polite"].sr-only').innerText()).toBe('ReplicaSet shop/web-1, present, 1 owner, 3 dependents');
    await x.page.keyboard.press('ArrowUp');
    await x.page.keyboard.press('ArrowDown');
    await x.page.keyboard.press('ArrowDown');
    await x.page.keyboard.press('ArrowRight');
    await x.settle();
    expect(await nodeClass(x, 'p3')).toContain('selected');
    await x.page.keyboard.press('Enter');
    expect(await x.waitForPosted((m) => m.type === 'reveal')).toEqual({ type: 'reveal', uid: 'p3' });
    await x.page.keyboard.press('Escape');
    await x.settle();
    expect(await nodeClass(x, 'p3')).not.toContain('selected');
  });

  it('collapses a large fan-out ("437 Pods") and expands it on click', async () => {
    const x = await open(fanOut(437));
    expect(await nodeIds(x)).toEqual(['rs', 'group:rs/Pod']);
    expect(await x.page.locator('g.node.group text.name').textContent()).toBe('437 Pods');
    await x.screenshot('04-fan-out-collapsed');
    await x.page.locator('g.node.group').click();
    await x.settle();
    // 438 nodes: more than SVG_MAX_NODES, so the canvas draws them.
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('438 of 438 objects');
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('canvas');
    expect(await x.state()).toMatchObject({ expanded: ['group:rs/Pod'] });
    await x.page.locator('.toolbar button', { hasText: 'Fit' }).click();
    await x.page.waitForTimeout(400);
    await x.screenshot('05-fan-out-expanded');
  });

  it('filters by kind, namespace and state, and searches', async () => {
    const x = await open(statesGraph());
    const kinds = x.page.locator('details.filter[data-dimension="kinds"]');
    await kinds.locator('summary').click();
    await kinds.locator('label', { hasText: 'ConfigMap' }).locator('input').uncheck();
    await x.settle();
    expect(await nodeIds(x)).not.toContain('a');
    expect(await kinds.locator('summary').innerText()).toBe('Kinds (1 hidden)');
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('9 of 11 objects · 2 hidden by filters');
    const states = x.page.locator('details.filter[data-dimension="states"]');
    await states.locator('summary').click();
    await states
      .locator('label', { hasText: /^present/ })
      .locator('input')
      .uncheck();
    await x.settle();
    expect(await nodeIds(x)).toEqual(['ghost', 'orphan', 'ns', 'fg', 'mq']);
    expect(await x.state()).toMatchObject({ hidden: { kinds: ['ConfigMap'], states: ['present'] } });
    await x.screenshot('06-filtered');
    await states.locator('button.show-all').click();
    await kinds.locator('summary').click();
    await kinds.locator('button.show-all').click();
    await x.settle();
    expect(await x.page.locator('.graph-svg g.node').count()).toBe(11);
    // Search: every word must match; Enter selects the next match.
    await x.page.locator('input.search').fill('service owner');
    await x.page.locator('input.search').press('Enter');
    await x.settle();
    expect(await x.page.locator('.search-count').innerText()).toBe('2 matches');
    expect(await nodeClass(x, 'o1')).toContain('selected');
    expect(await nodeClass(x, 'a')).toContain('dim');
    await x.page.locator('input.search').press('Enter');
    await x.settle();
    expect(await nodeClass(x, 'o2')).toContain('selected');
  });

  it("focus (Show in Graph) shows the object's connected component only, until Show all", async () => {
    const x = await open(deploymentTree());
    await x.send({ type: 'focus', uid: 'p2' });
    await x.settle();
    expect(await nodeIds(x)).toEqual(['d1', 'rs1', 'p1', 'p2', 'p3']);
    expect(await nodeClass(x, 'p2')).toContain('selected');
    expect(await x.page.locator('.focus-bar').innerText()).toContain('Showing the connected component of Pod shop/web-1-b');
    await x.page.locator('.focus-bar button').click();
    await x.settle();
    expect(await nodeIds(x)).toContain('cm1');
  });

  it('plays a simulated deletion: removals fade in order, stuck objects are marked with their reason', async () => {
    const x = await open(deploymentTree());
    await x.send({ type: 'simulation', report: deploymentReport(), id: 1 });
    const timeline = x.page.locator('footer.timeline');
    await timeline.waitFor();
    // It opens with the Report's one-line summary (server/src/app/report.ts), then the policy.
    expect(await timeline.locator('.timeline-title').innerText()).toBe(deploymentReport().summary);
    expect(await timeline.locator('.timeline-policy').innerText()).toBe('Simulated with the Background policy');
    // It plays on its own: pause it and step by hand.
    await timeline.locator('button[aria-label="Pause"]').click();
    await timeline.locator('button[aria-label="First step"]').click();
    await x.settle();
    expect(await timeline.locator('.caption').innerText()).toBe('Before the DELETE · 9 steps');
    expect(await nodeClass(x, 'cm1')).toContain('dim');
    await timeline.locator('button[aria-label="Next step"]').click();
    await timeline.locator('button[aria-label="Next step"]').click();
    await x.settle();
    expect(await nodeClass(x, 'd1')).toContain('ov-removed');
    expect(await nodeClass(x, 'rs1')).not.toContain('ov-removed');
    await x.page.locator('input[type="range"]').fill('5');
    await x.settle();
    expect(await timeline.locator('.caption').innerText()).toBe('Step 5/9 · garbage-collector: delete Pod shop/web-1-a (owner gone)');
    expect(await nodeClass(x, 'rs1')).toContain('ov-removed');
    expect(await nodeClass(x, 'p1')).toContain('ov-deleting');
    await x.screenshot('07-simulation-step-5');
    await timeline.locator('button[aria-label="Last step"]').click();
    await x.settle();
    expect(await nodeClass(x, 'p2')).toContain('ov-removed');
    expect(await nodeClass(x, 'p3')).toContain('ov-stuck');
    expect(await x.page.locator('g.node[data-id="p3"] text.sub').textContent()).toMatch(/^⊘ stuck: waits for finalizer/);
    expect(await x.page.locator('g.node[data-id="d1"] text.sub').textContent()).toBe('✕ removed · #1');
    expect(await timeline.locator('.caption').innerText()).toContain('end: 1 stuck');
    expect(await x.state()).toMatchObject({ step: 9 });
    await x.clickWhenStill('g.node[data-id="p3"]');
    // The details follow the selection on the next frame.
    await expect.poll(() => x.page.locator('.details ul.simulation').innerText()).toContain('Stuck: waits for finalizer example.com/hold');
    await x.screenshot('08-simulation-end');
    await timeline.locator('button', { hasText: 'Open Report' }).click();
    expect(await x.waitForPosted((m) => m.type === 'openReport')).toEqual({ type: 'openReport' });
    await timeline.locator('button', { hasText: 'Close' }).click();
    await x.settle();
    expect(await timeline.isVisible()).toBe(false);
    expect(await nodeClass(x, 'd1')).not.toContain('ov-removed');
  });

  it('cuts the references of orphaned dependents', async () => {
    const x = await open(deploymentTree());
    await x.send({ type: 'simulation', report: orphanReport(), id: 1 });
    await x.page.locator('footer.timeline button[aria-label="Pause"]').click();
    await x.page.locator('footer.timeline button[aria-label="Last step"]').click();
    await x.settle();
    expect(await x.page.locator('.graph-svg path.edge.cut').count()).toBe(3);
    expect(await nodeClass(x, 'rs1')).toContain('ov-removed');
    await x.screenshot('09-orphaned');
  });

  it('follows the theme: dark, light and high contrast', async () => {
    const x = await open(statesGraph());
    const fill = () => x.page.evaluate(() => getComputedStyle(document.querySelector('g.node[data-id="o1"] rect.box')).fill);
    const dark = await fill();
    await x.screenshot('10-theme-dark');
    await x.applyTheme('light');
    const light = await fill();
    expect(light).not.toBe(dark);
    expect(light).toBe('rgb(248, 248, 248)');
    await x.screenshot('11-theme-light');
    await x.applyTheme('high-contrast');
    const stroke = await x.page.evaluate(() => getComputedStyle(document.querySelector('g.node[data-id="o1"] rect.box')).stroke);
    expect(stroke).toBe('rgb(111, 195, 223)');
    await x.screenshot('12-theme-high-contrast');
  });

  it('renders hostile names, kinds, namespaces, finalizers and messages as text', async () => {
    const x = await open(hostileGraph());
    await x.clickWhenStill('g.node[data-id="h2"]');
    await x.clickWhenStill('g.node[data-id="h1"]');
    await x.settle();
    expect(await x.page.locator('.details h2').innerText()).toBe(`Deployment ${HOSTILE_NAME}`);
    await x.clickWhenStill('g.node[data-id="h2"]');
    await x.settle();
    const details = await x.page.locator('.details').innerText();
    expect(details).toContain('<iframe src="javascript:alert(5)"></iframe>');
    expect(details).toContain('<style>*{display:none}</style>');
    expect(details).toContain('Why it cannot finish: <a href="javascript:alert(6)">why</a>');
    // No element came from the data: only what the app creates.
    const counts = await x.page.evaluate(() =>
      ['img', 'script', 'iframe', 'style', 'a', 'b'].map((t) => document.getElementsByTagName(t).length),
    );
    expect(counts).toEqual([0, 1, 0, 0, 0, 0]);
    expect(x.dialogs).toEqual([]);
    // Exports escape them too.
    await x.page.locator('details.export summary').click();
    await x.page.locator('details.export button', { hasText: 'SVG' }).click();
    const svg = await x.waitForPosted((m) => m.type === 'export');
    expect(svg.type === 'export' && svg.data).not.toMatch(/<(img|script|iframe|style)/);
    await x.screenshot('13-hostile-text');
  });

  it('exports what is shown as SVG, PNG and DOT', async () => {
    const x = await open(deploymentTree(), {
      state: {
        version: 1,
        search: '',
        hidden: { namespaces: [], kinds: ['ConfigMap'], states: [] },
        expanded: [],
        details: true,
        legend: false,
      },
    });
    const exportAs = async (label: string) => {
      await x.clearPosted();
      await x.page.locator('details.export summary').click();
      await x.page.locator('details.export button', { hasText: label }).click();
      const m = await x.waitForPosted((p) => p.type === 'export');
      if (m.type !== 'export') throw new Error('not an export');
      return m;
    };
    const svg = await exportAs('SVG');
    expect(svg).toMatchObject({ format: 'svg', name: 'ownership-graph.svg' });
    expect(svg.data).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.data).toContain('>web-1<');
    expect(svg.data).not.toContain('settings'); // the ConfigMap is filtered out
    expect(svg.data).not.toContain('var(--');
    const png = await exportAs('PNG');
    expect(png).toMatchObject({ format: 'png', name: 'ownership-graph.png' });
    const bytes = Buffer.from(png.data, 'base64');
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(2000);
    const dot = await exportAs('DOT');
    expect(dot.data).toContain('"rs1" -> "p1"');
    expect(dot.data).not.toContain('cm1');
  });

  it('restores zoom, selection, filters and expanded groups from the saved state (hide/show, reload)', async () => {
    const state = {
      version: 1,
      source: workspace,
      zoom: { k: 0.5, x: 100, y: 50 },
      selected: 'pod-3',
      search: '',
      expanded: ['group:rs/Pod'],
      hidden: { namespaces: [], kinds: [], states: [] },
      details: true,
      legend: false,
    };
    const x = await open(fanOut(30), { state });
    expect(await x.page.locator('.graph-svg g.viewport').getAttribute('transform')).toBe('translate(100,50) scale(0.5)');
    expect(await x.page.locator('.graph-svg g.node').count()).toBe(31);
    expect(await nodeClass(x, 'pod-3')).toContain('selected');
    // Pan, then reload the page as VS Code does when the panel is shown again: the same view comes back.
    await x.page.mouse.move(600, 400);
    await x.page.mouse.down();
    await x.page.mouse.move(700, 450, { steps: 5 });
    await x.page.mouse.up();
    await x.settle();
    const saved = (await x.state()) as { zoom: { x: number; y: number } };
    expect(saved.zoom.x).toBeCloseTo(200, 0);
    const before = await x.page.locator('.graph-svg g.viewport').getAttribute('transform');
    await x.page.reload();
    await x.waitForPosted((m) => m.type === 'ready');
    await x.showGraph({ type: 'graph', source: workspace, graph: fanOut(30), revision: 1 });
    expect(await x.page.locator('.graph-svg g.viewport').getAttribute('transform')).toBe(before);
    expect(await nodeClass(x, 'pod-3')).toContain('selected');
  });

  it("a live graph's scope: the toolbar says it, a cut graph says so, Scope… asks the host, details count what is not loaded", async () => {
    const cluster = { kind: 'cluster' as const, context: 'kind-dev' };
    const hostile = '<img src=x onerror=alert(9)>';
    const graph = fanOut(30);
    graph.nodes[0] = { ...graph.nodes[0], omitted: { owners: 1, dependents: 469 } };
    graph.truncated = { shown: 31, total: 500 };
    h = await Harness.open(browser);
    const x = h;
    await x.showGraph({ type: 'graph', source: cluster, graph, revision: 1, scope: { kind: 'namespace', namespace: hostile } });
    expect(await x.page.locator('.toolbar .source').innerText()).toBe(`Live cluster kind-dev · namespace ${hostile}`);
    expect(await x.page.locator('.scope-bar').innerText()).toContain(
      `Showing 31 of the 500 objects in this scope (namespace ${hostile}): owners before their dependents; the rest are not loaded.`,
    );
    expect(await x.page.evaluate(() => document.getElementsByTagName('img').length)).toBe(0);
    await x.clickWhenStill('g.node[data-id="rs"]');
    await x.settle();
    const details = (await x.page.locator('.details').textContent())!;
    expect(details).toContain('Owners (1)');
    expect(details).toContain('1 more owner not loaded (outside this scope, or past its limit)');
    expect(details).toContain('Dependents (499)');
    expect(details).toContain('469 more dependents not loaded');
    await x.screenshot('17-scoped-live-graph');
    await x.clearPosted();
    await x.page.locator('.toolbar button', { hasText: 'Scope…' }).click();
    expect(await x.waitForPosted((m) => m.type === 'pickScope')).toEqual({ type: 'pickScope' });
    await x.page.locator('.scope-bar button').click();
    expect((await x.posted()).filter((m) => m.type === 'pickScope')).toHaveLength(2);
    expect(await x.state()).toMatchObject({ source: cluster, scope: { kind: 'namespace', namespace: hostile }, selected: 'rs' });
    // Another scope is another graph: the selection goes, the bar too when nothing was cut.
    await x.showGraph({ type: 'graph', source: cluster, graph: fanOut(3), revision: 2, scope: { kind: 'namespace', namespace: '' } });
    expect(await x.page.locator('.toolbar .source').innerText()).toBe('Live cluster kind-dev · cluster-scoped objects');
    expect(await x.page.locator('.scope-bar').isHidden()).toBe(true);
    expect(await x.state()).not.toHaveProperty('selected');
    // The workspace has no scope: no Scope… button.
    await x.showGraph({ type: 'graph', source: workspace, graph: fanOut(3), revision: 3 });
    expect(await x.page.locator('.toolbar button', { hasText: 'Scope…' }).isHidden()).toBe(true);
  });

  it('keeps the positions of nodes that stay when the graph changes', async () => {
    const x = await open(deploymentTree());
    const before = await Promise.all(['d1', 'rs1', 'p1', 'p2', 'p3', 'cm1'].map((id) => nodeTransform(x, id)));
    const next = deploymentTree();
    next.nodes.push({ ...next.nodes[2], uid: 'p4', name: 'web-1-d' });
    next.edges.push({ from: 'p4', to: 'rs1', controller: true, blockOwnerDeletion: true });
    next.nodes = next.nodes.filter((n) => n.uid !== 'p1');
    next.edges = next.edges.filter((e) => e.from !== 'p1');
    await x.showGraph({ type: 'graph', source: workspace, graph: next, revision: 2 });
    const after = await Promise.all(['d1', 'rs1', 'p2', 'p3', 'cm1'].map((id) => nodeTransform(x, id)));
    expect(after).toEqual([before[0], before[1], before[3], before[4], before[5]]);
    expect(await nodeIds(x)).toContain('p4');
    expect(await nodeIds(x)).not.toContain('p1');
  });

  it('draws large graphs on a canvas, with hit-testing and the same keyboard', async () => {
    const x = await open(largeGraph(3000));
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('canvas');
    expect(await x.page.locator('.graph-svg').count()).toBe(0);
    await x.screenshot('14-canvas-3000-fit');
    // Zoom in on the middle, then click the node found there.
    await x.page.locator('.graph').focus();
    for (let i = 0; i < 12; i++) await x.page.keyboard.press('+');
    await x.page.waitForTimeout(100);
    await x.page.keyboard.press('ArrowDown');
    await x.settle();
    const selected = ((await x.state()) as { selected?: string }).selected;
    expect(selected).toBeTruthy();
    expect(await x.page.locator('.details h2').innerText()).not.toBe('');
    await x.screenshot('15-canvas-zoomed-selected');
  });
});

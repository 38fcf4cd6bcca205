// Issue 17: namespaces in the graph and the graph at thousands of objects, on the built bundle in headless Chromium
// (testkit/webview/harness.ts, the production page and its CSP): namespace containers, Show in Graph on a Namespace
// (what it holds and what blocks it), the semantic zoom levels (aggregate boxes at the overview, objects when zoomed
// or clicked in), collapsed fan-outs inside a namespace, the filters' "only" and "None" and the namespaces'
// type-to-filter box, a large graph opening on the namespace of the object in focus. Screenshots:
// test-output/webview/namespaces-*.png.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { GraphData } from '../../shared/src/protocol';
import { Harness } from '../../testkit/webview/harness';
import { largeGraph, namespacedGraph } from '../../testkit/webview/fixtures';

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

const level = (x: Harness) => x.page.locator('.graph').getAttribute('data-level');

async function box(x: Harness, selector: string) {
  return (await x.page.locator(selector).boundingBox())!;
}

const inside = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;

describe('namespaces and thousands of objects (issue 17)', () => {
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

  it('draws each namespace as a container of its objects, the Namespace object in its top-left corner', async () => {
    const x = await open(namespacedGraph(), { viewport: { width: 1400, height: 900 } });
    expect(await level(x)).toBe('objects');
    const namespaces = await x.page
      .locator('.graph-svg g.ns-box')
      .evaluateAll((els: { getAttribute(n: string): string }[]) => els.map((e) => e.getAttribute('data-namespace')));
    expect(namespaces.sort()).toEqual(['', 'billing', 'legacy-mq', 'rabbitmq-system', 'shop']);
    const shop = await box(x, '.ns-box[data-namespace="shop"] rect.ns-outline');
    for (const id of ['ns-shop', 'd-web', 'rs-web', 'group:rs-web/Pod'])
      expect(inside(await box(x, `g.node[data-id="${id}"] rect.box`), shop), id).toBe(true);
    const legacy = await box(x, '.ns-box[data-namespace="legacy-mq"] rect.ns-outline');
    const header = await box(x, 'g.node[data-id="ns-legacy-mq"] rect.box');
    expect(inside(header, legacy)).toBe(true);
    for (const id of ['mq-orders', 'mq-sts']) expect((await box(x, `g.node[data-id="${id}"] rect.box`)).y).toBeGreaterThan(header.y);
    // The label says what it holds; the collapsed fan-out counts its members.
    expect(await x.page.locator('.ns-box[data-namespace="shop"] > title').textContent()).toBe('shop: 43 objects');
    expect(await x.page.locator('.ns-box[data-namespace="legacy-mq"] > title').textContent()).toBe('legacy-mq: 4 objects, 2 stuck');
    expect(await x.page.locator('.ns-box[data-namespace="legacy-mq"]').getAttribute('class')).toContain('ns-stuck');
    expect(await x.page.locator('g.node.group text.name').textContent()).toBe('40 Pods');
    await x.screenshot('namespaces-01-containers');
  });

  it('Show in Graph on a Namespace shows what it holds and what blocks it', async () => {
    const x = await open(namespacedGraph());
    await x.send({ type: 'focus', uid: 'ns-legacy-mq' });
    await x.settle();
    expect((await nodeIds(x)).sort()).toEqual(['mq-cm', 'mq-orders', 'mq-sts', 'ns-legacy-mq', 'op-deploy'].sort());
    expect(await x.page.locator('.focus-bar').innerText()).toContain('Showing namespace legacy-mq: what it holds and what blocks it');
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('5 of 5 objects');
    await x.screenshot('namespaces-02-namespace-focus');
    await x.page.locator('.focus-bar button').click();
    await x.settle();
    expect((await nodeIds(x)).length).toBeGreaterThan(5);
  });

  it('semantic zoom: at the overview each namespace is an aggregate box with counts; a click zooms in to its objects', async () => {
    const x = await open(largeGraph(3000), { viewport: { width: 1400, height: 900 } });
    await x.zoomStill();
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('canvas');
    expect(await level(x)).toBe('overview');
    const overview = await x.page.locator('ul.overview-list li').allTextContents();
    expect(overview).toHaveLength(40);
    expect(overview).toContain('team-10: 85 objects, 1 stuck');
    expect(overview).toContain('team-0: 85 objects');
    const file = await x.screenshot('namespaces-03-overview-3000');
    expect(file).toMatch(/namespaces-03-overview-3000\.png$/);
    // The canvas reads the theme's colours again: the overview in light and high contrast too.
    await x.applyTheme('light');
    await x.screenshot('namespaces-03-overview-3000-light');
    await x.applyTheme('high-contrast');
    await x.screenshot('namespaces-03-overview-3000-high-contrast');
    await x.applyTheme('dark');
    // Click a box (the first point of the diagonal that is in one): the view goes into it, at a scale where objects read.
    const area = (await x.page.locator('.graph').boundingBox())!;
    for (let i = 1; i < 40 && (await level(x)) === 'overview'; i++) {
      await x.page.mouse.click(area.x + i * 15, area.y + i * 15);
      await x.zoomStill();
    }
    const k = await x.zoomStill();
    expect(k).toBeGreaterThanOrEqual(0.45);
    expect(await level(x)).toBe('objects');
    expect(await x.page.locator('ul.overview-list li').count()).toBe(0);
    await x.screenshot('namespaces-04-clicked-in');
    // Zooming out far enough brings the overview back.
    await x.page.locator('.graph').focus();
    for (let i = 0; i < 8; i++) await x.page.keyboard.press('-');
    await x.zoomStill();
    expect(await level(x)).toBe('overview');
  });

  it('the SVG renderer has the same levels: aggregate text at the overview', async () => {
    const x = await open(largeGraph(250), { viewport: { width: 1000, height: 700 } });
    const k = await x.zoomStill();
    expect(await x.page.locator('.graph').getAttribute('data-renderer')).toBe('svg');
    expect(k).toBeLessThan(0.3);
    expect(await level(x)).toBe('overview');
    expect(await x.page.locator('.graph-svg').getAttribute('class')).toContain('lod-overview');
    expect(await x.page.locator('.ns-box[data-namespace="team-3"] tspan.ns-name').isVisible()).toBe(true);
    expect(await x.page.locator('g.node').first().isVisible()).toBe(false);
    await x.screenshot('namespaces-05-svg-overview');
  });

  it('filters: "only" beside each value, "None", and a type-to-filter box for namespaces', async () => {
    const x = await open(largeGraph(250));
    const menu = x.page.locator('details.filter[data-dimension="namespaces"]');
    await menu.locator('summary').click();
    await menu.locator('input.menu-filter').fill('team-1');
    const shown = await menu
      .locator('.choice-row:visible')
      .evaluateAll((els: { dataset: { value: string } }[]) => els.map((e) => e.dataset.value));
    expect(shown).toEqual([
      'team-1',
      'team-10',
      'team-11',
      'team-12',
      'team-13',
      'team-14',
      'team-15',
      'team-16',
      'team-17',
      'team-18',
      'team-19',
    ]);
    await x.screenshot('namespaces-06-type-to-filter');
    await menu.locator('.choice-row[data-value="team-12"] button.only').click();
    await x.settle();
    const counts = await x.page.locator('.toolbar .counts').innerText();
    expect(counts).toMatch(/^\d+ of 250 objects · \d+ hidden by filters$/);
    expect(await menu.locator('summary').innerText()).toBe('Namespaces (39 hidden)');
    const ids = await nodeIds(x);
    expect(ids.length).toBeGreaterThan(0);
    expect(
      ids.every((id) => ['d-12', 'rs-12', 'p-12-0', 'p-12-1', 'p-12-2', 'd-52', 'rs-52', 'p-52-0', 'p-52-1', 'p-52-2'].includes(id)),
    ).toBe(true);
    // The type-to-filter text stays while the menu is rebuilt.
    expect(await menu.locator('input.menu-filter').inputValue()).toBe('team-1');
    await menu.locator('button.hide-all').click();
    await x.settle();
    expect(await x.page.locator('.empty-state').innerText()).toBe('Nothing matches the filters.');
    expect(await x.state()).toMatchObject({ hidden: { namespaces: expect.arrayContaining(['team-0', 'team-12', 'team-39']) } });
    await menu.locator('button.show-all').click();
    await x.settle();
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('250 of 250 objects');
    // States and kinds have "only" too.
    const kinds = x.page.locator('details.filter[data-dimension="kinds"]');
    await kinds.locator('summary').click();
    await kinds.locator('.choice-row[data-value="Deployment"] button.only').click();
    await x.settle();
    expect(new Set((await nodeIds(x)).map((id) => id.split('-')[0]))).toEqual(new Set(['d']));
  });

  it('a large graph opens on the namespace of the object in focus, at a scale where objects read', async () => {
    const x = await open(largeGraph(3000), { viewport: { width: 1400, height: 900 } });
    await x.send({ type: 'focus', uid: 'p-37-0' });
    const k = await x.zoomStill();
    expect(await level(x)).toBe('objects');
    expect(k).toBeGreaterThanOrEqual(0.45);
    expect(await x.page.locator('.focus-bar').innerText()).toContain('Showing namespace team-37 around Pod team-37/app-37-5d8f7-0');
    // Its namespace's objects are shown, not only its component.
    expect(await x.page.locator('.toolbar .counts').innerText()).toBe('80 of 80 objects');
    const selected = await box(x, 'g.node[data-id="p-37-0"] rect.box');
    const area = await box(x, '.graph');
    expect(inside(selected, area)).toBe(true);
    await x.screenshot('namespaces-07-large-graph-focus');
  });
});

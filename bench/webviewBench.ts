// The graph webview's performance report (`npm run bench`, after the engine's; `--no-webview` skips it): the built
// bundle (dist/webview) in Debian's headless Chromium, in the production page with its CSP (testkit/webview/harness.ts),
// fed generated graphs (testkit/webview/fixtures.ts largeGraph: Deployments → ReplicaSets → 3 Pods each, none collapsed).
// For each size and renderer it measures:
//   - first paint: from posting the graph message to the frame after it is drawn (the message's structured clone,
//     index, view, layout and the renderer's DOM or canvas work included), median of --webview-runs;
//   - frames per second while panning (a mouse drag) and while zooming (wheel events), one event per frame for
//     about two seconds, from requestAnimationFrame timestamps, and the 95th percentile frame time;
//   - the JS heap and DOM node count afterwards (CDP Performance.getMetrics).
// Figures and ratios to the goals (first paint ≤ 1.5 s, ≥ 30 fps at 5,000 nodes), never pass/fail.
// Then the live graph of a generated 100,000-object cluster through the language server (bench/liveGraph.ts): request
// time, JSON size and first paint of the whole cluster and of the scopes Show Ownership Graph offers.
// Then real-size graphs (issue 17, bench/realGraphs.ts): the 3,075-object OpenShift must-gather (../shared/corpus)
// and a generated cluster (--real-graph-objects=N, 20,000), whole as the workspace's graph is sent: first paint, fps
// at the overview (namespaces as aggregate boxes) and inside a namespace, and a screenshot of each overview
// (test-output/webview/bench-overview-*.png) to look at.
// Options: --webview-sizes=1000,2000,5000 --webview-runs=3 --no-live-graph --live-graph-objects=N
// --live-graph-paint-timeout=S (the whole cluster's first paint, 300 s) --live-graph-only --no-real-graphs
// --real-graph-objects=N --real-graphs-only

import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { cpus } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { Harness } from '../testkit/webview/harness';
import { largeGraph } from '../testkit/webview/fixtures';
import { liveGraphReport } from './liveGraph';
import { interact } from './webviewPage';
import { generatedGraph, mustGatherGraph, type NamedGraph } from './realGraphs';
import { indexGraph } from '../webview/src/model/graphIndex';
import { namespacedLayout } from '../webview/src/model/namespaces';
import { buildView } from '../webview/src/model/viewModel';
import type { GraphData, GraphRenderer } from '../shared/src/protocol';

const GOAL_FIRST_PAINT_MS = 1500;
const GOAL_FPS = 30;
const GOAL_NODES = 5000;
const INTERACTION_MS = 2000;

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks run in the page (no DOM types here) */
declare const window: any;
declare const document: any;
declare const requestAnimationFrame: any;
declare const performance: any;
declare const WheelEvent: any;
declare const MutationObserver: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const out = (line = ''): void => {
  process.stdout.write(line + '\n');
};

interface Options {
  sizes: number[];
  runs: number;
  liveGraph: boolean;
  liveGraphOnly: boolean;
  liveGraphObjects: number;
  paintTimeoutS: number;
  realGraphs: boolean;
  realGraphsOnly: boolean;
  realGraphObjects: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    sizes: [1000, 2000, GOAL_NODES],
    runs: 3,
    liveGraph: true,
    liveGraphOnly: false,
    liveGraphObjects: 100_000,
    paintTimeoutS: 300,
    realGraphs: true,
    realGraphsOnly: false,
    realGraphObjects: 20_000,
  };
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    const num = () => Math.max(1, Math.floor(Number(m![2])) || 1);
    if (m?.[1] === 'webview-sizes' && m[2])
      o.sizes = m[2]
        .split(',')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0);
    else if (m?.[1] === 'webview-runs' && m[2]) o.runs = num();
    else if (m?.[1] === 'no-live-graph' && m[2] === undefined) o.liveGraph = false;
    else if (m?.[1] === 'live-graph-only' && m[2] === undefined) o.liveGraphOnly = true;
    else if (m?.[1] === 'live-graph-objects' && m[2]) o.liveGraphObjects = Math.max(5_000, num());
    else if (m?.[1] === 'live-graph-paint-timeout' && m[2]) o.paintTimeoutS = num();
    else if (m?.[1] === 'no-real-graphs' && m[2] === undefined) o.realGraphs = false;
    else if (m?.[1] === 'real-graphs-only' && m[2] === undefined) o.realGraphsOnly = true;
    else if (m?.[1] === 'real-graph-objects' && m[2]) o.realGraphObjects = Math.max(2_000, num());
    else
      throw new Error(
        `unknown argument ${a} (options: --webview-sizes=1000,2000,5000 --webview-runs=3 --no-live-graph --live-graph-only --live-graph-objects=N --live-graph-paint-timeout=S --no-real-graphs --real-graphs-only --real-graph-objects=N)`,
      );
  }
  return o;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (n: number) => (n >= 100 ? `${Math.round(n).toLocaleString('en-US')} ms` : `${n.toFixed(1)} ms`);
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

interface Fps {
  fps: number;
  p95: number;
}

interface Row {
  nodes: number;
  renderer: string;
  firstPaint: number;
  overview: { pan: Fps; zoom: Fps };
  reading: { pan: Fps; zoom: Fps };
  heap: number;
  domNodes: number;
}

/** Wheel steps (d3-zoom: each deltaY of -100 scales by 2^0.2) from the current scale to about `k`. */
async function zoomTo(h: Harness, k: number): Promise<void> {
  const current = Number(await h.page.locator('.graph').getAttribute('data-zoom')) || 1;
  const steps = Math.round(Math.log2(k / current) / 0.2);
  await h.page.evaluate((steps) => {
    const el = document.querySelector('.graph');
    const r = el.getBoundingClientRect();
    for (let i = 0; i < Math.abs(steps); i++) {
      el.dispatchEvent(
        new WheelEvent('wheel', {
          bubbles: true,
          cancelable: true,
          clientX: r.left + r.width / 2,
          clientY: r.top + r.height / 2,
          deltaY: steps > 0 ? -100 : 100,
        }),
      );
    }
  }, steps);
  await h.settle();
}

/** Posts the graph and resolves, in the page, with the time until the frame after it is drawn. */
async function firstPaint(page: Page, graph: GraphData, renderer: GraphRenderer, revision: number): Promise<number> {
  return page.evaluate(
    ({ graph, renderer, revision }) =>
      new Promise<number>((resolve) => {
        const t0 = performance.now();
        const done = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
        const observer = new MutationObserver(() => {
          if (document.body.dataset.rendered === String(revision)) {
            observer.disconnect();
            done();
          }
        });
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-rendered'] });
        window.postMessage({ type: 'graph', source: { kind: 'workspace' }, graph, revision, renderer }, '*');
      }),
    { graph, renderer, revision },
  );
}

async function measure(browser: Browser, bundleDir: string, graph: GraphData, renderer: GraphRenderer, runs: number): Promise<Row> {
  const paints: number[] = [];
  let last: Harness | undefined;
  for (let r = 0; r < runs; r++) {
    await last?.close();
    const h = await Harness.open(browser, { bundleDir, viewport: { width: 1600, height: 1000 } });
    last = h;
    paints.push(await firstPaint(h.page, graph, renderer, 1));
  }
  const h = last!;
  // The overview (the fit: everything in view), then reading level (scale 1, about 60 nodes in view).
  const overview = { pan: await interact(h.page, 'pan', INTERACTION_MS), zoom: await interact(h.page, 'zoom', INTERACTION_MS) };
  await zoomTo(h, 1);
  const reading = { pan: await interact(h.page, 'pan', INTERACTION_MS), zoom: await interact(h.page, 'zoom', INTERACTION_MS) };
  const cdp = await h.page.context().newCDPSession(h.page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const used = await h.page.locator('.graph').getAttribute('data-renderer');
  const problems = await h.violations();
  if (problems.length) throw new Error(`the page reported problems: ${problems.join('; ')}`);
  await h.close();
  return {
    nodes: graph.nodes.length,
    renderer: renderer === 'auto' ? `auto (${used})` : renderer,
    firstPaint: median(paints),
    overview,
    reading,
    heap: metric('JSHeapUsedSize'),
    domNodes: metric('Nodes'),
  };
}

function table(rows: string[][], header: string[]): void {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r: string[]) => '  ' + r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   ');
  out(line(header));
  out('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
  for (const r of rows) out(line(r));
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const bundleDir = path.join(__dirname, 'webview');
  if (opts.liveGraphOnly) {
    await liveGraph(opts, bundleDir);
    return 0;
  }
  if (opts.realGraphsOnly) {
    await realGraphs(opts, bundleDir);
    return 0;
  }
  out('== The graph webview (headless Chromium, the built bundle in the production page)');
  out(`   ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}); graphs: Deployments → ReplicaSets → 3 Pods, no fan-out collapsed`);
  out();

  // The pure part alone, in Node: what the webview computes before it draws.
  const g5k = largeGraph(GOAL_NODES);
  const filters = { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] };
  const pure: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const view = buildView(indexGraph(g5k), filters);
    namespacedLayout(view);
    pure.push(performance.now() - t0);
  }
  out(
    `  index + view + layout of ${GOAL_NODES.toLocaleString('en-US')} nodes in Node: ${ms(median(pure.slice(1)))} (median of 4 after a warm-up)`,
  );
  out();

  const browser = await Harness.launch(bundleDir);
  const rows: Row[] = [];
  try {
    for (const n of opts.sizes) {
      const graph = largeGraph(n);
      for (const renderer of ['svg', 'canvas', 'auto'] as GraphRenderer[])
        rows.push(await measure(browser, bundleDir, graph, renderer, opts.runs));
    }
  } finally {
    await browser.close();
  }
  const fps = (f: Fps) => `${f.fps.toFixed(0)} (${ms(f.p95)})`;
  table(
    rows.map((r) => [
      `${r.nodes.toLocaleString('en-US')} ${r.renderer}`,
      ms(r.firstPaint),
      fps(r.overview.pan),
      fps(r.overview.zoom),
      fps(r.reading.pan),
      fps(r.reading.zoom),
      mb(r.heap),
      Math.round(r.domNodes).toLocaleString('en-US'),
    ]),
    [
      'nodes, renderer',
      'first paint',
      'pan fps (p95), all in view',
      'zoom fps (p95), all in view',
      'pan fps, scale 1',
      'zoom fps, scale 1',
      'JS heap',
      'DOM nodes',
    ],
  );
  out();
  const goal = rows.filter((r) => r.nodes === GOAL_NODES && r.renderer.startsWith('auto'));
  for (const r of goal) {
    const worst = Math.min(r.overview.pan.fps, r.overview.zoom.fps, r.reading.pan.fps, r.reading.zoom.fps);
    out(
      `  ${GOAL_NODES.toLocaleString('en-US')} nodes as shipped (${r.renderer}): first paint ${ms(r.firstPaint)} = ${(r.firstPaint / GOAL_FIRST_PAINT_MS).toFixed(2)}× the 1.5 s goal; ` +
        `the slowest of panning and zooming ${worst.toFixed(0)} fps = ${(worst / GOAL_FPS).toFixed(2)}× the 30 fps goal`,
    );
  }
  if (opts.realGraphs) {
    out();
    await realGraphs(opts, bundleDir);
  }
  if (opts.liveGraph) {
    out();
    await liveGraph(opts, bundleDir);
  }
  return 0;
}

interface RealRow {
  name: string;
  objects: number;
  namespaces: number;
  firstPaint: number;
  overview: { pan: Fps; zoom: Fps };
  inside: { pan: Fps; zoom: Fps; renderer: string };
  screenshot: string;
}

/** The must-gather and a generated cluster, whole, as a workspace's graph (the auto renderer, as shipped). */
async function realGraphs(opts: Options, bundleDir: string): Promise<void> {
  out('== Real-size graphs in the webview (issue 17): the whole graph at the overview, then inside one namespace');
  const graphs: NamedGraph[] = [];
  const mustGather = await mustGatherGraph(__dirname);
  if (mustGather) graphs.push(mustGather);
  else out('  ../shared/corpus is not there: the must-gather is skipped');
  graphs.push(generatedGraph(opts.realGraphObjects));
  const browser = await Harness.launch(bundleDir);
  const rows: RealRow[] = [];
  try {
    for (const g of graphs) rows.push(await measureReal(browser, bundleDir, g, opts.runs));
  } finally {
    await browser.close();
  }
  const fps = (f: Fps) => `${f.fps.toFixed(0)} (${ms(f.p95)})`;
  table(
    rows.map((r) => [
      r.name,
      r.objects.toLocaleString('en-US'),
      String(r.namespaces),
      ms(r.firstPaint),
      fps(r.overview.pan),
      fps(r.overview.zoom),
      `${fps(r.inside.pan)} ${r.inside.renderer}`,
      fps(r.inside.zoom),
    ]),
    [
      'graph',
      'objects',
      'namespaces',
      'first paint',
      'pan fps (p95), overview',
      'zoom fps, overview',
      'pan fps, in a namespace',
      'zoom fps',
    ],
  );
  for (const r of rows) out(`  overview of the ${r.name}: ${r.screenshot}`);
}

/** The repository's test-output/webview (the bundled bench runs from dist/), as the browser tests' screenshots. */
const SHOTS = path.join(__dirname, '..', 'test-output', 'webview');

async function shoot(h: Harness, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await h.page.screenshot({ path: file });
  return path.relative(path.join(__dirname, '..'), file);
}

async function measureReal(browser: Browser, bundleDir: string, g: NamedGraph, runs: number): Promise<RealRow> {
  const paints: number[] = [];
  let last: Harness | undefined;
  for (let r = 0; r < runs; r++) {
    await last?.close();
    const h = await Harness.open(browser, { bundleDir, viewport: { width: 1600, height: 1000 } });
    last = h;
    paints.push(await firstPaint(h.page, g.graph, 'auto', 1));
  }
  const h = last!;
  await h.page.waitForTimeout(300);
  const level = await h.page.locator('.graph').getAttribute('data-level');
  const namespaces = await h.page.locator('ul.overview-list li').count();
  const screenshot = await shoot(h, `bench-overview-${g.slug}`);
  const overview = { pan: await interact(h.page, 'pan', INTERACTION_MS), zoom: await interact(h.page, 'zoom', INTERACTION_MS) };
  // Into the largest namespace (the first box, top left: the first point of the diagonal in a box) by a click.
  await h.page.locator('.toolbar button', { hasText: 'Fit' }).click();
  await h.page.waitForTimeout(400);
  const area = (await h.page.locator('.graph').boundingBox())!;
  for (let i = 1; i < 40 && (await h.page.locator('.graph').getAttribute('data-level')) === 'overview'; i++) {
    await h.page.mouse.click(area.x + i * 15, area.y + i * 15);
    await h.settle();
  }
  await h.page.waitForTimeout(500);
  const inside = {
    pan: await interact(h.page, 'pan', INTERACTION_MS),
    zoom: await interact(h.page, 'zoom', INTERACTION_MS),
    renderer: `${(await h.page.locator('.graph').getAttribute('data-renderer')) ?? '?'}`,
  };
  await shoot(h, `bench-inside-${g.slug}`);
  const problems = await h.violations();
  if (problems.length) throw new Error(`the page reported problems: ${problems.join('; ')}`);
  await h.close();
  if (level !== 'overview') out(`  note: the ${g.name} opened at the ${level} level`);
  return { name: g.name, objects: g.graph.nodes.length, namespaces, firstPaint: median(paints), overview, inside, screenshot };
}

async function liveGraph(opts: Options, bundleDir: string): Promise<void> {
  const browser = await Harness.launch(bundleDir);
  try {
    await liveGraphReport(browser, {
      objects: opts.liveGraphObjects,
      seed: 20250601,
      runs: opts.runs,
      paintTimeoutS: opts.paintTimeoutS,
      serverPath: path.join(__dirname, 'server.js'),
      bundleDir,
    });
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    out(`webview bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 2;
  },
);

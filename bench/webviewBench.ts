// The graph webview's performance report (`npm run bench`, after the engine's; `--no-webview` skips it): the built
// bundle (dist/webview) in Debian's headless Chromium, in the production page with its CSP (test/webview/harness.ts),
// fed generated graphs (test/webview/fixtures.ts largeGraph: Deployments → ReplicaSets → 3 Pods each, none collapsed).
// For each size and renderer it measures:
//   - first paint: from posting the graph message to the frame after it is drawn (the message's structured clone,
//     index, view, layout and the renderer's DOM or canvas work included), median of --webview-runs;
//   - frames per second while panning (a mouse drag) and while zooming (wheel events), one event per frame for
//     about two seconds, from requestAnimationFrame timestamps, and the 95th percentile frame time;
//   - the JS heap and DOM node count afterwards (CDP Performance.getMetrics).
// Figures and ratios to the goals (first paint ≤ 1.5 s, ≥ 30 fps at 5,000 nodes), never pass/fail.
// Options: --webview-sizes=1000,2000,5000 --webview-runs=3

import * as path from 'node:path';
import { cpus } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { Harness } from '../test/webview/harness';
import { largeGraph } from '../test/webview/fixtures';
import { indexGraph } from '../webview/src/model/graphIndex';
import { layeredLayout } from '../webview/src/model/layout';
import { buildView } from '../webview/src/model/viewModel';
import type { GraphData, GraphRenderer } from '../server/src/protocol';

const GOAL_FIRST_PAINT_MS = 1500;
const GOAL_FPS = 30;
const GOAL_NODES = 5000;
const INTERACTION_MS = 2000;

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks run in the page (no DOM types here) */
declare const window: any;
declare const document: any;
declare const requestAnimationFrame: any;
declare const performance: any;
declare const MouseEvent: any;
declare const WheelEvent: any;
declare const MutationObserver: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const out = (line = ''): void => {
  process.stdout.write(line + '\n');
};

interface Options {
  sizes: number[];
  runs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sizes: [1000, 2000, GOAL_NODES], runs: 3 };
  for (const a of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (m?.[1] === 'webview-sizes') o.sizes = m[2].split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    else if (m?.[1] === 'webview-runs') o.runs = Math.max(1, Math.floor(Number(m[2])) || 1);
    else throw new Error(`unknown argument ${a} (options: --webview-sizes=1000,2000,5000 --webview-runs=3)`);
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
      el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, deltaY: steps > 0 ? -100 : 100 }));
    }
  }, steps);
  await h.settle();
}

/** Posts the graph and resolves, in the page, with the time until the frame after it is drawn. */
async function firstPaint(page: Page, graph: GraphData, renderer: GraphRenderer, revision: number): Promise<number> {
  return page.evaluate(({ graph, renderer, revision }) => new Promise<number>((resolve) => {
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
  }), { graph, renderer, revision });
}

/** One input event per frame for `duration` ms (a drag, or wheel steps in and out); frame times from rAF. */
async function interact(page: Page, kind: 'pan' | 'zoom', duration: number): Promise<{ fps: number; p95: number }> {
  return page.evaluate(({ kind, duration }) => new Promise<{ fps: number; p95: number }>((resolve) => {
    const el = document.querySelector('.graph');
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const times: number[] = [];
    let i = 0;
    if (kind === 'pan') el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, clientX: cx, clientY: cy, button: 0, view: window }));
    const start = performance.now();
    const frame = (t: number) => {
      times.push(t);
      i++;
      if (kind === 'pan') {
        const dx = Math.sin(i / 15) * 200;
        const dy = Math.cos(i / 20) * 120;
        window.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: cx + dx, clientY: cy + dy, view: window }));
      } else {
        el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, clientX: cx, clientY: cy, deltaY: (Math.floor(i / 30) % 2 ? 1 : -1) * 40, deltaMode: 0 }));
      }
      if (t - start < duration) requestAnimationFrame(frame);
      else {
        if (kind === 'pan') window.dispatchEvent(new MouseEvent('mouseup', { bubbles: true, clientX: cx, clientY: cy, view: window }));
        const deltas = times.slice(1).map((x, k) => x - times[k]).sort((a, b) => a - b);
        const elapsed = times[times.length - 1] - times[0];
        resolve({ fps: ((times.length - 1) * 1000) / elapsed, p95: deltas[Math.min(deltas.length - 1, Math.floor(deltas.length * 0.95))] });
      }
    };
    requestAnimationFrame(frame);
  }), { kind, duration });
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
    nodes: graph.nodes.length, renderer: renderer === 'auto' ? `auto (${used})` : renderer, firstPaint: median(paints),
    overview, reading, heap: metric('JSHeapUsedSize'), domNodes: metric('Nodes'),
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
    layeredLayout({ nodes: view.nodes, edges: view.edges });
    pure.push(performance.now() - t0);
  }
  out(`  index + view + layout of ${GOAL_NODES.toLocaleString('en-US')} nodes in Node: ${ms(median(pure.slice(1)))} (median of 4 after a warm-up)`);
  out();

  const browser = await Harness.launch(bundleDir);
  const rows: Row[] = [];
  try {
    for (const n of opts.sizes) {
      const graph = largeGraph(n);
      for (const renderer of ['svg', 'canvas', 'auto'] as GraphRenderer[]) rows.push(await measure(browser, bundleDir, graph, renderer, opts.runs));
    }
  } finally {
    await browser.close();
  }
  const fps = (f: Fps) => `${f.fps.toFixed(0)} (${ms(f.p95)})`;
  table(rows.map((r) => [
    `${r.nodes.toLocaleString('en-US')} ${r.renderer}`, ms(r.firstPaint), fps(r.overview.pan), fps(r.overview.zoom), fps(r.reading.pan), fps(r.reading.zoom),
    mb(r.heap), Math.round(r.domNodes).toLocaleString('en-US'),
  ]), ['nodes, renderer', 'first paint', 'pan fps (p95), all in view', 'zoom fps (p95), all in view', 'pan fps, scale 1', 'zoom fps, scale 1', 'JS heap', 'DOM nodes']);
  out();
  const goal = rows.filter((r) => r.nodes === GOAL_NODES && r.renderer.startsWith('auto'));
  for (const r of goal) {
    const worst = Math.min(r.overview.pan.fps, r.overview.zoom.fps, r.reading.pan.fps, r.reading.zoom.fps);
    out(`  ${GOAL_NODES.toLocaleString('en-US')} nodes as shipped (${r.renderer}): first paint ${ms(r.firstPaint)} = ${(r.firstPaint / GOAL_FIRST_PAINT_MS).toFixed(2)}× the 1.5 s goal; `
      + `the slowest of panning and zooming ${worst.toFixed(0)} fps = ${(worst / GOAL_FPS).toFixed(2)}× the 30 fps goal`);
  }
  return 0;
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  out(`webview bench failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  process.exitCode = 2;
});

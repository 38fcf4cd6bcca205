// The live graph of a large cluster, end to end (run by bench/webviewBench.ts after its generated graphs; skipped with
// --no-live-graph): the generated cluster (bench/clusterObjects.ts, --live-graph-objects=N, 100,000 by default, without
// managedFields: the language server never keeps them) served by the Kubernetes API test server in this process, the
// built language server (dist/server.js --stdio, an empty workspace) connected to it, and then, measured at the client:
//   - kubeGcLens/cluster/graph as Show Ownership Graph asks for it: the whole cluster (what every version before the
//     scoped graph sent), the summary the namespace picker reads (kubeGcLens/cluster/graphSummary), and the default
//     scope (the namespace with the most objects, capped at GRAPH_LIMIT, as the picker's first item) and Show in Graph
//     on the largest connected component (the same cap): request → answer parsed, and the answer's JSON size;
//   - the webview's first paint of each answer (the built bundle in headless Chromium, the production page): from
//     posting the `graph` message to the frame after it is drawn (structured clone, index, view, layout, drawing), with
//     a time limit (--live-graph-paint-timeout=S, 300 s) for the whole cluster.
// Figures, never pass/fail. The API server shares this process, but only the listing (before anything is timed) uses it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import {
  CodeLensRefreshRequest,
  ConfigurationRequest,
  DiagnosticRefreshRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  RegistrationRequest,
  ShutdownRequest,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol';
import { GRAPH_LIMIT, type GraphData, type GraphParams, type GraphSummary, type ServerStatus } from '../shared/src/protocol';
import { ClusterConnectRequest, ClusterGraphRequest, ClusterGraphSummaryRequest, StatusNotification } from '../server/src/lsp/methods';
import { startKubeApiServer } from '../testkit/kubeApiServer/kubeApiServer';
import { Harness } from '../testkit/webview/harness';
import { generateBenchCluster } from './clusterObjects';
import { int, mb, median, ms, out } from './report';
import { interact } from './webviewPage';

/* eslint-disable @typescript-eslint/no-explicit-any -- page.evaluate callbacks run in the page (no DOM types here) */
declare const window: any;
declare const document: any;
declare const requestAnimationFrame: any;
declare const performance: any;
declare const MutationObserver: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface LiveGraphOptions {
  objects: number;
  seed: number;
  /** Requests timed per figure (the median is printed). */
  runs: number;
  /** The first paint of the whole cluster gives up after this many seconds. */
  paintTimeoutS: number;
  /** dist/server.js and dist/webview (or another build's, to compare). */
  serverPath: string;
  bundleDir: string;
}

interface Timed {
  ms: number;
  bytes: number;
  graph: GraphData;
}

/** The language server over stdio, as an editor drives it (an empty workspace folder). */
class Server {
  readonly connection: ProtocolConnection;
  private readonly proc;
  private status: ServerStatus | undefined;
  private wake: () => void = () => undefined;
  private stderr = '';
  readonly exited: Promise<never>;

  constructor(
    serverPath: string,
    private readonly folder: string,
  ) {
    this.proc = spawn(process.execPath, [serverPath, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.on('data', (d) => {
      this.stderr = (this.stderr + String(d)).slice(-4000);
    });
    this.connection = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.connection.onNotification(StatusNotification, (s) => {
      this.status = s;
      this.wake();
    });
    this.connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => null));
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onRequest(CodeLensRefreshRequest.type, () => undefined);
    this.connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);
    this.connection.onRequest(RegistrationRequest.type, () => undefined);
    this.exited = new Promise<never>((_, reject) =>
      this.proc.on('exit', (code, signal) => reject(new Error(`the language server exited (${signal ?? code}): ${this.stderr.trim()}`))),
    );
    this.exited.catch(() => undefined);
    this.connection.listen();
  }

  async start(): Promise<void> {
    const uri = `file://${this.folder}`;
    await Promise.race([
      this.exited,
      this.connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: 'empty' }],
        capabilities: { workspace: { configuration: true, workspaceFolders: true }, window: { workDoneProgress: true } },
      }),
    ]);
    await this.connection.sendNotification(InitializedNotification.type, {});
    await Promise.race([
      this.exited,
      new Promise<void>((resolve) => {
        this.wake = () => {
          if (this.status?.state === 'ready') resolve();
        };
        this.wake();
      }),
    ]);
  }

  request<R>(run: () => Promise<R>): Promise<R> {
    return Promise.race([this.exited, run()]);
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 3000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // already gone
    }
    this.connection.dispose();
    if (this.proc.exitCode === null) this.proc.kill();
  }
}

/** Posts a graph to the page and resolves with the time until the frame after it is drawn, or undefined after `timeoutMs`. */
async function firstPaint(page: Page, graph: GraphData, revision: number, timeoutMs: number): Promise<number | undefined> {
  return page.evaluate(
    ({ graph, revision, timeoutMs }) =>
      new Promise<number | undefined>((resolve) => {
        const t0 = performance.now();
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        const done = () =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(performance.now() - t0);
            }),
          );
        const observer = new MutationObserver(() => {
          if (document.body.dataset.rendered === String(revision)) {
            observer.disconnect();
            done();
          }
        });
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-rendered'] });
        window.postMessage({ type: 'graph', source: { kind: 'cluster', context: 'bench' }, graph, revision }, '*');
      }),
    { graph, revision, timeoutMs },
  );
}

/** The largest connected component's most connected object (Show in Graph on it is the worst case), and the component's size. */
function hubOf(graph: GraphData): { uid: string; component: number } | undefined {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const degree = new Map<string, number>();
  for (const e of graph.edges) {
    degree.set(e.to, (degree.get(e.to) ?? 0) + 1);
    degree.set(e.from, (degree.get(e.from) ?? 0) + 1);
    const [a, b] = [find(e.from), find(e.to)];
    if (a !== b) parent.set(a, b);
  }
  const size = new Map<string, number>();
  for (const uid of degree.keys()) size.set(find(uid), (size.get(find(uid)) ?? 0) + 1);
  let root: string | undefined;
  for (const [r, n] of size) if (root === undefined || n > size.get(root)!) root = r;
  if (root === undefined) return undefined;
  let best: string | undefined;
  for (const [uid, d] of degree) if (find(uid) === root && (best === undefined || d > degree.get(best)!)) best = uid;
  return { uid: best!, component: size.get(root)! };
}

export async function liveGraphReport(browser: Browser, opts: LiveGraphOptions): Promise<void> {
  out(
    `== The live graph of a ${int(opts.objects)}-object cluster: the language server (${opts.serverPath}) on the Kubernetes API test server, then the webview`,
  );
  let t = performance.now();
  const cluster = generateBenchCluster({ objects: opts.objects, seed: opts.seed, managedFields: false });
  const api = await startKubeApiServer({ token: 'live-graph-bench' });
  api.addMany(cluster.items as unknown as Record<string, unknown>[]);
  cluster.items.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'kgl-live-graph-bench-'));
  const kubeconfig = api.writeKubeconfig(dir);
  const folder = mkdtempSync(join(tmpdir(), 'kgl-live-graph-bench-ws-'));
  out(`  cluster generated and served in ${ms(performance.now() - t)}`);
  const server = new Server(opts.serverPath, folder);
  try {
    await server.start();
    t = performance.now();
    const status = await server.request(() => server.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false }));
    out(`  connected: ${int(status.objects)} live objects, listed in ${ms(performance.now() - t)}`);

    const timed = async (params: GraphParams): Promise<Timed> => {
      const runs: { ms: number; graph: GraphData }[] = [];
      for (let r = 0; r < opts.runs; r++) {
        const t0 = performance.now();
        const graph = await server.request(() => server.connection.sendRequest(ClusterGraphRequest, params));
        runs.push({ ms: performance.now() - t0, graph });
      }
      const graph = runs[runs.length - 1].graph;
      return { ms: median(runs.map((r) => r.ms)), bytes: Buffer.byteLength(JSON.stringify(graph)), graph };
    };
    const rows: { figure: string; request: Timed; interact?: boolean }[] = [];
    const whole = await timed({});
    rows.push({ figure: 'whole cluster, no limit (before: every Show Ownership Graph)', request: whole, interact: true });
    // Show in Graph on the object with the most owners and dependents: its connected component.
    const found = hubOf(whole.graph);
    const hub = found?.uid;
    const hubNode = whole.graph.nodes.find((n) => n.uid === hub);
    const hubName = hubNode ? `${hubNode.kind} ${hubNode.namespace ? `${hubNode.namespace}/` : ''}${hubNode.name}` : '';
    if (hub) rows.push({ figure: `Show in Graph on ${hubName} (largest component), no limit`, request: await timed({ uid: hub }) });

    let scoped = true;
    let summaryMs = NaN;
    let summary: GraphSummary | undefined;
    try {
      const ts: number[] = [];
      for (let r = 0; r < opts.runs; r++) {
        const t0 = performance.now();
        summary = await server.request(() => server.connection.sendRequest(ClusterGraphSummaryRequest));
        ts.push(performance.now() - t0);
      }
      summaryMs = median(ts);
    } catch (e) {
      scoped = false;
      out(
        `  kubeGcLens/cluster/graphSummary: not answered (${e instanceof Error ? e.message : String(e)}): only the whole cluster is measured`,
      );
    }
    if (scoped && summary) {
      const top = summary.namespaces.find((n) => n.namespace !== '')!;
      out(
        `  graphSummary: ${int(summary.namespaces.length)} namespaces (the cluster-scoped objects one of them), in ${ms(summaryMs)}; the largest: ${summary.namespaces
          .slice(0, 4)
          .map((n) => `${n.namespace || '(cluster-scoped)'} ${int(n.objects)}`)
          .join(', ')}`,
      );
      rows.push({ figure: `whole cluster, limit ${int(GRAPH_LIMIT)}`, request: await timed({ limit: GRAPH_LIMIT }) });
      rows.push({
        figure: `default scope: namespace ${top.namespace} (${int(top.objects)} objects), limit ${int(GRAPH_LIMIT)}`,
        request: await timed({ namespace: top.namespace, limit: GRAPH_LIMIT }),
        interact: true,
      });
      const second = summary.namespaces.filter((n) => n.namespace !== '')[1];
      if (second)
        rows.push({
          figure: `namespace ${second.namespace} (${int(second.objects)} objects), limit ${int(GRAPH_LIMIT)}`,
          request: await timed({ namespace: second.namespace, limit: GRAPH_LIMIT }),
        });
      rows.push({
        figure: `cluster-scoped objects, limit ${int(GRAPH_LIMIT)}`,
        request: await timed({ namespace: '', limit: GRAPH_LIMIT }),
      });
      if (hub)
        rows.push({
          figure: `Show in Graph on ${hubName}, limit ${int(GRAPH_LIMIT)}`,
          request: await timed({ uid: hub, limit: GRAPH_LIMIT }),
        });
    }

    // The webview: one page per graph.
    const paints: (number | undefined)[] = [];
    const fps: string[] = [];
    for (const row of rows) {
      const h = await Harness.open(browser, { bundleDir: opts.bundleDir, viewport: { width: 1600, height: 1000 } });
      try {
        const timeout = row.request.graph.nodes.length > 20_000 ? opts.paintTimeoutS * 1000 : 120_000;
        const paint = await firstPaint(h.page, row.request.graph, 1, timeout);
        paints.push(paint);
        if (row.interact && paint !== undefined) {
          // With everything in view, as it opens (the fit), one input event per frame for 2 s.
          const pan = await interact(h.page, 'pan', 2000);
          const zoom = await interact(h.page, 'zoom', 2000);
          fps.push(
            `  ${row.figure}: pan ${pan.fps.toFixed(0)} fps (p95 frame ${ms(pan.p95)}), zoom ${zoom.fps.toFixed(0)} fps (p95 frame ${ms(zoom.p95)}), all in view`,
          );
        }
      } catch (e) {
        out(`  first paint of "${row.figure}" failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
        paints.push(undefined);
      } finally {
        await h.close();
      }
    }
    out();
    out(
      `  ${'answer'.padEnd(96)} ${'nodes'.padStart(8)} ${'cut from'.padStart(9)} ${'request'.padStart(9)} ${'JSON'.padStart(9)} ${'first paint'.padStart(12)}`,
    );
    rows.forEach((r, i) => {
      const g = r.request.graph;
      const p = paints[i];
      out(
        `  ${r.figure.padEnd(96)} ${int(g.nodes.length).padStart(8)} ${(g.truncated ? int(g.truncated.total) : '—').padStart(9)} ${ms(r.request.ms).padStart(9)} ${mb(r.request.bytes).padStart(9)} ${(p === undefined ? `> ${opts.paintTimeoutS} s` : ms(p)).padStart(12)}`,
      );
    });
    out(
      `  (request: ${opts.runs} requests, the median, from sending to the parsed answer at the client over stdio; first paint: one page each, from posting the graph message to the frame after it is drawn)`,
    );
    for (const line of fps) out(line);
  } finally {
    await server.stop();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

// The performance report (`npm run bench`): builds a realistic 100,000-object cluster dump with
// bench/generateCluster.ts and measures what the issue asks for, against its goals:
//   - load + graph build of the JSON dump, as a ratio to a bare JSON.parse of the same text (≤ 1.5×), timed in
//     alternating pairs so that both meet the same heap,
//   - simulating the deletion of a 20,000-object namespace (≤ 250 ms),
//   - a one-object incremental update of the inventory (≤ 1 ms),
//   - peak RSS and heap, and the YAML path for information,
//   - large valid input through the built CLI (bench/largeInputBench.ts): 200,000 YAML documents under 1 GB and 30 s
//     (--no-large-input, --large-input-documents=N, --large-input-json-objects=N).
// It is a report, not a test: it prints figures and exits 0 whether goals are met or not; it exits 2
// only when something throws. Everything goes to stdout.
//
// Options: --objects=N --big=N (objects in the deleted namespace) --seed=N --runs=N (timed runs per
// figure) --updates=N (incremental updates timed) --no-yaml --yaml-timeout-min=N --no-cluster (skip the live-cluster
// report, bench/clusterBench.ts: the API test server with --cluster-objects=N objects, 100,000 by default,
// --cluster-runs=N timed pairs) --no-real-server (skip the same on the real kube-apiserver of test/controlplane,
// bench/realServerBench.ts: --real-server-objects=N, 30,000 by default, --real-server-runs=N) --no-lsp (skip the
// language server's reports, bench/lspBench.ts and bench/lspEditBench.ts) --no-webview (skip the
// graph webview's report, bench/webviewBench.ts: the built bundle in headless Chromium, which otherwise runs last;
// --webview-sizes=1000,2000,5000 --webview-runs=N; then the live graph of a generated cluster through the language
// server, bench/liveGraph.ts: --no-live-graph, --live-graph-objects=N, --live-graph-paint-timeout=S; the must-gather
// and a generated cluster drawn whole, bench/realGraphs.ts: --no-real-graphs, --real-graph-objects=N)

import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cpus } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { stringify as yamlStringify } from 'yaml';
import { buildInventory, type Inventory } from '../server/src/engine/inventory';
import type { KubeObject, OwnerReference } from '../server/src/engine/model';
import { simulate } from '../server/src/engine/simulation/simulate';
import type { DeleteRequest, SimulationOptions } from '../server/src/engine/simulation/types';
import { parseManifestText } from '../server/src/sources/manifests/parseManifest';
import {
  clusterJson,
  generateCluster,
  validateCluster,
  writeClusterToTempFile,
  type GeneratedCluster,
  type KubeList,
} from './generateCluster';
import { gc, int, mb, median, ms, out, percentile } from './report';
import { largeInputReport } from './largeInputBench';

// ---------------------------------------------------------------------------------------------------
// Goals (from the issue)

const GOAL_LOAD_RATIO = 1.5;
const GOAL_NAMESPACE_DELETE_MS = 250;
/** The same goal as a share of JSON.parse of the same cluster, which a noisy machine slows alike. */
const GOAL_NAMESPACE_DELETE_RATIO = 0.2;
const GOAL_UPDATE_MS = 1;

/** The dump plus parsed copies need more than Node's default heap (about 4 GB); rerun with this much. */
const HEAP_MB = 16_384;
const CHILD_ENV = 'KUBE_GC_BENCH_CHILD';

// ---------------------------------------------------------------------------------------------------
// Output (the shared units and statistics are in report.ts)

const us = (msValue: number): string => `${(msValue * 1000).toFixed(msValue * 1000 >= 100 ? 0 : 1)} µs`;
const ratio = (r: number): string => `${r.toFixed(2)}×`;

function table(rows: string[][], header?: string[]): void {
  const all = header ? [header, ...rows] : rows;
  const widths = all[0].map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    '  ' +
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c])))
      .join('   ')
      .trimEnd();
  if (header) {
    out(line(header));
    out('  ' + widths.map((w) => '-'.repeat(w)).join('   '));
  }
  for (const r of rows) out(line(r));
}

/** A bad command line: reported without a stack trace. */
class UsageError extends Error {}

interface Options {
  objects: number;
  big: number;
  seed: number;
  runs: number;
  updates: number;
  yaml: boolean;
  yamlTimeoutMin: number;
  lsp: boolean;
  largeInput: boolean;
  largeInputDocuments: number;
  largeInputJsonObjects: number;
  cluster: boolean;
  clusterObjects: number;
  clusterRuns: number;
  realServer: boolean;
  /** Passed on to bench/realServerBench.ts. */
  realServerArgs: string[];
  webview: boolean;
  /** Passed on to bench/webviewBench.ts. */
  webviewArgs: string[];
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    objects: 100_000,
    big: 20_000,
    seed: 20250601,
    runs: 5,
    updates: 5_000,
    yaml: true,
    yamlTimeoutMin: 5,
    lsp: true,
    largeInput: true,
    largeInputDocuments: 200_000,
    largeInputJsonObjects: 500_000,
    cluster: true,
    clusterObjects: 100_000,
    clusterRuns: 5,
    realServer: true,
    realServerArgs: [],
    webview: true,
    webviewArgs: [],
  };
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new UsageError(`unknown argument ${a}`);
    const [, key, value] = m;
    const num = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${key} needs a positive number`);
      return Math.floor(n);
    };
    if (key === 'objects') o.objects = num();
    else if (key === 'big') o.big = num();
    else if (key === 'seed') o.seed = num();
    else if (key === 'runs') o.runs = num();
    else if (key === 'updates') o.updates = Math.max(1000, num());
    else if (key === 'no-yaml') o.yaml = false;
    else if (key === 'no-lsp') o.lsp = false;
    else if (key === 'no-large-input') o.largeInput = false;
    else if (key === 'large-input-documents') o.largeInputDocuments = num();
    else if (key === 'large-input-json-objects') o.largeInputJsonObjects = num();
    else if (key === 'no-cluster') o.cluster = false;
    else if (key === 'cluster-objects') o.clusterObjects = num();
    else if (key === 'cluster-runs') o.clusterRuns = num();
    else if (key === 'no-real-server') o.realServer = false;
    else if (key === 'real-server-objects' || key === 'real-server-runs')
      o.realServerArgs.push(`--${key.slice('real-server-'.length)}=${num()}`);
    else if (key === 'yaml-timeout-min') o.yamlTimeoutMin = num();
    else if (key === 'no-webview') o.webview = false;
    else if (
      [
        'webview-sizes',
        'webview-runs',
        'no-live-graph',
        'live-graph-objects',
        'live-graph-paint-timeout',
        'no-real-graphs',
        'real-graph-objects',
      ].includes(key)
    )
      o.webviewArgs.push(a);
    else throw new UsageError(`unknown option --${key}`);
  }
  return o;
}

/** Times `fn` `runs` times after one warm-up, forcing a GC before each run. */
function timeRuns<T>(runs: number, fn: () => T, keep?: (value: T) => void): number[] {
  const times: number[] = [];
  for (let r = 0; r <= runs; r++) {
    gc();
    const t0 = performance.now();
    const value = fn();
    const t = performance.now() - t0;
    if (r > 0) times.push(t);
    keep?.(value);
  }
  return times;
}

interface Row {
  figure: string;
  value: string;
  goal: string;
  result: 'PASS' | 'MISS' | 'info';
}

// ---------------------------------------------------------------------------------------------------
// The report

function run(opts: Options): void {
  const rows: Row[] = [];
  const heapLimit = getHeapStatistics().heap_size_limit;
  out(
    `Kube GC Lens benchmark: node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} CPUs, heap limit ${int(heapLimit / 2 ** 20)} MB${globalThis.gc ? '' : ' (no --expose-gc: runs are not separated by a forced GC)'}`,
  );
  out();

  // -- the cluster (made in a child process, so that its memory does not count here) --------------
  const gen = runChild<GeneratedSummary>(['--generate-child', String(opts.objects), String(opts.big), String(opts.seed)], 30);
  if ('error' in gen) throw new Error(`generating the cluster ${gen.error}`);
  const { cluster, file, bytes } = gen;
  const itemCount = cluster.objects;
  const t0 = performance.now();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } finally {
    // Read once, then gone: nothing is left behind in /tmp even if this process is killed later.
    rmSync(dirname(file), { recursive: true, force: true });
  }
  const readMs = performance.now() - t0;

  out(
    `Cluster (seed ${opts.seed}): ${int(itemCount)} objects, ${mb(bytes)} of JSON as \`kubectl get -A -o json\` prints it (generated in ${ms(gen.generateMs)}, serialised in ${ms(gen.serialiseMs)}, read back in ${ms(readMs)})`,
  );
  const kinds = Object.entries(cluster.countsByKind).sort((a, b) => b[1] - a[1]);
  out(`  kinds: ${kinds.map(([k, n]) => `${k} ${int(n)}`).join(', ')}`);
  const namespaces = Object.entries(cluster.countsByNamespace)
    .filter(([ns]) => ns !== '')
    .sort((a, b) => b[1] - a[1]);
  out(
    `  namespaces: ${namespaces.map(([ns, n]) => `${ns} ${int(n)}`).join(', ')}; cluster-scoped ${int(cluster.countsByNamespace[''] ?? 0)}`,
  );
  out(`  average Pod: ${(gen.podCompactBytes / 1000).toFixed(1)} KB compact, ${(gen.podIndentedBytes / 1000).toFixed(1)} KB indented`);
  out(`  consistency: ${int(gen.ownerReferences)} ownerReferences, all resolve to an object with the same kind, name and namespace`);
  out(`  written to ${file}, read back and deleted`);
  out();

  // -- JSON.parse baseline and load + build, alternately ---------------------------------------------
  // Each timed JSON.parse is followed by a timed load + build, so both meet the same heap (V8 sizes its
  // generations from what came before: a block of parses first, then a block of loads, measured each other's
  // history as much as their own work).
  out(`JSON: ${opts.runs} timed pairs (JSON.parse, then load + build) after two warm-up pairs, forced GC before each`);
  let sink = 0;
  let inventory: Inventory | undefined;
  let loaded: KubeObject[] = [];
  let problems: ReturnType<typeof parseManifestText>['problems'] = [];
  const parseTimes: number[] = [];
  const loadTimes: number[] = [];
  const buildTimes: number[] = [];
  const totalTimes: number[] = [];
  const WARM_UP_PAIRS = 2; // the first pair still meets a heap that V8 has not yet sized for this much data
  for (let r = 0; r < WARM_UP_PAIRS + opts.runs; r++) {
    inventory = undefined;
    loaded = [];
    gc();
    const p0 = performance.now();
    sink += (JSON.parse(text) as KubeList).items.length;
    const p1 = performance.now();
    gc();
    const a = performance.now();
    const parsed = parseManifestText(text, file);
    const b = performance.now();
    inventory = buildInventory(parsed.objects, { defaultNamespace: 'default' });
    const c = performance.now();
    loaded = parsed.objects;
    problems = parsed.problems;
    if (r < WARM_UP_PAIRS) continue;
    parseTimes.push(p1 - p0);
    loadTimes.push(b - a);
    buildTimes.push(c - b);
    totalTimes.push(c - a);
  }
  if (!inventory) throw new Error('no inventory was built');
  const rssAfterLoad = process.resourceUsage().maxRSS * 1024;
  const parseMs = median(parseTimes);
  out(`  JSON.parse                        median ${ms(parseMs)}   (runs: ${parseTimes.map((t) => int(t)).join(', ')} ms)`);
  const loadBuildMs = median(totalTimes);
  const loadRatio = loadBuildMs / parseMs;
  out(`  parseManifestText                 median ${ms(median(loadTimes))}`);
  out(`  buildInventory                    median ${ms(median(buildTimes))}`);
  out(`  load + build                      median ${ms(loadBuildMs)}   (runs: ${totalTimes.map((t) => int(t)).join(', ')} ms)`);
  out(
    `  ratio load + build / JSON.parse   ${ratio(loadRatio)}   (goal ≤ ${GOAL_LOAD_RATIO}×; pair by pair: ${totalTimes.map((t, i) => ratio(t / parseTimes[i])).join(', ')})`,
  );
  out(
    `  loaded ${int(loaded.length)} objects, inventory holds ${int(inventory.objects.size)}, ${problems.length} load problems${
      problems.length
        ? ': ' +
          problems
            .slice(0, 3)
            .map((p) => `${p.severity} ${p.code}: ${p.reason}`)
            .join(' | ')
        : ''
    }`,
  );
  if (loaded.length !== itemCount) out(`  WARNING: ${int(itemCount)} objects were generated but ${int(loaded.length)} were loaded`);
  rows.push({
    figure: 'load + build / JSON.parse (JSON)',
    value: `${ratio(loadRatio)} (${ms(loadBuildMs)} / ${ms(parseMs)})`,
    goal: `≤ ${GOAL_LOAD_RATIO}×`,
    result: loadRatio <= GOAL_LOAD_RATIO ? 'PASS' : 'MISS',
  });
  gc();
  const afterBuild = process.memoryUsage();
  out(`  after build: heap used ${mb(afterBuild.heapUsed)} (the JSON text alone is ${mb(bytes)}), RSS ${mb(afterBuild.rss)}`);
  out();

  // -- simulation ---------------------------------------------------------------------------------
  const inv = inventory;
  const bigNs = cluster.bigNamespace;
  const nsRequest: DeleteRequest = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: bigNs, propagationPolicy: null };
  const deployRequest: DeleteRequest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: cluster.bigDeployment.namespace,
    name: cluster.bigDeployment.name,
    propagationPolicy: 'Foreground',
  };
  const sizeBefore = inv.objects.size;
  const simulateRuns = (label: string, requests: DeleteRequest[], options: SimulationOptions, expected: string): number => {
    let summary = '';
    const times = timeRuns(
      opts.runs,
      () => simulate(inv, requests, options),
      (res) => {
        const stuckBy = new Map<string, number>();
        for (const s of res.stuck) {
          const key = s.blockedBy[0]?.type ?? 'unknown';
          stuckBy.set(key, (stuckBy.get(key) ?? 0) + 1);
        }
        summary =
          `deleted ${int(res.deleted.length)}, orphaned ${int(res.orphaned.length)}, stuck ${int(res.stuck.length)}` +
          (stuckBy.size ? ` (${[...stuckBy].map(([k, n]) => `${k} ${int(n)}`).join(', ')})` : '') +
          `, ${int(res.steps.length)} steps${res.aborted ? `, ABORTED: ${res.aborted}` : ''}`;
      },
    );
    const m = median(times);
    out(`  ${label.padEnd(52)} median ${ms(m)}   (runs: ${times.map((t) => int(t)).join(', ')} ms)`);
    out(`  ${''.padEnd(52)} ${summary}; ${expected}`);
    return m;
  };
  out(`Simulation: ${opts.runs} timed runs each after a warm-up`);
  const nsObjects = cluster.countsByNamespace[bigNs];
  const nsBuiltin = simulateRuns(
    `delete Namespace ${bigNs}, controllers: builtin`,
    [nsRequest],
    { controllers: 'builtin' },
    `the namespace holds ${int(nsObjects)} objects`,
  );
  const nsGc = simulateRuns(
    `delete Namespace ${bigNs}, controllers: gc`,
    [nsRequest],
    { controllers: 'gc' },
    'strict mode: no namespace controller runs',
  );
  const fg = simulateRuns(
    `Foreground delete Deployment ${cluster.bigDeployment.name}`,
    [deployRequest],
    { controllers: 'builtin' },
    `its tree holds ${int(cluster.bigDeployment.treeObjects)} objects`,
  );
  if (inv.objects.size !== sizeBefore)
    out(`  WARNING: simulate() changed the inventory (${int(sizeBefore)} → ${int(inv.objects.size)} objects)`);
  rows.push({
    figure: `delete ${int(nsObjects)}-object namespace (builtin)`,
    value: ms(nsBuiltin),
    goal: `≤ ${GOAL_NAMESPACE_DELETE_MS} ms`,
    result: nsBuiltin <= GOAL_NAMESPACE_DELETE_MS ? 'PASS' : 'MISS',
  });
  const nsRatio = nsBuiltin / parseMs;
  out(
    `  ratio namespace delete / JSON.parse ${ratio(nsRatio)}   (goal ≤ ${GOAL_NAMESPACE_DELETE_RATIO}×: ${ms(nsBuiltin)} / ${ms(parseMs)})`,
  );
  rows.push({
    figure: 'delete that namespace / JSON.parse',
    value: `${ratio(nsRatio)} (${ms(nsBuiltin)} / ${ms(parseMs)})`,
    goal: `≤ ${GOAL_NAMESPACE_DELETE_RATIO}×`,
    result: nsRatio <= GOAL_NAMESPACE_DELETE_RATIO ? 'PASS' : 'MISS',
  });
  rows.push({ figure: `delete ${int(nsObjects)}-object namespace (gc)`, value: ms(nsGc), goal: '—', result: 'info' });
  rows.push({
    figure: `Foreground delete of a ${int(cluster.bigDeployment.treeObjects)}-object Deployment`,
    value: ms(fg),
    goal: '—',
    result: 'info',
  });
  out();

  // -- incremental updates ------------------------------------------------------------------------
  out(
    `Incremental update: one Pod of ${cluster.bigDeployment.namespace}/${cluster.bigDeployment.name}, ${int(opts.updates)} timed updates after 200 warm-up ones`,
  );
  const prefix = `${cluster.bigDeployment.name}-`;
  let pod: KubeObject | undefined;
  for (const o of inv.objects.values()) {
    if (
      o.kind === 'Pod' &&
      o.namespace === bigNs &&
      o.ownerReferences[0]?.kind === 'ReplicaSet' &&
      o.ownerReferences[0].name.startsWith(prefix)
    ) {
      pod = o;
      break;
    }
  }
  if (!pod) throw new Error(`no Pod of Deployment ${bigNs}/${cluster.bigDeployment.name} in the inventory`);
  const original = pod;
  const currentRef = original.ownerReferences[0];
  let otherRs: KubeObject | undefined;
  for (const o of inv.objects.values()) {
    if (o.kind === 'ReplicaSet' && o.namespace === bigNs && o.name.startsWith(prefix) && o.uid !== currentRef.uid) {
      otherRs = o;
      break;
    }
  }
  if (!otherRs) throw new Error(`no second ReplicaSet of Deployment ${bigNs}/${cluster.bigDeployment.name}`);
  const otherRef: OwnerReference = { ...currentRef, name: otherRs.name, uid: otherRs.uid };
  const HOLD = 'bench.kube-gc-lens.dev/hold';
  /** The i-th edit: a label, the controller reference (moved between two ReplicaSets), or a finalizer. */
  const edit = (i: number): KubeObject => {
    const phase = Math.floor(i / 3) % 2 === 0;
    switch (i % 3) {
      case 0:
        return { ...original, labels: { ...original.labels, 'bench.kube-gc-lens.dev/rev': String(i) } };
      case 1:
        return { ...original, ownerReferences: [phase ? otherRef : currentRef] };
      default:
        return { ...original, finalizers: phase ? [...original.finalizers, HOLD] : original.finalizers };
    }
  };
  const timeOps = (n: number, op: (i: number) => void): number[] => {
    const times: number[] = [];
    for (let i = -200; i < n; i++) {
      const t = process.hrtime.bigint();
      op(i + 200);
      const d = Number(process.hrtime.bigint() - t) / 1e6;
      if (i >= 0) times.push(d);
    }
    return times;
  };
  const edits = Array.from({ length: opts.updates + 200 }, (_, i) => edit(i));
  gc();
  const upsertTimes = timeOps(opts.updates, (i) => inv.upsert(edits[i]));
  inv.upsert(original);
  const uid = original.uid;
  gc();
  const readdTimes = timeOps(opts.updates, (i) => {
    inv.remove(uid);
    inv.upsert(edits[i]);
  });
  inv.upsert(original);
  if (inv.objects.get(uid) !== original || inv.objects.size !== sizeBefore)
    out('  WARNING: the inventory did not return to its original state after the updates');
  const upMed = median(upsertTimes);
  const upP99 = percentile(upsertTimes, 99);
  const reMed = median(readdTimes);
  const reP99 = percentile(readdTimes, 99);
  out(`  upsert(changed Pod)                median ${us(upMed)}, p99 ${us(upP99)}, max ${us(Math.max(...upsertTimes))}`);
  out(`  remove(uid) + upsert(changed Pod)  median ${us(reMed)}, p99 ${us(reP99)}, max ${us(Math.max(...readdTimes))}`);
  const verdict = (x: number) => (x <= GOAL_UPDATE_MS ? 'PASS' : 'MISS');
  rows.push({ figure: 'one-object update: upsert, median', value: us(upMed), goal: `≤ ${GOAL_UPDATE_MS} ms`, result: verdict(upMed) });
  rows.push({ figure: 'one-object update: upsert, p99', value: us(upP99), goal: `≤ ${GOAL_UPDATE_MS} ms`, result: verdict(upP99) });
  rows.push({
    figure: 'one-object update: remove + re-add, median',
    value: us(reMed),
    goal: `≤ ${GOAL_UPDATE_MS} ms`,
    result: verdict(reMed),
  });
  rows.push({
    figure: 'one-object update: remove + re-add, p99',
    value: us(reP99),
    goal: `≤ ${GOAL_UPDATE_MS} ms`,
    result: verdict(reP99),
  });
  out();

  // -- memory -------------------------------------------------------------------------------------
  const peakRss = process.resourceUsage().maxRSS * 1024;
  out(`Memory (this process: it read the file, parsed and built ${opts.runs + 1} times, then simulated and updated)`);
  out(`  peak RSS up to the end of load + build   ${mb(rssAfterLoad)}`);
  out(`  peak RSS at the end                       ${mb(peakRss)}`);
  out(`  heap used after build                     ${mb(afterBuild.heapUsed)} (the JSON text is ${mb(bytes)} of it)`);
  rows.push({ figure: 'peak RSS, load + build', value: mb(rssAfterLoad), goal: '—', result: 'info' });
  rows.push({ figure: 'peak RSS, whole JSON run', value: mb(peakRss), goal: '—', result: 'info' });
  rows.push({ figure: 'heap used after build (text + inventory)', value: mb(afterBuild.heapUsed), goal: '—', result: 'info' });
  out();

  // -- YAML (informational) -----------------------------------------------------------------------
  if (opts.yaml) {
    // Free this process's copies first: the YAML child needs its own.
    inventory = undefined;
    loaded = [];
    gc();
    out(
      `YAML (informational): the same objects as multi-document YAML (yaml.stringify per object), one run in a separate process, at most ${opts.yamlTimeoutMin} min`,
    );
    const y = runChild<YamlResult>(['--yaml-child', String(opts.objects), String(opts.big), String(opts.seed)], opts.yamlTimeoutMin);
    if ('error' in y) {
      out(`  the YAML run ${y.error}${/did not finish/.test(y.error) ? ' (--yaml-timeout-min=N waits longer)' : ''}`);
      rows.push({
        figure: 'YAML load + build / JSON.parse of the JSON',
        value: /did not finish/.test(y.error) ? `> ${opts.yamlTimeoutMin} min, did not finish` : 'failed',
        goal: '—',
        result: 'info',
      });
    } else {
      out(`  YAML text ${mb(y.bytes)} (made in ${ms(y.stringifyMs)}), ${int(y.objects)} objects loaded, ${y.problems} load problems`);
      out(`  parseManifestText ${ms(y.loadMs)}, buildInventory ${ms(y.buildMs)}, load + build ${ms(y.loadMs + y.buildMs)}`);
      out(
        `  ratio to JSON.parse of the JSON text: load ${ratio(y.loadMs / parseMs)}, load + build ${ratio((y.loadMs + y.buildMs) / parseMs)}; peak RSS of that process ${mb(y.maxRss)}`,
      );
      rows.push({
        figure: 'YAML load + build / JSON.parse of the JSON',
        value: `${ratio((y.loadMs + y.buildMs) / parseMs)} (${ms(y.loadMs + y.buildMs)})`,
        goal: '—',
        result: 'info',
      });
      rows.push({ figure: 'peak RSS (YAML path, separate process)', value: mb(y.maxRss), goal: '—', result: 'info' });
    }
    out();
  }

  // -- large valid input (goal: 200,000 YAML documents under 1 GB and 30 s) --------------------------
  if (opts.largeInput) {
    inventory = undefined;
    loaded = [];
    gc();
    rows.push(...largeInputReport(join(dirname(process.argv[1]), 'cli.js'), opts.largeInputDocuments, opts.largeInputJsonObjects));
  }

  // -- summary ------------------------------------------------------------------------------------
  out(`Summary (${int(itemCount)} objects, ${mb(bytes)} JSON; medians of ${opts.runs} runs):`);
  table(
    rows.map((r) => [r.figure, r.value, r.goal, r.result]),
    ['figure', 'value', 'goal', 'result'],
  );
  const missed = rows.filter((r) => r.result === 'MISS').length;
  out();
  out(missed ? `${missed} goal(s) missed.` : 'All goals met.');
  if (sink < 0) out(String(sink));
}

// ---------------------------------------------------------------------------------------------------
// Child processes. Generating the cluster and the YAML measurement run in their own processes, so that
// their memory (the generator's objects; the yaml package's document trees) neither shows in the JSON
// figures nor can take the report down.

interface YamlResult {
  bytes: number;
  objects: number;
  problems: number;
  stringifyMs: number;
  loadMs: number;
  buildMs: number;
  maxRss: number;
}

/** What the generating child reports: the cluster without its objects, and where the JSON text is. */
interface GeneratedSummary {
  cluster: Omit<GeneratedCluster, 'list'> & { objects: number };
  file: string;
  bytes: number;
  generateMs: number;
  serialiseMs: number;
  ownerReferences: number;
  podCompactBytes: number;
  podIndentedBytes: number;
}

/** A child prints its result as one line starting with this mark. */
const RESULT_MARK = 'KUBE_GC_BENCH_RESULT ';

/** Runs this script again in child mode (`args`) with a big heap; returns what it reported. */
function runChild<T>(args: string[], timeoutMin: number): T | { error: string } {
  const r = spawnSync(process.execPath, ['--expose-gc', `--max-old-space-size=${HEAP_MB}`, process.argv[1], ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: timeoutMin * 60_000,
    env: { ...process.env, [CHILD_ENV]: '1' },
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (line) return JSON.parse(line.slice(RESULT_MARK.length)) as T;
  if (r.error && /ETIMEDOUT/.test(String(r.error))) return { error: `did not finish within ${timeoutMin} min` };
  const why = r.signal ? `was killed by ${r.signal}` : `failed with exit code ${r.status}`;
  const detail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').filter(Boolean).slice(0, 2).join(' | ');
  return { error: `${why}${detail ? `: ${detail}` : ''}` };
}

function generateChild(objects: number, big: number, seed: number): void {
  let t = performance.now();
  const cluster = generateCluster({ objects, bigNamespaceObjects: big, seed });
  const generateMs = performance.now() - t;
  const validity = validateCluster(cluster.list);
  if (validity.problems.length)
    throw new Error(`the generated cluster is inconsistent (a generator bug):\n  ${validity.problems.slice(0, 10).join('\n  ')}`);
  let compact = 0;
  let indented = 0;
  let pods = 0;
  for (const i of cluster.list.items) {
    if (i.kind !== 'Pod') continue;
    pods++;
    compact += JSON.stringify(i).length;
    indented += JSON.stringify(i, null, 4).length;
  }
  t = performance.now();
  const text = clusterJson(cluster);
  const { file, bytes } = writeClusterToTempFile(cluster, text);
  const serialiseMs = performance.now() - t;
  const { list, ...rest } = cluster;
  const summary: GeneratedSummary = {
    cluster: { ...rest, objects: list.items.length },
    file,
    bytes,
    generateMs,
    serialiseMs,
    ownerReferences: validity.ownerReferences,
    podCompactBytes: compact / Math.max(1, pods),
    podIndentedBytes: indented / Math.max(1, pods),
  };
  out(RESULT_MARK + JSON.stringify(summary));
}

/** Regenerates the same cluster (the generator is deterministic), turns it into YAML and loads that. */
function yamlChild(objects: number, big: number, seed: number): void {
  const list: KubeList = generateCluster({ objects, bigNamespaceObjects: big, seed }).list;
  let t = performance.now();
  const docs: string[] = [];
  for (const item of list.items) docs.push(yamlStringify(item));
  const yamlText = docs.join('---\n');
  const stringifyMs = performance.now() - t;
  docs.length = 0;
  list.items = [];
  gc();
  t = performance.now();
  const parsed = parseManifestText(yamlText, 'cluster.yaml');
  const loadMs = performance.now() - t;
  t = performance.now();
  const inventory = buildInventory(parsed.objects, { defaultNamespace: 'default' });
  const buildMs = performance.now() - t;
  const result: YamlResult = {
    bytes: Buffer.byteLength(yamlText),
    objects: inventory.objects.size,
    problems: parsed.problems.length,
    stringifyMs,
    loadMs,
    buildMs,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
  out(RESULT_MARK + JSON.stringify(result));
}

// ---------------------------------------------------------------------------------------------------
// Entry

function main(): number {
  const argv = process.argv.slice(2);
  try {
    if (argv[0] === '--yaml-child') {
      yamlChild(Number(argv[1]), Number(argv[2]), Number(argv[3]));
      return 0;
    }
    if (argv[0] === '--generate-child') {
      generateChild(Number(argv[1]), Number(argv[2]), Number(argv[3]));
      return 0;
    }
    const opts = parseArgs(argv);
    // The default heap (about 4 GB) is too small for a 100,000-object dump and its parsed copies: rerun
    // this script with a bigger one, once.
    if (!process.env[CHILD_ENV] && getHeapStatistics().heap_size_limit < HEAP_MB * 0.9 * 2 ** 20) {
      const r = spawnSync(process.execPath, ['--expose-gc', `--max-old-space-size=${HEAP_MB}`, process.argv[1], ...argv], {
        stdio: 'inherit',
        env: { ...process.env, [CHILD_ENV]: '1' },
      });
      if (r.error) throw r.error;
      if (r.signal) {
        out(`bench failed: the benchmark process was killed by ${r.signal}`);
        return 2;
      }
      return r.status ?? 2;
    }
    run(opts);
    if (opts.cluster) {
      // The live-cluster report: its own process (which starts the API test server in another), as a client would run.
      out();
      const r = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          join(dirname(process.argv[1]), 'clusterBench.js'),
          `--objects=${opts.clusterObjects}`,
          `--seed=${opts.seed}`,
          `--runs=${opts.clusterRuns}`,
        ],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) return 2;
    }
    if (opts.realServer) {
      // The same on the real kube-apiserver (test/controlplane), which it starts, loads and stops.
      out();
      const r = spawnSync(
        process.execPath,
        ['--expose-gc', join(dirname(process.argv[1]), 'realServerBench.js'), `--seed=${opts.seed}`, ...opts.realServerArgs],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) return 2;
    }
    if (opts.lsp) {
      // The language server's report: its own process, as an editor would run the server.
      out();
      const r = spawnSync(process.execPath, [join(dirname(process.argv[1]), 'lspBench.js')], { stdio: 'inherit' });
      if (r.status !== 0) return 2;
      // Edits of one big multi-document file (1, 2 and 5 MB), in the same way.
      out();
      const edits = spawnSync(process.execPath, [join(dirname(process.argv[1]), 'lspEditBench.js')], { stdio: 'inherit' });
      if (edits.status !== 0) return 2;
    }
    if (opts.webview) {
      // The graph webview's report: the built bundle in headless Chromium (its own process).
      out();
      // Its live-graph part serves a generated cluster in the same process: a heap of its own size.
      const r = spawnSync(
        process.execPath,
        [`--max-old-space-size=${HEAP_MB}`, join(dirname(process.argv[1]), 'webviewBench.js'), ...opts.webviewArgs],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) return 2;
    }
    return 0;
  } catch (e) {
    const detail =
      e instanceof UsageError
        ? `${e.message}\n  options: --objects=N --big=N --seed=N --runs=N --updates=N --no-yaml --no-cluster --cluster-objects=N --cluster-runs=N --no-real-server --real-server-objects=N --real-server-runs=N --no-lsp --no-large-input --large-input-documents=N --large-input-json-objects=N --no-webview --webview-sizes=N,N --webview-runs=N --no-live-graph --live-graph-objects=N --live-graph-paint-timeout=S --yaml-timeout-min=N`
        : e instanceof Error
          ? (e.stack ?? e.message)
          : String(e);
    out(`bench failed: ${detail}`);
    return 2;
  }
}

process.exitCode = main();

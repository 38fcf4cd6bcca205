// The live-cluster report (`npm run bench` runs it after the engine report unless --no-cluster; alone:
// `node --expose-gc dist/clusterBench.js`). A generated cluster of 100,000 objects over 50 resource types
// (bench/clusterObjects.ts) is loaded into the Kubernetes API test server (testkit/kubeApiServer), which runs in a
// child process of its own (HTTPS on loopback, bearer token), so that this process's time and memory are only the
// client's. Its objects carry metadata.managedFields as a real apiserver serves them (bench/managedFields.ts; not with
// --no-managed-fields), and a realism check prints, kind by kind, the metadata-only share of the bytes in the generated
// cluster beside the same in REAL cluster dumps (../shared/corpus/cluster-dumps, where it is; bench/realism.ts).
// Measured against the issue's goals:
//   - bytes and time to a complete graph: our path (LiveCluster: discovery, metadata-only paginated LISTs, the graph
//     built when they are all over; the watches are opened after, and when they are all open is reported too) against
//     the peers' path (kubectl-tree's: a full LIST of every resource type, parsed and built into
//     the same engine graph), in rounds (with our one-shot CLI path, no watches, for information) whose order
//     rotates, after a warm-up round; ratios of the medians (goals ≤ 1/5 the bytes, ≤ 1/3 the time),
//   - the same two ratios on the same cluster served with Kubernetes 1.38's alpha ManagedFieldsOptOut gate on (ours asks
//     every request with drop=metadata.managedFields; the peers' path does not ask, as kubectl-tree does not; not with
//     --no-opt-out),
//   - the language server's RSS once connected to that cluster (dist/server.js --stdio, an empty workspace,
//     kubeGcLens/cluster/connect; goal ≤ 300 MB),
//   - a burst of 10,000 watch events (Pods and ReplicaSets modified, Pods added at once by the server) applied to a
//     watching LiveCluster: time from the first event applied to the last (the client's work: the test server writes
//     them all before the first arrives) and events/s, and from the burst's start (the server's making them included).
// A report, not a test: it prints figures and exits 0 whether goals are met or not; 2 if something throws.
// Options: --objects=N --seed=N --runs=N (timed rounds) --bursts=N --burst-events=N --no-lsp-rss --no-managed-fields
// --no-realism --no-opt-out

import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
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
import { type ServerStatus } from '../shared/src/protocol';
import { ClusterConnectRequest, StatusNotification } from '../server/src/lsp/methods';
import { resolveTarget } from '../server/src/sources/cluster/kubeconfig';
import { LiveCluster } from '../server/src/sources/cluster/liveCluster';
import { startKubeApiServer, type KubeApiServer } from '../testkit/kubeApiServer/kubeApiServer';
import { generateBenchCluster } from './clusterObjects';
import type { ListItem } from './generateCluster';
import { addManagedFields } from './managedFields';
import { dumpsFolder, readDumps, realismCheck, sizesByKind, summarize, type Sizes } from './realism';
import { CONCURRENCY, PAGE_SIZE, missingFrom, ourPath, peerPath, type PathRun, type ServerMeter } from './listPaths';
import { gc, int, mb, median, mib, ms, out, procMemory, table, withTimeout, type Row } from './report';

const GOAL_BYTES_RATIO = 1 / 5;
const GOAL_TIME_RATIO = 1 / 3;
const GOAL_SERVER_RSS_MB = 300;

const TOKEN = 'kube-gc-lens-bench';
const BURST_LABEL = 'bench.kube-gc-lens.dev/burst';
const SERVER_CHILD = '--api-server-child';

// ---------------------------------------------------------------------------------------------------
// Output (the shared units and statistics are in report.ts)

interface Options {
  objects: number;
  seed: number;
  runs: number;
  bursts: number;
  burstEvents: number;
  lspRss: boolean;
  managedFields: boolean;
  realism: boolean;
  optOut: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    objects: 100_000,
    seed: 20250601,
    runs: 5,
    bursts: 3,
    burstEvents: 10_000,
    lspRss: true,
    managedFields: true,
    realism: true,
    optOut: true,
  };
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}`);
    const [, key, value] = m;
    const num = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--${key} needs a positive number`);
      return Math.floor(n);
    };
    if (key === 'objects') o.objects = Math.max(5_000, num());
    else if (key === 'seed') o.seed = num();
    else if (key === 'runs') o.runs = num();
    else if (key === 'bursts') o.bursts = num();
    else if (key === 'burst-events') o.burstEvents = Math.max(10, num());
    else if (key === 'no-lsp-rss') o.lspRss = false;
    else if (key === 'no-managed-fields') o.managedFields = false;
    else if (key === 'no-realism') o.realism = false;
    else if (key === 'no-opt-out') o.optOut = false;
    else
      throw new Error(
        `unknown option --${key} (options: --objects=N --seed=N --runs=N --bursts=N --burst-events=N --no-lsp-rss --no-managed-fields --no-realism --no-opt-out)`,
      );
  }
  return o;
}

// ---------------------------------------------------------------------------------------------------
// The API test server's process: generates the cluster, serves it, answers the client's requests over IPC.

interface Ready {
  url: string;
  kubeconfig: string;
  objects: number;
  countsByResource: Record<string, number>;
  ownerReferences: number;
  generateMs: number;
  loadMs: number;
  managedFields: boolean;
  sizes: Sizes;
}

/** Response bytes the server sent since the last reset, by what was asked. */
interface Traffic {
  bytes: number;
  requests: number;
  metadataList: number;
  fullList: number;
  /** Full LISTs of the kinds LiveCluster lists in full (by resource). */
  fullByResource: Record<string, number>;
  watch: number;
  discovery: number;
  verbs: Record<string, number>;
  /** Watch requests the server answered (streaming). */
  watchesOpen: number;
  /** The server process's CPU time since the reset. */
  cpuMs: number;
}

interface BurstPlan {
  modified: string[];
  added: number;
  events: number;
}

type Request =
  | { id: number; op: 'reset' | 'traffic' | 'memory' | 'burst' | 'close' }
  | { id: number; op: 'prepare-burst'; seq: number; events: number }
  | { id: number; op: 'gate'; managedFieldsOptOut: boolean };

async function apiServerChild(objects: number, seed: number, managedFields: boolean, realism: boolean): Promise<void> {
  const send = (m: unknown) => process.send!(m);
  let t = performance.now();
  const cluster = generateBenchCluster({ objects, seed, managedFields });
  const generateMs = performance.now() - t;
  const generated = summarize(sizesByKind(cluster.items as unknown as Record<string, unknown>[]));
  // The real dumps are read here: this process's time and memory are not measured.
  const dumps = realism ? dumpsFolder(__dirname) : undefined;
  const real = dumps ? readDumps(dumps) : undefined;
  const server: KubeApiServer = await startKubeApiServer({ token: TOKEN, watchBookmarkIntervalMs: 1000 });
  t = performance.now();
  server.addMany(cluster.items as unknown as Record<string, unknown>[]);
  const loadMs = performance.now() - t;
  const dir = mkdtempSync(join(tmpdir(), 'kube-gc-cluster-bench-'));
  const kubeconfig = server.writeKubeconfig(dir);
  // Kept for the bursts; the rest of the generated objects can go.
  const pods = cluster.items.filter((i) => i.kind === 'Pod');
  const replicaSets = cluster.items.filter((i) => i.kind === 'ReplicaSet');
  const ready: Ready = {
    url: server.url,
    kubeconfig,
    objects: cluster.items.length,
    countsByResource: cluster.countsByResource,
    ownerReferences: cluster.ownerReferences,
    generateMs,
    loadMs,
    managedFields,
    sizes: {
      generated,
      ...(real && dumps ? { real: { dir: dumps, files: real.files, objects: real.objects, byKind: summarize(real.byKind) } } : {}),
    },
  };
  cluster.items.length = 0;
  const managedFieldsOn = managedFields;
  let burst: Record<string, unknown>[] = [];
  let burstAdds = 0;
  let cpuAtReset = process.cpuUsage();

  process.on('message', (m: Request) => {
    const reply = (body: object = {}) => send({ id: m.id, ...body });
    try {
      switch (m.op) {
        case 'gate':
          server.managedFieldsOptOut = m.managedFieldsOptOut;
          return reply();
        case 'reset':
          server.resetLog();
          cpuAtReset = process.cpuUsage();
          return reply();
        case 'traffic': {
          const cpu = process.cpuUsage(cpuAtReset);
          const tr: Traffic = {
            bytes: server.bytesSent(),
            requests: server.requests.length,
            metadataList: 0,
            fullList: 0,
            fullByResource: {},
            watch: 0,
            discovery: 0,
            verbs: server.countByVerb(),
            watchesOpen: server.requests.filter((r) => r.verb === 'watch' && r.status === 200).length,
            cpuMs: (cpu.user + cpu.system) / 1000,
          };
          for (const r of server.requests) {
            if (r.verb === 'list' && r.accept.includes('PartialObjectMetadata')) tr.metadataList += r.bytes;
            else if (r.verb === 'list') {
              tr.fullList += r.bytes;
              const key = r.group ? `${r.resource}.${r.group}` : String(r.resource);
              tr.fullByResource[key] = (tr.fullByResource[key] ?? 0) + r.bytes;
            } else if (r.verb === 'watch') tr.watch += r.bytes;
            else if (r.verb === 'discovery') tr.discovery += r.bytes;
          }
          return reply(tr);
        }
        case 'memory':
          return reply({ memory: procMemory(undefined) });
        case 'prepare-burst': {
          // Pods modified (a label, as a rollout or a controller's relabelling does), ReplicaSets modified, new Pods
          // owned by ReplicaSets: 80 / 10 / 10 of the events. A different slice of Pods each time.
          // A small cluster gets a smaller burst: every Pod modified at most once per burst.
          const events = Math.min(m.events, Math.floor(pods.length / 0.8));
          const addN = Math.floor(events / 10);
          const rsN = Math.min(replicaSets.length, Math.floor(events / 10));
          const podN = events - addN - rsN;
          const relabel = (o: ListItem) => ({
            ...o,
            metadata: { ...o.metadata, labels: { ...o.metadata.labels, [BURST_LABEL]: String(m.seq) } },
          });
          burst = [];
          const modified: string[] = [];
          const start = (m.seq * podN) % pods.length;
          for (let i = 0; i < podN; i++) {
            const p = pods[(start + i) % pods.length];
            burst.push(relabel(p));
            modified.push(p.metadata.uid);
          }
          for (let i = 0; i < rsN; i++) {
            const rs = replicaSets[(m.seq * rsN + i) % replicaSets.length];
            burst.push(relabel(rs));
            modified.push(rs.metadata.uid);
          }
          burstAdds = addN;
          for (let i = 0; i < addN; i++) {
            const rs = replicaSets[(i * 7) % replicaSets.length];
            const template = pods[i % pods.length];
            const added: ListItem = {
              ...template,
              metadata: {
                creationTimestamp: template.metadata.creationTimestamp,
                generateName: `${rs.metadata.name}-`,
                labels: { ...rs.metadata.labels, [BURST_LABEL]: String(m.seq) },
                name: `${rs.metadata.name}-b${m.seq}x${i}`,
                namespace: rs.metadata.namespace,
                resourceVersion: '',
                uid: randomUUID(),
                ownerReferences: [
                  {
                    apiVersion: 'apps/v1',
                    blockOwnerDeletion: true,
                    controller: true,
                    kind: 'ReplicaSet',
                    name: rs.metadata.name,
                    uid: rs.metadata.uid,
                  },
                ],
              },
            };
            if (managedFieldsOn) addManagedFields(added);
            burst.push(added as unknown as Record<string, unknown>);
          }
          const plan: BurstPlan = { modified, added: addN, events: burst.length };
          return reply(plan);
        }
        case 'burst': {
          const t0 = performance.now();
          const adds = burst.length - burstAdds;
          for (let i = 0; i < burst.length; i++) {
            if (i < adds) server.update(burst[i]);
            else server.add(burst[i]);
          }
          const emitMs = performance.now() - t0;
          burst = [];
          return reply({ emitMs });
        }
        case 'close':
          void server.close().then(() => {
            rmSync(dir, { recursive: true, force: true });
            reply();
            process.exit(0);
          });
          return;
      }
    } catch (e) {
      send({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ id: 0, ready });
}

/** The client's handle on the API server process. */
class ApiServerProcess {
  private readonly proc: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<Ready>;
  private stderr = '';

  constructor(objects: number, seed: number, managedFields: boolean, realism: boolean) {
    // Its own heap limit: the generated objects, the stored copies and their cached JSON.
    this.proc = fork(process.argv[1], [SERVER_CHILD, String(objects), String(seed), String(managedFields), String(realism)], {
      execArgv: ['--max-old-space-size=8192'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.proc.stderr!.on('data', (d) => {
      this.stderr = (this.stderr + String(d)).slice(-4000);
    });
    this.ready = new Promise((resolve, reject) => {
      this.pending.set(0, { resolve: (v) => resolve(v.ready as Ready), reject });
    });
    this.proc.on('message', (m: { id: number; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(`API server process: ${m.error}`));
      else p.resolve(m as unknown as Record<string, unknown>);
    });
    this.proc.on('exit', (code, signal) => {
      for (const p of this.pending.values())
        p.reject(new Error(`the API server process exited (${signal ?? code})${this.stderr ? `: ${this.stderr.trim()}` : ''}`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  request<T>(op: Request['op'], args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject });
      this.proc.send({ id, op, ...args });
    });
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    await withTimeout(this.request('close'), 10_000, 'the API server to close').catch(() => this.proc.kill());
  }
}

// ---------------------------------------------------------------------------------------------------
// The two paths (bench/listPaths.ts), measured on the API test server

const meterOf = (api: ApiServerProcess): ServerMeter<Traffic> => ({
  reset: async () => {
    await api.request('reset');
  },
  read: () => api.request<Traffic>('traffic'),
  watchesOpen: async () => (await api.request<Traffic>('traffic')).watchesOpen,
});

/**
 * What the first Simulate Delete costs on top of the connection, on a cluster whose objects carry custom finalizers (the
 * generated one does: the operator's, cert-manager's, the CSI attacher's): the workloads read in full once.
 */
async function firstSimulation(kubeconfig: string): Promise<{ ms: number; cpuMs: number; bytes: number; workloads: number }> {
  const live = new LiveCluster({ target: resolveTarget({ kubeconfig, allowExec: false }), rediscoverMs: 0, concurrency: CONCURRENCY });
  try {
    await live.start();
    const bytes = live.client.stats.bytes;
    gc();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const notes = [...(await live.readPodSpecs([])), ...live.incompleteNotes()];
    const cpu = process.cpuUsage(c0);
    const elapsed = performance.now() - t0;
    if (notes.length) throw new Error(`reading the workloads failed: ${notes.join('; ')}`);
    let workloads = 0;
    for (const o of live.inventory.objects.values())
      if (o.apiVersion === 'apps/v1' && ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind) && o.facts.images) workloads++;
    return { ms: elapsed, cpuMs: (cpu.user + cpu.system) / 1000, bytes: live.client.stats.bytes - bytes, workloads };
  } finally {
    await live.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// The language server's memory once connected

interface LspRss {
  connectMs: number;
  objects: number;
  before: { peak: number; rss: number };
  after: { peak: number; rss: number };
  settled: { peak: number; rss: number };
  state: string;
}

async function languageServerRss(kubeconfig: string): Promise<LspRss> {
  const folder = mkdtempSync(join(tmpdir(), 'kube-gc-cluster-bench-ws-'));
  const proc = spawn(process.execPath, [join(__dirname, 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-4000);
  });
  const connection = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  let status: ServerStatus | undefined;
  let wake: () => void = () => undefined;
  connection.onNotification(StatusNotification, (s) => {
    status = s;
    wake();
  });
  connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => null));
  // Progress tokens, refreshes, registrations: accepted.
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  connection.onRequest(CodeLensRefreshRequest.type, () => undefined);
  connection.onRequest(DiagnosticRefreshRequest.type, () => undefined);
  connection.onRequest(RegistrationRequest.type, () => undefined);
  const exited = new Promise<never>((_, reject) =>
    proc.on('exit', (code, signal) => reject(new Error(`the language server exited (${signal ?? code}): ${stderr.trim()}`))),
  );
  exited.catch(() => undefined);
  connection.listen();
  try {
    const uri = `file://${folder}`;
    await Promise.race([
      exited,
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: uri,
        workspaceFolders: [{ uri, name: 'empty' }],
        capabilities: { workspace: { configuration: true, workspaceFolders: true }, window: { workDoneProgress: true } },
      }),
    ]);
    await connection.sendNotification(InitializedNotification.type, {});
    await withTimeout(
      Promise.race([
        exited,
        new Promise<void>((resolve) => {
          wake = () => {
            if (status?.state === 'ready') resolve();
          };
          wake();
        }),
      ]),
      30_000,
      'the language server to be ready',
    );
    const before = procMemory(proc.pid);
    const t0 = performance.now();
    const st = await withTimeout(
      Promise.race([exited, connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false })]),
      300_000,
      'kubeGcLens/cluster/connect',
    );
    const connectMs = performance.now() - t0;
    const after = procMemory(proc.pid);
    // Watching, idle: what it holds once the listing's garbage is collected.
    await new Promise((r) => setTimeout(r, 3000));
    const settled = procMemory(proc.pid);
    if (!before || !after || !settled) throw new Error('cannot read /proc/<pid>/status of the language server');
    return { connectMs, objects: st.objects, before, after, settled, state: st.state };
  } finally {
    try {
      await Promise.race([connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 3000))]);
      await connection.sendNotification(ExitNotification.type);
    } catch {
      // already gone
    }
    connection.dispose();
    if (proc.exitCode === null) proc.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// A cluster with ManagedFieldsOptOut

/**
 * Kubernetes 1.38's alpha ManagedFieldsOptOut gate: an apiserver with it on leaves managedFields out for a client that
 * asks (`drop=metadata.managedFields` in Accept, which ours always sends and older servers ignore). The peers'
 * path (kubectl-tree: client-go's dynamic client, which does not ask) still gets them. Rounds of ours and the peers',
 * the order alternating, after a warm-up of each; the gate is turned off again afterwards.
 */
async function optOutRounds(
  api: ApiServerProcess,
  ready: Ready,
  runs: number,
): Promise<{ oursMs: number; peersMs: number; oursBytes: number; peersBytes: number; timeRatio: number; bytesRatio: number }> {
  out(
    "The same cluster served by an apiserver with the ManagedFieldsOptOut feature gate on (Kubernetes 1.38, alpha, off by default): managedFields are left out for clients that ask, as ours does on every request; the peers' path does not ask",
  );
  await api.request('gate', { managedFieldsOptOut: true });
  try {
    const ours: PathRun<Traffic>[] = [];
    const peers: PathRun<Traffic>[] = [];
    for (let r = 0; r <= runs; r++) {
      let a: PathRun<Traffic>;
      let b: PathRun<Traffic>;
      if (r % 2 === 0) {
        a = await ourPath(meterOf(api), ready.kubeconfig, false);
        b = await peerPath(meterOf(api), ready.kubeconfig, false);
      } else {
        b = await peerPath(meterOf(api), ready.kubeconfig, false);
        a = await ourPath(meterOf(api), ready.kubeconfig, false);
      }
      out(
        `  ${(r === 0 ? 'warm-up' : `round ${r}`).padEnd(8)} ours ${ms(a.ms).padStart(8)} ${mb(a.bytes).padStart(9)} (CPU ${ms(a.cpuMs)})   peers ${ms(b.ms).padStart(8)} ${mb(b.bytes).padStart(9)} (CPU ${ms(b.cpuMs)})   time ratio ${(a.ms / b.ms).toFixed(3)}`,
      );
      if (a.objects !== ready.objects) throw new Error(`with the gate on, ours holds ${a.objects} objects of ${ready.objects}`);
      if (r > 0) {
        ours.push(a);
        peers.push(b);
      }
    }
    const oursMs = median(ours.map((x) => x.ms));
    const peersMs = median(peers.map((x) => x.ms));
    const oursBytes = median(ours.map((x) => x.bytes));
    const peersBytes = median(peers.map((x) => x.bytes));
    const t = ours[ours.length - 1].server;
    out(
      `  ours   median ${ms(oursMs)}, ${mb(oursBytes)}: metadata-only LISTs ${mb(t.metadataList)}, full LISTs ${mb(t.fullList)}; peers median ${ms(peersMs)}, ${mb(peersBytes)}`,
    );
    out(
      `  ratio ours / peers: bytes ${(oursBytes / peersBytes).toFixed(3)}, time ${(oursMs / peersMs).toFixed(3)}; round by round: ${ours.map((x, i) => (x.ms / peers[i].ms).toFixed(3)).join(', ')}`,
    );
    out();
    return { oursMs, peersMs, oursBytes, peersBytes, timeRatio: oursMs / peersMs, bytesRatio: oursBytes / peersBytes };
  } finally {
    await api.request('gate', { managedFieldsOptOut: false });
  }
}

// ---------------------------------------------------------------------------------------------------
// The report

async function run(opts: Options): Promise<void> {
  const rows: Row[] = [];
  out(
    `Live cluster: the Kubernetes API test server in its own process (HTTPS on loopback, bearer token), ${globalThis.gc ? 'forced GC before each run' : 'no --expose-gc: runs are not separated by a forced GC'}`,
  );
  const api = new ApiServerProcess(opts.objects, opts.seed, opts.managedFields, opts.realism);
  try {
    const ready = await withTimeout(api.ready, 300_000, 'the API server process to generate and load the cluster');
    const types = Object.keys(ready.countsByResource).length;
    out(
      `  cluster (seed ${opts.seed}): ${int(ready.objects)} objects over ${types} resource types, ${int(ready.ownerReferences)} ownerReferences (generated in ${ms(ready.generateMs)}, loaded into the server in ${ms(ready.loadMs)})`,
    );
    const counts = Object.entries(ready.countsByResource).sort((a, b) => b[1] - a[1]);
    out(
      `  largest: ${counts
        .slice(0, 12)
        .map(([r, n]) => `${r} ${int(n)}`)
        .join(', ')}; …; smallest: ${counts
        .slice(-4)
        .map(([r, n]) => `${r} ${int(n)}`)
        .join(', ')}`,
    );
    const serverMem = await api.request<{ memory?: { peak: number; rss: number } }>('memory');
    if (serverMem.memory) out(`  API server process RSS ${mib(serverMem.memory.rss)} (not measured against anything)`);
    out(
      `  objects served ${ready.managedFields ? 'with metadata.managedFields, as a real apiserver serves them (bench/managedFields.ts)' : 'WITHOUT managedFields (--no-managed-fields): smaller in both forms than a real apiserver serves them'}`,
    );
    out();
    realismCheck(ready.sizes, ready.managedFields, rows);

    // -- bytes and time to a complete graph, alternating pairs ---------------------------------------
    const WARM_UP = 1;
    out(
      `Time and bytes to a complete graph: ${opts.runs} timed rounds after ${WARM_UP} warm-up round; a round runs ours (the editor's: LISTs, then watches), ours one-shot (the CLI's: the same LISTs, no watches) and the peers' (full LISTs), in an order rotating from round to round`,
    );
    out(
      `  every path: the same HTTP client (keep-alive, new connections per run), discovery included, pages of ${PAGE_SIZE}, ${CONCURRENCY} LISTs in flight, a forced GC before it; CPU is this process's and the API server's during the run`,
    );
    const ours: PathRun<Traffic>[] = [];
    const oneShot: PathRun<Traffic>[] = [];
    const peers: PathRun<Traffic>[] = [];
    const show = (x: PathRun<Traffic>) =>
      `${ms(x.ms).padStart(8)} ${mb(x.bytes).padStart(9)} (CPU ${ms(x.cpuMs)} + server ${ms(x.server.cpuMs)})`;
    for (let r = 0; r < WARM_UP + opts.runs; r++) {
      // The warm-up round keeps the graphs, to compare them; timed runs keep nothing, so each meets the same heap.
      const keep = r === 0;
      const runs: Record<'ours' | 'one-shot' | 'peers', () => Promise<PathRun<Traffic>>> = {
        ours: () => ourPath(meterOf(api), ready.kubeconfig, keep),
        'one-shot': () => ourPath(meterOf(api), ready.kubeconfig, keep, false),
        peers: () => peerPath(meterOf(api), ready.kubeconfig, keep),
      };
      const names = ['ours', 'one-shot', 'peers'] as const;
      const order = names.map((_, i) => names[(i + r) % names.length]);
      const got: Partial<Record<(typeof names)[number], PathRun<Traffic>>> = {};
      for (const name of order) got[name] = await runs[name]();
      const a = got.ours!;
      const o = got['one-shot']!;
      const b = got.peers!;
      const label = r < WARM_UP ? 'warm-up' : `round ${r - WARM_UP + 1}`;
      out(
        `  ${label.padEnd(8)} ${order.join(', ').padEnd(23)} ours ${show(a)}   one-shot ${show(o)}   peers ${show(b)}   time ratio ${(a.ms / b.ms).toFixed(3)}`,
      );
      if (a.inventory && o.inventory && b.inventory) {
        // The graphs hold the same objects and edges, and everything the server stores.
        const missing = missingFrom(b.inventory, a.inventory, o.inventory);
        const same =
          missing === 0 &&
          a.objects === b.objects &&
          o.objects === b.objects &&
          a.ownerReferences === b.ownerReferences &&
          o.ownerReferences === b.ownerReferences;
        out(
          `           graphs: ${int(a.objects)} objects / ${int(a.ownerReferences)} ownerReferences (ours), ${int(o.objects)} / ${int(o.ownerReferences)} (one-shot), ${int(b.objects)} / ${int(b.ownerReferences)} (peers); ${same ? 'the same objects' : `DIFFERENT (${int(missing)} of the peers' objects missing from ours)`}; the server holds ${int(ready.objects)}`,
        );
        if (!same || a.objects !== ready.objects) throw new Error('the paths did not build the same, complete graph');
        delete a.inventory;
        delete o.inventory;
        delete b.inventory;
      }
      if (r >= WARM_UP) {
        ours.push(a);
        oneShot.push(o);
        peers.push(b);
      }
    }

    const oursMs = median(ours.map((x) => x.ms));
    const peersMs = median(peers.map((x) => x.ms));
    const oursBytes = median(ours.map((x) => x.bytes));
    const peersBytes = median(peers.map((x) => x.bytes));
    const timeRatio = oursMs / peersMs;
    const bytesRatio = oursBytes / peersBytes;
    const t = ours[ours.length - 1].server;
    const tp = peers[peers.length - 1].server;
    const fullKinds = Object.entries(t.fullByResource).sort((x, y) => y[1] - x[1]);
    out(`  ours   median ${ms(oursMs)}, ${mb(oursBytes)} received; the server counted ${mb(t.bytes)}:`);
    out(
      `           metadata-only LISTs ${mb(t.metadataList)}; full LISTs of the ${fullKinds.length} kinds LiveCluster reads in full (the simulation needs their spec) ${mb(t.fullList)}: ${fullKinds.map(([k, n]) => `${k} ${mb(n)}`).join(', ')}`,
    );
    out(
      `           discovery ${mb(t.discovery)}, watches ${mb(t.watch)} (opened once the graph is complete: all open at ${ms(median(ours.map((x) => x.watchesOpenMs ?? NaN)))} from the start, median); requests: ${Object.entries(
        t.verbs,
      )
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    out(
      `  peers  median ${ms(peersMs)} (of which the graph build, buildInventory: ${ms(median(peers.map((x) => x.buildMs ?? 0)))}), ${mb(peersBytes)} received; the server counted ${mb(tp.bytes)}: full LISTs ${mb(tp.fullList)}, discovery ${mb(tp.discovery)}; requests: ${Object.entries(
        tp.verbs,
      )
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    out(
      `  ratio ours / peers: bytes ${bytesRatio.toFixed(3)} (goal ≤ ${GOAL_BYTES_RATIO.toFixed(3)}), time ${timeRatio.toFixed(3)} (goal ≤ ${GOAL_TIME_RATIO.toFixed(3)}); round by round: ${ours.map((x, i) => (x.ms / peers[i].ms).toFixed(3)).join(', ')}`,
    );
    const oneShotMs = median(oneShot.map((x) => x.ms));
    const oneShotCpu = median(oneShot.map((x) => x.cpuMs));
    out(
      `  one-shot (kubectl-gc on a cluster: no watches, workloads listed in full) median ${ms(oneShotMs)}, ${mb(median(oneShot.map((x) => x.bytes)))}; time ratio to the peers ${(oneShotMs / peersMs).toFixed(3)}; client CPU ${ms(oneShotCpu)}`,
    );
    const cpuOurs = median(ours.map((x) => x.cpuMs));
    const cpuPeers = median(peers.map((x) => x.cpuMs));
    const srvOurs = median(ours.map((x) => x.server.cpuMs));
    const srvPeers = median(peers.map((x) => x.server.cpuMs));
    out(
      `  CPU time, medians: client ours ${ms(cpuOurs)} / peers ${ms(cpuPeers)} = ${(cpuOurs / cpuPeers).toFixed(3)}; API server ours ${ms(srvOurs)} / peers ${ms(srvPeers)}`,
    );
    out(
      "           (the test server caches each stored object's JSON in both forms, full and metadata-only, so after the warm-up any LIST costs it a join of cached strings)",
    );
    const metaOnly = t.metadataList + t.discovery;
    out(
      `  the metadata-only LISTs alone: ${mb(metaOnly)} with discovery, ${(metaOnly / peersBytes).toFixed(3)} of the peers' bytes (the floor for a path that lists everything metadata-only would be a little above: the kinds read in full, metadata-only)`,
    );
    rows.push({
      figure: 'bytes to a complete graph, ours / full LIST',
      value: `${bytesRatio.toFixed(3)} (${mb(oursBytes)} / ${mb(peersBytes)})`,
      goal: `≤ ${GOAL_BYTES_RATIO.toFixed(2)}`,
      result: bytesRatio <= GOAL_BYTES_RATIO ? 'PASS' : 'MISS',
    });
    rows.push({
      figure: 'time to a complete graph, ours / full LIST',
      value: `${timeRatio.toFixed(3)} (${ms(oursMs)} / ${ms(peersMs)})`,
      goal: `≤ ${GOAL_TIME_RATIO.toFixed(2)}`,
      result: timeRatio <= GOAL_TIME_RATIO + 1e-9 ? 'PASS' : 'MISS',
    });
    rows.push({
      figure: 'time, one-shot (CLI, no watches) / full LIST',
      value: `${(oneShotMs / peersMs).toFixed(3)} (${ms(oneShotMs)} / ${ms(peersMs)})`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'client CPU to a complete graph, ours / full LIST',
      value: `${(cpuOurs / cpuPeers).toFixed(3)} (${ms(cpuOurs)} / ${ms(cpuPeers)})`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'ours: every watch open (after the graph)',
      value: ms(median(ours.map((x) => x.watchesOpenMs ?? NaN))),
      goal: '—',
      result: 'info',
    });
    const self = procMemory(undefined);
    if (self) out(`  this (client) process: peak RSS ${mib(self.peak)} (the warm-up round held the three graphs at once, to compare them)`);
    out();

    // -- the same on a cluster whose apiserver drops managedFields on request ------------------------
    if (opts.optOut && ready.managedFields) {
      const g = await optOutRounds(api, ready, opts.runs);
      rows.push({
        figure: 'with ManagedFieldsOptOut (1.38 alpha): bytes, ours / full',
        value: `${g.bytesRatio.toFixed(3)} (${mb(g.oursBytes)} / ${mb(g.peersBytes)})`,
        goal: `≤ ${GOAL_BYTES_RATIO.toFixed(2)}`,
        result: g.bytesRatio <= GOAL_BYTES_RATIO ? 'PASS' : 'MISS',
      });
      rows.push({
        figure: 'with ManagedFieldsOptOut (1.38 alpha): time, ours / full',
        value: `${g.timeRatio.toFixed(3)} (${ms(g.oursMs)} / ${ms(g.peersMs)})`,
        goal: `≤ ${GOAL_TIME_RATIO.toFixed(2)}`,
        result: g.timeRatio <= GOAL_TIME_RATIO + 1e-9 ? 'PASS' : 'MISS',
      });
    }

    // -- the first simulation: workloads read in full -------------------------------------------------
    {
      const f = await firstSimulation(ready.kubeconfig);
      out(
        `First Simulate Delete after connecting (the cluster's objects carry custom finalizers, so which workload runs their controller is guessed, by their images): the ${int(f.workloads)} Deployments, StatefulSets and DaemonSets read in full once: ${mb(f.bytes)} in ${ms(f.ms)} (CPU ${ms(f.cpuMs)}); later simulations read only the workloads whose spec changed`,
      );
      rows.push({ figure: 'first simulation: workloads read in full', value: `${mb(f.bytes)}, ${ms(f.ms)}`, goal: '—', result: 'info' });
      out();
    }

    // -- the language server's RSS ------------------------------------------------------------------
    if (opts.lspRss) {
      out('Language server (dist/server.js --stdio, an empty workspace folder) connected to the cluster (kubeGcLens/cluster/connect)');
      const l = await languageServerRss(ready.kubeconfig);
      out(`  connect → resolved (everything listed, watching): ${ms(l.connectMs)}, ${int(l.objects)} objects, state ${l.state}`);
      out(
        `  RSS before connecting ${mib(l.before.rss)}; once connected: peak (VmHWM) ${mib(l.after.peak)}, current ${mib(l.after.rss)}; 3 s later, watching: current ${mib(l.settled.rss)}, peak ${mib(l.settled.peak)}`,
      );
      rows.push({
        figure: `language server peak RSS, ${int(l.objects)} live objects`,
        value: mib(l.settled.peak),
        goal: `≤ ${GOAL_SERVER_RSS_MB} MB`,
        result: l.settled.peak <= GOAL_SERVER_RSS_MB * 2 ** 20 ? 'PASS' : 'MISS',
      });
      rows.push({ figure: 'language server: connect until listed', value: ms(l.connectMs), goal: '—', result: 'info' });
      out();
    }

    // -- a burst of watch events --------------------------------------------------------------------
    out(
      `Watch burst: up to ${int(opts.burstEvents)} events at once (80% Pods modified, 10% ReplicaSets modified, 10% Pods added), applied by a watching LiveCluster; ${opts.bursts} timed bursts after a warm-up one`,
    );
    {
      const target = resolveTarget({ kubeconfig: ready.kubeconfig, allowExec: false });
      let changes = 0;
      let wanted = Infinity;
      let firstAt = 0;
      let onDone: ((t: number) => void) | undefined;
      const live = new LiveCluster({
        target,
        rediscoverMs: 0,
        concurrency: CONCURRENCY,
        onChange: () => {
          changes++;
          if (changes === 1) firstAt = performance.now();
          if (changes === wanted) onDone?.(performance.now());
        },
      });
      try {
        await live.start();
        const times: number[] = [];
        const totals: number[] = [];
        const emits: number[] = [];
        let burstEvents = opts.burstEvents;
        for (let b = 0; b <= opts.bursts; b++) {
          const plan = await api.request<BurstPlan>('prepare-burst', { seq: b, events: opts.burstEvents });
          burstEvents = plan.events;
          const sizeBefore = live.inventory.objects.size;
          gc();
          changes = 0;
          wanted = plan.events;
          const done = new Promise<number>((resolve) => {
            onDone = resolve;
          });
          const t0 = performance.now();
          const emitted = api.request<{ emitMs: number }>('burst');
          const end = await withTimeout(done, 120_000, `${int(plan.events)} watch events to be applied`);
          const { emitMs } = await emitted;
          // Everything arrived: every modified object carries this burst's label, the new Pods are there.
          let stale = 0;
          for (const uid of plan.modified) if (live.inventory.objects.get(uid)?.labels?.[BURST_LABEL] !== String(b)) stale++;
          const grown = live.inventory.objects.size - sizeBefore;
          if (stale || grown !== plan.added)
            throw new Error(
              `after the burst the graph is not the server's: ${stale} modified objects without the new label, ${grown} objects added instead of ${plan.added}`,
            );
          const total = end - t0;
          const apply = end - firstAt;
          out(
            `  ${(b === 0 ? 'warm-up' : `burst ${b}`).padEnd(8)} first event applied → last applied ${ms(apply).padStart(8)} (${int((plan.events - 1) / (apply / 1000))} events/s); from the burst's start ${ms(total)} (first event applied at ${ms(firstAt - t0)}; the server took ${ms(emitMs)} to make and write them)`,
          );
          if (b > 0) {
            times.push(apply);
            totals.push(total);
            emits.push(emitMs);
          }
        }
        const m = median(times);
        const rate = (burstEvents - 1) / (m / 1000);
        out(
          `  median: applied in ${ms(m)} (${int(rate)} events/s); from the burst's start ${ms(median(totals))}, the test server's making and writing them ${ms(median(emits))}`,
        );
        rows.push({
          figure: `apply a burst of ${int(burstEvents)} watch events`,
          value: `${ms(m)} (${int(rate)} events/s)`,
          goal: '—',
          result: 'info',
        });
      } finally {
        await live.stop();
      }
    }
    out();

    out(
      `Summary (live cluster: ${int(ready.objects)} objects, ${types} resource types; medians of ${opts.runs} rounds / ${opts.bursts} bursts):`,
    );
    table(
      rows.map((r) => [r.figure, r.value, r.goal, r.result]),
      ['figure', 'value', 'goal', 'result'],
    );
    const missed = rows.filter((r) => r.result === 'MISS').length;
    out();
    out(missed ? `${missed} goal(s) missed.` : 'All goals met.');
  } finally {
    await api.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry

const argv = process.argv.slice(2);
if (argv[0] === SERVER_CHILD) {
  apiServerChild(Number(argv[1]), Number(argv[2]), argv[3] !== 'false', argv[4] !== 'false').catch((e: unknown) => {
    process.stderr.write(`API server process failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(2);
  });
} else {
  let opts: Options | undefined;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    out(`cluster bench failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 2;
  }
  if (opts) {
    run(opts).then(
      () => {
        process.exitCode = 0;
      },
      (e: unknown) => {
        out(`cluster bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        process.exitCode = 2;
      },
    );
  }
}

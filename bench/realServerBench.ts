// The live-cluster report on the REAL kube-apiserver (`npm run bench` runs it after the API test server's report
// unless --no-real-server; alone: `node --expose-gc dist/realServerBench.js`). The control plane of test/controlplane
// (kube-apiserver v1.37 with embedded etcd, built from Kubernetes' own modules) is started with no controllers, so
// nothing changes the world while it is measured, and loaded with the live-cluster bench's generated cluster made
// admissible (bench/realServerCluster.ts), written as `kubectl apply` would, owners first with real uids
// (testkit/cluster/seedCluster.ts); managedFields are the server's own. Each object's generated status is then written
// through its /status subresource, as the kubelet and controllers of a running cluster would (none runs here), and a
// realism check compares what the server then serves, kind by kind, with real cluster dumps (bench/realism.ts).
// Then, in rounds whose order rotates after a warm-up round, medians:
//   - ours (bench/listPaths.ts: LiveCluster, metadata-only paginated LISTs to a complete graph; the CLI's one-shot
//     reading for information),
//   - the peers' full LIST of every type with the same client code (asking for gzip, as client-go peers do),
//   - a real `kubectl get <every type> -A -o json`, kubectl built from the same modules, its output parsed and built
//     into the same graph (its bytes counted on the wire by a loopback proxy: kubectl asks for gzip),
// each with bytes received on the wire and decompressed, time to a complete graph, client CPU, and the server process's
// CPU and peak RSS during it
// (/proc). Goals (issue 14, a server without the managedFields opt-out): bytes ≤ 1/2 and time ≤ 1/3 of the full LIST.
// A report, not a test: it prints figures and exits 0 whether goals are met or not (also where `go` is missing: it
// says it is skipped); 2 if something throws.
// Options: --objects=N --seed=N --runs=N (timed rounds) --seed-concurrency=N

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInventory } from '../server/src/engine/inventory';
import type { KubeObject } from '../server/src/engine/model';
import { ApiClient } from '../server/src/sources/cluster/apiClient';
import { apiVersionOf, discover, type DiscoveredResource } from '../server/src/sources/cluster/discovery';
import { resolveTarget } from '../server/src/sources/cluster/kubeconfig';
import { toKubeObject } from '../server/src/sources/cluster/toKubeObject';
import { CONTROL_PLANE_SKIP, KUBECTL, startControlPlane, type ControlPlane } from '../testkit/cluster/controlPlane';
import { clusterWriter, seedCluster, type Manifest, type SeedFailure } from '../testkit/cluster/seedCluster';
import { generateBenchCluster, resourceOf } from './clusterObjects';
import { CONCURRENCY, edges, missingFrom, ourPath, PAGE_SIZE, peerPath, type PathRun, type ServerMeter } from './listPaths';
import { realServerManifests, writeStatuses, type StatusWrites } from './realServerCluster';
import { dumpsFolder, KindSizes, readDumps, realismCheck, summarize } from './realism';
import { gc, int, mb, median, mib, ms, out, procMemory, table, type Row } from './report';

const GOAL_BYTES_RATIO = 1 / 2;
const GOAL_TIME_RATIO = 1 / 3;
const WARM_UP = 1;

interface Options {
  objects: number;
  seed: number;
  runs: number;
  seedConcurrency: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { objects: 30_000, seed: 20250601, runs: 3, seedConcurrency: 16 };
  for (const a of argv) {
    const m = /^--([a-z-]+)=(\d+)$/.exec(a);
    const n = m ? Math.floor(Number(m[2])) : NaN;
    if (!m || !(n > 0)) throw new Error(`unknown argument ${a} (options: --objects=N --seed=N --runs=N --seed-concurrency=N)`);
    if (m[1] === 'objects') o.objects = Math.max(5_000, n);
    else if (m[1] === 'seed') o.seed = n;
    else if (m[1] === 'runs') o.runs = n;
    else if (m[1] === 'seed-concurrency') o.seedConcurrency = n;
    else throw new Error(`unknown option --${m[1]} (options: --objects=N --seed=N --runs=N --seed-concurrency=N)`);
  }
  return o;
}

// ---------------------------------------------------------------------------------------------------
// The control plane's process, seen from /proc

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** The fields of /proc/<pid>/stat after the command (whose name may hold spaces): [0] is the state. */
function statFields(pid: number | 'self'): string[] {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return s.slice(s.lastIndexOf(')') + 2).split(' ');
}

/** user + system CPU time of a process (ms); with `children`, of its waited-for children instead. */
function cpuMsOf(pid: number | 'self', children = false): number {
  const f = statFields(pid);
  // stat fields 14–17 (utime, stime, cutime, cstime) are [11]–[14] here.
  const ticks = children ? Number(f[13]) + Number(f[14]) : Number(f[11]) + Number(f[12]);
  return (ticks * 1000) / CLK_TCK;
}

function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (Number(statFields(Number(name))[1]) === ppid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The control plane binary's pid: this process started scripts/controlPlane.mjs, which runs the binary as its child.
 * Found by parentage, not by name: other control planes may run on the machine.
 */
function controlPlanePid(): number {
  for (const script of childrenOf(process.pid)) {
    if (!readFileSync(`/proc/${script}/cmdline`, 'utf8').includes('controlPlane.mjs')) continue;
    const binary = childrenOf(script).find((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('kube-gc-lens-control-plane'));
    if (binary) return binary;
  }
  throw new Error("cannot find the control plane process among this process's grandchildren");
}

/** Samples a process's RSS every 10 ms in a process of its own (the client's event loop, busy parsing, would miss peaks). */
class RssSampler {
  private readonly proc: ChildProcess;
  private readonly answers: ((peak: number) => void)[] = [];

  constructor(pid: number) {
    const src =
      `const fs=require('fs');let peak=0;const rd=()=>{try{const m=/VmRSS:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/${pid}/status','utf8'));if(m)peak=Math.max(peak,1024*m[1]);}catch{}};rd();setInterval(rd,10);` +
      "process.stdin.on('data',()=>{rd();process.stdout.write(peak+'\\n');peak=0;rd();});";
    this.proc = spawn(process.execPath, ['-e', src], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    this.proc.stdout!.on('data', (d) => {
      buf += String(d);
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        this.answers.shift()?.(Number(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
  }

  /** The peak since the last call (bytes); sampling starts over. */
  peak(): Promise<number> {
    return new Promise((resolve) => {
      this.answers.push(resolve);
      this.proc.stdin!.write('\n');
    });
  }

  /** Resolves once it has exited (and was reaped, so that its CPU time does not land in a later child's count). */
  close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.proc.on('exit', () => resolve()));
    this.proc.kill();
    return exited;
  }
}

interface ServerUse {
  cpuMs: number;
  peakRss: number;
  rssBefore: number;
}

/** The control plane process's CPU time and peak RSS over one run. */
function procMeter(pid: number, sampler: RssSampler): ServerMeter<ServerUse> {
  let cpu0 = 0;
  let rssBefore = 0;
  return {
    async reset() {
      await sampler.peak();
      rssBefore = procMemory(pid)?.rss ?? NaN;
      cpu0 = cpuMsOf(pid);
    },
    async read() {
      return { cpuMs: cpuMsOf(pid) - cpu0, peakRss: await sampler.peak(), rssBefore };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// kubectl

/** A loopback TCP proxy that counts the bytes the server sends (TLS passes through: kubectl still checks the server). */
async function countingProxy(server: string): Promise<{ url: string; received: () => number; reset: () => void; close: () => void }> {
  const target = new URL(server);
  let received = 0;
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((down) => {
    const up = connect(Number(target.port), target.hostname);
    for (const s of [down, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        down.destroy();
        up.destroy();
      });
    }
    up.on('data', (d: Buffer) => {
      received += d.length;
    });
    down.pipe(up);
    up.pipe(down);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    received: () => received,
    reset: () => {
      received = 0;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      proxy.close();
    },
  };
}

interface KubectlRun extends PathRun<ServerUse> {
  /** kubectl's own: until it exited, its CPU and peak RSS; then this process's parse and graph. */
  kubectlMs: number;
  kubectlCpuMs: number;
  kubectlPeakRss: number;
  outputBytes: number;
  parseCpuMs: number;
}

/**
 * `kubectl get <types> -A -o json` as a user runs it (chunks of 500, its default; a fresh discovery cache, so its
 * discovery counts as ours does), through the counting proxy; its JSON output parsed and built into the same graph.
 */
async function kubectlPath(
  meter: ServerMeter<ServerUse>,
  plane: ControlPlane,
  proxy: Awaited<ReturnType<typeof countingProxy>>,
  types: DiscoveredResource[],
  keep: boolean,
): Promise<KubectlRun> {
  const byKind = new Map(types.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r]));
  const names = types.map((r) => (r.group ? `${r.resource}.${r.group}` : r.resource)).join(',');
  const cache = mkdtempSync(join(tmpdir(), 'kube-gc-bench-kubectl-cache-'));
  try {
    await meter.reset();
    proxy.reset();
    gc();
    const cpu0 = cpuMsOf('self', true);
    const t0 = performance.now();
    const child = spawn(
      KUBECTL,
      ['--kubeconfig', plane.kubeconfig, '--server', proxy.url, '--cache-dir', cache, 'get', names, '-A', '-o', 'json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const sampler = new RssSampler(child.pid!);
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => chunks.push(d));
    child.stderr!.on('data', (d) => {
      stderr = (stderr + String(d)).slice(-2000);
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const kubectlMs = performance.now() - t0;
    const kubectlCpuMs = cpuMsOf('self', true) - cpu0;
    const kubectlPeakRss = await sampler.peak();
    await sampler.close();
    const server = await meter.read();
    if (code !== 0) throw new Error(`kubectl get exited with ${code}: ${stderr.trim()}`);
    const c0 = process.cpuUsage();
    const text = Buffer.concat(chunks);
    const list = JSON.parse(text.toString('utf8')) as { items: Record<string, unknown>[] };
    const context = resolveTarget({ kubeconfig: plane.kubeconfig, allowExec: false }).context;
    const objects: KubeObject[] = [];
    for (const item of list.items) {
      const r = byKind.get(`${String(item.apiVersion)}/${String(item.kind)}`);
      const o = r && toKubeObject(item, r, false, context);
      if (o) objects.push(o);
    }
    const inventory = buildInventory(objects, { defaultNamespace: 'default' });
    const elapsed = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    const parseCpuMs = (cpu.user + cpu.system) / 1000;
    return {
      ms: elapsed,
      cpuMs: kubectlCpuMs + parseCpuMs,
      bytes: proxy.received(),
      decodedBytes: NaN,
      requests: NaN,
      objects: inventory.objects.size,
      ownerReferences: edges(inventory),
      server,
      kubectlMs,
      kubectlCpuMs,
      kubectlPeakRss,
      outputBytes: text.length,
      parseCpuMs,
      ...(keep ? { inventory } : {}),
    };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Adds an object's JSON bytes, its metadata's and its managedFields' to `w`, and its sizes to its kind's in `byKind`. */
function weigh(
  w: { items: number; metadata: number; managedFields: number },
  byKind: Map<string, KindSizes>,
  item: Record<string, unknown>,
  kind: string,
): void {
  const meta = item.metadata as { managedFields?: unknown } | undefined;
  w.items += JSON.stringify(item).length;
  w.metadata += JSON.stringify(meta ?? {}).length;
  w.managedFields += meta?.managedFields ? JSON.stringify(meta.managedFields).length : 0;
  let k = byKind.get(kind);
  if (!k) byKind.set(kind, (k = new KindSizes()));
  k.add(item);
}

// ---------------------------------------------------------------------------------------------------
// Loading the cluster

interface Loaded {
  written: number;
  serverMade: Record<string, number>;
  alreadyThere: number;
  refused: SeedFailure[];
  seedMs: number;
  generated: number;
  types: number;
  statuses: StatusWrites;
  statusMs: number;
}

async function load(plane: ControlPlane, opts: Options): Promise<Loaded> {
  const cluster = generateBenchCluster({ objects: opts.objects, seed: opts.seed, managedFields: false });
  const { batches, serverMade } = realServerManifests(cluster.items);
  const types = new Set(cluster.items.map(resourceOf)).size;
  const writer = clusterWriter(plane.kubeconfig);
  const t0 = performance.now();
  const failures: SeedFailure[] = [];
  let written = 0;
  let statusMs = 0;
  const statuses: StatusWrites = { written: 0, byKind: {}, refused: [] };
  for (const batch of batches) {
    const seeded = await seedCluster(writer, batch as Manifest[], { concurrency: opts.seedConcurrency });
    failures.push(...seeded.failures);
    written += seeded.created.size;
    // Each batch's statuses before the next batch: the webhook configurations of the last would refuse them.
    const t1 = performance.now();
    const s = await writeStatuses(writer, batch, seeded.created, opts.seedConcurrency);
    statusMs += performance.now() - t1;
    statuses.written += s.written;
    statuses.refused.push(...s.refused);
    for (const [k, n] of Object.entries(s.byKind)) statuses.byKind[k] = (statuses.byKind[k] ?? 0) + n;
  }
  const seedMs = performance.now() - t0 - statusMs;
  // 409: the server made its own (a namespace's default ServiceAccount, the kubernetes Service).
  const refused = failures.filter((f) => f.status !== 409);
  return {
    written,
    serverMade,
    alreadyThere: failures.length - refused.length,
    refused,
    seedMs,
    generated: cluster.items.length,
    types,
    statuses,
    statusMs,
  };
}

// ---------------------------------------------------------------------------------------------------
// The report

type PathName = 'ours' | 'one-shot' | 'peers' | 'kubectl';

async function run(opts: Options): Promise<void> {
  out(
    'Live cluster on the REAL kube-apiserver (test/controlplane: Kubernetes v1.37 with embedded etcd, built from its Go modules; no controllers, so nothing changes the world while it is measured)',
  );
  if (CONTROL_PLANE_SKIP) {
    out(`  ${CONTROL_PLANE_SKIP}`);
    return;
  }
  const started = performance.now();
  let t = performance.now();
  const plane = await startControlPlane({ controllers: '' });
  const pid = controlPlanePid();
  const sampler = new RssSampler(pid);
  const proxy = await countingProxy(plane.server);
  try {
    out(
      `  control plane started in ${ms(performance.now() - t)} (built first if needed), pid ${pid}, RSS ${mib(procMemory(pid)?.rss ?? NaN)}; kubectl ${spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' }).stdout.match(/"gitVersion":\s*"([^"]+)"/)?.[1] ?? '?'}`,
    );
    t = performance.now();
    const loaded = await load(plane, opts);
    const refusedByKind = new Map<string, number>();
    for (const f of loaded.refused) refusedByKind.set(f.object.split(' ')[1], (refusedByKind.get(f.object.split(' ')[1]) ?? 0) + 1);
    out(
      `  cluster (seed ${opts.seed}): ${int(loaded.generated)} generated objects over ${loaded.types} resource types; written ${int(loaded.written)} in ${ms(loaded.seedMs)} (${int(loaded.written / (loaded.seedMs / 1000))}/s, ${opts.seedConcurrency} requests in flight, owners first: informational)`,
    );
    out(
      `  not written, the server has its own: ${Object.entries(loaded.serverMade)
        .map(([k, n]) => `${k} ${n}`)
        .join(
          ', ',
        )}, and ${loaded.alreadyThere} it answered 409 (already exists); refused: ${loaded.refused.length ? [...refusedByKind].map(([k, n]) => `${k} ${n}`).join(', ') + ` (the first: ${loaded.refused[0].object}: ${loaded.refused[0].message.slice(0, 200)})` : 'none'}`,
    );
    const statusRefusedByKind = new Map<string, number>();
    for (const f of loaded.statuses.refused)
      statusRefusedByKind.set(f.object.split(' ')[1], (statusRefusedByKind.get(f.object.split(' ')[1]) ?? 0) + 1);
    out(
      `  statuses written through /status (as the kubelet and controllers would; merge PATCH, ${opts.seedConcurrency} in flight): ${int(loaded.statuses.written)} in ${ms(loaded.statusMs)} (${Object.entries(
        loaded.statuses.byKind,
      )
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${int(n)}`)
        .join(
          ', ',
        )}); refused: ${loaded.statuses.refused.length ? [...statusRefusedByKind].map(([k, n]) => `${k} ${n}`).join(', ') + ` (the first: ${loaded.statuses.refused[0].object}: ${loaded.statuses.refused[0].message.slice(0, 300)})` : 'none'}`,
    );
    out(`  the server's RSS once loaded: ${mib(procMemory(pid)?.rss ?? NaN)}`);
    const meter = procMeter(pid, sampler);
    // The types every path reads: what ours discovers (every resource with list, watch and delete; events excepted).
    const client = new ApiClient(resolveTarget({ kubeconfig: plane.kubeconfig, allowExec: false }));
    const types = (await discover(client)).resources;
    client.close();
    {
      const c0 = cpuMsOf(pid);
      await new Promise((r) => setTimeout(r, 2000));
      out(`  ${types.length} listable resource types; the idle server spends ${ms((cpuMsOf(pid) - c0) / 2)} of CPU a second`);
    }
    out();

    out(
      `Time and bytes to a complete graph: ${opts.runs} timed rounds after ${WARM_UP} warm-up round, the order rotating: ours (the editor's: LISTs, then watches), ours one-shot (the CLI's: no watches, workloads in full), the peers' (full LISTs, same client), kubectl get -A -o json`,
    );
    out(
      `  the in-process paths: pages of ${PAGE_SIZE}, ${CONCURRENCY} LISTs in flight, gzip asked (the server compresses answers over 128 KiB), wire = response bodies as received, decoded = decompressed; kubectl: its defaults (chunks of 500, one type after another, gzip asked), wire = what the server sent it (TLS records, headers included)`,
    );
    out(
      "  CPU: the client's (kubectl: its process, plus parsing its output and building the graph here) + the server process's; server RSS: its peak during the run (sampled every 10 ms), after its RSS before",
    );
    const runs: Record<PathName, PathRun<ServerUse>[]> = { ours: [], 'one-shot': [], peers: [], kubectl: [] };
    const names: PathName[] = ['ours', 'one-shot', 'peers', 'kubectl'];
    const weights = { items: 0, metadata: 0, managedFields: 0 };
    const served = new Map<string, KindSizes>();
    const show = (x: PathRun<ServerUse>) =>
      `${ms(x.ms).padStart(8)} ${mb(x.bytes).padStart(8)} wire ${mb(x.decodedBytes).padStart(8)} decoded CPU ${ms(x.cpuMs)} + server ${ms(x.server.cpuMs)}, ${mib(x.server.peakRss)}`;
    const roundsStarted = performance.now();
    for (let r = 0; r < WARM_UP + opts.runs; r++) {
      const keep = r === 0;
      const order = names.map((_, i) => names[(i + r) % names.length]);
      const got: Partial<Record<PathName, PathRun<ServerUse>>> = {};
      for (const name of order) {
        got[name] =
          name === 'ours'
            ? await ourPath(meter, plane.kubeconfig, keep)
            : name === 'one-shot'
              ? await ourPath(meter, plane.kubeconfig, keep, false)
              : name === 'peers'
                ? await peerPath(meter, plane.kubeconfig, keep, keep ? (item, res) => weigh(weights, served, item, res.kind) : undefined)
                : await kubectlPath(meter, plane, proxy, types, keep);
      }
      const label = r < WARM_UP ? 'warm-up' : `round ${r - WARM_UP + 1}`;
      out(`  ${label}: ${order.join(', ')}`);
      for (const name of names) out(`    ${name.padEnd(9)} ${show(got[name]!)}`);
      const [a, o, b, k] = names.map((n) => got[n]!);
      if (a.inventory && o.inventory && b.inventory && k.inventory) {
        const missing = missingFrom(b.inventory, a.inventory, o.inventory, k.inventory);
        const same = missing === 0 && [a, o, k].every((x) => x.objects === b.objects && x.ownerReferences === b.ownerReferences);
        out(
          `    graphs: ${names.map((n) => `${int(got[n]!.objects)} / ${int(got[n]!.ownerReferences)} (${n})`).join(', ')} objects / ownerReferences; ${same ? 'the same objects' : `DIFFERENT (${int(missing)} of the peers' objects missing from another)`}`,
        );
        if (!same) throw new Error('the paths did not build the same graph');
        out(
          `    what the full objects weigh (the peers' items, compact JSON): ${mb(weights.items)}; their metadata ${(weights.metadata / weights.items).toFixed(3)} of it, managedFields alone ${(weights.managedFields / weights.items).toFixed(3)} (the server's own: the create's, and the status write's where there was one)`,
        );
        for (const x of [a, o, b, k]) delete x.inventory;
      }
      if (r >= WARM_UP) for (const name of names) runs[name].push(got[name]!);
    }
    const roundsMs = performance.now() - roundsStarted;

    // After the measured rounds: reading the dumps costs this process time and memory.
    const realismRows: Row[] = [];
    const dumps = dumpsFolder(__dirname);
    const real = dumps ? readDumps(dumps) : undefined;
    out();
    realismCheck(
      {
        generated: summarize(served),
        ...(real && dumps ? { real: { dir: dumps, files: real.files, objects: real.objects, byKind: summarize(real.byKind) } } : {}),
      },
      true,
      realismRows,
      "the generated cluster as the real server serves it (read back by the warm-up round's full LIST; managedFields the server's own)",
    );

    const med = (name: PathName, f: (x: PathRun<ServerUse>) => number) => median(runs[name].map(f));
    const objects = runs.peers[0].objects;
    const rows: Row[] = [];
    const summary: string[][] = names.map((n) => [
      n,
      ms(med(n, (x) => x.ms)),
      mb(med(n, (x) => x.bytes)),
      mb(med(n, (x) => x.decodedBytes)),
      ms(med(n, (x) => x.cpuMs)),
      ms(med(n, (x) => x.server.cpuMs)),
      `${mib(med(n, (x) => x.server.peakRss))} (from ${mib(med(n, (x) => x.server.rssBefore))})`,
    ]);
    out();
    out(`Medians of ${opts.runs} rounds (${int(objects)} objects in the graph):`);
    table(summary, ['path', 'time to graph', 'wire bytes', 'decoded', 'client CPU', 'server CPU', 'server peak RSS']);
    const k = runs.kubectl as KubectlRun[];
    out(
      `  kubectl itself: exits after ${ms(median(k.map((x) => x.kubectlMs)))}, CPU ${ms(median(k.map((x) => x.kubectlCpuMs)))}, peak RSS ${mib(median(k.map((x) => x.kubectlPeakRss)))}, prints ${mb(median(k.map((x) => x.outputBytes)))} of JSON; parsing it and building the graph here: CPU ${ms(median(k.map((x) => x.parseCpuMs)))}`,
    );
    const ratio = (n: PathName, d: PathName, f: (x: PathRun<ServerUse>) => number) => med(n, f) / med(d, f);
    const bytesRatio = ratio('ours', 'peers', (x) => x.bytes);
    const decodedRatio = ratio('ours', 'peers', (x) => x.decodedBytes);
    const timeRatio = ratio('ours', 'peers', (x) => x.ms);
    rows.push({
      figure: 'bytes on the wire to a complete graph, ours / full LIST',
      value: `${bytesRatio.toFixed(3)} (${mb(med('ours', (x) => x.bytes))} / ${mb(med('peers', (x) => x.bytes))})`,
      goal: `≤ ${GOAL_BYTES_RATIO.toFixed(2)}`,
      result: bytesRatio <= GOAL_BYTES_RATIO ? 'PASS' : 'MISS',
    });
    rows.push({
      figure: 'bytes decoded (parsed), ours / full LIST',
      value: `${decodedRatio.toFixed(3)} (${mb(med('ours', (x) => x.decodedBytes))} / ${mb(med('peers', (x) => x.decodedBytes))})`,
      goal: `≤ ${GOAL_BYTES_RATIO.toFixed(2)}`,
      result: decodedRatio <= GOAL_BYTES_RATIO ? 'PASS' : 'MISS',
    });
    rows.push({
      figure: 'time to a complete graph, ours / full LIST',
      value: `${timeRatio.toFixed(3)} (${ms(med('ours', (x) => x.ms))} / ${ms(med('peers', (x) => x.ms))})`,
      goal: `≤ ${GOAL_TIME_RATIO.toFixed(2)}`,
      result: timeRatio <= GOAL_TIME_RATIO + 1e-9 ? 'PASS' : 'MISS',
    });
    rows.push({
      figure: 'time, one-shot (CLI, no watches) / full LIST',
      value: `${ratio('one-shot', 'peers', (x) => x.ms).toFixed(3)} (${ms(med('one-shot', (x) => x.ms))})`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'bytes on the wire, ours / kubectl get -o json',
      value: `${ratio('ours', 'kubectl', (x) => x.bytes).toFixed(3)} (${mb(med('kubectl', (x) => x.bytes))} for kubectl)`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'time, ours / kubectl get -o json',
      value: `${ratio('ours', 'kubectl', (x) => x.ms).toFixed(3)} (${ms(med('kubectl', (x) => x.ms))} for kubectl)`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'client CPU, ours / full LIST / kubectl',
      value: `${ms(med('ours', (x) => x.cpuMs))} / ${ms(med('peers', (x) => x.cpuMs))} / ${ms(med('kubectl', (x) => x.cpuMs))}`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'server CPU, ours / full LIST / kubectl',
      value: `${ms(med('ours', (x) => x.server.cpuMs))} / ${ms(med('peers', (x) => x.server.cpuMs))} / ${ms(med('kubectl', (x) => x.server.cpuMs))}`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'server peak RSS, ours / full LIST / kubectl',
      value: `${mib(med('ours', (x) => x.server.peakRss))} / ${mib(med('peers', (x) => x.server.peakRss))} / ${mib(med('kubectl', (x) => x.server.peakRss))}`,
      goal: '—',
      result: 'info',
    });
    rows.push({
      figure: 'seeding the cluster (owners first)',
      value: `${int(loaded.written)} objects in ${ms(loaded.seedMs)}`,
      goal: '—',
      result: 'info',
    });
    rows.push(
      {
        figure: 'writing their statuses (/status)',
        value: `${int(loaded.statuses.written)} in ${ms(loaded.statusMs)}`,
        goal: '—',
        result: 'info',
      },
      ...realismRows,
    );
    out();
    out(
      `Summary (real kube-apiserver: ${int(objects)} objects, ${types.length} resource types; medians of ${opts.runs} rounds; the measured rounds took ${ms(roundsMs)}, the whole real-server report ${ms(performance.now() - started)}):`,
    );
    table(
      rows.map((x) => [x.figure, x.value, x.goal, x.result]),
      ['figure', 'value', 'goal', 'result'],
    );
    const missed = rows.filter((x) => x.result === 'MISS').length;
    out();
    out(missed ? `${missed} goal(s) missed on the real server.` : 'All goals met on the real server.');
  } finally {
    proxy.close();
    await sampler.close();
    await plane.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Entry

let opts: Options | undefined;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  out(`real-server bench failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
}
if (opts) {
  run(opts).then(
    () => {
      process.exitCode = 0;
    },
    (e: unknown) => {
      out(`real-server bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exitCode = 2;
    },
  );
}

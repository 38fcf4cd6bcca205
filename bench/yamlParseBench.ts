// How to read YAML manifests fast (`node dist/yamlParseBench.js`; docs/adr/0035-a-fast-reader-for-plain-yaml.md): the candidates
// measured on the same files, in rounds that alternate them, medians printed (never pass/fail):
//   - yaml (today's path): parseManifestText with the `yaml` package's Document for every YAML document,
//   - yaml CST only: the package's Lexer and Parser with a LineCounter, no Document and no extraction at all (the
//     most a reader over the CST could gain),
//   - fast subset: parseManifestText as it is (yamlFast.ts, the `yaml` package for what it declines),
//   - the same two in 2 worker threads (node:worker_threads), each reading and parsing half of the files, results
//     copied back to the main thread as a loader would need them.
// Sets: the language server report's generated workspace (10,000 objects, 10 per file), and from ../shared/corpus
// (when present) the OpenShift must-gather and the real install manifests.
// Options: --rounds=N --objects=N --only=NAME (a set).

import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { LineCounter, Parser } from 'yaml';
import { parseManifestText, type ParseResult } from '../server/src/sources/manifests/parseManifest';
import { median, out } from './report';
import { generatedCluster, writeYamlWorkspace } from './yamlWorkspace';

/** Run from the repository's root, as npm runs it: the corpus is beside it. */
const CORPUS = join(process.cwd(), '../shared/corpus');

interface Job {
  files: string[];
  fastYaml: boolean;
}

function parseFiles(job: Job): ParseResult[] {
  return job.files.map((f) => parseManifestText(readFileSync(f, 'utf8'), f, { fastYaml: job.fastYaml }));
}

if (!isMainThread) {
  parentPort!.on('message', (job: Job) => parentPort!.postMessage(parseFiles(job)));
} else {
  main().then(
    () => (process.exitCode = 0),
    (e: unknown) => {
      out(`yaml parse bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exitCode = 2;
    },
  );
}

function walk(dir: string, found: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, found);
    else if (/\.ya?ml$/i.test(e)) found.push(p);
  }
  return found;
}

/** The `yaml` package without Documents: lexer, parser, line starts (process.env swapped as the loader does). */
function cstOnly(files: string[]): void {
  const saved = process.env;
  process.env = Object.create(saved) as NodeJS.ProcessEnv;
  try {
    for (const f of files) {
      const lines = new LineCounter();
      for (const token of new Parser(lines.addNewLine).parse(readFileSync(f, 'utf8'))) void token;
    }
  } finally {
    process.env = saved;
  }
}

/** Two workers, each given every other file; resolves when both have sent their results back. */
async function inWorkers(workers: Worker[], files: string[], fastYaml: boolean): Promise<void> {
  await Promise.all(
    workers.map(
      (w, k) =>
        new Promise<void>((resolve, reject) => {
          w.once('error', reject);
          w.once('message', () => {
            w.off('error', reject);
            resolve();
          });
          w.postMessage({ files: files.filter((_, i) => i % workers.length === k), fastYaml } satisfies Job);
        }),
    ),
  );
}

async function main(): Promise<void> {
  const args = new Map(
    process.argv.slice(2).map((a) => {
      const m = /^--([a-z]+)=(.+)$/.exec(a);
      if (!m) throw new Error(`unknown argument ${a} (options: --rounds=N --objects=N --only=NAME)`);
      return [m[1], m[2]] as const;
    }),
  );
  const rounds = Number(args.get('rounds') ?? 5);
  const generated = writeYamlWorkspace(generatedCluster(Number(args.get('objects') ?? 10_000)), 10);
  const sets: [string, string[]][] = [['generated workspace (lspBench)', generated.files]];
  const mustGather = join(CORPUS, 'cluster-dumps/openshift-must-gather-aws');
  const manifests = join(CORPUS, 'real-manifests');
  try {
    statSync(mustGather);
    sets.push(['OpenShift must-gather', walk(mustGather)], ['real install manifests', walk(manifests)]);
  } catch {
    out(`(${CORPUS} is absent: the generated workspace only)`);
  }
  const workers = [new Worker(__filename), new Worker(__filename)];
  out(`YAML parsing candidates: ${rounds} rounds alternating, medians; ${availableParallelism()} cores`);
  try {
    for (const [name, files] of sets) {
      if (args.has('only') && !name.includes(args.get('only')!)) continue;
      const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
      const candidates: [string, () => unknown][] = [
        ['yaml (today: Document per document)', () => parseFiles({ files, fastYaml: false })],
        ['yaml CST only (no Document, no extraction)', () => cstOnly(files)],
        ['fast subset (yamlFast.ts)', () => parseFiles({ files, fastYaml: true })],
        ['yaml, 2 worker threads', () => inWorkers(workers, files, false)],
        ['fast subset, 2 worker threads', () => inWorkers(workers, files, true)],
      ];
      const times = candidates.map((): number[] => []);
      for (let r = 0; r < rounds + 1; r++) {
        for (let c = 0; c < candidates.length; c++) {
          const k = (c + r) % candidates.length; // a different one first each round
          const a = performance.now();
          await candidates[k][1]();
          if (r > 0) times[k].push(performance.now() - a); // round 0 warms up
        }
      }
      out(`  ${name}: ${files.length.toLocaleString('en-US')} files, ${(bytes / 1e6).toFixed(1)} MB`);
      const base = median(times[0]);
      candidates.forEach(([label], k) => {
        const m = median(times[k]);
        const mbs = bytes / 1e6 / (m / 1000);
        out(
          `    ${label.padEnd(44)} ${m.toFixed(0).padStart(6)} ms  ${mbs.toFixed(1).padStart(5)} MB/s  ${(base / m).toFixed(2)}×  (${times[k].map((t) => t.toFixed(0)).join(', ')})`,
        );
      });
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    rmSync(generated.dir, { recursive: true, force: true });
  }
}

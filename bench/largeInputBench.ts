// Large valid input through the CLI (docs/reliability.md, "Large valid input"): the built `dist/cli.js` reads files
// generated here (bench/largeInput.ts, in a temporary folder, deleted after) as a user runs it, one process per
// command; its wall time and peak RSS (the process's own getrusage, printed at exit by a preloaded hook) against the
// goal: 200,000 small YAML documents under 1 GB and 30 s for check, stuck and simulate. The 200 MB JSON List is
// reported for information.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeJsonList, largeYaml, ownerlessPodsYaml } from './largeInput';
import { mb, ms, out, type Row } from './report';

export const GOAL_LARGE_INPUT_RSS = 1e9;
export const GOAL_LARGE_INPUT_MS = 30_000;
const GOAL_TEXT = `≤ ${GOAL_LARGE_INPUT_MS / 1000} s, ≤ ${GOAL_LARGE_INPUT_RSS / 1e9} GB peak RSS`;

const PEAK_MARK = 'KUBE_GC_PEAK_RSS ';
/** Preloaded into the CLI's process: its peak RSS on stderr as it exits. */
const PEAK_HOOK = `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeSync(2, '\\n${PEAK_MARK}' + u.maxRSS * 1024 + ' ' + (u.userCPUTime + u.systemCPUTime) / 1000 + '\\n'); });\n`;

interface CliRun {
  ms: number;
  /** User + system CPU time: a shared machine's load shows in the wall time, less in this. */
  cpuMs: number;
  peakRss: number;
  exitCode: number | null;
}

function runCli(cli: string, hook: string, args: string[], cwd: string): CliRun {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', hook, cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = performance.now() - t;
  const line = (r.stderr ?? '').split('\n').find((l) => l.startsWith(PEAK_MARK));
  if (!line || (r.status !== 0 && r.status !== 1))
    throw new Error(`kubectl-gc ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr ?? '').trim().slice(0, 300)}`);
  const [rss, cpu] = line.slice(PEAK_MARK.length).split(' ').map(Number);
  return { ms: elapsed, cpuMs: cpu, peakRss: rss, exitCode: r.status };
}

/** Runs the commands on the generated files; returns the summary rows. `documents`: of each YAML file. */
export function largeInputReport(cli: string, documents: number, jsonObjects: number): Row[] {
  const dir = mkdtempSync(join(tmpdir(), 'kube-gc-large-input-'));
  const rows: Row[] = [];
  try {
    const hook = join(dir, 'peak.cjs');
    writeFileSync(hook, PEAK_HOOK);
    const files: [string, string, () => string][] = [
      ['apps.yaml', `${documents.toLocaleString('en-US')} YAML documents of apps`, () => largeYaml(documents)],
      ['pods.yaml', `${documents.toLocaleString('en-US')} YAML Pods whose owners are not given`, () => ownerlessPodsYaml(documents)],
      ['list.json', `a JSON List of ${jsonObjects.toLocaleString('en-US')} objects`, () => largeJsonList(jsonObjects)],
    ];
    out(`Large valid input: the built CLI (${cli}) on generated files, one process per command; goal for YAML: ${GOAL_TEXT}`);
    for (const [name, what, make] of files) {
      const file = join(dir, name);
      writeFileSync(file, make());
      const bytes = statSync(file).size;
      const yaml = name.endsWith('.yaml');
      const commands = yaml && name === 'apps.yaml' ? [['check'], ['stuck'], ['simulate', 'namespace/team-1']] : [['check'], ['stuck']];
      for (const command of commands) {
        const r = runCli(cli, hook, [command[0], '-f', name, ...command.slice(1)], dir);
        const label = [command[0], '-f', name, ...command.slice(1)].join(' ');
        out(
          `  ${label.padEnd(40)} ${ms(r.ms).padStart(9)} (CPU ${ms(r.cpuMs).padStart(9)})   peak RSS ${mb(r.peakRss).padStart(9)} (${(r.peakRss / bytes).toFixed(1)}× the ${mb(bytes)} input: ${what})`,
        );
        const pass = r.peakRss <= GOAL_LARGE_INPUT_RSS && r.ms <= GOAL_LARGE_INPUT_MS;
        rows.push({
          figure: `large input: ${label}`,
          value: `${ms(r.ms)} (CPU ${ms(r.cpuMs)}), ${mb(r.peakRss)}`,
          goal: yaml ? GOAL_TEXT : '—',
          result: yaml ? (pass ? 'PASS' : 'MISS') : 'info',
        });
      }
      rmSync(file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  out();
  return rows;
}

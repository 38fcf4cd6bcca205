// `npm run fuzz -- [--runs N] [--seed S] [--pool fixtures|wide]`: the manifest loader's fuzz suite
// (test/fuzz/manifestFuzz.test.ts) on fresh seeds instead of the fixed CI set.
//   --runs N   how many cases (default 500; with --seed alone, 1: re-run that case)
//   --seed S   the first case's seed (default: a random one, printed); case i uses seed S + i
//   --pool     fixtures: test/fixtures only (what CI uses); wide (default): also more of ../shared/corpus when present
// Every failing case is printed with its seed and the command that re-runs it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const env = { ...process.env };
const usage = () => {
  process.stderr.write('usage: npm run fuzz -- [--runs N] [--seed S] [--pool fixtures|wide]\n');
  process.exit(2);
};
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].split('=', 2);
  const value = inline ?? args[++i];
  if (value === undefined) usage();
  if (flag === '--runs' && /^\d+$/.test(value)) env.FUZZ_RUNS = value;
  else if (flag === '--seed' && /^\d+$/.test(value)) env.FUZZ_SEED = value;
  else if (flag === '--pool' && (value === 'fixtures' || value === 'wide')) env.FUZZ_POOL = value;
  else usage();
}
if (env.FUZZ_RUNS === undefined && env.FUZZ_SEED === undefined) env.FUZZ_RUNS = '500';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const r = spawnSync(process.execPath, [vitest, 'run', '--project', 'unit', '--hideSkippedTests', 'test/fuzz/manifestFuzz.test.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);

// The manifest loader's fuzz/property suite (issue 13): see harness.ts for the properties, mutations.ts for the
// mutations. In `npm test` a fixed seed set runs on test/fixtures only. `npm run fuzz -- [--runs N] [--seed S]`
// (scripts/fuzz.mjs) runs fresh seeds instead, through this file with FUZZ_RUNS/FUZZ_SEED/FUZZ_POOL set, by
// default on a wider pool (more of the shared corpus, when it is there).

import { describe, expect, it } from 'vitest';
import { fixturePool, jsonFiles, widePool } from './corpus';
import { checkCase, checkWholeFile, describeCase, makeCase } from './harness';
import { MUTATIONS } from './mutations';

const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const LONG = RUNS !== undefined || SEED !== undefined;
/** `fixtures` (the CI pool) or `wide` (the default of long runs: more of the shared corpus when it is there). */
const POOL = process.env.FUZZ_POOL === 'fixtures' ? 'fixtures' : 'wide';

/** The CI seeds: consecutive, so every mutation is applied the same number of times (seed mod mutations). */
const CI_SEEDS = Array.from({ length: MUTATIONS.length * 12 }, (_, i) => i + 1);

describe.skipIf(LONG)('manifest loader fuzz: fixed seeds', () => {
  const pool = fixturePool();

  it('has a pool with references between documents', () => {
    // Guards the suite itself: without owners and dependents in separate documents, isolation means little.
    const docs = pool.groups.flatMap((g) => g.docs);
    expect(docs.length).toBeGreaterThan(80);
    const owned = docs.filter((d) => /^ {2}ownerReferences:/m.test(d.text));
    expect(owned.length).toBeGreaterThan(20);
  });

  const json = jsonFiles();
  it.each(CI_SEEDS.slice(0, MUTATIONS.length * 3))('a whole JSON file, seed %i', (seed) => {
    const { failures, describe } = checkWholeFile(seed, json);
    if (failures.length)
      expect.fail(`${describe(`npm run fuzz -- --seed ${seed} --pool fixtures`)}\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  });

  it.each(CI_SEEDS)('seed %i', (seed) => {
    const c = makeCase(seed, pool);
    const failures = checkCase(c);
    if (failures.length)
      expect.fail(`${describeCase(c, `npm run fuzz -- --seed ${seed} --pool fixtures`)}\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  });
});

describe.runIf(LONG)('manifest loader fuzz: fresh seeds', () => {
  const runs = SEED !== undefined && RUNS === undefined ? 1 : (RUNS ?? 1);
  const start = SEED ?? (Math.random() * 0x7fffffff) >>> 0;
  it(
    `${runs} case(s) from seed ${start} (${POOL} pool)`,
    () => {
      const pool = POOL === 'fixtures' ? fixturePool() : widePool();
      const json = jsonFiles();
      const failed: string[] = [];
      for (let i = 0; i < runs; i++) {
        const seed = (start + i) >>> 0;
        let c;
        try {
          c = makeCase(seed, pool);
        } catch (e) {
          // a bug of the harness itself (a mutation): report it and go on with the other seeds
          failed.push(`seed ${seed}: making the case threw: ${e instanceof Error ? e.stack : String(e)}`);
          process.stderr.write(`FAIL ${failed[failed.length - 1]}\n`);
          continue;
        }
        const rerun = `npm run fuzz -- --seed ${seed} --pool ${POOL}`;
        const failures = checkCase(c);
        if (failures.length) {
          const report = `${describeCase(c, rerun)}\n${failures.map((f) => `  - ${f}`).join('\n')}`;
          failed.push(report);
          process.stderr.write(`FAIL ${report}\n`);
        }
        // The same seed on a whole JSON file.
        const whole = checkWholeFile(seed, json);
        if (whole.failures.length) {
          const report = `${whole.describe(rerun)}\n${whole.failures.map((f) => `  - ${f}`).join('\n')}`;
          failed.push(report);
          process.stderr.write(`FAIL ${report}\n`);
        }
      }
      process.stderr.write(
        `fuzz: ${runs} case(s) from seed ${start}, ${failed.length} failed${failed.length ? ` (re-run one: npm run fuzz -- --seed <seed> --pool ${POOL})` : ''}\n`,
      );
      // The reports were printed above as they came; the assertion names the seeds only.
      expect(
        failed.map((f) => f.slice(0, f.indexOf(':'))),
        'failing cases (reports above)',
      ).toEqual([]);
    },
    Math.max(60_000, runs * 3_000),
  );
});

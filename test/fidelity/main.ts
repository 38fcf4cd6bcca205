// `npm run fidelity -- [--mode strict|controllers] [--scenarios N] [--first-seed S | --seeds A,B,…] [--batch B] [--seed
// S] [--save DIR]`: the differential check of the
// simulation against the real garbage collector on generated scenarios (docs/fidelity.md). Without --first-seed the
// seeds are fresh (random); each divergence is printed with the one command that replays it. `--seed S` runs that
// one scenario and prints it whole: the world as read back, the requests, the simulation's steps and the differences.
// `--save DIR` writes each divergent scenario's world as a List there, for `kubectl-gc simulate -f` without a cluster.
// A report: exit 0 when nothing diverged, 1 when something did, 2 on an error.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_PLANE_SKIP, startControlPlane } from '../../testkit/cluster/controlPlane';
import { clusterWriter } from '../../testkit/cluster/seedCluster';
import { ORACLE_CONTROLLERS, prepareControlPlane, runSeeds } from './runScenario';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

const MODES = {
  strict: {
    controllers: 'garbage-collector-controller',
    simulation: 'gc',
    describe: 'strict mode (garbage-collector-controller only; simulation: gc)',
  },
  controllers: {
    controllers: ORACLE_CONTROLLERS,
    simulation: ORACLE_CONTROLLERS,
    describe: `controllers mode (${ORACLE_CONTROLLERS}, in both)`,
  },
};

async function main(): Promise<number> {
  if (CONTROL_PLANE_SKIP) {
    process.stderr.write(`fidelity: ${CONTROL_PLANE_SKIP}\n`);
    return 2;
  }
  const one = option('seed');
  const listed = option('seeds')?.split(',').map(Number);
  const saveDir = option('save');
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  const scenarios = one !== undefined ? 1 : Number(option('scenarios') ?? 10_000);
  const firstSeed = one !== undefined ? Number(one) : Number(option('first-seed') ?? Math.floor(Math.random() * 1e9));
  const mode = option('mode') ?? 'strict';
  if (!(mode in MODES)) throw new Error(`--mode is strict or controllers, not ${mode}`);
  const { controllers, simulation, describe } = MODES[mode as keyof typeof MODES];
  const plane = await startControlPlane({ controllers });
  try {
    const writer = clusterWriter(plane.kubeconfig);
    const resources = await prepareControlPlane(writer);
    const started = Date.now();
    const seeds = listed ?? Array.from({ length: scenarios }, (_, i) => firstSeed + i);
    const outcomes = await runSeeds(seeds, {
      writer,
      resources,
      controllers: simulation,
      verbose: one !== undefined,
      batchSize: Number(option('batch') ?? 200),
      onOutcome(outcome) {
        if (outcome.differences.length > 0 && saveDir) {
          const file = join(saveDir, `fidelity-${outcome.scenario.seed}.json`);
          writeFileSync(file, `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: outcome.world }, null, 2)}\n`);
          const targets = outcome.scenario.requests.map(
            (r) => `${r.kind}/${r.name}${r.namespace ? ` -n ${r.namespace}` : ''} (${r.propagationPolicy ?? 'no policy'})`,
          );
          console.log(`seed ${outcome.scenario.seed}: the world is in ${file}; requests: ${targets.join(', ')}`);
        }
        if (outcome.differences.length > 0 || outcome.refused.length > 0) {
          console.log(
            `seed ${outcome.scenario.seed}: ${[...outcome.refused.map((r) => `refused ${r}`), ...outcome.differences].join('\n  ')}\n  replay: npm run fidelity -- --seed ${outcome.scenario.seed}`,
          );
        }
      },
    });
    const seconds = (Date.now() - started) / 1000;
    const divergent = outcomes.filter((o) => o.differences.length > 0).length;
    const byOrder = outcomes.filter((o) => o.race === 'order').length;
    const declared = outcomes.filter((o) => o.race === 'declared');
    const late = outcomes.filter((o) => o.settledLateSeconds !== undefined);
    const range = listed ? `seeds ${listed.join(',')}` : `seeds ${firstSeed}–${firstSeed + scenarios - 1}`;
    console.log(
      `\n${outcomes.length} scenarios (${range}) in ${seconds.toFixed(1)} s: ${(outcomes.length / seconds).toFixed(1)} scenarios/s; ` +
        `${divergent} divergent; races: ${byOrder} matched in another order, ${declared.length} declared timing-dependent by the simulation` +
        `${declared.length ? ` (seeds ${declared.map((o) => o.scenario.seed).join(',')})` : ''}; ` +
        `${late.length} settled late, after a GC retry's backoff${late.length ? ` (${late.map((o) => `seed ${o.scenario.seed} after ${o.settledLateSeconds} s`).join(', ')})` : ''}; ${describe}`,
    );
    return divergent > 0 ? 1 : 0;
  } finally {
    await plane.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fidelity: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);

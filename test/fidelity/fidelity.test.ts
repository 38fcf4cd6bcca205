// The simulation against the real garbage collector on generated scenarios (issue 15; docs/fidelity.md), on fixed
// seeds so that CI is reproducible (`npm run fidelity` runs fresh ones). Two modes, each on its own control plane:
// strict (only the garbage collector runs; the simulation's `gc`) and controllers (the control plane's default
// controllers; the simulation with the same kube-controller-manager list). A failure lists each divergent seed;
// `npm run fidelity -- --mode M --seed N` replays one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane } from '../../testkit/cluster/controlPlane';
import { clusterWriter, type ClusterWriter, type Resource } from '../../testkit/cluster/seedCluster';
import { ORACLE_CONTROLLERS, prepareControlPlane, runSeeds } from './runScenario';

if (CONTROL_PLANE_SKIP) console.warn(`test/fidelity/fidelity.test.ts ${CONTROL_PLANE_SKIP}`);

const MODES = [
  {
    mode: 'strict',
    plane: 'garbage-collector-controller',
    simulation: 'gc',
    firstSeed: 1,
    scenarios: Number(process.env.FIDELITY_STRICT ?? 1000),
  },
  {
    mode: 'controllers',
    plane: ORACLE_CONTROLLERS,
    simulation: ORACLE_CONTROLLERS,
    firstSeed: 100_001,
    scenarios: Number(process.env.FIDELITY_CONTROLLERS ?? 400),
  },
];

for (const { mode, plane: controllers, simulation, firstSeed, scenarios } of MODES) {
  describe.skipIf(CONTROL_PLANE_SKIP !== undefined)(`the simulation against the real garbage collector (${mode} mode)`, () => {
    let plane: ControlPlane;
    let writer: ClusterWriter;
    let resources: Map<string, Resource>;

    beforeAll(async () => {
      plane = await startControlPlane({ controllers });
      writer = clusterWriter(plane.kubeconfig);
      resources = await prepareControlPlane(writer);
    }, 900_000);

    afterAll(async () => {
      await plane?.stop();
    });

    it(`${scenarios} scenarios from seed ${firstSeed}: no divergence`, async () => {
      const seeds = Array.from({ length: scenarios }, (_, i) => firstSeed + i);
      const outcomes = await runSeeds(seeds, { writer, resources, controllers: simulation });
      const refused = outcomes.flatMap((o) => o.refused.map((r) => `seed ${o.scenario.seed}: ${r}`));
      const divergent = outcomes.filter((o) => o.differences.length > 0).sort((a, b) => a.scenario.seed - b.scenario.seed);
      const report = divergent.map(
        (o) =>
          `seed ${o.scenario.seed} (${o.scenario.requests.map((r) => `DELETE ${r.kind} ${r.name} ${r.propagationPolicy ?? 'default'}`).join(', ')}):\n  ${o.differences.join('\n  ')}`,
      );
      expect(outcomes).toHaveLength(scenarios);
      expect(refused).toEqual([]);
      expect(report).toEqual([]);
    }, 3_600_000);
  });
}

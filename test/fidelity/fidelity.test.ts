// The simulation against the real garbage collector on generated scenarios (issue 15; docs/fidelity.md). A fixed
// set of seeds, so that CI is reproducible; `npm run fidelity` runs fresh ones. Each divergence prints the seed that
// replays it. Strict mode: the control plane runs only the garbage collector, the simulation `gc` mode.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane } from '../helpers/controlPlane';
import { clusterWriter, type ClusterWriter, type Resource } from '../helpers/seedCluster';
import { prepareControlPlane, runSeeds } from './runScenario';

const SCENARIOS = Number(process.env.FIDELITY_SCENARIOS ?? 40);
const FIRST_SEED = Number(process.env.FIDELITY_FIRST_SEED ?? 1);
if (CONTROL_PLANE_SKIP) console.warn(`test/fidelity/fidelity.test.ts ${CONTROL_PLANE_SKIP}`);

let plane: ControlPlane;
let writer: ClusterWriter;
let resources: Map<string, Resource>;

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the simulation against the real garbage collector (strict mode)', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ controllers: 'garbage-collector-controller' });
    writer = clusterWriter(plane.kubeconfig);
    resources = await prepareControlPlane(writer);
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
  });

  it(`${SCENARIOS} scenarios from seed ${FIRST_SEED}: no divergence`, async () => {
    const outcomes = await runSeeds(Array.from({ length: SCENARIOS }, (_, i) => FIRST_SEED + i), { writer, resources, controllers: 'gc' });
    const refused = outcomes.flatMap((o) => o.refused.map((r) => `seed ${o.scenario.seed}: ${r}`));
    const divergent = outcomes.filter((o) => o.differences.length > 0).sort((a, b) => a.scenario.seed - b.scenario.seed);
    const report = divergent.map((o) => `seed ${o.scenario.seed} (${o.scenario.requests.map((r) => `DELETE ${r.kind} ${r.name} ${r.propagationPolicy ?? 'default'}`).join(', ')}):\n  ${o.differences.join('\n  ')}`);
    expect(refused).toEqual([]);
    expect(report).toEqual([]);
  }, 3_600_000);
});

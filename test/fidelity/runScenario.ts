// Scenarios against the real control plane and the simulation (issue 15), in batches run in lockstep (runBatch):
//  1. the world is created through the API, owners first, with real uids (testkit/cluster/seedCluster.ts);
//  2. when the cluster is quiet, it is read back as `kubectl get -o json` would give it: the product's input;
//  3. the simulation runs on that input with the same DELETE requests;
//  4. the same requests go to the real apiserver, each after the cluster is quiet again (R53.4);
//  5. the objects deleted, and for the rest their finalizers (in order), ownerReferences (blockOwnerDeletion
//     included) and whether they are terminating, are compared.
// A difference is returned, never thrown: the caller collects them with the seed that replays them.

import { buildInventory } from '../../server/src/engine/inventory';
import { simulate } from '../../server/src/engine/simulation/simulate';
import type { ControllersMode, DeleteRequest, SimulationResult } from '../../server/src/engine/simulation/types';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import {
  type ClusterWriter,
  discoverResources,
  inParallel,
  type Manifest,
  type Resource,
  resourcePath,
  seedCluster,
} from '../../testkit/cluster/seedCluster';
import { prng } from '../sources/helpers';
import { FIDELITY_GROUP, fidelityCrds, generateScenario, SCENARIO_LABEL, type Scenario } from './generateScenario';

/** The control plane's default controllers (scripts/controlPlane.mjs), in kube-controller-manager's spelling. */
export const ORACLE_CONTROLLERS =
  'garbage-collector-controller,namespace-controller,persistentvolumeclaim-protection-controller,' +
  'persistentvolume-protection-controller,persistentvolume-binder-controller';

/** Marks every object of one batch of scenarios, which run in lockstep. */
const BATCH_LABEL = `${FIDELITY_GROUP}/batch`;

export interface RunOptions {
  writer: ClusterWriter;
  /** discoverResources() of the control plane, the fidelity CRDs installed. */
  resources: Map<string, Resource>;
  /** The simulation's controllers, matching those the control plane runs. */
  controllers: ControllersMode;
  /** How long nothing must change for the cluster to count as quiet (ms). */
  quietMs?: number;
  /** Print the world, the requests, the simulation's steps and the end state (one scenario replayed). */
  verbose?: boolean;
  /** How long to keep reading a scenario whose end state differs, for a GC retry after its backoff (ms). */
  lateSettleMs?: number;
}

export interface ScenarioOutcome {
  scenario: Scenario;
  /** Objects the apiserver refused at creation (a generator bug unless the refusal is the point). */
  refused: string[];
  differences: string[];
  /** The world as read back: the simulation's input (`kubectl-gc simulate -f` reads it saved as a List). */
  world: Manifest[];
  /**
   * A race, not a divergence (docs/fidelity.md): `order` when Kubernetes' outcome is the simulation's with the world
   * in another order; `declared` when it is not, but the simulation's notes say the outcome is timing-dependent
   * (the differences are then in `declared`).
   */
  race?: 'order' | 'declared';
  declared?: string[];
  /** Kubernetes reached the simulation's end state only this long after the quiet period (a GC retry's backoff). */
  settledLateSeconds?: number;
}

/** Kinds a scenario can hold (those of generateScenario), listed across namespaces by the scenario's label. */
const LISTED = [
  'v1/Namespace',
  'v1/ConfigMap',
  'v1/Secret',
  'v1/Service',
  'apps/v1/Deployment',
  'apps/v1/ReplicaSet',
  'batch/v1/Job',
  'v1/ReplicationController',
  'v1/Pod',
  'v1/PersistentVolumeClaim',
  'v1/PersistentVolume',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'fidelity.kube-gc-lens.test/v1/Widget',
  'fidelity.kube-gc-lens.test/v1/Gadget',
];

/** Every object a label selector matches, as the server has it now (kind and apiVersion filled in, as kubectl does). */
async function readWorld(options: RunOptions, selector: string): Promise<Manifest[]> {
  const lists = await Promise.all(
    LISTED.map(async (key) => {
      const apiVersion = key.slice(0, key.lastIndexOf('/'));
      const kind = key.slice(key.lastIndexOf('/') + 1);
      const resource = options.resources.get(key);
      if (!resource) throw new Error(`the control plane does not serve ${key}`);
      const path = `${resourcePath({ ...resource, namespaced: false }, apiVersion, undefined)}?labelSelector=${encodeURIComponent(selector)}`;
      const r = await options.writer.request('GET', path);
      if (r.status !== 200) throw new Error(`LIST ${path}: ${r.status} ${r.body.message ?? ''}`);
      return (r.body.items as Manifest[]).map((o) => ({ ...o, apiVersion, kind }));
    }),
  );
  return lists.flat();
}

const signature = (world: Manifest[]) =>
  world
    .map((o) => `${o.metadata.uid}@${o.metadata.resourceVersion}`)
    .sort()
    .join(',');

/** Waits until the objects a selector matches have not changed for quietMs (bounded: 120 s of polling). */
async function quiet(options: RunOptions, selector: string): Promise<Manifest[]> {
  const quietMs = options.quietMs ?? 2500;
  const poll = 250;
  let last = '';
  let stableFor = 0;
  for (let waited = 0; waited < 120_000; waited += poll) {
    const world = await readWorld(options, selector);
    const sig = signature(world);
    if (sig === last) {
      stableFor += poll;
      if (stableFor >= quietMs) return world;
    } else {
      last = sig;
      stableFor = 0;
    }
    await new Promise((r) => setTimeout(r, poll));
  }
  throw new Error(`the objects of ${selector} never became quiet`);
}

const FIDELITY_CRDS = fidelityCrds().map((crd, i) => ({ ...crd, metadata: { ...crd.metadata, uid: `fidelity-crd-${i}` } }));

/** The simulation on the world as read back: a kubectl-style List, through the product's own loader. */
export function simulateWorld(world: Manifest[], requests: DeleteRequest[], controllers: ControllersMode): SimulationResult {
  // The CRDs come too, as discovery tells the live path: a Widget reference whose object the GC has just deleted is
  // then dangling, not an unknown kind's (seed 685, read back between the GC's deletion and its patch).
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...FIDELITY_CRDS, ...world] });
  const parsed = parseManifestText(text, 'fidelity-world.json');
  return simulate(buildInventory(parsed.objects), requests, { controllers });
}

const refKey = (r: Manifest) =>
  `${r.apiVersion} ${r.kind} ${r.name} ${r.uid} controller=${r.controller === true} block=${r.blockOwnerDeletion === true}`;
const describeObject = (o: { kind: string; namespace?: string; name: string }) =>
  `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** What differs between the real end state and the simulation's (empty when they agree). */
export function compareOutcome(start: Manifest[], end: Manifest[], result: SimulationResult): string[] {
  const differences: string[] = [];
  const endByUid = new Map(end.map((o) => [o.metadata.uid as string, o]));
  const simRemaining = new Map(result.remaining.map((r) => [r.uid, r]));
  for (const o of start) {
    const uid = o.metadata.uid as string;
    const what = describeObject({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name });
    const real = endByUid.get(uid);
    const sim = simRemaining.get(uid);
    if (!real && sim) differences.push(`${what}: deleted by Kubernetes, kept by the simulation`);
    if (real && !sim) differences.push(`${what}: kept by Kubernetes, deleted by the simulation`);
    if (!real || !sim) continue;
    const realFinalizers = (real.metadata.finalizers ?? []) as string[];
    if (realFinalizers.join(',') !== sim.finalizers.join(',')) {
      differences.push(
        `${what}: finalizers [${realFinalizers.join(', ')}] in Kubernetes, [${sim.finalizers.join(', ')}] in the simulation`,
      );
    }
    const realTerminating = real.metadata.deletionTimestamp !== undefined;
    if (realTerminating !== sim.beingDeleted) {
      differences.push(
        `${what}: ${realTerminating ? 'terminating' : 'not terminating'} in Kubernetes, ${sim.beingDeleted ? 'terminating' : 'not terminating'} in the simulation`,
      );
    }
    const realRefs = ((real.metadata.ownerReferences ?? []) as Manifest[]).map(refKey);
    const simRefs = sim.ownerReferences.map((r) => refKey(r as unknown as Manifest));
    if (realRefs.join('\n') !== simRefs.join('\n')) {
      differences.push(
        `${what}: ownerReferences\n    Kubernetes: ${realRefs.join('; ') || '(none)'}\n    simulation: ${simRefs.join('; ') || '(none)'}`,
      );
    }
  }
  return differences;
}

/** Sends one DELETE as a client would (no body field for a request that names no policy). */
async function sendDelete(options: RunOptions, request: DeleteRequest): Promise<void> {
  const resource = options.resources.get(`${request.apiVersion}/${request.kind}`);
  if (!resource) throw new Error(`the control plane does not serve ${request.apiVersion} ${request.kind}`);
  const body: Manifest = { apiVersion: 'v1', kind: 'DeleteOptions' };
  if (request.propagationPolicy) body.propagationPolicy = request.propagationPolicy;
  await options.writer.request('DELETE', resourcePath(resource, request.apiVersion, request.namespace || undefined, request.name), body);
}

/**
 * Runs scenarios in lockstep, so that one poll watches them all: all worlds are created, the cluster is left to
 * settle, every world is read back and simulated, then each round sends every scenario's next request and lets the
 * cluster settle again. Each scenario still sees each request after quiescence (R53.4), as the simulation does.
 */
export async function runBatch(batch: string, scenarios: Scenario[], options: RunOptions): Promise<ScenarioOutcome[]> {
  const selector = `${BATCH_LABEL}=${batch}`;
  const manifests = scenarios.flatMap((sc) =>
    sc.objects.map((o) => ({ ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, [BATCH_LABEL]: batch } } })),
  );
  const seeded = await seedCluster(options.writer, manifests, { concurrency: 24, resources: options.resources, writeStatus: true });
  // A 404 after creation (a cycle's PATCH, making it terminating): the GC collected the object first, as it may.
  const refused = seeded.failures.filter((f) => !(f.status === 404 && f.created));
  const byScenario = (world: Manifest[]) => {
    const out = new Map<string, Manifest[]>(scenarios.map((sc) => [sc.id, []]));
    for (const o of world) out.get(o.metadata.labels?.[SCENARIO_LABEL])?.push(o);
    return out;
  };
  const start = byScenario(await quiet(options, selector));
  const simulate = (sc: Scenario, world: Manifest[]) =>
    simulateWorld(
      world,
      sc.requests.map((r) => ({ ...r })),
      options.controllers,
    );
  const simulated = new Map(scenarios.map((sc) => [sc.id, simulate(sc, start.get(sc.id)!)]));
  let end = start;
  const rounds = Math.max(0, ...scenarios.map((sc) => sc.requests.length));
  for (let round = 0; round < rounds; round++) {
    const sends = scenarios.filter((sc) => sc.requests.length > round);
    await inParallel(sends, 24, (sc) => sendDelete(options, sc.requests[round]));
    end = byScenario(await quiet(options, selector));
  }
  const judged = scenarios.map((scenario) => {
    const result = simulated.get(scenario.id)!;
    const world = start.get(scenario.id)!;
    if (options.verbose) printScenario(world, scenario.requests, result, end.get(scenario.id)!);
    const judgement: Judgement & { settledLateSeconds?: number } = judge(scenario, world, end.get(scenario.id)!, result, options);
    return { scenario, world, result, ...judgement };
  });
  await awaitLateSettling(judged, options, selector, byScenario);
  return judged.map(({ scenario, world, differences, race, declared, settledLateSeconds }) => {
    const prefix = `${scenario.id}-`;
    const own = refused.filter((f) => f.object.includes(` ${prefix}`) || f.object.includes(`/${prefix}`));
    return {
      scenario,
      refused: own.map((f) => `${f.object}: ${f.status} ${f.message}`),
      differences,
      world,
      ...(race ? { race, declared } : {}),
      ...(settledLateSeconds !== undefined ? { settledLateSeconds } : {}),
    };
  });
}

type Judgement = Pick<ScenarioOutcome, 'differences' | 'race' | 'declared'>;

/** How many other input orders a difference is simulated in before it is called a divergence. */
const ORDERS_TRIED = 8;

/** A copy of `items` in a random order (Fisher–Yates) from `random`. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Kubernetes' end state against the simulation's: the differences, or the race that excuses them. */
function judge(scenario: Scenario, world: Manifest[], end: Manifest[], result: SimulationResult, options: RunOptions): Judgement {
  if (result.aborted) return { differences: [`the simulation aborted: ${result.aborted}`] };
  const differences = compareOutcome(world, end, result);
  if (differences.length === 0) return { differences };
  // The real GC's 20 workers and Go's map order make some outcomes a race (docs/fidelity.md, "Races"); the
  // simulation's queue follows input order instead. Another order of the same world is another interleaving:
  // an outcome it gives is one the real GC can give. The reverse order, then a few shuffles seeded by the scenario.
  const shuffle = prng(scenario.seed ^ 0x0dde5eed);
  const orders = [[...world].reverse(), ...Array.from({ length: ORDERS_TRIED - 1 }, () => shuffled(world, shuffle))];
  for (const order of orders) {
    const other = simulateWorld(
      order,
      scenario.requests.map((r) => ({ ...r })),
      options.controllers,
    );
    if (!other.aborted && compareOutcome(world, end, other).length === 0) return { differences: [], race: 'order' };
  }
  // Where the simulation itself says the outcome is timing-dependent (R51, R70, …), a difference within the race's
  // reach is kept for the report but is not a divergence; objects outside it must still agree.
  const reach = raceReach(world, result.notes);
  if (
    reach.size > 0 &&
    compareOutcome(
      world.filter((o) => !reach.has(o.metadata.uid)),
      end,
      result,
    ).length === 0
  ) {
    return { differences: [], race: 'declared', declared: differences };
  }
  return { differences };
}

/**
 * The GC retries an item that failed (an owner whose kind nothing serves, R46) with a per-item exponential backoff
 * that, after a world has stood for a while, is longer than the quiet period: a retry that now succeeds (the
 * unservable reference was orphaned away) comes seconds or minutes later. So where the end states differ, the
 * runner keeps reading those scenarios, up to `lateSettleMs` (default 3 min: the next retry comes at most as long after as
 * the item has been failing, and a batch of 200 lasts about 2.5 minutes), before it calls a divergence.
 */
async function awaitLateSettling(
  judged: (Judgement & { scenario: Scenario; world: Manifest[]; result: SimulationResult; settledLateSeconds?: number })[],
  options: RunOptions,
  selector: string,
  byScenario: (world: Manifest[]) => Map<string, Manifest[]>,
): Promise<void> {
  const started = Date.now();
  const limit = options.lateSettleMs ?? 180_000;
  let open = judged.filter((j) => j.differences.length > 0);
  while (open.length > 0 && Date.now() - started < limit) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = byScenario(await readWorld(options, selector));
    for (const j of open) {
      const again = judge(j.scenario, j.world, now.get(j.scenario.id)!, j.result, options);
      if (again.differences.length === 0) Object.assign(j, again, { settledLateSeconds: Math.round((Date.now() - started) / 1000) });
    }
    open = open.filter((j) => j.differences.length > 0);
  }
}

/**
 * The uids a timing-dependent note can change the fate of: the objects the notes name and everything connected to
 * them by ownerReferences, either way (a raced dependent's own dependents, the owner waiting for it).
 */
export function raceReach(world: Manifest[], notes: readonly string[]): Set<string> {
  const racy = notes.filter((n) => n.startsWith('Timing-dependent'));
  const named = (o: Manifest) => {
    const m = o.metadata;
    const forms = [`${o.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name}`, `${o.kind} ${m.name}`];
    return racy.some((n) =>
      forms.some((f) => new RegExp(`(^|[^A-Za-z0-9-])${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![A-Za-z0-9-])`).test(n)),
    );
  };
  const neighbours = new Map<string, string[]>();
  const link = (a: string, b: string) => (neighbours.get(a) ?? neighbours.set(a, []).get(a)!).push(b);
  for (const o of world) {
    for (const r of (o.metadata.ownerReferences ?? []) as Manifest[]) {
      link(o.metadata.uid, r.uid);
      link(r.uid, o.metadata.uid);
    }
  }
  const reach = new Set<string>();
  const queue = world.filter(named).map((o) => o.metadata.uid as string);
  while (queue.length > 0) {
    const uid = queue.pop()!;
    if (reach.has(uid)) continue;
    reach.add(uid);
    queue.push(...(neighbours.get(uid) ?? []));
  }
  return reach;
}

/** The scenarios of `seeds` in batches of batchSize (default 200), one batch after the other. */
export async function runSeeds(
  seeds: number[],
  options: RunOptions & {
    batchSize?: number;
    onOutcome?: (outcome: ScenarioOutcome) => void;
  },
): Promise<ScenarioOutcome[]> {
  const batchSize = options.batchSize ?? 200;
  const outcomes: ScenarioOutcome[] = [];
  for (let i = 0; i < seeds.length; i += batchSize) {
    const scenarios = seeds.slice(i, i + batchSize).map((seed) => generateScenario(seed));
    for (const outcome of await runBatch(`b${seeds[i]}`, scenarios, options)) {
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  }
  return outcomes;
}

/** The whole story of one scenario, for a person replaying a divergence. */
function printScenario(start: Manifest[], requests: readonly DeleteRequest[], result: SimulationResult, end: Manifest[]): void {
  const line = (o: Manifest) => {
    const m = o.metadata;
    const refs = (m.ownerReferences ?? []).map(
      (r: Manifest) => `${r.kind}/${r.name}${r.controller ? ' controller' : ''}${r.blockOwnerDeletion ? ' block' : ''} ${r.uid}`,
    );
    return (
      `  ${o.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name} ${m.uid}${m.deletionTimestamp ? ' TERMINATING' : ''}` +
      `${m.finalizers?.length ? ` finalizers=[${m.finalizers.join(',')}]` : ''}${refs.length ? `\n      owners: ${refs.join('; ')}` : ''}`
    );
  };
  console.log(`World as read back:\n${start.map(line).join('\n')}`);
  console.log(
    `Requests:\n${requests.map((r) => `  DELETE ${r.apiVersion} ${r.kind} ${r.namespace}/${r.name} ${r.propagationPolicy ?? '(no policy)'}`).join('\n')}`,
  );
  console.log(
    `Simulation steps:\n${result.steps.map((s) => `  ${s.step}. ${s.actor} ${s.action} ${s.target.kind} ${s.target.name}: ${s.detail}`).join('\n')}`,
  );
  console.log(`Kubernetes at the end:\n${end.map(line).join('\n')}`);
}

/**
 * Installs the fidelity CRDs and waits until the garbage collector watches their kinds: it starts monitors for new
 * resources only at its next discovery resync (every 30 s), and until then ignores their objects. A probe of each
 * kind with a dangling owner is collected once it does. Returns the control plane's resources.
 */
export async function prepareControlPlane(writer: ClusterWriter): Promise<Map<string, Resource>> {
  const crds = await seedCluster(writer, fidelityCrds());
  if (crds.failures.length > 0) throw new Error(`installing the fidelity CRDs: ${JSON.stringify(crds.failures)}`);
  const resources = await discoverResources(writer);
  // A cluster-scoped owner: a namespaced one would make the Gadget's reference invalid, never collected (R45).
  const dangling = [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'never-there', uid: '00000000-0000-4000-8000-0000000000aa' },
  ];
  const probes = [
    { apiVersion: `${FIDELITY_GROUP}/v1`, kind: 'Widget', metadata: { name: 'gc-probe', namespace: 'default', ownerReferences: dangling } },
    { apiVersion: `${FIDELITY_GROUP}/v1`, kind: 'Gadget', metadata: { name: 'gc-probe', ownerReferences: dangling } },
  ];
  const seeded = await seedCluster(writer, probes, { resources });
  if (seeded.failures.length > 0) throw new Error(`creating the GC probes: ${JSON.stringify(seeded.failures)}`);
  for (const probe of probes) {
    const path = resourcePath(resources.get(`${probe.apiVersion}/${probe.kind}`)!, probe.apiVersion, probe.metadata.namespace, 'gc-probe');
    let gone = false;
    for (let i = 0; i < 400 && !gone; i++) {
      // up to two resync periods
      gone = (await writer.request('GET', path)).status === 404;
      if (!gone) await new Promise((r) => setTimeout(r, 250));
    }
    if (!gone) throw new Error(`the garbage collector never collected the ${probe.kind} probe: it does not watch the fidelity CRDs`);
  }
  return resources;
}

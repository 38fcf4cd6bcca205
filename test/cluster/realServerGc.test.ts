// The garbage collector's own answers on the real control plane (only garbage-collector-controller runs, so the
// simulation's strict mode, --controllers=gc, is the same world), compared with `kubectl-gc simulate` reading the
// same cluster: R36's cycle-breaker retry (and R70, the race it runs) and R63's back-to-back requests (R71). One control
// plane for the file; each scenario in its own namespace, created by testkit/cluster/seedCluster.ts with real uids.
// Where the real GC races itself (R70), every copy's outcome must be one the rule names, and the simulation's
// must be the one it picks; how often each came is printed, never asserted.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, KUBECTL, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { type ClusterWriter, clusterWriter, HOLD_FINALIZER, type Manifest, seedCluster } from '../../testkit/cluster/seedCluster';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerGc.test.ts ${CONTROL_PLANE_SKIP}`);

let plane: ControlPlane;
let writer: ClusterWriter;
const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-gc-'));

interface Simulated {
  deleted: { kind: string; name: string }[];
  remaining: {
    kind: string;
    namespace: string;
    name: string;
    finalizers: string[];
    beingDeleted: boolean;
    ownerReferences: { name: string; blockOwnerDeletion?: boolean }[];
  }[];
  notes: string[];
}

/** `kubectl-gc simulate` on the live cluster (strict: the control plane runs the GC alone). */
function simulateLive(namespace: string, args: string[]): Simulated {
  const r = spawnSync(
    process.execPath,
    [CLI, 'simulate', ...args, '-n', namespace, '--controllers=gc', '-o', 'json', '--kubeconfig', plane.kubeconfig],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  if (r.status !== 0) throw new Error(`kubectl-gc simulate: ${r.stderr}`);
  return JSON.parse(r.stdout) as Simulated;
}

/** An object's end state as the comparison sees it: `kind/name Terminating? [finalizers] <- owner(blocking?)…`. */
const stateLine = (
  kind: string,
  name: string,
  terminating: boolean,
  finalizers: string[],
  owners: { name: string; blockOwnerDeletion?: boolean }[],
) =>
  `${kind}/${name}${terminating ? ' Terminating' : ''} [${finalizers.join(',')}]${owners.map((o) => ` <- ${o.name}${o.blockOwnerDeletion ? '(blocking)' : ''}`).join('')}`;

const KINDS = 'configmaps,deployments.apps,replicasets.apps,pods';

/** The objects of KINDS in each of the namespaces, as the server has them now. */
function realStates(namespaces: string[]): Map<string, string[]> {
  const list = JSON.parse(plane.kubectl(['get', KINDS, '-A', '-o', 'json'])) as { items: Manifest[] };
  const out = new Map(namespaces.map((ns) => [ns, [] as string[]]));
  for (const o of list.items) {
    if (o.metadata.name === 'kube-root-ca.crt') continue;
    out
      .get(o.metadata.namespace)
      ?.push(
        stateLine(
          o.kind,
          o.metadata.name,
          o.metadata.deletionTimestamp !== undefined,
          o.metadata.finalizers ?? [],
          o.metadata.ownerReferences ?? [],
        ),
      );
  }
  for (const lines of out.values()) lines.sort();
  return out;
}

function simulatedState(sim: Simulated, namespace: string): string[] {
  return sim.remaining
    .filter(
      (o) =>
        o.namespace === namespace && ['ConfigMap', 'Deployment', 'ReplicaSet', 'Pod'].includes(o.kind) && o.name !== 'kube-root-ca.crt',
    )
    .map((o) => stateLine(o.kind, o.name, o.beingDeleted, o.finalizers, o.ownerReferences))
    .sort();
}

/** Waits until nothing in the namespaces has changed for 20 reads in a row (seconds; the GC's first retries are milliseconds apart). */
async function quiet(...namespaces: string[]): Promise<Map<string, string[]>> {
  let last = '';
  let same = 0;
  let states = new Map<string, string[]>();
  await until(
    `namespaces ${namespaces.join(', ')} to stop changing`,
    () => {
      states = realStates(namespaces);
      const now = JSON.stringify([...states]);
      same = now === last ? same + 1 : 0;
      last = now;
      return same >= 20;
    },
    600,
  );
  return states;
}

/** The ConfigMaps' watch events in the namespace (`ADDED a`, `DELETED b`), from a kubectl watch started now. */
function watchConfigMaps(namespace: string): { events: () => string[]; stop: () => Promise<void> } {
  const child = spawn(
    KUBECTL,
    [
      '--kubeconfig',
      plane.kubeconfig,
      'get',
      'configmaps',
      '-n',
      namespace,
      '-w',
      '--output-watch-events',
      '-o',
      'jsonpath={.type} {.object.metadata.name}{"\\n"}',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return {
    events: () => out.split('\n').filter(Boolean),
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const cm = (namespace: string, name: string, extra: { owner?: string; finalizers?: string[] } = {}): Manifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace,
    uid: `${namespace}-${name}`,
    ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    ...(extra.owner
      ? {
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: extra.owner, uid: `${namespace}-${extra.owner}`, blockOwnerDeletion: true },
          ],
        }
      : {}),
  },
});

async function seed(manifests: Manifest[]): Promise<void> {
  const r = await seedCluster(writer, manifests);
  expect(r.failures).toEqual([]);
}

/** How often each outcome came, for the log (races are reported, not asserted). */
function tally(outcomes: string[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  return [...counts].map(([o, n]) => `${n}× ${o}`).join('; ');
}

const COPIES = 6;

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the real garbage collector against the simulation (strict mode)', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ controllers: 'garbage-collector-controller' });
    writer = clusterWriter(plane.kubeconfig);
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('R36/R70 foreground-chain-meets-deleting-dependents: a ← b ← c ← d, c already waiting for d (held); deleting a in the foreground leaves b Terminating (or, when the owner wins the race, removes it)', async () => {
    const namespaces = Array.from({ length: COPIES }, (_, i) => `r36-chain-${i}`);
    await seed(
      namespaces.flatMap((ns) => [
        cm(ns, 'a'),
        cm(ns, 'b', { owner: 'a' }),
        cm(ns, 'c', { owner: 'b' }),
        cm(ns, 'd', { owner: 'c', finalizers: [HOLD_FINALIZER] }),
      ]),
    );
    for (const ns of namespaces) plane.kubectl(['delete', 'configmap', 'c', '-n', ns, '--cascade=foreground', '--wait=false']);
    for (const state of (await quiet(...namespaces)).values()) {
      expect(state).toEqual([
        `ConfigMap/a []`,
        `ConfigMap/b [] <- a(blocking)`,
        `ConfigMap/c Terminating [foregroundDeletion] <- b(blocking)`,
        `ConfigMap/d Terminating [${HOLD_FINALIZER}] <- c(blocking)`,
      ]);
    }
    const sims = namespaces.map((ns) => simulateLive(ns, ['configmap/a', '--cascade=foreground']));
    for (const ns of namespaces) plane.kubectl(['delete', 'configmap', 'a', '-n', ns, '--cascade=foreground', '--wait=false']);
    const retryFirst = [
      'ConfigMap/b Terminating [foregroundDeletion] <- a',
      'ConfigMap/c Terminating [foregroundDeletion] <- b(blocking)',
      `ConfigMap/d Terminating [${HOLD_FINALIZER}] <- c(blocking)`,
    ];
    const ownerFirst = retryFirst.slice(1); // b seen with its owner gone: deleted Background (R35 iii)
    const outcomes: string[] = [];
    const ends = await quiet(...namespaces);
    for (const [i, ns] of namespaces.entries()) {
      const real = ends.get(ns)!;
      expect([retryFirst, ownerFirst]).toContainEqual(real);
      outcomes.push(real.length === 3 ? 'b Terminating' : 'b removed');
      expect(simulatedState(sims[i], ns)).toEqual(retryFirst);
      expect(sims[i].deleted.map((d) => `${d.kind}/${d.name}`)).toEqual(['ConfigMap/a']);
      expect(sims[i].notes.join('\n')).toMatch(
        /^Timing-dependent: the GC's \w+ DELETE of .* conflicted with its own change of its ownerReferences; .* the owner's worker races that retry/m,
      );
    }
    console.log(`R36/R70 chain on the real GC: ${tally(outcomes)}`);
  }, 300_000);

  it('R36/R70 three-object-cycle-foreground: a → b → c → a (all blocking), a deleted in the foreground: all three go, b first, then a and c in the order the race gives', async () => {
    const namespaces = Array.from({ length: COPIES }, (_, i) => `r36-cycle-${i}`);
    await seed(namespaces.flatMap((ns) => [cm(ns, 'a', { owner: 'c' }), cm(ns, 'b', { owner: 'a' }), cm(ns, 'c', { owner: 'b' })]));
    for (const state of (await quiet(...namespaces)).values()) {
      expect(state).toEqual(['ConfigMap/a [] <- c(blocking)', 'ConfigMap/b [] <- a(blocking)', 'ConfigMap/c [] <- b(blocking)']);
    }
    const outcomes: string[] = [];
    for (const ns of namespaces) {
      const sim = simulateLive(ns, ['configmap/a', '--cascade=foreground']);
      expect(sim.deleted.map((d) => d.name)).toEqual(['b', 'a', 'c']);
      expect(simulatedState(sim, ns)).toEqual([]);
      const watch = watchConfigMaps(ns);
      await until('the watch to list the three ConfigMaps', () => watch.events().filter((e) => e.startsWith('ADDED ')).length === 3);
      plane.kubectl(['delete', 'configmap', 'a', '-n', ns, '--cascade=foreground', '--wait=false']);
      await until('the watch to see the three go', () => watch.events().filter((e) => e.startsWith('DELETED ')).length === 3);
      await watch.stop();
      expect((await quiet(ns)).get(ns)).toEqual([]);
      const order = watch
        .events()
        .filter((e) => e.startsWith('DELETED '))
        .map((e) => e.slice('DELETED '.length));
      expect([
        ['b', 'a', 'c'],
        ['b', 'c', 'a'],
      ]).toContainEqual(order);
      outcomes.push(order.join(' '));
    }
    console.log(`R36/R70 cycle on the real GC (removal order): ${tally(outcomes)}`);
  }, 300_000);

  it("R63/R71: kubectl-style back-to-back DELETEs: the ReplicaSet's Orphan DELETE often beats the Deployment's Background cascade and its Pods survive, as --arrival=back-to-back predicts; when the GC wins, as settled predicts", async () => {
    const namespaces = Array.from({ length: COPIES }, (_, i) => `r63-${i}`);
    const world = (ns: string): Manifest[] => {
      const labels = { app: 'web' };
      // Scheduled, so that a deleted Pod stays Terminating (no kubelet) as the simulation's strict mode says.
      const podSpec = { nodeName: 'node-1', containers: [{ name: 'app', image: 'busybox:1.36' }] };
      return [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: ns, uid: `${ns}-web` },
          spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'web-1',
            namespace: ns,
            uid: `${ns}-web-1`,
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: `${ns}-web`, controller: true, blockOwnerDeletion: true },
            ],
          },
          spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
        },
        ...['p1', 'p2'].map((p) => ({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `web-1-${p}`,
            namespace: ns,
            uid: `${ns}-${p}`,
            labels,
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: `${ns}-web-1`, controller: true, blockOwnerDeletion: true },
            ],
          },
          spec: podSpec,
        })),
      ];
    };
    await seed(namespaces.flatMap(world));
    const planFor = (ns: string) =>
      JSON.stringify({
        deletes: [
          { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: 'web', propagationPolicy: 'Background' },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: ns, name: 'web-1', propagationPolicy: 'Orphan' },
        ],
      });
    for (const state of (await quiet(...namespaces)).values()) expect(state).toHaveLength(4);
    const sims = new Map<string, { backToBack: Simulated; settled: Simulated }>();
    for (const ns of namespaces) {
      const planFile = path.join(dir, `${ns}.json`);
      writeFileSync(planFile, planFor(ns));
      sims.set(ns, {
        backToBack: simulateLive(ns, ['--plan', planFile, '--arrival=back-to-back']),
        settled: simulateLive(ns, ['--plan', planFile]),
      });
    }
    for (const ns of namespaces) {
      // As kubectl delete sends them: the second request leaves as soon as the first is answered.
      // When the GC's own Background DELETE of the ReplicaSet gets there first, ours finds nothing (404).
      for (const d of JSON.parse(planFor(ns)).deletes) {
        const r = await writer.request(
          'DELETE',
          `/apis/apps/v1/namespaces/${ns}/${d.kind === 'Deployment' ? 'deployments' : 'replicasets'}/${d.name}`,
          { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: d.propagationPolicy },
        );
        expect(d.kind === 'Deployment' ? [200] : [200, 404]).toContain(r.status);
      }
    }
    const ends = await quiet(...namespaces);
    const orphaned = ['Pod/web-1-p1 []', 'Pod/web-1-p2 []'];
    const cascaded = ['Pod/web-1-p1 Terminating [] <- web-1(blocking)', 'Pod/web-1-p2 Terminating [] <- web-1(blocking)'];
    // Both at once (seen once, in a CI run with the machine's 2 cores fully loaded): the cascade's DELETE of the Pods
    // and the orphan finalizer's PATCH of their references each got there (docs/gc-rules.md R71).
    const both = ['Pod/web-1-p1 Terminating []', 'Pod/web-1-p2 Terminating []'];
    const named = new Map([
      [JSON.stringify(orphaned), 'Pods orphaned'],
      [JSON.stringify(cascaded), 'Pods deleted by the cascade'],
      [JSON.stringify(both), 'Pods deleted and orphaned'],
    ]);
    const outcomes: string[] = [];
    for (const ns of namespaces) {
      const real = ends.get(ns)!;
      expect([orphaned, cascaded, both]).toContainEqual(real);
      outcomes.push(named.get(JSON.stringify(real))!);
      expect(simulatedState(sims.get(ns)!.backToBack, ns)).toEqual(orphaned);
      // Each after the previous settles (R53.4), the cascade reaches the Pods first (R71: the GC's rare win).
      expect(simulatedState(sims.get(ns)!.settled, ns)).toEqual(cascaded);
    }
    console.log(`R63/R71 back-to-back DELETEs on the real GC: ${tally(outcomes)}`);
  }, 300_000);
});

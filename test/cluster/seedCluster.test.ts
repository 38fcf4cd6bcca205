// testkit/cluster/seedCluster.ts on the real control plane: examples/ written into it as `kubectl apply` would (owners
// first, real uids), objects made terminating, a reference cycle, and a deliberately dangling reference kept. The
// live demo, the cluster bench and the differential runner stand on it.

import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane } from '../../testkit/cluster/controlPlane';
import { clusterWriter, HOLD_FINALIZER, manifestsIn, seedCluster, type SeedResult } from '../../testkit/cluster/seedCluster';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/seedCluster.test.ts ${CONTROL_PLANE_SKIP}`);

let plane: ControlPlane;
let seeded: SeedResult;

const gcJson = (args: string[]) =>
  JSON.parse(spawnSync(process.execPath, [CLI, ...args, '-o', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout);
/** A graph's edges by kind/namespace/name, which survive the change of uids. */
function edgesByName(graph: {
  nodes: { uid: string; kind: string; namespace?: string; name: string }[];
  edges: { from: string; to: string }[];
}): string[] {
  const name = new Map(graph.nodes.map((n) => [n.uid, `${n.kind}/${n.namespace ?? ''}/${n.name}`]));
  return graph.edges.map((e) => `${name.get(e.from) ?? e.from} -> ${name.get(e.to) ?? e.to}`).sort();
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('seedCluster on a real control plane', () => {
  beforeAll(async () => {
    // The garbage collector off: what is seeded stays as written (dangling references included).
    plane = await startControlPlane({ controllers: 'namespace-controller' });
    seeded = await seedCluster(clusterWriter(plane.kubeconfig), manifestsIn(path.join(ROOT, 'examples')));
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
  });

  it("writes every object of examples/ and the same ownership graph, with the server's uids", () => {
    expect(seeded.failures).toEqual([]);
    const files = gcJson(['graph', '-f', path.join(ROOT, 'examples')]);
    const live = gcJson(['graph', '--kubeconfig', plane.kubeconfig]);
    const fromFiles = edgesByName(files);
    expect(fromFiles.length).toBeGreaterThan(5);
    // Every edge of the files is live; the live graph may have more (the cluster's own objects).
    expect(edgesByName(live)).toEqual(expect.arrayContaining(fromFiles));
    for (const [placeholder, real] of seeded.uids) expect(real).not.toBe(placeholder);
  });

  it('objects exported while terminating are terminating, held by their own finalizers or the hold finalizer', () => {
    const orders = JSON.parse(plane.kubectl(['get', 'rabbitmqcluster', 'orders', '-n', 'legacy-mq', '-o', 'json']));
    expect(orders.metadata.deletionTimestamp).toBeDefined();
    expect(orders.metadata.finalizers).toEqual(['deletion.finalizers.rabbitmqclusters.rabbitmq.com']);
    const ns = JSON.parse(plane.kubectl(['get', 'namespace', 'legacy-mq', '-o', 'json']));
    expect(ns.status.phase).toBe('Terminating');
    expect(ns.metadata.finalizers ?? []).not.toContain(HOLD_FINALIZER);
  });

  it('a reference cycle is completed by a patch, and a reference to an unknown uid keeps it', async () => {
    const writer = clusterWriter(plane.kubeconfig);
    const cm = (name: string, uid: string, owner?: { name: string; uid: string }) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: 'cycle',
        uid,
        ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', ...owner }] } : {}),
      },
    });
    const dangling = '00000000-0000-4000-8000-00000000dead';
    const r = await seedCluster(writer, [
      cm('a', 'uid-a', { name: 'b', uid: 'uid-b' }),
      cm('b', 'uid-b', { name: 'a', uid: 'uid-a' }),
      cm('orphan', 'uid-o', { name: 'gone', uid: dangling }),
    ]);
    expect(r.failures).toEqual([]);
    const ownerUid = (name: string) =>
      JSON.parse(plane.kubectl(['get', 'configmap', name, '-n', 'cycle', '-o', 'json'])).metadata.ownerReferences[0].uid;
    expect(ownerUid('a')).toBe(r.uids.get('uid-b'));
    expect(ownerUid('b')).toBe(r.uids.get('uid-a'));
    expect(ownerUid('orphan')).toBe(dangling);
  });
});

// The whole cluster on the real control plane (test/controlplane with `--controllers=* --nodes=2`): every default
// controller of kube-controller-manager, kube-scheduler, and KWOK playing the kubelet for two fake Nodes. Pods are
// scheduled onto the Nodes and become Running and Ready; a deleted Pod stays Terminating until its deletionTimestamp
// (its grace period) and is then gone, and its controller makes it again: the ReplicaSet a new Pod with a generated
// name, the StatefulSet one with the same name. Every wait is bounded by a count of tries; no duration is asserted.
// Skipped only where `go` is missing.

import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, KUBECTL, startControlPlane, until } from '../../testkit/cluster/controlPlane';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/wholeCluster.test.ts ${CONTROL_PLANE_SKIP}`);

const NODES = ['kwok-node-0', 'kwok-node-1'];
/** Short, so that a deletion's grace period does not make the test long; still a graceful deletion. */
const GRACE_SECONDS = 3;
/** Generous: a graceful deletion takes GRACE_SECONDS, then the controller and KWOK act (tries of 100 ms). */
const TRIES = 1_200;

let plane: ControlPlane;

interface PodState {
  name: string;
  uid: string;
  nodeName?: string;
  phase?: string;
  ready: boolean;
  deletionTimestamp?: string;
  owner?: string;
}

function pods(selector: string): PodState[] {
  const list = JSON.parse(plane.kubectl(['get', 'pods', '-l', selector, '-o', 'json'])) as {
    items: {
      metadata: {
        name: string;
        uid: string;
        deletionTimestamp?: string;
        ownerReferences?: { kind: string; name: string; controller?: boolean }[];
      };
      spec: { nodeName?: string };
      status: { phase?: string; conditions?: { type: string; status: string }[] };
    }[];
  };
  return list.items.map((p) => ({
    name: p.metadata.name,
    uid: p.metadata.uid,
    nodeName: p.spec.nodeName,
    phase: p.status.phase,
    ready: (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    deletionTimestamp: p.metadata.deletionTimestamp,
    owner: p.metadata.ownerReferences?.filter((o) => o.controller).map((o) => `${o.kind}/${o.name}`)[0],
  }));
}

/** Running, Ready, bound to one of the fake Nodes, and not being deleted. */
const running = (p: PodState) => p.phase === 'Running' && p.ready && NODES.includes(p.nodeName ?? '') && !p.deletionTimestamp;

interface PodEvent {
  type: string;
  uid: string;
  deletionTimestamp: string;
  /** This machine's clock when the event arrived (KWOK runs on the same clock). */
  seenAt: number;
}

/** A watch on one Pod (kubectl, from the same modules), started before the deletion it observes. */
function watchPod(name: string): { events: PodEvent[]; stop(): void } {
  const events: PodEvent[] = [];
  const child: ChildProcess = spawn(
    KUBECTL,
    [
      '--kubeconfig',
      plane.kubeconfig,
      'get',
      'pod',
      name,
      '--watch-only',
      '--output-watch-events',
      '-o',
      'jsonpath={.type} {.object.metadata.uid} {.object.metadata.deletionTimestamp}{"\\n"}',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let buffer = '';
  child.stdout!.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const [type = '', uid = '', deletionTimestamp = ''] = buffer.slice(0, nl).split(' ');
      buffer = buffer.slice(nl + 1);
      events.push({ type, uid, deletionTimestamp, seenAt: Date.now() });
    }
  });
  return { events, stop: () => void child.kill('SIGTERM') };
}

/**
 * Deletes a Pod (a graceful deletion with its own grace period) and waits until it is gone. Returns the watch's
 * events for that Pod: it was Terminating (a deletionTimestamp) before it was deleted.
 */
async function deleteAndWaitGone(pod: PodState): Promise<PodEvent[]> {
  const watch = watchPod(pod.name);
  try {
    // --watch-only prints no initial event: a harmless label change shows that the watch is established. One made
    // before the watch opened goes unseen, so the label changes again until one is seen.
    let changes = 0;
    await until(
      `the watch on ${pod.name} sees a label change`,
      () => {
        if (watch.events.length > 0) return true;
        plane.kubectl(['label', '--overwrite', 'pod', pod.name, `kgl-watched=${++changes}`]);
        return false;
      },
      TRIES,
    );
    plane.kubectl(['delete', 'pod', pod.name, '--wait=false']);
    await until(`${pod.name} (${pod.uid}) is deleted`, () => watch.events.some((e) => e.type === 'DELETED' && e.uid === pod.uid), TRIES);
    return watch.events.filter((e) => e.uid === pod.uid);
  } finally {
    watch.stop();
  }
}

/** The graceful deletion as a kubelet finishes it: Terminating first, gone only once its deletionTimestamp came. */
function expectGraceful(events: PodEvent[]): void {
  const terminating = events.find((e) => e.type === 'MODIFIED' && e.deletionTimestamp !== '');
  const deleted = events.find((e) => e.type === 'DELETED');
  expect(terminating, JSON.stringify(events)).toBeDefined();
  expect(deleted, JSON.stringify(events)).toBeDefined();
  expect(events.indexOf(terminating!)).toBeLessThan(events.indexOf(deleted!));
  // KWOK's stage waits for the deletionTimestamp (whole seconds) before the final delete: the DELETED event cannot
  // arrive before it on this machine's clock. KWOK's fast pod-delete stage, deleting at once, would fail this.
  expect(deleted!.seenAt).toBeGreaterThanOrEqual(Date.parse(terminating!.deletionTimestamp));
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the whole cluster: every controller, kube-scheduler and KWOK Nodes', () => {
  beforeAll(async () => {
    plane = await startControlPlane({ controllers: '*', nodes: 2 });
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
  });

  it('has the fake Nodes Ready when it prints its JSON line', () => {
    const nodes = JSON.parse(plane.kubectl(['get', 'nodes', '-o', 'json'])) as {
      items: {
        metadata: { name: string; annotations?: Record<string, string> };
        status: { conditions?: { type: string; status: string }[] };
      }[];
    };
    expect(
      nodes.items.map((n) => ({
        name: n.metadata.name,
        kwok: n.metadata.annotations?.['kwok.x-k8s.io/node'],
        ready: n.status.conditions?.find((c) => c.type === 'Ready')?.status,
      })),
    ).toEqual(NODES.map((name) => ({ name, kwok: 'fake', ready: 'True' })));
  });

  it("runs a Deployment's Pods on the Nodes; a deleted Pod terminates gracefully and the ReplicaSet makes a new one", async () => {
    plane.kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { terminationGracePeriodSeconds: GRACE_SECONDS, containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10' }] },
          },
        },
      }),
    );
    await until('2 Pods of web Running and Ready on the fake Nodes', () => pods('app=web').filter(running).length === 2, TRIES);
    const before = pods('app=web');
    expect(before).toHaveLength(2);
    const replicaSet = before[0]!.owner;
    expect(replicaSet).toMatch(/^ReplicaSet\/web-[a-z0-9]+$/);
    expect(before[1]!.owner).toBe(replicaSet);

    const victim = before[0]!;
    expectGraceful(await deleteAndWaitGone(victim));

    const uidsBefore = new Set(before.map((p) => p.uid));
    await until(
      'the ReplicaSet made a new Pod, Running and Ready',
      () => {
        const now = pods('app=web');
        return now.length === 2 && now.every(running) && now.some((p) => !uidsBefore.has(p.uid));
      },
      TRIES,
    );
    const after = pods('app=web');
    const made = after.find((p) => !uidsBefore.has(p.uid))!;
    expect(made.owner).toBe(replicaSet);
    expect(made.name).not.toBe(victim.name);
    expect(after.map((p) => p.uid)).toContain(before[1]!.uid);
  }, 300_000);

  it('makes a deleted StatefulSet Pod again with the same name and a new uid, Running and Ready', async () => {
    plane.kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'db', namespace: 'default' },
            spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] },
          },
          {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            metadata: { name: 'db', namespace: 'default' },
            spec: {
              serviceName: 'db',
              replicas: 2,
              selector: { matchLabels: { app: 'db' } },
              template: {
                metadata: { labels: { app: 'db' } },
                spec: { terminationGracePeriodSeconds: GRACE_SECONDS, containers: [{ name: 'db', image: 'registry.k8s.io/pause:3.10' }] },
              },
            },
          },
        ],
      }),
    );
    await until('db-0 and db-1 Running and Ready', () => pods('app=db').filter(running).length === 2, TRIES);
    const db0 = pods('app=db').find((p) => p.name === 'db-0')!;
    expect(db0.owner).toBe('StatefulSet/db');

    expectGraceful(await deleteAndWaitGone(db0));

    await until(
      'db-0 is back with a new uid, Running and Ready',
      () => {
        const again = pods('app=db').find((p) => p.name === 'db-0');
        return again !== undefined && again.uid !== db0.uid && running(again);
      },
      TRIES,
    );
    expect(pods('app=db').find((p) => p.name === 'db-0')!.owner).toBe('StatefulSet/db');
  }, 300_000);
});

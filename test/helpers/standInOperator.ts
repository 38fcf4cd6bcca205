// A stand-in for an operator on the real control plane, which has no kubelet: its Pods are created (by the real
// deployment and replicaset controllers) but never run. So the test plays the operator, in the open: from the moment
// a Pod of the operator's Deployment exists (someone scaled it up), it does what the operator would, removing its
// finalizer from each of its custom resources being deleted. Its requests are kubectl's (the audit log tells them
// from the product's), and it records what it released.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { KUBECTL, type ControlPlane } from '../../testkit/cluster/controlPlane';

const run = promisify(execFile);

export interface StandInOperatorOptions {
  /** Where the operator's Pods are, and their label selector. */
  namespace: string;
  selector: string;
  /** The custom resources it finalizes (kubectl's TYPE, e.g. `widgets.acme.io`) and its finalizer. */
  resource: string;
  finalizer: string;
}

export interface StandInOperator {
  /** The Pod seen first, once one exists. */
  readonly pod: string | undefined;
  /** `namespace/name` of each resource whose finalizer it removed, in order. */
  readonly released: readonly string[];
  stop(): Promise<void>;
}

interface Item {
  metadata: { name: string; namespace: string; deletionTimestamp?: string; finalizers?: string[] };
}

export function standInOperator(plane: ControlPlane, o: StandInOperatorOptions): StandInOperator {
  const kubectl = (args: string[]) => run(KUBECTL, ['--kubeconfig', plane.kubeconfig, ...args], { maxBuffer: 1 << 26 });
  const released: string[] = [];
  let pod: string | undefined;
  let stopped = false;
  let watch: ChildProcess | undefined;
  let reconciling: Promise<void> | undefined;

  /** The operator's loop: its finalizer off every resource being deleted, until stopped. */
  const reconcile = async () => {
    while (!stopped) {
      const list = await kubectl(['get', o.resource, '-A', '-o', 'json']).then(
        (r) => (JSON.parse(r.stdout) as { items: Item[] }).items,
        () => [] as Item[],
      );
      for (const { metadata: m } of list) {
        const i = (m.finalizers ?? []).indexOf(o.finalizer);
        if (m.deletionTimestamp === undefined || i < 0) continue;
        const patch = [
          { op: 'test', path: `/metadata/finalizers/${i}`, value: o.finalizer },
          { op: 'remove', path: `/metadata/finalizers/${i}` },
        ];
        // A conflict or a resource already gone is tried again on the next round, as a controller requeues.
        await kubectl(['patch', o.resource, m.name, '-n', m.namespace, '--type=json', '-p', JSON.stringify(patch)]).then(
          () => void released.push(`${m.namespace}/${m.name}`),
          () => undefined,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  };

  /** Watches for the operator's first Pod (a watch, not a poll: the story runs for minutes before anyone scales). */
  const watchPods = () => {
    watch = spawn(KUBECTL, ['--kubeconfig', plane.kubeconfig, 'get', 'pods', '-n', o.namespace, '-l', o.selector, '--watch', '-o', 'name']);
    let out = '';
    watch.stdout!.on('data', (d) => {
      out += d;
      const first = out.split('\n').find((l) => l.startsWith('pod/'));
      if (first && pod === undefined) {
        pod = first;
        reconciling = reconcile();
      }
    });
    // A watch the apiserver ends (its timeout) is started again.
    watch.on('exit', () => {
      if (!stopped && pod === undefined) watchPods();
    });
  };
  watchPods();

  return {
    get pod() {
      return pod;
    },
    released,
    async stop() {
      stopped = true;
      watch?.kill();
      await reconciling?.catch(() => undefined);
    },
  };
}

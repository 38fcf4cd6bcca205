// kubeGcLens/simulate (issue 18): the editor's Simulate Delete report carries the ways out of what the DELETE newly
// leaves stuck, as a user has them after that DELETE, each simulated from there; what was stuck anyway has none.

import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ObjectsRequest, SimulateRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const sessions: LspSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
});

describe('Simulate Delete in the editor: ways out', () => {
  it('deleting namespace kafka: reinstall its operator in another namespace first, for the namespace and each Kafka it leaves stuck', async () => {
    const s = new LspSession({ folder: EXAMPLES });
    sessions.push(s);
    await s.initialize();
    const objects = await s.connection.sendRequest(ObjectsRequest, {});
    const ns = objects.find((o) => o.kind === 'Namespace' && o.name === 'kafka')!;
    const report = (await s.connection.sendRequest(SimulateRequest, { uid: ns.uid, policy: 'default' }))!;
    expect(report.outcome).toBe('stuck');
    const byName = new Map(report.stuck.map((e) => [`${e.kind}/${e.name}`, e]));
    for (const name of ['Namespace/kafka', 'Kafka/my-cluster', 'Kafka/audit-cluster']) {
      const ways = byName.get(name)?.waysOut ?? [];
      expect(ways[0], name).toMatchObject({
        risk: 'safe',
        title:
          'Reinstall the operator of Deployment kafka/strimzi-cluster-operator in another namespace, watching namespace kafka (namespace kafka is being deleted: nothing new can be created in it)',
      });
      expect(ways[0].outcome.deleted.map((d) => d.name).sort(), name).toEqual(['audit-cluster', 'kafka', 'my-cluster']);
    }
    // The Kafka's finalizer removal: the PATCH a user would send once the namespace is Terminating.
    const removal = byName.get('Kafka/my-cluster')!.waysOut!.find((w) => w.risk === 'dangerous')!;
    expect(removal.patch?.ops).toEqual([
      { op: 'test', path: '/metadata/uid', value: byName.get('Kafka/my-cluster')!.uid },
      { op: 'test', path: '/metadata/finalizers/0', value: 'kafka.strimzi.io/finalizer' },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    // Stuck before the DELETE too (namespace legacy-mq): the Stuck Objects view has its ways out.
    expect(report.stuck.filter((e) => e.cause === 'settling').map((e) => [e.name, e.waysOut])).toEqual([
      ['legacy-mq', undefined],
      ['orders', undefined],
    ]);
  });
});

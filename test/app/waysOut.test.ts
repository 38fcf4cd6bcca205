// Ways out of a stuck deletion (issue 18), each simulated: the safest first, a command a user can paste (with a
// JSON patch test op), what a dangerous one leaves behind, and never a deletion to get out.

import { describe, expect, it } from 'vitest';
import { waysOut, shellWord } from '../../server/src/app/waysOut';
import { bref, cm, deploy, HOLD, manifests, namespace, obj, pod, TERMINATING, workloadSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const STRICT = { controllers: 'gc', finalizerOwners: [] };
const KAFKA_FINALIZER = 'kafka.strimzi.io/finalizer';

describe('ways out', () => {
  it('a custom resource held by an operator scaled to 0: scale it up (safe) before removing the finalizer (dangerous)', () => {
    const operator = deploy('strimzi-cluster-operator', 'kafka', {
      extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
    });
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    const s = scenario(manifests(namespace('kafka'), operator, kafka));
    const ways = waysOut(s.inventory, kafka.uid, BUILTIN);
    expect(ways.map((w) => [w.risk, w.command])).toEqual([
      ['safe', 'kubectl scale deployment.apps/strimzi-cluster-operator -n kafka --replicas=1'],
      [
        'dangerous',
        `kubectl patch kafka.kafka.strimzi.io/my-cluster -n kafka --type=json -p '[{"op":"test","path":"/metadata/finalizers/0","value":"${KAFKA_FINALIZER}"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
      ],
    ]);
    expect(ways[0].outcome.summary).toBe(
      'Scaling Deployment kafka/strimzi-cluster-operator to 1 replica: 1 object deleted (1 Kafka), 0 stuck, 0 orphaned',
    );
    expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['my-cluster']);
    expect(ways[1].warning).toMatch(/left behind/);
  });

  it('an operator that is gone: reinstall it (said, not a command), then the finalizer', () => {
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    const s = scenario(manifests(namespace('kafka'), kafka, cm('config', 'kafka', { owners: [bref(kafka)] })));
    const ways = waysOut(s.inventory, kafka.uid, BUILTIN);
    expect(ways.map((w) => w.risk)).toEqual(['safe', 'dangerous']);
    expect(ways[0].command).toBe(
      '# no single kubectl command: reinstall the operator that removes kafka.strimzi.io/finalizer from its manifests or Helm chart',
    );
    // Its outcome: the resource goes, and what it owned with it.
    expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['my-cluster', 'config']);
  });

  it('a namespace stuck on its content: the ways out of what holds it, then finalizing it without its content', () => {
    const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
    const ns = namespace('team', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });
    const s = scenario(manifests(ns, held));
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    expect(ways.map((w) => w.title)).toEqual([
      'Reinstall the operator that removes example.com/hold',
      'Remove the finalizer example.com/hold from ConfigMap team/held',
      'Finalize namespace team without waiting for its content (remove spec.finalizers kubernetes)',
    ]);
    for (const w of ways) expect(w.outcome.deleted.map((d) => d.name)).toContain('team');
    expect(ways[2].command).toBe(
      `kubectl get namespace team -o json | jq '.spec.finalizers -= ["kubernetes"]' | kubectl replace --raw /api/v1/namespaces/team/finalize -f -`,
    );
  });

  it('an owner waiting in the foreground for a stuck blocking dependent: release the dependent, or cut the reference (caution)', () => {
    const owner = cm('owner', 'shop', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const dependent = cm('dependent', 'shop', { owners: [bref(owner)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(owner, dependent));
    const ways = waysOut(s.inventory, owner.uid, STRICT);
    expect(ways.map((w) => [w.risk, w.title])).toEqual([
      ['caution', 'Remove the ownerReference of ConfigMap shop/dependent to ConfigMap owner'],
      ['caution', 'Remove the finalizer foregroundDeletion from ConfigMap shop/owner'],
      ['dangerous', 'Remove the finalizer example.com/hold from ConfigMap shop/dependent'],
    ]);
    expect(ways[0].command).toContain(`"op":"test","path":"/metadata/ownerReferences/0/uid","value":"${owner.uid}"`);
    // Removing the reference releases the owner; the dependent stays stuck on its own finalizer.
    expect(ways[0].outcome.stuck.map((e) => e.name)).toEqual(['dependent']);
  });

  it('a Pod whose node never confirms: force-delete it (caution)', () => {
    const p = pod('web-0', 'shop', { nodeName: 'gone-node', deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 });
    const s = scenario(manifests(p));
    const ways = waysOut(s.inventory, p.uid, STRICT);
    expect(ways[0]).toMatchObject({ risk: 'caution', command: 'kubectl delete pod/web-0 -n shop --grace-period=0 --force' });
  });

  it('nothing for an object that is not stuck', () => {
    const s = scenario(manifests(cm('fine', 'shop')));
    expect(waysOut(s.inventory, 'uid-fine', STRICT)).toEqual([]);
  });

  it('quotes hostile names as one shell word', () => {
    expect(shellWord("a'b; rm -rf /")).toBe(`'a'\\''b; rm -rf /'`);
    expect(shellWord('deployment.apps/web')).toBe('deployment.apps/web');
  });
});

// Ways out in a report (issue 18): what a DELETE newly leaves stuck gets the ways out a user has after that DELETE,
// each simulated from there: its patch and command as the objects are then, its outcome what it changes from there.

import * as path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SnapshotSession } from '../../server/src/app/snapshotSession';
import { waysOut } from '../../server/src/app/waysOut';
import { loadInput } from '../../server/src/cli/input';
import { bref, cm, HOLD, manifests } from '../helpers/manifests';
import { del, scenario } from '../helpers/scenario';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const EXAMPLES = path.resolve(__dirname, '../../examples');

describe('ways out after a DELETE', () => {
  const AUDIT = 'example.com/audit';
  // The audit finalizer's controller runs (outside the input) and removes it once the owner is deleted.
  const OPTIONS = { controllers: 'builtin', finalizerOwners: [{ finalizer: AUDIT, external: true }] };
  const owner = cm('owner', 'shop', { finalizers: [AUDIT] });
  const held = cm('held', 'shop', { owners: [bref(owner)], finalizers: [HOLD] });
  const free = cm('free', 'shop', { owners: [bref(owner)] });
  const foreground = del('v1', 'ConfigMap', 'shop', 'owner', 'Foreground');

  it('start from the state the DELETE leaves: its foregroundDeletion, where it then is, and the dependent it left stuck', () => {
    const s = scenario(manifests(owner, held, free));
    // Nothing is stuck in the input as given.
    expect(waysOut(s.inventory, owner.uid, OPTIONS)).toEqual([]);
    const ways = waysOut(s.inventory, owner.uid, OPTIONS, [foreground]);
    expect(ways.map((w) => [w.risk, w.title])).toEqual([
      ['safe', 'Reinstall the operator that removes example.com/hold'],
      ['caution', 'Remove the ownerReference of ConfigMap shop/held to ConfigMap owner'],
      ['caution', 'Remove the finalizer foregroundDeletion from ConfigMap shop/owner'],
      ['dangerous', 'Remove the finalizer example.com/hold from ConfigMap shop/held'],
    ]);
    // The audit finalizer was first in the input; once the DELETE has settled its controller has removed it, and
    // foregroundDeletion (which the DELETE appended after it) is at index 0.
    // Its uid, not a resourceVersion: the DELETE changes that, and the way out is made for the state it leaves.
    const ops = [
      { op: 'test', path: '/metadata/uid', value: owner.uid },
      { op: 'test', path: '/metadata/finalizers/0', value: 'foregroundDeletion' },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ];
    expect(ways[2].patch).toEqual({
      target: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'owner', uid: owner.uid },
      ops,
    });
    expect(ways[2].command).toBe(`kubectl patch configmap/owner -n shop --type=json -p '${JSON.stringify(ops)}'`);
    expect(ways[1].patch?.ops.slice(0, 2)).toEqual([
      { op: 'test', path: '/metadata/uid', value: held.uid },
      { op: 'test', path: '/metadata/ownerReferences/0/uid', value: owner.uid },
    ]);
  });

  it('say what each way out changes from there: not what the DELETE did already', () => {
    const s = scenario(manifests(owner, held, free));
    const ways = waysOut(s.inventory, owner.uid, OPTIONS, [foreground]);
    const release = ways.find((w) => w.title.startsWith('Remove the finalizer foregroundDeletion'))!;
    // ConfigMap free went with the DELETE: only the owner goes with the way out; held stays stuck, as it already was.
    expect(release.outcome.summary).toBe(
      'Removing finalizer foregroundDeletion from ConfigMap shop/owner: 1 object deleted (1 ConfigMap), 0 stuck, 0 orphaned',
    );
    expect(release.outcome.deleted.map((d) => [d.name, d.cause])).toEqual([['owner', 'request']]);
    expect(release.outcome.stuck.map((e) => [e.name, e.cause])).toEqual([['held', 'settling']]);
    const unhold = ways.find((w) => w.risk === 'dangerous')!;
    expect(unhold.outcome.deleted.map((d) => d.name)).toEqual(['held', 'owner']);
    expect(unhold.outcome.stuck).toEqual([]);
  });

  it('none for an object the DELETE does not leave stuck', () => {
    const s = scenario(manifests(owner, free));
    expect(waysOut(s.inventory, owner.uid, OPTIONS, [foreground])).toEqual([]);
  });
});

describe('ways out in the report of a Namespace DELETE on the examples', () => {
  it("the kafka namespace, left stuck on its operator's finalizers: reinstall the operator elsewhere first (nothing new is created in a namespace being deleted); what was stuck anyway gets none", async () => {
    const input = await loadInput([EXAMPLES], { stdin: Readable.from([]) });
    const session = new SnapshotSession({ inventory: input.inventory, fromFiles: true });
    const { answer } = await session.simulateRequests([del('v1', 'Namespace', '', 'kafka', null)], BUILTIN);
    const { stuck } = answer.report;
    const ns = stuck.find((e) => e.kind === 'Namespace' && e.name === 'kafka')!;
    expect(ns.cause).toBe('request');
    expect(ns.waysOut?.map((w) => [w.risk, w.title])).toEqual([
      [
        'safe',
        'Reinstall the operator of Deployment kafka/strimzi-cluster-operator in another namespace, watching namespace kafka (namespace kafka is being deleted: nothing new can be created in it)',
      ],
      ['dangerous', 'Finalize namespace kafka without waiting for its content (remove spec.finalizers kubernetes)'],
    ]);
    const restore = ns.waysOut![0];
    expect(restore.outcome.deleted.map((d) => `${d.kind}/${d.name}`)).toEqual([
      'Kafka/my-cluster',
      'Kafka/audit-cluster',
      'Namespace/kafka',
    ]);
    // One change deep: a way out's outcome carries no ways out of its own.
    expect(JSON.stringify(ns.waysOut)).not.toContain('"waysOut"');
    // Each Kafka the DELETE leaves stuck: the same restore first, then its own finalizer's removal (dangerous).
    const kafkas = stuck.filter((e) => e.kind === 'Kafka');
    expect(kafkas.map((k) => k.waysOut?.map((w) => w.risk))).toEqual([
      ['safe', 'dangerous'],
      ['safe', 'dangerous'],
    ]);
    // Stuck before the DELETE too (namespace-stuck-terminating): the stuck list and `kubectl gc stuck` have theirs.
    expect(stuck.filter((e) => e.cause === 'settling').map((e) => [e.name, e.waysOut])).toEqual([
      ['legacy-mq', undefined],
      ['orders', undefined],
    ]);
    expect(answer.report.notes.some((n) => n.startsWith('Ways out are simulated for the first'))).toBe(false);
  });
});

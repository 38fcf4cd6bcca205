// Requests besides DELETE (issue 18): the changes that get a stuck deletion out, applied as the apiserver would,
// and what the garbage collector and the controllers then do. Named after what a user would type.

import { describe, expect, it } from 'vitest';
import type { UserRequest } from '../../server/src/engine/simulation/changeRequest';
import { bref, cm, ctl, deploy, HOLD, manifests, namespace, obj, TERMINATING, workloadSpec } from '../helpers/manifests';
import { names, scenario } from '../helpers/scenario';

const target = (apiVersion: string, kind: string, namespace: string, name: string) => ({ apiVersion, kind, namespace, name });
const KAFKA_FINALIZER = 'kafka.strimzi.io/finalizer';

describe('remove-finalizer', () => {
  it('releases a terminating object held by a finalizer nobody removes; its dependents then cascade', () => {
    const held = cm('held', 'shop', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(namespace('shop'), held, cm('child', 'shop', { owners: [bref(held)] })));
    expect(names(s.simulate([]).stuck)).toEqual(['ConfigMap/held']);
    const r = s.simulate([{ verb: 'remove-finalizer', target: target('v1', 'ConfigMap', 'shop', 'held'), finalizer: HOLD }]);
    expect(names(r.deleted)).toEqual(['ConfigMap/held', 'ConfigMap/child']);
    expect(r.stuck).toEqual([]);
    const own = r.steps.filter((step) => step.request === 0);
    expect(own.map((step) => [step.actor, step.action, step.target.name])).toEqual([
      ['apiserver', 'remove-finalizer', 'held'],
      ['apiserver', 'remove', 'held'],
    ]);
  });

  it("removes a Namespace's spec.finalizers entry as /finalize does (strict mode: no namespace controller)", () => {
    const s = scenario(manifests(namespace('gone', { ...TERMINATING, extra: { spec: { finalizers: ['kubernetes'] } } })));
    expect(names(s.simulate([]).stuck)).toEqual(['Namespace/gone']);
    const r = s.simulate([{ verb: 'remove-finalizer', target: target('v1', 'Namespace', '', 'gone'), finalizer: 'kubernetes' }]);
    expect(names(r.deleted)).toEqual(['Namespace/gone']);
  });

  it('on an object that is not terminating, only removes the finalizer', () => {
    const s = scenario(manifests(cm('kept', 'shop', { finalizers: [HOLD] })));
    const r = s.simulate([{ verb: 'remove-finalizer', target: target('v1', 'ConfigMap', 'shop', 'kept'), finalizer: HOLD }]);
    expect(r.deleted).toEqual([]);
    expect(r.remaining.find((o) => o.name === 'kept')?.finalizers).toEqual([]);
  });

  it('is refused with 404 for an object that is not there, and changes nothing', () => {
    const s = scenario(manifests(cm('a', 'shop')));
    const r = s.simulate([{ verb: 'remove-finalizer', target: target('v1', 'ConfigMap', 'shop', 'nope'), finalizer: HOLD }]);
    expect(r.steps.map((step) => [step.action, step.detail])).toEqual([['reject', '404: ConfigMap shop/nope not found']]);
  });
});

describe('remove-owner-reference and set-owner-reference', () => {
  it('a foreground owner waiting on a stuck blocking dependent finishes once the reference is removed', () => {
    const owner = cm('owner', 'shop', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const s = scenario(manifests(owner, cm('blocker', 'shop', { owners: [bref(owner)], finalizers: [HOLD], ...TERMINATING })));
    expect(names(s.simulate([]).stuck).sort()).toEqual(['ConfigMap/blocker', 'ConfigMap/owner']);
    const r = s.simulate([{ verb: 'remove-owner-reference', target: target('v1', 'ConfigMap', 'shop', 'blocker'), ownerUid: owner.uid }]);
    expect(names(r.deleted)).toEqual(['ConfigMap/owner']);
    expect(names(r.stuck)).toEqual(['ConfigMap/blocker']);
    expect(r.remaining.find((o) => o.name === 'blocker')?.ownerReferences).toEqual([]);
  });

  it('replaces one reference and keeps the others', () => {
    const a = cm('a', 'shop');
    const b = cm('b', 'shop');
    const s = scenario(manifests(a, b, cm('child', 'shop', { owners: [bref(a)] })));
    const to = { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: b.uid, blockOwnerDeletion: true };
    const r = s.simulate([{ verb: 'set-owner-reference', target: target('v1', 'ConfigMap', 'shop', 'child'), ownerUid: a.uid, to }]);
    expect(r.remaining.find((o) => o.name === 'child')?.ownerReferences).toEqual([to]);
  });
});

describe('scale and restore-controller: the controller that removes a finalizer runs again', () => {
  // The operator's Deployment, and its custom resource held by the finalizer it removes.
  const world = (replicas: number | undefined, withOperator = true) => {
    const operator = deploy('strimzi-cluster-operator', 'kafka', {
      extra: {
        spec: workloadSpec(
          { app: 'strimzi' },
          [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }],
          replicas === undefined ? {} : { replicas },
        ),
      },
    });
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    return scenario(
      manifests(namespace('kafka'), ...(withOperator ? [operator] : []), kafka, cm('config', 'kafka', { owners: [ctl(kafka)] })),
    );
  };
  const builtin = { controllers: 'builtin' as const };

  it('an operator scaled to 0 removes nothing: the custom resource is stuck, and the why-chain says so', () => {
    const r = world(0).simulate([], builtin);
    expect(names(r.stuck)).toEqual(['Kafka/my-cluster']);
    expect(JSON.stringify(r.stuck[0].blockedBy)).toContain('is scaled to 0 replicas');
  });

  it('scaling it up lets it remove its finalizer: the resource goes, then what it owns', () => {
    const scale: UserRequest = { verb: 'scale', target: target('apps/v1', 'Deployment', 'kafka', 'strimzi-cluster-operator'), replicas: 1 };
    const r = world(0).simulate([scale], builtin);
    expect(names(r.deleted)).toEqual(['Kafka/my-cluster', 'ConfigMap/config']);
    expect(r.steps.find((step) => step.request === 0)).toMatchObject({
      action: 'update-spec',
      detail: expect.stringContaining('spec.replicas 1'),
    });
  });

  it('an operator that is gone: restoring the controller of the finalizer releases it', () => {
    const s = world(undefined, false);
    expect(names(s.simulate([], builtin).stuck)).toEqual(['Kafka/my-cluster']);
    const r = s.simulate([{ verb: 'restore-controller', finalizer: KAFKA_FINALIZER }], builtin);
    expect(names(r.deleted)).toEqual(['Kafka/my-cluster', 'ConfigMap/config']);
    expect(r.steps.find((step) => step.request === 0)).toMatchObject({ action: 'restore-controller', target: { name: 'my-cluster' } });
  });

  it('a restored controller runs in that simulation only: the next one on the same input (its baseline) is stuck again', () => {
    const s = world(undefined, false);
    s.simulate([{ verb: 'restore-controller', finalizer: KAFKA_FINALIZER }], builtin);
    expect(names(s.simulate([], builtin).stuck)).toEqual(['Kafka/my-cluster']);
  });

  it('an operator whose replicas are not written runs (the apps default is 1)', () => {
    expect(world(undefined).simulate([], builtin).stuck).toEqual([]);
  });
});

describe('spec.replicas, read from YAML and from JSON alike', () => {
  it('0 is a fact of apps/v1 Deployments and StatefulSets only (any other count is not)', async () => {
    const { parseManifestText } = await import('../../server/src/sources/manifests/parseManifest');
    const docs = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'n', uid: 'u1' }, spec: { replicas: 0 } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's', namespace: 'n', uid: 'u2' }, spec: { replicas: 3 } },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r', namespace: 'n', uid: 'u3' }, spec: { replicas: 0 } },
    ];
    const json = parseManifestText(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: docs }), 'l.json').objects;
    const yaml = parseManifestText(docs.map((d) => JSON.stringify(d)).join('\n---\n'), 'l.yaml').objects;
    for (const objects of [json, yaml]) expect(objects.map((o) => o.facts.scaledToZero)).toEqual([true, undefined, undefined]);
  });
});

describe('restore-controller stays within its simulation', () => {
  it('a later simulation of the same input still finds the controller gone', () => {
    const held = cm('held', 'shop', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(namespace('shop'), held));
    const options = { controllers: 'builtin' as const };
    expect(names(s.simulate([{ verb: 'restore-controller', finalizer: HOLD }], options).deleted)).toEqual(['ConfigMap/held']);
    expect(names(s.simulate([], options).stuck)).toEqual(['ConfigMap/held']);
  });
});

// kubeGcLens/simulateRequests at the application layer: a plan's `requests` entries in, the Report of `kubectl gc
// simulate --plan` out (the same one), with the editor's fields; and a way out's `requests` give its outcome again.

import * as path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlanRequest } from '../../shared/src/protocol';
import { loadInput } from '../../server/src/cli/input';
import { parsePlan } from '../../server/src/cli/plan';
import type { Inventory } from '../../server/src/engine/inventory';
import { planRequestOf, userRequestOf } from '../../server/src/app/planRequests';
import { simulateReport } from '../../server/src/app/report';
import { planTargets, simulateRequestsReport } from '../../server/src/app/requestsReport';
import { terminatingItems } from '../../server/src/app/stuck';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const OPTIONS = { controllers: 'builtin', finalizerOwners: [] };
const KAFKA = { apiVersion: 'kafka.strimzi.io/v1beta2', kind: 'Kafka', namespace: 'kafka', name: 'my-cluster' };
const OPERATOR = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'strimzi-cluster-operator' };

/** One entry of every verb, as a plan writes it. */
const EVERY_VERB: PlanRequest[] = [
  { verb: 'delete', ...OPERATOR, propagationPolicy: 'Foreground', gracePeriodSeconds: 0 },
  { verb: 'remove-finalizer', ...KAFKA, finalizer: 'kafka.strimzi.io/finalizer' },
  { verb: 'remove-owner-reference', ...KAFKA, ownerUid: 'u-1' },
  {
    verb: 'set-owner-reference',
    ...KAFKA,
    ownerUid: 'u-1',
    to: { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u-2', controller: true, blockOwnerDeletion: false },
  },
  { verb: 'scale', ...OPERATOR, replicas: 0 },
  { verb: 'restore-controller', ...KAFKA, finalizer: 'kafka.strimzi.io/finalizer' },
  { verb: 'restore-controller', finalizer: 'kafka.strimzi.io/finalizer' },
  { verb: 'restore-backend', apiVersion: 'v1', kind: 'Service', namespace: 'kafka', name: 'webhook' },
  {
    verb: 'set-webhook-failure-policy',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    name: 'strict',
    webhook: 'v.example.com',
    failurePolicy: 'Ignore',
  },
];

let inventory: Inventory;

beforeAll(async () => {
  inventory = (await loadInput([EXAMPLES], { stdin: Readable.from([]) })).inventory;
});

describe('a plan entry and the engine request', () => {
  it('round-trip for every verb', () => {
    for (const p of EVERY_VERB) expect(planRequestOf(userRequestOf(inventory, p)), p.verb).toEqual(p);
  });

  it('place a namespaced object named without a namespace in the default one, and a cluster-scoped one in none', () => {
    const { namespace: _, ...unplaced } = OPERATOR;
    expect(userRequestOf(inventory, { verb: 'scale', ...unplaced, replicas: 2 })).toEqual({
      verb: 'scale',
      target: { ...OPERATOR, namespace: 'default' },
      replicas: 2,
    });
    expect(userRequestOf(inventory, { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', namespace: 'x', name: 'kafka' })).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      name: 'kafka',
      propagationPolicy: null,
    });
  });

  it('name the objects whose Pods a live simulation reads first', () => {
    expect(planTargets(inventory, EVERY_VERB.slice(4, 7))).toEqual([OPERATOR, KAFKA]);
  });
});

describe('simulateRequestsReport', () => {
  it('is the Report of `kubectl gc simulate --plan` with the same requests, and says what was asked', () => {
    const plan: PlanRequest[] = [{ verb: 'remove-finalizer', ...KAFKA, finalizer: 'kafka.strimzi.io/finalizer' }];
    const answer = simulateRequestsReport(inventory, plan, OPTIONS);
    const fromPlan = parsePlan(JSON.stringify({ requests: plan }), 'plan.json').requests.map((r) => userRequestOf(inventory, r));
    const { report } = simulateReport(inventory, fromPlan, OPTIONS);
    const { requests, subject, locations, ...rest } = answer;
    expect(rest).toEqual(report);
    expect(requests).toEqual(plan);
    expect(subject).toBe('Removing finalizer kafka.strimzi.io/finalizer from Kafka kafka/my-cluster');
    expect(answer.summary.startsWith(`${subject}: `)).toBe(true);
    expect(answer.targets[0]).toMatchObject({ ...KAFKA, change: { verb: 'remove-finalizer', detail: 'kafka.strimzi.io/finalizer' } });
    const kafka = inventory.find('kafka.strimzi.io', 'Kafka', 'kafka', 'my-cluster')!;
    expect(locations[kafka.uid].uri).toMatch(/kafka-clusters-export\.yaml$/);
  });

  it('scales a workload, and says so', () => {
    const answer = simulateRequestsReport(inventory, [{ verb: 'scale', ...OPERATOR, replicas: 3 }], OPTIONS);
    expect(answer.subject).toBe('Scaling Deployment kafka/strimzi-cluster-operator to 3 replicas');
    expect(answer.targets[0].change).toEqual({ verb: 'scale', detail: '3' });
    expect(answer.steps.some((s) => s.request === 0 && s.action === 'update-spec')).toBe(true);
  });

  it('several requests: in their order, back to back when asked, the subject saying each', () => {
    const plan: PlanRequest[] = [
      { verb: 'scale', ...OPERATOR, replicas: 0 },
      { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'kafka' },
    ];
    const settled = simulateRequestsReport(inventory, plan, OPTIONS);
    expect(settled.subject).toBe('Scaling Deployment kafka/strimzi-cluster-operator to 0 replicas, then deleting Namespace kafka');
    expect(settled.targets.map((t) => t.request)).toEqual([0, 1]);
    const together = simulateRequestsReport(inventory, plan, OPTIONS, 'back-to-back');
    expect(together.targets[1].afterStep).toBeLessThanOrEqual(settled.targets[1].afterStep!);
  });

  it('a controller restored without naming what it releases: said without one', () => {
    const answer = simulateRequestsReport(inventory, [{ verb: 'restore-controller', finalizer: 'kafka.strimzi.io/finalizer' }], OPTIONS);
    expect(answer.subject).toBe('Running the controller of kafka.strimzi.io/finalizer again');
  });

  it('an object the input does not hold: the apiserver refuses the request, and the report says so', () => {
    const answer = simulateRequestsReport(inventory, [{ verb: 'remove-finalizer', ...KAFKA, name: 'gone', finalizer: 'f' }], OPTIONS);
    expect(answer.targets[0].outcome).toBe('rejected');
    expect(answer.summary).toBe('Removing finalizer f from Kafka kafka/gone: rejected by the apiserver');
  });

  it('a way out: its requests give its outcome again, and the same notes and more', () => {
    const stuck = terminatingItems(inventory, OPTIONS, undefined).filter((i) => i.waysOut?.length);
    const ways = stuck.flatMap((i) => i.waysOut!);
    expect(ways.length).toBeGreaterThan(2);
    for (const w of ways) {
      expect(w.requests?.length, w.title).toBeGreaterThan(0);
      const answer = simulateRequestsReport(inventory, w.requests!, OPTIONS);
      expect(answer.summary, w.title).toBe(w.outcome.summary);
      expect(answer.counts, w.title).toEqual(w.outcome.counts);
      expect(answer.deleted, w.title).toEqual(w.outcome.deleted);
      expect(answer.stuck, w.title).toEqual(w.outcome.stuck);
    }
  });
});

// `--plan FILE` version 2 (issue 18): requests besides DELETE as "patches" (after the deletes) or a "requests" list
// whose entries name their verb (in their order); version 1 plans read as before; every error names the file, the
// line and column, the entry and the field. The parser in process; one plan run through the built binary.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../server/src/cli/plan';
import { runCli } from '../helpers/cliProcess';

const RABBIT_FINALIZER = 'deletion.finalizers.rabbitmqclusters.rabbitmq.com';
const STUCK_NS = join(__dirname, '..', '..', 'examples', 'namespace-stuck-terminating');
const KAFKA = join(__dirname, '..', '..', 'examples', 'operator-finalizers-kafka');

const parse = (text: string) => parsePlan(text, 'plan.yaml');
const errorOf = (text: string) => {
  try {
    parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the plan was accepted');
};

describe('plan version 2', () => {
  it('"patches" run after "deletes", each in its list order', () => {
    const plan = parse(`deletes:
- {apiVersion: v1, kind: Namespace, name: kafka}
patches:
- {verb: remove-finalizer, apiVersion: kafka.strimzi.io/v1beta2, kind: Kafka, namespace: kafka, name: my-cluster, finalizer: kafka.strimzi.io/finalizer}
- {verb: scale, apiVersion: apps/v1, kind: Deployment, namespace: kafka, name: op, replicas: 1}
- {verb: remove-owner-reference, apiVersion: v1, kind: ConfigMap, namespace: kafka, name: c, ownerUid: u1}
- {verb: restore-controller, finalizer: kafka.strimzi.io/finalizer}
- verb: set-owner-reference
  apiVersion: v1
  kind: ConfigMap
  namespace: kafka
  name: c
  ownerUid: u1
  to: {apiVersion: v1, kind: ConfigMap, name: b, uid: u2, blockOwnerDeletion: true}
`);
    // The plan's entries as the wire spells them (the editor's kubeGcLens/simulateRequests takes the same).
    const target = (apiVersion: string, kind: string, namespace: string | undefined, name: string) => ({
      apiVersion,
      kind,
      ...(namespace !== undefined ? { namespace } : {}),
      name,
    });
    expect(plan.requests).toEqual([
      { verb: 'delete', ...target('v1', 'Namespace', undefined, 'kafka') },
      {
        verb: 'remove-finalizer',
        ...target('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster'),
        finalizer: 'kafka.strimzi.io/finalizer',
      },
      { verb: 'scale', ...target('apps/v1', 'Deployment', 'kafka', 'op'), replicas: 1 },
      { verb: 'remove-owner-reference', ...target('v1', 'ConfigMap', 'kafka', 'c'), ownerUid: 'u1' },
      { verb: 'restore-controller', finalizer: 'kafka.strimzi.io/finalizer' },
      {
        verb: 'set-owner-reference',
        ...target('v1', 'ConfigMap', 'kafka', 'c'),
        ownerUid: 'u1',
        to: { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'u2', blockOwnerDeletion: true },
      },
    ]);
  });

  it('"requests" keep their order, a delete among them saying so', () => {
    const plan = parse(
      JSON.stringify({
        version: 2,
        arrival: 'back-to-back',
        requests: [
          { verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'op', replicas: 0 },
          { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'kafka', propagationPolicy: 'Foreground' },
          { verb: 'restore-controller', finalizer: 'f', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'b' },
        ],
      }),
    );
    expect(plan.arrival).toBe('back-to-back');
    expect(plan.requests).toEqual([
      { verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'op', replicas: 0 },
      { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'kafka', propagationPolicy: 'Foreground' },
      { verb: 'restore-controller', finalizer: 'f', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'b' },
    ]);
  });

  it("takes the blocker fixes too: a Service's backend restored, a webhook's failurePolicy set", () => {
    const plan = parse(`patches:
- {verb: restore-backend, apiVersion: v1, kind: Service, namespace: metrics, name: metrics-server}
- {verb: set-webhook-failure-policy, apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration, name: guard, webhook: guard.example.com, failurePolicy: Ignore}
`);
    expect(plan.requests).toEqual([
      { verb: 'restore-backend', apiVersion: 'v1', kind: 'Service', namespace: 'metrics', name: 'metrics-server' },
      {
        verb: 'set-webhook-failure-policy',
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        name: 'guard',
        webhook: 'guard.example.com',
        failurePolicy: 'Ignore',
      },
    ]);
    expect(
      errorOf('patches:\n- {verb: set-webhook-failure-policy, apiVersion: v1, kind: X, name: g, webhook: w, failurePolicy: ignore}\n'),
    ).toBe('plan.yaml:2:99: patches[0].failurePolicy must be Ignore or Fail');
  });

  it('a version 1 plan reads as before (its deletes, unknown fields ignored), with or without "version: 1"', () => {
    for (const text of [
      'deletes:\n- {apiVersion: v1, kind: Namespace, name: a, note: x}\n',
      'version: 1\ndeletes: [{apiVersion: v1, kind: Namespace, name: a}]\n',
    ])
      expect(() => parse(text)).not.toThrow();
    expect(parse('deletes:\n- {apiVersion: v1, kind: Namespace, name: a, note: x}\n').requests).toEqual([
      { verb: 'delete', apiVersion: 'v1', kind: 'Namespace', name: 'a' },
    ]);
  });
});

describe('plan errors name the file, line and column, the entry and the field', () => {
  const cases: [string, string, string][] = [
    [
      'a missing field',
      'patches:\n- verb: remove-finalizer\n  apiVersion: v1\n  kind: ConfigMap\n  name: c\n',
      'plan.yaml:2:3: patches[0].finalizer is missing: it must be a non-empty string',
    ],
    [
      'a wrong type',
      'patches:\n- {verb: scale, apiVersion: apps/v1, kind: Deployment, name: d, replicas: "2"}\n',
      'plan.yaml:2:75: patches[0].replicas must be a whole number, 0 or more',
    ],
    [
      'a negative count',
      'requests:\n- {verb: scale, apiVersion: apps/v1, kind: Deployment, name: d, replicas: -1}\n',
      'plan.yaml:2:75: requests[0].replicas must be a whole number, 0 or more',
    ],
    [
      'an unknown verb',
      'requests:\n- {verb: delete, apiVersion: v1, kind: Namespace, name: a}\n- {verb: drain, apiVersion: v1, kind: Node, name: n}\n',
      'plan.yaml:3:10: requests[1].verb "drain": must be one of delete, remove-finalizer, remove-owner-reference, set-owner-reference, scale, restore-controller, restore-backend, set-webhook-failure-policy',
    ],
    [
      'no verb',
      'patches:\n- {apiVersion: v1, kind: Namespace, name: a}\n',
      'plan.yaml:2:3: patches[0].verb is missing: it must be one of remove-finalizer, remove-owner-reference, set-owner-reference, scale, restore-controller, restore-backend, set-webhook-failure-policy',
    ],
    [
      'a delete among the patches',
      'patches:\n- {verb: delete, apiVersion: v1, kind: Namespace, name: a}\n',
      'plan.yaml:2:10: patches[0].verb: a delete goes in "deletes" or "requests", not "patches"',
    ],
    [
      'a misspelt field',
      'patches:\n- {verb: remove-owner-reference, apiVersion: v1, kind: ConfigMap, name: c, ownerUID: u}\n',
      'plan.yaml:2:86: patches[0].ownerUID is not a field of "remove-owner-reference": it takes apiVersion, kind, namespace, name, ownerUid',
    ],
    [
      "a nested field of set-owner-reference's to",
      'patches:\n- verb: set-owner-reference\n  apiVersion: v1\n  kind: ConfigMap\n  name: c\n  ownerUid: u1\n  to: {apiVersion: v1, kind: ConfigMap, name: b, uid: ""}\n',
      'plan.yaml:7:55: patches[0].to.uid must be a non-empty string',
    ],
    ['an entry that is not a mapping', 'requests:\n- delete namespace/a\n', 'plan.yaml:2:3: requests[0] must be a mapping'],
    [
      'requests beside deletes',
      'deletes: []\nrequests: []\n',
      'plan.yaml:2:11: requests: give "requests" (in their order) or "deletes" and "patches" (the deletes first), not both',
    ],
    [
      'patches in a version 1 plan',
      'version: 1\ndeletes: []\npatches: []\n',
      'plan.yaml:3:10: patches needs plan version 2 ("version": 2); version 1 has deletes only',
    ],
    [
      'a version this build does not read',
      'version: 3\nrequests: []\n',
      'plan.yaml:1:10: version 3: this kubectl-gc reads plan versions 1 and 2',
    ],
    [
      'a misspelt list in a plan that says its version',
      'version: 2\ndeletes: []\npatchs: []\n',
      'plan.yaml:3:9: patchs is not a field of a plan: it takes version, arrival, controllers, kubeVersion, deletes, patches, requests',
    ],
    ['a list that is not one', 'patches: {verb: scale}\n', 'plan.yaml:1:10: patches must be a list'],
    [
      'two YAML documents',
      'deletes:\n- {apiVersion: v1, kind: Namespace, name: a}\n---\ndeletes:\n- {apiVersion: v1, kind: Namespace, name: b}\n',
      'plan.yaml:3:1: a plan is one YAML document; a second one starts here, so the plan is refused',
    ],
    [
      'a merge key in an entry (YAML 1.2 has none: it is a field like any other)',
      'requests:\n- {<<: {apiVersion: v1}, verb: restore-backend, kind: Service, name: s}\n',
      'plan.yaml:2:8: requests[0].<< is not a field of "restore-backend": it takes apiVersion, kind, namespace, name',
    ],
    ['a null entry', 'requests:\n- \n', 'plan.yaml:2:3: requests[0] must be a mapping'],
    [
      'a version 1 delete field',
      'deletes:\n- {apiVersion: v1, kind: Namespace, name: a, propagationPolicy: Later}\n',
      'plan.yaml:2:65: deletes[0].propagationPolicy must be Foreground, Background, Orphan or null',
    ],
  ];
  it.each(cases)('%s', (_name, text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});

describe('a version 2 plan through the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgl-plan2-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('releases the stuck namespace of the examples; a namespaced entry without a namespace is in -n', async () => {
    const plan = join(dir, 'release.yaml');
    writeFileSync(
      plan,
      `version: 2\npatches:\n- verb: remove-finalizer\n  apiVersion: rabbitmq.com/v1beta1\n  kind: RabbitmqCluster\n  name: orders\n  finalizer: ${RABBIT_FINALIZER}\n`,
    );
    const r = await runCli(['simulate', '-f', STUCK_NS, '--plan', plan, '-n', 'legacy-mq', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: string; targets: { namespace: string; change?: unknown }[] };
    expect(report.summary).toBe(
      `Removing finalizer ${RABBIT_FINALIZER} from RabbitmqCluster legacy-mq/orders: 2 objects deleted (1 RabbitmqCluster, 1 Namespace), 0 stuck, 0 orphaned`,
    );
    expect(report.targets[0]).toMatchObject({ namespace: 'legacy-mq', change: { verb: 'remove-finalizer', detail: RABBIT_FINALIZER } });
  });

  it('runs "requests" in their order and says which is which in the timeline', async () => {
    const plan = join(dir, 'order.json');
    writeFileSync(
      plan,
      JSON.stringify({
        requests: [
          { verb: 'scale', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kafka', name: 'strimzi-cluster-operator', replicas: 0 },
          { verb: 'delete', apiVersion: 'kafka.strimzi.io/v1beta2', kind: 'Kafka', namespace: 'kafka', name: 'my-cluster' },
        ],
      }),
    );
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', plan]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('  Request 1, SCALE Deployment kafka/strimzi-cluster-operator (to 0 replicas):\n');
    expect(r.stdout).toContain('  Request 2, DELETE Kafka kafka/my-cluster:\n');
    expect(r.stdout.split('\n')[0]).toContain('1 stuck');
  });

  it('a bad plan is a usage error (exit 2) that names where', async () => {
    const plan = join(dir, 'bad.yaml');
    writeFileSync(plan, 'requests:\n- {verb: scale, apiVersion: apps/v1, kind: Deployment, name: d}\n');
    const r = await runCli(['simulate', '-f', KAFKA, '--plan', plan]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: ${plan}:2:3: requests[0].replicas is missing: it must be a whole number, 0 or more\nSee 'kubectl-gc --help' for usage.\n`,
    );
  });
});

// `kubectl gc simulate` with requests besides DELETE (issue 18): --remove-finalizer, --remove-owner-reference, --scale
// and --restore-controller, in command-line order with TYPE/NAME DELETE targets, and their plan entries. The built
// binary, spawned on the repository's examples/ and on hand-made inputs. Simulations only: nothing is sent anywhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const STUCK_NS = join(EXAMPLES, 'namespace-stuck-terminating');
const KAFKA = join(EXAMPLES, 'operator-finalizers-kafka');
const RABBIT_FINALIZER = 'deletion.finalizers.rabbitmqclusters.rabbitmq.com';
const KAFKA_FINALIZER = 'kafka.strimzi.io/finalizer';

interface Target {
  kind: string;
  name: string;
  outcome: string;
  change?: { verb: string; detail: string };
}
interface Report {
  summary: string;
  targets: Target[];
  deleted: { kind: string; name: string; cause: string }[];
  stuck: { kind: string; name: string }[];
  steps: { action: string; request?: number; target: { name: string } }[];
  notes: string[];
}

const simulateJson = async (args: string[]): Promise<Report> => {
  const r = await runCli(['simulate', ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
};
const deletedNames = (r: Report) => r.deleted.filter((d) => d.cause === 'request').map((d) => `${d.kind}/${d.name}`);

const dir = mkdtempSync(join(tmpdir(), 'kgl-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('--remove-finalizer on the examples: the namespace stuck on an uninstalled operator', () => {
  const args = ['-f', STUCK_NS, '--remove-finalizer', RABBIT_FINALIZER, 'rabbitmqcluster/orders', '-n', 'legacy-mq'];

  it('releases the RabbitmqCluster, and then the Namespace legacy-mq goes', async () => {
    const r = await simulateJson(args);
    expect(r.summary).toBe(
      `Removing finalizer ${RABBIT_FINALIZER} from RabbitmqCluster legacy-mq/orders: 2 objects deleted (1 RabbitmqCluster, 1 Namespace), 0 stuck, 0 orphaned`,
    );
    expect(r.targets).toEqual([
      expect.objectContaining({
        kind: 'RabbitmqCluster',
        name: 'orders',
        outcome: 'deleted',
        change: { verb: 'remove-finalizer', detail: RABBIT_FINALIZER },
      }),
    ]);
    expect(deletedNames(r)).toEqual(['RabbitmqCluster/orders', 'Namespace/legacy-mq']);
    expect(r.stuck).toEqual([]);
    // What the finalizer protected is a warning among the notes, not a certainty.
    expect(r.notes).toContain(
      `Removing ${RABBIT_FINALIZER}: what the controller of ${RABBIT_FINALIZER} was to clean up for RabbitmqCluster legacy-mq/orders (often outside Kubernetes: cloud resources, data, DNS records) is left behind.`,
    );
    expect(r.steps.filter((s) => s.request === 0).map((s) => [s.action, s.target.name])).toEqual([
      ['remove-finalizer', 'orders'],
      ['remove', 'orders'],
    ]);
  });

  it('the text leads with the summary, then says what the change is where a DELETE says DELETE', async () => {
    const r = await runCli(['simulate', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^Removing finalizer deletion\.finalizers\.rabbitmqclusters\.rabbitmq\.com from RabbitmqCluster legacy-mq\/orders: /,
    );
    expect(lines[2]).toBe(`PATCH RabbitmqCluster legacy-mq/orders (remove finalizer ${RABBIT_FINALIZER})`);
    expect(r.stdout).not.toContain('DELETE');
    expect(r.stdout).toMatch(/Deleted by the request \(2\)\n {2}RabbitmqCluster \(1\)\n.*orders.*\n {2}Namespace \(1\)\n.*legacy-mq/);
  });

  it('--restore-controller: the controller of the finalizer runs again (its operator reinstalled), and it goes the same way', async () => {
    const r = await simulateJson(['-f', STUCK_NS, '--restore-controller', RABBIT_FINALIZER]);
    expect(r.summary).toBe(
      `Running the controller of ${RABBIT_FINALIZER} again, for RabbitmqCluster legacy-mq/orders: 2 objects deleted (1 RabbitmqCluster, 1 Namespace), 0 stuck, 0 orphaned`,
    );
    expect(r.targets[0]).toMatchObject({ outcome: 'deleted', change: { verb: 'restore-controller', detail: RABBIT_FINALIZER } });
    const text = await runCli(['simulate', '-f', STUCK_NS, '--restore-controller', RABBIT_FINALIZER]);
    expect(text.stdout.split('\n')[2]).toBe(
      `RESTORE the controller that removes ${RABBIT_FINALIZER} (it runs again, for RabbitmqCluster legacy-mq/orders)`,
    );
  });
});

describe('requests run in command-line order, DELETE targets among them', () => {
  it('scaling the operator to 0 before deleting the Kafka leaves it stuck; after, the Kafka is gone first', async () => {
    const before = await simulateJson([
      '-f',
      KAFKA,
      '--scale',
      '0',
      'deployment/strimzi-cluster-operator',
      'kafka/my-cluster',
      '-n',
      'kafka',
    ]);
    expect(before.targets.map((t) => [t.kind, t.change?.verb ?? 'delete'])).toEqual([
      ['Deployment', 'scale'],
      ['Kafka', 'delete'],
    ]);
    expect(before.stuck.map((s) => s.name)).toEqual(['my-cluster']);
    expect(before.summary).toBe(
      `Scaling Deployment kafka/strimzi-cluster-operator to 0 replicas, then deleting Kafka kafka/my-cluster: 0 objects deleted, 1 stuck (Deployment kafka/strimzi-cluster-operator, whose controller removes ${KAFKA_FINALIZER}, is scaled to 0 replicas), 0 orphaned`,
    );

    const after = await simulateJson(['-f', KAFKA, 'kafka/my-cluster', '--scale=0', 'deployment/strimzi-cluster-operator', '-n', 'kafka']);
    expect(after.targets.map((t) => [t.kind, t.change?.verb ?? 'delete'])).toEqual([
      ['Kafka', 'delete'],
      ['Deployment', 'scale'],
    ]);
    expect(after.stuck).toEqual([]);
    expect(deletedNames(after)).toEqual(['Kafka/my-cluster']);
  });

  it('TYPE NAME … form: a request flag between two names goes between them; the timeline names each request', async () => {
    const args = ['-f', KAFKA, 'kafka', 'my-cluster', '--scale', '0', 'deploy/strimzi-cluster-operator', 'audit-cluster', '-n', 'kafka'];
    const r = await simulateJson(args);
    expect(r.targets.map((t) => `${t.kind}/${t.name}`)).toEqual([
      'Kafka/my-cluster',
      'Deployment/strimzi-cluster-operator',
      'Kafka/audit-cluster',
    ]);
    expect(deletedNames(r)).toEqual(['Kafka/my-cluster']);
    const text = (await runCli(['simulate', ...args])).stdout;
    expect(text).toContain('  Request 2, SCALE Deployment kafka/strimzi-cluster-operator (to 0 replicas):\n');
    expect(text).toContain('  Request 3, DELETE Kafka kafka/audit-cluster:\n');
  });

  it('DELETE the namespace, then remove the finalizer of one Kafka the deadlock holds: that one goes, the other stays', async () => {
    const r = await simulateJson([
      '-f',
      KAFKA,
      'namespace/kafka',
      '--remove-finalizer',
      KAFKA_FINALIZER,
      'kafka/my-cluster',
      '-n',
      'kafka',
    ]);
    expect(r.targets.map((t) => t.change?.verb ?? 'delete')).toEqual(['delete', 'remove-finalizer']);
    expect(deletedNames(r)).toContain('Kafka/my-cluster');
    expect(r.stuck.map((s) => `${s.kind}/${s.name}`).sort()).toEqual(['Kafka/audit-cluster', 'Namespace/kafka']);
  });
});

describe('--remove-owner-reference', () => {
  // A foreground owner waits on a blocking dependent that a finalizer nobody removes holds.
  const input = file(
    'foreground.yaml',
    `apiVersion: v1
kind: ConfigMap
metadata: {name: owner, namespace: shop, uid: owner-uid, finalizers: [foregroundDeletion], deletionTimestamp: "2026-11-01T00:00:00Z"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: blocker
  namespace: shop
  uid: blocker-uid
  finalizers: [example.com/hold]
  deletionTimestamp: "2026-11-01T00:00:00Z"
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: owner-uid, blockOwnerDeletion: true}]
`,
  );

  it("cuts the blocking dependent's reference: the foreground owner finishes", async () => {
    const r = await simulateJson([
      '-f',
      input,
      '--remove-owner-reference',
      'owner-uid',
      'configmap/blocker',
      '-n',
      'shop',
      '--controllers=gc',
    ]);
    expect(r.summary).toMatch(
      /^Removing the ownerReference to uid owner-uid from ConfigMap shop\/blocker: .*1 object deleted \(1 ConfigMap\)/,
    );
    expect(deletedNames(r)).toEqual(['ConfigMap/owner']);
    const text = (await runCli(['simulate', '-f', input, '--remove-owner-reference', 'owner-uid', 'cm/blocker', '-n', 'shop'])).stdout;
    expect(text.split('\n')[2]).toBe('PATCH ConfigMap shop/blocker (remove its ownerReference to uid owner-uid)');
  });
});

describe('bad request flags: a located usage error, exit 2, never a stack trace', () => {
  const cases: [string, string[], string][] = [
    ['no values', ['-f', STUCK_NS, '--remove-finalizer'], 'flag needs two arguments: --remove-finalizer FINALIZER TYPE/NAME'],
    [
      'a flag where TYPE/NAME belongs',
      ['-f', STUCK_NS, '--remove-finalizer', RABBIT_FINALIZER, '-n', 'legacy-mq'],
      `flag --remove-finalizer ${RABBIT_FINALIZER}: needs a TYPE/NAME after "${RABBIT_FINALIZER}" (--remove-finalizer FINALIZER TYPE/NAME), got -n`,
    ],
    [
      'a flag where the finalizer belongs',
      ['-f', STUCK_NS, '--remove-finalizer', '-n', 'legacy-mq', 'rabbitmqcluster/orders'],
      'flag --remove-finalizer needs FINALIZER TYPE/NAME first, got -n',
    ],
    [
      'a flag where the restored finalizer belongs',
      ['-f', STUCK_NS, '--restore-controller', '-o', 'json'],
      'flag --restore-controller needs FINALIZER first, got -o',
    ],
    [
      'not TYPE/NAME',
      ['-f', STUCK_NS, '--remove-finalizer', RABBIT_FINALIZER, 'orders', '-n', 'legacy-mq'],
      `--remove-finalizer ${RABBIT_FINALIZER} orders: "orders" is not TYPE/NAME (e.g. deployment/web)`,
    ],
    [
      'an object that is not in the input, in another namespace',
      ['-f', STUCK_NS, '--remove-finalizer', RABBIT_FINALIZER, 'rabbitmqcluster/orders'],
      `--remove-finalizer ${RABBIT_FINALIZER} rabbitmqcluster/orders: rabbitmqclusters.rabbitmq.com "orders" not found in namespace "default" in the input; it exists in namespace legacy-mq: pass -n legacy-mq`,
    ],
    [
      'a finalizer the object does not carry',
      ['-f', STUCK_NS, '--remove-finalizer', 'deletion.finalizer', 'rabbitmqcluster/orders', '-n', 'legacy-mq'],
      `--remove-finalizer deletion.finalizer rabbitmqcluster/orders: RabbitmqCluster legacy-mq/orders has no finalizer "deletion.finalizer" (its finalizers: ${RABBIT_FINALIZER})`,
    ],
    [
      'an unknown type',
      ['-f', STUCK_NS, '--remove-finalizer', RABBIT_FINALIZER, 'rabbit/orders', '-n', 'legacy-mq'],
      `--remove-finalizer ${RABBIT_FINALIZER} rabbit/orders: the server doesn't have a resource type "rabbit"`,
    ],
    [
      'replicas that are not a count',
      ['-f', KAFKA, '--scale', '-1', 'deployment/strimzi-cluster-operator', '-n', 'kafka'],
      '--scale -1 deployment/strimzi-cluster-operator: the replica count must be a whole number, 0 or more (got "-1")',
    ],
    [
      'replicas as a word',
      ['-f', KAFKA, '--scale', 'two', 'deploy/x'],
      '--scale two deploy/x: the replica count must be a whole number, 0 or more (got "two")',
    ],
    [
      'a kind that does not scale',
      ['-f', KAFKA, '--scale', '1', 'namespace/kafka'],
      '--scale 1 namespace/kafka: a Namespace cannot be scaled (kubectl scale takes Deployments, ReplicaSets, StatefulSets, ReplicationControllers and custom resources with a scale subresource)',
    ],
    [
      'an owner uid the object does not refer to',
      ['-f', STUCK_NS, '--remove-owner-reference', 'uid-1', 'namespace/legacy-mq'],
      '--remove-owner-reference uid-1 namespace/legacy-mq: Namespace legacy-mq has no ownerReference to uid "uid-1" (it has none)',
    ],
    [
      'a finalizer nothing carries',
      ['-f', STUCK_NS, '--restore-controller', 'example.com/none'],
      '--restore-controller example.com/none: no object in the input carries the finalizer "example.com/none"',
    ],
    [
      'request flags and a plan',
      ['-f', STUCK_NS, '--restore-controller', RABBIT_FINALIZER, '--plan', join(dir, 'any.yaml')],
      'give either TYPE/NAME targets and request flags (--remove-finalizer, --remove-owner-reference, --set-owner-reference, --scale, --restore-controller, --restore-backend, --set-webhook-failure-policy) or --plan, not both',
    ],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const r = await runCli(['simulate', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${message}\nSee 'kubectl-gc --help' for usage.\n`);
    expect(r.stdout).toBe('');
  });

  it('--help names each of them with its values', async () => {
    const help = (await runCli(['--help'])).stdout;
    for (const usage of [
      '--remove-finalizer FINALIZER TYPE/NAME',
      '--remove-owner-reference OWNER_UID TYPE/NAME',
      '--scale REPLICAS TYPE/NAME',
      '--restore-controller FINALIZER',
      '--set-owner-reference OWNER_UID=TYPE/NAME[@UID] TYPE/NAME',
      '--restore-backend TYPE/NAME',
      '--set-webhook-failure-policy WEBHOOK=Ignore|Fail TYPE/NAME',
    ])
      expect(help).toContain(usage);
  });

  it('only simulate takes them', async () => {
    const r = await runCli(['stuck', '-f', STUCK_NS, '--restore-controller', RABBIT_FINALIZER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('flag --restore-controller is not used by "stuck"');
  });
});

describe('hostile values in the text output', () => {
  // A finalizer and a name that carry an escape sequence, a line break and a bidi override.
  const hostileFinalizer = 'example.com/\u001b[31mred\nFAKE.yaml:1:1: error\u202e';
  const input = file(
    'hostile.json',
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'cm\u001b]0;title\u0007',
        namespace: 'shop',
        uid: 'u1',
        finalizers: [hostileFinalizer],
        deletionTimestamp: '2026-11-01T00:00:00Z',
      },
    }),
  );

  it('prints every value escaped: no control character, no forged line', async () => {
    const r = await runCli([
      'simulate',
      '-f',
      input,
      '--remove-finalizer',
      hostileFinalizer,
      'configmap/cm\u001b]0;title\u0007',
      '-n',
      'shop',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(r.stdout.split('\n').some((l) => l.startsWith('FAKE.yaml'))).toBe(false);
    expect(r.stdout.split('\n')[2]).toBe(
      'PATCH ConfigMap shop/cm\\x1b]0;title\\x07 (remove finalizer example.com/\\x1b[31mred\\nFAKE.yaml:1:1: error\\u202e)',
    );
    const json = await simulateJson([
      '-f',
      input,
      '--remove-finalizer',
      hostileFinalizer,
      'configmap/cm\u001b]0;title\u0007',
      '-n',
      'shop',
    ]);
    expect(json.targets[0].change).toEqual({ verb: 'remove-finalizer', detail: hostileFinalizer });
  });
});

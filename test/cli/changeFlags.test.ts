// `kubectl gc simulate` with the request flags that the plan's remaining change requests have (issue 18):
// --set-owner-reference, --restore-backend and --set-webhook-failure-policy, in command-line order with DELETE targets
// and the other request flags; every bad value a usage error (exit 2) naming the flag, its values and what is wrong.
// The built binary on hand-made inputs. Simulations only: nothing is sent anywhere.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';
import { cm, DELETING, HOLD, manifests, namespace, obj } from '../helpers/manifests';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from '../helpers/clusterBlockers';

interface Report {
  summary: string;
  targets: { kind: string; name: string; outcome: string; change?: { verb: string; detail: string } }[];
  deleted: { kind: string; name: string; cause: string }[];
  stuck: { kind: string; name: string }[];
  remaining: { name: string; ownerReferences: object[] }[];
  steps: { action: string; request?: number; detail: string; target: { name: string } }[];
}

const dir = mkdtempSync(join(tmpdir(), 'kgl-change-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const simulateJson = async (args: string[]): Promise<Report> => {
  const r = await runCli(['simulate', ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
};
const deletedNames = (r: Report) => r.deleted.filter((d) => d.cause === 'request').map((d) => `${d.kind}/${d.name}`);
const verbs = (r: Report) => r.targets.map((t) => t.change?.verb ?? 'delete');

// A foreground owner waits on a blocking dependent that a finalizer nobody removes holds; another ConfigMap could own it.
const owners = file(
  'owners.yaml',
  manifests(
    cm('owner', 'shop', { uid: 'owner-uid', finalizers: ['foregroundDeletion'], ...DELETING }),
    cm('keeper', 'shop', { uid: 'keeper-uid' }),
    cm('blocker', 'shop', {
      uid: 'blocker-uid',
      finalizers: [HOLD],
      ...DELETING,
      owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'owner-uid', controller: true, blockOwnerDeletion: true }],
    }),
    cm('loose', 'shop', { uid: 'loose-uid', owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'keeper', uid: 'keeper-uid' }] }),
    obj('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'viewer', {
      owners: [{ apiVersion: 'v1', kind: 'Namespace', name: 'shop', uid: 'ns-shop-uid' }],
    }),
  ),
);
const keeperRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'keeper', uid: 'keeper-uid', controller: true, blockOwnerDeletion: true };

describe('--set-owner-reference OWNER_UID=TYPE/NAME[@UID] TYPE/NAME', () => {
  const args = ['-f', owners, '-n', 'shop', '--controllers=gc', '--set-owner-reference', 'owner-uid=configmap/keeper', 'cm/blocker'];

  it('points the blocking dependent at another owner, keeping controller and blockOwnerDeletion: the foreground owner finishes', async () => {
    const r = await simulateJson(args);
    expect(r.summary).toMatch(/^Fixing the ownerReference to uid owner-uid of ConfigMap shop\/blocker: .*1 object deleted \(1 ConfigMap\)/);
    expect(r.targets).toEqual([expect.objectContaining({ name: 'blocker', change: { verb: 'set-owner-reference', detail: 'owner-uid' } })]);
    expect(deletedNames(r)).toEqual(['ConfigMap/owner']);
    expect(r.remaining.find((o) => o.name === 'blocker')!.ownerReferences).toEqual([keeperRef]);
    const text = await runCli(['simulate', ...args]);
    expect(text.stdout.split('\n')[2]).toBe(
      'PATCH ConfigMap shop/blocker (replace its ownerReference to uid owner-uid with ConfigMap keeper, uid keeper-uid)',
    );
  });

  it('the same change from a plan gives the same report', async () => {
    const plan = file(
      'set-owner.yaml',
      `requests:
- verb: set-owner-reference
  apiVersion: v1
  kind: ConfigMap
  name: blocker
  ownerUid: owner-uid
  to: {apiVersion: v1, kind: ConfigMap, name: keeper, uid: keeper-uid, controller: true, blockOwnerDeletion: true}
`,
    );
    const fromPlan = await simulateJson(['-f', owners, '-n', 'shop', '--controllers=gc', '--plan', plan]);
    expect(fromPlan).toEqual(await simulateJson(args));
  });

  it('@UID names an owner the input does not hold: the dependent then has no owner there, and the garbage collector deletes it', async () => {
    const r = await simulateJson([
      '-f',
      owners,
      '-n',
      'shop',
      '--controllers=gc',
      '--set-owner-reference',
      'keeper-uid=configmap/elsewhere@uid-gone',
      'configmap/loose',
    ]);
    expect(deletedNames(r)).toEqual(['ConfigMap/loose']);
    expect(r.steps.find((s) => s.request === 0)?.detail).toMatch(/^set the reference to ConfigMap elsewhere \(uid uid-gone\)/);
  });
});

// A webhook that fails closed (its Service is gone) intercepts UPDATEs of ConfigMaps: a finalizer's removal is refused.
const WEBHOOK = 'validate.guard.example.com';
const hooked = file(
  'webhook.yaml',
  manifests(
    namespace('team-b'),
    cm('held', 'team-b', { finalizers: [HOLD], ...DELETING }),
    cm('fresh', 'team-b'),
    webhookConfiguration('Validating', 'guard', [
      { name: 'other.guard.example.com', failurePolicy: 'Ignore', service: { namespace: 'team-b', name: 'guard-webhook' }, rules: [] },
      { name: WEBHOOK, service: { namespace: 'team-b', name: 'guard-webhook' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]),
    endpointSlice('other', 'team-b', 1),
  ),
);
const ignore = ['--set-webhook-failure-policy', `${WEBHOOK}=Ignore`, 'validatingwebhookconfiguration/guard'];
const removal = ['--remove-finalizer', HOLD, 'configmap/held'];

describe('--set-webhook-failure-policy WEBHOOK=Ignore|Fail TYPE/NAME and --restore-backend TYPE/NAME', () => {
  it('in command-line order with a DELETE target: Ignore first lets the finalizer removal through; after it, the removal is refused', async () => {
    const first = await simulateJson(['-f', hooked, '-n', 'team-b', ...ignore, 'configmap/fresh', ...removal]);
    expect(verbs(first)).toEqual(['set-webhook-failure-policy', 'delete', 'remove-finalizer']);
    expect(first.targets[0].change).toEqual({ verb: 'set-webhook-failure-policy', detail: `${WEBHOOK}=Ignore` });
    expect(deletedNames(first).sort()).toEqual(['ConfigMap/fresh', 'ConfigMap/held']);

    const after = await simulateJson(['-f', hooked, '-n', 'team-b', ...removal, 'configmap/fresh', ...ignore]);
    expect(verbs(after)).toEqual(['remove-finalizer', 'delete', 'set-webhook-failure-policy']);
    expect(after.steps.find((s) => s.request === 0)).toMatchObject({
      action: 'reject',
      detail: `500: Internal error occurred: failed calling webhook "${WEBHOOK}": service "guard-webhook" not found`,
    });
    expect(deletedNames(after)).toEqual(['ConfigMap/fresh']);
    expect(after.stuck.map((s) => s.name)).toEqual(['held']);

    const text = await runCli(['simulate', '-f', hooked, '-n', 'team-b', ...ignore]);
    expect(text.stdout.split('\n')[2]).toBe(`PATCH ValidatingWebhookConfiguration guard (failurePolicy: Ignore on webhook ${WEBHOOK})`);
  });

  it('--restore-backend: a Service the input lacks but a webhook names; restored first, the removal goes through', async () => {
    const r = await simulateJson(['-f', hooked, '-n', 'team-b', '--restore-backend', 'svc/guard-webhook', ...removal]);
    expect(verbs(r)).toEqual(['restore-backend', 'remove-finalizer']);
    expect(r.targets[0]).toMatchObject({
      kind: 'Service',
      name: 'guard-webhook',
      change: { verb: 'restore-backend', detail: 'team-b/guard-webhook' },
    });
    expect(deletedNames(r)).toEqual(['ConfigMap/held']);
    const after = await simulateJson(['-f', hooked, '-n', 'team-b', ...removal, '--restore-backend', 'service/guard-webhook']);
    expect(deletedNames(after)).toEqual([]);
  });

  it("--restore-backend: an unavailable APIService's Service has ready Pods again, and the terminating namespace goes", async () => {
    const METRICS = { namespace: 'monitoring', name: 'prometheus-adapter' };
    const input = file(
      'apiservice.yaml',
      manifests(
        namespace('team-a', { ...DELETING, extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } } }),
        cm('c', 'team-a'),
        apiService('v1beta1.metrics.example.com', METRICS, { status: 'False', reason: 'MissingEndpoints' }),
        service(METRICS.name, METRICS.namespace),
        endpointSlice(METRICS.name, METRICS.namespace, 0),
      ),
    );
    expect(deletedNames(await simulateJson(['-f', input]))).toEqual([]);
    const r = await simulateJson(['-f', input, '-n', 'monitoring', '--restore-backend', 'services/prometheus-adapter']);
    expect(r.summary).toMatch(/^Restoring the Pods behind Service monitoring\/prometheus-adapter: /);
    expect(deletedNames(r)).toContain('Namespace/team-a');
  });

  it('--restore-backend apiservice/NAME: its add-on reinstalled in another namespace (R86); refused in its namespace being deleted', async () => {
    const METRICS = { namespace: 'monitoring', name: 'prometheus-adapter' };
    const closing = (name: string) =>
      namespace(name, { ...DELETING, extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } } });
    const input = file(
      'apiservice-closing.yaml',
      manifests(
        closing('team-a'),
        closing('monitoring'),
        apiService('v1beta1.metrics.k8s.io', METRICS, { status: 'False', reason: 'MissingEndpoints' }),
        apiService('v1.apps', undefined, { status: 'True' }),
        service(METRICS.name, METRICS.namespace),
        endpointSlice(METRICS.name, METRICS.namespace, 0),
      ),
    );
    const there = await simulateJson(['-f', input, '-n', 'monitoring', '--restore-backend', 'service/prometheus-adapter']);
    expect(there.steps.find((s) => s.request === 0)).toMatchObject({
      action: 'reject',
      detail:
        '403: unable to create new content in namespace monitoring because it is being terminated (no Pod behind Service monitoring/prometheus-adapter can be created)',
    });
    expect(there.deleted.filter((d) => d.kind === 'Namespace')).toEqual([]);
    const elsewhere = await simulateJson(['-f', input, '--restore-backend', 'apiservice/v1beta1.metrics.k8s.io']);
    expect(elsewhere.targets[0]).toMatchObject({
      kind: 'APIService',
      change: { verb: 'restore-backend', detail: 'v1beta1.metrics.k8s.io' },
    });
    expect(elsewhere.summary).toMatch(/^Serving APIService v1beta1\.metrics\.k8s\.io from its add-on reinstalled elsewhere: /);
    expect(deletedNames(elsewhere).sort()).toEqual(['Namespace/monitoring', 'Namespace/team-a']);
    const text = await runCli(['simulate', '-f', input, '--restore-backend', 'apiservice/v1beta1.metrics.k8s.io']);
    expect(text.stdout).toContain(
      'RESTORE the backend of APIService v1beta1.metrics.k8s.io (its add-on reinstalled in another namespace, the APIService pointed at it)',
    );
    const local = await runCli(['simulate', '-f', input, '--restore-backend', 'apiservice/v1.apps']);
    expect(local.code).toBe(2);
    expect(local.stderr).toContain(
      '--restore-backend apiservice/v1.apps: APIService v1.apps is served by kube-apiserver itself (Local): it has no backend to restore',
    );
  });
});

describe('bad values of the new request flags: a usage error naming flag and value, exit 2', () => {
  const cases: [string, string[], string][] = [
    // --set-owner-reference
    [
      'no OWNER_UID=',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid', 'cm/blocker'],
      '--set-owner-reference owner-uid cm/blocker: "owner-uid" is not OWNER_UID=TYPE/NAME or OWNER_UID=TYPE/NAME@UID (e.g. owner-uid=deployment/web)',
    ],
    [
      'an empty uid after @',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid=cm/keeper@', 'cm/blocker'],
      '--set-owner-reference owner-uid=cm/keeper@ cm/blocker: "owner-uid=cm/keeper@" is not OWNER_UID=TYPE/NAME or OWNER_UID=TYPE/NAME@UID (e.g. owner-uid=deployment/web)',
    ],
    [
      'an owner uid the object does not refer to',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'nope=cm/keeper', 'cm/blocker'],
      '--set-owner-reference nope=cm/keeper cm/blocker: ConfigMap shop/blocker has no ownerReference to uid "nope" (it refers to ConfigMap owner (uid owner-uid))',
    ],
    [
      'a new owner the input lacks, without @UID',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid=cm/elsewhere', 'cm/blocker'],
      "--set-owner-reference owner-uid=cm/elsewhere cm/blocker: ConfigMap shop/elsewhere is not in the input (an owner is in its dependent's namespace, shop): give its uid as owner-uid=cm/elsewhere@UID",
    ],
    [
      'a uid that is not the one of the input',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid=cm/keeper@other', 'cm/blocker'],
      '--set-owner-reference owner-uid=cm/keeper@other cm/blocker: ConfigMap shop/keeper in the input has uid keeper-uid, not other: leave out @UID to use it',
    ],
    [
      'the owner it already has',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid=cm/owner', 'cm/blocker'],
      '--set-owner-reference owner-uid=cm/owner cm/blocker: ConfigMap shop/blocker already refers to ConfigMap shop/owner (uid owner-uid)',
    ],
    [
      'a namespaced owner for a cluster-scoped object',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'ns-shop-uid=cm/keeper', 'clusterrole/viewer'],
      '--set-owner-reference ns-shop-uid=cm/keeper clusterrole/viewer: ClusterRole viewer is cluster-scoped: a namespaced ConfigMap cannot own it (the garbage collector would find no such owner)',
    ],
    [
      'an unknown owner type',
      ['-f', owners, '-n', 'shop', '--set-owner-reference', 'owner-uid=widget/w', 'cm/blocker'],
      `--set-owner-reference owner-uid=widget/w cm/blocker: the server doesn't have a resource type "widget"`,
    ],
    [
      'no TYPE/NAME',
      ['-f', owners, '--set-owner-reference', 'owner-uid=cm/keeper', '-n', 'shop'],
      'flag --set-owner-reference owner-uid=cm/keeper: needs a TYPE/NAME after "owner-uid=cm/keeper" (--set-owner-reference OWNER_UID=TYPE/NAME[@UID] TYPE/NAME), got -n',
    ],
    [
      'a flag first',
      ['-f', owners, '--set-owner-reference', '-n', 'shop', 'cm/blocker'],
      'flag --set-owner-reference needs OWNER_UID=TYPE/NAME[@UID] TYPE/NAME first, got -n',
    ],
    // --restore-backend
    [
      'not a Service',
      ['-f', hooked, '-n', 'team-b', '--restore-backend', 'configmap/fresh'],
      '--restore-backend configmap/fresh: a ConfigMap is neither a Service nor an APIService: name the Service whose Pods come back (service/NAME), or the APIService served again from another namespace (apiservice/NAME)',
    ],
    [
      'a Service nothing in the input names',
      ['-f', hooked, '-n', 'team-b', '--restore-backend', 'svc/unknown'],
      '--restore-backend svc/unknown: services "unknown" not found in namespace "team-b" in the input, and no APIService, webhook or EndpointSlice of the input names it',
    ],
    [
      'not TYPE/NAME',
      ['-f', hooked, '--restore-backend', 'guard-webhook'],
      '--restore-backend guard-webhook: "guard-webhook" is not TYPE/NAME (e.g. service/metrics-server)',
    ],
    ['no value', ['-f', hooked, '--restore-backend'], 'flag needs an argument: --restore-backend'],
    ['a flag for its value', ['-f', hooked, '--restore-backend', '-o', 'json'], 'flag --restore-backend needs TYPE/NAME first, got -o'],
    // --set-webhook-failure-policy
    [
      'a policy that is not Ignore or Fail',
      ['-f', hooked, '--set-webhook-failure-policy', `${WEBHOOK}=ignore`, 'validatingwebhookconfiguration/guard'],
      `--set-webhook-failure-policy ${WEBHOOK}=ignore validatingwebhookconfiguration/guard: the failurePolicy must be Ignore or Fail (got "ignore")`,
    ],
    [
      'no =POLICY',
      ['-f', hooked, '--set-webhook-failure-policy', WEBHOOK, 'validatingwebhookconfiguration/guard'],
      `--set-webhook-failure-policy ${WEBHOOK} validatingwebhookconfiguration/guard: "${WEBHOOK}" is not WEBHOOK=Ignore or WEBHOOK=Fail`,
    ],
    [
      'a webhook the configuration does not have',
      ['-f', hooked, '--set-webhook-failure-policy', 'renamed.example.com=Ignore', 'validatingwebhookconfiguration/guard'],
      `--set-webhook-failure-policy renamed.example.com=Ignore validatingwebhookconfiguration/guard: ValidatingWebhookConfiguration guard has no webhook "renamed.example.com" (its webhooks: other.guard.example.com, ${WEBHOOK})`,
    ],
    [
      'not a webhook configuration',
      ['-f', hooked, '-n', 'team-b', '--set-webhook-failure-policy', `${WEBHOOK}=Ignore`, 'cm/fresh'],
      `--set-webhook-failure-policy ${WEBHOOK}=Ignore cm/fresh: a ConfigMap has no webhooks: name a ValidatingWebhookConfiguration or MutatingWebhookConfiguration`,
    ],
    [
      'a configuration the input lacks',
      ['-f', hooked, '--set-webhook-failure-policy', `${WEBHOOK}=Ignore`, 'mutatingwebhookconfiguration/guard'],
      `--set-webhook-failure-policy ${WEBHOOK}=Ignore mutatingwebhookconfiguration/guard: mutatingwebhookconfigurations.admissionregistration.k8s.io "guard" not found in the input`,
    ],
    [
      'no TYPE/NAME',
      ['-f', hooked, '--set-webhook-failure-policy', `${WEBHOOK}=Ignore`],
      'flag --set-webhook-failure-policy validate.guard.example.com=Ignore: needs a TYPE/NAME after "validate.guard.example.com=Ignore" (--set-webhook-failure-policy WEBHOOK=Ignore|Fail TYPE/NAME)',
    ],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const r = await runCli(['simulate', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${message}\nSee 'kubectl-gc --help' for usage.\n`);
    expect(r.stdout).toBe('');
  });

  it('only simulate takes them, and not with a plan', async () => {
    const stuck = await runCli(['stuck', '-f', hooked, '--restore-backend', 'svc/guard-webhook']);
    expect(stuck.code).toBe(2);
    expect(stuck.stderr).toContain('flag --restore-backend is not used by "stuck"');
    const plan = await runCli(['simulate', '-f', hooked, ...ignore, '--plan', join(dir, 'any.yaml')]);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('--set-webhook-failure-policy) or --plan, not both');
  });
});

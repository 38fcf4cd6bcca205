// Blockers outside ownership on the real control plane (issue 18, R74–R76; test/controlplane: Kubernetes v1.37.2's own
// kube-apiserver and namespace controller): an APIService whose Service has no endpoints and a failurePolicy: Fail
// webhook whose Service is missing, intercepting UPDATE of a custom kind, keep a namespace Terminating. Read live
// through the CLI (`stuck`, `check` with --kubeconfig): the why-chain names both blockers, the findings name them,
// and the ways out are simulated; then the ways out are run as printed, with the control plane's kubectl, and the
// namespace goes as they said (its way out of three steps, one line to paste). Skipped only where `go` is missing.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockReason, StuckItem } from '../../shared/src/protocol';
import { auditLog, productRequests } from '../helpers/auditLog';
import { failingGroupVersions } from '../../server/src/engine/simulation/namespaceConditions';
import { CONTROL_PLANE_SKIP, KUBECTL, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { apiServiceName, blockerWorld } from '../helpers/blockerWorld';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerBlockers.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-blockers-'));
const audit = auditLog(dir);
let plane: ControlPlane;
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);
const apply = (yaml: string) => kubectl(['apply', '-f', '-'], yaml);

const NS = 'stuck-ns';
const API_SERVICE = apiServiceName('blockers');
const WEBHOOK = 'validate.widgets.blockers.example.com';
const FINALIZER = 'blockers.example.com/cleanup';

const SETUP = blockerWorld('blockers', NS);

const WIDGET = `
apiVersion: blockers.example.com/v1
kind: Widget
metadata: { name: w1, namespace: ${NS}, finalizers: [${FINALIZER}] }
`;

const GUARD = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: widget-guard }
webhooks:
  - name: ${WEBHOOK}
    clientConfig: { service: { namespace: blockers-hooks, name: missing, path: /validate } }
    rules: [{ operations: [UPDATE], apiGroups: [blockers.example.com], apiVersions: ['*'], resources: [widgets] }]
    failurePolicy: Fail
    sideEffects: None
    admissionReviewVersions: [v1]
`;

interface Condition {
  type: string;
  status: string;
  message?: string;
}
const conditions = (): Condition[] =>
  (JSON.parse(kubectl(['get', 'namespace', NS, '-o', 'json', '--ignore-not-found']) || '{}') as { status?: { conditions?: Condition[] } })
    .status?.conditions ?? [];
const held = (type: string) => conditions().find((c) => c.type === type && c.status === 'True');

/** `kubectl-gc ARGS --kubeconfig …`, its JSON output parsed. */
function cli<T>(args: string[]): T {
  const r = spawnSync(process.execPath, [CLI, ...args, '--kubeconfig', plane.kubeconfig, '-o', 'json'], { encoding: 'utf8' });
  if (r.status !== 0 && !r.stdout.trim()) throw new Error(`kubectl-gc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
const stuck = () => cli<{ stuck: StuckItem[] }>(['stuck']).stuck;

/** A printed command run as a user pastes it into sh, `kubectl` being the control plane's. */
function runAsPrinted(command: string): void {
  execFileSync('sh', ['-c', `kubectl() { "$KUBECTL" --kubeconfig "$KUBECONFIG_FILE" "$@"; }; ${command}`], {
    env: { ...process.env, KUBECTL, KUBECONFIG_FILE: plane.kubeconfig },
    encoding: 'utf8',
  });
}

const flatten = (reasons: BlockReason[] = []): BlockReason[] => reasons.flatMap((r) => [r, ...flatten(r.blockedBy)]);
const started = Date.now();

beforeAll(async () => {
  if (CONTROL_PLANE_SKIP) return;
  plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs });
  apply(SETUP);
  await until('the Widget kind served', () => plane.kubectlResult(['get', 'widgets', '-n', NS]).status === 0);
  apply(WIDGET);
  apply(GUARD);
  // The aggregator's availability controller finds no endpoints behind the Service.
  await until(
    'the APIService unavailable',
    () => kubectl(['get', 'apiservice', API_SERVICE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']) === 'False',
  );
  kubectl(['delete', 'namespace', NS, '--wait=false']);
  await until('the namespace controller reporting the discovery failure and the Widget left', () =>
    Boolean(held('NamespaceDeletionDiscoveryFailure') && held('NamespaceFinalizersRemaining')),
  );
}, 240_000);

afterAll(async () => {
  await plane?.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(`test/cluster/realServerBlockers.test.ts: ${((Date.now() - started) / 1000).toFixed(1)}s, control plane start included`);
});

describe.skipIf(CONTROL_PLANE_SKIP)('a namespace held by an unavailable APIService and a webhook without a backend', () => {
  it('the namespace controller reports the failing group/version that R76 reads', () => {
    expect(failingGroupVersions(held('NamespaceDeletionDiscoveryFailure')!.message!)).toContainEqual({
      group: 'metrics.blockers.example.com',
      version: 'v1alpha1',
    });
  });

  it('stuck: the why-chain names both blockers, with the conditions the namespace controller reports', () => {
    const items = stuck();
    const ns = items.find((s) => s.kind === 'Namespace' && s.name === NS)!;
    expect(ns).toBeDefined();
    const reasons = flatten(ns.blockedBy);
    const api = reasons.find((r) => r.type === 'unavailable-apiservice')!;
    expect(api.message).toContain(
      `APIService ${API_SERVICE} is unavailable (its Service blockers-backend/api-backend has no ready endpoints)`,
    );
    expect(api.conditions?.map((c) => c.type)).toContain('NamespaceDeletionDiscoveryFailure');
    const hook = reasons.find((r) => r.type === 'blocking-webhook')!;
    expect(hook.message).toBe(
      `ValidatingWebhookConfiguration widget-guard's webhook ${WEBHOOK} intercepts the UPDATE of Widget ${NS}/w1 with failurePolicy: Fail, and its Service blockers-hooks/missing does not exist, so the apiserver rejects it`,
    );
    const widget = items.find((s) => s.kind === 'Widget' && s.name === 'w1')!;
    expect(widget.blockedBy.map((r) => r.type)).toContain('blocking-webhook');
    // What the simulation leaves is what the real namespace controller reports.
    const content = reasons.find((r) => r.type === 'namespace-content')!;
    for (const type of ['NamespaceContentRemaining', 'NamespaceFinalizersRemaining'])
      expect(content.message).toContain(`${type}: ${held(type)!.message}`);
  });

  it('the product read the blockers and their Services with GET only (the audit log)', () => {
    const requests = productRequests(audit.log);
    const resources = new Set(requests.map((e) => e.objectRef?.resource));
    for (const r of ['apiservices', 'validatingwebhookconfigurations', 'services', 'endpointslices']) expect(resources).toContain(r);
    expect(new Set(requests.map((e) => e.verb))).toEqual(new Set(['get', 'list']));
  });

  it('check: a finding on each blocker, naming the namespace it holds', () => {
    const { findings } = cli<{ findings: { code: string; object: { name: string }; message: string }[] }>(['check']);
    const api = findings.find((f) => f.code === 'unavailable-apiservice')!;
    expect(api.object.name).toBe(API_SERVICE);
    expect(api.message).toContain(`Namespace ${NS}`);
    const hook = findings.find((f) => f.code === 'blocking-webhook')!;
    expect(hook.object.name).toBe('widget-guard');
  });

  it('ways out, each simulated: blocker fixes that alone do not release the namespace say so; finalizing it does', () => {
    const ns = stuck().find((s) => s.kind === 'Namespace' && s.name === NS)!;
    const ways = ns.waysOut ?? [];
    const restore = ways.find((w) => w.title.startsWith('Restore the Pods behind Service blockers-backend/api-backend'))!;
    expect(restore.risk).toBe('safe');
    expect(restore.warning).toMatch(/this alone does not release it: Namespace stuck-ns stays Terminating/);
    // Of the fixes that clear one cause (the APIService's and the webhook's: restore, Ignore, delete), the safest 3.
    const partial = ways.filter((w) => /this alone does not release it/.test(w.warning ?? ''));
    expect(partial.length).toBe(3);
    expect(partial.map((w) => w.risk)).toEqual(['safe', 'safe', 'caution']);
    for (const w of partial) expect(w.outcome.stuck.map((s) => s.name)).toContain(NS);
    const finalize = ways.find((w) => w.title.startsWith(`Finalize namespace ${NS}`))!;
    expect(finalize.risk).toBe('dangerous');
    expect(finalize.outcome.deleted.map((d) => d.name)).toContain(NS);
    // Risk never goes down the list.
    const order = { safe: 0, caution: 1, dangerous: 2 };
    expect(ways.map((w) => order[w.risk])).toEqual([...ways.map((w) => order[w.risk])].sort());
  });

  it('nothing new is created in the terminating namespace (R77): an operator must be reinstalled elsewhere', () => {
    const r = plane.kubectlResult(['create', 'configmap', 'late', '-n', NS]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`unable to create new content in namespace ${NS} because it is being terminated`);
  });

  it("the namespace's way out of three steps (the webhook, the APIService, the Widget's finalizer), run as printed, lets it go", async () => {
    // Its finalizer's removal alone is rejected by the webhook, on the real apiserver as in the simulation.
    const alone = plane.kubectlResult([
      'patch',
      'widget',
      'w1',
      '-n',
      NS,
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers/0"}]',
    ]);
    expect(alone.status).not.toBe(0);
    expect(alone.stderr).toContain(`failed calling webhook "${WEBHOOK}"`);
    expect(alone.stderr).toContain('service "missing" not found');
    // The Widget's own way out through the webhook releases it, but not the namespace, which the APIService holds.
    const widget = stuck().find((s) => s.kind === 'Widget' && s.name === 'w1')!;
    const pair = widget.waysOut!.find((w) => w.title.startsWith('Let requests through') && w.title.includes('then: Remove the finalizer'))!;
    expect(pair.outcome.deleted.map((d) => d.name)).toEqual(['w1']);
    // The namespace's: both blockers cleared by the safest fixes that are commands, then the finalizer removed.
    const ns = stuck().find((s) => s.kind === 'Namespace' && s.name === NS)!;
    const steps = ns.waysOut!.find((w) => w.title.split(', then: ').length === 3 && !w.command.includes('\n'))!;
    expect(steps.command).toContain(`kubectl delete apiservice/${API_SERVICE}`);
    expect(steps.command).toMatch(/&& kubectl patch widget\.blockers\.example\.com\/w1 -n stuck-ns --type=json /);
    expect(steps.outcome.deleted.map((d) => d.name).sort()).toEqual([API_SERVICE, NS, 'w1'].sort());
    expect(steps.outcome.stuck).toEqual([]);
    runAsPrinted(steps.command);
    await until('the namespace gone', () => !kubectl(['get', 'namespace', NS, '--ignore-not-found', '-o', 'name']).trim(), 1200);
    expect(kubectl(['get', 'apiservice', API_SERVICE, '--ignore-not-found', '-o', 'name']).trim()).toBe('');
  });
});

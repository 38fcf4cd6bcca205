// The editor's way out, sent to the real control plane (issue 18, "Doing it, only when asked"; test/controlplane:
// Kubernetes v1.37.2's own kube-apiserver, admission and RBAC). The language server in process, connected through
// the control plane's kubeconfig with kubeGcLens.cluster.allowWrites on, is asked to remove a finalizer from objects
// in a namespace that an unavailable APIService also keeps Terminating. Every refusal expected is the one the control
// plane's own kubectl gets for the same JSON patch with --dry-run=server, and the apiserver's audit log says what was
// sent: a webhook that fails closed and that the simulation cannot see (its backend a URL nobody listens on) refuses
// the dry run, verbatim, and nothing else is sent; fixed with kubectl (failurePolicy: Ignore; a configuration
// deleted), the same way out sends the dry run then the PATCH and the object goes, while the namespace stays as
// simulated; a webhook the simulation sees (its Service missing) makes the removal no longer offered, nothing sent;
// the restricted user gets the real 403 on the dry run. (It found that a webhook configuration created while
// something was terminating stayed unread in the stuck list: test/cluster/liveClusterBlockers.test.ts.) Skipped only
// where `go` is missing.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplyWayOutResult, BlockReason, StuckItem, WayOut } from '../../shared/src/protocol';
import { ClusterApplyWayOutRequest, ClusterConnectRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { CONTROL_PLANE_SKIP, KUBECTL, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { auditLog, productRequests, WAY_OUT_USER_AGENT, type AuditEvent } from '../helpers/auditLog';
import { readOne } from '../helpers/realCluster';
import { apiServiceName, blockerWorld } from '../helpers/blockerWorld';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerWayOut.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-way-out-'));
// The PATCHes to Widgets and ConfigMaps are logged with their bodies: the cluster's own record of what was sent.
const audit = auditLog(dir, [
  { group: 'wayout.example.com', resources: ['widgets'] },
  { group: '', resources: ['configmaps'] },
]);
let plane: ControlPlane;
let admin: LspSession;
let restricted: LspSession;
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);

const NS = 'wayout-ns';
const API_SERVICE = apiServiceName('wayout');
const FINALIZER = 'wayout.example.com/cleanup';
const HOLD = 'example.com/hold';
const URL_HOOK = 'url.widgets.wayout.example.com';
const SERVICE_HOOK = 'service.widgets.wayout.example.com';

const SETUP = blockerWorld('wayout', NS);

// w1's UPDATEs go to a webhook whose backend is a URL (the simulation only judges webhooks that name a Service), w2's
// to one whose Service is missing; held is a ConfigMap the restricted user can read but not patch.
const CONTENT = `
apiVersion: wayout.example.com/v1
kind: Widget
metadata: { name: w1, namespace: ${NS}, labels: { guard: url }, finalizers: [${FINALIZER}] }
---
apiVersion: wayout.example.com/v1
kind: Widget
metadata: { name: w2, namespace: ${NS}, labels: { guard: service }, finalizers: [${FINALIZER}] }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: held, namespace: ${NS}, finalizers: [${HOLD}] }
`;

const guard = (config: string, hook: string, label: string, clientConfig: string) => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: ${config} }
webhooks:
  - name: ${hook}
    clientConfig: ${clientConfig}
    rules: [{ operations: [UPDATE], apiGroups: [wayout.example.com], apiVersions: ['*'], resources: [widgets] }]
    objectSelector: { matchLabels: { guard: ${label} } }
    failurePolicy: Fail
    sideEffects: None
    admissionReviewVersions: [v1]
`;

/** A local port nobody listens on: the URL webhook's backend is down, so the apiserver's call is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const settings = { kubeGcLens: { cluster: { allowWrites: true } } };

/** The live stuck list once `check` holds (the watch may trail kubectl by a moment). */
async function stuckWhen(session: LspSession, check: (items: StuckItem[]) => boolean): Promise<StuckItem[]> {
  let items: StuckItem[] = [];
  await until('the live stuck list to follow the cluster', async () =>
    check((items = await session.connection.sendRequest(ClusterStuckRequest, {}))),
  );
  return items;
}
const entry = (items: StuckItem[], kind: string, name: string) => items.find((i) => i.kind === kind && i.name === name);
const removal = (item: StuckItem | undefined, finalizer: string) =>
  item?.waysOut?.find((w) => w.title.startsWith(`Remove the finalizer ${finalizer} from`));

const apply = (session: LspSession, uid: string, way: WayOut): Promise<ApplyWayOutResult> =>
  session.connection.sendRequest(ClusterApplyWayOutRequest, { uid, command: way.command, summary: way.outcome.summary });

/**
 * A way out's command as a user pastes it into sh, with `--dry-run=server` added: the control plane's kubectl,
 * as `context`.
 */
function kubectlDryRun(command: string, context = 'admin'): SpawnSyncReturns<string> {
  return spawnSync(
    'sh',
    ['-c', `kubectl() { "$KUBECTL" --kubeconfig "$KUBECONFIG_FILE" --context "$CONTEXT" "$@"; }; ${command} --dry-run=server`],
    {
      env: { ...process.env, KUBECTL, KUBECONFIG_FILE: plane.kubeconfig, CONTEXT: context },
      encoding: 'utf8',
    },
  );
}

/** What kubectl prints of a refusal, `Error from server (Reason): <the Status message>`: the message. */
function refusalOf(r: SpawnSyncReturns<string>): string {
  const m = /^Error from server \(\w+\): (.*)$/s.exec(r.stderr.trim());
  if (r.status === 0 || !m) throw new Error(`kubectl was not refused (exit ${r.status}): ${r.stdout}${r.stderr}`);
  return m[1]!;
}

/** The writes the audit log records from `username`, from either of the product's user agents, after `from` events. */
const writesAfter = (from: number, username = 'kube-gc-lens-admin'): AuditEvent[] =>
  [...productRequests(audit.log), ...productRequests(audit.log, WAY_OUT_USER_AGENT)]
    .filter((e) => !['get', 'list', 'watch'].includes(e.verb) && e.user?.username === username)
    .slice(from);
const wayOutEvents = () => productRequests(audit.log, WAY_OUT_USER_AGENT).length;

const widgetPath = (name: string) => `/apis/wayout.example.com/v1/namespaces/${NS}/widgets/${name}`;
const heldPath = `/api/v1/namespaces/${NS}/configmaps/held`;
/** What the audit log says of requests: verb, URI, HTTP status. */
const seen = (events: AuditEvent[]) => events.map((e) => [e.verb, e.requestURI, e.responseStatus?.code]);
const flatten = (reasons: BlockReason[] = []): BlockReason[] => reasons.flatMap((r) => [r, ...flatten(r.blockedBy)]);
const gone = (ref: string) => /NotFound/.test(plane.kubectlResult(['get', ref, '-n', NS]).stderr);
const finalizersOf = (ref: string) => readOne(plane, ref, NS).metadata.finalizers;
const started = Date.now();

beforeAll(async () => {
  if (CONTROL_PLANE_SKIP) return;
  plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs });
  kubectl(['apply', '-f', '-'], SETUP);
  await until('the Widget kind served', () => plane.kubectlResult(['get', 'widgets', '-n', NS]).status === 0);
  kubectl(['apply', '-f', '-'], CONTENT);
  kubectl(['apply', '-f', '-'], guard('widget-url-guard', URL_HOOK, 'url', `{ url: 'https://127.0.0.1:${await closedPort()}/validate' }`));
  await until(
    'the APIService unavailable',
    () => kubectl(['get', 'apiservice', API_SERVICE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']) === 'False',
  );
  kubectl(['delete', 'namespace', NS, '--wait=false']);
  await until('the namespace controller deleting its content', () =>
    ['widget/w1', 'widget/w2', 'configmap/held'].every((ref) => readOne(plane, ref, NS).metadata.deletionTimestamp !== undefined),
  );
  admin = new LspSession({ settings });
  restricted = new LspSession({ settings });
  await admin.initialize();
  await restricted.initialize();
  await admin.connection.sendRequest(ClusterConnectRequest, { kubeconfig: plane.kubeconfig, context: 'admin', allowExec: false });
  await restricted.connection.sendRequest(ClusterConnectRequest, { kubeconfig: plane.kubeconfig, context: 'restricted', allowExec: false });
}, 240_000);

afterAll(async () => {
  await admin?.dispose();
  await restricted?.dispose();
  await plane?.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(`test/cluster/realServerWayOut.test.ts: ${((Date.now() - started) / 1000).toFixed(1)}s, control plane start included`);
});

describe.skipIf(CONTROL_PLANE_SKIP)('a way out sent by the editor to the real control plane', () => {
  it("the restricted user: the dry run gets the apiserver's 403, verbatim as kubectl --dry-run=server prints it; nothing else is sent", async () => {
    const items = await stuckWhen(restricted, (i) => Boolean(removal(entry(i, 'ConfigMap', 'held'), HOLD)));
    const held = entry(items, 'ConfigMap', 'held')!;
    const way = removal(held, HOLD)!;
    const r = await apply(restricted, held.uid, way);
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 403 });
    expect(r.message).toBe(refusalOf(kubectlDryRun(way.command, 'restricted')));
    expect(r.message).toMatch(/^configmaps "held" is forbidden: User "kube-gc-lens-restricted" cannot patch resource "configmaps"/);
    expect(r.sent.map((s) => s.path)).toEqual([`${heldPath}?dryRun=All&fieldManager=kube-gc-lens`]);
    const writes = writesAfter(0, 'kube-gc-lens-restricted');
    expect(seen(writes)).toEqual([['patch', `${heldPath}?dryRun=All&fieldManager=kube-gc-lens`, 403]]);
    expect(writes[0]!.responseStatus?.message).toBe(r.message);
    expect(finalizersOf('configmap/held')).toEqual([HOLD]);
  });

  let staleW2: WayOut;
  it('a webhook the simulation sees (its Service missing), installed after the list was shown: that removal is no longer offered, and nothing is sent; the apiserver refuses it as simulated', async () => {
    const before = await stuckWhen(admin, (i) => Boolean(removal(entry(i, 'Widget', 'w2'), FINALIZER)?.patch));
    const w2 = entry(before, 'Widget', 'w2')!;
    staleW2 = removal(w2, FINALIZER)!;
    const from = wayOutEvents();
    kubectl(
      ['apply', '-f', '-'],
      guard('widget-service-guard', SERVICE_HOOK, 'service', '{ service: { namespace: wayout-hooks, name: missing, path: /validate } }'),
    );
    const after = await stuckWhen(admin, (i) => flatten(entry(i, 'Widget', 'w2')?.blockedBy).some((b) => b.type === 'blocking-webhook'));
    const ways = entry(after, 'Widget', 'w2')!.waysOut ?? [];
    // Alone, the finalizer's removal is rejected: only after the webhook's fix, and that is two steps the editor never sends.
    expect(ways.filter((w) => w.title.startsWith('Remove the finalizer'))).toEqual([]);
    const both = ways.find((w) => w.title.includes(`then: Remove the finalizer ${FINALIZER}`))!;
    expect(both.patch).toBeUndefined();
    const stale = await apply(admin, w2.uid, staleW2);
    expect(stale).toMatchObject({ ok: false, stage: 'refused', status: 0, sent: [] });
    expect(stale.message).toMatch(/^This way out is no longer offered for Widget wayout-ns\/w2: the cluster changed since it was shown/);
    const twoSteps = await apply(admin, w2.uid, both);
    expect(twoSteps).toMatchObject({ ok: false, stage: 'refused', sent: [] });
    expect(twoSteps.message).toMatch(/is not something the editor sends/);
    expect(wayOutEvents()).toBe(from);
    // The real apiserver refuses that patch, as the simulation said (once its admission has read the configuration).
    await until('the apiserver calling the new webhook', () => kubectlDryRun(staleW2.command).status !== 0);
    const refusal = refusalOf(kubectlDryRun(staleW2.command));
    expect(refusal).toContain(`failed calling webhook "${SERVICE_HOOK}"`);
    expect(refusal).toContain('service "missing" not found');
    expect(finalizersOf('widget/w2')).toEqual([FINALIZER]);
  });

  let firstW1: WayOut;
  it("a webhook that fails closed and that the simulation cannot see (its backend a URL nobody listens on) refuses the dry run: the apiserver's answer verbatim, as kubectl --dry-run=server prints it; nothing else is sent and the finalizer stays", async () => {
    const items = await stuckWhen(admin, (i) => Boolean(removal(entry(i, 'Widget', 'w1'), FINALIZER)?.patch));
    const w1 = entry(items, 'Widget', 'w1')!;
    firstW1 = removal(w1, FINALIZER)!;
    const from = writesAfter(0).length;
    const r = await apply(admin, w1.uid, firstW1);
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 500 });
    expect(r.message).toBe(refusalOf(kubectlDryRun(firstW1.command)));
    expect(r.message).toMatch(new RegExp(`^Internal error occurred: failed calling webhook "${URL_HOOK}": .*connection refused$`));
    const dryRun = `${widgetPath('w1')}?dryRun=All&fieldManager=kube-gc-lens`;
    expect(r.sent.map((s) => s.path)).toEqual([dryRun]);
    const writes = writesAfter(from);
    expect(seen(writes)).toEqual([['patch', dryRun, 500]]);
    expect(writes[0]!.responseStatus?.message).toBe(r.message);
    expect(writes[0]!.requestObject).toEqual(firstW1.patch!.ops);
    expect(finalizersOf('widget/w1')).toEqual([FINALIZER]);
    expect(admin.logs.some((l) => l.includes(`dry-run refused (500): ${r.message}`))).toBe(true);
  });

  it('fixed with kubectl (failurePolicy: Ignore) and listed again: the same way out, the same outcome; sent: the dry run, then the PATCH, the uid and resourceVersion tested first; the Widget goes, the namespace stays as simulated', async () => {
    kubectl([
      'patch',
      'validatingwebhookconfiguration/widget-url-guard',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]',
    ]);
    // The apiserver's admission reads webhook configurations from its informer: once kubectl's dry run passes, so would ours.
    await until('the apiserver ignoring the failing webhook', () => kubectlDryRun(firstW1.command).status === 0);
    const items = await stuckWhen(admin, (i) => Boolean(removal(entry(i, 'Widget', 'w1'), FINALIZER)));
    const w1 = entry(items, 'Widget', 'w1')!;
    const way = removal(w1, FINALIZER)!;
    expect(way).toEqual(firstW1);
    expect(way.outcome.deleted.map((d) => d.name)).toEqual(['w1']);
    expect(way.outcome.stuck.map((s) => `${s.kind} ${s.name}`)).toContain(`Namespace ${NS}`);
    const from = writesAfter(0).length;
    const rv = readOne(plane, 'widget/w1', NS).metadata.resourceVersion;
    const r = await apply(admin, w1.uid, way);
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    const writes = writesAfter(from);
    expect(seen(writes)).toEqual([
      ['patch', `${widgetPath('w1')}?dryRun=All&fieldManager=kube-gc-lens`, 200],
      ['patch', `${widgetPath('w1')}?fieldManager=kube-gc-lens`, 200],
    ]);
    for (const w of writes) {
      expect(w.requestObject).toEqual([
        { op: 'test', path: '/metadata/uid', value: w1.uid },
        { op: 'test', path: '/metadata/resourceVersion', value: rv },
        { op: 'test', path: '/metadata/finalizers/0', value: FINALIZER },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ]);
      expect(w.userAgent).toBe(`${WAY_OUT_USER_AGENT} uid/${w1.uid}`);
    }
    await until('Widget w1 gone', () => gone('widget/w1'));
    expect(readOne(plane, `namespace/${NS}`).metadata.deletionTimestamp).toBeDefined();
  });

  it("the other webhook's configuration deleted with kubectl: w2's removal is offered again, as it was, and sent; the Widget goes", async () => {
    kubectl(['delete', 'validatingwebhookconfiguration/widget-service-guard']);
    await until('the apiserver no longer calling the deleted webhook', () => kubectlDryRun(staleW2.command).status === 0);
    const items = await stuckWhen(admin, (i) => Boolean(removal(entry(i, 'Widget', 'w2'), FINALIZER)));
    const w2 = entry(items, 'Widget', 'w2')!;
    const way = removal(w2, FINALIZER)!;
    expect(way.command).toBe(staleW2.command);
    const from = writesAfter(0).length;
    const r = await apply(admin, w2.uid, way);
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    expect(seen(writesAfter(from))).toEqual([
      ['patch', `${widgetPath('w2')}?dryRun=All&fieldManager=kube-gc-lens`, 200],
      ['patch', `${widgetPath('w2')}?fieldManager=kube-gc-lens`, 200],
    ]);
    await until('Widget w2 gone', () => gone('widget/w2'));
  });

  it("the namespace, held by its last finalizer and the unavailable APIService: the APIService's fixes say they alone do not release it, and so does the finalizer's removal; sent, the real namespace controller agrees", async () => {
    const items = await stuckWhen(admin, (i) => !entry(i, 'Widget', 'w1') && !entry(i, 'Widget', 'w2'));
    const ns = entry(items, 'Namespace', NS)!;
    const nsWays = ns.waysOut ?? [];
    const apiFixes = nsWays.filter(
      (w) =>
        !w.title.includes(', then: ') &&
        (w.title.startsWith('Restore the Pods behind Service wayout-backend/api-backend') ||
          w.command === `kubectl delete apiservice/${API_SERVICE}`),
    );
    expect(apiFixes.map((w) => w.risk)).toEqual(['safe', 'caution']);
    for (const w of apiFixes) {
      expect(w.warning).toMatch(new RegExp(`this alone does not release it: Namespace ${NS} stays Terminating: NamespaceContentRemaining`));
      expect(w.outcome.stuck.map((s) => s.name)).toContain(NS);
    }
    // Removing the ConfigMap's finalizer releases the ConfigMap, not the namespace: alone, no way out of the namespace;
    // after each of the APIService's fixes, one (two steps, which the editor never sends).
    expect(nsWays.filter((w) => w.title.startsWith('Remove the finalizer'))).toEqual([]);
    const chains = nsWays.filter((w) => w.title.endsWith(`, then: Remove the finalizer ${HOLD} from ConfigMap ${NS}/held`));
    expect(chains.map((w) => w.title.split(', then: ')[0])).toEqual(apiFixes.map((w) => w.title));
    for (const w of chains) {
      expect(w.patch).toBeUndefined();
      expect(w.outcome.deleted.map((d) => d.name)).toEqual(expect.arrayContaining([NS, 'held']));
    }
    const held = entry(items, 'ConfigMap', 'held')!;
    const way = removal(held, HOLD)!;
    expect(way.outcome.deleted.map((d) => `${d.kind} ${d.name}`)).toEqual(['ConfigMap held']);
    expect(way.outcome.stuck.map((s) => s.reason)).toEqual([
      expect.stringMatching(
        new RegExp(`^Namespace ${NS} stays Terminating: APIService ${API_SERVICE.replace(/\./g, '\\.')} is unavailable`),
      ),
    ]);
    const from = writesAfter(0).length;
    const r = await apply(admin, held.uid, way);
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    expect(seen(writesAfter(from))).toEqual([
      ['patch', `${heldPath}?dryRun=All&fieldManager=kube-gc-lens`, 200],
      ['patch', `${heldPath}?fieldManager=kube-gc-lens`, 200],
    ]);
    await until('ConfigMap held gone', () => gone('configmap/held'));
    // The namespace controller finds nothing left inside, and still cannot finish: discovery fails.
    const condition = (type: string) =>
      (readOne(plane, `namespace/${NS}`).status?.conditions ?? []).find((c) => c.type === type && c.status === 'True');
    await until('the namespace controller finding its content gone', () => !condition('NamespaceContentRemaining'), 1200);
    expect(condition('NamespaceDeletionDiscoveryFailure')?.message).toContain('metrics.wayout.example.com/v1alpha1');
    expect(readOne(plane, `namespace/${NS}`).metadata.deletionTimestamp).toBeDefined();
    // Now the APIService's deletion releases it, as simulated; a blocker's fix is never sent by the editor.
    const after = await stuckWhen(admin, (i) => !entry(i, 'ConfigMap', 'held'));
    const del = entry(after, 'Namespace', NS)!.waysOut!.find((w) => w.command === `kubectl delete apiservice/${API_SERVICE}`)!;
    expect(del.warning).not.toMatch(/alone does not release/);
    expect(del.outcome.deleted.map((d) => d.name)).toContain(NS);
    const refused = await apply(admin, ns.uid, del);
    expect(refused).toMatchObject({ ok: false, stage: 'refused', sent: [] });
    expect(refused.message).toMatch(/is not something the editor sends/);
  });

  it('over the whole story the product sent reads, and only the PATCHes of the ways out it was asked for', () => {
    const reads = productRequests(audit.log);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((e) => !['get', 'list', 'watch'].includes(e.verb))).toEqual([]);
    const dry = (p: string) => `${p}?dryRun=All&fieldManager=kube-gc-lens`;
    const real = (p: string) => `${p}?fieldManager=kube-gc-lens`;
    expect(seen(productRequests(audit.log, WAY_OUT_USER_AGENT))).toEqual([
      ['patch', dry(heldPath), 403],
      ['patch', dry(widgetPath('w1')), 500],
      ['patch', dry(widgetPath('w1')), 200],
      ['patch', real(widgetPath('w1')), 200],
      ['patch', dry(widgetPath('w2')), 200],
      ['patch', real(widgetPath('w2')), 200],
      ['patch', dry(heldPath), 200],
      ['patch', real(heldPath), 200],
    ]);
  });
});

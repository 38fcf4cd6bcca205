// The preconditions of every write, on the real control plane (test/controlplane: Kubernetes v1.37.2's own
// kube-apiserver) and its audit log, through a loopback proxy that holds back watch events as a lagging view does
// (test/helpers/watchHoldingProxy.ts). An object stuck on example.com/hold, shown with its way out, is removed by hand
// and a healthy object of the same name, with the same finalizer, created while the view lags: Apply Fix… on the old
// row is refused by its uid test (422), says the object changed since it was shown, and the new object keeps its
// finalizer; the audit log shows the refused PATCH, its uid test and the uid in its userAgent. The scale way out's
// same gap: the workload deleted and created again at 0 replicas. Settings that can no longer be read turn writes off:
// nothing but GET, LIST and WATCH goes out. Skipped only where `go` is missing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplyWayOutResult, StuckItem, WayOut } from '../../shared/src/protocol';
import { ClusterApplyWayOutRequest, ClusterConnectRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { LspSession } from '../../testkit/lsp/lspSession';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { auditLog, productRequests, WAY_OUT_USER_AGENT, type AuditEvent } from '../helpers/auditLog';
import { readOne } from '../helpers/realCluster';
import { startWatchHoldingProxy, type WatchHoldingProxy } from '../helpers/watchHoldingProxy';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerPreconditions.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-preconditions-'));
// The PATCHes to ConfigMaps and to Deployments' scale are logged with their bodies: the cluster's record of what was sent.
const audit = auditLog(dir, [
  { group: '', resources: ['configmaps'] },
  { group: 'apps', resources: ['deployments/scale'] },
]);
let plane: ControlPlane;
let proxy: WatchHoldingProxy;
let session: LspSession;
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);

const NS = 'wo';
const HOLD = 'example.com/hold';
const SCALED = 'example.com/scaled';

const settings = {
  kubeGcLens: {
    cluster: { allowWrites: true },
    finalizerOwners: [
      { finalizer: HOLD, running: false },
      { finalizer: SCALED, workload: { kind: 'Deployment', namespace: NS, name: 'holder' } },
    ],
  },
};

const configMap = (name: string, finalizer: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, finalizers: [finalizer] } });
const holder = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'holder', namespace: NS },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: 'holder' } },
    template: { metadata: { labels: { app: 'holder' } }, spec: { containers: [{ name: 'op', image: 'registry.local/op:1' }] } },
  },
});

/** The live stuck list once `check` holds (the watch may trail kubectl by a moment). */
async function stuckWhen(check: (items: StuckItem[]) => boolean): Promise<StuckItem[]> {
  let items: StuckItem[] = [];
  await until('the live stuck list to follow the cluster', async () =>
    check((items = await session.connection.sendRequest(ClusterStuckRequest, {}))),
  );
  return items;
}
const entry = (items: StuckItem[], name: string) => items.find((i) => i.kind === 'ConfigMap' && i.name === name);
const removal = (item: StuckItem | undefined) => item?.waysOut?.find((w) => w.title.startsWith(`Remove the finalizer ${HOLD} from`));
const scaleUp = (item: StuckItem | undefined) => item?.waysOut?.find((w) => w.patch?.subresource === 'scale');
const apply = (uid: string, way: WayOut): Promise<ApplyWayOutResult> =>
  session.connection.sendRequest(ClusterApplyWayOutRequest, { uid, command: way.command, summary: way.outcome.summary });
const uidOf = (ref: string) => readOne(plane, ref, NS).metadata.uid;

/** Every request of the product's (reads and writes, from either of its user agents) after the first `from`. */
const requestsAfter = (from: number): AuditEvent[] =>
  [...productRequests(audit.log), ...productRequests(audit.log, WAY_OUT_USER_AGENT)]
    .sort((x, y) => (x.requestReceivedTimestamp ?? '').localeCompare(y.requestReceivedTimestamp ?? ''))
    .slice(from);
const wayOutEvents = () => productRequests(audit.log, WAY_OUT_USER_AGENT);
const started = Date.now();

beforeAll(async () => {
  if (CONTROL_PLANE_SKIP) return;
  plane = await startControlPlane({ apiserverArgs: audit.apiserverArgs });
  kubectl(['create', 'namespace', NS]);
  kubectl(['apply', '-f', '-'], holder);
  for (const [name, finalizer] of [
    ['stuck1', HOLD],
    ['stuck2', HOLD],
    ['scaled', SCALED],
  ])
    kubectl(['apply', '-f', '-'], configMap(name, finalizer));
  kubectl(['delete', 'configmap', 'stuck1', 'stuck2', 'scaled', '-n', NS, '--wait=false']);
  proxy = await startWatchHoldingProxy(plane.kubeconfig, dir);
  session = new LspSession({ settings });
  await session.initialize();
  await session.connection.sendRequest(ClusterConnectRequest, { kubeconfig: proxy.kubeconfig, context: 'proxied', allowExec: false });
}, 240_000);

afterAll(async () => {
  await session?.dispose();
  await proxy?.close();
  await plane?.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(`test/cluster/realServerPreconditions.test.ts: ${((Date.now() - started) / 1000).toFixed(1)}s, control plane start included`);
}, 60_000);

describe.skipIf(CONTROL_PLANE_SKIP)('preconditions on every write, on the real control plane', () => {
  it('an object removed by hand and created again under its name while the view lags: Apply Fix… on the old row is refused by its uid test, says so, and the new object keeps its finalizer', async () => {
    const items = await stuckWhen((i) => Boolean(removal(entry(i, 'stuck1'))?.patch) && Boolean(scaleUp(entry(i, 'scaled'))?.patch));
    const old = entry(items, 'stuck1')!;
    const way = removal(old)!;
    const shownRv = readOne(plane, 'configmap/stuck1', NS).metadata.resourceVersion;
    proxy.hold();
    // By hand: its finalizer removed, so it goes; then a healthy ConfigMap of the same name, with the same finalizer.
    kubectl(['patch', 'configmap/stuck1', '-n', NS, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers/0"}]']);
    await until('the old stuck1 gone', () => plane.kubectlResult(['get', 'configmap/stuck1', '-n', NS]).status !== 0);
    kubectl(['apply', '-f', '-'], configMap('stuck1', HOLD));
    const fresh = uidOf('configmap/stuck1');
    expect(fresh).not.toBe(old.uid);
    // The view still shows the old row, and offers the same way out.
    const lagging = await session.connection.sendRequest(ClusterStuckRequest, {});
    expect(entry(lagging, 'stuck1')?.uid).toBe(old.uid);
    expect(removal(entry(lagging, 'stuck1'))?.command).toBe(way.command);

    const from = wayOutEvents().length;
    const r = await apply(old.uid, way);
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 422, objectChanged: true });
    expect(r.message).toMatch(
      new RegExp(`^ConfigMap ${NS}/stuck1 changed since you looked: it is no longer the object \\(uid ${old.uid}\\)`),
    );
    expect(r.message).toContain('nothing was changed');
    expect(readOne(plane, 'configmap/stuck1', NS).metadata.finalizers).toEqual([HOLD]);
    // The apiserver's own record: one PATCH, the dry run, refused; its body tests the old uid and its userAgent names it.
    const sent = wayOutEvents().slice(from);
    expect(sent.map((e) => [e.verb, e.requestURI, e.responseStatus?.code])).toEqual([
      ['patch', `/api/v1/namespaces/${NS}/configmaps/stuck1?dryRun=All&fieldManager=kube-gc-lens`, 422],
    ]);
    expect(sent[0]!.userAgent).toBe(`${WAY_OUT_USER_AGENT} uid/${old.uid}`);
    expect(sent[0]!.requestObject).toEqual(way.patch!.ops);
    expect(way.patch!.ops.slice(0, 2)).toEqual([
      { op: 'test', path: '/metadata/uid', value: old.uid },
      { op: 'test', path: '/metadata/resourceVersion', value: shownRv },
    ]);
    expect(
      session.logs.some((l) => l.startsWith(`Way out for uid ${old.uid}: dry-run refused (422)`) && l.includes(`for uid ${old.uid}`)),
    ).toBe(true);
  });

  it("the scale way out's same gap: its workload deleted and created again at 0 replicas while the view lags; the scale-up on the old row is refused, the new one stays at 0", async () => {
    const lagging = await session.connection.sendRequest(ClusterStuckRequest, {});
    const scaled = entry(lagging, 'scaled')!;
    const way = scaleUp(scaled)!;
    const oldHolder = way.patch!.target.uid;
    kubectl(['delete', 'deployment/holder', '-n', NS, '--wait=true']);
    kubectl(['apply', '-f', '-'], holder);
    expect(uidOf('deployment/holder')).not.toBe(oldHolder);
    const from = wayOutEvents().length;
    const r = await apply(scaled.uid, way);
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 422, objectChanged: true });
    expect(r.message).toMatch(
      new RegExp(`^Deployment ${NS}/holder changed since you looked: it is no longer the object \\(uid ${oldHolder}\\)`),
    );
    expect(JSON.parse(kubectl(['get', 'deployment/holder', '-n', NS, '-o', 'json'])).spec.replicas).toBe(0);
    const sent = wayOutEvents().slice(from);
    expect(sent.map((e) => [e.verb, e.requestURI, e.responseStatus?.code, e.userAgent])).toEqual([
      [
        'patch',
        `/apis/apps/v1/namespaces/${NS}/deployments/holder/scale?dryRun=All&fieldManager=kube-gc-lens`,
        422,
        `${WAY_OUT_USER_AGENT} uid/${oldHolder}`,
      ],
    ]);
    expect(sent[0]!.requestObject).toEqual(way.patch!.ops);
    expect(way.command).toContain(' --subresource=scale --type=json ');
  });

  it('once the watch events are let through, the view follows: the old row is gone, and the new, healthy object is not stuck', async () => {
    proxy.release();
    const fresh = uidOf('configmap/stuck1');
    const items = await stuckWhen((i) => entry(i, 'stuck1') === undefined && Boolean(removal(entry(i, 'stuck2'))));
    expect(items.some((i) => i.uid === fresh)).toBe(false);
  });

  it('settings that can no longer be read turn writes off, although they were on: refused, said so, and nothing but GET, LIST and WATCH goes out', async () => {
    const items = await stuckWhen((i) => Boolean(removal(entry(i, 'stuck2'))?.patch));
    const stuck2 = entry(items, 'stuck2')!;
    const way = removal(stuck2)!;
    const from = requestsAfter(0).length;
    const wayOutsBefore = wayOutEvents().length;
    session.settingsError = 'the client could not answer workspace/configuration';
    let r: ApplyWayOutResult;
    try {
      r = await apply(stuck2.uid, way);
    } finally {
      session.settingsError = undefined;
    }
    expect(r).toMatchObject({ ok: false, stage: 'refused', status: 0, sent: [] });
    expect(r.message).toMatch(
      /^Writes to the cluster are off: the editor's settings could not be read \(the client could not answer workspace\/configuration\)/,
    );
    expect(session.logs.some((l) => /^Could not read settings.*allowWrites, which is treated as off/.test(l))).toBe(true);
    // A read the apiserver answers after the refusal: the audit log is complete up to it.
    await session.connection.sendRequest(ClusterStuckRequest, {});
    kubectl(['get', 'configmap/stuck2', '-n', NS]);
    expect(wayOutEvents().length).toBe(wayOutsBefore);
    expect(requestsAfter(from).filter((e) => !['get', 'list', 'watch'].includes(e.verb))).toEqual([]);
    expect(readOne(plane, 'configmap/stuck2', NS).metadata.finalizers).toEqual([HOLD]);
  });
});

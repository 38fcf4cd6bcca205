// Doing a way out, only when asked (issue 18), against the API test server: the language server in process sends
// nothing unless its own kubeGcLens.cluster.allowWrites is on; then exactly a dry run (dryRun=All) and the same JSON
// patch for real, with its test op, and nothing else; a refusal of the dry run is returned verbatim and stops there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StuckItem, WayOut } from '../../shared/src/protocol';
import { ClusterApplyWayOutRequest, ClusterConnectRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { settingsUnreadableMessage, WRITES_OFF } from '../../server/src/app/wayOutActions';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { ns } from './clusterFixtures';

const T = '2026-11-20T08:00:00Z';
const GONE = '2026-11-20T09:00:00Z';
const HOLD = 'example.com/hold';
const SCALED = 'example.com/scaled';
/** Held by holder2, a workload at 0 replicas that the lagging view's test replaces. */
const SCALED2 = 'example.com/scaled2';

const held = (name: string, uid: string, finalizer = HOLD, namespace = 'shop') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid, creationTimestamp: T, deletionTimestamp: GONE, finalizers: [finalizer] },
});

const holder = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'holder', namespace: 'shop', uid: 'd-holder', creationTimestamp: T },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: 'holder' } },
    template: { metadata: { labels: { app: 'holder' } }, spec: { containers: [{ name: 'op', image: 'registry.local/op:1' }] } },
  },
};

const holder2 = { ...holder, metadata: { ...holder.metadata, name: 'holder2', uid: 'd-holder2' } };

let server: KubeApiServer;
let dir: string;
let lsp: LspSession;

const settings = (allowWrites?: boolean) => ({
  kubeGcLens: {
    finalizerOwners: [
      { finalizer: SCALED, workload: { kind: 'Deployment', namespace: 'shop', name: 'holder' } },
      { finalizer: SCALED2, workload: { kind: 'Deployment', namespace: 'shop', name: 'holder2' } },
      // Its operator was uninstalled: nobody removes it.
      { finalizer: HOLD, running: false },
    ],
    ...(allowWrites === undefined ? {} : { cluster: { allowWrites } }),
  },
});

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'writes-token', patches: true });
  dir = mkdtempSync(join(tmpdir(), 'kgl-way-out-'));
  const kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  // Every cluster has kube-system: its uid is the cluster's identity, without which nothing is sent.
  server.add(ns('kube-system', 'ns-kube-system'));
  server.add(ns('shop', 'ns-shop'));
  server.add(holder);
  for (const [name, uid] of [
    ['off', 'cm-off'],
    ['refused', 'cm-refused'],
    ['released', 'cm-released'],
    ['changed', 'cm-changed'],
  ])
    server.add(held(name, uid));
  server.add(held('scaled', 'cm-scaled', SCALED));
  server.add(holder2);
  server.add(held('scaled2', 'cm-scaled2', SCALED2));
  // A webhook that fails closed, its Service gone, holds a ConfigMap of namespace hooked (only there: its selector).
  // failurePolicy is written out, as admissionregistration/v1 always serves it (defaulted to Fail on create).
  server.add(ns('hooked', 'ns-hooked'));
  server.add(held('hooked', 'cm-hooked', HOLD, 'hooked'));
  server.add({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'guard', uid: 'vwc-guard', creationTimestamp: T },
    webhooks: [
      {
        name: 'validate.guard.example.com',
        clientConfig: { service: { namespace: 'guard', name: 'gone', path: '/validate', port: 443 } },
        rules: [{ operations: ['UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'hooked' } },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  lsp = new LspSession({ settings: settings() });
  await lsp.initialize();
  await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false });
});

afterAll(async () => {
  await lsp?.dispose();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  lsp.settings = settings(true);
  server.faults.clear();
  server.resetLog();
});

async function waysOutOf(uid: string): Promise<WayOut[]> {
  const items: StuckItem[] = await lsp.connection.sendRequest(ClusterStuckRequest, {});
  return items.find((i) => i.uid === uid)?.waysOut ?? [];
}

type Stored = { metadata: { uid: string; resourceVersion: string } };
const stored = (uid: string) => server.objects().find((o) => (o.metadata as { uid: string }).uid === uid) as Stored | undefined;
/** The preconditions every way out's patch starts with: the uid shown, and the resourceVersion it was simulated on. */
const preconditions = (uid: string) => [
  { op: 'test', path: '/metadata/uid', value: uid },
  { op: 'test', path: '/metadata/resourceVersion', value: stored(uid)!.metadata.resourceVersion },
];
const finalizersOf = (uid: string) => (stored(uid)?.metadata as { finalizers?: string[] } | undefined)?.finalizers;
const removal = (ways: WayOut[]) => ways.find((w) => w.title.startsWith(`Remove the finalizer ${HOLD}`))!;
const nonGets = () => server.requests.filter((r) => r.method !== 'GET');

describe('a way out sent to the cluster', () => {
  it('lists ways out with the exact patch; a comment (reinstall an operator) has none', async () => {
    const ways = await waysOutOf('cm-off');
    expect(ways.map((w) => [w.risk, Boolean(w.patch)])).toEqual([
      ['safe', false],
      ['dangerous', true],
    ]);
    expect(removal(ways).patch).toEqual({
      target: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'off', uid: 'cm-off' },
      ops: [
        ...preconditions('cm-off'),
        { op: 'test', path: '/metadata/finalizers/0', value: HOLD },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ],
    });
    expect(server.writes()).toBe(0);
  });

  it('is refused, and nothing sent, unless the server itself has allowWrites on', async () => {
    const way = removal(await waysOutOf('cm-off'));
    for (const allowWrites of [undefined, false]) {
      lsp.settings = settings(allowWrites);
      const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-off', command: way.command });
      expect(r).toEqual({ ok: false, stage: 'refused', status: 0, message: WRITES_OFF, sent: [] });
    }
    expect(server.writes()).toBe(0);
    expect(server.objects().some((o) => (o.metadata as { uid: string }).uid === 'cm-off')).toBe(true);
  });

  it('sends a dry run, then the same JSON patch with its test ops (the uid first), and nothing else; its User-Agent names the uid', async () => {
    const way = removal(await waysOutOf('cm-released'));
    const shown = preconditions('cm-released');
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-released',
      command: way.command,
      summary: way.outcome.summary,
    });
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    const body = JSON.stringify([
      ...shown,
      { op: 'test', path: '/metadata/finalizers/0', value: HOLD },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    const path = '/api/v1/namespaces/shop/configmaps/released';
    expect(nonGets().map((q) => [q.method, q.path, q.query, q.contentType, q.body])).toEqual([
      ['PATCH', path, { dryRun: 'All', fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
      ['PATCH', path, { fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
    ]);
    expect(nonGets().map((q) => q.userAgent)).toEqual(Array(2).fill('kube-gc-lens (way out, asked by the user) uid/cm-released'));
    expect(r.sent.map((s) => [s.path, s.uid])).toEqual([
      [`${path}?dryRun=All&fieldManager=kube-gc-lens`, 'cm-released'],
      [`${path}?fieldManager=kube-gc-lens`, 'cm-released'],
    ]);
    // Its last finalizer gone, the apiserver removed it; the log says what was sent.
    expect(server.objects().some((o) => (o.metadata as { uid: string }).uid === 'cm-released')).toBe(false);
    expect(lsp.logs.some((l) => l.includes(`PATCH ${path}?dryRun=All&fieldManager=kube-gc-lens for uid cm-released`))).toBe(true);
  });

  it("shows the dry run's refusal verbatim and sends nothing more", async () => {
    const way = removal(await waysOutOf('cm-refused'));
    const denial = 'admission webhook "deny.example.com" denied the request: finalizers of shop/* are managed by the platform team';
    server.faults.rejectPatches({ group: '', resource: 'configmaps', namespace: 'shop' }, { status: 400, message: denial });
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-refused', command: way.command });
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 400, message: denial });
    expect(nonGets().map((q) => q.query.dryRun)).toEqual(['All']);
    expect(server.objects().some((o) => (o.metadata as { uid: string }).uid === 'cm-refused')).toBe(true);
  });

  it('an RBAC refusal of the dry run, verbatim', async () => {
    const way = removal(await waysOutOf('cm-refused'));
    const forbidden =
      'configmaps "refused" is forbidden: User "test" cannot patch resource "configmaps" in API group "" in the namespace "shop"';
    server.faults.rejectPatches({ group: '', resource: 'configmaps' }, { status: 403, message: forbidden });
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-refused', command: way.command });
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 403, message: forbidden });
    expect(server.writes()).toBe(1);
  });

  it('a test op that no longer holds fails the real PATCH (the object changed after the dry run)', async () => {
    const way = removal(await waysOutOf('cm-changed'));
    server.faults.rejectPatches(
      { group: '', resource: 'configmaps' },
      { status: 422, message: 'the server rejected our request due to an error in our request', dryRun: false },
    );
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-changed', command: way.command });
    expect(r).toMatchObject({ ok: false, stage: 'patch', status: 422, objectChanged: true });
    expect(r.message).toMatch(/^ConfigMap shop\/changed changed since you looked: .*uid cm-changed.*nothing was changed/);
    expect(server.writes()).toBe(2);
  });

  it('sends nothing for a command that is not one of the ways out now, or an outcome that changed', async () => {
    const way = removal(await waysOutOf('cm-changed'));
    const tampered = way.command.replace('finalizers/0', 'finalizers/1');
    const r1 = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-changed', command: tampered });
    expect(r1).toMatchObject({ ok: false, stage: 'refused', sent: [] });
    expect(r1.message).toMatch(/no longer offered/);
    const r2 = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-changed',
      command: way.command,
      summary: 'something else',
    });
    expect(r2).toMatchObject({ ok: false, stage: 'refused', sent: [] });
    const reinstall = (await waysOutOf('cm-changed')).find((w) => !w.patch)!;
    const r3 = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-changed', command: reinstall.command });
    expect(r3).toMatchObject({ ok: false, stage: 'refused', sent: [] });
    expect(r3.message).toMatch(/not something the editor sends/);
    expect(server.writes()).toBe(0);
  });

  it('scales the controller up through the scale subresource, dry run first', async () => {
    const ways = await waysOutOf('cm-scaled');
    const scale = ways.find((w) => w.patch?.subresource === 'scale')!;
    expect(scale.risk).toBe('safe');
    const shown = preconditions('d-holder');
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-scaled', command: scale.command });
    expect(r).toMatchObject({ ok: true, stage: 'patch' });
    const path = '/apis/apps/v1/namespaces/shop/deployments/holder/scale';
    const ops = [...shown, { op: 'test', path: '/spec', value: {} }, { op: 'add', path: '/spec/replicas', value: 1 }];
    const body = JSON.stringify(ops);
    expect(scale.command).toBe(`kubectl patch deployment.apps/holder -n shop --subresource=scale --type=json -p '${body}'`);
    expect(nonGets().map((q) => [q.path, q.query.dryRun, q.body])).toEqual([
      [path, 'All', body],
      [path, undefined, body],
    ]);
    const stored = server.objects().find((o) => (o.metadata as { uid: string }).uid === 'd-holder') as { spec: { replicas: number } };
    expect(stored.spec.replicas).toBe(1);
  });

  it("sets a blocking webhook's failurePolicy to Ignore: its test ops, then replace, dry run first; restoring its Service is copied only", async () => {
    const ways = await waysOutOf('cm-hooked');
    const ignore = ways.find((w) => w.title.endsWith('set failurePolicy: Ignore on webhook validate.guard.example.com'))!;
    const ops = [
      // The configuration's uid, not its resourceVersion (an injector's caBundle moves it): the webhook is pinned below.
      { op: 'test', path: '/metadata/uid', value: 'vwc-guard' },
      { op: 'test', path: '/webhooks/0/name', value: 'validate.guard.example.com' },
      { op: 'test', path: '/webhooks/0/failurePolicy', value: 'Fail' },
      { op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' },
    ];
    expect(ignore.patch).toEqual({
      target: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        namespace: '',
        name: 'guard',
        uid: 'vwc-guard',
      },
      ops,
    });
    expect(ignore.command).toBe(`kubectl patch validatingwebhookconfiguration/guard --type=json -p '${JSON.stringify(ops)}'`);
    const restore = ways.find((w) => w.title.startsWith('Recreate Service guard/gone and the Pods behind it'))!;
    expect(restore.patch).toBeUndefined();
    const refused = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-hooked', command: restore.command });
    expect(refused).toMatchObject({ ok: false, stage: 'refused', sent: [] });

    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-hooked',
      command: ignore.command,
      summary: ignore.outcome.summary,
    });
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    const path = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/guard';
    const body = JSON.stringify(ops);
    expect(nonGets().map((q) => [q.method, q.path, q.query, q.contentType, q.body])).toEqual([
      ['PATCH', path, { dryRun: 'All', fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
      ['PATCH', path, { fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
    ]);
    const stored = server.objects().find((o) => (o.metadata as { uid: string }).uid === 'vwc-guard') as {
      webhooks: { failurePolicy: string }[];
    };
    expect(stored.webhooks.map((h) => h.failurePolicy)).toEqual(['Ignore']);
  });

  it('settings that can no longer be read turn writes off, although they were on: refused, said why (there and in the log), nothing sent', async () => {
    const way = removal(await waysOutOf('cm-off'));
    lsp.settingsError = 'the client could not answer workspace/configuration';
    try {
      const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
        uid: 'cm-off',
        command: way.command,
        summary: way.outcome.summary,
      });
      expect(r).toEqual({
        ok: false,
        stage: 'refused',
        status: 0,
        message: settingsUnreadableMessage('the client could not answer workspace/configuration'),
        sent: [],
      });
      expect(r.message).toMatch(/^Writes to the cluster are off: the editor's settings could not be read/);
    } finally {
      lsp.settingsError = undefined;
    }
    expect(server.writes()).toBe(0);
    expect(nonGets()).toEqual([]);
    expect(lsp.logs.some((l) => /^Could not read settings.*allowWrites, which is treated as off/.test(l))).toBe(true);
    expect(finalizersOf('cm-off')).toEqual([HOLD]);
  });

  it('which cluster this is cannot be read just before sending (kube-system forbidden): refused, said why, not even the dry run', async () => {
    const way = removal(await waysOutOf('cm-off'));
    server.faults.forbid({ group: '', resource: 'namespaces' });
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-off',
      command: way.command,
      summary: way.outcome.summary,
    });
    expect(r).toMatchObject({ ok: false, stage: 'refused', status: 0, sent: [] });
    expect(r.message).toMatch(/^Which cluster this connection reaches cannot be told \(.*forbidden.*\), so nothing was sent/);
    // The identity was asked for (a GET of kube-system) and nothing else went out.
    expect(server.requests.some((q) => q.method === 'GET' && q.path === '/api/v1/namespaces/kube-system')).toBe(true);
    expect(nonGets()).toEqual([]);
    expect(finalizersOf('cm-off')).toEqual([HOLD]);
    // Readable again: the same way out is sent (so the refusal was the identity's, not the row's).
    server.faults.clear();
    const again = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-off', command: way.command, dryRunOnly: true });
    expect(again.stage).not.toBe('refused');
  });

  // Last: the watches stay stalled (the view lags the cluster from here on).
  it('a view that lags: an object removed by hand and created again under its name, with the same finalizer; Apply Fix… on the old row is refused by its uid test, the new object keeps its finalizer', async () => {
    const way = removal(await waysOutOf('cm-off'));
    const shownRv = stored('cm-off')!.metadata.resourceVersion;
    server.faults.stallWatches();
    server.remove({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'off' });
    server.add({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'off', namespace: 'shop', uid: 'cm-off-2', creationTimestamp: GONE, finalizers: [HOLD] },
    });
    // The old row is still what the view shows.
    expect(removal(await waysOutOf('cm-off')).command).toBe(way.command);
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-off',
      command: way.command,
      summary: way.outcome.summary,
    });
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 422, objectChanged: true });
    expect(r.message).toMatch(/^ConfigMap shop\/off changed since you looked: it is no longer the object \(uid cm-off\)/);
    expect(nonGets().map((q) => [q.query.dryRun, JSON.parse(q.body!)[0], q.userAgent])).toEqual([
      ['All', { op: 'test', path: '/metadata/uid', value: 'cm-off' }, 'kube-gc-lens (way out, asked by the user) uid/cm-off'],
    ]);
    expect(JSON.parse(nonGets()[0]!.body!)[1]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: shownRv });
    expect(finalizersOf('cm-off-2')).toEqual([HOLD]);
    // The refusal lists ConfigMaps again, though the watches still lag: the refreshed view no longer holds the old one.
    await vi.waitFor(
      async () => {
        const rows: StuckItem[] = await lsp.connection.sendRequest(ClusterStuckRequest, {});
        expect(rows.map((i) => i.uid)).not.toContain('cm-off');
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(server.requests.some((q) => q.verb === 'list' && q.resource === 'configmaps')).toBe(true);
  });

  it('a view that lags: the workload that runs the controller deleted and created again at 0 replicas; its scale-up on the old row is refused, the new one stays at 0', async () => {
    const scaleOf = (ways: WayOut[]) => ways.find((w) => w.patch?.subresource === 'scale');
    const scale = scaleOf(await waysOutOf('cm-scaled2'))!;
    server.remove({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'holder2' });
    server.add({ ...holder2, metadata: { ...holder2.metadata, uid: 'd-holder2-new' } });
    expect(scaleOf(await waysOutOf('cm-scaled2'))?.command).toBe(scale.command);
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-scaled2', command: scale.command });
    expect(r).toMatchObject({ ok: false, stage: 'dry-run', status: 422, objectChanged: true });
    expect(r.message).toMatch(/^Deployment shop\/holder2 changed since you looked: it is no longer the object \(uid d-holder2\)/);
    expect(nonGets().map((q) => [q.path, q.query.dryRun, q.userAgent])).toEqual([
      ['/apis/apps/v1/namespaces/shop/deployments/holder2/scale', 'All', 'kube-gc-lens (way out, asked by the user) uid/d-holder2'],
    ]);
    const now = server.objects().find((o) => (o.metadata as { uid: string }).uid === 'd-holder2-new') as { spec: { replicas: number } };
    expect(now.spec.replicas).toBe(0);
  });
});

// Doing a way out, only when asked (issue 18), against the API test server: the language server in process sends
// nothing unless its own kubeGcLens.cluster.allowWrites is on; then exactly a dry run (dryRun=All) and the same JSON
// patch for real, with its test op, and nothing else; a refusal of the dry run is returned verbatim and stops there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StuckItem, WayOut } from '../../shared/src/protocol';
import { ClusterApplyWayOutRequest, ClusterConnectRequest, ClusterStuckRequest } from '../../server/src/lsp/methods';
import { WRITES_OFF } from '../../server/src/app/wayOutActions';
import { LspSession } from '../../testkit/lsp/lspSession';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { ns } from './clusterFixtures';

const T = '2026-11-20T08:00:00Z';
const GONE = '2026-11-20T09:00:00Z';
const HOLD = 'example.com/hold';
const SCALED = 'example.com/scaled';

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

let server: KubeApiServer;
let dir: string;
let lsp: LspSession;

const settings = (allowWrites?: boolean) => ({
  kubeGcLens: {
    finalizerOwners: [
      { finalizer: SCALED, workload: { kind: 'Deployment', namespace: 'shop', name: 'holder' } },
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

  it('sends a dry run, then the same JSON patch with its test op, and nothing else', async () => {
    const way = removal(await waysOutOf('cm-released'));
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: 'cm-released',
      command: way.command,
      summary: way.outcome.summary,
    });
    expect(r).toMatchObject({ ok: true, stage: 'patch', status: 200 });
    const body = JSON.stringify([
      { op: 'test', path: '/metadata/finalizers/0', value: HOLD },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
    const path = '/api/v1/namespaces/shop/configmaps/released';
    expect(nonGets().map((q) => [q.method, q.path, q.query, q.contentType, q.body])).toEqual([
      ['PATCH', path, { dryRun: 'All', fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
      ['PATCH', path, { fieldManager: 'kube-gc-lens' }, 'application/json-patch+json', body],
    ]);
    expect(r.sent.map((s) => s.path)).toEqual([`${path}?dryRun=All&fieldManager=kube-gc-lens`, `${path}?fieldManager=kube-gc-lens`]);
    // Its last finalizer gone, the apiserver removed it; the log says what was sent.
    expect(server.objects().some((o) => (o.metadata as { uid: string }).uid === 'cm-released')).toBe(false);
    expect(lsp.logs.some((l) => l.includes('cm-released') && l.includes(`PATCH ${path}?dryRun=All`))).toBe(true);
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
    expect(r).toMatchObject({ ok: false, stage: 'patch', status: 422 });
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
    server.resetLog();
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, { uid: 'cm-scaled', command: scale.command });
    expect(r).toMatchObject({ ok: true, stage: 'patch' });
    const path = '/apis/apps/v1/namespaces/shop/deployments/holder/scale';
    const body = JSON.stringify([
      { op: 'test', path: '/spec', value: {} },
      { op: 'add', path: '/spec/replicas', value: 1 },
    ]);
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
});

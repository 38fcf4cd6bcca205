// A control plane replaced behind the same URL (test/controlplane, Kubernetes v1.37.2), the way `kind delete cluster
// && kind create cluster`, a restore or a load balancer moving does it to a user: the language server in process
// watches control plane 1 through a loopback TCP proxy (test/helpers/tcpProxy.ts, which terminates nothing); control
// plane 1 is stopped, a fresh control plane 2 (another etcd, so another kube-system uid and lower resourceVersions)
// started and the proxy pointed at it. Both accept the product's credentials as they are: a bearer token of
// kube-apiserver's --token-auth-file, and control plane 1's serving certificate presented by control plane 2 for the
// kubeconfig's tls-server-name (--tls-sni-cert-key), so the product's connection stays what it was. The live view
// must become `kubectl get` of control plane 2 within one relist, say why in its status and log, send no way out
// computed on control plane 1, and a watch from a resourceVersion the server never had relists. Skipped only where
// `go` is missing.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ClusterStatus, StuckItem } from '../../shared/src/protocol';
import {
  ClusterApplyWayOutRequest,
  ClusterConnectRequest,
  ClusterObjectsRequest,
  ClusterStatusNotification,
  ClusterStuckRequest,
} from '../../server/src/lsp/methods';
import { ACCEPT_METADATA_LIST, ACCEPT_METADATA_WATCH, ApiClient, ApiError } from '../../server/src/sources/cluster/apiClient';
import { discover } from '../../server/src/sources/cluster/discovery';
import { resolveTarget } from '../../server/src/sources/cluster/kubeconfig';
import { Reflector } from '../../server/src/sources/cluster/reflector';
import { LspSession } from '../../testkit/lsp/lspSession';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';
import { auditLog, productRequests, WAY_OUT_USER_AGENT } from '../helpers/auditLog';
import { readAll } from '../helpers/realCluster';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServerReplaced.test.ts ${CONTROL_PLANE_SKIP}`);

const HOLD = 'example.com/hold';
const TOKEN = 'kgl-replaced-cluster-token';
const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-replaced-'));
const dirOf = (name: string) => {
  const d = path.join(dir, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const audit1 = auditLog(dirOf('audit1'));
const audit2 = auditLog(dirOf('audit2'));
const tokens = path.join(dir, 'tokens.csv');
writeFileSync(tokens, `${TOKEN},kube-gc-lens-token-admin,kgl-token-admin,"system:masters"\n`);
const pki = dirOf('pki1');

let plane1: ControlPlane;
let plane2: ControlPlane | undefined;
let proxy: TcpProxy;
let lsp: LspSession;
let status: ClusterStatus | null = null;
const started = Date.now();

const configMaps = (plane: ControlPlane, namespace: string, names: string[]) =>
  plane.kubectl(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: names.map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } })),
    }),
  );
/** A ConfigMap stuck on a finalizer nobody removes (the settings say its operator is gone). */
async function stuckConfigMap(plane: ControlPlane): Promise<void> {
  plane.kubectl(['create', 'namespace', 'wo']);
  plane.kubectl(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stuck1', namespace: 'wo', finalizers: [HOLD] } }),
  );
  plane.kubectl(['delete', 'configmap', 'stuck1', '-n', 'wo', '--wait=false']);
}
const kubeSystemUid = (plane: ControlPlane) => plane.kubectl(['get', 'namespace', 'kube-system', '-o', 'jsonpath={.metadata.uid}']);
const liveUids = async () => (await lsp.connection.sendRequest(ClusterObjectsRequest, {})).map((o) => o.uid).sort();
const kubectlUids = (plane: ControlPlane) =>
  readAll(plane)
    .items.map((o) => o.metadata.uid)
    .sort();

/** The product's kubeconfig: the proxy's URL, control plane 1's CA and serving name, the token both accept. */
function productKubeconfig(ca: string): string {
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'behind-proxy',
          cluster: {
            server: `https://127.0.0.1:${proxy.port}`,
            'certificate-authority-data': Buffer.from(ca).toString('base64'),
            'tls-server-name': 'localhost',
          },
        },
      ],
      users: [{ name: 'token-admin', user: { token: TOKEN } }],
      contexts: [{ name: 'behind-proxy', context: { cluster: 'behind-proxy', user: 'token-admin', namespace: 'default' } }],
      'current-context': 'behind-proxy',
    }),
  );
  return file;
}

beforeAll(async () => {
  if (CONTROL_PLANE_SKIP) return;
  plane1 = await startControlPlane({ apiserverArgs: [`--token-auth-file=${tokens}`, ...audit1.apiserverArgs] });
  // Its temporary directory goes when it stops: keep what control plane 2 must present.
  const own = path.join(path.dirname(plane1.kubeconfig), 'pki');
  for (const f of ['ca.crt', 'apiserver.crt', 'apiserver.key']) copyFileSync(path.join(own, f), path.join(pki, f));
  proxy = await startTcpProxy(plane1.server);
  plane1.kubectl(['create', 'namespace', 'seeded']);
  configMaps(
    plane1,
    'seeded',
    Array.from({ length: 200 }, (_, i) => `old-${i}`),
  );
  await stuckConfigMap(plane1);
  lsp = new LspSession({
    settings: { kubeGcLens: { finalizerOwners: [{ finalizer: HOLD, running: false }], cluster: { allowWrites: true } } },
  });
  await lsp.initialize();
  lsp.connection.onNotification(ClusterStatusNotification, (s) => {
    status = s;
  });
  const ca = readFileSync(path.join(pki, 'ca.crt'), 'utf8');
  await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig: productKubeconfig(ca), allowExec: false });
}, 900_000);

afterAll(async () => {
  await lsp?.dispose();
  await proxy?.close();
  await plane1?.stop();
  await plane2?.stop();
  rmSync(dir, { recursive: true, force: true });
  console.log(`test/cluster/realServerReplaced.test.ts: ${((Date.now() - started) / 1000).toFixed(1)}s, control plane starts included`);
});

describe.skipIf(CONTROL_PLANE_SKIP)('a control plane replaced behind the same URL', () => {
  let oldRow: StuckItem;

  it("connected through the proxy: the view is control plane 1's, its identity the kube-system uid", async () => {
    await until('the view is control plane 1', async () => JSON.stringify(await liveUids()) === JSON.stringify(kubectlUids(plane1)), 100);
    const items: StuckItem[] = await lsp.connection.sendRequest(ClusterStuckRequest, {});
    oldRow = items.find((i) => i.name === 'stuck1')!;
    expect(oldRow.waysOut?.some((w) => w.patch)).toBe(true);
    const s = status!;
    expect(s.identity).toEqual({ uid: kubeSystemUid(plane1), serverVersion: 'v1.37.2', kubeVersion: '1.37' });
    expect(s.relists).toBe(0);
    expect(oldRow.clusterUid).toBe(kubeSystemUid(plane1));
  });

  it('control plane 2 behind the proxy: a way out computed on control plane 1 is refused at once, nothing sent', async () => {
    const oldUid = kubeSystemUid(plane1);
    await plane1.stop();
    plane2 = await startControlPlane({
      apiserverArgs: [
        `--token-auth-file=${tokens}`,
        `--tls-sni-cert-key=${path.join(pki, 'apiserver.crt')},${path.join(pki, 'apiserver.key')}:localhost`,
        ...audit2.apiserverArgs,
      ],
    });
    // The same name and finalizer on the new cluster: the row's object, as far as a name can tell.
    await stuckConfigMap(plane2);
    plane2.kubectl(['create', 'namespace', 'fresh']);
    configMaps(
      plane2,
      'fresh',
      Array.from({ length: 20 }, (_, i) => `new-${i}`),
    );
    proxy.retarget(plane2.server);
    const way = oldRow.waysOut!.find((w) => w.patch)!;
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: oldRow.uid,
      command: way.command,
      summary: way.outcome.summary,
      clusterUid: oldRow.clusterUid,
    });
    expect(r).toMatchObject({ ok: false, stage: 'refused', status: 0, sent: [] });
    expect(r.message).toMatch(
      new RegExp(`computed on another cluster \\(kube-system uid ${oldUid}; the connection now reaches ${kubeSystemUid(plane2)}\\)`),
    );
  }, 120_000);

  it("the view becomes kubectl's view of control plane 2 within one relist, and the status and the log say why", async () => {
    const want = kubectlUids(plane2!);
    let got: string[] = [];
    try {
      await until('the view is control plane 2', async () => JSON.stringify((got = await liveUids())) === JSON.stringify(want), 600);
    } catch (e) {
      throw new Error(
        `${(e as Error).message}: missing ${want.filter((u) => !got.includes(u)).length}, extra ${got.filter((u) => !want.includes(u)).length}`,
      );
    }
    const s = status!;
    expect(s.identity?.uid).toBe(kubeSystemUid(plane2!));
    expect(s.relists).toBe(1);
    expect(s.lastRelist).toMatchObject({ reason: 'cluster-changed', message: expect.stringContaining(`it is ${kubeSystemUid(plane2!)}`) });
    const said = /listing again from scratch \(cluster-changed\): the server now answers as another cluster/;
    expect(lsp.logs.some((l) => said.test(l))).toBe(true);
  }, 120_000);

  it('a way out of the old row after the relist: still refused', async () => {
    const way = oldRow.waysOut!.find((w) => w.patch)!;
    const r = await lsp.connection.sendRequest(ClusterApplyWayOutRequest, {
      uid: oldRow.uid,
      command: way.command,
      clusterUid: oldRow.clusterUid,
    });
    expect(r).toMatchObject({ ok: false, stage: 'refused', sent: [] });
  });

  it('a watch from a resourceVersion far ahead: silent, then the one-item LIST gets 504 "Too large resource version", and the Reflector relists', async () => {
    const client = new ApiClient(resolveTarget({ kubeconfig: plane2!.kubeconfig, allowExec: false }));
    try {
      const configmaps = (await discover(client)).resources.find((r) => r.group === '' && r.resource === 'configmaps')!;
      const listed = await client.getJson<{ metadata: { resourceVersion: string } }>('/api/v1/namespaces/fresh/configmaps?limit=1');
      const ahead = String(Number(listed.metadata.resourceVersion) + 1_000_000);
      const answer = await client
        .getJson(`/api/v1/namespaces/fresh/configmaps?limit=1&resourceVersion=${ahead}&resourceVersionMatch=NotOlderThan`)
        .catch((e: unknown) => e);
      expect(answer).toBeInstanceOf(ApiError);
      expect(answer).toMatchObject({ status: 504, reason: 'Timeout', causes: ['ResourceVersionTooLarge'], retryAfterSeconds: 1 });
      expect((answer as ApiError).resourceVersionTooLarge).toBe(true);
      expect((answer as ApiError).message).toMatch(new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`));

      let openGate!: () => void;
      const gate = new Promise<void>((r) => (openGate = r));
      const tooLarge: string[] = [];
      let held: string[] = [];
      const reflector = new Reflector<string>(
        client,
        configmaps,
        'fresh',
        {
          convert: (item) => (item as { metadata: { uid: string } }).metadata.uid,
          replace: (uids) => (held = uids),
          event: () => undefined,
          state: () => undefined,
          resourceVersionTooLarge: (e) => tooLarge.push(e.message),
        },
        { accept: ACCEPT_METADATA_LIST, watchAccept: ACCEPT_METADATA_WATCH, watchTimeoutSeconds: 2, watchAfter: gate },
      );
      const abort = new AbortController();
      const run = reflector.start(abort.signal);
      await run.listed;
      // As after a replaced cluster: the next watch asks for a resourceVersion this server never had.
      reflector.resourceVersion = ahead;
      openGate();
      await until('listed again', () => reflector.lists === 2 && reflector.state === 'watching', 300);
      abort.abort();
      await run.done;
      expect(tooLarge).toEqual([expect.stringMatching(new RegExp(`Too large resource version: ${ahead}, current: \\d+`))]);
      expect(held.sort()).toEqual(
        plane2!.kubectl(['get', 'configmaps', '-n', 'fresh', '-o', 'jsonpath={.items[*].metadata.uid}']).split(' ').sort(),
      );
    } finally {
      client.close();
    }
  }, 120_000);

  it("control plane 2's audit log: the product sent get, list and watch only, and no way out at all", () => {
    const requests = productRequests(audit2.log);
    expect(requests.length).toBeGreaterThan(20);
    expect([...new Set(requests.map((e) => e.verb))].sort()).toEqual(['get', 'list', 'watch']);
    expect(productRequests(audit2.log, WAY_OUT_USER_AGENT)).toEqual([]);
    expect(requests.some((e) => e.requestURI === '/api/v1/namespaces/kube-system')).toBe(true);
  });
});

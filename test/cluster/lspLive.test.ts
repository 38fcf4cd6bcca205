// The built language server with a workspace AND a live cluster (the API test server): workspace manifests
// checked against the live graph (collected-on-apply, live-dangling-owner, live-terminating), hover with the
// live owner's state, read-only live documents (text, hover, code lenses that simulate on the live graph,
// Problems entries for stuck live objects), following watch events, and gone on disconnect. Never a write.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeLensRequest,
  CodeLensResolveRequest,
  DidChangeConfigurationNotification,
  HoverRequest,
  type CodeLens,
} from 'vscode-languageserver-protocol';
import { LIVE_NAME_LINE, LIVE_SCHEME, liveObjectUri, type ClusterStatus } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterDisconnectRequest,
  ClusterDocumentRequest,
  ClusterStatusNotification,
  ObjectsRequest,
} from '../../server/src/lsp/methods';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';
import { hoverText } from '../helpers/lspText';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { configMap, pod, replicaSet, seedShop } from './clusterFixtures';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;
let lsp: LspSession;
const statuses: (ClusterStatus | null)[] = [];

const REPLICA = 'apps/replicaset.yaml';
const SETTINGS = 'settings.yaml';
const UNRELATED = 'unrelated.yaml';

// A ReplicaSet exported from an earlier incarnation of Deployment web (its owner uid is stale).
const replicaText = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-rs
  namespace: shop
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
    uid: 3f2a4b5c-0000-old
    controller: true
    blockOwnerDeletion: true
spec:
  replicas: 1
`;

const settingsText = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
data:
  key: value
`;

// Owned by a Deployment that exists neither in the workspace nor in the cluster: not this cluster's business.
const unrelatedText = `apiVersion: v1
kind: ConfigMap
metadata:
  name: other
  namespace: elsewhere
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: nowhere
    uid: 11111111-2222
`;

const fileUri = (rel: string) => uriOf(join(dir, 'ws', rel));
const codes = (uri: string) => (lsp.diagnostics.get(uri) ?? []).map((d) => d.code);

beforeAll(async () => {
  server = await startKubeApiServer({ token: 'live-token' });
  dir = mkdtempSync(join(tmpdir(), 'kgl-lsp-live-'));
  kubeconfig = server.writeKubeconfig(dir, { namespace: 'shop' });
  seedShop(server);
  server.add(
    pod('shop', 'held', 'p-held', {
      owner: replicaSet('shop', 'web-rs', 'rs-web'),
      deletionTimestamp: '2026-11-20T09:00:00Z',
      finalizers: ['storage.acme.io/protect'],
    }),
  );
  mkdirSync(join(dir, 'ws', 'apps'), { recursive: true });
  writeFileSync(join(dir, 'ws', REPLICA), replicaText);
  writeFileSync(join(dir, 'ws', SETTINGS), settingsText);
  writeFileSync(join(dir, 'ws', UNRELATED), unrelatedText);
  lsp = new LspSession({ folder: join(dir, 'ws') });
  lsp.connection.onNotification(ClusterStatusNotification, (s) => {
    statuses.push(s);
  });
  await lsp.initialize();
});

afterAll(async () => {
  await lsp?.dispose();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('workspace manifests against the live cluster', () => {
  it('has no live findings before connecting', async () => {
    expect((await lsp.connection.sendRequest(ObjectsRequest, {})).length).toBe(3);
    expect(codes(fileUri(REPLICA))).not.toContain('collected-on-apply');
  });

  it("says a manifest whose owner uid is not the live owner's gets collected on apply", async () => {
    await lsp.connection.sendRequest(ClusterConnectRequest, { kubeconfig, allowExec: false });
    const diags = await lsp.diagnosticsFor(fileUri(REPLICA), (d) => d.some((x) => x.code === 'collected-on-apply'));
    const d = diags.find((x) => x.code === 'collected-on-apply')!;
    expect(d.message).toBe(
      "Applying this file gets it garbage-collected: owner uid 3f2a4b5c… is not the live Deployment shop/web's uid d-web.",
    );
    expect(d.severity).toBe(1);
    expect(d.range.start.line).toBe(9); // the reference's uid
    // Unrelated to this cluster: nothing; the live ConfigMap matches: nothing either.
    expect(codes(fileUri(UNRELATED))).toEqual(['dangling-owner']); // the workspace's own finding, nothing live
    expect(codes(fileUri(SETTINGS))).toEqual([]);
  });

  it('hover on the reference shows the live owner', async () => {
    const h = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: fileUri(REPLICA) },
      position: { line: 9, character: 10 },
    });
    expect(hoverText(h)).toContain('**In the cluster** (context ');
    expect(hoverText(h)).toContain(
      "Deployment shop/web exists with uid `d-web` (present), not this reference's: once applied, this reference is dangling.",
    );
    const name = await lsp.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: fileUri(SETTINGS) },
      position: { line: 3, character: 9 },
    });
    expect(hoverText(name)).toContain('ConfigMap shop/settings is present, uid `cm-settings`; no dependents there.');
  });

  it('follows watch events: the live ConfigMap starts terminating, the right owner uid clears the error', async () => {
    server.update({
      ...configMap('shop', 'settings', 'cm-settings'),
      metadata: {
        name: 'settings',
        namespace: 'shop',
        uid: 'cm-settings',
        deletionTimestamp: '2026-11-21T08:00:00Z',
        finalizers: ['hold.acme.io/keep'],
      },
    });
    const diags = await lsp.diagnosticsFor(fileUri(SETTINGS), (d) => d.some((x) => x.code === 'live-terminating'));
    expect(diags.find((x) => x.code === 'live-terminating')!.message).toContain('The live ConfigMap shop/settings (context ');
    expect(diags.find((x) => x.code === 'live-terminating')!.message).toContain('It cannot finish: ');
    await lsp.open(fileUri(REPLICA), replicaText.replace('3f2a4b5c-0000-old', 'd-web'));
    await lsp.diagnosticsFor(fileUri(REPLICA), (d) => !d.some((x) => x.code === 'collected-on-apply'));
  });
});

describe('live documents', () => {
  let uri: string;
  let text: string;

  it("renders a live object's metadata, name on LIVE_NAME_LINE", async () => {
    const context = statuses.find((s) => s)!.context;
    uri = liveObjectUri({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'held', uid: 'p-held' }, context);
    expect(uri.startsWith(`${LIVE_SCHEME}:/`)).toBe(true);
    text = (await lsp.connection.sendRequest(ClusterDocumentRequest, { uri })).text;
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# Live Pod shop\/held in context .* \(read-only: metadata only, as the garbage collector lists it\)\.$/);
    expect(lines[LIVE_NAME_LINE]).toBe('  name: held');
    expect(text).toContain('  uid: p-held\n');
    expect(text).toContain('  deletionTimestamp: 2026-11-20T09:00:00Z\n');
    expect(text).toContain('  finalizers:\n    - storage.acme.io/protect\n');
    const gone = (await lsp.connection.sendRequest(ClusterDocumentRequest, { uri: uri.replace('p-held', 'no-such-uid') })).text;
    expect(gone).toMatch(/^# uid no-such-uid is not in the live graph of context /);
  });

  it('puts stuck live objects in the Problems panel, on their live document', async () => {
    const diags = await lsp.diagnosticsFor(uri, (d) => d.length > 0);
    expect(diags).toEqual([expect.objectContaining({ code: 'stuck-terminating', source: 'kube-gc-lens' })]);
    expect(diags[0].message).toContain('storage.acme.io/protect');
    expect(text.split('\n')[diags[0].range.start.line]).toContain('deletionTimestamp');
  });

  it('applies a settings change to the live diagnostics without reading the workspace again or reconnecting', async () => {
    const mark = lsp.mark();
    lsp.settings.kubeGcLens = { severity: { 'stuck-terminating': 'off' } };
    await lsp.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await lsp.diagnosticsFor(uri, (d) => d.length === 0);
    lsp.settings.kubeGcLens = {};
    await lsp.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    await lsp.diagnosticsFor(uri, (d) => d.some((x) => x.code === 'stuck-terminating'));
    expect(lsp.timeline.slice(mark).some((e) => e.type === 'status' && e.status.state === 'loading')).toBe(false);
    expect(statuses.at(-1)?.state).not.toBe('disconnected');
  });

  it('hover and code lenses work on an open live document, against the live graph', async () => {
    await lsp.open(uri, text);
    const ownerLine = text.split('\n').findIndex((l) => l.includes('kind: ReplicaSet'));
    const h = await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: ownerLine, character: 10 } });
    expect(hoverText(h)).toContain('**Owner:** ReplicaSet shop/web-rs');
    const lenses = (await lsp.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
    const owner = lenses.find((l) => l.command?.title.startsWith('Owned by'));
    expect(owner?.command?.arguments?.[0]).toBe(
      liveObjectUri(
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-rs', uid: 'rs-web' },
        statuses.find((s) => s)!.context,
      ),
    );
    const impact = lenses.find((l) => !l.command)!;
    const resolved = await lsp.connection.sendRequest(CodeLensResolveRequest.type, impact);
    expect(resolved.command).toMatchObject({
      command: 'kubeGcLens.simulateDelete',
      arguments: [{ source: 'cluster', uid: 'p-held' }, 'default'],
    });
    // Not part of the workspace.
    expect((await lsp.connection.sendRequest(ObjectsRequest, {})).length).toBe(3);
  });

  it('disconnecting removes every live diagnostic, never having written', async () => {
    await lsp.connection.sendRequest(ClusterDisconnectRequest);
    await lsp.diagnosticsFor(uri, (d) => d.length === 0);
    await lsp.diagnosticsFor(fileUri(SETTINGS), (d) => !d.some((x) => String(x.code).startsWith('live-')));
    expect(server.writes()).toBe(0);
  });
});

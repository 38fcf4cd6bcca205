// The ownership graph for the webview: kubeGcLens/graph on the workspace (stuck reasons, finding messages),
// kubeGcLens/cluster/graph on a live cluster (the API test server; live documents as locations), and the
// "Show in Graph" code lens and hover link, offered only to a client that runs the command (VS Code).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeLensRequest, HoverRequest } from 'vscode-languageserver-protocol';
import { LIVE_SCHEME, SHOW_IN_GRAPH_COMMAND } from '../../shared/src/protocol';
import { ClusterConnectRequest, ClusterDisconnectRequest, ClusterGraphRequest, GraphRequest } from '../../server/src/lsp/methods';
import { commandLink } from '../../server/src/lsp/markdown';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { pod, replicaSet, seedShop } from '../cluster/clusterFixtures';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';

const EXAMPLES = path.resolve(__dirname, '../../examples');

describe('kubeGcLens/graph on the workspace', () => {
  let s: LspSession;
  beforeAll(async () => {
    s = new LspSession({ folder: path.join(EXAMPLES, 'namespace-stuck-terminating') });
    await s.initialize();
  });
  afterAll(() => s.dispose());

  it("carries why a terminating object cannot finish, and its findings' messages", async () => {
    const graph = await s.connection.sendRequest(GraphRequest, {});
    const ns = graph.nodes.find((n) => n.kind === 'Namespace')!;
    expect(ns.state).toBe('being-deleted');
    expect(ns.stuck).toMatch(/./);
    const orders = graph.nodes.find((n) => n.name === 'orders')!;
    expect(orders.stuck).toContain('deletion.finalizers.rabbitmqclusters.rabbitmq.com');
    expect(orders.findings).toContain('stuck-terminating');
    expect(orders.findingMessages).toContainEqual({ code: 'stuck-terminating', message: expect.stringContaining('rabbitmq') });
    // (v3) What its why-chain names: the Namespace waits for its content, the RabbitmqCluster.
    expect(ns.blockedBy).toContain(orders.uid);
    expect(ns.blockedBy).not.toContain(ns.uid);
    const crd = graph.nodes.find((n) => n.kind === 'CustomResourceDefinition')!;
    expect(crd.stuck).toBeUndefined();
    expect(crd.blockedBy).toBeUndefined();
    expect(crd.findingMessages).toBeUndefined();
  });
});

describe('Show in Graph in lenses and hovers', () => {
  const file = path.join(EXAMPLES, 'deployment-export-from-another-cluster', 'checkout-export.yaml');
  let vscodeLike: LspSession;
  let other: LspSession;
  beforeAll(async () => {
    vscodeLike = new LspSession({ folder: EXAMPLES, initializationOptions: { showInGraph: true } });
    other = new LspSession({ folder: EXAMPLES });
    await Promise.all([vscodeLike.initialize(), other.initialize()]);
  });
  afterAll(async () => {
    await vscodeLike.dispose();
    await other.dispose();
  });

  it('adds a Show in Graph lens after the others (their titles unchanged), only for a client that asked', async () => {
    const uri = uriOf(file);
    const lenses = await vscodeLike.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    const graphLenses = lenses!.filter((l) => l.command?.command === SHOW_IN_GRAPH_COMMAND);
    expect(graphLenses.length).toBeGreaterThan(3);
    expect(graphLenses[0].command).toMatchObject({ title: 'Show in Graph', arguments: [{ uid: '64b1c1b1-59ad-4af3-a756-871bd6965119' }] });
    const plain = await other.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect(plain!.some((l) => l.command?.command === SHOW_IN_GRAPH_COMMAND)).toBe(false);
    expect(lenses!.filter((l) => l.command?.command !== SHOW_IN_GRAPH_COMMAND)).toEqual(plain);
  });

  it('ends hovers with a Show in Graph command link', async () => {
    const params = { textDocument: { uri: uriOf(file) }, position: { line: 110, character: 15 } };
    const hover = await vscodeLike.connection.sendRequest(HoverRequest.type, params);
    const md = (hover?.contents as { value: string }).value;
    expect(md).toMatch(/\n\n\[Show in Graph\]\(command:kubeGcLens\.showInGraph\?%5B%7B%22uid%22%3A%22[0-9a-f-]+%22%7D%5D\)$/);
    const plain = await other.connection.sendRequest(HoverRequest.type, params);
    expect((plain?.contents as { value: string }).value).not.toContain('command:');
  });

  it('encodes hostile arguments so that they cannot end the link', () => {
    const link = commandLink('Show in Graph', SHOW_IN_GRAPH_COMMAND, [{ uid: 'x) [evil](command:rm %41 "' }]);
    expect(link).toMatch(/^\[Show in Graph\]\(command:kubeGcLens\.showInGraph\?[A-Za-z0-9%._~-]+\)$/);
    const query = link.slice(link.indexOf('?') + 1, -1);
    expect(JSON.parse(decodeURIComponent(query))).toEqual([{ uid: 'x) [evil](command:rm %41 "' }]);
    expect(JSON.parse(decodeURIComponent(decodeURIComponent(query)))).toEqual([{ uid: 'x) [evil](command:rm %41 "' }]);
  });
});

describe('kubeGcLens/cluster/graph', () => {
  let server: KubeApiServer;
  let dir: string;
  let lsp: LspSession;
  beforeAll(async () => {
    server = await startKubeApiServer({ token: 'graph-token' });
    dir = mkdtempSync(path.join(tmpdir(), 'kgl-lsp-graph-'));
    seedShop(server);
    server.add(
      pod('shop', 'held', 'p-held', {
        owner: replicaSet('shop', 'web-rs', 'rs-web'),
        deletionTimestamp: '2026-11-20T09:00:00Z',
        finalizers: ['storage.acme.io/protect'],
      }),
    );
    server.add(pod('shop', 'lost', 'p-lost', { owner: replicaSet('shop', 'gone-rs', 'rs-gone') }));
    lsp = new LspSession({ folder: EXAMPLES });
    await lsp.initialize();
  });
  afterAll(async () => {
    await lsp.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says it needs a connection', async () => {
    await expect(lsp.connection.sendRequest(ClusterGraphRequest, {})).rejects.toThrow(/not connected to a cluster/);
  });

  it('mirrors kubeGcLens/graph on the live inventory, located at the live documents', async () => {
    await lsp.connection.sendRequest(ClusterConnectRequest, {
      kubeconfig: server.writeKubeconfig(dir, { namespace: 'shop' }),
      allowExec: false,
    });
    const whole = await lsp.connection.sendRequest(ClusterGraphRequest, {});
    expect(whole.nodes.map((n) => n.uid)).toEqual(
      expect.arrayContaining(['d-web', 'rs-web', 'p-web-1', 'p-held', 'cm-settings', 'ns-shop']),
    );
    const graph = await lsp.connection.sendRequest(ClusterGraphRequest, { uid: 'p-held' });
    expect(graph.nodes.map((n) => n.uid).sort()).toEqual(['d-web', 'p-held', 'p-web-1', 'rs-web']);
    expect(graph.edges).toContainEqual({ from: 'p-held', to: 'rs-web', controller: true, blockOwnerDeletion: true });
    const held = graph.nodes.find((n) => n.uid === 'p-held')!;
    expect(held).toMatchObject({ state: 'being-deleted', finalizers: ['storage.acme.io/protect'] });
    expect(held.stuck).toContain('storage.acme.io/protect');
    expect(held.location?.uri.startsWith(`${LIVE_SCHEME}:`)).toBe(true);
    // A missing owner is a virtual node (no document), and its dependent has the dangling-owner finding.
    const lost = await lsp.connection.sendRequest(ClusterGraphRequest, { uid: 'p-lost' });
    expect(lost.nodes.find((n) => n.uid === 'rs-gone')).toMatchObject({ state: 'virtual' });
    expect(lost.nodes.find((n) => n.uid === 'rs-gone')!.location).toBeUndefined();
    expect(lost.nodes.find((n) => n.uid === 'p-lost')!.findings).toContain('dangling-owner');
    await lsp.connection.sendRequest(ClusterDisconnectRequest);
  });
});

// kubeGcLens/simulateRequests and kubeGcLens/cluster/simulateRequests through the language server (in process), with
// the "Simulate …" code actions that send them: a way out's `requests` give its simulated outcome again, a code
// action's command carries requests the server answers, on the workspace and on a live cluster (the API test server).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol';
import { liveObjectUri, type SimulateRequestsArgs } from '../../shared/src/protocol';
import {
  ClusterConnectRequest,
  ClusterDocumentRequest,
  ClusterSimulateRequestsRequest,
  ClusterStuckRequest,
  SimulateRequestsRequest,
  StuckRequest,
} from '../../server/src/lsp/methods';
import type { LspClient } from '../../server/src/lsp/client';
import { KubeGcLensServer } from '../../server/src/lsp/server';
import { startKubeApiServer, type KubeApiServer } from '../../testkit/kubeApiServer/kubeApiServer';
import { LspSession, uriOf } from '../../testkit/lsp/lspSession';
import { pod, replicaSet, seedShop } from '../cluster/clusterFixtures';

const FOLDER = path.resolve(__dirname, '../../examples/namespace-stuck-terminating');
const ORDERS = path.join(FOLDER, 'orders-rabbitmqcluster.yaml');
const FINALIZER = 'deletion.finalizers.rabbitmqclusters.rabbitmq.com';

/** The code actions with the cursor at the first line of `text` that holds `needle`. */
async function actionsAt(s: LspSession, uri: string, text: string, needle: string): Promise<CodeAction[]> {
  const line = text.split('\n').findIndex((l) => l.includes(needle));
  expect(line, needle).toBeGreaterThanOrEqual(0);
  const at = { line, character: text.split('\n')[line].indexOf(needle) + 1 };
  return ((await s.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: at, end: at },
    context: { diagnostics: [] },
  })) ?? []) as CodeAction[];
}

describe('kubeGcLens/simulateRequests on the workspace', () => {
  let s: LspSession;
  beforeAll(async () => {
    s = new LspSession({ folder: FOLDER, initializationOptions: { simulateRequests: true } });
    await s.initialize();
  });
  afterAll(() => s.dispose());

  it("gives each way out's requests its simulated outcome again, with the whole Report", async () => {
    const items = await s.connection.sendRequest(StuckRequest);
    const ways = items.flatMap((i) => i.waysOut ?? []);
    expect(ways.length).toBeGreaterThanOrEqual(3);
    for (const w of ways) {
      const report = await s.connection.sendRequest(SimulateRequestsRequest, { requests: w.requests! });
      expect(report.summary, w.title).toBe(w.outcome.summary);
      expect(report.deleted, w.title).toEqual(w.outcome.deleted);
      expect(report.steps.length, w.title).toBeGreaterThan(0);
    }
  });

  it('the code action on a finalizer sends requests the server answers: what removing it releases', async () => {
    const uri = uriOf(ORDERS);
    const text = readFileSync(ORDERS, 'utf8');
    await s.open(uri, text);
    const [action, ...more] = await actionsAt(s, uri, text, FINALIZER);
    expect(more).toEqual([]);
    expect(action.title).toBe(`Simulate removing finalizer ${FINALIZER}`);
    const args = action.command!.arguments![0] as SimulateRequestsArgs;
    expect(args.source).toBe('workspace');
    const report = await s.connection.sendRequest(SimulateRequestsRequest, { requests: 'requests' in args ? args.requests : [] });
    expect(report.subject).toBe(`Removing finalizer ${FINALIZER} from RabbitmqCluster legacy-mq/orders`);
    expect(report.deleted.map((d) => `${d.kind}/${d.name}`)).toEqual(['RabbitmqCluster/orders', 'Namespace/legacy-mq']);
    expect(report.locations[report.targets[0].uid!]?.uri).toBe(uri);
    // What the finalizer was protecting: a warning among the notes.
    expect(report.notes.some((n) => n.startsWith(`Removing ${FINALIZER}: `))).toBe(true);
  });

  it('offers them only to a client that runs kubeGcLens.simulateRequests (it says so when it starts the server)', async () => {
    const other = new LspSession({ folder: FOLDER });
    try {
      await other.initialize();
      const uri = uriOf(ORDERS);
      const text = readFileSync(ORDERS, 'utf8');
      await other.open(uri, text);
      expect(await actionsAt(other, uri, text, FINALIZER)).toEqual([]);
    } finally {
      await other.dispose();
    }
  });
});

describe('the code action kinds the server declares', () => {
  const kinds = (initializationOptions?: unknown) => {
    const silent = () => undefined;
    const client: LspClient = {
      publishDiagnostics: silent,
      sendStatus: silent,
      sendClusterStatus: silent,
      refreshCodeLenses: silent,
      settings: async () => [null, null],
      progress: async () => undefined,
      warn: silent,
      error: silent,
    };
    const init = new KubeGcLensServer(client).initialize({ processId: null, rootUri: null, capabilities: {}, initializationOptions });
    return init.capabilities.codeActionProvider;
  };

  it('are quick fixes, and the simulations for a client that runs them', () => {
    expect(kinds()).toEqual({ codeActionKinds: ['quickfix'] });
    expect(kinds({ showInGraph: true })).toEqual({ codeActionKinds: ['quickfix'] });
    expect(kinds({ simulateRequests: true })).toEqual({ codeActionKinds: ['quickfix', 'refactor.kubeGcLens.simulate'] });
  });
});

describe('kubeGcLens/cluster/simulateRequests', () => {
  let server: KubeApiServer;
  let dir: string;
  let s: LspSession;
  beforeAll(async () => {
    server = await startKubeApiServer({ token: 'simulate-requests-token' });
    dir = mkdtempSync(path.join(tmpdir(), 'kgl-lsp-requests-'));
    seedShop(server);
    server.add(
      pod('shop', 'held', 'p-held', {
        owner: replicaSet('shop', 'web-rs', 'rs-web'),
        deletionTimestamp: '2026-11-20T09:00:00Z',
        finalizers: ['storage.acme.io/protect'],
      }),
    );
    s = new LspSession({ folder: FOLDER, initializationOptions: { simulateRequests: true } });
    await s.initialize();
  });
  afterAll(async () => {
    await s.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const REMOVE = {
    verb: 'remove-finalizer',
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: 'shop',
    name: 'held',
    finalizer: 'storage.acme.io/protect',
  } as const;

  it('says it needs a connection', async () => {
    await expect(s.connection.sendRequest(ClusterSimulateRequestsRequest, { requests: [REMOVE] })).rejects.toThrow(
      /not connected to a cluster/,
    );
  });

  it("simulates on the live graph, objects located at their live documents, and a live document's code actions send it", async () => {
    await s.connection.sendRequest(ClusterConnectRequest, {
      kubeconfig: server.writeKubeconfig(dir, { namespace: 'shop' }),
      allowExec: false,
    });
    const report = await s.connection.sendRequest(ClusterSimulateRequestsRequest, { requests: [REMOVE] });
    expect(report.subject).toBe('Removing finalizer storage.acme.io/protect from Pod shop/held');
    expect(report.deleted.map((d) => d.uid)).toEqual(['p-held']);
    expect(report.kubernetesVersion).toBe('1.31'); // the cluster's own
    const context = report.locations['p-held']!.uri.split('/')[1];
    const held = { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'held', uid: 'p-held' };
    expect(report.locations['p-held']!.uri).toBe(liveObjectUri(held, decodeURIComponent(context)));
    // Its way out, as the live Stuck Objects list gives it.
    const items = await s.connection.sendRequest(ClusterStuckRequest, {});
    const way = items.find((i) => i.uid === 'p-held')!.waysOut!.find((w) => w.requests?.[0]?.verb === 'remove-finalizer')!;
    expect(way.requests).toEqual([REMOVE]);
    expect((await s.connection.sendRequest(ClusterSimulateRequestsRequest, { requests: way.requests! })).summary).toBe(way.outcome.summary);
    // The live document's finalizer offers the same simulation, on the cluster.
    const uri = report.locations['p-held']!.uri;
    const { text } = await s.connection.sendRequest(ClusterDocumentRequest, { uri });
    await s.open(uri, text);
    const actions = await actionsAt(s, uri, text, 'storage.acme.io/protect');
    expect(actions.map((a) => a.command!.arguments![0])).toEqual([{ source: 'cluster', requests: [REMOVE] }]);
  });
});

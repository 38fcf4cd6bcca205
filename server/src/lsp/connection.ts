// The only module that touches an LSP Connection: it binds each message to the transport-free server class
// (server.ts) and gives the server its outbound LspClient over the connection. main.ts runs it over stdio, Node
// IPC or a socket; tests run it over in-memory streams, or call the server class directly.

import { CodeLensRefreshRequest, type Connection } from 'vscode-languageserver';
import { withActivityLog } from './activityLog';
import type { ClientSettings, LspClient } from './client';
import { ignoreCustomNotifications, onCustomRequest } from './customRequests';
import {
  CheckRequest,
  ClusterConnectRequest,
  ClusterContextsRequest,
  ClusterDisconnectRequest,
  ClusterApplyWayOutRequest,
  ClusterDocumentRequest,
  ClusterGraphRequest,
  ClusterGraphSummaryRequest,
  ClusterObjectsRequest,
  ClusterSearchObjectsRequest,
  ClusterSimulateRequest,
  ClusterSimulateRequestsRequest,
  ClusterStatusNotification,
  ClusterStuckRequest,
  GraphRequest,
  ObjectAtRequest,
  ObjectsRequest,
  SimulateRequest,
  SimulateRequestsRequest,
  StatusNotification,
  StuckRequest,
} from './methods';
import { KubeGcLensServer } from './server';

/** A server answering on `c`, listening once every handler is bound. */
export function serveConnection(c: Connection): KubeGcLensServer {
  const server = new KubeGcLensServer(withActivityLog(connectionClient(c), () => performance.now()));
  bindConnection(c, server);
  c.listen();
  return server;
}

/** Binds every LSP message of `c` to `server` (no logic here: the server decides). */
export function bindConnection(c: Connection, server: KubeGcLensServer): void {
  c.onInitialize((p) => server.initialize(p));
  c.onInitialized(() => {
    // Only a client that declared workspace folder support may be asked for their changes.
    if (server.wantsFolderChanges) c.workspace.onDidChangeWorkspaceFolders((e) => server.didChangeWorkspaceFolders(e));
    server.initialized();
  });
  c.onDidChangeConfiguration(() => server.didChangeConfiguration());
  c.onDidChangeWatchedFiles((p) => server.didChangeWatchedFiles(p));
  c.onDidOpenTextDocument((p) => server.didOpen(p));
  c.onDidChangeTextDocument((p) => server.didChange(p));
  c.onDidCloseTextDocument((p) => server.didClose(p));

  c.onHover((p, token) => server.hover(p, token));
  c.onCodeLens((p, token) => server.codeLens(p, token));
  c.onCodeLensResolve((lens, token) => server.resolveCodeLens(lens, token));
  c.onCodeAction((p, token) => server.codeActions(p, token));

  // Custom requests: params checked against the wire module first (InvalidParams naming the field).
  onCustomRequest(c, SimulateRequest, (p, token) => server.simulate(p, token));
  onCustomRequest(c, SimulateRequestsRequest, (p, token) => server.simulateRequests(p, token));
  onCustomRequest(c, ObjectsRequest, (p, token) => server.objects(p, token));
  onCustomRequest(c, ObjectAtRequest, (p, token) => server.objectAt(p, token));
  onCustomRequest(c, StuckRequest, (token) => server.stuck(token));
  onCustomRequest(c, GraphRequest, (p, token) => server.graph(p, token));
  onCustomRequest(c, CheckRequest, () => server.check());
  onCustomRequest(c, ClusterContextsRequest, (p) => server.clusterContexts(p));
  onCustomRequest(c, ClusterConnectRequest, (p) => server.clusterConnect(p));
  onCustomRequest(c, ClusterDisconnectRequest, () => server.clusterDisconnect());
  onCustomRequest(c, ClusterSimulateRequest, (p, token) => server.clusterSimulate(p, token));
  onCustomRequest(c, ClusterSimulateRequestsRequest, (p, token) => server.clusterSimulateRequests(p, token));
  onCustomRequest(c, ClusterStuckRequest, (p, token) => server.clusterStuck(p, token));
  onCustomRequest(c, ClusterDocumentRequest, (p) => server.clusterDocument(p));
  onCustomRequest(c, ClusterApplyWayOutRequest, (p, token) => server.clusterApplyWayOut(p, token));
  onCustomRequest(c, ClusterGraphRequest, (p, token) => server.clusterGraph(p, token));
  onCustomRequest(c, ClusterGraphSummaryRequest, (token) => server.clusterGraphSummary(token));
  onCustomRequest(c, ClusterObjectsRequest, (p, token) => server.clusterObjects(p, token));
  onCustomRequest(c, ClusterSearchObjectsRequest, (p, token) => server.clusterSearch(p, token));
  ignoreCustomNotifications(c);
  c.onShutdown(() => server.shutdown());
}

/** The client at the other end of an LSP connection. */
export function connectionClient(c: Connection): LspClient {
  return {
    publishDiagnostics: (uri, diagnostics) => void c.sendDiagnostics({ uri, diagnostics }),
    sendStatus: (status) => void c.sendNotification(StatusNotification, status),
    sendClusterStatus: (status) => void c.sendNotification(ClusterStatusNotification, status),
    refreshCodeLenses: () => void c.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined),
    settings: async () => (await c.workspace.getConfiguration([{ section: 'kubeGcLens' }, { section: 'files' }])) as ClientSettings,
    progress: async (title, message) => {
      const p = await c.window.createWorkDoneProgress().catch(() => undefined);
      p?.begin(title, 0, message, false);
      return p && { report: (percent, m) => p.report(percent, m), done: () => p.done() };
    },
    warn: (message) => c.console.warn(message),
    error: (message) => c.console.error(message),
    info: (message) => c.console.info(message),
    debug: (message) => c.console.debug(message),
  };
}

// Kube GC Lens in VS Code: wires the lazily started language client (server/src/lsp) to the commands, the
// Stuck Objects view, the report view, the status bar items and the live cluster connection. The logic these use
// lives in logic/ (no `vscode` import there: it is unit-tested in test/client).

import * as vscode from 'vscode';
import { ClusterConnection } from './cluster';
import { ClusterStatusBar } from './clusterStatusBar';
import { applyWayOut } from './commands/applyWayOut';
import { checkWorkspace } from './commands/checkWorkspace';
import { logErrorsTo, reportingErrors } from './commands/errors';
import { revealLocation } from './commands/revealLocation';
import { showGraph } from './commands/showGraph';
import { GraphPanels } from './graph/graphPanel';
import { parseShowInGraphArgs } from './logic/graphHost';
import { errorLogText } from './logic/activityText';
import { simulateDelete } from './commands/simulateDelete';
import { simulateRequests } from './commands/simulateRequests';
import { parseSimulateRequestsArgs, STALE_WAY_OUT, wayOutTarget } from './logic/simulateRequests';
import { watchKubernetesDocuments } from './kubernetesDocuments';
import { LazyLanguageClient } from './lazyClient';
import { LiveDocumentProvider, openLiveObject } from './liveDocuments';
import { contextName } from './logic/clusterState';
import type { StuckTreeNode } from './logic/stuckTree';
import { ReportView } from './reportView';
import { StatusBar } from './statusBar';
import { STUCK_VIEW_ID, StuckObjectsView } from './stuckObjectsView';

/** Context key: the language client was started (the Stuck Objects view is shown from then on). */
const STARTED_KEY = 'kubeGcLens.started';

let client: LazyLanguageClient | undefined;

export function activate(context: vscode.ExtensionContext): void {
  client = new LazyLanguageClient(context);
  const lsp = client;
  logErrorsTo((line) => lsp.output.error(line));
  const reports = new ReportView();
  // Before anything starts the client: it connects on start when kubeGcLens.cluster.autoConnect is set.
  const cluster = new ClusterConnection(lsp, context.workspaceState);
  const stuckView = new StuckObjectsView(lsp, cluster);
  const statusBar = new StatusBar(lsp);
  const clusterStatusBar = new ClusterStatusBar(cluster);
  const simulate = { client: lsp, reports, cluster };
  const sendWayOut = (node?: StuckTreeNode) =>
    applyWayOut(lsp, contextName(cluster.state) ?? 'the current context', node, () => stuckView.refresh());
  // Registers the panel serializer at once: a graph panel restored after a reload activates the extension.
  const graphs = new GraphPanels({ context, client: lsp, cluster, reports, log: (m) => lsp.log(m) });

  const start = () => {
    lsp.start().catch((e: unknown) => {
      lsp.output.error(errorLogText('The language server did not start', e));
      void vscode.window.showErrorMessage(`Kube GC Lens: the language server did not start: ${e instanceof Error ? e.message : String(e)}`);
    });
  };

  context.subscriptions.push(
    lsp,
    reports,
    graphs,
    cluster,
    stuckView,
    statusBar,
    clusterStatusBar,
    new LiveDocumentProvider(lsp),
    lsp.onStart(() => void vscode.commands.executeCommand('setContext', STARTED_KEY, true)),
    watchKubernetesDocuments(start, (kubernetes) => {
      statusBar.setActiveEditorIsKubernetes(kubernetes);
      clusterStatusBar.setActiveEditorIsKubernetes(kubernetes);
    }),

    // (uid, policy?) for a workspace object; ({source: 'cluster', uid}, policy?) for a live one (pickItems.ts).
    vscode.commands.registerCommand(
      'kubeGcLens.simulateDelete',
      reportingErrors('Simulate Delete', (target?: unknown, policy?: unknown) => simulateDelete(simulate, target, policy)),
    ),
    // The "Simulate …" code actions (SIMULATE_REQUESTS_COMMAND): a change besides DELETE, or a scale asked first.
    vscode.commands.registerCommand(
      'kubeGcLens.simulateRequests',
      reportingErrors('Simulate', (arg?: unknown) => simulateRequests(simulate, parseSimulateRequestsArgs(arg))),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.checkWorkspace',
      reportingErrors('Check Workspace', () => checkWorkspace(lsp)),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.showStuckObjects',
      reportingErrors('Show Stuck Objects', async () => {
        start();
        await vscode.commands.executeCommand('setContext', STARTED_KEY, true);
        await vscode.commands.executeCommand(`${STUCK_VIEW_ID}.focus`);
        stuckView.refresh();
      }),
    ),
    // The ownership graph (graph/graphPanel.ts, webview/): whole, or focused on one object (and its simulated deletion).
    vscode.commands.registerCommand(
      'kubeGcLens.showGraph',
      reportingErrors('Show Ownership Graph', async () => {
        start();
        await showGraph(graphs, cluster);
      }),
    ),
    // SHOW_IN_GRAPH_COMMAND: lenses, hovers and the report's link run it with {uid, source?, policy?}.
    vscode.commands.registerCommand(
      'kubeGcLens.showInGraph',
      reportingErrors('Show in Graph', async (target?: unknown, policy?: unknown) => {
        const args = parseShowInGraphArgs(target, policy);
        if (!args) return showGraph(graphs, cluster);
        start();
        await graphs.showObject(args);
      }),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.revealLocation',
      reportingErrors('Reveal', (uri?: unknown, range?: unknown) => revealLocation(uri, range)),
    ),

    // The live cluster (cluster.ts): read-only, off until the user connects or sets kubeGcLens.cluster.autoConnect.
    vscode.commands.registerCommand(
      'kubeGcLens.cluster.connect',
      reportingErrors('Connect to Cluster', () => cluster.connect({ interactive: true })),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.cluster.disconnect',
      reportingErrors('Disconnect from Cluster', () => cluster.disconnect()),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.cluster.selectContext',
      reportingErrors('Select Cluster Context', () => cluster.selectContext()),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.cluster.openObject',
      reportingErrors('Open Live Object', () => openLiveObject(lsp, cluster)),
    ),
    // The cluster status bar item's click (CLUSTER_ACTIONS_COMMAND).
    vscode.commands.registerCommand(
      'kubeGcLens.cluster.actions',
      reportingErrors('Cluster', () => cluster.showActions()),
    ),

    // The tree's own actions receive the node they were invoked on.
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.refresh', () => stuckView.refresh()),
    vscode.commands.registerCommand(
      'kubeGcLens.stuckObjects.reveal',
      reportingErrors('Reveal in Editor', async (node?: StuckTreeNode) => {
        if (node?.location) await revealLocation(node.location.uri, node.location.range);
      }),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.stuckObjects.simulate',
      reportingErrors('Simulate Delete', async (node?: StuckTreeNode) => {
        if (node?.uid !== undefined) await simulateDelete(simulate, node.live ? { source: 'cluster', uid: node.uid } : node.uid);
      }),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.stuckObjects.copyCommand',
      reportingErrors('Copy kubectl Command', async (node?: StuckTreeNode) => {
        if (!node?.wayOut) return;
        await vscode.env.clipboard.writeText(node.wayOut.command);
        void vscode.window.setStatusBarMessage('Kube GC Lens: kubectl command copied', 3000);
      }),
    ),
    vscode.commands.registerCommand(
      'kubeGcLens.stuckObjects.openReport',
      reportingErrors('Open Simulated Report', async (node?: StuckTreeNode) => {
        // No node: the view refreshed under the menu (the row is gone); choosing again finds the new one.
        if (!node) void vscode.window.showInformationMessage(STALE_WAY_OUT);
        else await simulateRequests(simulate, wayOutTarget(node.wayOut, node.live));
      }),
    ),
    // Both send the way out's PATCH after the same checks; only their titles differ.
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.removeFinalizer', reportingErrors('Remove Finalizer', sendWayOut)),
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.applyFix', reportingErrors('Apply Fix', sendWayOut)),
    vscode.commands.registerCommand(
      'kubeGcLens.stuckObjects.showInGraph',
      reportingErrors('Show in Graph', async (node?: StuckTreeNode) => {
        if (node?.uid !== undefined) await graphs.showObject({ uid: node.uid, source: node.live ? 'cluster' : 'workspace' });
      }),
    ),
  );
}

export function deactivate(): Thenable<void> | undefined {
  const stopping = client?.stop();
  client = undefined;
  return stopping;
}

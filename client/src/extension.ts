// Kube GC Lens in VS Code: wires the lazily started language client (server/src/lsp) to the commands, the
// Stuck Objects view, the report view and the status bar. The logic these use lives in logic/ (no `vscode`
// import there: it is unit-tested in test/client).

import * as vscode from 'vscode';
import { checkWorkspace } from './commands/checkWorkspace';
import { reportingErrors } from './commands/errors';
import { revealLocation } from './commands/revealLocation';
import { simulateDelete } from './commands/simulateDelete';
import { watchKubernetesDocuments } from './kubernetesDocuments';
import { LazyLanguageClient } from './lazyClient';
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
  const reports = new ReportView();
  const stuckView = new StuckObjectsView(lsp);
  const statusBar = new StatusBar(lsp);

  const start = () => {
    lsp.start().catch((e: unknown) => {
      void vscode.window.showErrorMessage(`Kube GC Lens: the language server did not start: ${e instanceof Error ? e.message : String(e)}`);
    });
  };

  context.subscriptions.push(
    lsp,
    reports,
    stuckView,
    statusBar,
    lsp.onStart(() => void vscode.commands.executeCommand('setContext', STARTED_KEY, true)),
    watchKubernetesDocuments(start, (kubernetes) => statusBar.setActiveEditorIsKubernetes(kubernetes)),

    vscode.commands.registerCommand('kubeGcLens.simulateDelete', reportingErrors('Simulate Delete',
      (uid?: unknown, policy?: unknown) => simulateDelete(lsp, reports, uid, policy))),
    vscode.commands.registerCommand('kubeGcLens.checkWorkspace', reportingErrors('Check Workspace',
      () => checkWorkspace(lsp))),
    vscode.commands.registerCommand('kubeGcLens.showStuckObjects', reportingErrors('Show Stuck Objects', async () => {
      start();
      await vscode.commands.executeCommand('setContext', STARTED_KEY, true);
      await vscode.commands.executeCommand(`${STUCK_VIEW_ID}.focus`);
      stuckView.refresh();
    })),
    vscode.commands.registerCommand('kubeGcLens.revealLocation', reportingErrors('Reveal',
      (uri?: unknown, range?: unknown) => revealLocation(uri, range))),

    // The tree's own actions receive the node they were invoked on.
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.refresh', () => stuckView.refresh()),
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.reveal', reportingErrors('Reveal in Editor', async (node?: StuckTreeNode) => {
      if (node?.location) await revealLocation(node.location.uri, node.location.range);
    })),
    vscode.commands.registerCommand('kubeGcLens.stuckObjects.simulate', reportingErrors('Simulate Delete', async (node?: StuckTreeNode) => {
      if (node?.uid !== undefined) await simulateDelete(lsp, reports, node.uid);
    })),
  );
}

export function deactivate(): Thenable<void> | undefined {
  const stopping = client?.stop();
  client = undefined;
  return stopping;
}

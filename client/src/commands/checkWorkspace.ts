// Check Workspace: the server re-reads every manifest from disk; we summarise and open the Problems panel,
// where the findings are (as diagnostics with source "kube-gc-lens").

import * as vscode from 'vscode';
import { CheckRequest, type SeveritySetting } from '../../../shared/src/protocol';
import type { LazyLanguageClient } from '../lazyClient';
import { checkSummary } from '../logic/statusText';

export async function checkWorkspace(client: LazyLanguageClient): Promise<void> {
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Kube GC Lens: checking the workspace…', cancellable: true },
    (_progress, token) => client.request0(CheckRequest, token),
  );
  const severity = vscode.workspace.getConfiguration('kubeGcLens').get<Partial<Record<string, SeveritySetting>>>('severity') ?? {};
  // Not awaited: the message stays while the user reads the Problems panel.
  void vscode.window.showInformationMessage(`Kube GC Lens: ${checkSummary(result, severity)}`);
  await vscode.commands.executeCommand('workbench.actions.view.problems');
}

// Remove Finalizer… / Apply Fix… on a live way out in the Stuck Objects view (issue 18): only with writes allowed
// (kubeGcLens.cluster.allowWrites, the user's own value, never in Restricted Mode), after a modal confirmation that
// shows the simulated consequences and the exact PATCH; the server checks the setting again, re-simulates, sends a
// dry run first and answers with the cluster's own words. Every step is logged in the Output channel.

import * as vscode from 'vscode';
import { ClusterApplyWayOutRequest } from '../../../shared/src/protocol';
import type { LazyLanguageClient } from '../lazyClient';
import { CLUSTER_SECTION } from '../logic/clusterSettings';
import type { StuckTreeNode } from '../logic/stuckTree';
import { ALLOW_WRITES_KEY, confirmation, patchText, resultText, writesAllowed } from '../logic/wayOuts';

const OPEN_SETTINGS = 'Open User Settings';
export const STALE_ROW =
  'Kube GC Lens: the Stuck Objects view was refreshed while its menu was open, so nothing was sent. Choose the way out again.';

export async function applyWayOut(
  client: LazyLanguageClient,
  context: string,
  node: StuckTreeNode | undefined,
  refresh: () => void,
): Promise<void> {
  if (!node) {
    // The view refreshed (a watch event, a settings change) while its menu was open: VS Code no longer knows the row.
    void vscode.window.showInformationMessage(STALE_ROW);
    return;
  }
  const w = node.wayOut;
  if (!w || !node.live || node.stuckUid === undefined || !w.patch) return;
  const inspection = vscode.workspace.getConfiguration(CLUSTER_SECTION).inspect(ALLOW_WRITES_KEY);
  if (!writesAllowed(inspection, vscode.workspace.isTrusted)) {
    const why = vscode.workspace.isTrusted
      ? `Writes to the cluster are off: set "${CLUSTER_SECTION}.${ALLOW_WRITES_KEY}" to true in your user settings to let the editor send a way out. Or copy its kubectl command.`
      : 'Writes to the cluster are off in Restricted Mode: trust this workspace (and allow writes in your user settings) to send a way out. Or copy its kubectl command.';
    const answer = await vscode.window.showInformationMessage(why, OPEN_SETTINGS);
    if (answer === OPEN_SETTINGS)
      await vscode.commands.executeCommand('workbench.action.openSettings', `${CLUSTER_SECTION}.${ALLOW_WRITES_KEY}`);
    return;
  }
  const c = confirmation(w, context);
  const picked = await vscode.window.showWarningMessage(c.message, { modal: true, detail: c.detail }, c.button);
  if (picked !== c.button) {
    client.output.info(`Way out not sent (cancelled): ${w.title}`);
    return;
  }
  client.output.info(`Way out on ${context}: ${w.title}. Sending a dry run, then ${patchText(w)}`);
  const result = await client.request(ClusterApplyWayOutRequest, {
    uid: node.stuckUid,
    command: w.command,
    summary: w.outcome.summary,
    // The server sends nothing unless the connection still reaches the cluster this row was computed on.
    ...(node.clusterUid !== undefined ? { clusterUid: node.clusterUid } : {}),
  });
  for (const r of result.sent) client.output.info(`  sent ${r.method} ${r.path} for uid ${r.uid ?? '?'} ${r.body}`);
  const text = resultText(w, result);
  if (result.ok) {
    client.output.info(`Way out done (${result.status}): ${text}`);
    void vscode.window.showInformationMessage(`Kube GC Lens: ${text}`);
  } else if (result.objectChanged) {
    // Not an error of the product: the cluster moved on since the row was shown. The row is read again below.
    client.output.warn(`Way out not done, the object changed since it was shown (${result.stage}, ${result.status}): ${text}`);
    void vscode.window.showWarningMessage(`Kube GC Lens: ${text}`);
  } else {
    client.output.warn(`Way out not done (${result.stage}, ${result.status}): ${text}`);
    void vscode.window.showErrorMessage(`Kube GC Lens: ${text}`);
  }
  refresh();
}

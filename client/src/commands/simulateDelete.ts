// Simulate Delete…: which object (the one at the cursor first), which policy, then the report.
// Code lenses call it with (uid, 'default') and skip both questions; the tree passes a uid only.

import * as vscode from 'vscode';
import { ObjectAtRequest, ObjectsRequest, SimulateRequest, type PolicyChoice } from '../../../server/src/protocol';
import type { LazyLanguageClient } from '../lazyClient';
import { KUBERNETES_LANGUAGES } from '../logic/looksLikeKubernetes';
import { isPolicyChoice, objectPickItems, POLICY_PICK_ITEMS } from '../logic/pickItems';
import { describeObject } from '../logic/objects';
import type { ReportView } from '../reportView';

export async function simulateDelete(client: LazyLanguageClient, reports: ReportView, uidArg?: unknown, policyArg?: unknown): Promise<void> {
  // From the editor's context menu the first argument is the document's Uri, not a uid.
  const uid = typeof uidArg === 'string' && uidArg !== '' ? uidArg : await pickObject(client);
  if (uid === undefined) return;
  const policy = isPolicyChoice(policyArg) ? policyArg : await pickPolicy();
  if (policy === undefined) return;
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Kube GC Lens: simulating the deletion…', cancellable: true },
    (_progress, token) => client.request(SimulateRequest, { uid, policy }, token),
  );
  if (report === null) {
    void vscode.window.showWarningMessage('Kube GC Lens: that object is no longer in the workspace.');
    return;
  }
  await reports.show(report);
}

async function pickObject(client: LazyLanguageClient): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const inManifest = editor !== undefined && KUBERNETES_LANGUAGES.includes(editor.document.languageId);
  const [objects, atCursor] = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Kube GC Lens: listing objects' },
    async () => Promise.all([
      client.request(ObjectsRequest, {}),
      inManifest
        ? client.request(ObjectAtRequest, {
          uri: await client.uriOf(editor.document.uri),
          position: { line: editor.selection.active.line, character: editor.selection.active.character },
        })
        : Promise.resolve(null),
    ]),
  );
  if (objects.length === 0) {
    void vscode.window.showInformationMessage('Kube GC Lens: no Kubernetes object in the workspace yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(objectPickItems(objects, atCursor?.uid), {
    title: 'Simulate Delete (1/2)',
    placeHolder: atCursor ? `Delete ${describeObject(atCursor)}, or pick another object` : 'Which object to delete?',
    matchOnDescription: true,
  });
  return picked?.uid;
}

async function pickPolicy(): Promise<PolicyChoice | undefined> {
  const picked = await vscode.window.showQuickPick(POLICY_PICK_ITEMS, {
    title: 'Simulate Delete (2/2)',
    placeHolder: 'Which propagation policy does the DELETE request carry?',
  });
  return picked?.policy;
}

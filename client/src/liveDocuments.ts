// Live objects as read-only documents (`kube-gc-lens-live:` URIs, shared/src/wire/liveDocuments.ts): the text comes from the
// server (kubeGcLens/cluster/document) and is re-read when the live graph changes (the cluster status's `version`),
// so an open live document follows the watch. A content provider's documents are read-only in VS Code.
// "Open Live Object…" picks one from the live graph, searched on the server as the user types (liveObjectPicker.ts).

import * as vscode from 'vscode';
import { ClusterDocumentRequest, LIVE_SCHEME, liveObjectUri } from '../../shared/src/protocol';
import type { ClusterConnection } from './cluster';
import type { LazyLanguageClient } from './lazyClient';
import { pickLiveObject } from './liveObjectPicker';

export class LiveDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private version: number | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly lsp: LazyLanguageClient) {
    this.disposables = [
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(LIVE_SCHEME, this),
      // Every change of the live graph, or of the connection, may change what an open live document shows.
      lsp.onClusterStatus((status) => {
        const version = status?.version;
        if (version !== undefined && version === this.version) return;
        this.version = version;
        for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === LIVE_SCHEME) this.changed.fire(doc.uri);
      }),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const { text } = await this.lsp.request(ClusterDocumentRequest, { uri: uri.toString() }, token);
    return text;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Kubernetes GC: Open Live Object…: any live object (searched by kind, namespace and name); opens its read-only document. */
export async function openLiveObject(lsp: LazyLanguageClient, cluster: ClusterConnection): Promise<void> {
  const context = cluster.state.phase === 'connected' ? cluster.state.status?.context : undefined;
  if (!context) {
    const connect = 'Connect to Cluster';
    const answer = await vscode.window.showInformationMessage('Kube GC Lens: not connected to a cluster.', connect);
    if (answer === connect) await vscode.commands.executeCommand('kubeGcLens.cluster.connect');
    return;
  }
  const o = await pickLiveObject(lsp, {
    title: `Open Live Object (${context})`,
    placeholder: () => 'Which live object? (type a kind, namespace or name: pod shop/web)',
    emptyMessage: `Kube GC Lens: the live cluster ${context} has no objects in scope.`,
  });
  if (!o) return;
  const uri = vscode.Uri.parse(o.location?.uri ?? liveObjectUri(o, context), true);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}

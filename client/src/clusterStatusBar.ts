// The cluster status bar item, next to the workspace one (statusBar.ts): context, scope, object count and sync
// state of the live cluster; a click offers the cluster commands. While off it shows only with a Kubernetes
// document in the active editor, like the workspace item; once a connection is wanted it always shows
// (logic/clusterState.ts, clusterStatusBarModel).

import * as vscode from 'vscode';
import { CLUSTER_ACTIONS_COMMAND, type ClusterConnection } from './cluster';
import { clusterStatusBarModel } from './logic/clusterState';

export class ClusterStatusBar implements vscode.Disposable {
  // Right of the workspace item (priority 100): right-aligned items with a lower priority sit further right.
  private readonly item = vscode.window.createStatusBarItem('kubeGcLens.cluster', vscode.StatusBarAlignment.Right, 99);
  private readonly subscription: vscode.Disposable;
  private activeIsKubernetes = false;

  constructor(private readonly cluster: ClusterConnection) {
    this.item.name = 'Kube GC Lens: Cluster';
    this.item.command = CLUSTER_ACTIONS_COMMAND;
    this.subscription = vscode.Disposable.from(
      cluster.onDidChange(() => this.update()),
      // The tooltip says when Restricted Mode applies.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
    );
    this.update();
  }

  setActiveEditorIsKubernetes(kubernetes: boolean): void {
    this.activeIsKubernetes = kubernetes;
    this.update();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }

  private update(): void {
    const model = clusterStatusBarModel(this.cluster.state, this.activeIsKubernetes, this.cluster.restricted);
    if (!model.visible) {
      this.item.hide();
      return;
    }
    this.item.text = model.text;
    this.item.tooltip = model.tooltip;
    this.item.backgroundColor = model.background ? new vscode.ThemeColor(`statusBarItem.${model.background}Background`) : undefined;
    this.item.show();
  }
}

// A small status bar item with what the server holds (objects, findings, stuck), shown only while the active
// editor holds a Kubernetes document and the language client runs.

import * as vscode from 'vscode';
import type { LazyLanguageClient } from './lazyClient';
import { statusBarModel } from './logic/statusText';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kubeGcLens.status', vscode.StatusBarAlignment.Right, 100);
  private readonly subscription: vscode.Disposable;
  private activeIsKubernetes = false;

  constructor(private readonly client: LazyLanguageClient) {
    this.item.name = 'Kube GC Lens';
    this.subscription = vscode.Disposable.from(
      client.onStatus(() => this.update()),
      client.onStart(() => this.update()),
    );
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
    if (!this.activeIsKubernetes || !this.client.started) {
      this.item.hide();
      return;
    }
    const model = statusBarModel(this.client.status);
    this.item.text = model.text;
    this.item.tooltip = model.tooltip;
    this.item.command = model.command;
    this.item.show();
  }
}

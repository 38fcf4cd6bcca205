// The Stuck Objects tree view (kubeGcLens.stuckObjects): what StuckRequest returns, drawn from the pure model
// in logic/stuckTree.ts. It refreshes when the server's status says the workspace changed, but only while
// visible (the request runs a simulation), and at most once per REFRESH_DEBOUNCE_MS.

import * as vscode from 'vscode';
import { StuckRequest, type ServerStatus } from '../../server/src/protocol';
import type { LazyLanguageClient } from './lazyClient';
import { childrenOf, stuckRoots, type StuckTreeNode } from './logic/stuckTree';

export const STUCK_VIEW_ID = 'kubeGcLens.stuckObjects';
/** Context key read by the view's welcome content: loading | ready | error. */
const STATE_KEY = 'kubeGcLens.stuckObjects.state';
const REFRESH_DEBOUNCE_MS = 500;

export class StuckObjectsView implements vscode.TreeDataProvider<StuckTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<StuckTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly view: vscode.TreeView<StuckTreeNode>;
  private readonly disposables: vscode.Disposable[] = [];
  /** The workspace changed since the tree was last filled. */
  private stale = true;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: LazyLanguageClient) {
    this.view = vscode.window.createTreeView(STUCK_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changeEmitter,
      this.view.onDidChangeVisibility((e) => {
        if (e.visible && this.stale) this.refresh();
      }),
      client.onStatus((status) => this.onStatus(status)),
    );
  }

  refresh(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changeEmitter.fire(undefined);
  }

  async getChildren(node?: StuckTreeNode): Promise<StuckTreeNode[]> {
    if (node) return childrenOf(node);
    this.stale = false;
    try {
      if (this.client.status?.state !== 'ready') await setState('loading');
      const roots = stuckRoots(await this.client.request0(StuckRequest));
      this.view.badge = roots.length ? { value: roots.length, tooltip: `${roots.length} stuck or predicted to deadlock` } : undefined;
      this.view.message = undefined;
      await setState(this.client.status?.state === 'loading' ? 'loading' : 'ready');
      return roots;
    } catch (e) {
      this.view.badge = undefined;
      this.view.message = `Could not list stuck objects: ${e instanceof Error ? e.message : String(e)}`;
      await setState('error');
      return [];
    }
  }

  getTreeItem(node: StuckTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = node.warning
      ? new vscode.ThemeIcon(node.icon, new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon(node.icon);
    item.contextValue = node.contextValue;
    if (node.location) item.command = { command: 'kubeGcLens.stuckObjects.reveal', title: 'Reveal in Editor', arguments: [node] };
    return item;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  private onStatus(status: ServerStatus): void {
    if (status.state === 'loading') {
      void setState('loading');
      return;
    }
    this.stale = true;
    if (!this.view.visible) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), REFRESH_DEBOUNCE_MS);
  }
}

function setState(state: 'loading' | 'ready' | 'error'): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', STATE_KEY, state);
}

// The Stuck Objects tree view (kubeGcLens.stuckObjects): what StuckRequest returns, drawn from the pure model
// in logic/stuckTree.ts. While connected to a cluster it has two sections, "Workspace manifests" and
// "Live cluster (<context>)" (ClusterStuckRequest); otherwise the workspace's items are its roots.
//
// It refreshes only while visible (each request runs a simulation), and each part only when it changed: the
// workspace part when the server's status says the workspace changed (debounced: typing is one refresh), the live
// part when a cluster status notification carries a new graph version or sync state (the server coalesces watch
// events; throttled here to one fetch per LIVE_REFRESH_MS, and redrawn only when the answer changed). No polling.

import * as vscode from 'vscode';
import { ClusterStuckRequest, StuckRequest, type ServerStatus } from '../../shared/src/protocol';
import type { ClusterConnection } from './cluster';
import type { LazyLanguageClient } from './lazyClient';
import { CLUSTER_SECTION } from './logic/clusterSettings';
import { contextName, isClusterActive, type ClusterState } from './logic/clusterState';
import { count } from './logic/objects';
import { OPEN_WAY_OUT_REPORT, wayOutTarget } from './logic/simulateRequests';
import { childrenOf, sectionKey, stuckRoots, stuckSections, type SectionSource, type StuckTreeNode } from './logic/stuckTree';

export const STUCK_VIEW_ID = 'kubeGcLens.stuckObjects';
/** Context key read by the view's welcome content: loading | ready | error. */
const STATE_KEY = 'kubeGcLens.stuckObjects.state';
const REFRESH_DEBOUNCE_MS = 500;
const LIVE_REFRESH_MS = 1000;
/** An unchanged live answer is still redrawn this often, for its ages. */
const AGES_REDRAWN_MS = 60_000;

interface Part {
  /** Changed since `source` was fetched. */
  stale: boolean;
  source?: SectionSource;
}

export class StuckObjectsView implements vscode.TreeDataProvider<StuckTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<StuckTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly view: vscode.TreeView<StuckTreeNode>;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly workspace: Part = { stale: true };
  private readonly live: Part = { stale: true };
  /** What the live part was last fetched for (phase, context, sync state, graph version). */
  private liveKey = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: LazyLanguageClient,
    private readonly cluster: ClusterConnection,
  ) {
    this.view = vscode.window.createTreeView(STUCK_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changeEmitter,
      this.view.onDidChangeVisibility((e) => {
        if (e.visible && (this.workspace.stale || this.live.stale)) this.refreshNow();
      }),
      client.onStatus((status) => this.onStatus(status)),
      cluster.onDidChange((state) => this.onCluster(state)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${CLUSTER_SECTION}.stuckAfterMinutes`)) this.liveChanged(true);
      }),
    );
  }

  /** Refresh button and Show Stuck Objects: asks the server again for both parts. */
  refresh(): void {
    this.workspace.stale = true;
    this.live.stale = true;
    this.refreshNow();
  }

  async getChildren(node?: StuckTreeNode): Promise<StuckTreeNode[]> {
    if (node) return childrenOf(node);
    const state = this.cluster.state;
    if (this.client.status?.state !== 'ready') await setState('loading');
    if (!isClusterActive(state)) return this.workspaceOnly();
    const [workspace, live] = await Promise.all([this.fetchWorkspace(), this.fetchLive(state)]);
    const roots = stuckSections(workspace, {
      context: contextName(state) ?? 'current context',
      source: live,
      now: Date.now(),
      stuckAfterMinutes: this.cluster.settings().stuckAfterMinutes,
    });
    const listed = [workspace, live].reduce((n, s) => n + ('items' in s ? s.items.length : 0), 0);
    this.view.badge = listed
      ? { value: listed, tooltip: `${count(listed, 'object')} stuck, predicted to deadlock or still cleaning up` }
      : undefined;
    this.view.message = undefined;
    await setState(this.client.status?.state === 'loading' ? 'loading' : 'ready');
    return roots;
  }

  getTreeItem(node: StuckTreeNode): vscode.TreeItem {
    const collapsed = node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, node.hasChildren ? collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = node.warning
      ? new vscode.ThemeIcon(node.icon, new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon(node.icon);
    item.contextValue = node.contextValue;
    if (node.location) item.command = { command: 'kubeGcLens.stuckObjects.reveal', title: 'Reveal in Editor', arguments: [node] };
    // A way out's click opens its whole simulated Report (its outcome is only one line here).
    else if (wayOutTarget(node.wayOut, node.live))
      item.command = { command: OPEN_WAY_OUT_REPORT, title: 'Open Simulated Report', arguments: [node] };
    return item;
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }

  /** Not connected: the workspace's items are the roots, and the welcome content speaks when there are none. */
  private async workspaceOnly(): Promise<StuckTreeNode[]> {
    const source = await this.fetchWorkspace();
    if ('error' in source || 'pending' in source) {
      this.view.badge = undefined;
      this.view.message = `Could not list stuck objects: ${'error' in source ? source.error : source.pending}`;
      await setState('error');
      return [];
    }
    const roots = stuckRoots(source.items);
    this.view.badge = roots.length ? { value: roots.length, tooltip: `${roots.length} stuck or predicted to deadlock` } : undefined;
    this.view.message = undefined;
    await setState(this.client.status?.state === 'loading' ? 'loading' : 'ready');
    return roots;
  }

  private async fetchWorkspace(): Promise<SectionSource> {
    const part = this.workspace;
    if (!part.stale && part.source) return part.source;
    part.stale = false;
    try {
      part.source = { items: await this.client.request0(StuckRequest) };
    } catch (e) {
      part.source = { error: e instanceof Error ? e.message : String(e) };
      part.stale = true;
    }
    return part.source;
  }

  private async fetchLive(state: ClusterState): Promise<SectionSource> {
    const s = state.status;
    if (state.phase === 'connecting' || !s || s.state === 'connecting' || s.state === 'listing') {
      // The graph is not complete yet: its stuck list would be wrong. The status notifications bring the rest.
      this.live.stale = true;
      this.live.source = undefined;
      return { pending: s?.state === 'listing' ? `Listing ${s.resources.listed}/${s.resources.total} resource types…` : 'Connecting…' };
    }
    const part = this.live;
    if (!part.stale && part.source) return part.source;
    part.stale = false;
    try {
      part.source = {
        items: await this.client.request(ClusterStuckRequest, { stuckAfterMinutes: this.cluster.settings().stuckAfterMinutes }),
      };
    } catch (e) {
      part.source = { error: e instanceof Error ? e.message : String(e) };
      part.stale = true;
    }
    return part.source;
  }

  private refreshNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.drawnAt = Date.now();
    this.changeEmitter.fire(undefined);
  }

  /** When the tree was last redrawn (its ages are as of then). */
  private drawnAt = 0;

  private onStatus(status: ServerStatus): void {
    if (status.state === 'loading') {
      void setState('loading');
      return;
    }
    this.workspace.stale = true;
    if (!this.view.visible) return;
    // Debounced: a burst of edits is one refresh.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refreshNow(), REFRESH_DEBOUNCE_MS);
  }

  private onCluster(state: ClusterState): void {
    const s = state.status;
    const key = isClusterActive(state)
      ? [state.phase, contextName(state), s?.state, s?.version, s?.resources.listed, s?.problems.length].join('|')
      : 'off';
    if (key === this.liveKey) return;
    const shapeChanged = (key === 'off') !== (this.liveKey === 'off' || this.liveKey === '');
    this.liveKey = key;
    this.liveChanged(shapeChanged);
  }

  /** The live part changed: refresh now when the tree changes shape, else at most once per LIVE_REFRESH_MS. */
  private liveChanged(now: boolean): void {
    this.live.stale = true;
    if (!this.view.visible) return;
    if (now) {
      this.refreshNow();
      return;
    }
    // Throttled, not debounced: a cluster whose watch events never stop must still be refreshed.
    this.timer ??= setTimeout(() => void this.refreshLiveIfChanged(), LIVE_REFRESH_MS);
  }

  /**
   * Watch events: the live answer is fetched in the background and the tree redrawn only when it changed (or its
   * ages are a minute old), so that a busy cluster does not close a context menu every second.
   */
  private async refreshLiveIfChanged(): Promise<void> {
    this.timer = undefined;
    const state = this.cluster.state;
    const before = this.live.source;
    if (!before || !isClusterActive(state) || Date.now() - this.drawnAt > AGES_REDRAWN_MS) return this.refreshNow();
    const after = await this.fetchLive(state);
    if (sectionKey(after) !== sectionKey(before)) this.refreshNow();
  }
}

function setState(state: 'loading' | 'ready' | 'error'): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', STATE_KEY, state);
}

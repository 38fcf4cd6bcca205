// The ownership graph's webview panels: one per source (the workspace, or the live cluster of a context), created
// by Show Ownership Graph / Show in Graph, restored after a reload by the panel serializer (activation event
// onWebviewPanel:kubeGcLens.graph). Each panel reads its graph from the language server (kubeGcLens/graph or
// kubeGcLens/cluster/graph) when it is shown and, coalesced, whenever the workspace or the live cluster changes;
// it answers the webview's messages (reveal, simulate, export, open the report, choose a scope). A live cluster of
// more than GRAPH_SCOPE_THRESHOLD objects is shown one scope at a time (a namespace, the cluster-scoped objects, an
// object's component: logic/graphScope.ts), chosen in a quick pick with the namespaces' object counts; the panel
// reads the same scope again on every change. The webview's state (zoom, selection, filters, which scope) is its own
// (vscode.setState); the host keeps only what it sent (GraphChannel).

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  ClusterGraphRequest,
  ClusterGraphSummaryRequest,
  ClusterSimulateRequest,
  GraphRequest,
  SimulateRequest,
  type GraphScope,
  type GraphSource,
  type PolicyChoice,
  type ShowInGraphArgs,
  type SimulateReport,
  type WebviewToHostMessage,
} from '../../../shared/src/protocol';
import type { ClusterConnection } from '../cluster';
import { revealLocation } from '../commands/revealLocation';
import type { LazyLanguageClient } from '../lazyClient';
import { contextName } from '../logic/clusterState';
import { GRAPH_BUNDLE_DIR, GRAPH_VIEW_TYPE, graphPage } from '../logic/graphHtml';
import { exportFile, GraphChannel, panelTitle, parseWebviewMessage, sourceFromState, sourceKey } from '../logic/graphHost';
import {
  asksForScope,
  defaultScope,
  refinedScope,
  sameScope,
  scopeForObject,
  scopeFromState,
  scopeParams,
  scopePickItems,
  scopePickPlaceholder,
} from '../logic/graphScope';
import { KUBERNETES_LANGUAGES } from '../logic/looksLikeKubernetes';
import type { ReportView } from '../reportView';

/** Changes are coalesced this long before the graph is read again. */
const REFRESH_DELAY_MS = 400;

export interface GraphDeps {
  context: vscode.ExtensionContext;
  client: LazyLanguageClient;
  cluster: ClusterConnection;
  reports: ReportView;
  log: (message: string) => void;
}

export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: GraphDeps) {
    const changed = (cluster: boolean) => {
      for (const p of this.panels.values()) if ((p.source.kind === 'cluster') === cluster) p.scheduleRefresh();
    };
    const files = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}');
    this.subscriptions.push(
      files,
      files.onDidChange(() => changed(false)),
      files.onDidCreate(() => changed(false)),
      files.onDidDelete(() => changed(false)),
      deps.client.onStatus(() => changed(false)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (KUBERNETES_LANGUAGES.includes(e.document.languageId) && e.contentChanges.length) changed(false);
      }),
      deps.cluster.onDidChange(() => {
        for (const p of this.panels.values()) if (p.source.kind === 'cluster') p.clusterChanged();
      }),
      vscode.window.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => {
          // The state is the webview's (zoom, selection, filters, and which graph and scope it showed).
          const source = sourceFromState(state);
          this.adopt(panel, source, source.kind === 'cluster' ? scopeFromState(state) : undefined);
        },
      }),
    );
  }

  /** The panel of `source`, created (or revealed) and focused; a live graph's panel shows `scope` when given. */
  show(source: GraphSource, scope?: GraphScope): GraphPanel {
    const existing = this.panels.get(sourceKey(source));
    if (existing) {
      if (scope) existing.setScope(scope);
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      GRAPH_VIEW_TYPE,
      panelTitle(source, scope),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {},
    );
    return this.adopt(panel, source, scope);
  }

  /**
   * Show Ownership Graph on the live cluster: a cluster of more than GRAPH_SCOPE_THRESHOLD objects first asks which
   * namespace (or the cluster-scoped objects, or the whole cluster); a smaller one is shown whole.
   */
  async showCluster(context: string): Promise<void> {
    const source: GraphSource = { kind: 'cluster', context };
    if (!asksForScope(this.deps.cluster.state.status?.objects)) {
      this.show(source, { kind: 'all' });
      return;
    }
    const scope = await pickGraphScope(this.deps.client, context, this.panels.get(sourceKey(source))?.currentScope);
    if (scope) this.show(source, scope);
  }

  /** Show in Graph: the object's source's panel, focused on it; with a policy, its simulated deletion played out. */
  async showObject(args: ShowInGraphArgs): Promise<void> {
    let source: GraphSource = { kind: 'workspace' };
    if (args.source === 'cluster') {
      const context = this.deps.cluster.state.phase === 'connected' ? contextName(this.deps.cluster.state) : undefined;
      if (!context) {
        void vscode.window.showWarningMessage(
          'Kube GC Lens: not connected to a cluster: run "Kubernetes GC: Connect to Cluster" to see the live graph.',
        );
        return;
      }
      source = { kind: 'cluster', context };
      // On a large cluster: the panel's scope if the object is in it, else the object's component (capped).
      const open = this.panels.get(sourceKey(source));
      const scope = scopeForObject(args.uid, open?.shownGraph, this.deps.cluster.state.status?.objects);
      const panel = this.show(source, scope === 'keep' ? undefined : scope);
      panel.focus(args.uid);
      if (args.policy) await panel.simulate(args.uid, args.policy);
      return;
    }
    const panel = this.show(source);
    panel.focus(args.uid);
    if (args.policy) await panel.simulate(args.uid, args.policy);
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private adopt(webviewPanel: vscode.WebviewPanel, source: GraphSource, scope?: GraphScope): GraphPanel {
    const key = sourceKey(source);
    // A restored panel for a source that already has one (two were saved): keep the first.
    const existing = this.panels.get(key);
    if (existing) {
      webviewPanel.dispose();
      return existing;
    }
    let panel: GraphPanel;
    try {
      panel = new GraphPanel(this.deps, webviewPanel, source, scope, () => this.panels.delete(key));
    } catch (e) {
      webviewPanel.dispose(); // never an empty tab
      throw e;
    }
    this.panels.set(key, panel);
    return panel;
  }
}

/**
 * Which part of a live cluster's graph to show: a quick pick of its namespaces with their object counts (the largest
 * first), the cluster-scoped objects and the whole cluster. Undefined when dismissed.
 */
export async function pickGraphScope(client: LazyLanguageClient, context: string, current?: GraphScope): Promise<GraphScope | undefined> {
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Kube GC Lens: counting the live objects per namespace…' },
    () => client.request0(ClusterGraphSummaryRequest),
  );
  const items = scopePickItems(summary, current).map((i) =>
    i.separator ? { label: i.label, kind: vscode.QuickPickItemKind.Separator } : i,
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: `Show Ownership Graph: ${context}`,
    placeHolder: scopePickPlaceholder(summary),
    matchOnDescription: false,
  });
  return picked && 'scope' in picked ? picked.scope : undefined;
}

export class GraphPanel {
  private readonly channel: GraphChannel;
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private stale = true;
  private reading = false;
  private lastClusterVersion: number | undefined;
  private disposed = false;

  constructor(
    private readonly deps: GraphDeps,
    private readonly panel: vscode.WebviewPanel,
    readonly source: GraphSource,
    /** A live graph's scope; undefined until chosen (the default is then decided by the cluster's size). */
    private scope: GraphScope | undefined,
    private readonly onDispose: () => void,
  ) {
    const bundle = vscode.Uri.joinPath(deps.context.extensionUri, GRAPH_BUNDLE_DIR);
    // Set again on a restored panel too, so the current options apply (not the ones it was saved with).
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [bundle] };
    panel.title = panelTitle(source, scope);
    panel.iconPath = vscode.Uri.joinPath(deps.context.extensionUri, 'images', 'icon.png');
    this.channel = new GraphChannel((m) => void panel.webview.postMessage(m));
    panel.webview.html = graphPage({
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(bundle, 'webview.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(bundle, 'webview.css')).toString(),
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw) => void this.onMessage(raw)),
      // Hidden, the page is torn down; shown again, it reloads and says ready.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.channel.reset();
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    if (source.kind === 'cluster') this.clusterChanged();
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, false);
  }

  focus(uid: string): void {
    this.channel.focus(uid);
  }

  /** The graph last sent to the webview. */
  get shownGraph() {
    return this.channel.currentGraph;
  }

  get currentScope(): GraphScope | undefined {
    return this.scope;
  }

  /** Show another part of the live graph: read at once (when shown), the title says which. */
  setScope(scope: GraphScope): void {
    if (this.source.kind !== 'cluster' || sameScope(scope, this.scope)) return;
    this.scope = scope;
    this.panel.title = panelTitle(this.source, scope);
    this.channel.awaitGraph();
    this.stale = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    if (this.panel.visible) void this.refresh();
  }

  /** The workspace (or cluster) changed: read the graph again soon, if it is shown; else when it is shown. */
  scheduleRefresh(): void {
    this.stale = true;
    if (!this.panel.visible || this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.refresh();
    }, REFRESH_DELAY_MS);
  }

  /** The cluster connection changed: a new live graph version, or the connection went. */
  clusterChanged(): void {
    if (this.source.kind !== 'cluster') return;
    const state = this.deps.cluster.state;
    const context = state.phase === 'connected' ? contextName(state) : undefined;
    if (context !== this.source.context) {
      this.channel.setNotice(
        `Not connected to ${this.source.context}: this is the graph as it was last read. Run "Kubernetes GC: Connect to Cluster" to follow it again.`,
        'warning',
      );
      return;
    }
    const version = state.status?.version;
    if (version !== this.lastClusterVersion || this.stale) {
      this.lastClusterVersion = version;
      this.scheduleRefresh();
    }
  }

  async simulate(uid: string, policy: PolicyChoice): Promise<void> {
    const live = this.source.kind === 'cluster';
    let report: SimulateReport | null;
    try {
      report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Kube GC Lens: simulating the deletion…' },
        () => this.deps.client.request(live ? ClusterSimulateRequest : SimulateRequest, { uid, policy }),
      );
    } catch (e) {
      this.channel.setNotice(`The simulation failed: ${e instanceof Error ? e.message : String(e)}`, 'error');
      return;
    }
    if (!report) {
      this.channel.setNotice(`That object is no longer in the ${live ? 'live cluster' : 'workspace'}.`, 'warning');
      return;
    }
    this.channel.setSimulation(report, Date.now());
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
    this.onDispose();
  }

  private async refresh(): Promise<void> {
    if (this.disposed || this.reading) {
      if (this.reading) this.scheduleRefresh();
      return;
    }
    this.reading = true;
    this.stale = false;
    try {
      if (this.source.kind === 'cluster') {
        const state = this.deps.cluster.state;
        if (state.phase !== 'connected' || contextName(state) !== this.source.context) {
          this.channel.setNotice(
            `Not connected to ${this.source.context}. Run "Kubernetes GC: Connect to Cluster" to see its graph.`,
            'warning',
          );
          return;
        }
        // A panel nobody chose a scope for (restored from before scopes, or opened by a command): by the cluster's size.
        this.scope ??= asksForScope(state.status?.objects)
          ? defaultScope(await this.deps.client.request0(ClusterGraphSummaryRequest))
          : { kind: 'all' };
        let scope = this.scope;
        let graph = await this.deps.client.request(ClusterGraphRequest, scopeParams(scope));
        const better = refinedScope(scope, graph);
        if (better && sameScope(scope, this.scope)) {
          this.scope = scope = better;
          graph = await this.deps.client.request(ClusterGraphRequest, scopeParams(scope));
        }
        if (!sameScope(scope, this.scope)) {
          this.stale = true; // another scope was chosen meanwhile: read that one
          return;
        }
        this.channel.setGraph(this.source, graph, scope);
        this.panel.title = panelTitle(this.source, scope, graph);
      } else {
        this.channel.setGraph(this.source, await this.deps.client.request(GraphRequest, {}));
      }
      this.channel.setNotice();
    } catch (e) {
      this.channel.setNotice(`The graph could not be read: ${e instanceof Error ? e.message : String(e)}`, 'error');
    } finally {
      this.reading = false;
      if (this.stale && this.panel.visible && !this.disposed) this.scheduleRefresh();
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message: WebviewToHostMessage | undefined = parseWebviewMessage(raw);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        this.channel.onReady();
        await this.refresh();
        return;
      case 'refresh':
        await this.refresh();
        return;
      case 'pickScope': {
        if (this.source.kind !== 'cluster') return;
        const state = this.deps.cluster.state;
        if (state.phase !== 'connected' || contextName(state) !== this.source.context) {
          this.channel.setNotice(
            `Not connected to ${this.source.context}. Run "Kubernetes GC: Connect to Cluster" to choose what to show.`,
            'warning',
          );
          return;
        }
        const scope = await pickGraphScope(this.deps.client, this.source.context, this.scope);
        if (scope) this.setScope(scope);
        return;
      }
      case 'reveal': {
        const location = this.channel.locationOf(message.uid);
        if (!location) return;
        // Beside the graph, keeping the keyboard in it.
        const other = this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
        await revealLocation(location.uri, location.range, { viewColumn: other, preserveFocus: true });
        return;
      }
      case 'simulate':
        await this.simulate(message.uid, message.policy);
        return;
      case 'openReport': {
        const report = this.channel.currentSimulation;
        if (report) await this.deps.reports.show(report, this.source.kind === 'cluster' ? { cluster: this.source.context } : {});
        return;
      }
      case 'export':
        await this.save(message.format, message.data, message.name);
        return;
      case 'error':
        this.deps.log(`graph webview: ${message.message}`);
        return;
    }
  }

  private async save(format: 'svg' | 'png' | 'dot', data: string, name: string): Promise<void> {
    const { bytes, filters } = exportFile(format, data);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters,
      title: `Export the ownership graph as ${format.toUpperCase()}`,
      saveLabel: 'Export',
    });
    if (!target) return;
    await vscode.workspace.fs.writeFile(target, bytes);
    void vscode.window.showInformationMessage(`Kube GC Lens: the ownership graph was saved to ${vscode.workspace.asRelativePath(target)}.`);
  }
}

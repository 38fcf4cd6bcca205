// The ownership graph's webview panels: one per source (the workspace, or the live cluster of a context), created
// by Show Ownership Graph / Show in Graph, restored after a reload by the panel serializer (activation event
// onWebviewPanel:kubeGcLens.graph). Each panel reads its graph from the language server (kubeGcLens/graph or
// kubeGcLens/cluster/graph) when it is shown and, coalesced, whenever the workspace or the live cluster changes;
// it answers the webview's messages (reveal, simulate, export, open the report). The webview's state (zoom,
// selection, filters) is its own (vscode.setState); the host keeps only what it sent (GraphChannel).

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  ClusterGraphRequest, ClusterSimulateRequest, GraphRequest, SimulateRequest,
  type GraphSource, type PolicyChoice, type ShowInGraphArgs, type SimulateReport, type WebviewToHostMessage,
} from '../../../server/src/protocol';
import type { ClusterConnection } from '../cluster';
import { revealLocation } from '../commands/revealLocation';
import type { LazyLanguageClient } from '../lazyClient';
import { contextName } from '../logic/clusterState';
import { GRAPH_BUNDLE_DIR, GRAPH_VIEW_TYPE, graphPage } from '../logic/graphHtml';
import { exportFile, GraphChannel, panelTitle, parseWebviewMessage, sourceFromState, sourceKey } from '../logic/graphHost';
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
          // The state is the webview's (zoom, selection, filters, and which graph it showed).
          this.adopt(panel, sourceFromState(state));
        },
      }),
    );
  }

  /** The panel of `source`, created (or revealed) and focused. */
  show(source: GraphSource): GraphPanel {
    const existing = this.panels.get(sourceKey(source));
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, panelTitle(source), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {});
    return this.adopt(panel, source);
  }

  /** Show in Graph: the object's source's panel, focused on it; with a policy, its simulated deletion played out. */
  async showObject(args: ShowInGraphArgs): Promise<void> {
    let source: GraphSource = { kind: 'workspace' };
    if (args.source === 'cluster') {
      const context = this.deps.cluster.state.phase === 'connected' ? contextName(this.deps.cluster.state) : undefined;
      if (!context) {
        void vscode.window.showWarningMessage('Kube GC Lens: not connected to a cluster: run "Kubernetes GC: Connect to Cluster" to see the live graph.');
        return;
      }
      source = { kind: 'cluster', context };
    }
    const panel = this.show(source);
    panel.focus(args.uid);
    if (args.policy) await panel.simulate(args.uid, args.policy);
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private adopt(webviewPanel: vscode.WebviewPanel, source: GraphSource): GraphPanel {
    const key = sourceKey(source);
    // A restored panel for a source that already has one (two were saved): keep the first.
    const existing = this.panels.get(key);
    if (existing) {
      webviewPanel.dispose();
      return existing;
    }
    let panel: GraphPanel;
    try {
      panel = new GraphPanel(this.deps, webviewPanel, source, () => this.panels.delete(key));
    } catch (e) {
      webviewPanel.dispose(); // never an empty tab
      throw e;
    }
    this.panels.set(key, panel);
    return panel;
  }
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
    private readonly onDispose: () => void,
  ) {
    const bundle = vscode.Uri.joinPath(deps.context.extensionUri, GRAPH_BUNDLE_DIR);
    // Set again on a restored panel too, so the current options apply (not the ones it was saved with).
    panel.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [bundle] };
    panel.title = panelTitle(source);
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
      this.channel.setNotice(`Not connected to ${this.source.context}: this is the graph as it was last read. Run "Kubernetes GC: Connect to Cluster" to follow it again.`, 'warning');
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
          this.channel.setNotice(`Not connected to ${this.source.context}. Run "Kubernetes GC: Connect to Cluster" to see its graph.`, 'warning');
          return;
        }
        this.channel.setGraph(this.source, await this.deps.client.request(ClusterGraphRequest, {}));
      } else {
        this.channel.setGraph(this.source, await this.deps.client.request(GraphRequest, {}));
      }
      this.channel.setNotice();
    } catch (e) {
      this.channel.setNotice(`The graph could not be read: ${e instanceof Error ? e.message : String(e)}`, 'error');
    } finally {
      this.reading = false;
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

// The live cluster connection: the Connect / Disconnect / Select Context commands, auto-connect, reconnecting when
// a setting changes or the server restarts, and the state the status bar item and the Stuck Objects view show.
// The server does the work (kubeGcLens/cluster/*, server/src/lsp/cluster.ts); the logic is in logic/clusterState.ts
// and logic/clusterSettings.ts.
//
// The context picked with Select Cluster Context (or in Connect's pick) is remembered in the workspace state, not
// written to the `kubeGcLens.cluster.context` setting: a kubeconfig context name belongs to one user's kubeconfig,
// not in a .vscode/settings.json a team shares, and a command should not edit the repository's files behind the
// user's back. The setting stays for pinning a context on purpose; changing it forgets the picked one.

import * as vscode from 'vscode';
import {
  ClusterConnectRequest,
  ClusterContextsRequest,
  ClusterDisconnectRequest,
  type ClusterContext,
  type ClusterStatus,
} from '../../shared/src/protocol';
import type { LazyLanguageClient } from './lazyClient';
import {
  CLUSTER_SECTION,
  connectionChange,
  connectParams,
  effectiveContext,
  forgetsPickedContext,
  readClusterSettingsTrusted,
  resolveKubeconfigPath,
  type ClusterSettings,
  type ConnectTarget,
  type SettingsSeen,
} from './logic/clusterSettings';
import {
  applyStatus,
  CLUSTER_OFF,
  clusterActionItems,
  connected,
  connectFailure,
  connecting,
  connectProgress,
  contextName,
  contextPickItems,
  degradedMessage,
  failed,
  isClusterActive,
  type ClusterState,
  type ConnectFailure,
} from './logic/clusterState';
import { RESTRICTED_MODE_NOTE } from './logic/workspaceTrust';

/** Context key: a connection is wanted (connecting or connected); Disconnect shows only then. */
export const CLUSTER_CONNECTED_KEY = 'kubeGcLens.clusterConnected';
/** What the cluster status bar item runs: a quick pick of the cluster commands. */
export const CLUSTER_ACTIONS_COMMAND = 'kubeGcLens.cluster.actions';
/** workspaceState key: the context picked for this workspace. */
const SELECTED_CONTEXT = 'kubeGcLens.cluster.selectedContext';

const TRUST = 'Manage Workspace Trust';
const SELECT = 'Select Context…';
const SETTINGS = 'Open Settings';

export interface ConnectOptions {
  /** Connect to this context (else the effective one: picked, setting, kubeconfig's current). */
  context?: string;
  /**
   * A user's command: may ask which context when there are several and none is chosen, shows a cancellable
   * progress notification, and errors. Otherwise (auto-connect, reconnects) it never asks; the status bar item
   * shows the progress, and a failure is that item's state plus one non-modal warning.
   */
  interactive: boolean;
}

export class ClusterConnection implements vscode.Disposable {
  private current: ClusterState = CLUSTER_OFF;
  /** Bumped by every connect and disconnect: an older attempt's answer is ignored. */
  private attempt = 0;
  /** The server stopped while a connection was wanted: connect again when it runs. */
  private reconnectWhenRunning = false;
  /** The last connect failed because the workspace is untrusted: connect again when trust is granted. */
  private retryOnTrust = false;
  /** What the wanted connection (connecting or connected) was opened on. */
  private opened: ConnectTarget | undefined;
  /** The settings as of the last configuration change (or the start), and the trust they were read with. */
  private seen: SettingsSeen;
  private contextKey: boolean | undefined;
  private readonly emitter = new vscode.EventEmitter<ClusterState>();
  /** The state changed (phase, or a new status from the server). */
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly lsp: LazyLanguageClient,
    private readonly workspaceState: vscode.Memento,
  ) {
    this.seen = { settings: this.settings(), trusted: vscode.workspace.isTrusted };
    this.disposables = [
      this.emitter,
      lsp.onClusterStatus((status) => this.set(applyStatus(this.current, status))),
      lsp.onRunning(() => this.onServerRunning()),
      lsp.onStopped(() => this.onServerStopped()),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfiguration(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.onTrustGranted()),
    ];
    this.updateContextKey();
  }

  get state(): ClusterState {
    return this.current;
  }

  /**
   * The kubeGcLens.cluster settings in force. In Restricted Mode (an untrusted workspace) the connection settings are
   * the user's own: VS Code hides a workspace's value of a restricted setting (package.json, restrictedConfigurations),
   * and readClusterSettingsTrusted() reads only the user's through inspect(): VS Code 1.99 still serves the
   * workspace's once its settings hold an object such as `"kubeGcLens.cluster": {"kubeconfig": …}`.
   */
  settings(): ClusterSettings {
    const config = vscode.workspace.getConfiguration(CLUSTER_SECTION);
    return readClusterSettingsTrusted(
      (key) => config.get(key),
      (key) => config.inspect(key),
      vscode.workspace.isTrusted,
    );
  }

  /** In Restricted Mode: only the user's cluster settings apply, and kubeconfig commands do not run. */
  get restricted(): boolean {
    return !vscode.workspace.isTrusted;
  }

  /** Connects (or reconnects) to the effective context, or to `options.context`. */
  async connect(options: ConnectOptions): Promise<void> {
    const settings = this.settings();
    const kubeconfig = this.kubeconfig(settings);
    let context = options.context ?? effectiveContext(settings, this.selected()).context;
    let target = context;
    if (context === undefined && options.interactive) {
      const chosen = await this.askWhenSeveral(kubeconfig);
      if (chosen === null) return;
      context = chosen;
      // A picked context is remembered, so the settings now name it; a kubeconfig's only context is not.
      target = effectiveContext(settings, this.selected()).context;
    }
    await this.open(context, kubeconfig, settings, options.interactive, target);
  }

  async disconnect(): Promise<void> {
    this.attempt++;
    this.retryOnTrust = false;
    this.reconnectWhenRunning = false;
    this.opened = undefined;
    this.set(CLUSTER_OFF);
    // Never starts the server just to disconnect it.
    if (this.lsp.started) await this.lsp.request0(ClusterDisconnectRequest);
  }

  /** Select Cluster Context…: every context of the kubeconfig; the chosen one is remembered and connected to. */
  async selectContext(): Promise<void> {
    const settings = this.settings();
    const kubeconfig = this.kubeconfig(settings);
    const contexts = await this.contexts(kubeconfig);
    if (contexts === undefined) return;
    const context = await this.pickContext(
      contexts,
      'Select Cluster Context',
      'Connect to which kubeconfig context? (read-only: GET requests only)',
    );
    if (context === undefined) return;
    await this.remember(context);
    await this.open(context, kubeconfig, settings, true);
  }

  /** The cluster status bar item's click: the commands that apply now. */
  async showActions(): Promise<void> {
    const next = effectiveContext(this.settings(), this.selected()).context;
    const picked = await vscode.window.showQuickPick(clusterActionItems(this.current, next), {
      title: this.restricted
        ? 'Kube GC Lens: Cluster (Restricted Mode: your settings only, no kubeconfig commands)'
        : 'Kube GC Lens: Cluster',
      placeHolder: this.describe(),
    });
    switch (picked?.action) {
      case 'connect':
      case 'reconnect':
        return void vscode.commands.executeCommand('kubeGcLens.cluster.connect');
      case 'disconnect':
        return void vscode.commands.executeCommand('kubeGcLens.cluster.disconnect');
      case 'selectContext':
        return void vscode.commands.executeCommand('kubeGcLens.cluster.selectContext');
      case 'showStuck':
        return void vscode.commands.executeCommand('kubeGcLens.showStuckObjects');
      case 'settings':
        return void vscode.commands.executeCommand('workbench.action.openSettings', CLUSTER_SECTION);
      default:
        return undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  // -------------------------------------------------------------------------------------------------------------

  /** `targetContext`: the context the settings (and the pick) name for it, which a settings change is compared with. */
  private async open(
    context: string | undefined,
    kubeconfig: string | undefined,
    settings: ClusterSettings,
    interactive: boolean,
    targetContext = context,
  ): Promise<void> {
    const attempt = ++this.attempt;
    this.retryOnTrust = false;
    this.reconnectWhenRunning = false;
    this.opened = { context: targetContext, kubeconfig, namespaces: settings.namespaces };
    this.set(connecting(context));
    const params = connectParams(settings, { context, kubeconfig }, vscode.workspace.isTrusted);
    let status: ClusterStatus;
    try {
      const request = () => this.lsp.request(ClusterConnectRequest, params);
      status = interactive ? await this.withProgress(context, attempt, request) : await request();
    } catch (e) {
      if (attempt !== this.attempt) return; // replaced by a reconnect, a disconnect, a cancel
      if (!interactive && !this.lsp.started) {
        // The server itself did not start: extension.ts says so; the cluster only shows the state.
        this.set(failed(this.current, 'the language server is not running'));
        return;
      }
      const failure = connectFailure(e instanceof Error ? e.message : String(e), vscode.workspace.isTrusted);
      this.retryOnTrust = failure.untrusted;
      this.set(failed(this.current, failure.message));
      void this.reportFailure(failure, interactive);
      return;
    }
    if (attempt !== this.attempt) return;
    this.set(connected(status));
    const degraded = degradedMessage(status);
    if (degraded && interactive) void vscode.window.showWarningMessage(`Kube GC Lens: ${degraded}`);
  }

  /** The connect request behind a cancellable notification that follows the server's listing progress. */
  private withProgress(context: string | undefined, attempt: number, request: () => Promise<ClusterStatus>): Thenable<ClusterStatus> {
    const title = `Kube GC Lens: connecting to ${context ? `context ${context}` : "the kubeconfig's current context"}`;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) =>
        new Promise<ClusterStatus>((resolve, reject) => {
          let done = 0;
          const report = (status: ClusterStatus | null) => {
            const p = connectProgress(status);
            const increment = p.percent !== undefined && p.percent > done ? p.percent - done : 0;
            done += increment;
            progress.report({ message: p.message, ...(increment ? { increment } : {}) });
          };
          const statuses = this.lsp.onClusterStatus((s) => {
            if (attempt === this.attempt) report(s);
          });
          const finish = () => {
            statuses.dispose();
            cancelled.dispose();
          };
          // The server's connect cannot be cancelled, but a disconnect stops it (and supersedes this attempt).
          const cancelled = token.onCancellationRequested(() => {
            finish();
            reject(new vscode.CancellationError());
            void this.disconnect().catch(() => undefined);
          });
          report(null);
          request().then(
            (s) => {
              finish();
              resolve(s);
            },
            (e: unknown) => {
              finish();
              reject(e);
            },
          );
        }),
    );
  }

  private async reportFailure(failure: ConnectFailure, interactive: boolean): Promise<void> {
    const actions = [...(failure.offerTrust ? [TRUST] : []), SELECT, SETTINGS];
    const choice = interactive
      ? await vscode.window.showErrorMessage(`Kube GC Lens: cannot connect to the cluster: ${failure.message}`, ...actions)
      : await vscode.window.showWarningMessage(
          `Kube GC Lens: could not connect to the cluster automatically: ${failure.message}`,
          ...actions,
        );
    if (choice === TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
    else if (choice === SELECT) await vscode.commands.executeCommand('kubeGcLens.cluster.selectContext');
    else if (choice === SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', CLUSTER_SECTION);
  }

  /**
   * Connect with no context chosen: with several contexts the user picks one (the kubeconfig's current one first),
   * remembered for this workspace. undefined: use the kubeconfig's current-context; null: cancelled.
   */
  private async askWhenSeveral(kubeconfig: string | undefined): Promise<string | undefined | null> {
    const contexts = await this.contexts(kubeconfig, false);
    if (contexts === undefined || contexts.length === 0) return undefined; // the connect request says why
    if (contexts.length === 1) return contexts[0].name;
    const context = await this.pickContext(
      contexts,
      'Connect to Cluster',
      'Which kubeconfig context? (remembered for this workspace; read-only: GET requests only)',
    );
    if (context === undefined) return null;
    await this.remember(context);
    return context;
  }

  /** The kubeconfig's contexts; undefined after reporting why there are none (when `report`). */
  private async contexts(kubeconfig: string | undefined, report = true): Promise<ClusterContext[] | undefined> {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Kube GC Lens: reading the kubeconfig' },
      () => this.lsp.request(ClusterContextsRequest, kubeconfig ? { kubeconfig } : {}),
    );
    if (result.contexts.length) return result.contexts;
    if (!report) return [];
    const why = result.error ?? 'the kubeconfig has no contexts';
    const note = this.restricted ? ` (${RESTRICTED_MODE_NOTE})` : '';
    const choice = await vscode.window.showErrorMessage(
      `Kube GC Lens: no cluster context to choose from: ${why}${note}`,
      ...(this.restricted ? [TRUST] : []),
      SETTINGS,
    );
    if (choice === TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
    if (choice === SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', CLUSTER_SECTION);
    return undefined;
  }

  private async pickContext(contexts: ClusterContext[], title: string, placeHolder: string): Promise<string | undefined> {
    const marks = {
      ...(this.current.phase === 'connected' && this.current.status ? { connected: this.current.status.context } : {}),
      ...(this.selected() ? { selected: this.selected() } : {}),
    };
    const picked = await vscode.window.showQuickPick(contextPickItems(contexts, marks), {
      title,
      placeHolder,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    return picked?.context;
  }

  private describe(): string {
    const name = contextName(this.current);
    switch (this.current.phase) {
      case 'connected':
        return `Connected to ${name}`;
      case 'connecting':
        return `Connecting to ${name ?? "the kubeconfig's current context"}…`;
      case 'failed':
        return `Not connected${name ? ` (${name})` : ''}: ${this.current.error ?? ''}`;
      default:
        return 'Not connected to a cluster';
    }
  }

  private selected(): string | undefined {
    const v = this.workspaceState.get<unknown>(SELECTED_CONTEXT);
    return typeof v === 'string' && v !== '' ? v : undefined;
  }

  private remember(context: string | undefined): Thenable<void> {
    return this.workspaceState.update(SELECTED_CONTEXT, context);
  }

  private kubeconfig(settings: ClusterSettings): string | undefined {
    return resolveKubeconfigPath(settings.kubeconfig, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  }

  private set(state: ClusterState): void {
    if (state === this.current) return;
    this.current = state;
    this.updateContextKey();
    this.emitter.fire(state);
  }

  private updateContextKey(): void {
    const active = isClusterActive(this.current);
    if (active === this.contextKey) return;
    this.contextKey = active;
    void vscode.commands.executeCommand('setContext', CLUSTER_CONNECTED_KEY, active);
  }

  /**
   * Any configuration change: VS Code also sends one when trust is granted, just after onDidGrantWorkspaceTrust,
   * with the workspace's restricted settings now in it. The decisions compare the settings in force (as trust
   * allows) with the last ones seen, so a change of a hidden workspace value does nothing in Restricted Mode.
   */
  private onConfiguration(e: vscode.ConfigurationChangeEvent): void {
    const before = this.seen;
    const after: SettingsSeen = { settings: this.settings(), trusted: vscode.workspace.isTrusted };
    this.seen = after;
    if (!e.affectsConfiguration(CLUSTER_SECTION)) return;
    // The newest explicit choice wins: a new context setting replaces the one picked earlier.
    if (forgetsPickedContext(before, after)) void this.remember(undefined);
    this.applySettings(before.settings, after.settings);
  }

  /** Reconnects when the connection would now be opened on another target, or connects when autoConnect turned on. */
  private applySettings(before: ClusterSettings, after: ClusterSettings): void {
    const wanted: ConnectTarget = {
      context: effectiveContext(after, this.selected()).context,
      kubeconfig: this.kubeconfig(after),
      namespaces: after.namespaces,
    };
    const change = connectionChange({
      active: isClusterActive(this.current),
      opened: this.opened,
      wanted,
      before,
      after,
      serverStarted: this.lsp.started,
    });
    if (change !== 'none') void this.connect({ interactive: false });
  }

  private onServerRunning(): void {
    if (isClusterActive(this.current)) return;
    if (this.reconnectWhenRunning || this.settings().autoConnect) void this.connect({ interactive: false });
  }

  private onServerStopped(): void {
    if (!isClusterActive(this.current)) return;
    // The server held the connection; it is gone with it. Reconnect when the client restarts the server.
    this.attempt++;
    this.set(failed(this.current, 'the language server stopped'));
    this.reconnectWhenRunning = true;
  }

  /**
   * Trust granted: as in a workspace trusted from the start, without a reload. Exec plugins may run now (a connect
   * refused for that is made again), and the workspace's own connection settings apply; VS Code 1.99 delivers those
   * in a configuration change just after this event (onConfiguration takes it from there), an older or other host
   * may have them ready now. `seen` is left to onConfiguration, so that their appearing is not taken for a new choice.
   */
  private onTrustGranted(): void {
    if (this.retryOnTrust) {
      void this.connect({ interactive: true });
      return;
    }
    this.applySettings(this.seen.settings, this.settings());
  }
}

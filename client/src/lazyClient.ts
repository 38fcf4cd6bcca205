// The language client, started on first need: a Kubernetes document is open, or one of our commands or the
// view is used. Until then the extension costs nothing in a workspace of unrelated YAML and JSON.

import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  ClusterStatusNotification,
  LIVE_SCHEME,
  PROTOCOL_VERSION,
  SHOW_IN_GRAPH_COMMAND,
  StatusNotification,
  type ClusterStatus,
  type RequestDescriptor,
  type ServerStatus,
} from '../../shared/src/protocol';
import { CLUSTER_SECTION, SERVER_SETTING_SECTIONS } from './logic/clusterSettings';
import { ALLOW_WRITES_KEY, withAllowWrites, writesAllowed } from './logic/wayOuts';
import { KUBERNETES_LANGUAGES } from './logic/looksLikeKubernetes';
import { durationText } from './logic/activityText';

export class LazyLanguageClient implements vscode.Disposable {
  private starting: Promise<LanguageClient> | undefined;
  private client: LanguageClient | undefined;
  private readonly statusEmitter = new vscode.EventEmitter<ServerStatus>();
  private readonly startEmitter = new vscode.EventEmitter<void>();
  private readonly clusterStatusEmitter = new vscode.EventEmitter<ClusterStatus | null>();
  private readonly runningEmitter = new vscode.EventEmitter<void>();
  private readonly stoppedEmitter = new vscode.EventEmitter<void>();
  private warnedAboutVersion = false;
  /**
   * The "Kube GC Lens" output channel, a LogOutputChannel: the user sets its level (the gear of the Output view, or
   * Developer: Set Log Level). The language client writes the server's window/logMessage lines to it at their level
   * (what was loaded, timings, errors: server/src/lsp/activityLog.ts); the extension adds its own (commands' timings
   * and errors).
   */
  readonly output = vscode.window.createOutputChannel('Kube GC Lens', { log: true });
  /** The latest status the server sent (undefined until the first). */
  status: ServerStatus | undefined;
  readonly onStatus = this.statusEmitter.event;
  /** Fired once, when the client starts (before the server has answered anything). */
  readonly onStart = this.startEmitter.event;
  /** The server's kubeGcLens/cluster/status notifications (null: disconnected). */
  readonly onClusterStatus = this.clusterStatusEmitter.event;
  /** The server answers requests: after the first start, and again after each automatic restart. */
  readonly onRunning = this.runningEmitter.event;
  /** The server stopped running (crashed, or stopped): whatever it held, a live cluster included, is gone. */
  readonly onStopped = this.stoppedEmitter.event;

  constructor(private readonly context: vscode.ExtensionContext) {}

  get started(): boolean {
    return this.starting !== undefined;
  }

  /** Starts the client once; a failed start is reported and retried by the next caller. */
  start(): Promise<LanguageClient> {
    if (!this.starting) {
      this.starting = this.create().catch((e: unknown) => {
        this.starting = undefined;
        this.client = undefined;
        throw e;
      });
      this.startEmitter.fire();
    }
    return this.starting;
  }

  /**
   * A request of the editor protocol (shared/src/wire/methods.ts), by its method. The token is passed only when
   * there is one: by name, every argument before it would be sent as one more positional param.
   */
  async request<P, R>(method: RequestDescriptor<P, R>, params: P, token?: vscode.CancellationToken): Promise<R> {
    const client = await this.start();
    return token ? client.sendRequest<R>(method.method, params, token) : client.sendRequest<R>(method.method, params);
  }

  async request0<R>(method: RequestDescriptor<void, R>, token?: vscode.CancellationToken): Promise<R> {
    const client = await this.start();
    return token ? client.sendRequest<R>(method.method, token) : client.sendRequest<R>(method.method);
  }

  /** The URI string the server knows a document by (the client's own conversion, as in didOpen). */
  async uriOf(uri: vscode.Uri): Promise<string> {
    const client = await this.start();
    return client.code2ProtocolConverter.asUri(uri);
  }

  /** A line in the "Kube GC Lens" output channel, at info level. */
  log(message: string): void {
    this.output.info(message);
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.starting = undefined;
    if (client?.isRunning()) await client.stop();
  }

  dispose(): void {
    // The channel last: stopping still logs.
    void this.stop().finally(() => this.output.dispose());
    this.statusEmitter.dispose();
    this.startEmitter.dispose();
    this.clusterStatusEmitter.dispose();
    this.runningEmitter.dispose();
    this.stoppedEmitter.dispose();
  }

  private async create(): Promise<LanguageClient> {
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc },
    };
    const fileEvents = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}');
    this.context.subscriptions.push(fileEvents);
    const clientOptions: LanguageClientOptions = {
      // Live objects' read-only documents too (liveDocuments.ts): hover and lenses there read the live graph.
      documentSelector: [
        ...KUBERNETES_LANGUAGES.flatMap((language) => [
          { scheme: 'file', language },
          { scheme: 'untitled', language },
        ]),
        { scheme: LIVE_SCHEME },
      ],
      synchronize: {
        // The server pulls its settings (workspace/configuration); a change to one of these makes it reload. Not the
        // connection settings (kubeGcLens.cluster.context, …): they are the client's, and must not re-read the workspace.
        configurationSection: SERVER_SETTING_SECTIONS,
        fileEvents,
      },
      middleware: {
        workspace: {
          // The server reads kubeGcLens.cluster.allowWrites from here: only the user's own value, never in Restricted Mode.
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) return result;
            const allowed = writesAllowed(
              vscode.workspace.getConfiguration(CLUSTER_SECTION).inspect(ALLOW_WRITES_KEY),
              vscode.workspace.isTrusted,
            );
            return result.map((value: unknown, i) => (params.items[i]?.section === 'kubeGcLens' ? withAllowWrites(value, allowed) : value));
          },
        },
      },
      // Our own collection: the diagnostics of the YAML and Kubernetes extensions stay theirs.
      diagnosticCollectionName: 'kube-gc-lens',
      // This client runs kubeGcLens.showInGraph (the graph webview): the server adds "Show in Graph" lenses and hover
      // links, and hovers may run that one command (their text is escaped by the server; no other command link works).
      // It also runs kubeGcLens.simulateRequests: the server offers the "Simulate …" code actions.
      initializationOptions: { showInGraph: true, simulateRequests: true },
      markdown: { isTrusted: { enabledCommands: [SHOW_IN_GRAPH_COMMAND] } },
      // Ours, so that it exists before the server starts and outlives restarts (the client does not dispose it).
      outputChannel: this.output,
    };
    const client = new LanguageClient('kubeGcLens', 'Kube GC Lens', serverOptions, clientOptions);
    client.onNotification(StatusNotification.method, (status: ServerStatus) => {
      this.checkVersion(status);
      this.status = status;
      this.statusEmitter.fire(status);
    });
    client.onNotification(ClusterStatusNotification.method, (status: ClusterStatus | null) => this.clusterStatusEmitter.fire(status));
    client.onDidChangeState(({ oldState, newState }) => {
      if (newState === State.Running) this.runningEmitter.fire();
      else if (oldState === State.Running) this.stoppedEmitter.fire();
    });
    this.client = client;
    const starting = performance.now();
    this.output.info(`Starting the language server (${module})`);
    await client.start();
    this.output.info(`Language server running after ${durationText(performance.now() - starting)}`);
    return client;
  }

  private checkVersion(status: ServerStatus): void {
    if (status.protocolVersion === PROTOCOL_VERSION || this.warnedAboutVersion) return;
    this.warnedAboutVersion = true;
    void vscode.window.showWarningMessage(
      `Kube GC Lens: the language server speaks protocol ${status.protocolVersion}, this extension ${PROTOCOL_VERSION}. Reinstall the extension.`,
    );
  }
}

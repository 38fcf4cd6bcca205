// The language server: the only layer that knows LSP. It keeps a WorkspaceModel (every Kubernetes document of
// the workspace, open editors overriding files on disk), re-analyses what each change affects, publishes
// diagnostics, and answers hover, code lenses, quick fixes and the custom requests of the wire module (shared/src/wire/methods.ts).
//
// Scheduling: changes are queued and applied once no change has arrived for a whole turn of the event loop (the
// connection reads one message a turn: a burst of didChange is one update, whose open documents are re-read only
// where the edits were); stuck/deadlock predictions need the simulation and run only after the editor has been idle
// for PREDICTION_DELAY_MS. Requests first apply pending changes, so answers always match the latest text.

import * as path from 'node:path';
import {
  CodeActionKind,
  ErrorCodes,
  FileChangeType,
  ResponseError,
  LSPErrorCodes,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeAction,
  type CodeActionParams,
  type CodeLens,
  type CodeLensParams,
  type Diagnostic,
  type DidChangeTextDocumentParams,
  type DidChangeWatchedFilesParams,
  type DidCloseTextDocumentParams,
  type DidOpenTextDocumentParams,
  type Hover,
  type HoverParams,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
  type WorkspaceFoldersChangeEvent,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  liveUidOf,
  DEFAULT_SETTINGS,
  PROTOCOL_VERSION,
  SHOW_IN_GRAPH_COMMAND,
  type KubeGcLensSettings,
  type ServerStatus,
  type ShowInGraphArgs,
  type ParamsOf,
  type ResultOf,
  type CheckRequest,
  type ClusterConnectRequest,
  type ClusterContextsRequest,
  type ClusterApplyWayOutRequest,
  type ClusterDocumentRequest,
  type ClusterGraphRequest,
  type ClusterGraphSummaryRequest,
  type ClusterObjectsRequest,
  type ClusterSearchObjectsRequest,
  type ClusterSimulateRequest,
  type ClusterSimulateRequestsRequest,
  type ClusterStuckRequest,
  type GraphRequest,
  type ObjectAtRequest,
  type ObjectsRequest,
  type SimulateRequest,
  type SimulateRequestsRequest,
  type StuckRequest,
} from '../../../shared/src/protocol';
import type { KubeObject } from '../engine/model';
import { commandLink } from './markdown';
import { LiveSession } from '../app/liveSession';
import { WorkspaceSession } from '../app/workspaceSession';
import { LiveDocuments, liveRevealTarget, renderLiveObject, withLiveGraphLocations, withLiveLocations } from './liveDocuments';
import { fileOf, readClosedState, readWorkspaceStates, type WorkspaceFiles } from '../app/workspaceLoader';
import { WorkspaceModel, type DocumentState, type ObjectModel } from '../workspace/workspaceModel';
import { DIAGNOSTIC_SOURCE, findingToDiagnostic, problemToDiagnostic, sortDiagnostics } from './diagnostics';
import { LiveDiagnostics } from './liveDiagnostics';
import { graphScopeOf } from '../app/graph';
import { summaryOf } from '../app/objects';
import { hoverAt } from './hover';
import { codeLenses, resolveCodeLens } from './codeLens';
import { quickFixes } from './codeActions';
import { SIMULATE_ACTION_KIND, simulateActions } from './simulateActions';
import type { LspClient, Progress } from './client';
import { OpenDocuments } from './openDocuments';
import { parseControllers } from '../engine/simulation/controllerSet';

const PREDICTION_DELAY_MS = 250;
/** Watch events are coalesced for this long before the live findings and the client's views are refreshed. */
const LIVE_REFRESH_MS = 300;

export class KubeGcLensServer {
  private readonly documents = new OpenDocuments();
  private settings: KubeGcLensSettings = DEFAULT_SETTINGS;
  private filesExclude: string[] = [];
  private folders: WorkspaceFolder[] = [];
  private model = new WorkspaceModel({ controllers: 'builtin', finalizerOwners: [] });
  /** URIs whose text changed and are not applied yet. */
  private readonly pending = new Set<string>();
  private flushScheduled = false;
  /** Counts changes queued: a flush waits for a turn of the event loop in which it did not move. */
  private changeCount = 0;
  private changeCountSeen = 0;
  private predictionTimer: NodeJS.Timeout | undefined;
  /** What each document was last published with, so unchanged documents are not re-sent. */
  private readonly published = new Map<string, string>();
  private loading = true;
  private configurationSupported = false;
  private progressSupported = false;
  private workspaceFoldersSupported = false;
  private loadGeneration = 0;
  private codeLensRefreshSupported = false;
  private showInGraph = false;
  /** The client runs kubeGcLens.simulateRequests: the "Simulate …" code actions are offered. */
  private simulateRequestsCommand = false;
  /** Settles when a workspace load completes (replaced at each reload). */
  private firstLoad: Promise<void> = Promise.resolve();
  private loaded: () => void = () => undefined;

  /** The live cluster, when the client connected one (never on the server's own initiative). */
  private readonly cluster: LiveSession;
  /** The workspace's answers (the live cluster's are `cluster`'s). */
  private readonly workspace = new WorkspaceSession(() => this.model);
  /** The live cluster's diagnostics: workspace manifests compared with it, and its stuck objects. */
  private readonly live: LiveDiagnostics;
  /** Open live documents (read-only views of live objects). */
  private readonly liveDocs = new LiveDocuments();
  private liveTimer: NodeJS.Timeout | undefined;

  /** What goes to the editor (diagnostics, notifications, settings, progress, the log). */
  private readonly client: LspClient;
  /** After shutdown: no timer is started again. */
  private stopped = false;

  constructor(client: LspClient) {
    this.client = client;
    let relists = 0;
    this.cluster = new LiveSession(
      (status) => {
        // The Output channel says when and why the live view listed everything again (as client-go's reflector logs).
        if (status?.relists && status.relists > relists && status.lastRelist)
          this.client.warn(
            `Cluster ${status.context}: listing again from scratch (${status.lastRelist.reason}): ${status.lastRelist.message}`,
          );
        relists = status?.relists ?? 0;
        this.client.sendClusterStatus(status);
        if (status === null || status.state === 'disconnected') this.scheduleLive();
      },
      () => this.scheduleLive(),
    );
    this.live = new LiveDiagnostics(this.cluster);
  }

  // ------------------------------------------------------------------------------------------ lifecycle

  /** Whether the client said it reports workspace folder changes (only then may they be asked for). */
  get wantsFolderChanges(): boolean {
    return this.workspaceFoldersSupported;
  }

  initialized(): void {
    void this.reloadWorkspace();
  }

  didChangeWorkspaceFolders(e: WorkspaceFoldersChangeEvent): void {
    this.folders = this.folders.filter((f) => !e.removed.some((r) => r.uri === f.uri)).concat(e.added);
    void this.reloadWorkspace();
  }

  didChangeConfiguration(): void {
    void this.settingsChanged();
  }

  didChangeWatchedFiles(p: DidChangeWatchedFilesParams): void {
    for (const change of p.changes) {
      if (this.documents.get(change.uri)) continue; // the editor's text wins over the file
      if (change.type === FileChangeType.Deleted || this.inWorkspace(change.uri)) this.queue(change.uri);
    }
  }

  // Live documents are the cluster's, never the workspace's.
  didOpen(p: DidOpenTextDocumentParams): void {
    this.contentChanged(this.documents.open(p));
  }

  didChange(p: DidChangeTextDocumentParams): void {
    const doc = this.documents.change(p);
    if (doc) this.contentChanged(doc);
  }

  didClose(p: DidCloseTextDocumentParams): void {
    const uri = p.textDocument.uri;
    this.documents.close(p);
    if (isLive(uri)) this.liveDocs.delete(uri);
    else this.queue(uri);
  }

  /** Stops the timers and the cluster's watches: nothing is sent after the answer to `shutdown`. */
  shutdown(): Promise<void> {
    clearTimeout(this.predictionTimer);
    clearTimeout(this.liveTimer);
    this.predictionTimer = this.liveTimer = undefined;
    this.stopped = true;
    return this.cluster.disconnect();
  }

  private contentChanged(doc: TextDocument): void {
    if (isLive(doc.uri)) this.liveDocs.set(doc.uri, doc.getText());
    else this.queue(doc.uri);
  }

  // ------------------------------------------------------------------------------------------ document requests

  // Every document request goes to the objects of its URI's source: the workspace, or the connected cluster.
  hover(p: HoverParams, token: CancellationToken): Promise<Hover | null> {
    return this.answer(token, () => {
      const at = this.route(p.textDocument.uri);
      if (!at) return null;
      const liveView = at.source === 'workspace' ? this.cluster.liveView(this.engineOptions()) : undefined;
      return hoverAt(at.model, p.textDocument.uri, p.position, { ...this.engineOptions(), graphLink: this.graphLink(at.source) }, liveView);
    });
  }

  codeLens(p: CodeLensParams, token: CancellationToken): Promise<CodeLens[]> {
    return this.answer(token, () => {
      const at = this.route(p.textDocument.uri);
      if (!at) return [];
      const reveal = at.context === undefined ? undefined : liveRevealTarget(at.context);
      return codeLenses(at.model, p.textDocument.uri, reveal, this.graphTarget(at.source));
    });
  }

  resolveCodeLens(lens: CodeLens, token: CancellationToken): Promise<CodeLens> {
    return this.answer(token, () => {
      if (!lens || typeof lens !== 'object' || !lens.range)
        throw new ResponseError(ErrorCodes.InvalidParams, 'codeLens/resolve: params must be a code lens');
      const uri = (lens.data as { uri?: unknown } | undefined)?.uri;
      const at = this.route(typeof uri === 'string' ? uri : '');
      if (!at) return { ...lens, command: { title: '(not connected)', command: '' } };
      return resolveCodeLens(at.model, lens, this.engineOptions(), at.source === 'cluster');
    });
  }

  codeActions(p: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    return this.answer(token, () => {
      const uri = p.textDocument.uri;
      // "Simulate …" where the cursor is (a finalizer, an ownerReference, a workload), on manifests and live documents.
      const at = this.route(uri);
      const simulations = at && this.simulateRequestsCommand ? simulateActions(at.model, uri, p.range, at.source, p.context.only) : [];
      const doc = isLive(uri) ? undefined : this.documents.get(uri);
      const wantsFixes = !p.context.only || p.context.only.some((k) => k === CodeActionKind.QuickFix || k === CodeActionKind.Empty);
      if (!doc || !wantsFixes) return simulations;
      const ours = p.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
      return [...quickFixes(this.model, uri, doc.getText(), ours), ...simulations];
    });
  }

  // ------------------------------------------------------------------------------------------ custom requests

  simulate(p: ParamsOf<typeof SimulateRequest>, token: CancellationToken): Promise<ResultOf<typeof SimulateRequest>> {
    return this.answer(token, () => this.workspace.simulate(p.uid, p.policy, this.requestOptions(p.controllers)));
  }

  simulateRequests(
    p: ParamsOf<typeof SimulateRequestsRequest>,
    token: CancellationToken,
  ): Promise<ResultOf<typeof SimulateRequestsRequest>> {
    return this.answer(token, () => this.workspace.simulatePlan(p.requests, this.requestOptions(p.controllers), p.arrival));
  }

  objects(p: ParamsOf<typeof ObjectsRequest>, token: CancellationToken): Promise<ResultOf<typeof ObjectsRequest>> {
    return this.answer(token, () => this.workspace.objects(p.uri));
  }

  objectAt(p: ParamsOf<typeof ObjectAtRequest>, token: CancellationToken): Promise<ResultOf<typeof ObjectAtRequest>> {
    return this.answer(token, () => {
      const o = this.route(p.uri)?.model.objectAt(p.uri, p.position);
      return o ? summaryOf(o) : null;
    });
  }

  stuck(token: CancellationToken): Promise<ResultOf<typeof StuckRequest>> {
    return this.answer(token, () => {
      this.refreshPredictions();
      return this.workspace.stuck(this.engineOptions(), this.settings.cluster.stuckAfterMinutes * 60);
    });
  }

  graph(p: ParamsOf<typeof GraphRequest>, token: CancellationToken): Promise<ResultOf<typeof GraphRequest>> {
    return this.answer(token, () => {
      this.refreshPredictions();
      return this.workspace.graph(this.engineOptions(), graphScopeOf(p));
    });
  }

  async check(): Promise<ResultOf<typeof CheckRequest>> {
    await this.reloadWorkspace();
    this.refreshPredictions();
    return {
      files: this.model.documentCount,
      objects: this.model.inventory.objects.size,
      findings: this.model.allFindings(),
      problems: [...this.model.documents()].reduce((n, d) => n + d.problems.length, 0),
    };
  }

  clusterContexts(p: ParamsOf<typeof ClusterContextsRequest>): ResultOf<typeof ClusterContextsRequest> {
    return this.cluster.contexts(p.kubeconfig);
  }

  async clusterConnect(p: ParamsOf<typeof ClusterConnectRequest>): Promise<ResultOf<typeof ClusterConnectRequest>> {
    const status = await this.cluster.connect(p);
    this.refreshLive();
    return status;
  }

  async clusterDisconnect(): Promise<null> {
    await this.cluster.disconnect();
    this.refreshLive();
    return null;
  }

  // Live objects have no file: their locations are their live documents.
  clusterSimulate(p: ParamsOf<typeof ClusterSimulateRequest>, token: CancellationToken): Promise<ResultOf<typeof ClusterSimulateRequest>> {
    return this.answer(token, async () =>
      withLiveLocations(await this.cluster.simulate(p.uid, p.policy, this.requestOptions(p.controllers)), this.cluster.current?.context),
    );
  }

  clusterSimulateRequests(
    p: ParamsOf<typeof ClusterSimulateRequestsRequest>,
    token: CancellationToken,
  ): Promise<ResultOf<typeof ClusterSimulateRequestsRequest>> {
    return this.answer(token, async () =>
      withLiveLocations(
        await this.cluster.simulatePlan(p.requests, this.requestOptions(p.controllers), p.arrival),
        this.cluster.current?.context,
      ),
    );
  }

  clusterStuck(p: ParamsOf<typeof ClusterStuckRequest>, token: CancellationToken): Promise<ResultOf<typeof ClusterStuckRequest>> {
    return this.answer(token, async () => {
      const minutes = p.stuckAfterMinutes ?? this.settings.cluster.stuckAfterMinutes;
      const items = await this.cluster.stuck(this.engineOptions(), minutes * 60);
      return items.map((item) => withLiveLocations(item, this.cluster.current?.context));
    });
  }

  /** The one request that may change the cluster: allowed by this server's own settings, never by the client's word. */
  clusterApplyWayOut(
    p: ParamsOf<typeof ClusterApplyWayOutRequest>,
    token: CancellationToken,
  ): Promise<ResultOf<typeof ClusterApplyWayOutRequest>> {
    return this.answer(token, async () => {
      // The latest allowWrites, not one read before it was turned off; settings that cannot be read turn writes off.
      const settingsUnreadable = await this.readSettings();
      const result = await this.cluster.applyWayOut(p, this.engineOptions(), {
        allowWrites: this.settings.cluster.allowWrites,
        ...(settingsUnreadable !== undefined ? { settingsUnreadable } : {}),
      });
      // The uid each PATCH is for (its first test op, its User-Agent): the audit trail's link to what the user confirmed.
      const sent = result.sent.map((r) => `${r.method} ${r.path} for uid ${r.uid ?? '?'} ${r.body}`).join('; ');
      this.client.info?.(
        `Way out for uid ${p.uid}: ${result.stage} ${result.ok ? 'ok' : 'refused'} (${result.status}): ${result.message}${sent ? ` [sent: ${sent}]` : ''}`,
      );
      return result;
    });
  }

  clusterDocument(p: ParamsOf<typeof ClusterDocumentRequest>): ResultOf<typeof ClusterDocumentRequest> {
    const uid = liveUidOf(p.uri) ?? '';
    const live = this.cluster.current;
    return { text: renderLiveObject(live?.inventory.objects.get(uid), uid, live?.context) };
  }

  clusterGraph(p: ParamsOf<typeof ClusterGraphRequest>, token: CancellationToken): Promise<ResultOf<typeof ClusterGraphRequest>> {
    return this.answer(token, () =>
      withLiveGraphLocations(this.cluster.graph(this.engineOptions(), graphScopeOf(p)), this.cluster.current?.context),
    );
  }

  clusterGraphSummary(token: CancellationToken): Promise<ResultOf<typeof ClusterGraphSummaryRequest>> {
    return this.answer(token, () => this.cluster.graphSummary());
  }

  clusterObjects(p: ParamsOf<typeof ClusterObjectsRequest>, token: CancellationToken): Promise<ResultOf<typeof ClusterObjectsRequest>> {
    return this.answer(token, () => this.cluster.objects(p).map((o) => withLiveLocations(o, this.cluster.current?.context)));
  }

  clusterSearch(
    p: ParamsOf<typeof ClusterSearchObjectsRequest>,
    token: CancellationToken,
  ): Promise<ResultOf<typeof ClusterSearchObjectsRequest>> {
    return this.answer(token, () => {
      const { items, total } = this.cluster.search(p);
      return { items: items.map((o) => withLiveLocations(o, this.cluster.current?.context)), total };
    });
  }

  private requestOptions(controllers: string | undefined) {
    return { ...this.engineOptions(), ...(controllers ? { controllers } : {}) };
  }

  initialize(p: InitializeParams): InitializeResult {
    this.folders = p.workspaceFolders ?? (p.rootUri ? [{ uri: p.rootUri, name: path.basename(p.rootUri) }] : []);
    this.configurationSupported = p.capabilities.workspace?.configuration === true;
    this.progressSupported = p.capabilities.window?.workDoneProgress === true;
    this.workspaceFoldersSupported = p.capabilities.workspace?.workspaceFolders === true;
    this.codeLensRefreshSupported = p.capabilities.workspace?.codeLens?.refreshSupport === true;
    // The VS Code client runs kubeGcLens.showInGraph (the graph webview): only then do lenses and hovers offer it.
    const options = p.initializationOptions as { showInGraph?: unknown; simulateRequests?: unknown } | undefined;
    this.showInGraph = options?.showInGraph === true;
    // Likewise kubeGcLens.simulateRequests: other editors would show actions that run nothing.
    this.simulateRequestsCommand = options?.simulateRequests === true;
    this.firstLoad = new Promise((resolve) => {
      this.loaded = resolve;
    });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeLensProvider: { resolveProvider: true },
        codeActionProvider: {
          codeActionKinds: [CodeActionKind.QuickFix, ...(this.simulateRequestsCommand ? [SIMULATE_ACTION_KIND] : [])],
        },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'kube-gc-lens-server', version: PROTOCOL_VERSION.toString() },
    };
  }

  /** The argument of the client's Show in Graph command for an object, when the client has that command. */
  private graphTarget(source: 'workspace' | 'cluster'): ((o: KubeObject) => ShowInGraphArgs) | undefined {
    if (!this.showInGraph) return undefined;
    return (o) => (source === 'cluster' ? { uid: o.uid, source } : { uid: o.uid });
  }

  private graphLink(source: 'workspace' | 'cluster'): ((o: KubeObject) => string) | undefined {
    const target = this.graphTarget(source);
    return target && ((o) => commandLink('Show in Graph', SHOW_IN_GRAPH_COMMAND, [target(o)]));
  }

  /**
   * The objects a document shows: a live document's are the connected cluster's (undefined when none is), every
   * other document's the workspace's.
   */
  private route(uri: string): { model: ObjectModel; source: 'workspace' | 'cluster'; context?: string } | undefined {
    if (!isLive(uri)) return { model: this.model, source: 'workspace' };
    const live = this.cluster.current;
    return live && { model: this.liveDocs.model(live.inventory, live.context), source: 'cluster', context: live.context };
  }

  private engineOptions() {
    return { controllers: this.settings.simulation.controllers, finalizerOwners: this.settings.finalizerOwners };
  }

  /**
   * Answers a request on fresh data: after the first workspace load (a request during it would see a partial
   * workspace) and after pending changes. A request cancelled meanwhile gets the LSP "cancelled" error.
   */
  private async answer<T>(token: CancellationToken, fn: () => T | Promise<T>): Promise<T> {
    if (this.loading) await this.firstLoad;
    this.flush();
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    return fn();
  }

  // ------------------------------------------------------------------------------------------ settings

  /**
   * Reads the client's settings; when that fails, says why (and returns it): the other settings keep their previous
   * values, but writes to the cluster are off (fail closed) until a read succeeds.
   */
  private async readSettings(): Promise<string | undefined> {
    if (!this.configurationSupported) return undefined;
    try {
      const [ours, files] = await this.client.settings();
      this.settings = mergeSettings(ours);
      this.filesExclude = Object.entries(files?.exclude ?? {})
        .filter(([, on]) => on === true)
        .map(([glob]) => glob);
      return undefined;
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.settings = { ...this.settings, cluster: { ...this.settings.cluster, allowWrites: false } };
      this.client.warn(
        `Could not read settings, keeping the previous ones, except kubeGcLens.cluster.allowWrites, which is treated as off until they are read: ${error}`,
      );
      return error;
    }
  }

  private inWorkspace(uri: string): boolean {
    const file = fileOf(uri);
    if (!file) return false;
    return this.folders.some((f) => {
      const root = fileOf(f.uri);
      return root !== undefined && !path.relative(root, file).startsWith('..');
    });
  }

  // ------------------------------------------------------------------------------------------ loading

  /**
   * New settings: only a change of which files are read (files.include/exclude, VS Code's files.exclude) reads the
   * workspace again; the rest (simulation, finalizer owners, severities, stuckAfterMinutes) is applied to what is
   * loaded: the findings that depend on them are recomputed and every document republished.
   */
  private async settingsChanged(): Promise<void> {
    const filesBefore = JSON.stringify([this.settings.files, this.filesExclude]);
    if (this.loading) return this.reloadWorkspace(); // the load in progress may have read the old settings
    await this.readSettings();
    if (this.loading || JSON.stringify([this.settings.files, this.filesExclude]) !== filesBefore) return this.reloadWorkspace();
    this.model.setOptions(this.engineOptions());
    if (this.cluster.connected) {
      this.live.compare(this.model, this.engineOptions());
      this.live.refreshStuck(this.settings, this.engineOptions());
      for (const uri of this.live.uris()) this.publish(uri); // newly stuck ones were never published
    }
    this.publishAll();
    this.refreshCodeLenses();
    this.schedulePredictions();
  }

  /** (Re)reads settings and every workspace file, with $/progress; open documents keep their editor text. */
  private async reloadWorkspace(): Promise<void> {
    const generation = ++this.loadGeneration;
    if (!this.loading)
      this.firstLoad = new Promise((resolve) => {
        this.loaded = resolve;
      });
    this.loading = true;
    this.sendStatus();
    let states: DocumentState[] | undefined;
    const progress: { current?: Progress } = {};
    try {
      states = await this.readWorkspace(generation, progress);
    } catch (e) {
      // Never leave requests waiting on a load that failed: keep what the model had and go on serving.
      this.client.error(`Loading the workspace failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    const endProgress = () => {
      progress.current?.done();
      progress.current = undefined;
    };
    try {
      if (generation !== this.loadGeneration) return; // a newer reload owns the outcome
      if (states) {
        progress.current?.report(100, `Analysing ${states.length.toLocaleString('en-US')} documents…`);
        this.model.loadAll(states);
      }
      this.loading = false;
      if (this.cluster.connected) this.live.compare(this.model, this.engineOptions());
      this.loaded();
      this.publishDocuments();
      endProgress(); // the progress lasts until every document is published, and ends before the status "ready"
      this.sendStatus();
    } finally {
      endProgress();
    }
    this.refreshCodeLenses();
    // Edits made while loading are applied on top (re-applying one that was already read is harmless).
    this.flush();
    this.schedulePredictions();
  }

  /**
   * Settings, then every workspace file (open documents by their editor text, parsed first: their own problems are
   * published before the rest is read), with $/progress (`progress.current`, ended by the caller once all is
   * published).
   */
  private async readWorkspace(generation: number, progress: { current?: Progress }): Promise<DocumentState[] | undefined> {
    await this.readSettings();
    this.model.setOptions(this.engineOptions());
    if (this.progressSupported) progress.current = await this.client.progress('Kube GC Lens', 'Finding Kubernetes manifests…');
    const cancelled = () => generation !== this.loadGeneration;
    return readWorkspaceStates(this.model, this.workspaceFiles(), {
      openText: (uri) => this.documents.get(uri)?.getText(),
      // Open documents outside the folders (or untitled) still count; live documents never do.
      openDocuments: this.documents
        .all()
        .filter((d) => !isLive(d.uri))
        .map((d) => ({ uri: d.uri, text: d.getText() })),
      cancelled,
      progress: (percent, message) => progress.current?.report(percent, message),
      openParsed: (open) => {
        if (!cancelled()) this.publishOwnProblems(open);
      },
    });
  }

  /** Which files of the folders are the workspace's manifests (the settings, and VS Code's files.exclude). */
  private workspaceFiles(): WorkspaceFiles {
    return {
      folders: this.folders.map((f) => f.uri),
      include: this.settings.files.include,
      exclude: [...this.settings.files.exclude, ...this.filesExclude],
    };
  }

  // ------------------------------------------------------------------------------------------ changes

  private queue(uri: string): void {
    this.pending.add(uri);
    this.changeCount++;
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.changeCountSeen = this.changeCount - 1;
    setImmediate(() => this.flushWhenQuiet());
  }

  /** Flushes once a turn of the event loop went by without a change (the connection handles a message a turn). */
  private flushWhenQuiet(): void {
    if (!this.flushScheduled) return; // a request flushed meanwhile
    if (this.changeCount !== this.changeCountSeen) {
      this.changeCountSeen = this.changeCount;
      setImmediate(() => this.flushWhenQuiet());
      return;
    }
    this.flush();
  }

  /** Applies every pending change (open text, or the file on disk for closed documents) and publishes. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.size === 0 || this.loading) return;
    const uris = [...this.pending];
    this.pending.clear();
    const touched = new Set<string>();
    for (const uri of uris) {
      const open = this.documents.get(uri);
      let state: DocumentState | undefined;
      if (open) state = this.model.reparse(uri, open.getText());
      else state = this.readClosed(uri);
      for (const u of this.model.update(uri, state).affectedUris) touched.add(u);
    }
    if (this.cluster.connected) this.live.compare(this.model, this.engineOptions(), touched);
    for (const uri of touched) this.publish(uri);
    this.sendStatus();
    // Impact lenses of other documents may have changed too (an owner edited here, its dependents there).
    if (touched.size > 1 || !uris.every((u) => touched.has(u))) this.refreshCodeLenses();
    this.schedulePredictions();
  }

  /** Asks the client to re-request code lenses (their titles depend on the whole workspace). */
  private refreshCodeLenses(): void {
    if (this.codeLensRefreshSupported) this.client.refreshCodeLenses();
  }

  /** A closed document: its file on disk if it is a workspace manifest, else nothing. */
  private readClosed(uri: string): DocumentState | undefined {
    return this.inWorkspace(uri) ? readClosedState(this.model, uri, this.workspaceFiles()) : undefined;
  }

  private schedulePredictions(): void {
    if (this.predictionTimer) clearTimeout(this.predictionTimer);
    if (this.stopped || !this.model.predictionsStale) return;
    this.predictionTimer = setTimeout(() => {
      this.predictionTimer = undefined;
      if (this.pending.size) return this.schedulePredictions();
      this.refreshPredictions();
    }, PREDICTION_DELAY_MS);
  }

  private refreshPredictions(): void {
    this.flush();
    if (!this.model.predictionsStale) return;
    for (const uri of this.model.refreshPredictions()) this.publish(uri);
    this.sendStatus();
  }

  // ------------------------------------------------------------------------------------------ publishing

  private diagnosticsFor(uri: string): Diagnostic[] {
    if (isLive(uri)) return this.live.stuckOf(uri);
    const out: Diagnostic[] = [];
    const doc = this.model.document(uri);
    for (const p of doc?.problems ?? []) {
      const d = problemToDiagnostic(p, this.settings);
      if (d) out.push(d);
    }
    for (const f of [...this.model.findingsIn(uri), ...this.live.findingsOf(uri)]) {
      const d = findingToDiagnostic(f, this.settings);
      if (d) out.push(d);
    }
    return sortDiagnostics(out);
  }

  private publish(uri: string): void {
    const diagnostics = this.diagnosticsFor(uri);
    const key = JSON.stringify(diagnostics);
    if (this.published.get(uri) === key) return;
    if (diagnostics.length === 0 && !this.published.has(uri)) return;
    if (diagnostics.length === 0) this.published.delete(uri);
    else this.published.set(uri, key);
    this.client.publishDiagnostics(uri, diagnostics);
  }

  // ------------------------------------------------------------------------------------------ live cluster

  /** Coalesces watch events: the live findings and the client's live views follow the cluster, not each event. */
  private scheduleLive(): void {
    if (this.liveTimer || this.stopped) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      this.refreshLive();
    }, LIVE_REFRESH_MS);
  }

  /** Recomputes every document's live findings, publishes what changed and tells the client the live version. */
  private refreshLive(): void {
    if (this.loading) return this.scheduleLive();
    const before = new Set(this.live.uris());
    this.live.compare(this.model, this.engineOptions());
    this.live.refreshStuck(this.settings, this.engineOptions());
    for (const uri of this.live.uris()) before.add(uri);
    for (const uri of before) this.publish(uri);
    const status = this.cluster.status();
    if (status) this.client.sendClusterStatus(status);
  }

  /**
   * The open documents' own problems (syntax, types), while the rest of the workspace is read: they depend on nothing
   * else. Only where nothing is shown yet (a reload keeps the complete diagnostics until it has new ones).
   */
  private publishOwnProblems(states: DocumentState[]): void {
    for (const state of states) {
      if (this.published.has(state.uri)) continue;
      const diagnostics: Diagnostic[] = [];
      for (const p of state.problems) {
        const d = problemToDiagnostic(p, this.settings);
        if (d) diagnostics.push(d);
      }
      if (diagnostics.length === 0) continue;
      const sorted = sortDiagnostics(diagnostics);
      this.published.set(state.uri, JSON.stringify(sorted));
      this.client.publishDiagnostics(state.uri, sorted);
    }
  }

  /** Every document's diagnostics, then the status. */
  private publishAll(): void {
    this.publishDocuments();
    this.sendStatus();
  }

  /** Every document's diagnostics, the open documents' first. */
  private publishDocuments(): void {
    const uris = new Set<string>(
      this.documents
        .all()
        .filter((d) => !isLive(d.uri))
        .map((d) => d.uri),
    );
    for (const uri of this.published.keys()) uris.add(uri);
    for (const d of this.model.documents()) uris.add(d.uri);
    for (const uri of uris) this.publish(uri);
  }

  private sendStatus(): void {
    const findings = this.model.allFindings().filter((f) => this.settings.severity[f.code] !== 'off');
    const status: ServerStatus = {
      protocolVersion: PROTOCOL_VERSION,
      state: this.loading ? 'loading' : 'ready',
      files: this.model.documentCount,
      objects: this.model.inventory.objects.size,
      findings: findings.length,
      stuck: findings.filter((f) => f.code === 'stuck-terminating').length,
      problems: [...this.model.documents()].reduce((n, d) => n + d.problems.length, 0),
    };
    const key = JSON.stringify(status);
    if (key === this.lastStatus) return;
    this.lastStatus = key;
    this.client.sendStatus(status);
  }

  private lastStatus = '';
}

function isLive(uri: string): boolean {
  return liveUidOf(uri) !== undefined;
}

/** `builtin`, `gc` or a kube-controller-manager list; anything else is the default (builtin). */
function validControllers(v: unknown): string {
  if (typeof v !== 'string') return 'builtin';
  const parsed = parseControllers(v);
  return 'error' in parsed ? 'builtin' : parsed.spec;
}

/** Settings as the client sent them, every missing or malformed field replaced by its default. */
export function mergeSettings(raw: Partial<KubeGcLensSettings> | null | undefined): KubeGcLensSettings {
  const r = raw ?? {};
  const strings = (v: unknown, fallback: string[]) =>
    Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : fallback;
  return {
    simulation: { controllers: validControllers(r.simulation?.controllers) },
    finalizerOwners: Array.isArray(r.finalizerOwners) ? r.finalizerOwners.filter((x) => x && typeof x.finalizer === 'string') : [],
    severity: r.severity && typeof r.severity === 'object' ? r.severity : {},
    files: {
      include: strings(r.files?.include, DEFAULT_SETTINGS.files.include),
      exclude: strings(r.files?.exclude, DEFAULT_SETTINGS.files.exclude),
    },
    cluster: {
      stuckAfterMinutes:
        typeof r.cluster?.stuckAfterMinutes === 'number' && r.cluster.stuckAfterMinutes >= 0
          ? r.cluster.stuckAfterMinutes
          : DEFAULT_SETTINGS.cluster.stuckAfterMinutes,
      // Only a literal true turns writes on: anything else, or nothing, keeps them off.
      allowWrites: r.cluster?.allowWrites === true,
    },
  };
}

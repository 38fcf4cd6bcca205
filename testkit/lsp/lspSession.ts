// Drives the language server the way an editor does: a vscode-languageserver-protocol connection and awaitable
// notifications (never sleeps). Over stdio, the built server (dist/server.js --stdio) in its own process: the real
// transport, stderr and exit code. In process (the default), the server's source over in-memory streams.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  CodeLensRefreshRequest,
  ConfigurationRequest,
  ErrorCodes,
  ResponseError,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  DidChangeWorkspaceFoldersNotification,
  type Diagnostic,
  type PublishDiagnosticsParams,
  type ProgressToken,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol';
import { type ServerStatus } from '../../shared/src/protocol';
import { StatusNotification } from '../../server/src/lsp/methods';
import { startInMemoryServer, type InMemoryServer } from './inMemoryServer';

export const SERVER = path.resolve(__dirname, '../../dist/server.js');

export const uriOf = (file: string): string => pathToFileURL(file).toString();

/**
 * What the server said, in arrival order, for checks on ordering (a progress begin before the status "ready"):
 * status notifications, work-done progress tokens it created (window/workDoneProgress/create) and the
 * `$/progress` values reported on them.
 */
export type TimelineEntry =
  | { type: 'status'; status: ServerStatus }
  | { type: 'progress-create'; token: ProgressToken }
  | { type: 'progress'; token: ProgressToken; value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd };

export interface SessionOptions {
  /** Workspace folder (absolute path); none for a folder-less session. */
  folder?: string;
  /** What workspace/configuration returns per section. */
  settings?: Record<string, unknown>;
  /** The built server to run (default: dist/server.js of this repository, seen from test/lsp). */
  serverPath?: string;
  /** `stdio`: the built server as a process (the default when `serverPath` is given); `in-process`: the source. */
  transport?: 'stdio' | 'in-process';
  /** Whether the client declares window.workDoneProgress (default true). */
  workDoneProgress?: boolean;
  /** InitializeParams.initializationOptions (the VS Code client sends `{showInGraph: true}`). */
  initializationOptions?: unknown;
}

export class LspSession {
  readonly connection: ProtocolConnection;
  /** The server's process (stdio only). */
  private readonly proc: ChildProcess | undefined;
  private readonly inMemory: InMemoryServer | undefined;
  /** Latest diagnostics per URI. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  private waiters: { check: () => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
  status: ServerStatus | undefined;
  readonly stderr: string[] = [];
  readonly logs: string[] = [];
  /** Status and progress notifications in arrival order (see TimelineEntry). */
  readonly timeline: TimelineEntry[] = [];
  private versions = new Map<string, number>();
  settings: Record<string, unknown>;
  /** When set, workspace/configuration fails with this message (a client that cannot answer it). */
  settingsError: string | undefined;

  constructor(private readonly options: SessionOptions = {}) {
    this.settings = options.settings ?? {};
    const stdio = (options.transport ?? (options.serverPath ? 'stdio' : 'in-process')) === 'stdio';
    if (stdio) {
      const proc = spawn(process.execPath, [options.serverPath ?? SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
      this.proc = proc;
      proc.stderr.on('data', (d) => this.stderr.push(String(d)));
      // A server that cannot start or dies fails every wait at once, with what it said.
      proc.on('error', (e) => this.fail(`the server could not start: ${e.message}`));
      proc.on('exit', (code, signal) => this.fail(`the server exited (${signal ?? code})`));
      this.connection = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    } else {
      this.inMemory = startInMemoryServer();
      this.connection = createProtocolConnection(this.inMemory.reader, this.inMemory.writer);
    }
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.wake();
    });
    this.connection.onNotification(StatusNotification, (s) => {
      this.status = s;
      this.timeline.push({ type: 'status', status: s });
      this.wake();
    });
    this.connection.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
    });
    this.connection.onRequest(ConfigurationRequest.type, (p) => {
      if (this.settingsError !== undefined) throw new ResponseError(ErrorCodes.InternalError, this.settingsError);
      return p.items.map((i) => (i.section ? (this.settings[i.section] ?? null) : null));
    });
    // Accept every progress token and listen to it before answering, so no `$/progress` on it is missed.
    this.connection.onRequest(CodeLensRefreshRequest.type, () => {
      this.codeLensRefreshes++;
      this.wake();
    });
    this.connection.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      this.timeline.push({ type: 'progress-create', token });
      this.connection.onProgress(WorkDoneProgress.type, token, (value) => {
        this.timeline.push({ type: 'progress', token, value });
        this.wake();
      });
      this.wake();
    });
    this.connection.listen();
  }

  /** Initializes with the workspace folder and resolves once the server reports "ready" (a big workspace may need a longer `timeoutMs`). */
  /** How many times the server asked the client to re-request code lenses. */
  codeLensRefreshes = 0;

  async initialize(timeoutMs = 20_000): Promise<void> {
    await this.initializeWithoutWaiting();
    await this.until(() => this.status?.state === 'ready', 'the status "ready"', timeoutMs);
  }

  /** initialize + initialized, without waiting for the workspace load (requests may race it). */
  async initializeWithoutWaiting(): Promise<void> {
    const folder = this.options.folder;
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: folder ? uriOf(folder) : null,
      workspaceFolders: folder ? [{ uri: uriOf(folder), name: path.basename(folder) }] : null,
      ...(this.options.initializationOptions !== undefined ? { initializationOptions: this.options.initializationOptions } : {}),
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeWatchedFiles: { dynamicRegistration: false },
          codeLens: { refreshSupport: true },
        },
        window: { workDoneProgress: this.options.workDoneProgress ?? true },
        textDocument: { publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true } },
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  private failure: string | undefined;

  private fail(why: string): void {
    this.failure ??= why;
    for (const w of this.waiters.splice(0)) w.reject(new Error(`${why}; stderr: ${this.stderr.join('')}`));
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.check()) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Resolves when `check` holds (re-checked on every notification); fails after `timeoutMs` with `what`. */
  until(check: () => boolean, what = 'condition', timeoutMs = 20_000): Promise<void> {
    if (check()) return Promise.resolve();
    if (this.failure) return Promise.reject(new Error(this.failure));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; stderr: ${this.stderr.join('')}`)), timeoutMs);
      this.waiters.push({
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /** A position in the timeline: what arrives from now on is at or after it. */
  mark(): number {
    return this.timeline.length;
  }

  /** Resolves when the server has started a (re)load after `mark` and reported "ready" after it. */
  async untilReloaded(mark: number, timeoutMs = 20_000): Promise<void> {
    await this.until(
      () => {
        const later = this.timeline.slice(mark);
        const loading = later.findIndex((e) => e.type === 'status' && e.status.state === 'loading');
        return loading >= 0 && later.slice(loading).some((e) => e.type === 'status' && e.status.state === 'ready');
      },
      'a reload',
      timeoutMs,
    );
  }

  /** Tells the server the workspace folders changed (workspace/didChangeWorkspaceFolders). */
  async changeFolders(added: string[], removed: string[] = []): Promise<void> {
    const folder = (f: string) => ({ uri: uriOf(f), name: path.basename(f) });
    await this.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
      event: { added: added.map(folder), removed: removed.map(folder) },
    });
  }

  /** Resolves with the next diagnostics published for `uri` that satisfy `check`. */
  async diagnosticsFor(uri: string, check: (d: Diagnostic[]) => boolean = () => true): Promise<Diagnostic[]> {
    await this.until(() => {
      const d = this.diagnostics.get(uri);
      return d !== undefined && check(d);
    }, `diagnostics of ${uri}`);
    return this.diagnostics.get(uri)!;
  }

  async open(uri: string, text: string, languageId = 'yaml'): Promise<void> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text (as a client without incremental sync would; the server accepts both). */
  async replace(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /** An incremental edit: replace `range` with `text`. */
  async edit(
    uri: string,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
  ): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async dispose(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // the process may already be gone
    }
    this.connection.dispose();
    this.inMemory?.dispose();
    if (this.proc && this.proc.exitCode === null) this.proc.kill();
  }

  /** The server process's peak resident memory (Linux /proc), if readable. */
  peakRssBytes(): number | undefined {
    if (!this.proc) return undefined;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.proc.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** The server process's exit code (null while it runs, and always in process). */
  get exitCode(): number | null {
    return this.proc?.exitCode ?? null;
  }
}

// Everything the language server sends to its client, behind one interface (as typescript-language-server's
// LspClient): diagnostics, the status notifications, a code-lens refresh, settings, progress and the log. The
// server class uses only this for what goes out, so a test can stand in for the editor (connection.ts gives the
// real one).

import type { Diagnostic } from 'vscode-languageserver';
import type { ClusterStatus, KubeGcLensSettings, ServerStatus } from '../../../shared/src/protocol';

/** A $/progress report the client shows while the workspace loads. */
export interface Progress {
  report(percent: number, message: string): void;
  done(): void;
}

/** The `kubeGcLens` and `files` settings sections, as the client has them (null: not set). */
export type ClientSettings = [Partial<KubeGcLensSettings> | null, { exclude?: Record<string, boolean> } | null];

export interface LspClient {
  publishDiagnostics(uri: string, diagnostics: Diagnostic[]): void;
  sendStatus(status: ServerStatus): void;
  sendClusterStatus(status: ClusterStatus | null): void;
  refreshCodeLenses(): void;
  settings(): Promise<ClientSettings>;
  /** A progress report titled `title`, or undefined when the client cannot show one. */
  progress(title: string, message: string): Promise<Progress | undefined>;
  warn(message: string): void;
  error(message: string): void;
  /** What was loaded and how long it took (activityLog.ts); a client may leave these out. */
  info?(message: string): void;
  /** Each publication and status, for the user who sets the log level to debug. */
  debug?(message: string): void;
}

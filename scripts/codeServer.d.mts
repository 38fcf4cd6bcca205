// Types of scripts/codeServer.mjs, for the TypeScript that imports it (test/e2e).
import type { ChildProcess } from 'node:child_process';

export const CODE_SERVER_VERSION: string;
export const REPO: string;
export const DEFAULT_SETTINGS: Record<string, unknown>;
export const UNTRUSTED_SETTINGS: Record<string, unknown>;

export function defaultVsix(): string;
export function codeServerInstallDir(): string;
export function isCodeServerInstalled(): boolean;
export function ensureCodeServer(): string;
export function installExtension(options: { vsix: string; extensionsDir: string; userDataDir?: string; installDir?: string }): string;
export function freePort(host?: string): Promise<number>;

export interface CodeServer {
  url: string;
  /** The workbench on the workspace folder. */
  folderUrl: string;
  port: number;
  dir: string;
  userDataDir: string;
  extensionsDir: string;
  /** VS Code's logs: one folder per session, the extension host's under it (exthost1/). */
  logsDir: string;
  logFile: string;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export function startCodeServer(options?: {
  workspace?: string;
  vsix?: string;
  dir?: string;
  host?: string;
  port?: number;
  settings?: Record<string, unknown>;
  /** Workspace trust on, the folder in Restricted Mode (default: trust disabled, everything trusted). */
  workspaceTrust?: boolean;
  timeoutMs?: number;
}): Promise<CodeServer>;

/** A process that runs and stops with code-server (runUntilInterrupted). */
export interface Companion {
  name: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
  logFile: string;
}

/**
 * Keeps `server` running until Ctrl-C (or SIGTERM), then stops it and exits 0; exits 1 if it dies by itself.
 * `others` run and stop with it, after it; `cleanup` runs last, in every case.
 */
export function runUntilInterrupted(
  server: CodeServer,
  options?: { others?: Companion[]; cleanup?: () => void | Promise<void> },
): Promise<void>;

// Commands report failures as one message, and stay silent when the user cancelled.

import * as vscode from 'vscode';
import { errorLogText } from '../logic/activityText';

/** The LSP error code of a cancelled request (LSPErrorCodes.RequestCancelled). */
const REQUEST_CANCELLED = -32800;

function isCancellation(e: unknown): boolean {
  if (e instanceof vscode.CancellationError) return true;
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === REQUEST_CANCELLED;
}

/** Where failures are logged besides the message (the output channel, set once by activate). */
let errorLog: ((line: string) => void) | undefined;

export function logErrorsTo(log: (line: string) => void): void {
  errorLog = log;
}

/** Wraps a command handler: an error becomes an error message and a line in the log, a cancellation nothing. */
export function reportingErrors<A extends unknown[]>(what: string, handler: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await handler(...args);
    } catch (e) {
      if (isCancellation(e)) return;
      const message = e instanceof Error ? e.message : String(e);
      errorLog?.(errorLogText(`${what} failed`, e));
      void vscode.window.showErrorMessage(`Kube GC Lens: ${what} failed: ${message}`);
    }
  };
}

// What the server did, for the editor's log (window/logMessage; VS Code's "Kube GC Lens" output channel, whose
// level the user sets): what was loaded, how long the load and the first diagnostics took, and, at debug level, each
// publication. A decorator of the LspClient: it reads what goes out (statuses, diagnostics, progress), so the server
// class needs no logging of its own, and it never writes to stdout (the LSP's channel under stdio).

import type { Diagnostic } from 'vscode-languageserver';
import type { ServerStatus } from '../../../shared/src/protocol';
import type { LspClient, Progress } from './client';
import { fileLabel } from './markdown';

/** "0.42 s", "12 ms": a duration as a person reads it. */
export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Loaded 22 files in 1.20 s: 20 objects, 2 load problems, 3 findings (1 stuck)". */
export function loadedText(status: ServerStatus, ms: number): string {
  const stuck = status.stuck ? ` (${status.stuck} stuck)` : '';
  return `Loaded ${count(status.files, 'file')} in ${durationText(ms)}: ${count(status.objects, 'object')}, ${count(status.problems, 'load problem')}, ${count(status.findings, 'finding')}${stuck}`;
}

/**
 * `inner` with its traffic logged through its own info and debug lines. `now` is a monotonic clock in ms
 * (performance.now in the server; a counter in tests).
 */
export function withActivityLog(inner: LspClient, now: () => number): LspClient {
  const started = now();
  let loadStarted: number | undefined;
  let loads = 0;
  let firstDiagnostics = false;
  const info = (m: string) => inner.info?.(m);
  const debug = (m: string) => inner.debug?.(m);
  return {
    ...inner,
    sendStatus(status: ServerStatus): void {
      if (status.state === 'loading' && loadStarted === undefined) {
        loadStarted = now();
        info(loads === 0 ? 'Loading the workspace' : 'Loading the workspace again (its files or settings changed)');
      } else if (status.state === 'ready' && loadStarted !== undefined) {
        info(loadedText(status, now() - loadStarted));
        loadStarted = undefined;
        loads++;
      } else {
        debug(
          `Status: ${status.state}, ${count(status.files, 'file')}, ${count(status.objects, 'object')}, ${count(status.findings, 'finding')}`,
        );
      }
      inner.sendStatus(status);
    },
    publishDiagnostics(uri: string, diagnostics: Diagnostic[]): void {
      if (!firstDiagnostics) {
        firstDiagnostics = true;
        info(`First diagnostics ${durationText(now() - started)} after the server started (${fileLabel(uri)})`);
      }
      debug(`Diagnostics: ${fileLabel(uri)}: ${diagnostics.length}`);
      inner.publishDiagnostics(uri, diagnostics);
    },
    async progress(title: string, message: string): Promise<Progress | undefined> {
      const p = await inner.progress(title, message);
      if (!p) return p;
      const begun = now();
      let last = message;
      return {
        report: (percent, m) => {
          last = m;
          p.report(percent, m);
        },
        done: () => {
          debug(`${title}: ${last} (${durationText(now() - begun)})`);
          p.done();
        },
      };
    },
  };
}

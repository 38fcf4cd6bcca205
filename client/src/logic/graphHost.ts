// The pure side of the graph panel's host (client/src/graph/graphPanel.ts): what the webview may say (checked, it
// is a page that renders untrusted text), the arguments of kubeGcLens.showInGraph, the ready handshake and what
// to send once the page listens, and the export files. No `vscode` import: unit-tested in test/client.

import type {
  GraphData,
  GraphExportFormat,
  GraphScope,
  GraphSource,
  HostToWebviewMessage,
  ShowInGraphArgs,
  SimulateReport,
} from '../../../shared/src/protocol';
import { scopeTitleSuffix } from './graphScope';

import { isId, isPolicyChoice, MAX_ID } from '../../../shared/src/protocol';

/** The webview's messages are checked by the wire module (shared/src/wire/webview.ts). */
export { exportName, MAX_EXPORT_CHARS, parseWebviewMessage } from '../../../shared/src/protocol';

/** The bytes to write for an export and the save dialog's filter. */
export function exportFile(format: GraphExportFormat, data: string): { bytes: Uint8Array; filters: Record<string, string[]> } {
  if (format === 'png') return { bytes: Buffer.from(data, 'base64'), filters: { 'PNG image': ['png'] } };
  return { bytes: Buffer.from(data, 'utf8'), filters: format === 'svg' ? { 'SVG image': ['svg'] } : { 'Graphviz DOT': ['dot', 'gv'] } };
}

/**
 * kubeGcLens.showInGraph's argument: `{uid, source?, policy?}` (lenses, hovers, the report), a bare uid, or a
 * Stuck Objects tree node (`{uid, live}`).
 */
export function parseShowInGraphArgs(arg: unknown, policyArg?: unknown): ShowInGraphArgs | undefined {
  if (isId(arg)) return { uid: arg, ...(isPolicyChoice(policyArg) ? { policy: policyArg } : {}) };
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  if (!isId(a.uid)) return undefined;
  const source = a.source === 'cluster' || a.live === true ? 'cluster' : 'workspace';
  const policy = isPolicyChoice(a.policy) ? a.policy : isPolicyChoice(policyArg) ? policyArg : undefined;
  return { uid: a.uid, source, ...(policy ? { policy } : {}) };
}

/** Which graph a restored panel showed: the `source` its webview saved with its state (anything else: the workspace). */
export function sourceFromState(state: unknown): GraphSource {
  const source = (typeof state === 'object' && state !== null ? (state as { source?: unknown }).source : undefined) as
    | Record<string, unknown>
    | undefined;
  if (source?.kind === 'cluster' && typeof source.context === 'string' && source.context.length <= MAX_ID)
    return { kind: 'cluster', context: source.context };
  return { kind: 'workspace' };
}

export function sourceKey(source: GraphSource): string {
  return source.kind === 'cluster' ? `cluster:${source.context}` : 'workspace';
}

/** `Ownership Graph`, `Ownership Graph: kind-dev`, `Ownership Graph: kind-dev · shop` (a live graph's scope). */
export function panelTitle(source: GraphSource, scope?: GraphScope, graph?: GraphData): string {
  return source.kind === 'cluster' ? `Ownership Graph: ${source.context}${scopeTitleSuffix(scope, graph)}` : 'Ownership Graph';
}

/**
 * The ready handshake: messages posted before the page listens are lost, and VS Code tears a hidden webview's page
 * down (it reloads, and says `ready` again, when shown). The channel keeps the latest graph, notice and simulation
 * and a pending focus, posts them on `ready`, and posts directly while the page listens.
 */
export class GraphChannel {
  private listening = false;
  private graph: Extract<HostToWebviewMessage, { type: 'graph' }> | undefined;
  private notice: Extract<HostToWebviewMessage, { type: 'notice' }> | undefined;
  private simulation: Extract<HostToWebviewMessage, { type: 'simulation' }> | undefined;
  private pendingFocus: string | undefined;
  /** A graph of another scope is being read: a focus waits for it. */
  private awaiting = false;
  private revision = 0;
  private lastGraphJson = '';

  constructor(private readonly post: (message: HostToWebviewMessage) => void) {}

  get ready(): boolean {
    return this.listening;
  }

  get currentGraph(): GraphData | undefined {
    return this.graph?.graph;
  }

  /** The scope of the graph last sent (live graphs). */
  get currentScope(): GraphScope | undefined {
    return this.graph?.scope;
  }

  get currentSimulation(): SimulateReport | undefined {
    return this.simulation?.report;
  }

  /** The page is gone (hidden, or reloading): hold everything until it says ready. */
  reset(): void {
    this.listening = false;
  }

  /** The page listens: the graph, the notice, a pending focus and the simulation, in that order. */
  onReady(): void {
    this.listening = true;
    if (this.graph) this.post(this.graph);
    if (this.notice) this.post(this.notice);
    if (this.graph && this.pendingFocus && !this.awaiting) {
      this.post({ type: 'focus', uid: this.pendingFocus });
      this.pendingFocus = undefined;
    }
    if (this.simulation) this.post(this.simulation);
  }

  /** A graph read from the server (of a scope, for a live graph); sent only when it differs from the last one. Returns whether it did. */
  setGraph(source: GraphSource, graph: GraphData, scope?: GraphScope): boolean {
    const json = JSON.stringify([source, scope, graph]);
    const changed = json !== this.lastGraphJson;
    if (changed) {
      this.lastGraphJson = json;
      this.graph = { type: 'graph', source, graph, revision: ++this.revision, ...(scope ? { scope } : {}) };
    }
    this.awaiting = false;
    if (this.listening && this.graph) {
      if (changed) this.post(this.graph);
      if (this.pendingFocus) {
        this.post({ type: 'focus', uid: this.pendingFocus });
        this.pendingFocus = undefined;
      }
    }
    return changed;
  }

  /** Another scope's graph is being read: a focus asked meanwhile is for that graph, not the one shown now. */
  awaitGraph(): void {
    this.awaiting = true;
  }

  /**
   * Select and show an object's component, once the page has a graph (the one being read, if any). A new focus starts
   * clean: the simulation played before is not sent again (a Show in Graph with a policy sends its own after this).
   */
  focus(uid: string): void {
    this.simulation = undefined;
    if (this.listening && this.graph && !this.awaiting) this.post({ type: 'focus', uid });
    else this.pendingFocus = uid;
  }

  setNotice(message?: string, severity: 'info' | 'warning' | 'error' = 'info'): void {
    const next: Extract<HostToWebviewMessage, { type: 'notice' }> = message ? { type: 'notice', message, severity } : { type: 'notice' };
    if (JSON.stringify(next) === JSON.stringify(this.notice ?? { type: 'notice' })) return;
    this.notice = message ? next : undefined;
    if (this.listening) this.post(next);
  }

  setSimulation(report: SimulateReport, id: number): void {
    this.simulation = { type: 'simulation', report, id };
    if (this.listening) this.post(this.simulation);
  }

  /** Where an object of the current graph is written (for Reveal). */
  locationOf(uid: string): GraphData['nodes'][number]['location'] {
    return this.graph?.graph.nodes.find((n) => n.uid === uid)?.location;
  }
}

// The ownership graph webview's messages (protocol version 2 adds these), between the extension (the host,
// client/src/graph) and the webview (webview/src), posted with postMessage. The webview says `ready` first
// (messages posted before it listens are lost) and again after every reload (a hidden webview is torn down): the
// host then sends the current graph, and the last simulation if any.

import { PROTOCOL_VERSION } from '../protocolVersion';
import type { GraphData } from './graph';
import { isPolicyChoice, type PolicyChoice, type SimulateReport } from './simulation';

/** Where the graph comes from: the workspace's manifests, or the connected live cluster. */
export type GraphSource = { kind: 'workspace' } | { kind: 'cluster'; context: string };

/**
 * (v2 addition) Which part of a graph a panel shows: all of it, one namespace's objects and their neighbours
 * (`namespace: ""`: the cluster-scoped objects), or one object's connected component. The VS Code client shows a
 * live cluster of more than GRAPH_LIMIT objects one scope at a time.
 */
export type GraphScope = { kind: 'all' } | { kind: 'namespace'; namespace: string } | { kind: 'object'; uid: string };

/** Whether two scopes show the same part of a graph (undefined: none chosen). */
export function sameScope(a: GraphScope | undefined, b: GraphScope | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind === 'namespace' && b.kind === 'namespace') return a.namespace === b.namespace;
  if (a.kind === 'object' && b.kind === 'object') return a.uid === b.uid;
  return a.kind === b.kind;
}

/** The export formats; the webview renders the content, the host asks where to save it. */
export type GraphExportFormat = 'svg' | 'png' | 'dot';

/** How to draw nodes: `auto` picks SVG up to a node count and canvas above it (see ARCHITECTURE.md). */
export type GraphRenderer = 'auto' | 'svg' | 'canvas';

/** Host → webview. */
export type HostToWebviewMessage =
  /**
   * The graph to show (replaces the previous one; nodes that stay keep their positions). `revision` grows. `scope`
   * (v2 addition, live graphs): which part of the cluster it is; another scope, like another source, resets the view.
   */
  | { type: 'graph'; source: GraphSource; graph: GraphData; revision: number; renderer?: GraphRenderer; scope?: GraphScope }
  /** Select this object and show its connected component only (Show in Graph). */
  | { type: 'focus'; uid: string }
  /**
   * A simulated deletion to play out on the graph (step slider, fading removals, cut orphan edges, stuck
   * highlighted). `id` names this simulation: sent again after a reload, the webview keeps the step it was at.
   */
  | { type: 'simulation'; report: SimulateReport; id: number }
  /** Something the user should know (the graph could not be read, not connected any more…); `undefined` clears it. */
  | { type: 'notice'; message?: string; severity?: 'info' | 'warning' | 'error' };

/** Webview → host. */
export type WebviewToHostMessage =
  /** The page listens: send the current state. `protocolVersion` is the webview's PROTOCOL_VERSION. */
  | { type: 'ready'; protocolVersion: typeof PROTOCOL_VERSION }
  /** Reveal this object in its manifest (or open its live document). */
  | { type: 'reveal'; uid: string }
  /** Simulate deleting this object with this policy, on the graph's source; the answer is a `simulation` message. */
  | { type: 'simulate'; uid: string; policy: PolicyChoice }
  /** Show the last simulation's full report (the Simulate Delete report view). */
  | { type: 'openReport' }
  /** Save what is shown: SVG or DOT text, or a PNG as base64. `name` is a suggested file name (no folder). */
  | { type: 'export'; format: GraphExportFormat; data: string; name: string }
  /** Read the graph again now. */
  | { type: 'refresh' }
  /** (v2 addition) Let the user choose another scope (the host asks which namespace, with their object counts). */
  | { type: 'pickScope' }
  /** An error inside the webview, for the extension's log. */
  | { type: 'error'; message: string };

/** The command other extensions, hovers, lenses, views and reports use: `kubeGcLens.showInGraph(ShowInGraphArgs)`. */
export const SHOW_IN_GRAPH_COMMAND = 'kubeGcLens.showInGraph';

export interface ShowInGraphArgs {
  uid: string;
  /** Default: the workspace. */
  source?: 'workspace' | 'cluster';
  /** Also simulate deleting it with this policy and play the result out. */
  policy?: PolicyChoice;
}

// ------------------------------------------------------------------------------------------------
// What the host accepts from the webview: a page that renders untrusted text, so every message is checked.

/** The longest uid or name the host accepts from the page. */
export const MAX_ID = 1000;
/** The largest export the host writes (a PNG of a huge graph is about 20 MB as base64). */
export const MAX_EXPORT_CHARS = 64 * 1024 * 1024;
const FORMATS: readonly GraphExportFormat[] = ['svg', 'png', 'dot'];

export const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID;

/** A message from the webview, if it is one of ours and well-formed; anything else is ignored. */
export function parseWebviewMessage(raw: unknown): WebviewToHostMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return typeof m.protocolVersion === 'number'
        ? { type: 'ready', protocolVersion: m.protocolVersion as typeof PROTOCOL_VERSION }
        : undefined;
    case 'reveal':
      return isId(m.uid) ? { type: 'reveal', uid: m.uid } : undefined;
    case 'simulate':
      return isId(m.uid) && isPolicyChoice(m.policy) ? { type: 'simulate', uid: m.uid, policy: m.policy } : undefined;
    case 'openReport':
      return { type: 'openReport' };
    case 'refresh':
      return { type: 'refresh' };
    case 'pickScope':
      return { type: 'pickScope' };
    case 'export':
      if (!FORMATS.includes(m.format as GraphExportFormat) || typeof m.data !== 'string' || m.data.length > MAX_EXPORT_CHARS)
        return undefined;
      return {
        type: 'export',
        format: m.format as GraphExportFormat,
        data: m.data,
        name: exportName(m.name, m.format as GraphExportFormat),
      };
    case 'error':
      return typeof m.message === 'string' ? { type: 'error', message: m.message.slice(0, 4000) } : undefined;
    default:
      return undefined;
  }
}

/** A file name the webview suggested, reduced to a safe base name with the format's extension. */
export function exportName(raw: unknown, format: GraphExportFormat): string {
  const base = (typeof raw === 'string' ? raw : '')
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100);
  return `${base || 'ownership-graph'}.${format}`;
}

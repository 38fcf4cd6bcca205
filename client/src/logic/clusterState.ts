// The live cluster connection as the client sees it, and its words: the state kept between the server's
// kubeGcLens/cluster/status notifications and the connect/disconnect requests, the cluster status bar item,
// progress and error messages, and the quick picks of the cluster commands.

import type { ClusterContext, ClusterStatus } from '../../../shared/src/protocol';
import { count } from './objects';
import { escapeIcons } from './pickItems';
import { RESTRICTED_MODE_NOTE } from './workspaceTrust';

/**
 * `off`: not connected (never, or disconnected by the user); `connecting`: a connect request is in flight (the
 * status, once the server sends one, says how far listing got); `connected`: the server listed everything and
 * watches; `failed`: the last connection failed or was lost (`error` says why).
 */
export type ClusterPhase = 'off' | 'connecting' | 'connected' | 'failed';

export interface ClusterState {
  phase: ClusterPhase;
  /** The context asked for (undefined: the kubeconfig's current one); the status names the one resolved. */
  context?: string;
  /** The server's latest status for this connection. */
  status: ClusterStatus | null;
  /** Why the last connection failed (phase `failed`). */
  error?: string;
}

export const CLUSTER_OFF: ClusterState = { phase: 'off', status: null };

/** A connection is wanted (connecting or connected): Disconnect applies, live results exist or are coming. */
export function isClusterActive(state: ClusterState): boolean {
  return state.phase === 'connecting' || state.phase === 'connected';
}

/** The context's name as far as it is known. */
export function contextName(state: ClusterState): string | undefined {
  return state.status?.context || state.context;
}

export function connecting(context: string | undefined): ClusterState {
  return { phase: 'connecting', ...(context ? { context } : {}), status: null };
}

export function connected(status: ClusterStatus): ClusterState {
  return { phase: 'connected', context: status.context, status };
}

export function failed(state: ClusterState, error: string): ClusterState {
  const context = contextName(state);
  return { phase: 'failed', ...(context ? { context } : {}), status: state.status, error };
}

/** A kubeGcLens/cluster/status notification (null: the server disconnected). */
export function applyStatus(state: ClusterState, status: ClusterStatus | null): ClusterState {
  switch (state.phase) {
    case 'connecting':
      // A reconnect first drops the previous connection (null); the connect request's answer settles the phase.
      return { ...state, status };
    case 'connected':
      if (status === null) return CLUSTER_OFF;
      if (status.state === 'disconnected') return failed({ ...state, status }, status.error ?? 'the connection to the cluster was closed');
      return { ...state, status };
    default:
      // Not ours (a connection this client already gave up): the connect/disconnect requests decide.
      return state;
  }
}

/** `all namespaces`, `namespace shop`, `namespaces shop, web`, `4 namespaces`. */
export function scopeText(namespaces: 'all' | string[]): string {
  if (namespaces === 'all' || namespaces.length === 0) return 'all namespaces';
  if (namespaces.length === 1) return `namespace ${namespaces[0]}`;
  if (namespaces.length === 2) return `namespaces ${namespaces.join(', ')}`;
  return `${namespaces.length} namespaces`;
}

/** `listing 12/48 types`, `watching`, `degraded`… (the sync state in words). */
export function syncText(status: ClusterStatus): string {
  switch (status.state) {
    case 'connecting':
      return 'connecting';
    case 'listing':
      return `listing ${status.resources.listed}/${status.resources.total} types`;
    default:
      return status.state;
  }
}

/** One line per problem, for tooltips: `cannot list secrets in team-a: forbidden`. */
export function problemLines(status: ClusterStatus, max = 8): string[] {
  const lines = status.problems.slice(0, max).map((p) => {
    const where = p.namespace ? ` in ${p.namespace}` : '';
    const what =
      p.kind === 'forbidden'
        ? `cannot list ${p.resource}${where}`
        : p.kind === 'discovery'
          ? `cannot discover the API group ${p.resource}`
          : `listing ${p.resource}${where} fails`;
    return `${what}: ${p.message}`;
  });
  if (status.problems.length > max) lines.push(`and ${status.problems.length - max} more`);
  return lines;
}

/** `1.2 MB`, `340 KB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface ClusterStatusBarModel {
  visible: boolean;
  /** May contain `$(icon)`s; user text (context and namespace names) is escaped. */
  text: string;
  /** Plain text. */
  tooltip: string;
  background?: 'warning' | 'error';
}

const CLICK = 'Click for the cluster commands (Connect, Disconnect, Select Context, Show Stuck Objects).';
const READ_ONLY = 'Read-only: Kube GC Lens only ever sends GET requests to a cluster.';

/**
 * The cluster status bar item. While off it shows only with a Kubernetes document in the active editor (as the
 * workspace item does), so a workspace of unrelated YAML never sees it; in every other phase it always shows:
 * a watch on a cluster is a session-wide connection the user must see and be able to stop from anywhere.
 * `restricted`: the workspace is in Restricted Mode, which the tooltip says (what applies, what does not run).
 */
export function clusterStatusBarModel(state: ClusterState, activeEditorIsKubernetes: boolean, restricted = false): ClusterStatusBarModel {
  const name = contextName(state);
  const label = name ? `Cluster ${escapeIcons(name)}` : 'Cluster';
  const s = state.status;
  const trust = restricted ? [RESTRICTED_MODE_NOTE] : [];
  if (state.phase === 'off') {
    return {
      visible: activeEditorIsKubernetes,
      text: '$(plug) Cluster: off',
      tooltip: ['Kube GC Lens: not connected to a cluster.', READ_ONLY, ...trust, CLICK].join('\n'),
    };
  }
  if (state.phase === 'failed') {
    const error = state.error ?? '';
    return {
      visible: true,
      text: `$(debug-disconnect) ${label}: disconnected`,
      tooltip: [
        `Kube GC Lens: ${name ? `context ${name}, ` : ''}not connected.`,
        error,
        ...(error.includes(RESTRICTED_MODE_NOTE) ? [] : trust),
        CLICK,
      ]
        .filter(Boolean)
        .join('\n'),
      background: 'error',
    };
  }
  const details = s ? detailLines(s) : [];
  if (state.phase === 'connecting' && (!s || s.state === 'connecting' || s.state === 'disconnected')) {
    return {
      visible: true,
      text: `$(sync~spin) ${label}: connecting…`,
      tooltip: [
        `Kube GC Lens: connecting to ${name ? `context ${name}` : "the kubeconfig's current context"}…`,
        ...details,
        READ_ONLY,
        ...trust,
        CLICK,
      ].join('\n'),
    };
  }
  if (!s) return { visible: true, text: `$(cloud) ${label}`, tooltip: [READ_ONLY, ...trust, CLICK].join('\n') };
  if (s.state === 'listing' || s.state === 'connecting') {
    return {
      visible: true,
      text: `$(sync~spin) ${label}: ${syncText(s)}`,
      tooltip: [`Kube GC Lens: live cluster, ${syncText(s)}.`, ...details, READ_ONLY, ...trust, CLICK].join('\n'),
    };
  }
  const degraded = s.state === 'degraded';
  return {
    visible: true,
    text: `${degraded ? '$(warning)' : '$(cloud)'} ${label}: ${count(s.objects, 'object')} · ${escapeIcons(scopeText(s.namespaces))} · ${syncText(s)}`,
    tooltip: [`Kube GC Lens: live cluster, ${syncText(s)}.`, ...details, READ_ONLY, ...trust, CLICK].join('\n'),
    ...(degraded ? { background: 'warning' as const } : {}),
  };
}

function detailLines(s: ClusterStatus): string[] {
  const lines = [
    `Context: ${s.context}`,
    `Server: ${s.server}`,
    `Scope: ${s.namespaces === 'all' ? 'all namespaces' : `namespaces ${s.namespaces.join(', ')}`} (cluster-scoped resources always)`,
    `Resource types: ${s.resources.listed} of ${s.resources.total} listed, ${s.resources.watching} watched`,
    `Objects: ${s.objects}`,
    `Requests: ${s.requests} (GET only), ${formatBytes(s.bytes)} received`,
  ];
  if (s.problems.length) {
    lines.push(
      `Problems (${s.problems.length}): results that depend on them say they are incomplete`,
      ...problemLines(s).map((l) => `- ${l}`),
    );
  }
  if (s.identity) lines.push(`Cluster: ${identityText(s.identity)}`);
  if (s.lastRelist) lines.push(`Listed everything again (${s.relists ?? 1}×), last at ${s.lastRelist.at}: ${s.lastRelist.message}`);
  if (s.error) lines.push(`Error: ${s.error}`);
  return lines;
}

/** `kube-system uid 1f2e…, v1.37.2`, or why it is unknown. */
function identityText(i: NonNullable<ClusterStatus['identity']>): string {
  const version = i.serverVersion ? `, ${i.serverVersion}` : '';
  return i.uid ? `kube-system uid ${i.uid}${version}` : `unknown (${i.problem ?? 'no uid'})${version}`;
}

/** The connect notification's progress line: `listing 12/48 resource types`, and how far as a percentage. */
export function connectProgress(status: ClusterStatus | null): { message: string; percent?: number } {
  if (!status || status.state === 'connecting') return { message: 'discovering the API…' };
  if (status.state === 'listing') {
    const { listed, total } = status.resources;
    return {
      message: `listing ${listed}/${total} resource types, ${count(status.objects, 'object')}…`,
      ...(total ? { percent: Math.floor((listed / total) * 100) } : {}),
    };
  }
  return { message: `${count(status.objects, 'object')} listed`, percent: 100 };
}

/** The sentence after a successful connect when some resources cannot be read (undefined: nothing to say). */
export function degradedMessage(status: ClusterStatus): string | undefined {
  if (!status.problems.length) return undefined;
  const [first] = problemLines(status, 1);
  const more = status.problems.length > 1 ? ` (and ${status.problems.length - 1} more: see the status bar item's tooltip)` : '';
  return `Connected to ${status.context}, but not everything can be read: ${first}${more}. Results on this cluster say what they miss.`;
}

/** The server refuses a kubeconfig whose user runs a command unless the workspace is trusted (kubeconfig.ts). */
const EXEC_REFUSED = /authenticates by running a command/;

export interface ConnectFailure {
  message: string;
  /** The kubeconfig needs a command and the workspace is untrusted: that is why, and trusting it connects again. */
  untrusted: boolean;
  /** Offer Manage Workspace Trust: any failure in Restricted Mode, where trust changes which settings apply. */
  offerTrust: boolean;
}

/**
 * The message for a failed connect, from the server's sentence (CLUSTER_UNAVAILABLE) or any other error. In
 * Restricted Mode it says what differs there, since a workspace that names its own kubeconfig fails obscurely
 * otherwise (`no kubeconfig at ~/.kube/config`).
 */
export function connectFailure(serverMessage: string, trusted: boolean): ConnectFailure {
  const untrusted = !trusted && EXEC_REFUSED.test(serverMessage);
  const message = untrusted
    ? `${serverMessage}. This workspace is in Restricted Mode (not trusted), where kubeconfig commands do not run: trust it and Kube GC Lens connects again.`
    : trusted
      ? serverMessage
      : `${serverMessage}. ${RESTRICTED_MODE_NOTE}`;
  return { message, untrusted, offerTrust: !trusted };
}

// ---------------------------------------------------------------------------------------------------------------
// Quick picks

export interface ContextPickItem {
  label: string;
  description: string;
  detail: string;
  context: string;
}

/**
 * Select Cluster Context: every context of the kubeconfig, in its order, the one in use (connected, else the
 * effective choice, else the kubeconfig's current-context) first; each says what it is.
 */
export function contextPickItems(contexts: ClusterContext[], marks: { connected?: string; selected?: string } = {}): ContextPickItem[] {
  const inUse = marks.connected ?? marks.selected ?? contexts.find((c) => c.current)?.name;
  const first = contexts.find((c) => c.name === inUse);
  const ordered = first ? [first, ...contexts.filter((c) => c !== first)] : contexts;
  return ordered.map((c) => {
    const notes = [
      c.current ? 'current-context' : undefined,
      c.name === marks.connected ? 'connected' : c.name === marks.selected ? 'selected for this workspace' : undefined,
    ].filter((x): x is string => x !== undefined);
    const detail = [
      `cluster ${c.cluster}`,
      c.server ? c.server : undefined,
      `user ${c.user}`,
      c.namespace ? `namespace ${c.namespace}` : undefined,
    ].filter((x): x is string => x !== undefined);
    return {
      label: `${c.name === marks.connected ? '$(check) ' : ''}${escapeIcons(c.name)}`,
      description: escapeIcons(notes.join(' · ')),
      detail: escapeIcons(detail.join(' · ')),
      context: c.name,
    };
  });
}

export type ClusterAction = 'connect' | 'reconnect' | 'disconnect' | 'selectContext' | 'showStuck' | 'settings';

export interface ClusterActionItem {
  label: string;
  description?: string;
  action: ClusterAction;
}

/** What clicking the cluster status bar item offers, given the state and the context a connect would use. */
export function clusterActionItems(state: ClusterState, nextContext: string | undefined): ClusterActionItem[] {
  const target = nextContext ? escapeIcons(nextContext) : "the kubeconfig's current context";
  const name = contextName(state);
  const items: ClusterActionItem[] = [];
  if (state.phase === 'connected') {
    items.push({ label: '$(watch) Show Stuck Objects', description: 'the live section of the Stuck Objects view', action: 'showStuck' });
    items.push({ label: '$(refresh) Reconnect', description: target, action: 'reconnect' });
  } else if (state.phase === 'connecting') {
    // nothing to connect: Disconnect cancels
  } else {
    items.push({ label: '$(plug) Connect to Cluster', description: target, action: 'connect' });
  }
  items.push({ label: '$(list-selection) Select Cluster Context…', description: 'connect to another context', action: 'selectContext' });
  if (isClusterActive(state)) {
    items.push({
      label: '$(debug-disconnect) Disconnect from Cluster',
      description: name ? escapeIcons(name) : undefined,
      action: 'disconnect',
    });
  }
  items.push({ label: '$(gear) Cluster Settings', description: 'kubeGcLens.cluster.*', action: 'settings' });
  return items.map((i) => (i.description === undefined ? { label: i.label, action: i.action } : i));
}

// The `kubeGcLens.cluster.*` settings as the client uses them: read and normalised, the kubeconfig path resolved,
// which context a connection uses, and the parameters of kubeGcLens/cluster/connect.

import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ClusterConnectParams } from '../../../shared/src/protocol';
import { readTrusted, type SettingInspection } from './workspaceTrust';

export interface ClusterSettings {
  /** Connect when the language client starts. */
  autoConnect: boolean;
  /** A kubeconfig context; '' = the kubeconfig's current-context. */
  context: string;
  /** Namespaces to watch; empty = all. */
  namespaces: string[];
  /** A kubeconfig file; '' = KUBECONFIG, else ~/.kube/config. */
  kubeconfig: string;
  /** A terminating object that can finish is listed as still cleaning up after this long. */
  stuckAfterMinutes: number;
  /** The total deadline of each request to the cluster (a LIST page), retries included; 0 = none. */
  requestTimeoutSeconds: number;
}

export const CLUSTER_SETTING_DEFAULTS: ClusterSettings = {
  autoConnect: false,
  context: '',
  namespaces: [],
  kubeconfig: '',
  stuckAfterMinutes: 10,
  requestTimeoutSeconds: 60,
};

/** The settings section under `kubeGcLens`. */
export const CLUSTER_SECTION = 'kubeGcLens.cluster';

/**
 * The connection settings: the client's own, never sent to the server (it gets them in ClusterConnectParams). A
 * workspace could abuse each of them: they are restricted in Restricted Mode (logic/workspaceTrust.ts).
 */
export const CONNECTION_SETTINGS = ['autoConnect', 'context', 'namespaces', 'kubeconfig', 'requestTimeoutSeconds'] as const;

/**
 * The settings the language server reads (its `workspace/configuration` pull of `kubeGcLens`): a change to one of
 * them is sent to it, and makes it re-read the workspace. The connection settings are left out, so choosing other
 * namespaces does not reload every manifest (the server reads `cluster.stuckAfterMinutes` for live diagnostics).
 * test/client/packageJson.test.ts checks this against package.json and DEFAULT_SETTINGS.
 */
export const SERVER_SETTING_SECTIONS = [
  'kubeGcLens.simulation',
  'kubeGcLens.finalizerOwners',
  'kubeGcLens.severity',
  'kubeGcLens.files',
  'kubeGcLens.cluster.stuckAfterMinutes',
  'kubeGcLens.cluster.allowWrites',
  'files.exclude',
];

/** Settings as VS Code returns them (anything, from a hand-edited settings.json), normalised. */
export function readClusterSettings(get: (key: keyof ClusterSettings) => unknown): ClusterSettings {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const namespaces = get('namespaces');
  const minutes = get('stuckAfterMinutes');
  const timeout = get('requestTimeoutSeconds');
  return {
    autoConnect: get('autoConnect') === true,
    context: text(get('context')),
    namespaces: Array.isArray(namespaces)
      ? [
          ...new Set(
            namespaces
              .filter((n): n is string => typeof n === 'string')
              .map((n) => n.trim())
              .filter(Boolean),
          ),
        ]
      : [],
    kubeconfig: text(get('kubeconfig')),
    stuckAfterMinutes:
      typeof minutes === 'number' && Number.isFinite(minutes) && minutes >= 0 ? minutes : CLUSTER_SETTING_DEFAULTS.stuckAfterMinutes,
    requestTimeoutSeconds:
      typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 0 ? timeout : CLUSTER_SETTING_DEFAULTS.requestTimeoutSeconds,
  };
}

/**
 * The kubeconfig file to pass to the server, or undefined for kubectl's own search (KUBECONFIG, ~/.kube/config).
 * `~` is the home directory; a relative path is relative to the first workspace folder (if any).
 */
export function resolveKubeconfigPath(setting: string, folder: string | undefined, home: string = homedir()): string | undefined {
  if (setting === '') return undefined;
  if (setting === '~') return home;
  if (setting.startsWith('~/') || setting.startsWith('~\\')) return join(home, setting.slice(2));
  if (isAbsolute(setting) || folder === undefined) return setting;
  return join(folder, setting);
}

/**
 * The settings as trust allows (logic/workspaceTrust.ts): in Restricted Mode the connection settings are the user's
 * own, never the workspace's.
 */
export function readClusterSettingsTrusted(
  get: (key: keyof ClusterSettings) => unknown,
  inspect: (key: keyof ClusterSettings) => SettingInspection | undefined,
  trusted: boolean,
): ClusterSettings {
  return readClusterSettings(readTrusted(CLUSTER_SECTION, get, inspect, trusted));
}

export type ContextSource = 'selected' | 'setting' | 'kubeconfig';

/**
 * Which context a connection uses: the one picked with Select Cluster Context (remembered per workspace), else the
 * `kubeGcLens.cluster.context` setting, else the kubeconfig's current-context (undefined: the server resolves it).
 * Changing the setting forgets the picked one (the extension does that), so the newest explicit choice wins.
 */
export function effectiveContext(
  settings: Pick<ClusterSettings, 'context'>,
  selected: string | undefined,
): { context?: string; source: ContextSource } {
  if (selected) return { context: selected, source: 'selected' };
  if (settings.context) return { context: settings.context, source: 'setting' };
  return { source: 'kubeconfig' };
}

export function connectParams(
  settings: Pick<ClusterSettings, 'namespaces'> & Partial<Pick<ClusterSettings, 'requestTimeoutSeconds'>>,
  target: { context?: string; kubeconfig?: string },
  trusted: boolean,
): ClusterConnectParams {
  return {
    ...(target.context ? { context: target.context } : {}),
    ...(target.kubeconfig ? { kubeconfig: target.kubeconfig } : {}),
    ...(settings.namespaces.length ? { namespaces: [...settings.namespaces] } : {}),
    ...(settings.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: settings.requestTimeoutSeconds } : {}),
    // Exec plugins (and auth-provider commands) run only in a trusted workspace.
    allowExec: trusted,
  };
}

/** What a connection is opened on: the context asked for, the kubeconfig file, the namespaces. */
export interface ConnectTarget {
  context?: string;
  kubeconfig?: string;
  namespaces: string[];
}

export function sameTarget(a: ConnectTarget, b: ConnectTarget): boolean {
  return (
    a.context === b.context &&
    a.kubeconfig === b.kubeconfig &&
    a.namespaces.length === b.namespaces.length &&
    a.namespaces.every((n, i) => n === b.namespaces[i])
  );
}

/** The connection settings in force, and whether the workspace was trusted when they were read. */
export interface SettingsSeen {
  settings: ClusterSettings;
  trusted: boolean;
}

/**
 * What a change of the settings in force does to the connection: while one is wanted, reconnect when it would now
 * be opened on another target; otherwise connect when autoConnect has just been turned on (and the server runs).
 */
export function connectionChange(s: {
  active: boolean;
  /** What the wanted connection was opened on. */
  opened: ConnectTarget | undefined;
  /** What it would be opened on now. */
  wanted: ConnectTarget;
  before: ClusterSettings;
  after: ClusterSettings;
  serverStarted: boolean;
}): 'reconnect' | 'connect' | 'none' {
  if (s.active) return s.opened && !sameTarget(s.opened, s.wanted) ? 'reconnect' : 'none';
  return s.serverStarted && s.after.autoConnect && !s.before.autoConnect ? 'connect' : 'none';
}

/**
 * Whether the context picked for the workspace (Select Cluster Context) gives way to the context setting: the newest
 * explicit choice wins, so a new value of the setting replaces the pick. A value that only appears because trust was
 * granted (the workspace's own, hidden in Restricted Mode) is not a new choice: the pick stays, as it would in a
 * workspace trusted from the start. (VS Code 1.99 sends onDidGrantWorkspaceTrust first, while the configuration
 * still holds the restricted view, and then a configuration change with the workspace's values: `before` is the
 * last configuration change's reading, taken while untrusted.)
 */
export function forgetsPickedContext(before: SettingsSeen, after: SettingsSeen): boolean {
  return before.trusted === after.trusted && before.settings.context !== after.settings.context;
}

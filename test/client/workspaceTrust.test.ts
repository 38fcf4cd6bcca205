// Restricted Mode (an untrusted workspace): package.json declares the capability and restricts every setting a
// workspace could abuse; every contributed setting is either restricted or allowed with a reason, so a new one cannot
// be forgotten; the client reads restricted settings from the user only; the language server never uses them; what
// a settings change or a trust grant does to the connection; what the user is told.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_SECTION,
  CLUSTER_SETTING_DEFAULTS,
  CONNECTION_SETTINGS,
  connectionChange,
  forgetsPickedContext,
  readClusterSettingsTrusted,
  sameTarget,
  type ClusterSettings,
  type ConnectTarget,
} from '../../client/src/logic/clusterSettings';
import { clusterStatusBarModel, connected, connectFailure, CLUSTER_OFF, failed, connecting } from '../../client/src/logic/clusterState';
import {
  isRestricted,
  readTrusted,
  RESTRICTED_MODE_NOTE,
  RESTRICTED_SETTINGS,
  UNRESTRICTED_SETTINGS,
  type SettingInspection,
} from '../../client/src/logic/workspaceTrust';
import { mergeSettings } from '../../server/src/lsp/server';
import type { ClusterStatus } from '../../shared/src/protocol';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributed = Object.keys(pkg.contributes.configuration.properties as Record<string, unknown>);

describe('package.json: Restricted Mode', () => {
  it('supports untrusted workspaces in a limited way, says how, and restricts exactly RESTRICTED_SETTINGS', () => {
    const untrusted = pkg.capabilities.untrustedWorkspaces;
    expect(untrusted.supported).toBe('limited');
    expect(untrusted.description).toMatch(/Restricted Mode/);
    for (const key of CONNECTION_SETTINGS) expect(untrusted.description, key).toContain(`.${key}`);
    expect([...untrusted.restrictedConfigurations].sort()).toEqual(Object.keys(RESTRICTED_SETTINGS).sort());
  });

  it('has every contributed setting either restricted or allowed, with a reason, and nothing else in either list', () => {
    for (const key of contributed) {
      const restricted = Object.prototype.hasOwnProperty.call(RESTRICTED_SETTINGS, key);
      const allowed = Object.prototype.hasOwnProperty.call(UNRESTRICTED_SETTINGS, key);
      expect(
        restricted !== allowed,
        `${key} must be in exactly one of RESTRICTED_SETTINGS and UNRESTRICTED_SETTINGS (logic/workspaceTrust.ts)`,
      ).toBe(true);
      expect((RESTRICTED_SETTINGS[key] ?? UNRESTRICTED_SETTINGS[key]).length, key).toBeGreaterThan(30);
    }
    expect([...Object.keys(RESTRICTED_SETTINGS), ...Object.keys(UNRESTRICTED_SETTINGS)].sort()).toEqual([...contributed].sort());
  });

  it('restricts every connection setting: each of them decides what is done with a cluster', () => {
    for (const key of CONNECTION_SETTINGS) expect(isRestricted(`${CLUSTER_SECTION}.${key}`), key).toBe(true);
    expect(isRestricted('kubeGcLens.cluster.stuckAfterMinutes')).toBe(false);
    expect(isRestricted('kubeGcLens.files.include')).toBe(false);
    expect(isRestricted('toString')).toBe(false);
  });

  it('declares that virtual workspaces are not supported, saying why (the server reads the local file system)', () => {
    expect(pkg.capabilities.virtualWorkspaces).toEqual({ supported: false, description: expect.stringMatching(/local file system/) });
  });

  it('keeps Restricted Mode support documented in the editor guide (docs/editor.md)', () => {
    const guide = readFileSync(path.join(root, 'docs/editor.md'), 'utf8');
    const section = /\n## Restricted Mode\n([\s\S]*?)\n#/.exec(guide)?.[1] ?? '';
    for (const key of Object.keys(RESTRICTED_SETTINGS)) expect(section, key).toContain(`.${key.slice(CLUSTER_SECTION.length + 1)}\``);
  });
});

describe('reading settings as trust allows', () => {
  const layers: Record<string, SettingInspection> = {
    kubeconfig: { defaultValue: '', globalValue: '~/.kube/mine', workspaceValue: './repo-kubeconfig' },
    autoConnect: { defaultValue: false, workspaceValue: true },
    context: { defaultValue: '', workspaceFolderValue: 'prod' },
    namespaces: { defaultValue: [], globalValue: ['shop'], workspaceValue: ['a', 'b', 'c'] },
    stuckAfterMinutes: { defaultValue: 10, workspaceValue: 30 },
    requestTimeoutSeconds: { defaultValue: 60, globalValue: 120, workspaceValue: 0 },
  };
  /** What VS Code's get() merges: the most specific scope wins. */
  const get = (key: keyof ClusterSettings) => {
    const l = layers[key];
    return l.workspaceFolderValue ?? l.workspaceValue ?? l.globalValue ?? l.defaultValue;
  };
  const inspect = (key: keyof ClusterSettings) => layers[key];

  it("trusted: every setting as VS Code merges it, the workspace's included", () => {
    expect(readClusterSettingsTrusted(get, inspect, true)).toEqual({
      kubeconfig: './repo-kubeconfig',
      autoConnect: true,
      context: 'prod',
      namespaces: ['a', 'b', 'c'],
      stuckAfterMinutes: 30,
      requestTimeoutSeconds: 0,
    });
  });

  it("Restricted Mode: a restricted setting is the user's value, else the default; the others are the workspace's", () => {
    // Also when VS Code serves the workspace's value of a restricted setting (VS Code 1.99 does once the workspace's
    // settings hold an object such as "kubeGcLens.cluster": {…}): only inspect()'s user layer counts.
    expect(readClusterSettingsTrusted(get, inspect, false)).toEqual({
      kubeconfig: '~/.kube/mine',
      autoConnect: false,
      context: '',
      namespaces: ['shop'],
      stuckAfterMinutes: 30,
      requestTimeoutSeconds: 120,
    });
  });

  it('falls back to the default when inspect() knows nothing, and never reads get() for a restricted key', () => {
    const read = readTrusted<string>(
      CLUSTER_SECTION,
      () => {
        throw new Error('get() read');
      },
      () => undefined,
      false,
    );
    expect(read('kubeconfig')).toBeUndefined();
    expect(
      readClusterSettingsTrusted(
        (k) => (k === 'stuckAfterMinutes' ? 5 : 'workspace!'),
        () => undefined,
        false,
      ),
    ).toEqual({ ...CLUSTER_SETTING_DEFAULTS, stuckAfterMinutes: 5 });
  });
});

describe('the language server never sees a connection setting', () => {
  it('keeps only cluster.stuckAfterMinutes and allowWrites of the kubeGcLens section it pulls (workspace/configuration)', () => {
    // The VS Code client answers the pull with the whole section, connection settings included; the server drops
    // them: a connection is only ever opened on the parameters of the client's kubeGcLens/cluster/connect.
    const merged = mergeSettings({
      cluster: { stuckAfterMinutes: 3, kubeconfig: '/repo/kubeconfig', autoConnect: true, context: 'prod', namespaces: ['x'] },
    } as unknown as Parameters<typeof mergeSettings>[0]);
    expect(merged.cluster).toEqual({ stuckAfterMinutes: 3, allowWrites: false });
    // Writes are on only for a literal true (the VS Code client sends the user's own value, false when untrusted).
    for (const allowWrites of ['true', 1, {}, null])
      expect(mergeSettings({ cluster: { allowWrites } } as never).cluster.allowWrites).toBe(false);
    expect(mergeSettings({ cluster: { allowWrites: true } } as never).cluster.allowWrites).toBe(true);
  });
});

describe('settings changes and trust grants', () => {
  const settings = (s: Partial<ClusterSettings> = {}): ClusterSettings => ({ ...CLUSTER_SETTING_DEFAULTS, ...s });
  const target = (t: Partial<ConnectTarget> = {}): ConnectTarget => ({ namespaces: [], ...t });

  it('compares targets by context, kubeconfig and namespaces in order', () => {
    expect(
      sameTarget(
        target({ context: 'a', kubeconfig: '/k', namespaces: ['x', 'y'] }),
        target({ context: 'a', kubeconfig: '/k', namespaces: ['x', 'y'] }),
      ),
    ).toBe(true);
    expect(sameTarget(target({ context: 'a' }), target())).toBe(false);
    expect(sameTarget(target({ kubeconfig: '/k' }), target({ kubeconfig: '/other' }))).toBe(false);
    expect(sameTarget(target({ namespaces: ['x'] }), target({ namespaces: ['x', 'y'] }))).toBe(false);
  });

  it('reconnects a wanted connection only when its target changed (not for stuckAfterMinutes, nor a hidden workspace value)', () => {
    const base = { active: true, opened: target({ context: 'dev' }), before: settings(), after: settings(), serverStarted: true };
    expect(connectionChange({ ...base, wanted: target({ context: 'dev' }) })).toBe('none');
    expect(connectionChange({ ...base, wanted: target({ context: 'dev', kubeconfig: '/repo/kubeconfig' }) })).toBe('reconnect');
    expect(connectionChange({ ...base, wanted: target({ context: 'dev', namespaces: ['shop'] }) })).toBe('reconnect');
  });

  it("connects when autoConnect turns on while the server runs: a user setting, or the workspace's once trusted", () => {
    const off = { active: false, opened: undefined, wanted: target(), serverStarted: true };
    expect(connectionChange({ ...off, before: settings(), after: settings({ autoConnect: true }) })).toBe('connect');
    expect(connectionChange({ ...off, before: settings({ autoConnect: true }), after: settings({ autoConnect: true }) })).toBe('none');
    expect(connectionChange({ ...off, serverStarted: false, before: settings(), after: settings({ autoConnect: true }) })).toBe('none');
  });

  it('forgets the picked context for a new context setting, not for one that trust reveals', () => {
    const untrusted = { settings: settings(), trusted: false };
    expect(forgetsPickedContext({ settings: settings(), trusted: true }, { settings: settings({ context: 'prod' }), trusted: true })).toBe(
      true,
    );
    expect(
      forgetsPickedContext(
        { settings: settings({ context: 'prod' }), trusted: true },
        { settings: settings({ context: 'prod' }), trusted: true },
      ),
    ).toBe(false);
    // The workspace's context appears in the configuration change that follows the trust grant.
    expect(forgetsPickedContext(untrusted, { settings: settings({ context: 'prod' }), trusted: true })).toBe(false);
    // In Restricted Mode the user's own setting still counts.
    expect(forgetsPickedContext(untrusted, { settings: settings({ context: 'mine' }), trusted: false })).toBe(true);
  });
});

describe('what Restricted Mode tells the user', () => {
  const status: ClusterStatus = {
    context: 'kind-dev',
    server: 'https://127.0.0.1:6443',
    namespaces: 'all',
    state: 'watching',
    resources: { total: 48, listed: 48, watching: 48 },
    objects: 12,
    problems: [],
    requests: 60,
    bytes: 2000,
    version: 1,
  };

  it('a kubeconfig that needs a command: why, and that trusting the workspace connects again', () => {
    const refused = 'context "eks" authenticates by running a command (aws); commands from a kubeconfig run only in a trusted workspace';
    expect(connectFailure(refused, false)).toEqual({
      message: `${refused}. This workspace is in Restricted Mode (not trusted), where kubeconfig commands do not run: trust it and Kube GC Lens connects again.`,
      untrusted: true,
      offerTrust: true,
    });
  });

  it('any other failure in Restricted Mode says which settings apply, and offers to manage trust', () => {
    const missing = 'no kubeconfig at /home/me/.kube/config';
    expect(connectFailure(missing, false)).toEqual({ message: `${missing}. ${RESTRICTED_MODE_NOTE}`, untrusted: false, offerTrust: true });
    expect(connectFailure(missing, true)).toEqual({ message: missing, untrusted: false, offerTrust: false });
    expect(RESTRICTED_MODE_NOTE).toMatch(/kubeconfig, context, namespaces, autoConnect\) are not used, only yours/);
  });

  it("the cluster status bar item's tooltip says so in every phase, once", () => {
    for (const state of [CLUSTER_OFF, connecting('dev'), connected(status), failed(connecting('dev'), 'cannot reach')]) {
      expect(
        clusterStatusBarModel(state, true, true)
          .tooltip.split('\n')
          .filter((l) => l === RESTRICTED_MODE_NOTE),
        state.phase,
      ).toHaveLength(1);
      expect(clusterStatusBarModel(state, true, false).tooltip, state.phase).not.toContain('Restricted Mode');
    }
    const restrictedFailure = failed(connecting('dev'), connectFailure('cannot reach', false).message);
    expect(clusterStatusBarModel(restrictedFailure, true, true).tooltip.split(RESTRICTED_MODE_NOTE)).toHaveLength(2);
  });
});

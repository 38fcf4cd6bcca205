// The kubeGcLens.cluster.* settings: normalisation, the kubeconfig path, which context a connection uses, and the
// parameters of kubeGcLens/cluster/connect.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_SETTING_DEFAULTS,
  connectParams,
  effectiveContext,
  readClusterSettings,
  resolveKubeconfigPath,
} from '../../client/src/logic/clusterSettings';

describe('readClusterSettings', () => {
  it('takes well-formed values as they are', () => {
    const values: Record<string, unknown> = {
      autoConnect: true,
      context: 'kind-dev',
      namespaces: ['shop', 'web'],
      kubeconfig: '~/k.yaml',
      stuckAfterMinutes: 30,
      requestTimeoutSeconds: 0,
    };
    expect(readClusterSettings((k) => values[k])).toEqual({
      autoConnect: true,
      context: 'kind-dev',
      namespaces: ['shop', 'web'],
      kubeconfig: '~/k.yaml',
      stuckAfterMinutes: 30,
      requestTimeoutSeconds: 0,
    });
  });

  it('falls back to the defaults for missing or malformed values (a hand-edited settings.json)', () => {
    expect(readClusterSettings(() => undefined)).toEqual(CLUSTER_SETTING_DEFAULTS);
    const values: Record<string, unknown> = {
      autoConnect: 'yes',
      context: 7,
      namespaces: 'shop',
      kubeconfig: null,
      stuckAfterMinutes: -1,
      requestTimeoutSeconds: '30s',
    };
    expect(readClusterSettings((k) => values[k])).toEqual(CLUSTER_SETTING_DEFAULTS);
    expect(readClusterSettings((k) => (k === 'stuckAfterMinutes' ? Number.NaN : undefined)).stuckAfterMinutes).toBe(10);
    expect(readClusterSettings((k) => (k === 'requestTimeoutSeconds' ? -5 : undefined)).requestTimeoutSeconds).toBe(60);
  });

  it('trims names and drops empty and repeated namespaces', () => {
    const values: Record<string, unknown> = { context: '  prod ', namespaces: [' shop', '', 'shop', 3, 'web '] };
    const s = readClusterSettings((k) => values[k]);
    expect(s.context).toBe('prod');
    expect(s.namespaces).toEqual(['shop', 'web']);
  });
});

describe('resolveKubeconfigPath', () => {
  it('leaves the search to the server when empty (KUBECONFIG, ~/.kube/config)', () => {
    expect(resolveKubeconfigPath('', '/ws', '/home/u')).toBeUndefined();
  });

  it('expands ~ and resolves relative paths against the workspace folder', () => {
    expect(resolveKubeconfigPath('~/.kube/other', '/ws', '/home/u')).toBe(join('/home/u', '.kube/other'));
    expect(resolveKubeconfigPath('~', '/ws', '/home/u')).toBe('/home/u');
    expect(resolveKubeconfigPath('/etc/k.yaml', '/ws', '/home/u')).toBe('/etc/k.yaml');
    expect(resolveKubeconfigPath('dev/kubeconfig', '/ws', '/home/u')).toBe(join('/ws', 'dev/kubeconfig'));
    expect(resolveKubeconfigPath('dev/kubeconfig', undefined, '/home/u')).toBe('dev/kubeconfig');
  });
});

describe('effectiveContext', () => {
  it("prefers the context picked for the workspace, then the setting, then the kubeconfig's current one", () => {
    expect(effectiveContext({ context: 'from-setting' }, 'picked')).toEqual({ context: 'picked', source: 'selected' });
    expect(effectiveContext({ context: 'from-setting' }, undefined)).toEqual({ context: 'from-setting', source: 'setting' });
    expect(effectiveContext({ context: '' }, undefined)).toEqual({ source: 'kubeconfig' });
  });
});

describe('connectParams', () => {
  it('sends only what is set, and allows exec plugins only in a trusted workspace', () => {
    expect(connectParams({ namespaces: [] }, {}, false)).toEqual({ allowExec: false });
    expect(connectParams({ namespaces: ['shop'] }, { context: 'kind-dev', kubeconfig: '/k' }, true)).toEqual({
      context: 'kind-dev',
      kubeconfig: '/k',
      namespaces: ['shop'],
      allowExec: true,
    });
    // The request deadline goes with every connect the extension makes (the settings always hold it).
    expect(connectParams({ namespaces: [], requestTimeoutSeconds: 15 }, {}, true)).toEqual({ allowExec: true, requestTimeoutSeconds: 15 });
    expect(connectParams({ namespaces: [], requestTimeoutSeconds: 0 }, {}, false)).toEqual({ allowExec: false, requestTimeoutSeconds: 0 });
  });
});

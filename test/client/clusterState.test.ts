// The live cluster as the client shows it: the state between notifications and requests, the status bar item,
// progress and failure messages, and the cluster quick picks.

import { describe, expect, it } from 'vitest';
import type { ClusterContext, ClusterStatus } from '../../shared/src/protocol';
import {
  applyStatus,
  CLUSTER_OFF,
  clusterActionItems,
  clusterStatusBarModel,
  connected,
  connectFailure,
  connecting,
  connectProgress,
  contextPickItems,
  degradedMessage,
  failed,
  formatBytes,
  isClusterActive,
  problemLines,
  scopeText,
  syncText,
} from '../../client/src/logic/clusterState';

const status = (extra: Partial<ClusterStatus> = {}): ClusterStatus => ({
  context: 'kind-dev',
  server: 'https://127.0.0.1:6443',
  namespaces: 'all',
  state: 'watching',
  resources: { total: 48, listed: 48, watching: 48 },
  objects: 1234,
  problems: [],
  requests: 60,
  bytes: 2_500_000,
  version: 7,
  ...extra,
});
const forbidden = { kind: 'forbidden' as const, resource: 'secrets', namespace: 'team-a', message: 'secrets is forbidden' };

describe('the connection state', () => {
  it("connecting → connected → off, following the requests and the server's notifications", () => {
    let s = connecting('kind-dev');
    expect(isClusterActive(s)).toBe(true);
    s = applyStatus(s, null); // a reconnect drops the previous connection first
    expect(s.phase).toBe('connecting');
    s = applyStatus(s, status({ state: 'listing', resources: { total: 48, listed: 12, watching: 0 } }));
    expect(s).toMatchObject({ phase: 'connecting', status: { state: 'listing' } });
    s = connected(status());
    expect(s).toMatchObject({ phase: 'connected', context: 'kind-dev' });
    s = applyStatus(s, status({ state: 'degraded', problems: [forbidden] }));
    expect(s.status?.state).toBe('degraded');
    expect(applyStatus(s, null)).toEqual(CLUSTER_OFF);
  });

  it('a connection the server reports disconnected has failed, with its error', () => {
    const s = applyStatus(connected(status()), status({ state: 'disconnected', error: 'discovery unreachable' }));
    expect(s).toMatchObject({ phase: 'failed', context: 'kind-dev', error: 'discovery unreachable' });
    expect(isClusterActive(s)).toBe(false);
    expect(applyStatus(connected(status()), status({ state: 'disconnected' })).error).toBe('the connection to the cluster was closed');
  });

  it('ignores notifications while off or failed (a connection already given up)', () => {
    expect(applyStatus(CLUSTER_OFF, status())).toBe(CLUSTER_OFF);
    const f = failed(connecting('x'), 'nope');
    expect(applyStatus(f, status())).toBe(f);
  });
});

describe('words', () => {
  it('scope, sync state, problems and bytes', () => {
    expect(scopeText('all')).toBe('all namespaces');
    expect(scopeText(['shop'])).toBe('namespace shop');
    expect(scopeText(['shop', 'web'])).toBe('namespaces shop, web');
    expect(scopeText(['a', 'b', 'c'])).toBe('3 namespaces');
    expect(syncText(status({ state: 'listing', resources: { total: 48, listed: 12, watching: 3 } }))).toBe('listing 12/48 types');
    expect(syncText(status())).toBe('watching');
    expect(
      problemLines(
        status({
          problems: [
            forbidden,
            { kind: 'failing', resource: 'widgets.example.com', message: '500' },
            { kind: 'discovery', resource: 'metrics.k8s.io/v1beta1', message: '503' },
          ],
        }),
      ),
    ).toEqual([
      'cannot list secrets in team-a: secrets is forbidden',
      'listing widgets.example.com fails: 500',
      'cannot discover the API group metrics.k8s.io/v1beta1: 503',
    ]);
    expect(problemLines(status({ problems: Array(10).fill(forbidden) }), 2)).toEqual([
      'cannot list secrets in team-a: secrets is forbidden',
      'cannot list secrets in team-a: secrets is forbidden',
      'and 8 more',
    ]);
    expect([formatBytes(512), formatBytes(340 * 1024), formatBytes(2_500_000)]).toEqual(['512 B', '340 KB', '2.4 MB']);
  });
});

describe('clusterStatusBarModel', () => {
  it('off: "Cluster: off", only with a Kubernetes document in the active editor', () => {
    expect(clusterStatusBarModel(CLUSTER_OFF, true)).toMatchObject({ visible: true, text: '$(plug) Cluster: off' });
    expect(clusterStatusBarModel(CLUSTER_OFF, false).visible).toBe(false);
  });

  it('connecting, then listing n/m types, always shown', () => {
    expect(clusterStatusBarModel(connecting('kind-dev'), false)).toMatchObject({
      visible: true,
      text: '$(sync~spin) Cluster kind-dev: connecting…',
    });
    expect(clusterStatusBarModel(connecting(undefined), false).text).toBe('$(sync~spin) Cluster: connecting…');
    const listing = applyStatus(connecting(undefined), status({ state: 'listing', resources: { total: 48, listed: 12, watching: 0 } }));
    expect(clusterStatusBarModel(listing, false).text).toBe('$(sync~spin) Cluster kind-dev: listing 12/48 types');
  });

  it('watching: context, object count, scope and state; the tooltip has the details', () => {
    const m = clusterStatusBarModel(connected(status()), false);
    expect(m.text).toBe('$(cloud) Cluster kind-dev: 1234 objects · all namespaces · watching');
    expect(m.background).toBeUndefined();
    expect(m.tooltip.split('\n')).toEqual([
      'Kube GC Lens: live cluster, watching.',
      'Context: kind-dev',
      'Server: https://127.0.0.1:6443',
      'Scope: all namespaces (cluster-scoped resources always)',
      'Resource types: 48 of 48 listed, 48 watched',
      'Objects: 1234',
      'Requests: 60 (GET only), 2.4 MB received',
      'Read-only: Kube GC Lens only ever sends GET requests to a cluster.',
      'Click for the cluster commands (Connect, Disconnect, Select Context, Show Stuck Objects).',
    ]);
  });

  it('degraded: a warning, with the problems in the tooltip', () => {
    const m = clusterStatusBarModel(connected(status({ state: 'degraded', namespaces: ['shop', 'team-a'], problems: [forbidden] })), true);
    expect(m.text).toBe('$(warning) Cluster kind-dev: 1234 objects · namespaces shop, team-a · degraded');
    expect(m.background).toBe('warning');
    expect(m.tooltip).toContain(
      'Problems (1): results that depend on them say they are incomplete\n- cannot list secrets in team-a: secrets is forbidden',
    );
  });

  it("the cluster's identity and the last relist, in the tooltip", () => {
    const lastRelist = {
      reason: 'cluster-changed' as const,
      message: "the server now answers as another cluster: the kube-system Namespace's uid was ks-a, it is ks-b",
      at: '2026-12-02T07:00:00.000Z',
    };
    const m = clusterStatusBarModel(
      connected(status({ identity: { uid: 'ks-b', serverVersion: 'v1.37.2' }, relists: 1, lastRelist })),
      false,
    );
    expect(m.tooltip).toContain(
      'Cluster: kube-system uid ks-b, v1.37.2\nListed everything again (1×), last at 2026-12-02T07:00:00.000Z: the server now answers as another cluster',
    );
    const unknown = clusterStatusBarModel(
      connected(status({ identity: { problem: 'GET /api/v1/namespaces/kube-system failed: forbidden' } })),
      false,
    );
    expect(unknown.tooltip).toContain('Cluster: unknown (GET /api/v1/namespaces/kube-system failed: forbidden)');
  });

  it('failed: disconnected, in the error colour, with why', () => {
    const m = clusterStatusBarModel(failed(connecting('prod'), 'cannot reach the cluster'), false);
    expect(m).toMatchObject({ visible: true, text: '$(debug-disconnect) Cluster prod: disconnected', background: 'error' });
    expect(m.tooltip).toContain('cannot reach the cluster');
  });

  it('keeps icon syntax in names literal', () => {
    expect(clusterStatusBarModel(connecting('$(flame)'), false).text).toBe('$(sync~spin) Cluster \\$(flame): connecting…');
  });
});

describe('messages', () => {
  it('connect progress: discovery, listing with a percentage, done', () => {
    expect(connectProgress(null)).toEqual({ message: 'discovering the API…' });
    expect(connectProgress(status({ state: 'listing', objects: 10, resources: { total: 48, listed: 12, watching: 0 } }))).toEqual({
      message: 'listing 12/48 resource types, 10 objects…',
      percent: 25,
    });
    expect(connectProgress(status())).toEqual({ message: '1234 objects listed', percent: 100 });
  });

  it('a degraded connection says what it cannot read', () => {
    expect(degradedMessage(status())).toBeUndefined();
    expect(degradedMessage(status({ state: 'degraded', problems: [forbidden, forbidden] }))).toBe(
      "Connected to kind-dev, but not everything can be read: cannot list secrets in team-a: secrets is forbidden (and 1 more: see the status bar item's tooltip). Results on this cluster say what they miss.",
    );
  });

  it('an exec plugin refused in an untrusted workspace says so', () => {
    const refused =
      'context "gke" authenticates by running a command (exec plugin gke-gcloud-auth-plugin); commands from a kubeconfig run only in a trusted workspace';
    expect(connectFailure(refused, false)).toEqual({
      message: `${refused}. This workspace is in Restricted Mode (not trusted), where kubeconfig commands do not run: trust it and Kube GC Lens connects again.`,
      untrusted: true,
      offerTrust: true,
    });
    expect(connectFailure(refused, true).untrusted).toBe(false);
    // Any other failure only gets the Restricted Mode note (test/client/workspaceTrust.test.ts); trusted, nothing.
    expect(connectFailure('context "nope" is not in the kubeconfig', false)).toMatchObject({ untrusted: false, offerTrust: true });
    expect(connectFailure('context "nope" is not in the kubeconfig', true)).toEqual({
      message: 'context "nope" is not in the kubeconfig',
      untrusted: false,
      offerTrust: false,
    });
  });
});

describe('quick picks', () => {
  const contexts: ClusterContext[] = [
    { name: 'prod', cluster: 'prod-cluster', user: 'admin', server: 'https://prod:6443', current: false },
    { name: 'kind-dev', cluster: 'kind-dev', user: 'kind-dev', namespace: 'shop', server: 'https://127.0.0.1:6443', current: true },
    { name: '$(x)', cluster: 'c', user: 'u', current: false },
  ];

  it('lists every context, the one in use first, each saying what it is', () => {
    expect(contextPickItems(contexts)).toEqual([
      {
        label: 'kind-dev',
        description: 'current-context',
        detail: 'cluster kind-dev · https://127.0.0.1:6443 · user kind-dev · namespace shop',
        context: 'kind-dev',
      },
      { label: 'prod', description: '', detail: 'cluster prod-cluster · https://prod:6443 · user admin', context: 'prod' },
      { label: '\\$(x)', description: '', detail: 'cluster c · user u', context: '$(x)' },
    ]);
    const marked = contextPickItems(contexts, { connected: 'prod' });
    expect(marked[0]).toMatchObject({ label: '$(check) prod', description: 'connected', context: 'prod' });
    expect(contextPickItems(contexts, { selected: 'prod' })[0].description).toBe('selected for this workspace');
  });

  it('offers what applies to the state', () => {
    const actions = (s: Parameters<typeof clusterActionItems>[0]) => clusterActionItems(s, 'kind-dev').map((i) => i.action);
    expect(actions(CLUSTER_OFF)).toEqual(['connect', 'selectContext', 'settings']);
    expect(actions(connecting('kind-dev'))).toEqual(['selectContext', 'disconnect', 'settings']);
    expect(actions(connected(status()))).toEqual(['showStuck', 'reconnect', 'selectContext', 'disconnect', 'settings']);
    expect(actions(failed(connecting('kind-dev'), 'x'))).toEqual(['connect', 'selectContext', 'settings']);
    expect(clusterActionItems(CLUSTER_OFF, undefined)[0]).toEqual({
      label: '$(plug) Connect to Cluster',
      description: "the kubeconfig's current context",
      action: 'connect',
    });
  });
});

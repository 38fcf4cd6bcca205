// The live graph's scope in the client (client/src/logic/graphScope.ts): when Show Ownership Graph asks which
// namespace, the quick pick's items, what each scope asks the server, what Show in Graph does with a panel's scope,
// titles, and a scope restored from the webview's state; the host's message checks and channel for it (graphHost.ts).
import { describe, expect, it } from 'vitest';
import { GraphChannel, panelTitle, parseWebviewMessage } from '../../client/src/logic/graphHost';
import {
  asksForScope,
  defaultScope,
  GRAPH_SCOPE_THRESHOLD,
  graphScopeLabel,
  parseScope,
  refinedScope,
  sameScope,
  scopeForObject,
  scopeFromState,
  scopeParams,
  scopePickItems,
  scopePickPlaceholder,
  scopeTitleSuffix,
} from '../../client/src/logic/graphScope';
import { GRAPH_LIMIT, type GraphData, type GraphSummary, type HostToWebviewMessage } from '../../shared/src/protocol';

const summary: GraphSummary = {
  objects: 100_000,
  namespaces: [
    { namespace: 'storefront', objects: 20_412 },
    { namespace: '', objects: 2_150 },
    { namespace: 'checkout', objects: 7_459 },
    { namespace: '$(zap)evil', objects: 3 },
    { namespace: 'empty', objects: 0 },
  ],
};

const graph: GraphData = {
  nodes: [{ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'p1', state: 'present', finalizers: [], findings: [] }],
  edges: [],
};

describe('when Show Ownership Graph asks for a scope', () => {
  it('only above the threshold (an unknown count never asks)', () => {
    expect(GRAPH_SCOPE_THRESHOLD).toBe(GRAPH_LIMIT);
    expect(asksForScope(5000)).toBe(false);
    expect(asksForScope(5001)).toBe(true);
    expect(asksForScope(undefined)).toBe(false);
  });

  it('a panel nobody chose a scope for: the whole of a small cluster, the largest namespace of a large one', () => {
    expect(defaultScope({ objects: 2000, namespaces: [{ namespace: 'a', objects: 2000 }] })).toEqual({ kind: 'all' });
    expect(defaultScope(summary)).toEqual({ kind: 'namespace', namespace: 'storefront' });
    expect(defaultScope({ objects: 6000, namespaces: [{ namespace: '', objects: 6000 }] })).toEqual({ kind: 'namespace', namespace: '' });
  });
});

describe('scopePickItems', () => {
  it('namespaces by object count (the largest first, cut ones said so), then cluster-scoped and the whole cluster (slow)', () => {
    const items = scopePickItems(summary);
    expect(items.map((i) => i.label)).toEqual([
      'storefront',
      'checkout',
      '\\$(zap)evil',
      'empty',
      'Other scopes',
      'Cluster-scoped objects',
      'Whole cluster',
    ]);
    expect(items[0]).toEqual({
      label: 'storefront',
      description: `20,412 objects · the first ${GRAPH_LIMIT.toLocaleString('en-US')} shown, owners first`,
      scope: { kind: 'namespace', namespace: 'storefront' },
    });
    expect(items[1].description).toBe('7,459 objects · the first 5,000 shown, owners first');
    expect(items[2]).toMatchObject({ description: '3 objects', scope: { kind: 'namespace', namespace: '$(zap)evil' } });
    expect(items[4]).toEqual({ label: 'Other scopes', separator: true });
    expect(items[5]).toEqual({
      label: 'Cluster-scoped objects',
      description: '2,150 objects, with their namespaced dependents',
      scope: { kind: 'namespace', namespace: '' },
    });
    expect(items[6]).toEqual({ label: 'Whole cluster', description: '100,000 objects — slow', scope: { kind: 'all' } });
    expect(scopePickPlaceholder(summary)).toMatch(/^The cluster has 100,000 objects: which namespace/);
  });

  it('marks the scope shown now', () => {
    expect(scopePickItems(summary, { kind: 'namespace', namespace: 'checkout' })[1].description).toMatch(/· shown now$/);
    expect(scopePickItems(summary, { kind: 'all' })[6].description).toBe('100,000 objects — slow · shown now');
    expect(scopePickItems(summary, { kind: 'namespace', namespace: '' })[5].description).toMatch(/· shown now$/);
  });
});

describe('scopeParams', () => {
  it('a namespace or a component at most GRAPH_LIMIT objects; the whole cluster all of it', () => {
    expect(scopeParams({ kind: 'namespace', namespace: 'shop' })).toEqual({ namespace: 'shop', limit: GRAPH_LIMIT });
    expect(scopeParams({ kind: 'namespace', namespace: '' })).toEqual({ namespace: '', limit: GRAPH_LIMIT });
    expect(scopeParams({ kind: 'object', uid: 'p1' })).toEqual({ uid: 'p1', limit: GRAPH_LIMIT });
    expect(scopeParams({ kind: 'all' })).toEqual({});
  });
});

describe('Show in Graph on a live object', () => {
  it("keeps the panel's scope when the object is shown; else the whole small cluster, or the object's component", () => {
    expect(scopeForObject('p1', graph, 100_000)).toBe('keep');
    expect(scopeForObject('p2', graph, 100_000)).toEqual({ kind: 'object', uid: 'p2' });
    expect(scopeForObject('p2', undefined, 100_000)).toEqual({ kind: 'object', uid: 'p2' });
    expect(scopeForObject('p2', graph, 200)).toEqual({ kind: 'all' });
    expect(scopeForObject('p2', undefined, undefined)).toEqual({ kind: 'all' });
  });
});

describe('Show in Graph on a Namespace', () => {
  it("shows its namespace (a Namespace's component is itself alone)", () => {
    const namespace = {
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      name: 'shop',
      uid: 'ns1',
      state: 'being-deleted' as const,
      finalizers: ['kubernetes'],
      findings: [],
    };
    expect(refinedScope({ kind: 'object', uid: 'ns1' }, { nodes: [namespace], edges: [] })).toEqual({
      kind: 'namespace',
      namespace: 'shop',
    });
    expect(refinedScope({ kind: 'object', uid: 'p1' }, graph)).toBeUndefined();
    expect(
      refinedScope({ kind: 'object', uid: 'ns1' }, { nodes: [{ ...namespace, apiVersion: 'acme.io/v1' }], edges: [] }),
    ).toBeUndefined();
    expect(refinedScope({ kind: 'namespace', namespace: 'x' }, { nodes: [namespace], edges: [] })).toBeUndefined();
  });
});

describe('words and titles', () => {
  it('labels each scope', () => {
    expect(graphScopeLabel({ kind: 'all' })).toBe('whole cluster');
    expect(graphScopeLabel({ kind: 'namespace', namespace: '' })).toBe('cluster-scoped objects');
    expect(graphScopeLabel({ kind: 'namespace', namespace: 'shop' })).toBe('namespace shop');
    expect(graphScopeLabel({ kind: 'object', uid: 'p1' }, graph)).toBe('component of Pod shop/web-1');
    expect(graphScopeLabel({ kind: 'object', uid: 'p9' }, graph)).toBe("one object's component");
  });

  it('the panel title says the scope of a live graph', () => {
    const source = { kind: 'cluster' as const, context: 'kind-dev' };
    expect(panelTitle(source)).toBe('Ownership Graph: kind-dev');
    expect(panelTitle(source, { kind: 'all' })).toBe('Ownership Graph: kind-dev');
    expect(panelTitle(source, { kind: 'namespace', namespace: 'shop' })).toBe('Ownership Graph: kind-dev · shop');
    expect(panelTitle(source, { kind: 'namespace', namespace: '' })).toBe('Ownership Graph: kind-dev · cluster-scoped');
    expect(panelTitle(source, { kind: 'object', uid: 'p1' }, graph)).toBe('Ownership Graph: kind-dev · Pod web-1');
    expect(scopeTitleSuffix({ kind: 'object', uid: 'p1' })).toBe('');
    expect(panelTitle({ kind: 'workspace' }, { kind: 'namespace', namespace: 'shop' })).toBe('Ownership Graph');
  });

  it('compares scopes', () => {
    expect(sameScope({ kind: 'namespace', namespace: 'a' }, { kind: 'namespace', namespace: 'a' })).toBe(true);
    expect(sameScope({ kind: 'namespace', namespace: 'a' }, { kind: 'namespace', namespace: '' })).toBe(false);
    expect(sameScope({ kind: 'object', uid: 'x' }, { kind: 'all' })).toBe(false);
    expect(sameScope(undefined, undefined)).toBe(true);
    expect(sameScope(undefined, { kind: 'all' })).toBe(false);
  });
});

describe("a scope restored from the webview's state", () => {
  it('is checked field by field', () => {
    expect(scopeFromState({ scope: { kind: 'namespace', namespace: 'shop' } })).toEqual({ kind: 'namespace', namespace: 'shop' });
    expect(scopeFromState({ scope: { kind: 'object', uid: 'p1', extra: 'x' } })).toEqual({ kind: 'object', uid: 'p1' });
    expect(scopeFromState({ scope: { kind: 'all' } })).toEqual({ kind: 'all' });
    expect(scopeFromState({ scope: { kind: 'namespace', namespace: 5 } })).toBeUndefined();
    expect(scopeFromState({ scope: { kind: 'object', uid: '' } })).toBeUndefined();
    expect(scopeFromState({ scope: { kind: 'namespace', namespace: 'x'.repeat(1001) } })).toBeUndefined();
    expect(scopeFromState(null)).toBeUndefined();
    expect(parseScope('all')).toBeUndefined();
  });
});

describe('the host side of a scope', () => {
  it('accepts pickScope from the webview', () => {
    expect(parseWebviewMessage({ type: 'pickScope' })).toEqual({ type: 'pickScope' });
    expect(parseWebviewMessage({ type: 'pickScope', namespace: 'x' })).toEqual({ type: 'pickScope' });
  });

  it('sends the scope with the graph; another scope of the same graph is sent again', () => {
    const posted: HostToWebviewMessage[] = [];
    const channel = new GraphChannel((m) => posted.push(m));
    channel.onReady();
    const source = { kind: 'cluster' as const, context: 'kind-dev' };
    expect(channel.setGraph(source, graph, { kind: 'namespace', namespace: 'shop' })).toBe(true);
    expect(posted[0]).toMatchObject({ type: 'graph', scope: { kind: 'namespace', namespace: 'shop' } });
    expect(channel.currentScope).toEqual({ kind: 'namespace', namespace: 'shop' });
    expect(channel.setGraph(source, graph, { kind: 'namespace', namespace: 'shop' })).toBe(false);
    expect(channel.setGraph(source, graph, { kind: 'object', uid: 'p1' })).toBe(true);
    expect(channel.setGraph({ kind: 'workspace' }, graph)).toBe(true);
    expect(posted[2]).not.toHaveProperty('scope');
  });

  it('a focus asked while another scope is read waits for that graph (Show in Graph re-scoping the panel)', () => {
    const posted: HostToWebviewMessage[] = [];
    const channel = new GraphChannel((m) => posted.push(m));
    channel.onReady();
    const source = { kind: 'cluster' as const, context: 'kind-dev' };
    channel.setGraph(source, graph, { kind: 'namespace', namespace: 'shop' });
    channel.awaitGraph();
    channel.focus('p9');
    expect(posted.map((m) => m.type)).toEqual(['graph']);
    channel.setGraph(source, { nodes: [], edges: [] }, { kind: 'object', uid: 'p9' });
    expect(posted.map((m) => m.type)).toEqual(['graph', 'graph', 'focus']);
    // Read again unchanged (the read after a failed one): a waiting focus still goes.
    channel.awaitGraph();
    channel.focus('p9');
    expect(channel.setGraph(source, { nodes: [], edges: [] }, { kind: 'object', uid: 'p9' })).toBe(false);
    expect(posted.map((m) => m.type)).toEqual(['graph', 'graph', 'focus', 'focus']);
  });
});

// A live graph's scope in the webview's pure model: saved and restored with the state, another scope resetting the
// view as another source does, and its words (model/scope.ts).

import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../webview/src/model/graphIndex';
import { omittedText, sameScope, scopeLabel, truncationText } from '../../webview/src/model/scope';
import { initialModel, reduce, restoreUiState } from '../../webview/src/model/state';
import { deploymentTree } from '../../testkit/webview/fixtures';

const cluster = { kind: 'cluster' as const, context: 'kind-dev' };

describe('the scope in the state', () => {
  it('is restored when well-formed', () => {
    const base = { version: 1, source: cluster };
    expect(restoreUiState({ ...base, scope: { kind: 'namespace', namespace: 'shop' } }).scope).toEqual({
      kind: 'namespace',
      namespace: 'shop',
    });
    expect(restoreUiState({ ...base, scope: { kind: 'namespace', namespace: '' } }).scope).toEqual({ kind: 'namespace', namespace: '' });
    expect(restoreUiState({ ...base, scope: { kind: 'object', uid: 'p1' } }).scope).toEqual({ kind: 'object', uid: 'p1' });
    expect(restoreUiState({ ...base, scope: { kind: 'all' } }).scope).toEqual({ kind: 'all' });
    expect(restoreUiState({ ...base, scope: { kind: 'object', uid: '' } }).scope).toBeUndefined();
    expect(restoreUiState({ ...base, scope: { kind: 'namespace' } }).scope).toBeUndefined();
    expect(restoreUiState({ ...base, scope: 'all' }).scope).toBeUndefined();
  });

  it('another scope of the same cluster resets selection, focus and zoom; the same scope keeps them', () => {
    const shop = { kind: 'namespace' as const, namespace: 'shop' };
    let m = reduce(initialModel(), { type: 'graph', source: cluster, graph: deploymentTree(), revision: 1, scope: shop });
    expect(m.ui.scope).toEqual(shop);
    m = reduce(m, { type: 'select', id: 'rs1' });
    m = reduce(m, { type: 'zoomed', zoom: { k: 2, x: 1, y: 1 } });
    m = reduce(m, { type: 'toggleHidden', dimension: 'kinds', value: 'ConfigMap' });
    m = reduce(m, { type: 'graph', source: cluster, graph: deploymentTree(), revision: 2, scope: { ...shop } });
    expect(m.ui).toMatchObject({ selected: 'rs1', zoom: { k: 2, x: 1, y: 1 } });
    m = reduce(m, {
      type: 'graph',
      source: cluster,
      graph: deploymentTree(),
      revision: 3,
      scope: { kind: 'namespace', namespace: 'team' },
    });
    expect(m.ui.selected).toBeUndefined();
    expect(m.ui.zoom).toBeUndefined();
    expect(m.ui.hidden.kinds).toEqual(['ConfigMap']); // the filters stay, as for another source
    expect(m.ui.scope).toEqual({ kind: 'namespace', namespace: 'team' });
  });

  it('a restored page keeps what it saved when the host sends the scope it saved', () => {
    const ui = restoreUiState({
      version: 1,
      source: cluster,
      scope: { kind: 'namespace', namespace: 'shop' },
      selected: 'rs1',
      search: '',
      hidden: {},
      expanded: [],
    });
    const m = reduce(initialModel(ui), {
      type: 'graph',
      source: cluster,
      graph: deploymentTree(),
      revision: 1,
      scope: { kind: 'namespace', namespace: 'shop' },
    });
    expect(m.ui.selected).toBe('rs1');
  });
});

describe('scope words', () => {
  const index = indexGraph(deploymentTree());

  it('labels a scope', () => {
    expect(scopeLabel(undefined)).toBeUndefined();
    expect(scopeLabel({ kind: 'all' })).toBe('whole cluster');
    expect(scopeLabel({ kind: 'namespace', namespace: '' })).toBe('cluster-scoped objects');
    expect(scopeLabel({ kind: 'namespace', namespace: 'shop' })).toBe('namespace shop');
    expect(scopeLabel({ kind: 'object', uid: 'rs1' }, index)).toBe('component of ReplicaSet shop/web-1');
    expect(scopeLabel({ kind: 'object', uid: 'nope' }, index)).toBe("one object's component");
  });

  it('says when and how the host cut the graph', () => {
    const graph = { ...deploymentTree(), truncated: { shown: 5000, total: 20_412 } };
    expect(truncationText(deploymentTree(), { kind: 'namespace', namespace: 'shop' })).toBeUndefined();
    expect(truncationText(graph, { kind: 'namespace', namespace: 'shop' })).toBe(
      'Showing 5,000 of the 20,412 objects in this scope (namespace shop): owners before their dependents; the rest are not loaded.',
    );
    expect(truncationText(graph, { kind: 'object', uid: 'rs1' }, index)).toBe(
      'Showing 5,000 of the 20,412 objects in this scope (component of ReplicaSet shop/web-1): the objects nearest it first; the rest are not loaded.',
    );
    expect(truncationText(graph, undefined)).toBe(
      'Showing 5,000 of the 20,412 objects in this scope: owners before their dependents; the rest are not loaded.',
    );
  });

  it('counts the links left out', () => {
    expect(omittedText(1, 'owner')).toBe('1 more owner not loaded (outside this scope, or past its limit)');
    expect(omittedText(15_001, 'dependent')).toBe('15,001 more dependents not loaded (outside this scope, or past its limit)');
  });

  it('compares scopes', () => {
    expect(sameScope({ kind: 'all' }, { kind: 'all' })).toBe(true);
    expect(sameScope({ kind: 'object', uid: 'a' }, { kind: 'object', uid: 'b' })).toBe(false);
    expect(sameScope(undefined, { kind: 'all' })).toBe(false);
  });
});

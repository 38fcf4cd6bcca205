// The webview's state: restored defensively from vscode.getState(), changed by host messages and user actions.

import { describe, expect, it } from 'vitest';
import { initialModel, initialUiState, reduce, restoreUiState, type AppModel } from '../../webview/src/model/state';
import { groupId } from '../../webview/src/model/viewModel';
import { deploymentReport, deploymentTree, fanOut } from '../../testkit/webview/fixtures';

const workspace = { kind: 'workspace' as const };

function withGraph(): AppModel {
  return reduce(initialModel(), { type: 'graph', source: workspace, graph: deploymentTree(), revision: 1 });
}

describe('restoreUiState', () => {
  it('keeps what is well-formed and drops the rest', () => {
    const saved = {
      version: 1,
      source: { kind: 'cluster', context: 'kind-dev' },
      zoom: { k: 2, x: -10, y: 5 },
      selected: 'rs1',
      focus: 'd1',
      search: 'web',
      hidden: { namespaces: ['kube-system', 7], kinds: ['Pod'], states: ['present', 'bogus'] },
      expanded: ['group:rs/Pod'],
      step: 3.7,
      details: false,
      legend: true,
    };
    expect(restoreUiState(saved)).toEqual({
      version: 1,
      source: { kind: 'cluster', context: 'kind-dev' },
      zoom: { k: 2, x: -10, y: 5 },
      selected: 'rs1',
      focus: 'd1',
      search: 'web',
      hidden: { namespaces: ['kube-system'], kinds: ['Pod'], states: ['present'] },
      expanded: ['group:rs/Pod'],
      step: 3,
      details: false,
      legend: true,
    });
  });

  it('falls back to the defaults for anything else', () => {
    expect(restoreUiState(undefined)).toEqual(initialUiState());
    expect(restoreUiState('x')).toEqual(initialUiState());
    expect(restoreUiState({ version: 99, search: 'x' })).toEqual(initialUiState());
    expect(restoreUiState({ version: 1, zoom: { k: -1, x: 0, y: 0 }, source: { kind: 'cluster' }, search: 5 })).toEqual(initialUiState());
  });

  it('keeps no domain data: the saved state is settings and ids only', () => {
    let m = withGraph();
    m = reduce(m, { type: 'simulation', report: deploymentReport(), id: 1 });
    m = reduce(m, { type: 'select', id: 'rs1' });
    const saved = JSON.stringify(m.ui);
    expect(saved).not.toContain('web-1');
    expect(saved).not.toContain('garbage-collector');
  });
});

describe('reduce', () => {
  it('takes the graph and its source; a graph of another source resets the selection, focus and zoom', () => {
    let m = withGraph();
    expect(m.ui.source).toEqual(workspace);
    m = reduce(m, { type: 'select', id: 'rs1' });
    m = reduce(m, { type: 'zoomed', zoom: { k: 2, x: 1, y: 1 } });
    m = reduce(m, { type: 'toggleHidden', dimension: 'kinds', value: 'Pod' });
    m = reduce(m, { type: 'graph', source: workspace, graph: deploymentTree(), revision: 2 });
    expect(m.ui).toMatchObject({ selected: 'rs1', zoom: { k: 2 }, hidden: { kinds: ['Pod'] } });
    m = reduce(m, { type: 'graph', source: { kind: 'cluster', context: 'kind-dev' }, graph: deploymentTree(), revision: 3 });
    expect(m.ui.selected).toBeUndefined();
    expect(m.ui.zoom).toBeUndefined();
    expect(m.ui.hidden.kinds).toEqual(['Pod']);
    expect(m.revision).toBe(3);
  });

  it('focus selects the object, shows its component and expands the fan-out it is in', () => {
    let m = reduce(initialModel(), { type: 'graph', source: workspace, graph: fanOut(40), revision: 1 });
    m = reduce(m, { type: 'focus', uid: 'pod-7' });
    expect(m.ui).toMatchObject({ focus: 'pod-7', selected: 'pod-7', expanded: [groupId('rs', 'Pod')] });
    m = reduce(m, { type: 'clearFocus' });
    expect(m.ui.focus).toBeUndefined();
  });

  it('a simulation belongs to the view it was played in: a new focus starts clean, and a closed one stays closed', () => {
    let m = withGraph();
    m = reduce(m, { type: 'simulation', report: deploymentReport(), id: 1 });
    m = reduce(m, { type: 'step', step: 4 });
    m = reduce(m, { type: 'focus', uid: 'cm1' });
    expect(m.report).toBeUndefined();
    expect(m.ui).toMatchObject({ focus: 'cm1', selected: 'cm1', dismissed: 1 });
    expect(m.ui.simulation).toBeUndefined();
    expect(m.ui.step).toBeUndefined();
    // The host sends it again after a reload: it stays gone (also after the state was saved and restored).
    m = { ...m, ui: restoreUiState(JSON.parse(JSON.stringify(m.ui))) };
    expect(reduce(m, { type: 'simulation', report: deploymentReport(), id: 1 })).toBe(m);
    // A new simulation plays; closed, it too stays closed.
    m = reduce(m, { type: 'simulation', report: deploymentReport(), id: 2 });
    expect(m.ui).toMatchObject({ simulation: 2, step: 0 });
    m = reduce(m, { type: 'clearSimulation' });
    expect(reduce(m, { type: 'simulation', report: deploymentReport(), id: 2 }).report).toBeUndefined();
  });

  it('filters toggle, search, groups, panels, simulation steps', () => {
    let m = withGraph();
    m = reduce(m, { type: 'toggleHidden', dimension: 'states', value: 'present' });
    expect(m.ui.hidden.states).toEqual(['present']);
    m = reduce(m, { type: 'toggleHidden', dimension: 'states', value: 'present' });
    expect(m.ui.hidden.states).toEqual([]);
    m = reduce(m, { type: 'toggleHidden', dimension: 'namespaces', value: 'a' });
    m = reduce(m, { type: 'toggleHidden', dimension: 'namespaces', value: 'b' });
    m = reduce(m, { type: 'showAll', dimension: 'namespaces' });
    expect(m.ui.hidden.namespaces).toEqual([]);
    m = reduce(m, { type: 'search', query: 'web' });
    expect(m.ui.search).toBe('web');
    m = reduce(m, { type: 'toggleGroup', id: 'g' });
    expect(m.ui.expanded).toEqual(['g']);
    m = reduce(m, { type: 'toggleGroup', id: 'g' });
    expect(m.ui.expanded).toEqual([]);
    m = reduce(m, { type: 'togglePanel', panel: 'legend' });
    expect(m.ui.legend).toBe(true);
    expect(reduce(m, { type: 'step', step: 4 })).toBe(m); // no simulation: nothing to step
    m = reduce(m, { type: 'simulation', report: deploymentReport(), id: 1 });
    expect(m.ui.step).toBe(0);
    m = reduce(m, { type: 'step', step: 40 });
    expect(m.ui.step).toBe(9);
    // The same simulation sent again (after a reload) keeps its step; another one starts over.
    expect(reduce(m, { type: 'simulation', report: deploymentReport(), id: 1 }).ui.step).toBe(9);
    expect(reduce(m, { type: 'simulation', report: deploymentReport(), id: 2 }).ui).toMatchObject({ step: 0, simulation: 2 });
    m = reduce(m, { type: 'clearSimulation' });
    expect(m.report).toBeUndefined();
    expect(m.ui.step).toBeUndefined();
    m = reduce(m, { type: 'notice', message: 'not connected', severity: 'warning' });
    expect(m.notice).toEqual({ message: 'not connected', severity: 'warning' });
    m = reduce(m, { type: 'notice' });
    expect(m.notice).toBeUndefined();
  });
});

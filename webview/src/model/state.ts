// The webview's state and how messages and user actions change it. Pure (no DOM): unit-tested in test/webview.
//
// Two parts: `UiState` is what the user set (zoom, selection, focus, search, filters, expanded groups, the
// simulation step, open panels). It is saved with vscode.setState after every change and comes back after the
// panel was hidden (VS Code tears the page down) and after a reload (the panel serializer). It never holds domain
// data: no object, name or report, only ids and settings. `AppModel` adds what the host sent (graph, source,
// simulation report), which the host sends again after every `ready`.

import type { GraphData, GraphRenderer, GraphScope, GraphSource, HostToWebviewMessage, SimulateReport } from './protocolTypes';

import { clampStep } from './playback';
import { sameScope } from './scope';
import { groupId, STATE_TAGS, type StateTag } from './viewModel';

export const UI_STATE_VERSION = 1;

export interface Zoom {
  k: number;
  x: number;
  y: number;
}

export type FilterDimension = 'namespaces' | 'kinds' | 'states';

export interface UiState {
  version: typeof UI_STATE_VERSION;
  /** Which graph the panel shows: the serializer reopens the same one after a reload. */
  source?: GraphSource;
  /** Which part of a live graph (a namespace, an object's component…): reopened after a reload too. */
  scope?: GraphScope;
  zoom?: Zoom;
  /** A node id (uid or group id). */
  selected?: string;
  /** Only this object's connected component is shown. */
  focus?: string;
  search: string;
  hidden: { namespaces: string[]; kinds: string[]; states: StateTag[] };
  expanded: string[];
  /** The simulation shown (its id) and the step shown; the report itself is the host's. */
  simulation?: number;
  step?: number;
  /**
   * A simulation closed, or left behind by a new focus: the host may send it again after a reload, and it stays
   * closed (a simulation belongs to the view it was played in).
   */
  dismissed?: number;
  details: boolean;
  legend: boolean;
}

export function initialUiState(): UiState {
  return {
    version: UI_STATE_VERSION,
    search: '',
    hidden: { namespaces: [], kinds: [], states: [] },
    expanded: [],
    details: true,
    legend: false,
  };
}

const MAX_SAVED_IDS = 500;
const MAX_STRING = 1000;

const isString = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_STRING;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter(isString).slice(0, MAX_SAVED_IDS) : []);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What vscode.getState() returned, checked field by field: anything malformed falls back to the default. */
export function restoreUiState(raw: unknown): UiState {
  const s = initialUiState();
  if (typeof raw !== 'object' || raw === null) return s;
  const r = raw as Record<string, unknown>;
  if (r.version !== UI_STATE_VERSION) return s;
  const source = r.source as Record<string, unknown> | undefined;
  if (source?.kind === 'workspace') s.source = { kind: 'workspace' };
  else if (source?.kind === 'cluster' && isString(source.context)) s.source = { kind: 'cluster', context: source.context };
  const scope = r.scope as Record<string, unknown> | undefined;
  if (scope?.kind === 'all') s.scope = { kind: 'all' };
  else if (scope?.kind === 'namespace' && isString(scope.namespace)) s.scope = { kind: 'namespace', namespace: scope.namespace };
  else if (scope?.kind === 'object' && isString(scope.uid) && scope.uid) s.scope = { kind: 'object', uid: scope.uid };
  const z = r.zoom as Record<string, unknown> | undefined;
  if (z && finite(z.k) && z.k > 0 && finite(z.x) && finite(z.y)) s.zoom = { k: z.k, x: z.x, y: z.y };
  if (isString(r.selected)) s.selected = r.selected;
  if (isString(r.focus)) s.focus = r.focus;
  if (isString(r.search)) s.search = r.search;
  const h = (r.hidden ?? {}) as Record<string, unknown>;
  s.hidden = {
    namespaces: strings(h.namespaces),
    kinds: strings(h.kinds),
    states: strings(h.states).filter((t): t is StateTag => (STATE_TAGS as readonly string[]).includes(t)),
  };
  s.expanded = strings(r.expanded);
  if (finite(r.simulation)) s.simulation = r.simulation;
  if (finite(r.step) && r.step >= 0) s.step = Math.floor(r.step);
  if (finite(r.dismissed)) s.dismissed = r.dismissed;
  if (typeof r.details === 'boolean') s.details = r.details;
  if (typeof r.legend === 'boolean') s.legend = r.legend;
  return s;
}

export interface AppModel {
  ui: UiState;
  graph?: GraphData;
  revision: number;
  renderer: GraphRenderer;
  report?: SimulateReport;
  notice?: { message: string; severity: 'info' | 'warning' | 'error' };
}

export function initialModel(ui: UiState = initialUiState()): AppModel {
  return { ui, revision: 0, renderer: 'auto' };
}

/** What the user does in the webview. */
export type UiAction =
  | { type: 'select'; id?: string }
  | { type: 'search'; query: string }
  | { type: 'toggleHidden'; dimension: FilterDimension; value: string }
  | { type: 'showAll'; dimension: FilterDimension }
  /** Hide every value of `values` but `value` ("only this"); `values`: the menu's choices. */
  | { type: 'showOnly'; dimension: FilterDimension; value: string; values: readonly string[] }
  /** Hide every value of the menu ("none"). */
  | { type: 'hideAll'; dimension: FilterDimension; values: readonly string[] }
  | { type: 'toggleGroup'; id: string }
  | { type: 'clearFocus' }
  | { type: 'zoomed'; zoom: Zoom }
  | { type: 'step'; step: number }
  | { type: 'clearSimulation' }
  | { type: 'togglePanel'; panel: 'details' | 'legend' };

export type AppEvent = HostToWebviewMessage | UiAction;

export function reduce(model: AppModel, event: AppEvent): AppModel {
  const ui = model.ui;
  switch (event.type) {
    case 'graph': {
      // The first graph of a restored page is the one its state describes (a scope saved before is kept).
      const sameSource = sameGraphSource(ui.source, event.source) && (!ui.source || sameScope(ui.scope, event.scope));
      // Another source or scope is another graph: what was selected, focused or zoomed there means nothing here.
      const next: UiState = sameSource ? ui : { ...initialUiState(), hidden: ui.hidden, details: ui.details, legend: ui.legend };
      return {
        ...model,
        graph: event.graph,
        revision: event.revision,
        renderer: event.renderer ?? model.renderer,
        ui: { ...next, source: event.source, scope: event.scope },
        report: sameSource ? model.report : undefined,
      };
    }
    case 'focus': {
      const n = model.graph?.nodes.find((x) => x.uid === event.uid);
      const expanded = n ? expandFor(model.graph!, event.uid, ui.expanded) : ui.expanded;
      // A new focus starts clean: the simulation played before belongs to the view it was played in.
      const cleared = withoutSimulation(model);
      return { ...cleared, ui: { ...cleared.ui, focus: event.uid, selected: event.uid, expanded, zoom: undefined } };
    }
    case 'simulation': {
      if (event.id === ui.dismissed) return model;
      // The same simulation again (the page was reloaded): where the user was; a new one starts before the DELETE.
      const again = event.id === ui.simulation && ui.step !== undefined;
      const step = again ? clampStep(event.report, ui.step!) : 0;
      return {
        ...model,
        report: event.report,
        ui: { ...ui, simulation: event.id, step, selected: again ? ui.selected : (ui.selected ?? event.report.target.uid) },
      };
    }
    case 'notice':
      return { ...model, notice: event.message ? { message: event.message, severity: event.severity ?? 'info' } : undefined };
    case 'select':
      return { ...model, ui: { ...ui, selected: event.id, details: event.id ? true : ui.details } };
    case 'search':
      return { ...model, ui: { ...ui, search: event.query.slice(0, MAX_STRING) } };
    case 'toggleHidden': {
      const list = ui.hidden[event.dimension] as string[];
      const nextList = list.includes(event.value) ? list.filter((x) => x !== event.value) : [...list, event.value];
      return { ...model, ui: { ...ui, hidden: { ...ui.hidden, [event.dimension]: nextList } } };
    }
    case 'showAll':
      return { ...model, ui: { ...ui, hidden: { ...ui.hidden, [event.dimension]: [] } } };
    case 'showOnly':
      return {
        ...model,
        ui: {
          ...ui,
          hidden: {
            ...ui.hidden,
            [event.dimension]: filterValues(
              event.dimension,
              event.values.filter((v) => v !== event.value),
            ),
          },
        },
      };
    case 'hideAll':
      return { ...model, ui: { ...ui, hidden: { ...ui.hidden, [event.dimension]: filterValues(event.dimension, event.values) } } };
    case 'toggleGroup': {
      const expanded = ui.expanded.includes(event.id)
        ? ui.expanded.filter((x) => x !== event.id)
        : [...ui.expanded, event.id].slice(-MAX_SAVED_IDS);
      return { ...model, ui: { ...ui, expanded } };
    }
    case 'clearFocus':
      return { ...model, ui: { ...ui, focus: undefined } };
    case 'zoomed':
      return { ...model, ui: { ...ui, zoom: event.zoom } };
    case 'step':
      return model.report ? { ...model, ui: { ...ui, step: clampStep(model.report, event.step) } } : model;
    case 'clearSimulation':
      return withoutSimulation(model);
    case 'togglePanel':
      return { ...model, ui: { ...ui, [event.panel]: !ui[event.panel] } };
  }
}

/** A filter's hidden values, each once, states only the known ones, at most as many as the saved state keeps. */
function filterValues(dimension: FilterDimension, values: readonly string[]): string[] {
  const unique = [...new Set(values.map((v) => v.slice(0, MAX_STRING)))];
  const known = dimension === 'states' ? unique.filter((v) => (STATE_TAGS as readonly string[]).includes(v)) : unique;
  return known.slice(0, MAX_SAVED_IDS);
}

function withoutSimulation(model: AppModel): AppModel {
  const ui = model.ui;
  const dismissed = ui.simulation ?? ui.dismissed;
  return {
    ...model,
    report: undefined,
    ui: { ...ui, step: undefined, simulation: undefined, ...(dismissed !== undefined ? { dismissed } : {}) },
  };
}

export function sameGraphSource(a: GraphSource | undefined, b: GraphSource): boolean {
  if (!a) return true; // the first graph of a fresh panel
  return a.kind === b.kind && (a.kind === 'workspace' || (b.kind === 'cluster' && a.context === b.context));
}

/** A focused object inside a collapsed fan-out: its group is expanded, so it can be seen and selected. */
function expandFor(graph: GraphData, uid: string, expanded: string[]): string[] {
  const owners = graph.edges.filter((e) => e.from === uid);
  if (owners.length !== 1) return expanded;
  const kind = graph.nodes.find((n) => n.uid === uid)!.kind;
  const id = groupId(owners[0].to, kind);
  return expanded.includes(id) ? expanded : [...expanded, id];
}

// The webview application: holds the AppModel (model/state.ts), turns host messages and user actions into new
// models, derives what is shown (index → view → layout → scene) only when its inputs changed, and drives the
// renderer, panels and d3-zoom. Pure logic lives in model/; this file only wires it to the DOM.

import { select } from 'd3-selection';
import 'd3-transition';
import { zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3-zoom';
import { PROTOCOL_VERSION } from '../../shared/src/protocolVersion';
import { toDot, toSvg, withBoxes } from './model/exportFormats';
import { componentsOf, indexGraph, type GraphIndex } from './model/graphIndex';
import { boundsOf, stabilize, type Point } from './model/layout';
import {
  BOX_HEADER,
  BOX_PADDING,
  boxAt,
  boxSummary,
  namespaceBoxes,
  namespacedLayout,
  namespaceScope,
  type NamespaceBox,
} from './model/namespaces';
import { nearestTo, neighbour, type Direction } from './model/navigation';
import { affectedUids, playbackFrame, type PlaybackFrame } from './model/playback';
import type { GraphExportFormat, HostToWebviewMessage, PolicyChoice, WebviewToHostMessage } from './model/protocolTypes';
import { zoomLevel, type Scene, type ZoomLevel } from './model/scene';
import { sameScope, truncationText } from './model/scope';
import { initialModel, reduce, restoreUiState, type AppEvent, type AppModel, type UiAction, type Zoom } from './model/state';
import { buildView, describeObject, type GraphView } from './model/viewModel';
import { CanvasRenderer, drawScene, LOD_TEXT } from './ui/canvasRenderer';
import { DetailsPanel } from './ui/details';
import { h } from './ui/dom';
import { legend, markerDefs } from './ui/legend';
import type { Renderer } from './ui/renderer';
import { SvgRenderer } from './ui/svgRenderer';
import { readPalette, watchTheme } from './ui/theme';
import { Timeline } from './ui/timeline';
import { Toolbar } from './ui/toolbar';
import type { VsCodeApi } from './vscodeApi';

/**
 * Above this many nodes shown, the canvas renderer: `npm run bench` measured SVG zooming at about 30 frames per
 * second with 300 nodes and 23 with 500 in headless Chromium on 2 shared cores (every zoom step repaints the whole
 * SVG), while the canvas holds about 60 up to 2,000 and more than 40 at 5,000 (ARCHITECTURE.md).
 */
export const SVG_MAX_NODES = 300;
const MIN_ZOOM = 0.02;
const MAX_ZOOM = 3;
/** A graph area smaller than this (a panel being laid out) is not fitted into: it fits when it grows. */
const MIN_FIT_SIDE = 80;
const PNG_MAX_SIDE = 16_000;
const PNG_MAX_PIXELS = 60e6;

const HOST_MESSAGES = new Set(['graph', 'focus', 'simulation', 'notice']);

export class App {
  private model: AppModel;
  private index: GraphIndex | undefined;
  private indexedGraph: unknown;
  private view: GraphView | undefined;
  private viewInputs: unknown[] = [];
  private layoutKey = '';
  private positions = new Map<string, Point>();
  private reversed = new Set<string>();
  private boxes: NamespaceBox[] = [];
  private level: ZoomLevel = 'objects';
  private frame: PlaybackFrame | undefined;
  private renderer: Renderer | undefined;
  private palette = readPalette();
  private transform: Zoom = { k: 1, x: 0, y: 0 };
  private readonly zoom: ZoomBehavior<HTMLDivElement, unknown>;
  private renderScheduled = false;
  private needsFit = true;
  /** The graph area was resized after an automatic fit: that fit is made again at the new size. */
  private refit = false;
  /** The last fit showed everything (Fit, `0`, a graph opened without a focus), not one namespace or a simulation. */
  private fittedAll = false;
  /** The zoom shown was chosen by a fit, not by the user: a resize fits again (a maximised panel is not left tiny). */
  private autoFitted = false;
  /** A new simulation arrived: once drawn, zoom to the objects it affects (a graph shown at Fit would show nothing). */
  private fitAffected = false;
  /** What the last automatic fit showed (undefined: everything), fitted again after a resize. */
  private fitted: readonly string[] | undefined;
  private playTimer: number | undefined;
  private forceLayout = false;

  private readonly graphEl: HTMLDivElement;
  private readonly toolbar: Toolbar;
  private readonly details: DetailsPanel;
  private readonly legendEl: HTMLElement;
  private readonly timeline: Timeline;
  private readonly notice: HTMLElement;
  private readonly focusBar: HTMLElement;
  private readonly scopeBar: HTMLElement;
  private readonly scopeText: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly announcer: HTMLElement;
  /** At the overview level, the namespaces' aggregates as a list (the canvas has no element per box). */
  private readonly overviewList: HTMLElement;

  constructor(
    private readonly vscode: VsCodeApi,
    root: HTMLElement,
  ) {
    this.model = initialModel(restoreUiState(vscode.getState()));
    this.toolbar = new Toolbar({
      dispatch: (a) => this.dispatch(a),
      fit: () => this.fit(true),
      relayout: () => {
        this.forceLayout = true;
        this.needsFit = true;
        this.schedule();
      },
      exportAs: (f) => this.exportAs(f),
      refresh: () => this.post({ type: 'refresh' }),
      pickScope: () => this.post({ type: 'pickScope' }),
      nextMatch: (back) => this.nextMatch(back),
    });
    this.details = new DetailsPanel({
      select: (id) => this.selectAndShow(id),
      reveal: (uid) => this.post({ type: 'reveal', uid }),
      simulate: (uid, policy) => this.simulate(uid, policy),
      toggleGroup: (id) => this.dispatch({ type: 'toggleGroup', id }),
    });
    this.timeline = new Timeline({
      step: (i) => {
        this.stopPlaying();
        this.dispatch({ type: 'step', step: i });
      },
      togglePlay: () => (this.playTimer === undefined ? this.startPlaying() : this.stopPlaying()),
      openReport: () => this.post({ type: 'openReport' }),
      close: () => {
        this.stopPlaying();
        this.dispatch({ type: 'clearSimulation' });
      },
    });
    this.legendEl = legend();
    this.notice = h('div', { class: 'notice', role: 'status', hidden: true });
    this.focusBar = h('div', { class: 'focus-bar', hidden: true });
    // A live graph cut at the host's limit says so, and offers another scope.
    this.scopeText = h('span', {});
    const pick = h('button', { type: 'button' }, 'Choose scope…');
    pick.addEventListener('click', () => this.post({ type: 'pickScope' }));
    this.scopeBar = h('div', { class: 'scope-bar', role: 'status', hidden: true }, this.scopeText, pick);
    this.empty = h('div', { class: 'empty-state' }, 'Reading the ownership graph…');
    this.announcer = h('div', { class: 'sr-only', 'aria-live': 'polite' });
    this.overviewList = h('ul', { class: 'sr-only overview-list', 'aria-label': 'Namespaces at the overview level' });
    this.graphEl = h('div', {
      class: 'graph',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'ownership graph',
      'aria-label': 'Ownership graph: owners above dependents. Arrow keys move between objects, Enter reveals one in its manifest.',
    });
    this.graphEl.append(this.empty);
    root.append(
      markerDefs(),
      this.toolbar.element,
      this.notice,
      this.scopeBar,
      this.focusBar,
      h('div', { class: 'body' }, this.graphEl, this.details.element, this.legendEl),
      this.timeline.element,
      this.announcer,
      this.overviewList,
    );

    this.zoom = d3zoom<HTMLDivElement, unknown>()
      .scaleExtent([MIN_ZOOM, MAX_ZOOM])
      .on('zoom', (e: D3ZoomEvent<HTMLDivElement, unknown>) => {
        if (e.sourceEvent) this.autoFitted = false; // the user's wheel, drag or key
        this.transform = { k: e.transform.k, x: e.transform.x, y: e.transform.y };
        this.renderer?.setTransform(this.transform);
        this.graphEl.dataset.zoom = e.transform.k.toFixed(3);
        this.updateLevel();
      })
      .on('end', () => this.quiet({ type: 'zoomed', zoom: this.transform }));
    select(this.graphEl).call(this.zoom).on('dblclick.zoom', null);
    if (this.model.ui.zoom) {
      this.needsFit = false;
      this.setZoom(this.model.ui.zoom);
    }

    this.graphEl.addEventListener('click', (e) => this.onClick(e));
    // The canvas has no element per node: its tooltip (the full name, which a node's line may cut) follows the mouse.
    this.graphEl.addEventListener('pointermove', (e) => this.onHover(e));
    this.graphEl.addEventListener('keydown', (e) => this.onKey(e));
    window.addEventListener('keydown', (e) => {
      if (e.key === '/' && !isTyping(e.target)) {
        this.toolbar.search.focus();
        e.preventDefault();
      }
    });
    window.addEventListener('message', (e: MessageEvent) => this.onMessage(e.data));
    new ResizeObserver(() => {
      this.renderer?.resize();
      // A panel laid out tiny then maximised (VS Code resizes it through small sizes) fits again at its new size.
      if (this.autoFitted) this.refit = true;
      if (this.needsFit || this.refit) this.schedule();
    }).observe(this.graphEl);
    watchTheme(() => {
      this.palette = readPalette();
      if (this.renderer instanceof CanvasRenderer) this.renderer.repaint();
    });
    this.schedule();
  }

  /** Tell the host we listen (again, after every reload of the page). */
  start(): void {
    this.post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  }

  // ------------------------------------------------------------------------------------------ state

  private onMessage(data: unknown): void {
    if (typeof data !== 'object' || data === null || !HOST_MESSAGES.has((data as { type?: unknown }).type as string)) return;
    const message = data as HostToWebviewMessage;
    if (message.type === 'focus') this.needsFit = true;
    if (
      message.type === 'graph' &&
      this.model.ui.source &&
      (message.source.kind !== this.model.ui.source.kind || !sameScope(message.scope, this.model.ui.scope))
    )
      this.needsFit = true;
    const before = this.model.ui.simulation;
    this.dispatch(message);
    // A new simulation plays at once, zoomed to what it affects; the same one sent again after a reload stays where it was.
    if (message.type === 'simulation' && message.id !== before && this.model.ui.simulation === message.id) {
      this.fitAffected = true;
      this.startPlaying();
    }
  }

  private dispatch(event: AppEvent): void {
    const before = this.model;
    this.model = reduce(this.model, event);
    if (this.model.ui !== before.ui) this.vscode.setState(this.model.ui);
    if (this.model.ui.zoom === undefined && before.ui.zoom !== undefined) this.needsFit = true;
    this.schedule();
  }

  /** A change that needs saving but no redraw (the zoom, which d3-zoom already applied). */
  private quiet(action: UiAction): void {
    this.model = reduce(this.model, action);
    this.vscode.setState(this.model.ui);
  }

  private post(message: WebviewToHostMessage): void {
    this.vscode.postMessage(message);
  }

  private schedule(): void {
    if (this.renderScheduled) return;
    this.renderScheduled = true;
    requestAnimationFrame(() => {
      this.renderScheduled = false;
      try {
        this.render();
      } catch (e) {
        this.post({ type: 'error', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
      }
    });
  }

  // ------------------------------------------------------------------------------------------ rendering

  private render(): void {
    const m = this.model;
    this.derive();
    const view = this.view;
    this.toolbar.update(m, view, this.index);
    this.notice.hidden = !m.notice;
    this.notice.className = `notice ${m.notice?.severity ?? ''}`;
    this.notice.textContent = m.notice?.message ?? '';
    this.renderFocusBar();
    const cut = truncationText(m.graph, m.ui.scope, this.index);
    this.scopeBar.hidden = cut === undefined;
    if (cut !== undefined && this.scopeText.textContent !== cut) this.scopeText.textContent = cut;
    this.legendEl.hidden = !m.ui.legend;
    this.details.element.hidden = !m.ui.details;
    this.details.update(this.index, view, m.ui.selected, m.report, this.frame);
    this.timeline.update(m.report, this.frame, this.playTimer !== undefined);
    this.empty.hidden = view !== undefined && view.nodes.length > 0;
    this.empty.textContent = !m.graph
      ? 'Reading the ownership graph…'
      : m.graph.nodes.length === 0
        ? m.ui.source?.kind === 'cluster'
          ? 'The live cluster has no objects in scope.'
          : 'No Kubernetes objects in the workspace.'
        : 'Nothing matches the filters.';
    if (!view) return;

    const wanted = m.renderer === 'svg' || m.renderer === 'canvas' ? m.renderer : view.nodes.length > SVG_MAX_NODES ? 'canvas' : 'svg';
    let structure = this.structureChanged;
    if (this.renderer?.kind !== wanted) {
      this.renderer?.destroy();
      this.renderer = wanted === 'svg' ? new SvgRenderer() : new CanvasRenderer(() => this.palette);
      this.graphEl.append(this.renderer.element);
      this.graphEl.dataset.renderer = wanted;
      this.renderer.resize();
      this.renderer.setTransform(this.transform);
      structure = true;
    }
    this.structureChanged = false;
    this.renderer.setScene(this.scene(), m.ui.search.trim() !== '', structure);
    this.updateLevel();
    const domId = m.ui.selected ? this.renderer.domIdOf(m.ui.selected) : undefined;
    if (domId) this.graphEl.setAttribute('aria-activedescendant', domId);
    else this.graphEl.removeAttribute('aria-activedescendant');
    if (this.fitAffected && this.canFit() && m.report) {
      this.fitAffected = false;
      this.needsFit = false;
      this.refit = false;
      this.fitted = this.affectedNodes();
      this.fitToAffected(this.fitted, true);
      this.fittedAll = false;
    }
    if ((this.needsFit || (this.refit && this.autoFitted)) && this.canFit()) {
      // A resize after Fit fits everything again, not the selected object's namespace (that is for opening).
      const again = !this.needsFit && this.fittedAll;
      this.needsFit = false;
      this.refit = false;
      if (this.fitted && this.autoFitted && m.report) this.fitToAffected(this.fitted, false);
      else if (again || !this.openOnNamespace()) this.fit(false);
    }
    if (this.canFit()) this.refit = false;
    document.body.dataset.rendered = String(m.revision);
  }

  private structureChanged = false;

  /** index → view → layout, each recomputed only when its inputs changed. */
  private derive(): void {
    const m = this.model;
    if (!m.graph) return;
    if (this.indexedGraph !== m.graph) {
      this.index = indexGraph(m.graph);
      this.indexedGraph = m.graph;
    }
    const index = this.index!;
    const inputs = [index, m.ui.hidden, m.ui.search, m.ui.expanded, m.ui.focus, m.report];
    if (inputs.some((x, i) => x !== this.viewInputs[i])) {
      // Only a new graph from the host keeps the positions of the nodes that stay (documents changed, watch events):
      // a change of the user's view (filters, focus, groups) is laid out afresh, which a reload reproduces exactly.
      const graphOnly = inputs.every((x, i) => i === 0 || x === this.viewInputs[i]);
      this.viewInputs = inputs;
      let scope: Set<string> | undefined;
      const focused = m.ui.focus ? index.nodes.get(m.ui.focus) : undefined;
      if (focused) {
        // Its connected component; a Namespace: what it holds and what blocks it; an object of a large graph: its
        // namespace around it too (the graph opens there).
        scope = componentsOf(index, [focused.uid, ...(m.report ? affectedUids(m.report) : [])]);
        const isNamespace = focused.kind === 'Namespace' && !focused.namespace;
        const around = isNamespace ? focused.name : index.order.length > SVG_MAX_NODES ? focused.namespace : '';
        if (around) for (const uid of namespaceScope(index, around)) scope.add(uid);
      }
      this.view = buildView(index, { hidden: m.ui.hidden, search: m.ui.search, expanded: m.ui.expanded, scope });
      const view = this.view;
      const key = `${view.nodes.map((n) => n.id).join('\u0001')}\u0002${view.edges.map((e) => e.id).join('\u0001')}`;
      if (key !== this.layoutKey || this.forceLayout) {
        this.layoutKey = key;
        const fresh = namespacedLayout(view);
        this.positions = this.forceLayout || !graphOnly ? fresh.positions : stabilize(fresh, this.positions, view.edges);
        this.reversed = fresh.reversed;
        this.structureChanged = true;
      } else {
        // Same structure, other content (a group's members, names): classes and texts only.
        this.structureChanged = true;
      }
    } else if (this.forceLayout && this.view) {
      const fresh = namespacedLayout(this.view);
      this.positions = fresh.positions;
      this.reversed = fresh.reversed;
      this.structureChanged = true;
    }
    if (this.structureChanged && this.view) {
      this.boxes = namespaceBoxes(this.view, this.positions, index);
    }
    this.forceLayout = false;
    this.frame = m.report ? playbackFrame(m.report, m.ui.step ?? 0) : undefined;
  }

  private scene(): Scene {
    return {
      view: this.view!,
      positions: this.positions,
      reversed: this.reversed,
      boxes: this.boxes,
      frame: this.frame,
      selected: this.model.ui.selected,
    };
  }

  private renderFocusBar(): void {
    const focus = this.model.ui.focus;
    const o = focus ? this.index?.nodes.get(focus) : undefined;
    this.focusBar.hidden = !o;
    if (!o) return;
    const all = h('button', { type: 'button' }, 'Show all');
    all.addEventListener('click', () => {
      this.needsFit = true;
      this.dispatch({ type: 'clearFocus' });
    });
    const what =
      o.kind === 'Namespace' && !o.namespace
        ? `Showing namespace ${o.name}: what it holds and what blocks it`
        : o.namespace && (this.index?.order.length ?? 0) > SVG_MAX_NODES
          ? `Showing namespace ${o.namespace} around ${describeObject(o)}, and its connected component`
          : `Showing the connected component of ${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
    this.focusBar.replaceChildren(h('span', {}, what), all);
  }

  // ------------------------------------------------------------------------------------------ zoom

  private setZoom(z: Zoom, animate = false): void {
    const t = zoomIdentity.translate(z.x, z.y).scale(z.k);
    const sel = select(this.graphEl);
    if (!animate) return void sel.call(this.zoom.transform, t);
    // The page says while a zoom moves (data-zooming), so that a reader (a test) knows when it has arrived.
    this.zoomsMoving++;
    this.graphEl.dataset.zooming = 'true';
    const done = () => {
      if (--this.zoomsMoving === 0) delete this.graphEl.dataset.zooming;
    };
    sel.transition().duration(250).call(this.zoom.transform, t).on('end.moving interrupt.moving cancel.moving', done);
  }

  /** Animated zooms started and not yet ended or interrupted. */
  private zoomsMoving = 0;

  /**
   * A large graph opens on the namespace of the object in focus (or selected), at a scale where objects can be read,
   * rather than at an overview of everything. Returns whether it did.
   */
  private openOnNamespace(): boolean {
    const view = this.view;
    const id = this.model.ui.focus ?? this.model.ui.selected;
    const shown = id ? view?.shownAs.get(id) : undefined;
    if (!view || !shown || (this.index?.order.length ?? 0) <= SVG_MAX_NODES) return false;
    const box = this.boxes.find((b) => b.ids.includes(shown));
    if (!box) return false;
    this.fitted = undefined;
    this.fitTo(box.ids, false);
    this.fittedAll = false;
    if (this.transform.k < LOD_TEXT) this.centreOn(shown, LOD_TEXT + 0.1);
    return true;
  }

  private centreOn(id: string, k: number): void {
    const p = this.positions.get(id);
    if (!p) return;
    this.setZoom({ k, x: this.graphEl.clientWidth / 2 - p.x * k, y: this.graphEl.clientHeight / 2 - p.y * k });
  }

  /** The overview level's box, zoomed into: its top-left at the top-left of the view, at a scale where objects read. */
  private openBox(box: NamespaceBox): void {
    const w = this.graphEl.clientWidth;
    const hgt = this.graphEl.clientHeight;
    const fit = Math.min(1.2, (w - 40) / box.width, (hgt - 40) / box.height);
    const k = Math.max(fit, LOD_TEXT + 0.1);
    this.autoFitted = false;
    const x = fit >= k ? w / 2 - k * (box.x + box.width / 2) : 20 - k * box.x;
    const y = fit >= k ? hgt / 2 - k * (box.y + box.height / 2) : 20 - k * box.y;
    this.setZoom({ k, x, y }, true);
    this.announce(`${boxSummary(box)}; zoomed in`);
  }

  /** The boxes the overview's list shows (undefined: none, at the objects level). */
  private listedBoxes: readonly NamespaceBox[] | undefined;

  /** The level of detail follows the scale (semantic zoom); the page says which, and lists the boxes at the overview. */
  private updateLevel(): void {
    const level = zoomLevel(this.transform.k, this.boxes.length, this.view?.nodes.length ?? 0);
    if (level !== this.level || this.graphEl.dataset.level !== level) {
      this.level = level;
      this.graphEl.dataset.level = level;
    }
    // Rebuilt only when the level or the boxes change (this runs on every zoom event).
    const listed = level === 'overview' ? this.boxes : undefined;
    if (listed === this.listedBoxes) return;
    this.listedBoxes = listed;
    this.overviewList.replaceChildren(...(listed ?? []).map((b) => h('li', {}, boxSummary(b))));
  }

  /** Whether the graph area is large enough to fit into (a fit into a few pixels would leave the graph a dot). */
  private canFit(): boolean {
    return this.graphEl.clientWidth >= MIN_FIT_SIDE && this.graphEl.clientHeight >= MIN_FIT_SIDE;
  }

  /** Everything shown in view (at most at scale 1.2). */
  private fit(animate: boolean): void {
    const view = this.view;
    if (!view) return;
    this.fitted = undefined;
    this.fitTo(
      view.nodes.map((n) => n.id),
      animate,
    );
    this.fittedAll = true;
  }

  /** The shown nodes of the simulation's report (the nodes standing for them: an object, or its collapsed group). */
  private affectedNodes(): string[] {
    const report = this.model.report;
    const view = this.view;
    if (!report || !view) return [];
    const ids = new Set<string>();
    for (const uid of affectedUids(report)) {
      const id = view.shownAs.get(uid);
      if (id) ids.add(id);
    }
    return [...ids];
  }

  /**
   * The simulation's nodes in view; where they do not fit at a scale where objects read (a narrow panel, a big
   * namespace), its target centred at that scale instead: a playback at the overview level would show only boxes.
   */
  private fitToAffected(ids: readonly string[], animate: boolean): void {
    const k = this.fitTo(ids, animate);
    const target = this.model.report && this.view?.shownAs.get(this.model.report.target.uid);
    if (k !== undefined && k < LOD_TEXT && target) this.centreOn(target, LOD_TEXT + 0.1);
  }

  /** These nodes in view (at most at scale 1.2); nothing when none is placed. Returns the scale chosen. */
  private fitTo(ids: readonly string[], animate: boolean): number | undefined {
    const nodes = boundsOf(ids.map((id) => this.positions.get(id)).filter((p): p is Point => p !== undefined));
    // With the label strip and padding of their containers.
    const b = nodes && {
      minX: nodes.minX - BOX_PADDING,
      minY: nodes.minY - BOX_HEADER,
      maxX: nodes.maxX + BOX_PADDING,
      maxY: nodes.maxY + BOX_PADDING,
    };
    const w = this.graphEl.clientWidth;
    const hgt = this.graphEl.clientHeight;
    if (!b || !this.canFit()) return undefined;
    this.autoFitted = true;
    const k = Math.max(MIN_ZOOM, Math.min(1.2, (w - 40) / (b.maxX - b.minX), (hgt - 40) / (b.maxY - b.minY)));
    this.setZoom({ k, x: w / 2 - (k * (b.minX + b.maxX)) / 2, y: hgt / 2 - (k * (b.minY + b.maxY)) / 2 }, animate);
    return k;
  }

  /** Pans so the node is in view (keeping the scale). */
  private reveal(id: string): void {
    const p = this.positions.get(id);
    if (!p) return;
    const t = this.transform;
    const x = p.x * t.k + t.x;
    const y = p.y * t.k + t.y;
    const w = this.graphEl.clientWidth;
    const hgt = this.graphEl.clientHeight;
    const margin = 60;
    if (x > margin && x < w - margin && y > margin && y < hgt - margin) return;
    this.autoFitted = false;
    const k = Math.max(t.k, 0.5);
    this.setZoom({ k, x: w / 2 - p.x * k, y: hgt / 2 - p.y * k }, true);
  }

  // ------------------------------------------------------------------------------------------ interaction

  private onClick(e: MouseEvent): void {
    if (this.level === 'overview') {
      const r = this.graphEl.getBoundingClientRect();
      const t = this.transform;
      const box = boxAt(this.boxes, { x: (e.clientX - r.left - t.x) / t.k, y: (e.clientY - r.top - t.y) / t.k });
      if (box) this.openBox(box);
      return;
    }
    const id = this.renderer?.nodeAt(e.clientX, e.clientY);
    if (!id) {
      if (this.model.ui.selected) this.dispatch({ type: 'select', id: undefined });
      return;
    }
    this.activate(id, false);
  }

  private onHover(e: PointerEvent): void {
    if (this.level === 'overview') {
      const r = this.graphEl.getBoundingClientRect();
      const t = this.transform;
      const box = boxAt(this.boxes, { x: (e.clientX - r.left - t.x) / t.k, y: (e.clientY - r.top - t.y) / t.k });
      const text = box ? `${boxSummary(box)} (click to zoom in)` : '';
      if ((this.graphEl.getAttribute('title') ?? '') !== text) this.graphEl.setAttribute('title', text);
      return;
    }
    if (!(this.renderer instanceof CanvasRenderer)) {
      if (this.graphEl.hasAttribute('title')) this.graphEl.removeAttribute('title');
      return;
    }
    const id = this.renderer.nodeAt(e.clientX, e.clientY);
    const text = id ? (this.view?.byId.get(id)?.description ?? '') : '';
    if ((this.graphEl.getAttribute('title') ?? '') !== text) this.graphEl.setAttribute('title', text);
  }

  /** Click or Enter: a group expands; an object is selected and revealed in its manifest. */
  private activate(id: string, keyboard: boolean): void {
    const node = this.view?.byId.get(id);
    if (!node) return;
    if (node.members) {
      this.dispatch({ type: 'select', id });
      this.dispatch({ type: 'toggleGroup', id });
      return;
    }
    this.dispatch({ type: 'select', id });
    if (keyboard) this.announce(node.description);
    if (node.object?.location) this.post({ type: 'reveal', uid: id });
  }

  private selectAndShow(id: string): void {
    this.dispatch({ type: 'select', id });
    const node = this.view?.byId.get(id);
    if (node) this.announce(node.description);
    this.reveal(id);
  }

  private onKey(e: KeyboardEvent): void {
    const view = this.view;
    if (!view) return;
    const directions: Record<string, Direction> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
    const selected = this.model.ui.selected && view.byId.has(this.model.ui.selected) ? this.model.ui.selected : undefined;
    const direction = directions[e.key];
    if (direction) {
      e.preventDefault();
      let next: string | undefined;
      if (!selected) {
        const t = this.transform;
        const centre = { x: (this.graphEl.clientWidth / 2 - t.x) / t.k, y: (this.graphEl.clientHeight / 2 - t.y) / t.k };
        next = nearestTo(this.positions, centre, new Set(view.byId.keys()));
      } else {
        next = neighbour(view, this.positions, selected, direction);
      }
      if (next) this.selectAndShow(next);
      return;
    }
    switch (e.key) {
      case 'Enter':
        if (selected) this.activate(selected, true);
        break;
      case ' ':
        if (selected && view.byId.get(selected)?.members) this.dispatch({ type: 'toggleGroup', id: selected });
        else if (selected) this.announce(view.byId.get(selected)!.description);
        break;
      case '+':
      case '=':
        this.autoFitted = false;
        this.zoom.scaleBy(select(this.graphEl), 1.25);
        break;
      case '-':
      case '_':
        this.autoFitted = false;
        this.zoom.scaleBy(select(this.graphEl), 0.8);
        break;
      case '0':
        this.fit(true);
        break;
      case 'Escape':
        if (this.model.ui.selected) this.dispatch({ type: 'select', id: undefined });
        else if (this.model.ui.focus) {
          this.needsFit = true;
          this.dispatch({ type: 'clearFocus' });
        }
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  private nextMatch(backwards: boolean): void {
    // The search was just dispatched: derive the view now.
    this.derive();
    const matches = this.view?.matches ?? [];
    if (!matches.length) return;
    const at = matches.indexOf(this.model.ui.selected ?? '');
    const next = matches[(at + (backwards ? -1 : 1) + matches.length) % matches.length] ?? matches[0];
    this.selectAndShow(next);
  }

  private announce(text: string): void {
    this.announcer.textContent = text;
  }

  // ------------------------------------------------------------------------------------------ simulation

  private simulate(uid: string, policy: PolicyChoice): void {
    this.stopPlaying();
    this.post({ type: 'simulate', uid, policy });
  }

  private startPlaying(): void {
    this.stopPlaying();
    const report = this.model.report;
    if (!report) return;
    const total = report.steps.length;
    if ((this.model.ui.step ?? 0) >= total) this.dispatch({ type: 'step', step: 0 });
    // The whole timeline in at most about 12 s, each step shown for 120–700 ms.
    const every = Math.max(120, Math.min(700, 12_000 / Math.max(1, total)));
    this.playTimer = window.setInterval(() => {
      const step = (this.model.ui.step ?? 0) + 1;
      this.dispatch({ type: 'step', step });
      if (step >= total) this.stopPlaying();
    }, every);
    this.schedule();
  }

  private stopPlaying(): void {
    if (this.playTimer === undefined) return;
    window.clearInterval(this.playTimer);
    this.playTimer = undefined;
    this.schedule();
  }

  // ------------------------------------------------------------------------------------------ export

  private exportAs(format: GraphExportFormat): void {
    const view = this.view;
    if (!view) return;
    const src = this.model.ui.source;
    const base = src?.kind === 'cluster' ? `ownership-graph-${src.context.replace(/[^A-Za-z0-9._-]+/g, '-')}` : 'ownership-graph';
    const name = `${base}.${format}`;
    if (format === 'dot') {
      this.post({ type: 'export', format, data: toDot(view, this.frame), name });
    } else if (format === 'svg') {
      this.post({
        type: 'export',
        format,
        data: toSvg(view, this.shownPositions(view), this.palette, { frame: this.frame, reversed: this.reversed, boxes: this.boxes }),
        name,
      });
    } else {
      this.post({ type: 'export', format, data: this.png(view), name });
    }
  }

  private shownPositions(view: GraphView): Map<string, Point> {
    const out = new Map<string, Point>();
    for (const n of view.nodes) {
      const p = this.positions.get(n.id);
      if (p) out.set(n.id, p);
    }
    return out;
  }

  /** The whole view drawn by the canvas renderer at up to 2× scale, as base64 PNG. */
  private png(view: GraphView): string {
    const b = withBoxes(boundsOf(this.shownPositions(view).values()) ?? { minX: 0, minY: 0, maxX: 1, maxY: 1 }, this.boxes);
    const margin = 24;
    const w = b.maxX - b.minX + 2 * margin;
    const hgt = b.maxY - b.minY + 2 * margin;
    const scale = Math.min(2, PNG_MAX_SIDE / w, PNG_MAX_SIDE / hgt, Math.sqrt(PNG_MAX_PIXELS / (w * hgt)));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(w * scale));
    canvas.height = Math.max(1, Math.round(hgt * scale));
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    drawScene(ctx, this.scene(), this.palette, { k: 1, x: margin - b.minX, y: margin - b.minY }, { width: w, height: hgt }, false);
    return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  }
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

// The toolbar: where the graph comes from, search (Enter: next match), the namespace / kind / state filters,
// fit, re-layout, export, legend and details toggles. Menus are <details> elements: keyboard and screen readers
// get their native behaviour.

import type { GraphExportFormat } from '../model/protocolTypes';
import type { GraphIndex } from '../model/graphIndex';
import { scopeLabel } from '../model/scope';
import type { AppModel, FilterDimension, UiAction } from '../model/state';
import { STATE_LABELS, type GraphView, type StateTag } from '../model/viewModel';
import { h, replaceChildren } from './dom';

export interface ToolbarActions {
  dispatch(action: UiAction): void;
  fit(): void;
  relayout(): void;
  exportAs(format: GraphExportFormat): void;
  refresh(): void;
  /** Ask the host for another scope of a live graph (a namespace…). */
  pickScope(): void;
  /** Select the next (or previous) search match. */
  nextMatch(backwards: boolean): void;
}

const DIMENSIONS: { dimension: FilterDimension; title: string }[] = [
  { dimension: 'namespaces', title: 'Namespaces' },
  { dimension: 'kinds', title: 'Kinds' },
  { dimension: 'states', title: 'States' },
];

export class Toolbar {
  readonly element: HTMLElement;
  readonly search: HTMLInputElement;
  private readonly source: HTMLElement;
  private readonly scopeButton: HTMLButtonElement;
  private readonly counts: HTMLElement;
  private readonly searchCount: HTMLElement;
  private readonly menus = new Map<FilterDimension, { summary: HTMLElement; body: HTMLElement; list: HTMLElement; key: string }>();
  /** The namespace menu's type-to-filter box (it filters the rows, not the graph). */
  private readonly namespaceFilter: HTMLInputElement;
  private readonly legendButton: HTMLButtonElement;
  private readonly detailsButton: HTMLButtonElement;
  private searchTimer: number | undefined;

  constructor(private readonly actions: ToolbarActions) {
    this.source = h('span', { class: 'source' });
    this.search = h('input', {
      type: 'search',
      class: 'search',
      placeholder: 'Search name, kind, namespace, uid',
      'aria-label': 'Search objects (Enter: next match)',
      spellcheck: 'false',
    });
    this.searchCount = h('span', { class: 'search-count', 'aria-live': 'polite' });
    this.search.addEventListener('input', () => {
      window.clearTimeout(this.searchTimer);
      this.searchTimer = window.setTimeout(() => actions.dispatch({ type: 'search', query: this.search.value }), 120);
    });
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        window.clearTimeout(this.searchTimer);
        actions.dispatch({ type: 'search', query: this.search.value });
        actions.nextMatch(e.shiftKey);
        e.preventDefault();
      } else if (e.key === 'Escape' && this.search.value) {
        this.search.value = '';
        actions.dispatch({ type: 'search', query: '' });
        e.stopPropagation();
      }
    });
    this.namespaceFilter = h('input', {
      type: 'search',
      class: 'menu-filter',
      placeholder: 'Type to filter namespaces',
      'aria-label': 'Filter the namespaces listed',
      spellcheck: 'false',
    });
    this.namespaceFilter.addEventListener('input', () => this.filterRows('namespaces'));
    const filters = DIMENSIONS.map(({ dimension, title }) => {
      const summary = h('summary', { 'aria-label': `${title} filter` }, title);
      const list = h('div', { class: 'menu-list' });
      const body = h(
        'div',
        { class: 'menu-body', role: 'group', 'aria-label': title },
        dimension === 'namespaces' ? this.namespaceFilter : undefined,
        list,
      );
      this.menus.set(dimension, { summary, body, list, key: '' });
      return h('details', { class: 'menu filter', 'data-dimension': dimension }, summary, body);
    });
    const button = (label: string, title: string, onClick: () => void, cls = '') => {
      const b = h('button', { type: 'button', title, class: cls }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    const exportMenu = h(
      'details',
      { class: 'menu export' },
      h('summary', { 'aria-label': 'Export what is shown' }, 'Export'),
      h(
        'div',
        { class: 'menu-body', role: 'group', 'aria-label': 'Export' },
        button('SVG…', 'Save what is shown as SVG', () => this.exportAs('svg', exportMenu)),
        button('PNG…', 'Save what is shown as PNG', () => this.exportAs('png', exportMenu)),
        button('DOT…', 'Save what is shown as Graphviz DOT', () => this.exportAs('dot', exportMenu)),
      ),
    );
    this.scopeButton = button('Scope…', 'Show another namespace of the live cluster, its cluster-scoped objects or all of it', () =>
      actions.pickScope(),
    );
    this.scopeButton.hidden = true;
    this.legendButton = button(
      'Legend',
      'Show or hide the legend',
      () => actions.dispatch({ type: 'togglePanel', panel: 'legend' }),
      'toggle',
    );
    this.detailsButton = button(
      'Details',
      'Show or hide the details panel',
      () => actions.dispatch({ type: 'togglePanel', panel: 'details' }),
      'toggle',
    );
    this.counts = h('span', { class: 'counts' });
    // One menu open at a time.
    for (const menu of [...filters, exportMenu]) {
      menu.addEventListener('toggle', () => {
        if (!menu.open) return;
        for (const other of [...filters, exportMenu]) if (other !== menu) other.open = false;
      });
    }
    this.element = h(
      'header',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Ownership graph tools' },
      this.source,
      this.scopeButton,
      h('span', { class: 'search-box' }, this.search, this.searchCount),
      ...filters,
      button('Fit', 'Fit the graph in view (0)', () => actions.fit()),
      button('Re-layout', 'Lay the graph out afresh', () => actions.relayout()),
      button('Refresh', 'Read the graph again', () => actions.refresh()),
      exportMenu,
      this.legendButton,
      this.detailsButton,
      this.counts,
    );
  }

  private exportAs(format: GraphExportFormat, menu: HTMLDetailsElement): void {
    menu.open = false;
    this.actions.exportAs(format);
  }

  update(model: AppModel, view: GraphView | undefined, index?: GraphIndex): void {
    const src = model.ui.source;
    const scope = scopeLabel(model.ui.scope, index);
    this.source.textContent = !src
      ? 'Ownership graph'
      : src.kind === 'cluster'
        ? `Live cluster ${src.context}${scope ? ` · ${scope}` : ''}`
        : 'Workspace';
    this.scopeButton.hidden = src?.kind !== 'cluster' || !model.ui.scope;
    if (document.activeElement !== this.search && this.search.value !== model.ui.search) this.search.value = model.ui.search;
    this.searchCount.textContent =
      model.ui.search.trim() && view ? `${view.matches.length} match${view.matches.length === 1 ? '' : 'es'}` : '';
    this.legendButton.setAttribute('aria-pressed', String(model.ui.legend));
    this.detailsButton.setAttribute('aria-pressed', String(model.ui.details));
    if (!view) {
      this.counts.textContent = '';
      return;
    }
    this.counts.textContent = `${view.total - view.hidden} of ${view.total} objects${view.hidden ? ` · ${view.hidden} hidden by filters` : ''}`;
    const facets: Record<FilterDimension, [string, number][]> = view.facets;
    for (const { dimension, title } of DIMENSIONS) {
      const menu = this.menus.get(dimension)!;
      const hidden = model.ui.hidden[dimension] as string[];
      const choices = facets[dimension];
      // Hidden choices stay listed even when nothing in scope has them any more, so they can be shown again.
      for (const value of hidden) if (!choices.some(([c]) => c === value)) choices.push([value, 0]);
      const key = JSON.stringify([choices, hidden]);
      const hiddenCount = hidden.length;
      menu.summary.textContent = hiddenCount ? `${title} (${hiddenCount} hidden)` : title;
      if (menu.key === key) continue;
      menu.key = key;
      const values = choices.map(([value]) => value);
      const rows = choices.map(([value, count]) => {
        const box = h('input', { type: 'checkbox', checked: !hidden.includes(value) });
        box.addEventListener('change', () => this.actions.dispatch({ type: 'toggleHidden', dimension, value }));
        const label =
          dimension === 'states'
            ? STATE_LABELS[value as StateTag]
            : dimension === 'namespaces' && value === ''
              ? '(cluster-scoped)'
              : value;
        const only = h('button', { type: 'button', class: 'only', title: `Show only ${label}`, 'aria-label': `Only ${label}` }, 'only');
        only.addEventListener('click', (e) => {
          e.preventDefault();
          this.actions.dispatch({ type: 'showOnly', dimension, value, values });
        });
        return h(
          'div',
          { class: `choice-row${dimension === 'states' ? ` state-${value}` : ''}`, 'data-value': value },
          h(
            'label',
            { class: `choice${dimension === 'states' ? ` state-${value}` : ''}` },
            box,
            h('span', { class: 'choice-label' }, label),
            h('span', { class: 'count' }, String(count)),
          ),
          only,
        );
      });
      const all = h('button', { type: 'button', class: 'show-all' }, 'Show all');
      all.addEventListener('click', () => this.actions.dispatch({ type: 'showAll', dimension }));
      const none = h('button', { type: 'button', class: 'hide-all' }, 'None');
      none.addEventListener('click', () => this.actions.dispatch({ type: 'hideAll', dimension, values }));
      replaceChildren(
        menu.list,
        ...rows,
        rows.length ? h('div', { class: 'menu-actions' }, all, none) : h('span', { class: 'empty' }, 'Nothing to filter'),
      );
      this.filterRows(dimension);
    }
  }

  /** Hides the rows the type-to-filter box does not match (every word must). */
  private filterRows(dimension: FilterDimension): void {
    if (dimension !== 'namespaces') return;
    const terms = this.namespaceFilter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const row of this.menus.get(dimension)!.list.querySelectorAll<HTMLElement>('.choice-row')) {
      const value = (row.dataset.value || '(cluster-scoped)').toLowerCase();
      row.hidden = !terms.every((t) => value.includes(t));
    }
  }
}

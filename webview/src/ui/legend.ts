// The legend: node states, kind colours, edge styles and the keyboard, drawn with the same classes as the graph.

import type { KindCategory } from '../model/kinds';
import { h, s } from './dom';

const STATES: [string, string, string][] = [
  ['st-present', 'present', 'Present'],
  ['st-virtual', 'virtual', 'Virtual: an owner that is referenced but not there'],
  ['st-being-deleted', 'being-deleted', 'Being deleted (has a deletionTimestamp)'],
  ['st-deleting-dependents', 'deleting-dependents', 'Deleting its dependents first (foreground)'],
  ['st-stuck', 'stuck', 'Stuck: being deleted and cannot finish'],
  ['st-present tag-dangling', 'dangling', 'Dangling: an ownerReference that does not resolve'],
  ['st-present tag-finding', 'finding', '⚠ n: findings on it'],
];

/** Under a simulation: told apart by shape and text as well as colour. */
const SIMULATION: [string, string][] = [
  ['st-present ov-removed', '✕ removed by the simulation (dashed, name struck through)'],
  ['st-present ov-stuck', '⊘ stuck at the end (double outline, with why)'],
  ['st-present dim', 'not touched by the simulation (faded)'],
];

const CATEGORIES: [KindCategory, string][] = [
  ['workload', 'Workloads (Deployment, ReplicaSet, Pod, Job…)'],
  ['network', 'Network (Service, EndpointSlice, Ingress)'],
  ['config', 'Configuration (ConfigMap, Secret, RBAC)'],
  ['storage', 'Storage (PVC, PV)'],
  ['cluster', 'Cluster (Namespace, CRD, Node)'],
  ['custom', 'Custom resources'],
];

const EDGES: [string, string][] = [
  ['edge controller', 'controller: true (the managing controller)'],
  ['edge reference', 'controller: false (an owner for garbage collection only)'],
  ['edge controller block', 'blockOwnerDeletion: the dot is at the owner, which a foreground deletion holds'],
  ['edge reference dangling', 'to an owner that is not there'],
  ['edge reference cycle', 'closes an ownership cycle'],
  ['edge reference cut', 'cut: the simulation orphaned the dependent'],
];

const KEYS: [string, string][] = [
  ['← ↑ → ↓', 'move: ↑ to an owner, ↓ to a dependent, ← → along the row'],
  ['Enter', 'reveal in the manifest (a group: expand)'],
  ['Space', 'expand or collapse a group'],
  ['+ − 0', 'zoom in, out, fit'],
  ['/', 'search (Enter: next match)'],
  ['Esc', 'clear the selection, then the focus'],
];

export function legend(): HTMLElement {
  const swatch = (cls: string) =>
    s(
      'svg',
      { class: 'swatch', width: 30, height: 16, 'aria-hidden': 'true' },
      s(
        'g',
        { class: `node ${cls}` },
        s('rect', { class: 'outline', x: 0, y: 0, width: 30, height: 16, rx: 4 }),
        s('rect', { class: 'box', x: 2.5, y: 2.5, width: 25, height: 11, rx: 3 }),
        s('rect', { class: 'stripe', x: 2.5, y: 2.5, width: 4, height: 11 }),
      ),
    );
  const line = (cls: string) =>
    s(
      'svg',
      { class: 'swatch', width: 30, height: 16, 'aria-hidden': 'true' },
      s('path', { class: cls, d: 'M2,8 L28,8', 'marker-start': cls.includes('block') ? 'url(#kgl-block)' : undefined }),
    );
  return h(
    'aside',
    { class: 'legend', 'aria-label': 'Legend' },
    h('h2', {}, 'Legend'),
    h('h3', {}, 'Objects'),
    h('ul', {}, ...STATES.map(([cls, , text]) => h('li', {}, swatch(`${cls} cat-workload`), text))),
    h('h3', {}, 'Simulation'),
    h('ul', {}, ...SIMULATION.map(([cls, text]) => h('li', {}, swatch(`${cls} cat-workload`), text))),
    h('h3', {}, 'Namespaces'),
    h(
      'p',
      {},
      'A box holds the objects of one namespace, its Namespace object in the corner. Zoomed out (more than 100 objects), each namespace is one box with its counts and kinds: click it, or zoom in, to see its objects.',
    ),
    h('h3', {}, 'Kinds'),
    h('ul', {}, ...CATEGORIES.map(([c, text]) => h('li', {}, swatch(`st-present cat-${c}`), text))),
    h('h3', {}, 'Ownership'),
    h('ul', {}, ...EDGES.map(([cls, text]) => h('li', {}, line(cls), text))),
    h('p', {}, 'A fan-out of more than 12 objects of one kind under one owner is collapsed ("437 Pods"): click it, or Enter, to expand.'),
    h('h3', {}, 'Keyboard (graph focused)'),
    h('dl', { class: 'keys' }, ...KEYS.flatMap(([k, text]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, text)])),
  );
}

/** The markers every SVG of the page refers to (the graph's edges and the legend's): drawn once, hidden. */
export function markerDefs(): SVGSVGElement {
  return s(
    'svg',
    { class: 'defs', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false' },
    s(
      'defs',
      {},
      // blockOwnerDeletion: a dot at the owner's end of the edge.
      s(
        'marker',
        { id: 'kgl-block', viewBox: '0 0 8 8', refX: 4, refY: 4, markerWidth: 7, markerHeight: 7, markerUnits: 'userSpaceOnUse' },
        s('circle', { cx: 4, cy: 4, r: 3.2, class: 'block-marker' }),
      ),
    ),
  );
}

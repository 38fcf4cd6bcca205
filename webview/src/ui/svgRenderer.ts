// The SVG renderer: one <g> per node (classes carry its state, styles.css colours them from the theme), one <path>
// per edge, everything inside a group that d3-zoom's transform moves. Names are SVG text nodes (textContent).

import { NODE_HEIGHT, NODE_WIDTH, type Point } from '../model/layout';
import { kindCategory } from '../model/kinds';
import { boxName, boxSummary } from '../model/namespaces';
import { edgeOverlay, isDimmed, nameLine, nodeBadge, nodeOverlay, subline, truncate, zoomLevel, type Scene } from '../model/scene';
import type { Zoom } from '../model/state';
import type { ViewEdge, ViewNode } from '../model/viewModel';
import { s } from './dom';
import type { Renderer } from './renderer';
import { LOD_TEXT } from './canvasRenderer';

interface NodeEls {
  g: SVGGElement;
  title: SVGTitleElement;
  name: SVGTextElement;
  sub: SVGTextElement;
  findings: SVGTextElement;
  domId: string;
  key: string;
}

export class SvgRenderer implements Renderer {
  readonly kind = 'svg';
  readonly element: SVGSVGElement;
  private readonly viewport: SVGGElement;
  private readonly boxLayer: SVGGElement;
  private readonly edgeLayer: SVGGElement;
  private boxCount = 0;
  private transform: Zoom = { k: 1, x: 0, y: 0 };
  private overviewTexts: SVGTextElement[] = [];
  private readonly nodeLayer: SVGGElement;
  private nodes = new Map<string, NodeEls>();
  private edges = new Map<string, SVGPathElement>();
  private nextDomId = 0;

  constructor() {
    this.element = s('svg', { class: 'graph-svg', 'aria-hidden': 'false', focusable: 'false' });
    this.viewport = s('g', { class: 'viewport' });
    this.boxLayer = s('g', { class: 'namespaces' });
    this.edgeLayer = s('g', { class: 'edges' });
    this.nodeLayer = s('g', { class: 'nodes' });
    this.viewport.append(this.boxLayer, this.edgeLayer, this.nodeLayer);
    this.element.append(this.viewport); // markers: legend.ts markerDefs()
  }

  setScene(scene: Scene, searching: boolean, structure: boolean): void {
    if (structure) {
      this.syncStructure(scene);
      this.setTransform(this.transform); // the level of detail depends on what is drawn too
    }
    for (const n of scene.view.nodes) {
      const els = this.nodes.get(n.id);
      if (!els) continue;
      const overlay = nodeOverlay(n, scene.frame);
      const cls = ['node', `st-${n.status}`, `cat-${kindCategory(n.kind)}`];
      if (n.members) cls.push('group');
      if (n.tags.includes('dangling')) cls.push('tag-dangling');
      if (n.findings) cls.push('tag-finding');
      if (n.id === scene.selected) cls.push('selected');
      if (n.match) cls.push('match');
      if (overlay.state) cls.push(`ov-${overlay.state}`);
      if (overlay.current) cls.push('current');
      if (isDimmed(n, overlay, scene, searching)) cls.push('dim');
      setIf(els.g, 'class', cls.join(' '));
      setText(els.sub, subline(n, overlay));
      const label =
        overlay.state === 'stuck'
          ? `${n.description}; stuck: ${overlay.reason ?? ''}`
          : overlay.state === 'removed'
            ? `${n.description}; removed by the simulation`
            : n.description;
      setIf(els.g, 'aria-label', label);
      setText(els.title, label);
      if (n.id === scene.selected) setIf(els.g, 'aria-selected', 'true');
      else els.g.removeAttribute('aria-selected');
    }
    for (const e of scene.view.edges) {
      const path = this.edges.get(e.id);
      if (!path) continue;
      const overlay = edgeOverlay(e, scene.view, scene.frame);
      const cls = ['edge', e.controller ? 'controller' : 'reference'];
      if (e.blockOwnerDeletion) cls.push('block');
      if (e.dangling) cls.push('dangling');
      if (scene.reversed.has(e.id)) cls.push('cycle');
      if (overlay) cls.push(overlay);
      if (e.owner === scene.selected || e.dependent === scene.selected) cls.push('selected');
      setIf(path, 'class', cls.join(' '));
    }
  }

  /** The namespaces' containers: an outline, the label strip, and the overview's aggregate text (scaled in setTransform). */
  private syncBoxes(scene: Scene): void {
    this.overviewTexts = [];
    this.boxCount = scene.boxes.length;
    this.boxLayer.replaceChildren(
      ...scene.boxes.map((b, i) => {
        const stuck = b.states.stuck ?? 0;
        // The overview's text stays inside its box (a narrow box would spill it onto its neighbours).
        const clipId = `kgl-ns-clip-${i}`;
        const kindLines: string[] = [];
        for (let k = 0; k < Math.min(b.kinds.length, 6); k += 2)
          kindLines.push(
            b.kinds
              .slice(k, k + 2)
              .map((x) => `${x.kind} ${x.objects}${x.stuck ? ` (${x.stuck} stuck)` : ''}`)
              .join(' · '),
          );
        const overview = s(
          'text',
          { class: 'ns-overview', x: b.x + 8, y: b.y + 8, 'clip-path': `url(#${clipId})` },
          s('tspan', { class: 'ns-name', x: b.x + 8, dy: '1em' }, boxName(b)),
          s('tspan', { class: 'ns-counts', x: b.x + 8, dy: '1.3em' }, boxSummary(b).slice(boxName(b).length + 2)),
          ...kindLines.map((line) => s('tspan', { class: 'ns-kinds', x: b.x + 8, dy: '1.3em' }, line)),
        );
        this.overviewTexts.push(overview);
        return s(
          'g',
          { class: `ns-box${stuck ? ' ns-stuck' : ''}`, 'data-namespace': b.namespace },
          s('title', {}, boxSummary(b)),
          s('clipPath', { id: clipId }, s('rect', { x: b.x, y: b.y, width: b.width, height: b.height })),
          s('rect', { class: 'ns-outline', x: b.x, y: b.y, width: b.width, height: b.height, rx: 6 }),
          s('text', { class: 'ns-label', x: b.x + 8, y: b.y + 18 }, truncate(boxSummary(b), Math.max(8, Math.floor(b.width / 7.5)), 'end')),
          overview,
        );
      }),
    );
  }

  private syncStructure(scene: Scene): void {
    this.syncBoxes(scene);
    const keepNodes = new Set<string>();
    for (const n of scene.view.nodes) {
      const p = scene.positions.get(n.id);
      if (!p) continue;
      keepNodes.add(n.id);
      const key = `${n.kind}\u0000${n.name}\u0000${n.findings}`;
      let els = this.nodes.get(n.id);
      if (els && els.key !== key) {
        els.g.remove();
        els = undefined;
      }
      if (!els) {
        els = this.createNode(n, key);
        this.nodes.set(n.id, els);
        this.nodeLayer.append(els.g);
      }
      setIf(els.g, 'transform', `translate(${round(p.x - NODE_WIDTH / 2)},${round(p.y - NODE_HEIGHT / 2)})`);
    }
    for (const [id, els] of this.nodes) {
      if (keepNodes.has(id)) continue;
      els.g.remove();
      this.nodes.delete(id);
    }
    const keepEdges = new Set<string>();
    for (const e of scene.view.edges) {
      const a = scene.positions.get(e.owner);
      const b = scene.positions.get(e.dependent);
      if (!a || !b) continue;
      keepEdges.add(e.id);
      let path = this.edges.get(e.id);
      if (!path) {
        path = s('path', {});
        this.edges.set(e.id, path);
        this.edgeLayer.append(path);
      }
      setIf(path, 'd', edgePath(a, b, scene.reversed.has(e.id)));
      if (e.blockOwnerDeletion) setIf(path, 'marker-start', 'url(#kgl-block)');
      else path.removeAttribute('marker-start');
      edgeTitle(path, e);
    }
    for (const [id, path] of this.edges) {
      if (keepEdges.has(id)) continue;
      path.remove();
      this.edges.delete(id);
    }
  }

  private createNode(n: ViewNode, key: string): NodeEls {
    const domId = `kgl-node-${this.nextDomId++}`;
    const title = s('title', {});
    const name = s('text', { class: 'name', x: 56, y: 18 }, nameLine(n));
    const sub = s('text', { class: 'sub', x: 12, y: 35 });
    const findings = s('text', { class: 'findings', x: NODE_WIDTH - 8, y: 16, 'text-anchor': 'end' }, n.findings ? `⚠ ${n.findings}` : '');
    const g = s(
      'g',
      { id: domId, 'data-id': n.id, role: 'button' },
      title,
      s('rect', { class: 'outline', x: -4, y: -4, width: NODE_WIDTH + 8, height: NODE_HEIGHT + 8, rx: 8 }),
      s('rect', { class: 'box', width: NODE_WIDTH, height: NODE_HEIGHT, rx: 5 }),
      s('rect', { class: 'stripe', width: 5, height: NODE_HEIGHT, rx: 2 }),
      s('text', { class: 'badge', x: 12, y: 18 }, nodeBadge(n)),
      name,
      sub,
      findings,
      n.members ? s('text', { class: 'expand', x: NODE_WIDTH - 8, y: 36, 'text-anchor': 'end' }, '⊕') : undefined,
    );
    return { g, title, name, sub, findings, domId, key };
  }

  setTransform(t: Zoom): void {
    this.transform = t;
    this.viewport.setAttribute('transform', `translate(${t.x},${t.y}) scale(${t.k})`);
    // Too small to read: boxes only (as the canvas renderer), which keeps zooming smooth.
    const boxes = t.k < LOD_TEXT;
    if (boxes !== this.element.classList.contains('lod-boxes')) this.element.classList.toggle('lod-boxes', boxes);
    // Semantic zoom: at the overview, namespaces' aggregates only, their text in screen pixels.
    const overview = zoomLevel(t.k, this.boxCount, this.nodes.size) === 'overview';
    if (overview !== this.element.classList.contains('lod-overview')) this.element.classList.toggle('lod-overview', overview);
    if (overview) for (const text of this.overviewTexts) setIf(text, 'font-size', (12 / t.k).toFixed(1));
  }

  nodeAt(clientX: number, clientY: number): string | undefined {
    const el = document.elementFromPoint(clientX, clientY)?.closest('[data-id]');
    return el?.getAttribute('data-id') ?? undefined;
  }

  domIdOf(id: string): string | undefined {
    return this.nodes.get(id)?.domId;
  }

  resize(): void {
    // The SVG fills its container (styles.css); nothing to do.
  }

  destroy(): void {
    this.element.remove();
    this.nodes.clear();
    this.edges.clear();
  }
}

/** From the owner's bottom to the dependent's top; a cycle's reversed edge goes from the owner's top instead. */
export function edgePath(owner: Point, dependent: Point, reversed: boolean): string {
  const x1 = round(owner.x);
  const y1 = round(reversed ? owner.y - NODE_HEIGHT / 2 : owner.y + NODE_HEIGHT / 2);
  const x2 = round(dependent.x);
  const y2 = round(reversed ? dependent.y + NODE_HEIGHT / 2 : dependent.y - NODE_HEIGHT / 2);
  if (reversed) {
    const bend = Math.max(40, Math.abs(y2 - y1) / 2);
    return `M${x1},${y1} C${x1 + bend},${y1 - bend} ${x2 + bend},${y2 + bend} ${x2},${y2}`;
  }
  // (4 px below the owner: the blockOwnerDeletion dot sits there, clear of the box.)
  const my = round((y1 + y2) / 2);
  return `M${x1},${y1 + 4} C${x1},${my} ${x2},${my} ${x2},${y2}`;
}

function edgeTitle(path: SVGPathElement, e: ViewEdge): void {
  const text = `${e.controller ? 'controller' : 'owner'} reference${e.blockOwnerDeletion ? ', blockOwnerDeletion' : ''}${e.dangling ? ', dangling (owner not found)' : ''}${e.members ? `, ${e.members} references` : ''}`;
  let title = path.firstChild as SVGTitleElement | null;
  if (!title) {
    title = s('title', {});
    path.append(title);
  }
  setText(title, text);
}

const round = (n: number) => Math.round(n * 10) / 10;

function setIf(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

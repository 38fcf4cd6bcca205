// The canvas renderer, for graphs too large for one DOM element per node to pan smoothly (ARCHITECTURE.md: SVG vs
// canvas). Each frame draws only what is in view, and less detail when zoomed out (no text below LOD_TEXT, plain
// boxes below LOD_BOXES). A grid of node boxes answers "which node is under the mouse". drawScene also renders
// the PNG export.

import { NODE_HEIGHT, NODE_WIDTH, type Point } from '../model/layout';
import { kindCategory } from '../model/kinds';
import { edgePaint, nodePaint, type Palette } from '../model/palette';
import { boxName, boxSummary, type NamespaceBox } from '../model/namespaces';
import { edgeOverlay, isDimmed, nameLine, nodeBadge, nodeOverlay, subline, truncate, zoomLevel, type Scene } from '../model/scene';
import type { Zoom } from '../model/state';
import type { Renderer } from './renderer';
import { h } from './dom';

/** Below this scale names are too small to read: no text is drawn (both renderers). */
export const LOD_TEXT = 0.45;
const LOD_BOXES = 0.18;
const CELL = 512;

export class CanvasRenderer implements Renderer {
  readonly kind = 'canvas';
  readonly element: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private scene: Scene | undefined;
  private searching = false;
  private transform: Zoom = { k: 1, x: 0, y: 0 };
  private frameRequested = false;
  private grid = new Map<string, string[]>();
  private width = 0;
  private height = 0;
  /** Frames drawn (the benchmark reads it). */
  frames = 0;

  constructor(private palette: () => Palette) {
    this.element = h('canvas', {
      class: 'graph-canvas',
      role: 'img',
      'aria-label': 'Ownership graph (drawn on a canvas: use the arrow keys to move between objects)',
    });
    this.ctx = this.element.getContext('2d', { alpha: false })!;
  }

  setScene(scene: Scene, searching: boolean, structure: boolean): void {
    this.scene = scene;
    this.searching = searching;
    if (structure) this.buildGrid(scene);
    this.request();
  }

  setTransform(t: Zoom): void {
    this.transform = t;
    this.request();
  }

  /** The palette changed (theme switch): redraw. */
  repaint(): void {
    this.request();
  }

  nodeAt(clientX: number, clientY: number): string | undefined {
    const r = this.element.getBoundingClientRect();
    const t = this.transform;
    const x = (clientX - r.left - t.x) / t.k;
    const y = (clientY - r.top - t.y) / t.k;
    for (const id of this.grid.get(`${Math.floor(x / CELL)},${Math.floor(y / CELL)}`) ?? []) {
      const p = this.scene?.positions.get(id);
      if (p && Math.abs(p.x - x) <= NODE_WIDTH / 2 && Math.abs(p.y - y) <= NODE_HEIGHT / 2) return id;
    }
    return undefined;
  }

  domIdOf(): string | undefined {
    return undefined;
  }

  resize(): void {
    const parent = this.element.parentElement;
    if (!parent) return;
    const dpr = window.devicePixelRatio || 1;
    this.width = parent.clientWidth;
    this.height = parent.clientHeight;
    this.element.width = Math.max(1, Math.round(this.width * dpr));
    this.element.height = Math.max(1, Math.round(this.height * dpr));
    this.request();
  }

  destroy(): void {
    this.element.remove();
    this.scene = undefined;
  }

  private buildGrid(scene: Scene): void {
    this.grid = new Map();
    for (const [id, p] of scene.positions) {
      if (!scene.view.byId.has(id)) continue;
      const x0 = Math.floor((p.x - NODE_WIDTH / 2) / CELL);
      const x1 = Math.floor((p.x + NODE_WIDTH / 2) / CELL);
      const y0 = Math.floor((p.y - NODE_HEIGHT / 2) / CELL);
      const y1 = Math.floor((p.y + NODE_HEIGHT / 2) / CELL);
      for (let i = x0; i <= x1; i++) {
        for (let j = y0; j <= y1; j++) {
          const k = `${i},${j}`;
          const l = this.grid.get(k);
          if (l) l.push(id);
          else this.grid.set(k, [id]);
        }
      }
    }
  }

  private request(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.draw();
    });
  }

  private draw(): void {
    if (!this.scene) return;
    if (this.width === 0) this.resize();
    const dpr = window.devicePixelRatio || 1;
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawScene(ctx, this.scene, this.palette(), this.transform, { width: this.width, height: this.height }, this.searching);
    this.frames++;
  }
}

/** Draws `scene` as seen through `t` into a viewport of `size` CSS pixels (the context's transform maps those). */
export function drawScene(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
  p: Palette,
  t: Zoom,
  size: { width: number; height: number },
  searching: boolean,
): void {
  ctx.save();
  ctx.fillStyle = p.background;
  ctx.fillRect(0, 0, size.width, size.height);
  ctx.translate(t.x, t.y);
  ctx.scale(t.k, t.k);
  // What is in view, in graph coordinates, with a node's size of margin.
  const minX = -t.x / t.k - NODE_WIDTH;
  const minY = -t.y / t.k - NODE_HEIGHT;
  const maxX = (size.width - t.x) / t.k + NODE_WIDTH;
  const maxY = (size.height - t.y) / t.k + NODE_HEIGHT;
  const inView = (q: Point) => q.x >= minX && q.x <= maxX && q.y >= minY && q.y <= maxY;
  const boxInView = (b: NamespaceBox) => b.x + b.width >= minX && b.x <= maxX && b.y + b.height >= minY && b.y <= maxY;

  // Semantic zoom: at the overview level, each namespace is one aggregate box, and nothing else is drawn.
  if (zoomLevel(t.k, scene.boxes.length, scene.view.nodes.length) === 'overview') {
    for (const b of scene.boxes) if (boxInView(b)) drawAggregate(ctx, b, p, t.k);
    ctx.restore();
    return;
  }
  // Namespaces' containers, under everything.
  for (const b of scene.boxes) if (boxInView(b)) drawContainer(ctx, b, p, t.k);

  // Edges.
  const pos = scene.positions;
  for (const e of scene.view.edges) {
    const a = pos.get(e.owner);
    const b = pos.get(e.dependent);
    if (!a || !b) continue;
    if (!inView(a) && !inView(b) && !crosses(a, b, minX, minY, maxX, maxY)) continue;
    const reversed = scene.reversed.has(e.id);
    const overlay = edgeOverlay(e, scene.view, scene.frame);
    const dim = scene.frame !== undefined || searching;
    const paint = edgePaint(p, e, reversed, overlay, dim && !(e.owner === scene.selected || e.dependent === scene.selected));
    ctx.globalAlpha = paint.opacity;
    ctx.strokeStyle = e.owner === scene.selected || e.dependent === scene.selected ? p.focus : paint.stroke;
    ctx.lineWidth = paint.width;
    ctx.setLineDash(paint.dash);
    ctx.beginPath();
    const y1 = reversed ? a.y - NODE_HEIGHT / 2 : a.y + NODE_HEIGHT / 2;
    const y2 = reversed ? b.y + NODE_HEIGHT / 2 : b.y - NODE_HEIGHT / 2;
    ctx.moveTo(a.x, y1);
    if (reversed) {
      const bend = Math.max(40, Math.abs(y2 - y1) / 2);
      ctx.bezierCurveTo(a.x + bend, y1 - bend, b.x + bend, y2 + bend, b.x, y2);
    } else {
      const my = (y1 + y2) / 2;
      ctx.bezierCurveTo(a.x, my, b.x, my, b.x, y2);
    }
    ctx.stroke();
    if (e.blockOwnerDeletion && t.k >= LOD_BOXES) {
      ctx.setLineDash([]);
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.arc(a.x, y1 + 4, 3, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  ctx.setLineDash([]);

  // Nodes.
  const text = t.k >= LOD_TEXT;
  const boxesOnly = t.k < LOD_BOXES;
  if (text) ctx.textBaseline = 'alphabetic';
  for (const n of scene.view.nodes) {
    const q = pos.get(n.id);
    if (!q || !inView(q)) continue;
    const overlay = nodeOverlay(n, scene.frame);
    const paint = nodePaint(p, n.status, overlay, n.id === scene.selected, isDimmed(n, overlay, scene, searching));
    const x = q.x - NODE_WIDTH / 2;
    const y = q.y - NODE_HEIGHT / 2;
    const category = p.categories[kindCategory(n.kind)];
    ctx.globalAlpha = paint.opacity;
    if (boxesOnly) {
      ctx.fillStyle = paint.stroke === p.border ? category : paint.stroke;
      ctx.fillRect(x, y, NODE_WIDTH, NODE_HEIGHT);
      continue;
    }
    ctx.fillStyle = p.nodeFill;
    ctx.fillRect(x, y, NODE_WIDTH, NODE_HEIGHT);
    ctx.fillStyle = category;
    ctx.fillRect(x, y, 5, NODE_HEIGHT);
    ctx.strokeStyle = paint.stroke;
    ctx.lineWidth = paint.strokeWidth;
    ctx.setLineDash(paint.dash);
    ctx.strokeRect(x, y, NODE_WIDTH, NODE_HEIGHT);
    ctx.setLineDash([]);
    if (paint.double) {
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x - 4, y - 4, NODE_WIDTH + 8, NODE_HEIGHT + 8);
    }
    if (n.match && searching) {
      ctx.strokeStyle = p.match;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 3, y - 3, NODE_WIDTH + 6, NODE_HEIGHT + 6);
    }
    if (!text) continue;
    ctx.font = `600 10px ${p.fontFamily}`;
    ctx.fillStyle = category;
    ctx.fillText(nodeBadge(n), x + 12, y + 18);
    ctx.font = `12px ${p.fontFamily}`;
    ctx.fillStyle = p.foreground;
    const name = nameLine(n);
    ctx.fillText(name, x + 56, y + 18);
    if (paint.strike) ctx.fillRect(x + 56, y + 14, ctx.measureText(name).width, 1);
    ctx.font = `10.5px ${p.fontFamily}`;
    ctx.fillStyle = overlay.state === 'stuck' ? p.error : p.muted;
    ctx.fillText(subline(n, overlay), x + 12, y + 35);
    if (n.findings) {
      ctx.fillStyle = p.warning;
      ctx.textAlign = 'end';
      ctx.fillText(`⚠ ${n.findings}`, x + NODE_WIDTH - 8, y + 16);
      ctx.textAlign = 'start';
    }
  }
  ctx.globalAlpha = 1;
  ctx.restore();
}

/** Whether the segment's box overlaps the view (an edge whose ends are both outside can still cross it). */
function crosses(a: Point, b: Point, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return Math.max(a.x, b.x) >= minX && Math.min(a.x, b.x) <= maxX && Math.max(a.y, b.y) >= minY && Math.min(a.y, b.y) <= maxY;
}

/** A namespace's container at the objects level: an outline and its name in the label strip. */
function drawContainer(ctx: CanvasRenderingContext2D, b: NamespaceBox, p: Palette, k: number): void {
  ctx.globalAlpha = 1;
  ctx.strokeStyle = p.border;
  ctx.lineWidth = 1 / Math.max(k, 0.5);
  ctx.setLineDash([]);
  ctx.strokeRect(b.x, b.y, b.width, b.height);
  if (k < LOD_BOXES) return;
  ctx.fillStyle = p.muted;
  ctx.font = `600 12px ${p.fontFamily}`;
  ctx.textBaseline = 'alphabetic';
  ctx.fillText(fitText(ctx, boxSummary(b), b.width - 16, 'end'), b.x + 8, b.y + 18);
}

/** `text` cut (truncate's way) to the longest that is at most `width` wide in the context's font. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number, cut: 'middle' | 'end' | 'tail'): string {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 1;
  let hi = [...text].length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(truncate(text, mid, cut)).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return truncate(text, lo, cut);
}

/**
 * A namespace at the overview level: a filled box (a stuck object in it: a thick red double outline), its name and
 * counts, and a chip per kind ("Pod 120", "2 stuck") while they fit. Text is sized in screen pixels.
 */
function drawAggregate(ctx: CanvasRenderingContext2D, b: NamespaceBox, p: Palette, k: number): void {
  const px = 1 / k; // one screen pixel in graph units
  const stuck = b.states.stuck ?? 0;
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
  ctx.fillStyle = p.nodeFill;
  ctx.fillRect(b.x, b.y, b.width, b.height);
  ctx.strokeStyle = stuck ? p.error : p.border;
  ctx.lineWidth = (stuck ? 2.5 : 1) * px;
  ctx.strokeRect(b.x, b.y, b.width, b.height);
  if (stuck) ctx.strokeRect(b.x - 4 * px, b.y - 4 * px, b.width + 8 * px, b.height + 8 * px);
  const w = b.width * k; // on screen
  const h = b.height * k;
  if (w < 36 || h < 16) return;
  const room = b.width - 12 * px;
  const x = b.x + 6 * px;
  let y = b.y + 16 * px;
  ctx.save();
  ctx.beginPath();
  ctx.rect(b.x, b.y, b.width, b.height);
  ctx.clip();
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = p.foreground;
  ctx.font = `600 ${13 * px}px ${p.fontFamily}`;
  ctx.fillText(fitText(ctx, boxName(b), room, 'tail'), x, y);
  if (h < 34) {
    ctx.restore();
    return;
  }
  y += 15 * px;
  ctx.font = `${11 * px}px ${p.fontFamily}`;
  ctx.fillStyle = stuck ? p.error : p.muted;
  ctx.fillText(fitText(ctx, boxSummary(b).slice(boxName(b).length + 2), room, 'end'), x, y);
  // Kinds as chips, in rows, while they fit.
  let cx = x;
  let cy = y + 8 * px;
  const chipH = 16 * px;
  ctx.font = `${10.5 * px}px ${p.fontFamily}`;
  for (const kind of b.kinds) {
    const label = `${kind.kind} ${kind.objects}${kind.stuck ? ` · ${kind.stuck} stuck` : ''}`;
    const cw = ctx.measureText(label).width + 12 * px;
    if (cx > x && cx + cw > b.x + b.width - 4 * px) {
      cx = x;
      cy += chipH + 4 * px;
    }
    if (cy + chipH > b.y + b.height - 4 * px || cw > b.width - 8 * px) break;
    ctx.fillStyle = p.categories[kindCategory(kind.kind)];
    ctx.globalAlpha = 0.22;
    ctx.fillRect(cx, cy, cw, chipH);
    ctx.globalAlpha = 1;
    ctx.fillRect(cx, cy, 3 * px, chipH);
    ctx.fillStyle = kind.stuck ? p.error : p.foreground;
    ctx.fillText(label, cx + 7 * px, cy + 11.5 * px);
    cx += cw + 4 * px;
  }
  ctx.restore();
}

// Exports of what is shown (the nodes and edges of the current view, with the simulation frame if one is
// playing): DOT for Graphviz and a self-contained SVG (concrete colours, no CSS variables, no script). Every
// name is escaped for its format. Pure (no DOM).

import { boundsOf, NODE_HEIGHT, NODE_WIDTH, type Point } from './layout';
import { kindCategory } from './kinds';
import { boxSummary, type NamespaceBox } from './namespaces';
import { edgePaint, nodePaint, type Palette } from './palette';
import type { PlaybackFrame } from './playback';
import { edgeOverlay, nameLine, nodeBadge, nodeOverlay, subline } from './scene';
import { describeObject, STATE_LABELS, type GraphView } from './viewModel';

/** A DOT double-quoted string: backslashes and quotes escaped, controls removed, line breaks as `\n`. */
export function dotString(s: string): string {
  return `"${s
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')}"`;
}

export function toDot(view: GraphView, frame?: PlaybackFrame): string {
  const out = [
    '// The ownership graph as Kube GC Lens shows it: owners above dependents (edges owner -> dependent).',
    'digraph ownership {',
    '  rankdir=TB;',
    '  node [shape=box, style="rounded", fontname="Helvetica"];',
  ];
  for (const n of view.nodes) {
    const o = nodeOverlay(n, frame);
    const state =
      o.state === 'removed' ? 'removed by the simulation' : o.state === 'stuck' ? `stuck: ${o.reason ?? ''}` : STATE_LABELS[n.status];
    const label = n.members ? `${n.name}\n${n.namespace}` : `${n.kind}\n${n.namespace ? `${n.namespace}/` : ''}${n.name}\n${state}`;
    const attrs = [`label=${dotString(label)}`];
    if (n.status === 'virtual') attrs.push('style="rounded,dashed"');
    if (n.status === 'stuck' || o.state === 'stuck') attrs.push('color="red"');
    else if (n.status === 'being-deleted' || n.status === 'deleting-dependents' || o.state === 'deleting') attrs.push('color="orange"');
    if (o.state === 'removed') attrs.push('fontcolor="gray"', 'color="gray"', 'style="rounded,dotted"');
    out.push(`  ${dotString(n.id)} [${attrs.join(', ')}];`);
  }
  for (const e of view.edges) {
    const overlay = edgeOverlay(e, view, frame);
    const attrs = [`style=${e.dangling || overlay === 'cut' ? 'dotted' : e.controller ? 'solid' : 'dashed'}`];
    if (e.controller) attrs.push('penwidth=2');
    if (e.blockOwnerDeletion) attrs.push('arrowtail=dot', 'dir=both');
    if (e.dangling) attrs.push('color="red"');
    if (overlay === 'cut') attrs.push('color="red"', 'label="orphaned"');
    if (e.members) attrs.push(`label=${dotString(`${e.members} references`)}`);
    out.push(`  ${dotString(e.owner)} -> ${dotString(e.dependent)} [${attrs.join(', ')}];`);
  }
  out.push('}');
  return out.join('\n') + '\n';
}

/** Text for XML: &, <, >, quotes escaped; characters XML 1.0 cannot hold removed. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const MARGIN = 24;

/** `b` grown to hold the namespaces' containers too. */
export function withBoxes<B extends { minX: number; minY: number; maxX: number; maxY: number }>(b: B, boxes: readonly NamespaceBox[]): B {
  const out = { ...b };
  for (const box of boxes) {
    out.minX = Math.min(out.minX, box.x);
    out.minY = Math.min(out.minY, box.y);
    out.maxX = Math.max(out.maxX, box.x + box.width);
    out.maxY = Math.max(out.maxY, box.y + box.height);
  }
  return out;
}

export function toSvg(
  view: GraphView,
  positions: ReadonlyMap<string, Point>,
  palette: Palette,
  options: { frame?: PlaybackFrame; reversed?: ReadonlySet<string>; title?: string; boxes?: readonly NamespaceBox[] } = {},
): string {
  const shown = view.nodes.filter((n) => positions.has(n.id));
  const boxes = options.boxes ?? [];
  const b = withBoxes(boundsOf(shown.map((n) => positions.get(n.id)!)) ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 }, boxes);
  const w = Math.ceil(b.maxX - b.minX + 2 * MARGIN);
  const h = Math.ceil(b.maxY - b.minY + 2 * MARGIN);
  const ox = MARGIN - b.minX;
  const oy = MARGIN - b.minY;
  const f = (n: number) => Math.round(n * 10) / 10;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="${xmlText(palette.fontFamily)}" font-size="12">`,
  );
  out.push(`<title>${xmlText(options.title ?? 'Ownership graph')}</title>`);
  // The namespaces' containers, under everything.
  for (const box of boxes) {
    out.push(
      `<rect x="${f(box.x + ox)}" y="${f(box.y + oy)}" width="${f(box.width)}" height="${f(box.height)}" rx="6" fill="none" stroke="${xmlText(box.states.stuck ? palette.error : palette.border)}"/>`,
    );
    out.push(
      `<text x="${f(box.x + ox + 8)}" y="${f(box.y + oy + 18)}" fill="${xmlText(palette.muted)}" font-weight="600">${xmlText(boxSummary(box))}</text>`,
    );
  }
  out.push(`<rect width="100%" height="100%" fill="${xmlText(palette.background)}"/>`);
  out.push('<g fill="none">');
  for (const e of view.edges) {
    const a = positions.get(e.owner);
    const d = positions.get(e.dependent);
    if (!a || !d) continue;
    const paint = edgePaint(palette, e, options.reversed?.has(e.id) ?? false, edgeOverlay(e, view, options.frame), false);
    const x1 = f(a.x + ox);
    const y1 = f(a.y + oy + NODE_HEIGHT / 2);
    const x2 = f(d.x + ox);
    const y2 = f(d.y + oy - NODE_HEIGHT / 2);
    const my = f((y1 + y2) / 2);
    out.push(
      `<path d="M${x1},${y1} C${x1},${my} ${x2},${my} ${x2},${y2}" stroke="${xmlText(paint.stroke)}" stroke-width="${paint.width}"${paint.dash.length ? ` stroke-dasharray="${paint.dash.join(' ')}"` : ''} opacity="${paint.opacity}"/>`,
    );
    if (e.blockOwnerDeletion)
      out.push(`<circle cx="${x1}" cy="${f(y1 + 4)}" r="3" fill="${xmlText(paint.stroke)}" opacity="${paint.opacity}"/>`);
  }
  out.push('</g>');
  for (const n of shown) {
    const p = positions.get(n.id)!;
    const x = f(p.x + ox - NODE_WIDTH / 2);
    const y = f(p.y + oy - NODE_HEIGHT / 2);
    const overlay = nodeOverlay(n, options.frame);
    const paint = nodePaint(palette, n.status, overlay, false, false);
    const category = palette.categories[kindCategory(n.kind)];
    const label = n.object ? describeObject(n) : n.description;
    out.push(`<g opacity="${paint.opacity}"><title>${xmlText(label)}</title>`);
    out.push(
      `<rect x="${x}" y="${y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="5" fill="${xmlText(palette.nodeFill)}" stroke="${xmlText(paint.stroke)}" stroke-width="${paint.strokeWidth}"${paint.dash.length ? ` stroke-dasharray="${paint.dash.join(' ')}"` : ''}/>`,
    );
    out.push(`<rect x="${x}" y="${y}" width="5" height="${NODE_HEIGHT}" rx="2" fill="${xmlText(category)}"/>`);
    out.push(
      `<text x="${f(x + 12)}" y="${f(y + 18)}" fill="${xmlText(category)}" font-size="10" font-weight="600">${xmlText(nodeBadge(n))}</text>`,
    );
    if (paint.double)
      out.push(
        `<rect x="${f(x - 4)}" y="${f(y - 4)}" width="${NODE_WIDTH + 8}" height="${NODE_HEIGHT + 8}" rx="8" fill="none" stroke="${xmlText(paint.stroke)}" stroke-width="1.5"/>`,
      );
    out.push(
      `<text x="${f(x + 56)}" y="${f(y + 18)}" fill="${xmlText(palette.foreground)}"${paint.strike ? ' text-decoration="line-through"' : ''}>${xmlText(nameLine(n))}</text>`,
    );
    out.push(
      `<text x="${f(x + 12)}" y="${f(y + 35)}" fill="${xmlText(palette.muted)}" font-size="10.5">${xmlText(subline(n, overlay))}</text>`,
    );
    if (n.findings)
      out.push(
        `<text x="${f(x + NODE_WIDTH - 8)}" y="${f(y + 16)}" text-anchor="end" fill="${xmlText(palette.warning)}" font-size="10">⚠ ${n.findings}</text>`,
      );
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

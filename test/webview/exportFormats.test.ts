// Exports: DOT and SVG of what is shown, every name escaped for its format.

import { describe, expect, it } from 'vitest';
import { dotString, toDot, toSvg, xmlText } from '../../webview/src/model/exportFormats';
import { boxSummary, namespaceBoxes, namespacedLayout } from '../../webview/src/model/namespaces';
import { indexGraph } from '../../webview/src/model/graphIndex';
import { layeredLayout } from '../../webview/src/model/layout';
import { DEFAULT_PALETTE } from '../../webview/src/model/palette';
import { playbackFrame } from '../../webview/src/model/playback';
import { buildView } from '../../webview/src/model/viewModel';
import { deploymentReport, deploymentTree, HOSTILE_NAME, hostileGraph } from '../../testkit/webview/fixtures';

const NO_FILTERS = { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] };

describe('DOT', () => {
  it('writes nodes and owner -> dependent edges with their styles', () => {
    const view = buildView(indexGraph(deploymentTree()), { ...NO_FILTERS, hidden: { namespaces: [], kinds: ['ConfigMap'], states: [] } });
    const dot = toDot(view);
    expect(dot).toContain('digraph ownership {');
    expect(dot).toContain('"d1" [label="Deployment\\nshop/web\\npresent"];');
    expect(dot).toContain('"d1" -> "rs1" [style=solid, penwidth=2, arrowtail=dot, dir=both];');
    expect(dot).not.toContain('cm1');
    const played = toDot(view, playbackFrame(deploymentReport(), 9));
    expect(played).toContain(
      '"d1" [label="Deployment\\nshop/web\\nremoved by the simulation", fontcolor="gray", color="gray", style="rounded,dotted"];',
    );
    expect(played).toContain('stuck: waits for finalizer example.com/hold');
  });

  it('escapes quotes, backslashes and line breaks', () => {
    expect(dotString('a"b\\c\nd\u0007')).toBe('"a\\"b\\\\c\\nd "');
    const dot = toDot(buildView(indexGraph(hostileGraph()), NO_FILTERS));
    expect(dot).toContain('x\\"><img src=y onerror=alert(4)>');
    // Every line is a statement: nothing a name holds can end its string early.
    for (const line of dot.trim().split('\n').slice(4, -1)) expect(line).toMatch(/^ {2}"(?:[^"\\]|\\.)*"( -> "(?:[^"\\]|\\.)*")? \[.*\];$/);
  });
});

describe('SVG', () => {
  it('is self-contained: concrete colours, no script, names as text', () => {
    const view = buildView(indexGraph(hostileGraph()), NO_FILTERS);
    const { positions, reversed } = layeredLayout({ nodes: view.nodes, edges: view.edges });
    const svg = toSvg(view, positions, DEFAULT_PALETTE, { reversed, title: 'Ownership graph' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/<(script|img|iframe|style|foreignObject)/i);
    expect(svg).not.toContain('var(--');
    expect(svg).toContain(xmlText(HOSTILE_NAME.slice(0, 17)));
    expect(svg).toContain(DEFAULT_PALETTE.nodeFill);
  });

  it("draws the namespaces' containers, their hostile names escaped", () => {
    const index = indexGraph(hostileGraph());
    const view = buildView(index, NO_FILTERS);
    const { positions, reversed } = namespacedLayout(view);
    const boxes = namespaceBoxes(view, positions, index);
    const svg = toSvg(view, positions, DEFAULT_PALETTE, { reversed, boxes });
    expect(svg).not.toMatch(/<(script|img|iframe|style|foreignObject)/i);
    for (const box of boxes) expect(svg).toContain(`>${xmlText(boxSummary(box))}</text>`);
    expect(svg.match(/<rect [^>]*rx="6" fill="none"/g)).toHaveLength(boxes.length);
  });

  it('escapes XML and drops characters XML cannot hold', () => {
    expect(xmlText('<a href="x">&\'\u0001')).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
  });
});

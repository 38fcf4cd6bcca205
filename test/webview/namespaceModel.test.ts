// The namespaces' model (webview/src/model/namespaces.ts): containers laid out per namespace, their counts, the scope
// of Show in Graph on a Namespace; the filters' "only" and "None" (model/state.ts).

import { describe, expect, it } from 'vitest';
import { indexGraph } from '../../webview/src/model/graphIndex';
import { NODE_HEIGHT, NODE_WIDTH } from '../../webview/src/model/layout';
import { boxAt, boxSummary, homeOf, namespaceBoxes, namespacedLayout, namespaceScope } from '../../webview/src/model/namespaces';
import { truncate, zoomLevel } from '../../webview/src/model/scene';
import { initialModel, reduce } from '../../webview/src/model/state';
import { buildView } from '../../webview/src/model/viewModel';
import { namespacedGraph } from '../../testkit/webview/fixtures';

const filters = { hidden: { namespaces: [], kinds: [], states: [] }, search: '', expanded: [] };

describe('namespaces in the graph', () => {
  const index = indexGraph(namespacedGraph());
  const view = buildView(index, filters);
  const layout = namespacedLayout(view);
  const boxes = namespaceBoxes(view, layout.positions, index);

  it('draws a Namespace in the namespace it is, and every object of a namespace inside its box, without overlaps', () => {
    expect(homeOf({ kind: 'Namespace', name: 'shop', namespace: '' })).toBe('shop');
    expect(homeOf({ kind: 'Pod', name: 'p', namespace: 'shop' })).toBe('shop');
    expect(boxes.map((b) => b.namespace).sort()).toEqual(['', 'billing', 'legacy-mq', 'rabbitmq-system', 'shop']);
    for (const b of boxes)
      for (const id of b.ids) {
        const p = layout.positions.get(id)!;
        expect(p.x - NODE_WIDTH / 2).toBeGreaterThanOrEqual(b.x);
        expect(p.x + NODE_WIDTH / 2).toBeLessThanOrEqual(b.x + b.width);
        expect(p.y - NODE_HEIGHT / 2).toBeGreaterThanOrEqual(b.y);
        expect(p.y + NODE_HEIGHT / 2).toBeLessThanOrEqual(b.y + b.height);
      }
    for (const a of boxes)
      for (const b of boxes) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.namespace} / ${b.namespace}`).toBe(true);
      }
    // The Namespace object sits in its box's top-left corner, above its content.
    const legacy = boxes.find((b) => b.namespace === 'legacy-mq')!;
    expect(legacy.namespaceNode).toBe('ns-legacy-mq');
    const header = layout.positions.get('ns-legacy-mq')!;
    for (const id of legacy.ids) if (id !== 'ns-legacy-mq') expect(layout.positions.get(id)!.y).toBeGreaterThan(header.y);
    expect(boxAt(boxes, header)?.namespace).toBe('legacy-mq');
  });

  it('counts objects (a collapsed group by its members), states and kinds', () => {
    const shop = boxes.find((b) => b.namespace === 'shop')!;
    expect(shop.objects).toBe(43);
    expect(shop.kinds[0]).toEqual({ kind: 'Pod', objects: 40, stuck: 0 });
    expect(boxSummary(shop)).toBe('shop: 43 objects');
    const legacy = boxes.find((b) => b.namespace === 'legacy-mq')!;
    expect(boxSummary(legacy)).toBe('legacy-mq: 4 objects, 2 stuck');
    expect(boxSummary(boxes.find((b) => b.namespace === '')!)).toBe('cluster-scoped: 1 object');
  });

  it('Show in Graph on a Namespace: what it holds and what blocks it', () => {
    expect([...namespaceScope(index, 'legacy-mq')].sort()).toEqual(['mq-cm', 'mq-orders', 'mq-sts', 'ns-legacy-mq', 'op-deploy']);
  });

  it('semantic zoom: the overview below scale 0.3, when there are namespaces and more than 100 objects', () => {
    expect(zoomLevel(0.29, 3, 500)).toBe('overview');
    expect(zoomLevel(0.3, 3, 500)).toBe('objects');
    expect(zoomLevel(0.1, 0, 500)).toBe('objects');
    // A small view is never aggregated.
    expect(zoomLevel(0.1, 3, 100)).toBe('objects');
  });

  it('cuts names in the middle, whole code points, and sentences at the end', () => {
    expect(truncate('prometheus-operator-admission-webhook-7d9f8c6b5-x7k2q', 18)).toBe('promethe…6b5-x7k2q');
    expect(truncate('short')).toBe('short');
    expect(truncate('😀'.repeat(30), 5)).toBe('😀😀…😀😀');
    expect(truncate('waits for finalizer example.com/hold', 12, 'end')).toBe('waits for f…');
  });
});

describe('filters: only this, none', () => {
  it('hides every other value, or all of them; states keep only known tags', () => {
    let m = initialModel();
    m = reduce(m, { type: 'showOnly', dimension: 'namespaces', value: 'b', values: ['a', 'b', 'c'] });
    expect(m.ui.hidden.namespaces).toEqual(['a', 'c']);
    m = reduce(m, { type: 'hideAll', dimension: 'namespaces', values: ['a', 'b', 'c', 'a'] });
    expect(m.ui.hidden.namespaces).toEqual(['a', 'b', 'c']);
    m = reduce(m, { type: 'hideAll', dimension: 'states', values: ['stuck', 'bogus'] });
    expect(m.ui.hidden.states).toEqual(['stuck']);
    m = reduce(m, { type: 'showAll', dimension: 'namespaces' });
    expect(m.ui.hidden.namespaces).toEqual([]);
  });
});

// What is shown: states and tags, filters, search, focus scope, collapsed fan-outs.

import { describe, expect, it } from 'vitest';
import { componentsOf, indexGraph } from '../../webview/src/model/graphIndex';
import { buildView, COLLAPSE_ABOVE, groupId, type ViewFilters } from '../../webview/src/model/viewModel';
import { pluralKind } from '../../shared/src/kinds';
import { kindBadge, kindCategory } from '../../webview/src/model/kinds';
import { deploymentTree, fanOut, statesGraph } from '../../testkit/webview/fixtures';

const filters = (over: Partial<ViewFilters> = {}): ViewFilters => ({
  hidden: { namespaces: [], kinds: [], states: [] },
  search: '',
  expanded: [],
  ...over,
});

describe('buildView', () => {
  it('gives each object its status and tags', () => {
    const view = buildView(indexGraph(statesGraph()), filters());
    const tags = (id: string) => view.byId.get(id)!.tags;
    expect(tags('ghost')).toEqual(['virtual']);
    expect(tags('orphan')).toEqual(['present', 'dangling', 'finding']);
    expect(tags('ns')).toEqual(['being-deleted']);
    expect(tags('fg')).toEqual(['deleting-dependents']);
    expect(tags('mq')).toEqual(['stuck', 'finding']);
    expect(view.byId.get('orphan')!.description).toBe('Pod shop/old-pod, present, dangling reference, 1 finding, 1 owner, 0 dependents');
    expect(view.edges.find((e) => e.dependent === 'orphan')).toMatchObject({ owner: 'ghost', dangling: true });
    expect(view.facets.states).toEqual([
      ['present', 7],
      ['virtual', 1],
      ['being-deleted', 1],
      ['deleting-dependents', 1],
      ['stuck', 1],
      ['dangling', 1],
      ['finding', 4],
    ]);
  });

  it('filters by namespace, kind and state (an object shows while any of its tags is shown)', () => {
    const index = indexGraph(statesGraph());
    expect(buildView(index, filters({ hidden: { namespaces: ['shop'], kinds: [], states: [] } })).nodes.map((n) => n.id)).toEqual([
      'ns',
      'mq',
    ]);
    const noPods = buildView(index, filters({ hidden: { namespaces: [], kinds: ['Pod', 'ConfigMap'], states: [] } }));
    expect(noPods.byId.has('orphan')).toBe(false);
    expect(noPods.hidden).toBe(3);
    expect(noPods.total).toBe(11);
    const problems = buildView(index, filters({ hidden: { namespaces: [], kinds: [], states: ['present'] } }));
    expect(problems.nodes.map((n) => n.id)).toEqual(['ghost', 'orphan', 'ns', 'fg', 'mq', 'a', 'b']);
    // Edges only between shown objects.
    expect(problems.edges.map((e) => e.id)).toEqual(['orphan>ghost', 'a>b', 'b>a']);
  });

  it('marks search matches (all words, any field) in order', () => {
    const view = buildView(indexGraph(deploymentTree()), filters({ search: 'pod WEB-1' }));
    expect(view.matches).toEqual(['p1', 'p2', 'p3']);
    expect(buildView(indexGraph(deploymentTree()), filters({ search: 'rs1' })).matches).toEqual(['rs1']);
    expect(buildView(indexGraph(deploymentTree()), filters()).matches).toEqual([]);
  });

  it('shows only the connected component of a focus', () => {
    const index = indexGraph(deploymentTree());
    const view = buildView(index, filters({ scope: componentsOf(index, ['p2']) }));
    expect(view.nodes.map((n) => n.id)).toEqual(['d1', 'rs1', 'p1', 'p2', 'p3']);
  });

  it('collapses a large fan-out into one node, expandable, with its edge merged', () => {
    const index = indexGraph(fanOut(437));
    const view = buildView(index, filters());
    const id = groupId('rs', 'Pod');
    expect(view.nodes.map((n) => n.id)).toEqual(['rs', id]);
    const group = view.byId.get(id)!;
    expect(group).toMatchObject({ name: '437 Pods', kind: 'Pod', groupOwner: 'rs', status: 'present' });
    expect(group.members).toHaveLength(437);
    expect(view.shownAs.get('pod-5')).toBe(id);
    expect(view.edges).toEqual([
      { id: `${id}>rs`, owner: 'rs', dependent: id, controller: true, blockOwnerDeletion: true, dangling: false, members: 437 },
    ]);
    expect(buildView(index, filters({ search: 'big-0042' })).matches).toEqual([id]);
    const expanded = buildView(index, filters({ expanded: [id] }));
    expect(expanded.nodes).toHaveLength(438);
    // At the threshold nothing collapses.
    expect(buildView(indexGraph(fanOut(COLLAPSE_ABOVE)), filters()).nodes).toHaveLength(COLLAPSE_ABOVE + 1);
  });

  it("a collapsed group takes its worst member's status", () => {
    const g = fanOut(20);
    g.nodes[3] = { ...g.nodes[3], state: 'being-deleted', stuck: 'waits for the kubelet' };
    const group = buildView(indexGraph(g), filters()).byId.get(groupId('rs', 'Pod'))!;
    expect(group.status).toBe('stuck');
    expect(group.description).toBe('20 Pods of ReplicaSet shop/big, collapsed: 1 stuck');
  });
});

describe('kinds', () => {
  it('badges, categories and plurals', () => {
    expect(kindBadge('Deployment')).toBe('deploy');
    expect(kindBadge('KafkaTopic')).toBe('kt');
    expect(kindBadge('RabbitmqCluster')).toBe('rabbit'); // not "rc", a ReplicationController
    expect(kindBadge('Widget')).toBe('widget');
    expect(kindCategory('PersistentVolumeClaim')).toBe('storage');
    expect(kindCategory('Kafka')).toBe('custom');
    expect(pluralKind('Pod', 437)).toBe('Pods');
    expect(pluralKind('Ingress', 2)).toBe('Ingresses');
    expect(pluralKind('NetworkPolicy', 2)).toBe('NetworkPolicies');
    expect(pluralKind('Endpoints', 2)).toBe('Endpoints');
  });
});

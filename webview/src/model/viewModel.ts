// What is shown, computed from the graph and the view's settings: the objects in scope (all, or the connected
// components of a focus) that pass the filters, large fan-outs collapsed into one node ("437 Pods"), each with
// its state and tags, plus the filter menus' choices. Pure (no DOM): unit-tested in test/webview.

import type { FindingCode, GraphEdgeData, GraphNodeData } from './protocolTypes';
import { dependentsOf, ownersOf, type GraphIndex } from './graphIndex';
import { pluralKind } from '../../../shared/src/kinds';
import { describeObject } from '../../../shared/src/protocol';

/** The state an object is drawn in (one per node). */
export type NodeStatus = 'present' | 'virtual' | 'being-deleted' | 'deleting-dependents' | 'stuck';
/** What the state filter and the legend know: the status plus two marks a node can carry besides it. */
export type StateTag = NodeStatus | 'dangling' | 'finding';

export const STATE_TAGS: readonly StateTag[] = [
  'present',
  'virtual',
  'being-deleted',
  'deleting-dependents',
  'stuck',
  'dangling',
  'finding',
];

export const STATE_LABELS: Readonly<Record<StateTag, string>> = {
  present: 'present',
  virtual: 'virtual (missing owner)',
  'being-deleted': 'being deleted',
  'deleting-dependents': 'deleting dependents',
  stuck: 'stuck',
  dangling: 'dangling reference',
  finding: 'has findings',
};

/** Worst first: a group of objects takes the status of its worst member. */
const STATUS_RANK: Readonly<Record<NodeStatus, number>> = {
  stuck: 0,
  'deleting-dependents': 1,
  'being-deleted': 2,
  virtual: 3,
  present: 4,
};

/** Findings that say an ownerReference does not resolve to the owner it names, as the GC looks it up. */
const DANGLING_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'dangling-owner',
  'owner-uid-mismatch',
  'owner-coordinates-mismatch',
  'owner-namespace-mismatch',
  'unresolvable-owner-kind',
  'cluster-scoped-dependent-of-namespaced-owner',
  'live-dangling-owner',
]);

/** Dependents of one owner, of one kind, without dependents of their own, collapse into one node above this many. */
export const COLLAPSE_ABOVE = 12;

export interface ViewFilters {
  hidden: { namespaces: readonly string[]; kinds: readonly string[]; states: readonly StateTag[] };
  search: string;
  /** Group ids the user expanded. */
  expanded: readonly string[];
  /** Only these uids (the connected components of a focus); undefined: all. */
  scope?: ReadonlySet<string>;
  collapseAbove?: number;
}

export interface ViewNode {
  /** The object's uid, or a group's id (`group:<owner uid>/<kind>`). */
  id: string;
  kind: string;
  /** The object's name, or "437 Pods". */
  name: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  status: NodeStatus;
  tags: StateTag[];
  /** Number of findings (a group: of all its members). */
  findings: number;
  /** Objects only. */
  object?: GraphNodeData;
  /** Groups only: the uids it stands for, and their owner. */
  members?: string[];
  groupOwner?: string;
  /** The search matches it (a group: one of its members). */
  match: boolean;
  /** One sentence for screen readers and tooltips. */
  description: string;
}

export interface ViewEdge {
  /** `<dependent id>><owner id>`. */
  id: string;
  owner: string;
  dependent: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
  /** The owner is virtual: a reference to an object that is not there. */
  dangling: boolean;
  /** A group's edge: how many references it stands for. */
  members?: number;
}

export interface GraphView {
  nodes: ViewNode[];
  edges: ViewEdge[];
  byId: Map<string, ViewNode>;
  /** Uid → the id of the node that shows it (itself, or its group); only shown uids. */
  shownAs: Map<string, string>;
  /** Ids of the nodes the search matches, in order. */
  matches: string[];
  /** The filter menus' choices, counted over the scope before filtering. */
  facets: { namespaces: [string, number][]; kinds: [string, number][]; states: [StateTag, number][] };
  /** Objects in scope, and how many of them the filters hide. */
  total: number;
  hidden: number;
}

export function edgeId(dependent: string, owner: string): string {
  return `${dependent}>${owner}`;
}

export function groupId(owner: string, kind: string): string {
  return `group:${owner}/${kind}`;
}

export function nodeStatus(n: GraphNodeData): NodeStatus {
  if (n.stuck !== undefined || n.findings.includes('stuck-terminating')) return 'stuck';
  return n.state;
}

export function nodeTags(index: GraphIndex, n: GraphNodeData): StateTag[] {
  const tags: StateTag[] = [nodeStatus(n)];
  if (n.findings.some((c) => DANGLING_CODES.has(c)) || ownersOf(index, n.uid).some((e) => index.nodes.get(e.to)?.state === 'virtual'))
    tags.push('dangling');
  if (n.findings.length) tags.push('finding');
  return tags;
}

/** "Deployment shop/web", "Namespace shop": the wire module's one spelling. */
export { describeObject };

function matches(n: GraphNodeData, terms: string[]): boolean {
  if (!terms.length) return false;
  const hay = `${n.kind}/${n.name} ${n.namespace} ${n.uid} ${n.apiVersion}`.toLowerCase();
  return terms.every((t) => hay.includes(t));
}

export function buildView(index: GraphIndex, filters: ViewFilters): GraphView {
  const hiddenNs = new Set(filters.hidden.namespaces);
  const hiddenKinds = new Set(filters.hidden.kinds);
  const hiddenStates = new Set(filters.hidden.states);
  const expanded = new Set(filters.expanded);
  const terms = filters.search.toLowerCase().split(/\s+/).filter(Boolean);
  const collapseAbove = filters.collapseAbove ?? COLLAPSE_ABOVE;

  // Scope, facets, filters.
  const nsCount = new Map<string, number>();
  const kindCount = new Map<string, number>();
  const stateCount = new Map<StateTag, number>();
  const tagsOf = new Map<string, StateTag[]>();
  const visible: string[] = [];
  const visibleSet = new Set<string>();
  let total = 0;
  for (const uid of index.order) {
    if (filters.scope && !filters.scope.has(uid)) continue;
    const n = index.nodes.get(uid)!;
    total++;
    const tags = nodeTags(index, n);
    tagsOf.set(uid, tags);
    nsCount.set(n.namespace, (nsCount.get(n.namespace) ?? 0) + 1);
    kindCount.set(n.kind, (kindCount.get(n.kind) ?? 0) + 1);
    for (const t of tags) stateCount.set(t, (stateCount.get(t) ?? 0) + 1);
    if (hiddenNs.has(n.namespace) || hiddenKinds.has(n.kind)) continue;
    // Shown when any of its tags is shown: hiding "present" still shows a present object that has findings.
    if (tags.every((t) => hiddenStates.has(t))) continue;
    visible.push(uid);
    visibleSet.add(uid);
  }

  const visibleOwners = (uid: string) => ownersOf(index, uid).filter((e) => visibleSet.has(e.to));
  const hasVisibleDependents = (uid: string) => dependentsOf(index, uid).some((e) => visibleSet.has(e.from));

  // Fan-outs: leaf dependents of one owner, of one kind.
  const candidates = new Map<string, string[]>();
  for (const uid of visible) {
    const owners = visibleOwners(uid);
    if (owners.length !== 1 || owners[0].to === uid || hasVisibleDependents(uid)) continue;
    const key = groupId(owners[0].to, index.nodes.get(uid)!.kind);
    const list = candidates.get(key);
    if (list) list.push(uid);
    else candidates.set(key, [uid]);
  }
  const groupOf = new Map<string, string>();
  for (const [key, members] of candidates) {
    if (members.length <= collapseAbove || expanded.has(key)) continue;
    for (const uid of members) groupOf.set(uid, key);
  }

  const nodes: ViewNode[] = [];
  const byId = new Map<string, ViewNode>();
  const shownAs = new Map<string, string>();
  const matched: string[] = [];
  for (const uid of visible) {
    const n = index.nodes.get(uid)!;
    const group = groupOf.get(uid);
    const isMatch = matches(n, terms);
    if (group) {
      shownAs.set(uid, group);
      let g = byId.get(group);
      if (!g) {
        const members = candidates.get(group)!;
        g = groupNode(index, group, members, tagsOf);
        nodes.push(g);
        byId.set(group, g);
      }
      if (isMatch && !g.match) {
        g.match = true;
        matched.push(group);
      }
      continue;
    }
    shownAs.set(uid, uid);
    const tags = tagsOf.get(uid)!;
    const v: ViewNode = {
      id: uid,
      kind: n.kind,
      name: n.name,
      namespace: n.namespace,
      status: tags[0] as NodeStatus,
      tags,
      findings: n.findings.length,
      object: n,
      match: isMatch,
      description: '',
    };
    v.description = describeNode(index, v, visibleSet);
    nodes.push(v);
    byId.set(uid, v);
    if (isMatch) matched.push(uid);
  }

  // Edges between shown nodes; a group's edges merged into one.
  const edges: ViewEdge[] = [];
  const groupEdges = new Map<string, ViewEdge>();
  for (const uid of visible) {
    for (const e of ownersOf(index, uid)) {
      if (!visibleSet.has(e.to) || e.from === e.to) continue;
      const dependent = shownAs.get(e.from)!;
      const owner = shownAs.get(e.to)!;
      const dangling = index.nodes.get(e.to)?.state === 'virtual';
      if (dependent !== e.from) {
        const id = edgeId(dependent, owner);
        const merged = groupEdges.get(id);
        if (merged) {
          merged.controller &&= e.controller;
          merged.blockOwnerDeletion ||= e.blockOwnerDeletion;
          merged.members! += 1;
        } else {
          const edge = { id, owner, dependent, controller: e.controller, blockOwnerDeletion: e.blockOwnerDeletion, dangling, members: 1 };
          groupEdges.set(id, edge);
          edges.push(edge);
        }
        continue;
      }
      edges.push(edgeOf(e, dangling));
    }
  }

  const sorted = <K>(m: Map<K, number>) => [...m].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return {
    nodes,
    edges,
    byId,
    shownAs,
    matches: matched,
    facets: {
      namespaces: sorted(nsCount),
      kinds: sorted(kindCount),
      states: STATE_TAGS.filter((t) => stateCount.has(t)).map((t) => [t, stateCount.get(t)!]),
    },
    total,
    hidden: total - visible.length,
  };
}

function edgeOf(e: GraphEdgeData, dangling: boolean): ViewEdge {
  return {
    id: edgeId(e.from, e.to),
    owner: e.to,
    dependent: e.from,
    controller: e.controller,
    blockOwnerDeletion: e.blockOwnerDeletion,
    dangling,
  };
}

function groupNode(index: GraphIndex, id: string, members: string[], tagsOf: Map<string, StateTag[]>): ViewNode {
  const first = index.nodes.get(members[0])!;
  let status: NodeStatus = 'present';
  const tags = new Set<StateTag>();
  const byStatus = new Map<NodeStatus, number>();
  let findings = 0;
  for (const uid of members) {
    const t = tagsOf.get(uid)!;
    const s = t[0] as NodeStatus;
    if (STATUS_RANK[s] < STATUS_RANK[status]) status = s;
    byStatus.set(s, (byStatus.get(s) ?? 0) + 1);
    for (const x of t) tags.add(x);
    findings += index.nodes.get(uid)!.findings.length;
  }
  const owner = index.nodes.get(ownersOf(index, first.uid)[0].to)!;
  const name = `${members.length} ${pluralKind(first.kind, members.length)}`;
  const states = [...byStatus].filter(([s]) => s !== 'present').map(([s, n]) => `${n} ${STATE_LABELS[s]}`);
  return {
    id,
    kind: first.kind,
    name,
    namespace: first.namespace,
    status,
    tags: [status, ...[...tags].filter((t) => t !== status)],
    findings,
    members,
    groupOwner: owner.uid,
    match: false,
    description: `${name} of ${describeObject(owner)}, collapsed${states.length ? `: ${states.join(', ')}` : ''}${findings ? `, ${findings} finding${findings > 1 ? 's' : ''}` : ''}`,
  };
}

function describeNode(index: GraphIndex, v: ViewNode, visible: ReadonlySet<string>): string {
  const owners = ownersOf(index, v.id).filter((e) => visible.has(e.to)).length;
  const dependents = dependentsOf(index, v.id).filter((e) => visible.has(e.from)).length;
  const parts = [describeObject(v), STATE_LABELS[v.status]];
  if (v.tags.includes('dangling')) parts.push('dangling reference');
  if (v.findings) parts.push(`${v.findings} finding${v.findings > 1 ? 's' : ''}`);
  parts.push(`${owners} owner${owners === 1 ? '' : 's'}`, `${dependents} dependent${dependents === 1 ? '' : 's'}`);
  return parts.join(', ');
}

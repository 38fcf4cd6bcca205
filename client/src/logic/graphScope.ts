// Which part of a live cluster's ownership graph a panel shows (GraphScope): when Show Ownership Graph asks for a
// namespace first, the quick pick that asks (namespaces by object count, the cluster-scoped objects, the whole
// cluster), the request each scope makes, what Show in Graph does with a panel's scope, and the words for titles.
// No `vscode` import: unit-tested in test/client.

import { GRAPH_LIMIT, sameScope, type GraphData, type GraphParams, type GraphScope, type GraphSummary } from '../../../shared/src/protocol';
import { describeObject } from './objects';
import { escapeIcons } from './pickItems';

/**
 * Show Ownership Graph on a live cluster of more objects than this asks which namespace to show first: a cluster the
 * limit would not cut is shown whole (`npm run bench`: 10,000 live objects drawn whole in 0.43 s, panned at 60 frames
 * per second; 100,000 in 3.5 s, at 7).
 */
export const GRAPH_SCOPE_THRESHOLD = GRAPH_LIMIT;

/** Whether a live cluster of `objects` objects is shown one scope at a time (unknown: no). */
export function asksForScope(objects: number | undefined): boolean {
  return objects !== undefined && objects > GRAPH_SCOPE_THRESHOLD;
}

/**
 * What kubeGcLens/cluster/graph is asked for a scope: a namespace or a component at most GRAPH_LIMIT objects; the
 * whole cluster all of it (chosen as such on a large cluster, or a cluster small enough to show whole).
 */
export function scopeParams(scope: GraphScope): GraphParams {
  switch (scope.kind) {
    case 'all':
      return {};
    case 'namespace':
      return { namespace: scope.namespace, limit: GRAPH_LIMIT };
    case 'object':
      return { uid: scope.uid, limit: GRAPH_LIMIT };
  }
}

/** Whether two scopes show the same part of a graph: the wire module's one answer. */
export { sameScope };

/** The scope a panel opens with when nobody chose one: the whole cluster, or on a large one its largest namespace. */
export function defaultScope(summary: GraphSummary): GraphScope {
  if (!asksForScope(summary.objects)) return { kind: 'all' };
  const largest = summary.namespaces.find((n) => n.namespace !== '');
  return largest ? { kind: 'namespace', namespace: largest.namespace } : { kind: 'namespace', namespace: '' };
}

/**
 * Show in Graph on a live object: `keep` the panel's scope when the object is in the graph it shows (it is then only
 * focused); else the whole cluster when it is small enough, else the object's connected component (at most
 * GRAPH_LIMIT objects, nearest it first).
 */
export function scopeForObject(uid: string, shown: GraphData | undefined, objects: number | undefined): GraphScope | 'keep' {
  if (shown?.nodes.some((n) => n.uid === uid)) return 'keep';
  return asksForScope(objects) ? { kind: 'object', uid } : { kind: 'all' };
}

/**
 * A Namespace owns nothing through ownerReferences, so its connected component is itself alone: Show in Graph on a
 * Namespace (a stuck one, the target of a namespace deletion) shows its namespace instead. Undefined: keep the scope.
 */
export function refinedScope(scope: GraphScope, graph: GraphData): GraphScope | undefined {
  if (scope.kind !== 'object' || graph.nodes.length !== 1) return undefined;
  const n = graph.nodes[0];
  return n.uid === scope.uid && n.kind === 'Namespace' && n.apiVersion === 'v1' && n.namespace === ''
    ? { kind: 'namespace', namespace: n.name }
    : undefined;
}

const int = (n: number) => n.toLocaleString('en-US');
const objectsText = (n: number) => `${int(n)} object${n === 1 ? '' : 's'}`;

export interface ScopePickItem {
  label: string;
  description?: string;
  /** A separator line (VS Code's QuickPickItemKind.Separator) with this label. */
  separator?: true;
  scope?: GraphScope;
}

/**
 * The quick pick: every namespace with its object count, the largest first (the one shown now marked); then the
 * cluster-scoped objects and the whole cluster (slow).
 */
export function scopePickItems(summary: GraphSummary, current?: GraphScope): ScopePickItem[] {
  const note = (scope: GraphScope, text: string) => (sameScope(scope, current) ? `${text} · shown now` : text);
  const namespaces = summary.namespaces
    .filter((n) => n.namespace !== '')
    .sort((a, b) => b.objects - a.objects || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
  const items: ScopePickItem[] = namespaces.map((n) => {
    const scope: GraphScope = { kind: 'namespace', namespace: n.namespace };
    const cut = n.objects > GRAPH_LIMIT ? ` · the first ${int(GRAPH_LIMIT)} shown, owners first` : '';
    return { label: escapeIcons(n.namespace), description: note(scope, `${objectsText(n.objects)}${cut}`), scope };
  });
  const clusterScoped = summary.namespaces.find((n) => n.namespace === '')?.objects ?? 0;
  items.push(
    { label: 'Other scopes', separator: true },
    {
      label: 'Cluster-scoped objects',
      description: note({ kind: 'namespace', namespace: '' }, `${objectsText(clusterScoped)}, with their namespaced dependents`),
      scope: { kind: 'namespace', namespace: '' },
    },
    { label: 'Whole cluster', description: note({ kind: 'all' }, `${objectsText(summary.objects)} — slow`), scope: { kind: 'all' } },
  );
  return items;
}

export function scopePickPlaceholder(summary: GraphSummary): string {
  return `The cluster has ${objectsText(summary.objects)}: which namespace's ownership graph? (its owners and dependents elsewhere included)`;
}

/** `namespace shop`, `cluster-scoped objects`, `whole cluster`, `component of Pod shop/web-1`. */
export function graphScopeLabel(scope: GraphScope, graph?: GraphData): string {
  switch (scope.kind) {
    case 'all':
      return 'whole cluster';
    case 'namespace':
      return scope.namespace === '' ? 'cluster-scoped objects' : `namespace ${scope.namespace}`;
    case 'object': {
      const node = graph?.nodes.find((n) => n.uid === scope.uid);
      return node ? `component of ${describeObject(node)}` : "one object's component";
    }
  }
}

/** What a panel's title adds for its scope: ` · shop`, ` · cluster-scoped`, ` · Pod web-1`; nothing for the whole graph. */
export function scopeTitleSuffix(scope: GraphScope | undefined, graph?: GraphData): string {
  if (!scope || scope.kind === 'all') return '';
  if (scope.kind === 'namespace') return scope.namespace === '' ? ' · cluster-scoped' : ` · ${scope.namespace}`;
  const node = graph?.nodes.find((n) => n.uid === scope.uid);
  return node ? ` · ${node.kind} ${node.name}` : '';
}

/** A scope saved in the webview's state (after a reload), checked: anything malformed is no scope. */
export function scopeFromState(state: unknown): GraphScope | undefined {
  const s = (typeof state === 'object' && state !== null ? (state as { scope?: unknown }).scope : undefined) as
    | Record<string, unknown>
    | undefined;
  return parseScope(s);
}

/** A GraphScope from untrusted JSON (the webview's state), or undefined. */
export function parseScope(raw: unknown): GraphScope | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const s = raw as Record<string, unknown>;
  const ok = (v: unknown): v is string => typeof v === 'string' && v.length <= 1000;
  if (s.kind === 'all') return { kind: 'all' };
  if (s.kind === 'namespace' && ok(s.namespace)) return { kind: 'namespace', namespace: s.namespace };
  if (s.kind === 'object' && ok(s.uid) && s.uid.length > 0) return { kind: 'object', uid: s.uid };
  return undefined;
}

// Which part of a live cluster the graph is (the host's `scope`), in words: the toolbar's label, the line that says a
// scope was cut at the host's limit, and the details panel's note about owners and dependents left out. Pure (no
// DOM): unit-tested in test/webview.

import type { GraphIndex } from './graphIndex';
import type { GraphData, GraphScope } from './protocolTypes';
import { describeObject } from './viewModel';

/** `namespace shop`, `cluster-scoped objects`, `whole cluster`, `component of Pod shop/web-1`; undefined without a scope. */
export function scopeLabel(scope: GraphScope | undefined, index?: GraphIndex): string | undefined {
  if (!scope) return undefined;
  switch (scope.kind) {
    case 'all':
      return 'whole cluster';
    case 'namespace':
      return scope.namespace === '' ? 'cluster-scoped objects' : `namespace ${scope.namespace}`;
    case 'object': {
      const o = index?.nodes.get(scope.uid);
      return o ? `component of ${describeObject(o)}` : "one object's component";
    }
  }
}

const int = (n: number) => n.toLocaleString('en-US');

/** The line above a graph the host cut at its limit (undefined when it was not cut). */
export function truncationText(graph: GraphData | undefined, scope: GraphScope | undefined, index?: GraphIndex): string | undefined {
  const t = graph?.truncated;
  if (!t) return undefined;
  const label = scopeLabel(scope, index);
  const order = scope?.kind === 'object' ? 'the objects nearest it first' : 'owners before their dependents';
  return `Showing ${int(t.shown)} of the ${int(t.total)} objects in this scope${label ? ` (${label})` : ''}: ${order}; the rest are not loaded.`;
}

/** The details panel's note under an object's owners or dependents: how many are not in this graph. */
export function omittedText(n: number, noun: 'owner' | 'dependent'): string {
  return `${int(n)} more ${noun}${n === 1 ? '' : 's'} not loaded (outside this scope, or past its limit)`;
}

/** Whether two scopes show the same part of a graph: the wire module's one answer. */
export { sameScope } from '../../../shared/src/protocol';

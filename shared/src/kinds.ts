// Words for kinds that every front end prints (CLI, language server, VS Code client, webview): one spelling.

/** Kinds already plural (or uncountable) in their singular form. */
const INVARIANT_PLURALS = new Set(['Endpoints']);

/**
 * English plural of a kind for counts: Pod → Pods, Ingress → Ingresses, NetworkPolicy → NetworkPolicies,
 * ComponentStatus → ComponentStatuses.
 */
export function pluralKind(kind: string, n: number): string {
  if (n === 1 || INVARIANT_PLURALS.has(kind)) return kind;
  if (/(s|x|z|ch|sh)$/.test(kind)) return `${kind}es`;
  if (/[^aeiouAEIOU]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/** "3 Pods", "1 ReplicaSet". */
export function countOf(kind: string, n: number): string {
  return `${n} ${pluralKind(kind, n)}`;
}

// R83: what a terminating Namespace's conditions say of a webhook. When the namespace controller's DELETE of some
// content is rejected because a webhook could not be called, the error joins its NamespaceDeletionContentFailure
// message (namespaceConditionUpdater.makeDeleteContentCondition: "Failed to delete all resource types, N remaining:
// <errors>, …"), each error as the apiserver's ErrCallingWebhook prints it: `failed calling webhook "NAME": failed to
// call webhook: Post "https://SVC.NS.svc:443/…": service "SVC" not found` (or "no endpoints available for service",
// "connect: connection refused", a timeout, a certificate error). That is the apiserver's own word that the webhook
// fails: the engine takes it as the webhook's backend state when nothing fresher says (a reader's or a restore's).

import type { KubeObject, WebhookFacts } from '../model';
import { heldConditions } from './namespaceConditions';

/** What a failed call says of the webhook's backend. */
export type ReportedState = 'missing' | 'no-endpoints' | 'unreachable';

export interface ReportedFailure {
  /** The Namespace whose condition reports it. */
  namespace: string;
  /** Its condition type (NamespaceDeletionContentFailure). */
  condition: string;
  webhook: string;
  state: ReportedState;
  /** The error after the webhook's name, as reported (shortened when long). */
  cause: string;
  /** The Service the error names, when it names one (`service "kyverno-svc" not found`). */
  service?: string;
}

const MAX_CAUSE = 240;
const CALL = /failed calling webhook "([^"]+)"(?:: |; )/g;

/** The webhook failures one condition message reports, in order. */
export function webhookFailuresIn(message: string): { webhook: string; state: ReportedState; cause: string; service?: string }[] {
  const starts = [...message.matchAll(CALL)];
  return starts.map((m, i) => {
    const from = m.index + m[0].length;
    const to = i + 1 < starts.length ? starts[i + 1].index : message.length;
    // The next error starts after ", " (the deleter's join), often with the status text of an internal error.
    const cause = message
      .slice(from, to)
      .replace(/,\s*(Internal error occurred:\s*)?$/, '')
      .trim();
    const missing = /service "([^"]+)" not found/.exec(cause);
    const noEndpoints = /no endpoints available for service "(?:[^"]+"\/")?([^"]+)"/.exec(cause);
    const state: ReportedState = missing ? 'missing' : noEndpoints ? 'no-endpoints' : 'unreachable';
    const service = (missing ?? noEndpoints)?.[1];
    const short = cause.length > MAX_CAUSE ? `${cause.slice(0, MAX_CAUSE - 1)}…` : cause;
    return { webhook: m[1], state, cause: short, ...(service ? { service } : {}) };
  });
}

const parsed = new WeakMap<KubeObject, ReportedFailure[]>();

/** Every webhook failure the held conditions of this Namespace report (computed once per stored object). */
export function reportedFailures(ns: KubeObject): ReportedFailure[] {
  const known = parsed.get(ns);
  if (known) return known;
  const out: ReportedFailure[] = [];
  for (const c of heldConditions(ns))
    for (const f of webhookFailuresIn(c.message ?? '')) out.push({ namespace: ns.name, condition: c.type, ...f });
  parsed.set(ns, out);
  return out;
}

/** What a lookup of reported failures reads: the Namespaces as the input held them, when the view knows. */
export interface NamespacesView {
  ofKind(kind: string): Iterable<KubeObject>;
  ofKindAtStart?(kind: string): Iterable<KubeObject>;
}

/** view → webhook name → what the input's Namespaces report of it (a report is a fact of the input: read once). */
const byView = new WeakMap<NamespacesView, Map<string, ReportedFailure[]>>();

function reportsOf(view: NamespacesView): Map<string, ReportedFailure[]> {
  let map = byView.get(view);
  if (map) return map;
  map = new Map();
  for (const ns of view.ofKindAtStart ? view.ofKindAtStart('Namespace') : view.ofKind('Namespace')) {
    if (!ns.facts.namespaceConditions?.length) continue;
    for (const f of reportedFailures(ns)) map.set(f.webhook, [...(map.get(f.webhook) ?? []), f]);
  }
  byView.set(view, map);
  return map;
}

/**
 * The failure a Namespace reports of this webhook: its name, and when the error names a Service, that Service (a
 * webhook since pointed elsewhere is not the one that failed).
 */
export function reportedFailureOf(view: NamespacesView, h: WebhookFacts): ReportedFailure | undefined {
  return reportsOf(view)
    .get(h.name)
    ?.find((r) => !r.service || !h.service || r.service === h.service.name);
}

/** "Namespace kyverno reports NamespaceDeletionContentFailure: failed calling webhook "…": …". */
export function describeReported(f: ReportedFailure): string {
  return `Namespace ${f.namespace} reports ${f.condition}: failed calling webhook "${f.webhook}": ${f.cause}`;
}

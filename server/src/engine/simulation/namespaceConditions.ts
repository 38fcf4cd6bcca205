// A terminating Namespace's status conditions, as kube-controller-manager's namespace deleter writes them on every
// pass (pkg/controller/namespace/deletion, namespaceConditionUpdater): one condition per type, "True" with a
// reason and message while the problem holds, "False" with an all-clear message once it does not. They are
// observed facts of a cluster (or of a dump of one); the simulation reads them, it never writes them.

import type { KubeObject, NamespaceCondition } from '../model';

/** Discovery of some API group failed: the pass ends in an error and the namespace is not finalized. */
export const DISCOVERY_FAILURE = 'NamespaceDeletionDiscoveryFailure';
/** A discovered group/version could not be parsed: the pass ends in an error and the namespace is not finalized. */
export const GROUP_VERSION_PARSING_FAILURE = 'NamespaceDeletionGroupVersionParsingFailure';
/** Deleting some resource type failed (the error is retried on the next pass). */
export const CONTENT_FAILURE = 'NamespaceDeletionContentFailure';
/** Content is left ("Some resources are remaining: pods. has 2 resource instances"). */
export const CONTENT_REMAINING = 'NamespaceContentRemaining';
/** Content waits for finalizers ("Some content in the namespace has finalizers remaining: …"). */
export const FINALIZERS_REMAINING = 'NamespaceFinalizersRemaining';

/** The conditions that hold (status "True"), in stored order. */
export function heldConditions(ns: KubeObject): NamespaceCondition[] {
  return (ns.facts.namespaceConditions ?? []).filter((c) => c.status === 'True');
}

/**
 * A held condition that makes every pass of the deleter fail before it can finalize, whatever the content:
 * deleteAllContent collects discovery and group/version parsing errors and returns them, and Delete then
 * leaves `kubernetes` in spec.finalizers. The condition is taken to persist (it is rewritten on every pass).
 */
export function finalizeBlocker(ns: KubeObject, view?: DiscoveryView): NamespaceCondition | undefined {
  return heldConditions(ns).find(
    (c) => (c.type === DISCOVERY_FAILURE && !(view && explainedByApiServices(c, view))) || c.type === GROUP_VERSION_PARSING_FAILURE,
  );
}

/** What R76 looks up: the APIServices as the simulation holds them now, and as the input held them. */
export interface DiscoveryView {
  getByName(group: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  atStart(group: string, kind: string, namespace: string, name: string): KubeObject | undefined;
}

/**
 * R76: a discovery failure whose every failing group/version is an APIService the input holds with its Available
 * condition is that APIService's unavailability (R74), which the simulation judges itself: it ends when the APIService
 * is Available again or deleted (discovery then no longer lists its group/version). Any other cause is not in view,
 * so the condition is taken to persist.
 */
function explainedByApiServices(c: NamespaceCondition, view: DiscoveryView): boolean {
  const failing = failingGroupVersions(c.message ?? '');
  return (
    failing.length > 0 &&
    failing.every(
      (gv) => view.atStart(APIREGISTRATION, 'APIService', '', `${gv.version}.${gv.group}`)?.facts.apiService?.available !== undefined,
    )
  );
}

const APIREGISTRATION = 'apiregistration.k8s.io';

/** The group/versions a discovery error names ("… metrics.k8s.io/v1beta1: stale GroupVersion discovery: …"). */
export function failingGroupVersions(message: string): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const m of message.matchAll(
    /(?<![\w./-])([a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)+)\/(v\d+(?:(?:alpha|beta)\d+)?)(?![\w.-])/g,
  ))
    seen.set(`${m[1]}/${m[2]}`, { group: m[1], version: m[2] });
  return [...seen.values()];
}

/** `NamespaceDeletionDiscoveryFailure (DiscoveryFailed): Discovery failed for some groups, …` */
export function describeCondition(c: NamespaceCondition): string {
  return `${c.type}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`;
}

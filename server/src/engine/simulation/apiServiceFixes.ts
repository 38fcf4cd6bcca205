// Whose aggregated APIService it is, and what its fixes cost (R85, R86). Only an APIService without spec.service
// (Local) is served by kube-apiserver itself; one served by a Service is an add-on's whatever its name:
// v1beta1.metrics.k8s.io is metrics-server's or prometheus-adapter's. Deleting one whose backend is gone is the usual
// fix. Nothing new is created in a namespace being deleted (R77), so a backend there is restored elsewhere, never there.

import type { ApiServiceFacts, KubeObject, ServiceReference } from '../model';
import { pasteable, shellComment, shellWord } from '../shellWord';
import type { UserRequest } from './types';

/** What a blocker lookup needs of the Namespaces: the one of that name, as the view holds it. */
interface NamespaceView {
  getByName(group: string, kind: string, namespace: string, name: string): KubeObject | undefined;
}

/** Whether nothing new can be created in `namespace`: it is being deleted (NamespaceLifecycle). */
export type ClosedNamespace = (namespace: string) => boolean;

/** A namespace closed to new content as the view holds it: being deleted. */
export function closedIn(view: NamespaceView): ClosedNamespace {
  return (namespace) => view.getByName('', 'Namespace', '', namespace)?.deletionTimestamp !== undefined;
}

const OPENSHIFT_NAMESPACE = /^openshift(-.*)?$/;

/**
 * Why an APIService must not be deleted, or undefined when it is an add-on's. Kubernetes' own groups are Local (no
 * spec.service) and never unavailable; OpenShift's cluster operators serve theirs from openshift-* namespaces.
 */
export function apiServiceInfrastructure(a: KubeObject, facts: ApiServiceFacts): string | undefined {
  if (!facts.service) return `APIService ${a.name} is served by kube-apiserver itself (Local)`;
  const ns = facts.service.namespace;
  if (OPENSHIFT_NAMESPACE.test(ns)) return `APIService ${a.name} is served from ${ns}, an OpenShift platform namespace`;
  return undefined;
}

/** What stops working while the well-known aggregated groups are not registered. */
const USED_BY: Record<string, string> = {
  'metrics.k8s.io': 'kubectl top and HorizontalPodAutoscalers on CPU or memory get no metrics',
  'custom.metrics.k8s.io': 'HorizontalPodAutoscalers on custom metrics get none',
  'external.metrics.k8s.io': 'HorizontalPodAutoscalers on external metrics (KEDA among them) get none',
};

/** What deleting an unavailable APIService gives up: said for a person, not as a certainty. */
export function apiServiceDeletionWarning(facts: ApiServiceFacts): string {
  const gv = `${facts.group}/${facts.version}`;
  const lost = USED_BY[facts.group] ?? `whatever uses ${gv} fails`;
  return `${gv} is no longer served: ${lost}, as now while it is unavailable, until its add-on registers it again (reinstalling the add-on does)`;
}

/** The Available condition's reason when the aggregator finds no Service of that name (kube-aggregator's controller). */
export const SERVICE_NOT_FOUND = 'ServiceNotFound';

/**
 * R90: why an unavailable APIService's add-on is gone or going, when the input says so: its Service's namespace is
 * being deleted, its Service does not exist where the input holds that namespace's Services, or the aggregator's own
 * condition reports it not found (ServiceNotFound). Such an APIService is stale.
 */
export function staleApiService(facts: ApiServiceFacts, serviceMissing: boolean, closed: ClosedNamespace): string | undefined {
  const ref = facts.service;
  if (!ref) return undefined;
  const svc = `Service ${ref.namespace}/${ref.name}`;
  if (closed(ref.namespace)) return `its ${svc} is in namespace ${ref.namespace}, which is being deleted`;
  if (facts.available?.reason === SERVICE_NOT_FOUND) return `the aggregator reports ${SERVICE_NOT_FOUND} for its ${svc}`;
  if (serviceMissing) return `its ${svc} does not exist`;
  return undefined;
}

/** The title of the deletion of an add-on's unavailable APIService; `stale`: why its add-on is gone or going (R90). */
export function apiServiceDeletionTitle(a: KubeObject, facts: ApiServiceFacts, stale?: string): string {
  const gv = `${facts.group}/${facts.version}`;
  return stale
    ? `Delete APIService ${a.name}: its add-on is gone or going, as ${stale}; it serves nothing now (reinstalling the add-on registers it again)`
    : `Delete APIService ${a.name} if nothing needs ${gv} any more (reinstalling its add-on registers it again)`;
}

export const deleteApiServiceCommand = (a: KubeObject) => pasteable(`kubectl delete ${shellWord(`apiservice/${a.name}`)}`);

/**
 * R86: the backend of an APIService whose Service is in a namespace being deleted cannot come back there; the add-on is
 * reinstalled in another namespace and the APIService points at its Service there (an add-on's manifests usually
 * register the APIService themselves, pointing at their own namespace). Simulated as the APIService served again.
 */
export function restoreElsewhereFix(a: KubeObject, ref: ServiceReference) {
  const request: UserRequest = {
    verb: 'restore-backend',
    target: { apiVersion: a.apiVersion, kind: 'APIService', namespace: '', name: a.name },
  };
  const apiService = `APIService ${a.name}`;
  const command = [
    shellComment(`no single kubectl command: reinstall the add-on that serves ${apiService} in another namespace, not ${ref.namespace}`),
    shellComment(
      `then point spec.service of ${apiService} at its Service there, unless its manifests register it again: kubectl edit ${shellWord(`apiservice/${a.name}`)}`,
    ),
  ].join('\n');
  return {
    title: `Reinstall the add-on that serves ${apiService} in another namespace and point the APIService at its Service there (namespace ${ref.namespace} is being deleted: nothing new can be created in it)`,
    command: pasteable(`kubectl get ${shellWord(`apiservice/${a.name}`)} -o yaml`),
    risk: 'safe' as const,
    wayOut: {
      request,
      command,
      warning: `until the add-on runs in its new namespace and ${apiService} names its Service there, ${a.name} stays unavailable`,
    },
  };
}

/** The clause a blocker's `why` adds when its Service's namespace is being deleted. */
export const closedClause = (ref: ServiceReference) => `; namespace ${ref.namespace} is being deleted, so nothing new can be created in it`;

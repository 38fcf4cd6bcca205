// Test helper: the objects that block a namespace outside ownership (issue 18) as a dump holds them: an APIService
// with its Available condition, webhook configurations, and the EndpointSlices and Endpoints of their Services.
import { obj, type ObjectSpec } from './manifests';

export function apiService(
  name: string,
  service: { namespace: string; name: string } | undefined,
  available: { status: 'True' | 'False'; reason?: string; message?: string } | undefined,
  more: Partial<ObjectSpec> = {},
): ObjectSpec {
  const [version, ...group] = name.split('.');
  return obj('apiregistration.k8s.io/v1', 'APIService', undefined, name, {
    ...more,
    extra: {
      spec: { group: group.join('.'), version, groupPriorityMinimum: 100, versionPriority: 100, ...(service ? { service } : {}) },
      ...(available ? { status: { conditions: [{ type: 'Available', lastTransitionTime: '2026-11-20T10:00:00Z', ...available }] } } : {}),
    },
  });
}

export interface HookSpec {
  name: string;
  service?: { namespace: string; name: string };
  url?: string;
  failurePolicy?: 'Fail' | 'Ignore';
  rules: { operations: string[]; apiGroups: string[]; apiVersions: string[]; resources: string[]; scope?: string }[];
  namespaceSelector?: unknown;
  objectSelector?: unknown;
  matchConditions?: unknown[];
}

export function webhookConfiguration(
  kind: 'Validating' | 'Mutating',
  name: string,
  hooks: HookSpec[],
  more: Partial<ObjectSpec> = {},
): ObjectSpec {
  return obj('admissionregistration.k8s.io/v1', `${kind}WebhookConfiguration`, undefined, name, {
    ...more,
    extra: {
      webhooks: hooks.map((h) => ({
        name: h.name,
        clientConfig: h.service ? { service: { ...h.service, path: '/validate', port: 443 } } : { url: h.url },
        rules: h.rules,
        ...(h.failurePolicy ? { failurePolicy: h.failurePolicy } : {}),
        ...(h.namespaceSelector ? { namespaceSelector: h.namespaceSelector } : {}),
        ...(h.objectSelector ? { objectSelector: h.objectSelector } : {}),
        ...(h.matchConditions ? { matchConditions: h.matchConditions } : {}),
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      })),
    },
  });
}

/** An EndpointSlice of a Service, with `ready` ready endpoints and `notReady` others. */
export function endpointSlice(service: string, namespace: string, ready: number, notReady = 0): ObjectSpec {
  const endpoint = (i: number, isReady: boolean) => ({ addresses: [`10.0.0.${i + 1}`], conditions: { ready: isReady } });
  const endpoints = [
    ...Array.from({ length: ready }, (_, i) => endpoint(i, true)),
    ...Array.from({ length: notReady }, (_, i) => endpoint(ready + i, false)),
  ];
  return obj('discovery.k8s.io/v1', 'EndpointSlice', namespace, `${service}-abcde`, {
    labels: { 'kubernetes.io/service-name': service, 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
    extra: { addressType: 'IPv4', endpoints: endpoints.length ? endpoints : null, ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] },
  });
}

/** A v1 Endpoints object with `ready` ready addresses. */
export function endpoints(service: string, namespace: string, ready: number): ObjectSpec {
  return obj('v1', 'Endpoints', namespace, service, {
    uid: `uid-ep-${service}`,
    extra: ready
      ? { subsets: [{ addresses: Array.from({ length: ready }, (_, i) => ({ ip: `10.0.0.${i + 1}` })), ports: [{ port: 6443 }] }] }
      : {},
  });
}

export const service = (name: string, namespace: string) =>
  obj('v1', 'Service', namespace, name, { uid: `uid-svc-${name}`, extra: { spec: { ports: [{ port: 443 }], selector: { app: name } } } });

/** A webhook rule: every group and version, these operations on these resources. */
export const anyGroup = (operations: string[], resources: string[], scope?: string) => ({
  operations,
  apiGroups: ['*'],
  apiVersions: ['*'],
  resources,
  ...(scope ? { scope } : {}),
});

// The fixes of blockers outside ownership as requests the simulation runs (issue 18, R76): deleting an APIService or
// a webhook configuration, setting a webhook's failurePolicy, restoring a Service's Pods; a user's PATCH goes through
// admission like a controller's; a reported discovery failure ends with the APIService that causes it.

import { describe, expect, it } from 'vitest';
import type { UserRequest } from '../../server/src/engine/simulation/changeRequest';
import { failingGroupVersions } from '../../server/src/engine/simulation/namespaceConditions';
import { DELETING, cm, manifests, namespace, type ObjectSpec } from '../helpers/manifests';
import { anyGroup, apiService, endpointSlice, endpoints, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { scenario } from '../helpers/scenario';

const METRICS = { namespace: 'monitoring', name: 'prometheus-adapter' };
const DISCOVERY_MESSAGE =
  'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.example.com/v1beta1: stale GroupVersion discovery: metrics.example.com/v1beta1';
const terminating = (name: string, conditions: object[] = []) =>
  namespace(name, { ...DELETING, extra: { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating', conditions } } });
const discoveryFailure = {
  type: 'NamespaceDeletionDiscoveryFailure',
  status: 'True',
  reason: 'DiscoveryFailed',
  message: DISCOVERY_MESSAGE,
};
const unavailable = apiService('v1beta1.metrics.example.com', METRICS, { status: 'False', reason: 'MissingEndpoints' });
const API_SERVICE = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', namespace: '', name: 'v1beta1.metrics.example.com' };
const SERVICE = { apiVersion: 'v1', kind: 'Service', ...METRICS };

function run(docs: ObjectSpec[], requests: UserRequest[]) {
  const s = scenario(manifests(...docs));
  return s.simulate(requests, { controllers: 'builtin', finalizerOwners: [{ finalizer: 'example.com/cleanup', external: true }] });
}
const gone = (r: ReturnType<typeof run>, name: string) => r.deleted.some((d) => d.name === name);

describe('R74 fixes: an unavailable APIService', () => {
  const docs = [
    terminating('team-a', [discoveryFailure]),
    cm('c', 'team-a'),
    unavailable,
    service(METRICS.name, METRICS.namespace),
    endpointSlice(METRICS.name, METRICS.namespace, 0),
  ];

  it('stays without a fix, the reported discovery failure with it', () => {
    expect(gone(run(docs, []), 'team-a')).toBe(false);
  });

  it('deleting the APIService finalizes the namespace: its group/version is no longer discovered (R76)', () => {
    const r = run(docs, [{ ...API_SERVICE }]);
    expect(gone(r, 'v1beta1.metrics.example.com')).toBe(true);
    expect(gone(r, 'team-a')).toBe(true);
  });

  it('restoring its Service makes it Available (EndpointSlice and availability controllers) and finalizes the namespace', () => {
    const r = run(docs, [{ verb: 'restore-backend', target: SERVICE }]);
    expect(gone(r, 'team-a')).toBe(true);
    expect(r.steps.filter((s) => s.action === 'update-status').map((s) => [s.actor, s.target.kind])).toEqual([
      ['endpointslice-controller', 'EndpointSlice'],
      ['apiserver', 'APIService'],
    ]);
  });

  it('restoring another Service changes nothing', () => {
    const r = run(docs, [{ verb: 'restore-backend', target: { ...SERVICE, name: 'other' } }]);
    expect(gone(r, 'team-a')).toBe(false);
  });

  it('a discovery failure naming a group/version no APIService of the input serves is taken to persist', () => {
    const other = { ...discoveryFailure, message: DISCOVERY_MESSAGE.replaceAll('metrics.example.com', 'other.example.com') };
    const r = run([terminating('team-a', [other]), ...docs.slice(1)], [{ ...API_SERVICE }]);
    expect(gone(r, 'team-a')).toBe(false);
  });

  it('reads the failing group/versions out of the condition message', () => {
    expect(failingGroupVersions(DISCOVERY_MESSAGE)).toEqual([{ group: 'metrics.example.com', version: 'v1beta1' }]);
    expect(failingGroupVersions('endpoints for service/prometheus-adapter have no addresses')).toEqual([]);
  });
});

describe('R75 fixes: a webhook that fails closed without a backend', () => {
  const hook = (failurePolicy: 'Fail' | 'Ignore' = 'Fail') =>
    webhookConfiguration('Validating', 'policy-guard', [
      {
        name: 'validate.guard.example.com',
        failurePolicy,
        service: { namespace: 'guard', name: 'guard-webhook' },
        rules: [anyGroup(['UPDATE'], ['configmaps'])],
      },
    ]);
  const CONFIG = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    namespace: '',
    name: 'policy-guard',
  };
  const held = cm('held', 'team-a', { ...DELETING, finalizers: ['example.com/cleanup'] });
  const docs = [held, hook(), service('guard-webhook', 'guard'), endpoints('guard-webhook', 'guard', 0)];

  it("setting failurePolicy: Ignore lets the finalizer's controller through", () => {
    expect(gone(run(docs, []), 'held')).toBe(false);
    const r = run(docs, [
      { verb: 'set-webhook-failure-policy', target: CONFIG, webhook: 'validate.guard.example.com', failurePolicy: 'Ignore' },
    ]);
    expect(r.steps.find((s) => s.action === 'update-spec')?.detail).toMatch(/^webhook validate\.guard\.example\.com failurePolicy Ignore/);
    expect(gone(r, 'held')).toBe(true);
  });

  it('a webhook that is not there: 422, nothing changes (the JSON patch tests its name)', () => {
    const r = run(docs, [{ verb: 'set-webhook-failure-policy', target: CONFIG, webhook: 'renamed.example.com', failurePolicy: 'Ignore' }]);
    expect(r.steps.find((s) => s.action === 'reject')?.detail).toBe(
      '422: ValidatingWebhookConfiguration policy-guard has no webhook renamed.example.com',
    );
    expect(gone(r, 'held')).toBe(false);
  });

  it('deleting the configuration, or restoring its Service, lets it through too', () => {
    expect(gone(run(docs, [{ ...CONFIG }]), 'held')).toBe(true);
    expect(
      gone(
        run(docs, [{ verb: 'restore-backend', target: { apiVersion: 'v1', kind: 'Service', namespace: 'guard', name: 'guard-webhook' } }]),
        'held',
      ),
    ).toBe(true);
  });

  it("rejects the user's own finalizer-removing PATCH while it blocks (500, as the apiserver answers)", () => {
    const remove: UserRequest = {
      verb: 'remove-finalizer',
      target: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team-a', name: 'held' },
      finalizer: 'example.com/cleanup',
    };
    const r = run(docs, [remove]);
    expect(r.steps.find((s) => s.action === 'reject')?.detail).toBe(
      '500: Internal error occurred: failed calling webhook "validate.guard.example.com": no endpoints available for service "guard-webhook"',
    );
    expect(gone(r, 'held')).toBe(false);
    expect(gone(run([held, hook('Ignore'), ...docs.slice(2)], [remove]), 'held')).toBe(true);
  });
});

describe('R86: no backend is restored in a namespace being deleted', () => {
  const docs = [
    terminating('team-a'),
    cm('c', 'team-a'),
    terminating('monitoring'),
    unavailable,
    service(METRICS.name, METRICS.namespace),
    endpointSlice(METRICS.name, METRICS.namespace, 0),
  ];

  it('restoring a Service whose namespace is being deleted is refused (NamespaceLifecycle, 403): nothing becomes Available', () => {
    const r = run(docs, [{ verb: 'restore-backend', target: SERVICE }]);
    expect(r.steps.find((s) => s.action === 'reject')?.detail).toBe(
      '403: unable to create new content in namespace monitoring because it is being terminated (no Pod behind Service monitoring/prometheus-adapter can be created)',
    );
    expect(r.steps.some((s) => s.action === 'update-status' && s.target.kind === 'APIService')).toBe(false);
    expect(gone(r, 'team-a')).toBe(false);
    expect(gone(r, 'monitoring')).toBe(false);
  });

  it('the APIService served again by its add-on reinstalled elsewhere is Available: every namespace finishes', () => {
    const r = run(docs, [{ verb: 'restore-backend', target: API_SERVICE }]);
    expect(r.steps.find((s) => s.action === 'update-status' && s.target.kind === 'APIService')?.detail).toMatch(
      /^Available=True \(kube-aggregator's availability controller\): its add-on runs again outside namespace monitoring/,
    );
    expect(gone(r, 'team-a')).toBe(true);
    expect(gone(r, 'monitoring')).toBe(true);
  });

  it('an APIService that is not there is a 404', () => {
    const r = run(docs, [{ verb: 'restore-backend', target: { ...API_SERVICE, name: 'v1.nothing.example.com' } }]);
    expect(r.steps.find((s) => s.action === 'reject')?.detail).toBe(
      '404: apiservices.apiregistration.k8s.io "v1.nothing.example.com" not found',
    );
    expect(gone(r, 'team-a')).toBe(false);
  });

  it("a webhook's Service whose namespace is gone after a DELETE: 404", () => {
    const hook = webhookConfiguration('Validating', 'policy-guard', [
      {
        name: 'validate.guard.example.com',
        service: { namespace: 'guard', name: 'guard-webhook' },
        rules: [anyGroup(['UPDATE'], ['configmaps'])],
      },
    ]);
    const held = cm('held', 'team-a', { ...DELETING, finalizers: ['example.com/cleanup'] });
    const r = run(
      [held, hook, namespace('guard'), service('guard-webhook', 'guard'), endpoints('guard-webhook', 'guard', 0)],
      [
        { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'guard' },
        { verb: 'restore-backend', target: { apiVersion: 'v1', kind: 'Service', namespace: 'guard', name: 'guard-webhook' } },
      ],
    );
    expect(gone(r, 'guard')).toBe(true);
    expect(r.steps.find((s) => s.action === 'reject' && s.target.kind === 'Service')?.detail).toBe(
      '404: namespaces "guard" not found (no Pod behind Service guard/guard-webhook can be created)',
    );
  });
});

// Blockers outside ownership (issue 18, R74, R75): an APIService that is not Available keeps every terminating
// Namespace from being finalized; a failurePolicy: Fail webhook without a backend rejects the DELETE and UPDATE
// requests a deletion needs. Each is a named cause in the why-chain, with its fixes.

import { describe, expect, it } from 'vitest';
import type { BlockReason } from '../../server/src/engine/simulation/types';
import { DELETING, HOLD, cm, deploy, manifests, namespace, pod, type ObjectSpec } from '../helpers/manifests';
import { anyGroup, apiService, endpointSlice, endpoints, service, webhookConfiguration } from '../helpers/clusterBlockers';
import { scenario } from '../helpers/scenario';
import { inventoryView } from '../../server/src/engine/analysis/blockerFindings';
import { failingWebhooks } from '../../server/src/engine/simulation/clusterBlockers';
import { HOSTILE, shellWords } from '../helpers/shellWords';

const NOTHING: never[] = [];
const terminating = (name: string) => namespace(name, { ...DELETING, extra: { status: { phase: 'Terminating' } } });
const METRICS = { namespace: 'monitoring', name: 'prometheus-adapter' };
const unavailableMetrics = apiService('v1beta1.metrics.k8s.io', METRICS, {
  status: 'False',
  reason: 'MissingEndpoints',
  message: 'endpoints for service/prometheus-adapter in "monitoring" have no addresses with port name "https"',
});

function stuckNamespace(docs: ObjectSpec[], name = 'team-a') {
  const s = scenario(manifests(...docs));
  const r = s.simulate(NOTHING, { controllers: 'builtin' });
  return { s, r, entry: r.stuck.find((e) => e.kind === 'Namespace' && e.name === name) };
}

function flatten(reasons: BlockReason[] = []): BlockReason[] {
  return reasons.flatMap((r) => [r, ...flatten(r.blockedBy)]);
}

describe('R74: an unavailable APIService keeps a terminating Namespace', () => {
  it('names the APIService and its Service without endpoints, and stays Terminating though its content is gone', () => {
    const { entry } = stuckNamespace([
      terminating('team-a'),
      cm('c', 'team-a'),
      unavailableMetrics,
      service('prometheus-adapter', 'monitoring'),
      endpointSlice('prometheus-adapter', 'monitoring', 0),
    ]);
    expect(entry).toBeDefined();
    const reason = entry!.blockedBy.find((b) => b.type === 'unavailable-apiservice')!;
    expect(reason.message).toMatch(
      /^APIService v1beta1\.metrics\.k8s\.io is unavailable \(its Service monitoring\/prometheus-adapter has no ready endpoints\): discovery of metrics\.k8s\.io\/v1beta1 fails/,
    );
    expect(reason.object).toMatchObject({ kind: 'APIService', name: 'v1beta1.metrics.k8s.io' });
    // R85: served by a Service, it is prometheus-adapter's, not Kubernetes' own: restoring it, or deleting it, is offered.
    expect(reason.infrastructure).toBeUndefined();
    expect(reason.fixes!.map((f) => [f.risk, f.command])).toEqual([
      ['safe', 'kubectl -n monitoring get endpointslices -l kubernetes.io/service-name=prometheus-adapter'],
      ['caution', 'kubectl delete apiservice/v1beta1.metrics.k8s.io'],
    ]);
  });

  it("R85: an add-on's APIService named like Kubernetes' own groups (cert-manager's, from kube-system) may be deleted", () => {
    for (const [name, svc] of [
      ['v1beta1.admission.certmanager.k8s.io', { namespace: 'cert-manager', name: 'cert-manager-webhook' }],
      ['v1beta1.metrics.k8s.io', { namespace: 'kube-system', name: 'metrics-server' }],
    ] as const) {
      const { entry } = stuckNamespace([terminating('team-a'), apiService(name, svc, { status: 'False', reason: 'ServiceNotFound' })]);
      const reason = entry!.blockedBy.find((b) => b.type === 'unavailable-apiservice')!;
      expect(reason.infrastructure).toBeUndefined();
      // R90: the aggregator reports its Service not found: stale, so deleting it is safe, and offered first.
      expect(reason.fixes![0]).toMatchObject({ command: `kubectl delete apiservice/${name}`, risk: 'safe' });
    }
  });

  it('R86: a backend in a namespace being deleted is never restored there: reinstalled elsewhere, or the APIService deleted', () => {
    const { entry } = stuckNamespace(
      [
        terminating('monitoring'),
        unavailableMetrics,
        service('prometheus-adapter', 'monitoring'),
        endpointSlice('prometheus-adapter', 'monitoring', 0),
        deploy('prometheus-adapter', 'monitoring'),
      ],
      'monitoring',
    );
    const reason = flatten(entry!.blockedBy).find((b) => b.type === 'unavailable-apiservice')!;
    // Its Service's namespace is being deleted: no Pod there can serve it again.
    expect(reason.message).toContain(
      'its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted, so nothing there can serve it again): discovery of',
    );
    expect(reason.fixes!.map((f) => [f.risk, f.title])).toEqual([
      [
        'safe',
        'Delete APIService v1beta1.metrics.k8s.io: its add-on is gone or going, as its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted; it serves nothing now (reinstalling the add-on registers it again)',
      ],
      [
        'safe',
        'Reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace and point the APIService at its Service there (namespace monitoring is being deleted: nothing new can be created in it)',
      ],
    ]);
    expect(reason.fixes!.some((f) => f.command?.includes('scale'))).toBe(false);
  });

  it('offers to delete an add-on APIService, and to scale up the Deployment named like its Service', () => {
    const { entry } = stuckNamespace([
      terminating('team-a'),
      apiService(
        'v1alpha1.custom.example.com',
        { namespace: 'addons', name: 'custom-api' },
        { status: 'False', reason: 'FailedDiscoveryCheck' },
      ),
      deploy('custom-api', 'addons'),
    ]);
    const reason = entry!.blockedBy.find((b) => b.type === 'unavailable-apiservice')!;
    expect(reason.message).toContain('APIService v1alpha1.custom.example.com is unavailable (FailedDiscoveryCheck)');
    expect(reason.infrastructure).toBeUndefined();
    expect(reason.fixes!.map((f) => [f.risk, f.command])).toEqual([
      ['safe', 'kubectl -n addons scale deployment/custom-api --replicas=1'],
      ['caution', 'kubectl delete apiservice/v1alpha1.custom.example.com'],
    ]);
  });

  it('does not keep the Namespace when the APIService is Available, local, or its state unknown', () => {
    for (const a of [
      apiService('v1beta1.metrics.k8s.io', METRICS, { status: 'True' }),
      apiService('v1.apps', undefined, { status: 'False' }),
      apiService('v1beta1.metrics.k8s.io', METRICS, undefined),
    ]) {
      const { r } = stuckNamespace([terminating('team-a'), cm('c', 'team-a'), a]);
      expect(r.stuck).toEqual([]);
    }
  });

  it('never advises deleting an APIService served from an OpenShift platform namespace', () => {
    const { entry } = stuckNamespace([
      terminating('team-a'),
      apiService('v1.apps.openshift.io', { namespace: 'openshift-apiserver', name: 'api' }, { status: 'False', reason: 'ServiceNotFound' }),
    ]);
    const reason = entry!.blockedBy.find((b) => b.type === 'unavailable-apiservice')!;
    expect(reason.infrastructure).toBe(
      'APIService v1.apps.openshift.io is served from openshift-apiserver, an OpenShift platform namespace',
    );
    expect(reason.fixes!.some((f) => f.command?.startsWith('kubectl delete'))).toBe(false);
  });
});

describe('R75: a failurePolicy: Fail webhook without a backend rejects what the deletion needs', () => {
  const guard = (more: Partial<Parameters<typeof webhookConfiguration>[2][number]> = {}) =>
    webhookConfiguration('Validating', 'policy-guard', [
      {
        name: 'validate.guard.example.com',
        service: { namespace: 'guard', name: 'guard-webhook' },
        rules: [anyGroup(['UPDATE', 'DELETE'], ['configmaps'])],
        ...more,
      },
    ]);
  const downBackend = [service('guard-webhook', 'guard'), endpoints('guard-webhook', 'guard', 0)];

  it("rejects the namespace controller's DELETE of what is left: the content stays, and the chain names the webhook", () => {
    const { r, entry } = stuckNamespace([terminating('team-a'), cm('c', 'team-a'), guard(), ...downBackend]);
    expect(r.deleted).toEqual([]);
    const hook = flatten(entry!.blockedBy).find(
      (b) => b.type === 'blocking-webhook' && b.object?.kind === 'ValidatingWebhookConfiguration',
    )!;
    expect(hook.message).toBe(
      "ValidatingWebhookConfiguration policy-guard's webhook validate.guard.example.com intercepts the DELETE of ConfigMap team-a/c with failurePolicy: Fail, and its Service guard/guard-webhook has no ready endpoints, so the apiserver rejects it",
    );
    expect(hook.fixes!.map((f) => f.command)).toEqual([
      'kubectl -n guard get endpointslices -l kubernetes.io/service-name=guard-webhook',
      `kubectl patch validatingwebhookconfiguration/policy-guard --type=json -p '[{"op":"test","path":"/metadata/uid","value":"uid-policy-guard"},{"op":"test","path":"/webhooks/0/name","value":"validate.guard.example.com"},{"op":"test","path":"/webhooks/0/failurePolicy","value":"Fail"},{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]'`,
      'kubectl delete validatingwebhookconfiguration/policy-guard',
    ]);
  });

  it("R86: a webhook's backend in a namespace being deleted is not restored there: failurePolicy Ignore or deleting it is left", () => {
    const s = scenario(manifests(terminating('guard'), guard(), ...downBackend));
    const config = s.inventory.find('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', '', 'policy-guard')!;
    const [b] = failingWebhooks(inventoryView(s.inventory), config);
    expect(b.why).toBe(
      'its Service guard/guard-webhook has no ready endpoints; namespace guard is being deleted, so nothing new can be created in it',
    );
    expect(b.fixes.map((f) => f.title.replace(/:.*/, ''))).toEqual([
      'Let requests through while its backend is down',
      'Delete ValidatingWebhookConfiguration policy-guard if its add-on is gone for good',
    ]);
  });

  it('rejects the UPDATE that removes a finalizer', () => {
    const held = cm('held', 'team-a', { ...DELETING, finalizers: ['example.com/cleanup'] });
    const s = scenario(manifests(held, guard(), ...downBackend));
    const r = s.simulate(NOTHING, { controllers: 'builtin', finalizerOwners: [{ finalizer: 'example.com/cleanup', external: true }] });
    const entry = r.stuck.find((e) => e.name === 'held')!;
    expect(entry.blockedBy.map((b) => b.type)).toContain('blocking-webhook');
    expect(entry.blockedBy.find((b) => b.type === 'blocking-webhook')!.message).toContain('intercepts the UPDATE of ConfigMap team-a/held');
  });

  it('rejects the finalize UPDATE of the Namespace itself (namespaces/finalize)', () => {
    const hook = webhookConfiguration('Mutating', 'ns-guard', [
      { name: 'ns.guard.example.com', service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['UPDATE'], ['namespaces/*'])] },
    ]);
    const { entry } = stuckNamespace([terminating('team-a'), hook, endpointSlice('other', 'guard', 1)]);
    const reason = entry!.blockedBy.find((b) => b.type === 'blocking-webhook')!;
    expect(reason.message).toContain('intercepts the UPDATE of Namespace team-a/finalize');
    expect(reason.message).toContain('its Service guard/gone does not exist');
  });

  it('lets the request through when the webhook does not match or does not fail closed', () => {
    const cases = [
      guard({ failurePolicy: 'Ignore' }),
      guard({ rules: [anyGroup(['CREATE'], ['configmaps'])] }),
      guard({ rules: [anyGroup(['DELETE'], ['secrets'])] }),
      guard({ rules: [anyGroup(['DELETE'], ['configmaps/status'])] }),
      guard({ rules: [anyGroup(['DELETE'], ['configmaps'], 'Cluster')] }),
      guard({ namespaceSelector: { matchLabels: { guarded: 'true' } } }),
      guard({ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['team-a'] }] } }),
      guard({ objectSelector: { matchLabels: { app: 'x' } } }),
      guard({ matchConditions: [{ name: 'never', expression: 'false' }] }),
    ];
    for (const g of cases) {
      const { r } = stuckNamespace([terminating('team-a'), cm('c', 'team-a'), g, ...downBackend]);
      expect(r.stuck, JSON.stringify(g.extra)).toEqual([]);
    }
  });

  it('lets the request through while the backend has a ready endpoint, and when nothing says whether it has', () => {
    for (const backend of [[endpointSlice('guard-webhook', 'guard', 1, 1)], [endpoints('guard-webhook', 'guard', 2)], []]) {
      const { r } = stuckNamespace([terminating('team-a'), cm('c', 'team-a'), guard(), ...backend]);
      expect(r.stuck).toEqual([]);
    }
  });

  it('matches a namespaceSelector against the namespace labels, the metadata.name label included', () => {
    const g = guard({
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] },
    });
    const { entry } = stuckNamespace([terminating('team-a'), cm('c', 'team-a'), g, ...downBackend]);
    expect(flatten(entry!.blockedBy).some((b) => b.type === 'blocking-webhook')).toBe(true);
  });

  it("rejects a kubelet's final DELETE of a Pod", () => {
    const g = webhookConfiguration('Validating', 'pods', [
      { name: 'pods.example.com', service: { namespace: 'guard', name: 'guard-webhook' }, rules: [anyGroup(['DELETE'], ['pods'])] },
    ]);
    const s = scenario(
      manifests(
        pod('p', 'team-a', {
          ...DELETING,
          deletionGracePeriodSeconds: 30,
          extra: { spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] } },
        }),
        g,
        ...downBackend,
      ),
    );
    const r = s.simulate(NOTHING, { controllers: 'builtin' });
    expect(r.stuck.map((e) => e.name)).toEqual(['p']);
  });
});

describe('strict mode: no controller sends the requests', () => {
  it('an unavailable APIService is named only where the namespace controller runs', () => {
    const s = scenario(manifests(terminating('team-a'), unavailableMetrics, pod('held', 'team-a', { ...DELETING, finalizers: [HOLD] })));
    const r = s.simulate(NOTHING, { controllers: 'gc' });
    const types = flatten(r.stuck.find((e) => e.kind === 'Namespace')!.blockedBy).map((b) => b.type);
    expect(types).not.toContain('unavailable-apiservice');
  });
});

describe('findings', () => {
  it('unavailable-apiservice on the APIService, naming the Namespace it holds', () => {
    const s = scenario(manifests(terminating('team-a'), unavailableMetrics, endpointSlice('prometheus-adapter', 'monitoring', 0)));
    const f = s.findings().filter((x) => x.code === 'unavailable-apiservice');
    expect(f).toHaveLength(1);
    expect(f[0].object.name).toBe('v1beta1.metrics.k8s.io');
    expect(f[0].message).toContain('no Namespace can finish deleting while it is. It holds Namespace team-a now.');
    // R85: prometheus-adapter's, so its deletion is advised, with what it costs.
    expect(f[0].message).toContain(
      'Restore its backend, or delete the APIService if its add-on is gone: metrics.k8s.io/v1beta1 is no longer served: kubectl top and HorizontalPodAutoscalers on CPU or memory get no metrics',
    );
    expect(f[0].message).not.toContain('Do not delete it');
    // R86, R90: its backend's namespace being deleted, it is stale: deleted, or its add-on reinstalled elsewhere.
    const closing = scenario(manifests(terminating('team-a'), terminating('monitoring'), unavailableMetrics));
    expect(closing.findings().find((x) => x.code === 'unavailable-apiservice')!.message).toContain(
      'is in namespace monitoring, which is being deleted, so nothing there can serve it again): discovery of metrics.k8s.io/v1beta1 fails, so no Namespace can finish deleting while it is. It holds Namespace team-a, Namespace monitoring now. Its add-on is gone or going, as its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted: delete the APIService, or reinstall its add-on in another namespace and point the APIService at it: metrics.k8s.io/v1beta1 is no longer served',
    );
    expect(f[0].related.map((r) => r.object?.name)).toEqual(['team-a']);
  });

  it('blocking-webhook on the webhook configuration; none for a webhook that fails open', () => {
    const hooks = (failurePolicy: 'Fail' | 'Ignore') =>
      webhookConfiguration('Validating', 'policy-guard', [
        { name: 'v.example.com', failurePolicy, service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['DELETE'], ['*'])] },
      ]);
    const found = (p: 'Fail' | 'Ignore') =>
      scenario(manifests(terminating('team-a'), cm('c', 'team-a'), hooks(p), endpointSlice('other', 'guard', 1)))
        .findings()
        .filter((x) => x.code === 'blocking-webhook');
    const fail = found('Fail');
    expect(fail).toHaveLength(1);
    expect(fail[0].object.kind).toBe('ValidatingWebhookConfiguration');
    expect(fail[0].message).toContain('its Service guard/gone does not exist');
    expect(fail[0].message).toContain('It holds Namespace team-a');
    expect(found('Ignore')).toEqual([]);
  });
});

describe('hostile names in fix commands', () => {
  it('quotes every name as one shell word: the shell gives kubectl exactly the names', () => {
    for (const bad of HOSTILE.filter((h) => h !== '')) {
      const svc = { namespace: `ns ${bad}`, name: `svc${bad}` };
      const hook = webhookConfiguration('Validating', `cfg${bad}`, [
        { name: `hook${bad}`, service: svc, rules: [anyGroup(['DELETE'], ['configmaps'])] },
      ]);
      const { entry } = stuckNamespace([
        terminating('team-a'),
        cm('c', 'team-a'),
        apiService(`v1.x${bad}.example.com`, svc, { status: 'False', reason: 'ServiceNotFound' }),
        hook,
        service(svc.name, svc.namespace),
        endpointSlice('other', svc.namespace, 1),
        deploy(svc.name, svc.namespace),
      ]);
      const fixes = flatten(entry!.blockedBy).flatMap((b) => b.fixes ?? []);
      // A patch body as kubectl reads it: the JSON, not its spelling (unshown characters are \u escapes).
      const argv = fixes.map((f) => shellWords(f.command!).map((w, i, all) => (all[i - 1] === '-p' ? JSON.parse(w) : w)));
      const sorted = (a: unknown[][]) => a.map((w) => JSON.stringify(w)).sort();
      expect(sorted(argv), JSON.stringify(bad)).toEqual(
        sorted([
          ['-n', svc.namespace, 'scale', `deployment/${svc.name}`, '--replicas=1'],
          ['delete', `apiservice/v1.x${bad}.example.com`],
          ['-n', svc.namespace, 'scale', `deployment/${svc.name}`, '--replicas=1'],
          [
            'patch',
            `validatingwebhookconfiguration/cfg${bad}`,
            '--type=json',
            '-p',
            [
              { op: 'test', path: '/metadata/uid', value: hook.uid },
              { op: 'test', path: '/webhooks/0/name', value: `hook${bad}` },
              { op: 'test', path: '/webhooks/0/failurePolicy', value: 'Fail' },
              { op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' },
            ],
          ],
          ['delete', `validatingwebhookconfiguration/cfg${bad}`],
        ]),
      );
    }
  });
});

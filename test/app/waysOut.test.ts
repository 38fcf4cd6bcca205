// Ways out of a stuck deletion (issue 18), each simulated: the safest first, a command a user can paste (with a
// JSON patch test op), what a dangerous one leaves behind, and never a deletion to get out.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waysOut, shellWord } from '../../server/src/app/waysOut';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { bref, cm, deploy, HOLD, manifests, namespace, obj, pod, TERMINATING, workloadSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from '../helpers/clusterBlockers';

const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
const STRICT = { controllers: 'gc', finalizerOwners: [] };
const KAFKA_FINALIZER = 'kafka.strimzi.io/finalizer';

describe('ways out', () => {
  it('a custom resource held by an operator scaled to 0: scale it up (safe) before removing the finalizer (dangerous)', () => {
    const operator = deploy('strimzi-cluster-operator', 'kafka', {
      extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
    });
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    const s = scenario(manifests(namespace('kafka'), operator, kafka));
    const ways = waysOut(s.inventory, kafka.uid, BUILTIN);
    expect(ways.map((w) => [w.risk, w.command])).toEqual([
      [
        'safe',
        `kubectl patch deployment.apps/strimzi-cluster-operator -n kafka --subresource=scale --type=json -p '[{"op":"test","path":"/metadata/uid","value":"${operator.uid}"},{"op":"test","path":"/spec","value":{}},{"op":"add","path":"/spec/replicas","value":1}]'`,
      ],
      [
        'dangerous',
        `kubectl patch kafka.kafka.strimzi.io/my-cluster -n kafka --type=json -p '[{"op":"test","path":"/metadata/uid","value":"${kafka.uid}"},{"op":"test","path":"/metadata/finalizers/0","value":"${KAFKA_FINALIZER}"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
      ],
    ]);
    expect(ways[0].outcome.summary).toBe(
      'Scaling Deployment kafka/strimzi-cluster-operator to 1 replica: 1 object deleted (1 Kafka), 0 stuck, 0 orphaned',
    );
    expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['my-cluster']);
    expect(ways[1].warning).toMatch(/left behind/);
  });

  it('every patch tests the uid shown first, then the resourceVersion it was read at; a synthetic uid (a manifest without one) is never tested', () => {
    const meta = `namespace: shop, deletionTimestamp: "2025-01-01T00:00:00Z", deletionGracePeriodSeconds: 0, finalizers: [${HOLD}]`;
    const s = scenario(
      [
        `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: read, uid: u-read, resourceVersion: "41", ${meta} }`,
        `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: written, ${meta} }`,
      ].join('\n---\n'),
    );
    const removal = (name: string) => {
      const o = s.inventory.find('', 'ConfigMap', 'shop', name)!;
      return { o, way: waysOut(s.inventory, o.uid, BUILTIN).find((w) => w.title.startsWith(`Remove the finalizer ${HOLD}`))! };
    };
    const read = removal('read').way;
    const ops = [
      { op: 'test', path: '/metadata/uid', value: 'u-read' },
      { op: 'test', path: '/metadata/resourceVersion', value: '41' },
      { op: 'test', path: '/metadata/finalizers/0', value: HOLD },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ];
    expect(read.patch?.ops).toEqual(ops);
    expect(read.command).toBe(`kubectl patch configmap/read -n shop --type=json -p '${JSON.stringify(ops)}'`);
    const written = removal('written');
    expect(written.o.syntheticUid).toBe(true);
    expect(written.way.patch?.ops).toEqual(ops.slice(2));
    expect(written.way.command).not.toContain('synthetic:');
  });

  it('an operator scaled to 0 in a namespace being deleted: no scale-up (no Pod is created there), reinstall it elsewhere', () => {
    const operator = deploy('strimzi-cluster-operator', 'strimzi', {
      extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
    });
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    // Its namespace being deleted, the namespace controller deletes it too: either way, nothing runs it there again.
    for (const [closing, first] of [
      [
        false,
        `kubectl patch deployment.apps/strimzi-cluster-operator -n strimzi --subresource=scale --type=json -p '[{"op":"test","path":"/metadata/uid","value":"${operator.uid}"},{"op":"test","path":"/spec","value":{}},{"op":"add","path":"/spec/replicas","value":1}]'`,
      ],
      [
        true,
        "# 'no single kubectl command: install the operator of Deployment strimzi/strimzi-cluster-operator in another namespace (strimzi is being deleted), watching namespace kafka'",
      ],
    ] as const) {
      const ns = namespace('strimzi', closing ? { ...TERMINATING, phase: 'Terminating' } : {});
      const s = scenario(manifests(ns, namespace('kafka'), operator, kafka));
      const ways = waysOut(s.inventory, kafka.uid, BUILTIN);
      expect(ways[0].risk).toBe('safe');
      expect(ways[0].command).toBe(first);
      expect(ways[0].outcome.deleted.map((d) => d.name)).toContain('my-cluster');
      expect(ways.some((w) => w.command.includes(' --subresource=scale '))).toBe(!closing);
    }
  });

  it('simulating a reinstalled operator leaves the next simulation of the same input as it was', () => {
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    const s = scenario(manifests(namespace('kafka'), kafka));
    expect(waysOut(s.inventory, kafka.uid, BUILTIN)[0].title).toMatch(/^Reinstall/);
    // Not the cached baseline: a fresh run with the same (cached) finalizer owners.
    expect(simulate(s.inventory, [], BUILTIN).stuck.map((e) => e.name)).toEqual(['my-cluster']);
  });

  it('an operator that is gone: reinstall it (said, not a command), then the finalizer', () => {
    const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', 'kafka', 'my-cluster', { finalizers: [KAFKA_FINALIZER], ...TERMINATING });
    const s = scenario(manifests(namespace('kafka'), kafka, cm('config', 'kafka', { owners: [bref(kafka)] })));
    const ways = waysOut(s.inventory, kafka.uid, BUILTIN);
    expect(ways.map((w) => w.risk)).toEqual(['safe', 'dangerous']);
    expect(ways[0].command).toBe(
      '# no single kubectl command: reinstall the operator that removes kafka.strimzi.io/finalizer from its manifests or Helm chart',
    );
    // Its outcome: the resource goes, and what it owned with it.
    expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['my-cluster', 'config']);
  });

  it('a namespace stuck on its content: the ways out of what holds it, then finalizing it without its content', () => {
    const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
    const ns = namespace('team', { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });
    const s = scenario(manifests(ns, held));
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    expect(ways.map((w) => w.title)).toEqual([
      'Reinstall the operator that removes example.com/hold',
      'Remove the finalizer example.com/hold from ConfigMap team/held',
      'Finalize namespace team without waiting for its content (remove spec.finalizers kubernetes)',
    ]);
    for (const w of ways) expect(w.outcome.deleted.map((d) => d.name)).toContain('team');
    expect(ways[2].command).toBe(
      `kubectl get namespace/team -o json | jq '.spec.finalizers -= ["kubernetes"]' | kubectl replace --raw /api/v1/namespaces/team/finalize -f -`,
    );
  });

  it('an owner waiting in the foreground for a stuck blocking dependent: release the dependent, or cut the reference (caution)', () => {
    const owner = cm('owner', 'shop', { finalizers: ['foregroundDeletion'], ...TERMINATING });
    const dependent = cm('dependent', 'shop', { owners: [bref(owner)], finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(owner, dependent));
    const ways = waysOut(s.inventory, owner.uid, STRICT);
    expect(ways.map((w) => [w.risk, w.title])).toEqual([
      ['caution', 'Remove the ownerReference of ConfigMap shop/dependent to ConfigMap owner'],
      ['caution', 'Remove the finalizer foregroundDeletion from ConfigMap shop/owner'],
      ['dangerous', 'Remove the finalizer example.com/hold from ConfigMap shop/dependent'],
    ]);
    expect(ways[0].command).toContain(`"op":"test","path":"/metadata/ownerReferences/0/uid","value":"${owner.uid}"`);
    // Removing the reference releases the owner; the dependent stays stuck on its own finalizer.
    expect(ways[0].outcome.stuck.map((e) => e.name)).toEqual(['dependent']);
  });

  it('a Pod whose node never confirms: force-delete it (caution)', () => {
    const p = pod('web-0', 'shop', { nodeName: 'gone-node', deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 });
    const s = scenario(manifests(p));
    const ways = waysOut(s.inventory, p.uid, STRICT);
    expect(ways[0]).toMatchObject({ risk: 'caution', command: 'kubectl delete pod/web-0 -n shop --grace-period=0 --force' });
  });

  it('nothing for an object that is not stuck', () => {
    const s = scenario(manifests(cm('fine', 'shop')));
    expect(waysOut(s.inventory, 'uid-fine', STRICT)).toEqual([]);
  });

  it('quotes hostile names as one shell word', () => {
    expect(shellWord("a'b; rm -rf /")).toBe(`'a'\\''b; rm -rf /'`);
    expect(shellWord('deployment.apps/web')).toBe('deployment.apps/web');
  });
});

describe('ways out through blockers outside ownership', () => {
  const METRICS = { namespace: 'monitoring', name: 'metrics-api' };
  const stuckNs = (name: string) =>
    namespace(name, { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });

  it('an unavailable add-on APIService: restore its Pods (safe) or delete it (caution), each simulated, whatever its name (R85)', () => {
    const addOn = apiService('v1beta1.metrics.example.com', METRICS, { status: 'False', reason: 'MissingEndpoints' });
    // Named like Kubernetes' own groups, but served by a Service: metrics-server's or prometheus-adapter's.
    const metrics = apiService('v1beta1.metrics.k8s.io', METRICS, { status: 'False', reason: 'MissingEndpoints' });
    for (const a of [addOn, metrics]) {
      const ns = stuckNs('team');
      const s = scenario(manifests(ns, a, service(METRICS.name, METRICS.namespace), endpointSlice(METRICS.name, METRICS.namespace, 0)));
      const ways = waysOut(s.inventory, ns.uid, BUILTIN);
      const titles = ways.map((w) => `${w.risk}: ${w.title}`);
      expect(titles[0]).toBe(
        'safe: Restore the Pods behind Service monitoring/metrics-api (reinstall or scale up the workload it selects)',
      );
      expect(ways[0].command).toBe('# no single kubectl command: reinstall or scale up the workload behind Service monitoring/metrics-api');
      expect(ways[0].outcome.deleted.map((d) => d.name)).toEqual(['team']);
      expect(ways[0].outcome.summary).toMatch(/^Restoring the Pods behind Service monitoring\/metrics-api: /);
      expect(ways[0].infrastructure).toBeUndefined();
      const del = ways.find((w) => w.command === `kubectl delete apiservice/${a.name}`)!;
      expect(del.risk).toBe('caution');
      expect(del.warning).toMatch(/no longer served/);
      expect(del.outcome.deleted.map((d) => d.name).sort()).toEqual(['team', a.name]);
      if (a === metrics)
        expect(del.warning).toBe(
          'metrics.k8s.io/v1beta1 is no longer served: kubectl top and HorizontalPodAutoscalers on CPU or memory get no metrics, as now while it is unavailable, until its add-on registers it again (reinstalling the add-on does)',
        );
    }
  });

  it('R86, R90: its backend in a namespace being deleted: never restored there; the stale APIService deleted first (safe), or its add-on reinstalled elsewhere', () => {
    const adapter = { namespace: 'monitoring', name: 'prometheus-adapter' };
    const metrics = apiService('v1beta1.metrics.k8s.io', adapter, { status: 'False', reason: 'MissingEndpoints' });
    const [monitoring, team] = [stuckNs('monitoring'), stuckNs('team')];
    const s = scenario(
      manifests(
        team,
        monitoring,
        metrics,
        service(adapter.name, adapter.namespace),
        endpointSlice(adapter.name, adapter.namespace, 0),
        deploy(adapter.name, adapter.namespace, {
          extra: { spec: workloadSpec({ app: 'adapter' }, [{ name: 'a', image: 'adapter' }], { replicas: 0 }) },
        }),
      ),
    );
    for (const [ns, uid] of [
      ['monitoring', monitoring.uid],
      ['team', team.uid],
    ]) {
      const ways = waysOut(s.inventory, uid, BUILTIN);
      expect(ways.map((w) => `${w.risk}: ${w.title}`)).toEqual([
        'safe: Delete APIService v1beta1.metrics.k8s.io: its add-on is gone or going, as its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted; it serves nothing now (reinstalling the add-on registers it again)',
        'safe: Reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace and point the APIService at its Service there (namespace monitoring is being deleted: nothing new can be created in it)',
        `dangerous: Finalize namespace ${ns} without waiting for its content (remove spec.finalizers kubernetes)`,
      ]);
      for (const w of ways) {
        expect(w.title).not.toMatch(/Restore the Pods|Recreate Service/);
        expect(w.command).not.toContain('scale');
        expect(w.outcome.deleted.map((d) => d.name)).toContain(ns);
      }
      expect(ways[0].command).toBe('kubectl delete apiservice/v1beta1.metrics.k8s.io');
      expect(ways[1].command.split('\n')).toEqual([
        '# no single kubectl command: reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace, not monitoring',
        '# then point spec.service of APIService v1beta1.metrics.k8s.io at its Service there, unless its manifests register it again: kubectl edit apiservice/v1beta1.metrics.k8s.io',
      ]);
      expect(ways[1].requests).toEqual([
        { verb: 'restore-backend', apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', name: 'v1beta1.metrics.k8s.io' },
      ]);
      expect(ways[1].outcome.summary).toMatch(/^Serving APIService v1beta1\.metrics\.k8s\.io from its add-on reinstalled elsewhere: /);
    }
  });

  it('R86: a namespace deleted by the prior requests is closed too: no backend restored there', () => {
    const adapter = { namespace: 'monitoring', name: 'prometheus-adapter' };
    const [team, monitoring] = [stuckNs('team'), namespace('monitoring')];
    const s = scenario(
      manifests(
        team,
        monitoring,
        apiService('v1beta1.metrics.k8s.io', adapter, { status: 'False', reason: 'MissingEndpoints' }),
        service(adapter.name, adapter.namespace),
        endpointSlice(adapter.name, adapter.namespace, 0),
      ),
    );
    const before = waysOut(s.inventory, team.uid, BUILTIN);
    expect(before[0].title).toMatch(/^Restore the Pods behind Service monitoring\/prometheus-adapter/);
    const after = waysOut(s.inventory, monitoring.uid, BUILTIN, [
      { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'monitoring' },
    ]);
    expect(after.map((w) => w.title.replace(/ \(.*/, ''))).toEqual([
      'Delete APIService v1beta1.metrics.k8s.io: its add-on is gone or going, as its Service monitoring/prometheus-adapter is in namespace monitoring, which is being deleted; it serves nothing now',
      'Reinstall the add-on that serves APIService v1beta1.metrics.k8s.io in another namespace and point the APIService at its Service there',
      'Finalize namespace monitoring without waiting for its content',
    ]);
  });

  it("a webhook that rejects the finalizer's removal: failurePolicy Ignore alone, then with the finalizer's removal when nothing else removes it", () => {
    const guard = webhookConfiguration('Validating', 'guard', [
      { name: 'validate.guard.example.com', service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]);
    const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(manifests(held, guard, endpointSlice('other', 'guard', 1)));
    const ways = waysOut(s.inventory, held.uid, BUILTIN);
    const ignore = ways.find((w) => w.title.startsWith('Let requests through'))!;
    // Alone it clears the webhook, but nothing runs that removes the finalizer: said so, with its outcome.
    expect(ignore.warning).toMatch(/this alone does not release it: ConfigMap team\/held stays Terminating/);
    expect(ignore.outcome.stuck.map((e) => e.name)).toEqual(['held']);
    const both = ways.find((w) => w.title.startsWith('Let requests through') && w.title.includes('then: Remove the finalizer'))!;
    expect(both.risk).toBe('dangerous');
    expect(both.command).toMatch(/^kubectl patch validatingwebhookconfiguration\/guard .* && kubectl patch configmap\/held -n team /);
    expect(both.outcome.deleted.map((d) => d.name)).toEqual(['held']);
    // The removal alone is rejected by the webhook: not a way out.
    expect(ways.some((w) => w.title === 'Remove the finalizer example.com/hold from ConfigMap team/held')).toBe(false);
    // Two steps in a row are never one patch the editor sends.
    expect(both.patch).toBeUndefined();
  });

  it('setting failurePolicy: Ignore is one JSON patch: the editor may send it, exactly as the command prints it', () => {
    const gone = { namespace: 'guard', name: 'gone' };
    const rules = [anyGroup(['UPDATE'], ['configmaps'])];
    const cases = [
      // failurePolicy left out: admissionregistration/v1 defaults it to Fail, which is what the cluster serves and the patch tests.
      [webhookConfiguration('Validating', 'guard', [{ name: 'validate.guard.example.com', service: gone, rules }]), 0],
      [
        webhookConfiguration('Mutating', 'inject', [
          { name: 'other.inject.example.com', failurePolicy: 'Ignore', service: gone, rules },
          { name: 'mutate.inject.example.com', failurePolicy: 'Fail', service: gone, rules },
        ]),
        1,
      ],
    ] as const;
    for (const [config, index] of cases) {
      const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
      const s = scenario(manifests(held, config, endpointSlice('other', 'guard', 1)));
      const ways = waysOut(s.inventory, held.uid, BUILTIN);
      const webhook = index === 0 ? 'validate.guard.example.com' : 'mutate.inject.example.com';
      const way = ways.find((w) => w.title.endsWith(`set failurePolicy: Ignore on webhook ${webhook}`))!;
      const ops = [
        { op: 'test', path: '/metadata/uid', value: config.uid },
        { op: 'test', path: `/webhooks/${index}/name`, value: webhook },
        { op: 'test', path: `/webhooks/${index}/failurePolicy`, value: 'Fail' },
        { op: 'replace', path: `/webhooks/${index}/failurePolicy`, value: 'Ignore' },
      ];
      expect(way.patch).toEqual({
        target: { apiVersion: 'admissionregistration.k8s.io/v1', kind: config.kind, namespace: '', name: config.name, uid: config.uid },
        ops,
      });
      expect(way.command).toBe(`kubectl patch ${config.kind.toLowerCase()}/${config.name} --type=json -p '${JSON.stringify(ops)}'`);
      // Restoring the Service's Pods, deleting the configuration and two steps in a row are copied, never sent.
      const others = ways.filter((w) => w !== way);
      expect(others.map((w) => w.title.replace(/:.*/s, '').replace(/ \(.*/, '')).sort()).toEqual([
        `Delete ${config.kind} ${config.name} if its add-on is gone for good`,
        `Delete ${config.kind} ${config.name} if its add-on is gone for good, then`,
        'Let requests through while its backend is down',
        'Recreate Service guard/gone and the Pods behind it',
        'Recreate Service guard/gone and the Pods behind it', // then: the finalizer's removal
      ]);
      for (const w of others) expect(w.patch).toBeUndefined();
    }
  });

  it("an unavailable APIService and a webhook that rejects the finalizer's removal: three steps, each blocker cleared by its safest fix", () => {
    const ns = stuckNs('team');
    const addOn = apiService('v1beta1.metrics.example.com', METRICS, { status: 'False', reason: 'MissingEndpoints' });
    const guard = webhookConfiguration('Validating', 'guard', [
      { name: 'validate.guard.example.com', service: { namespace: 'guard', name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]);
    const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(
      manifests(
        ns,
        addOn,
        service(METRICS.name, METRICS.namespace),
        endpointSlice(METRICS.name, METRICS.namespace, 0),
        guard,
        held,
        endpointSlice('other', 'guard', 1),
      ),
    );
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    // No single change and no pair releases the namespace: each leaves one of the three causes.
    const releasing = ways.filter((w) => w.outcome.deleted.some((d) => d.name === 'team'));
    expect(releasing.map((w) => w.title)).toEqual([
      'Recreate Service guard/gone and the Pods behind it (reinstall the add-on that serves it), then: ' +
        'Restore the Pods behind Service monitoring/metrics-api (reinstall or scale up the workload it selects), then: ' +
        'Remove the finalizer example.com/hold from ConfigMap team/held',
      // The same with the safest fixes that are kubectl commands: one line to paste.
      'Let requests through while its backend is down: set failurePolicy: Ignore on webhook validate.guard.example.com, then: ' +
        'Delete APIService v1beta1.metrics.example.com if nothing needs metrics.example.com/v1beta1 any more (reinstalling its ' +
        'add-on registers it again), then: Remove the finalizer example.com/hold from ConfigMap team/held',
      'Finalize namespace team without waiting for its content (remove spec.finalizers kubernetes)',
    ]);
    expect(releasing[1].command).toMatch(
      /^kubectl patch validatingwebhookconfiguration\/guard --type=json -p '.*' && kubectl delete apiservice\/v1beta1.metrics.example.com && kubectl patch configmap\/held -n team /,
    );
    expect(releasing[1].command).not.toContain('\n');
    const steps = releasing[0];
    expect(steps.risk).toBe('dangerous');
    expect(steps.outcome.summary).toBe(
      'Restoring the Pods behind Service guard/gone, then restoring the Pods behind Service monitoring/metrics-api, then removing ' +
        'finalizer example.com/hold from ConfigMap team/held: 2 objects deleted (1 ConfigMap, 1 Namespace), 0 stuck, 0 orphaned',
    );
    // Two steps have no kubectl command: one line per step, the patch last.
    expect(steps.command.split('\n')).toEqual([
      "# 'no single kubectl command: reinstall the add-on that serves Service guard/gone (the Service and its Pods)'",
      '# no single kubectl command: reinstall or scale up the workload behind Service monitoring/metrics-api',
      expect.stringMatching(/^kubectl patch configmap\/held -n team --type=json -p /),
    ]);
    expect(steps.patch).toBeUndefined();
  });

  it('an unavailable APIService and a finalizer nobody removes: the APIService fixed, then the finalizer removed', () => {
    const ns = stuckNs('team');
    const addOn = apiService('v1beta1.metrics.example.com', METRICS, { status: 'False', reason: 'MissingEndpoints' });
    const held = cm('held', 'team', { finalizers: [HOLD], ...TERMINATING });
    const s = scenario(
      manifests(ns, addOn, service(METRICS.name, METRICS.namespace), endpointSlice(METRICS.name, METRICS.namespace, 0), held),
    );
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    // The finalizer's removal alone leaves the namespace held by the APIService: it is paired with each of its fixes.
    expect(ways.filter((w) => w.outcome.deleted.some((d) => d.name === 'team')).map((w) => `${w.risk}: ${w.title}`)).toEqual([
      'dangerous: Restore the Pods behind Service monitoring/metrics-api (reinstall or scale up the workload it selects), then: ' +
        'Remove the finalizer example.com/hold from ConfigMap team/held',
      'dangerous: Delete APIService v1beta1.metrics.example.com if nothing needs metrics.example.com/v1beta1 any more ' +
        '(reinstalling its add-on registers it again), then: Remove the finalizer example.com/hold from ConfigMap team/held',
      'dangerous: Finalize namespace team without waiting for its content (remove spec.finalizers kubernetes)',
    ]);
  });
});

describe('ways out that change infrastructure', () => {
  it('say so: a finalizer removed from an OpenShift Machine is labelled, and dangerous', () => {
    const machine = obj('machine.openshift.io/v1beta1', 'Machine', 'openshift-machine-api', 'master-0', {
      finalizers: ['machine.machine.openshift.io'],
      ...TERMINATING,
    });
    const s = scenario(manifests(namespace('openshift-machine-api'), machine));
    const ways = waysOut(s.inventory, machine.uid, STRICT);
    const removal = ways.find((w) => w.title.startsWith('Remove the finalizer'));
    expect(removal).toMatchObject({ risk: 'dangerous', infrastructure: expect.stringContaining('control-plane namespace') });
  });
});

describe('ways out past a fail-closed webhook the Namespace reports failing (R83, R84)', () => {
  const dump = readFileSync(join(__dirname, '..', 'fixtures', 'webhooks', 'kyverno-uninstall.yaml'), 'utf8');
  const policy = obj('kyverno.io/v1', 'Policy', 'kyverno', 'require-labels', { ...TERMINATING, finalizers: ['kyverno.io/policy-cleanup'] });

  it('the finalizer PATCH the webhook rejects comes only after the webhook is fixed, and the fix alone ranks above it', () => {
    const s = scenario(manifests(dump, policy));
    const ways = waysOut(s.inventory, policy.uid, BUILTIN);
    const removal = ways.filter((w) => (w.requests ?? []).some((r) => 'verb' in r && r.verb === 'remove-finalizer'));
    expect(removal.length).toBeGreaterThan(0);
    for (const w of removal) {
      expect(w.requests?.length).toBe(2);
      expect(w.requests?.[0]).toMatchObject({ kind: 'ValidatingWebhookConfiguration' });
      expect(w.outcome.deleted.map((d) => d.name)).toContain('require-labels');
    }
    const first = ways.findIndex((w) => removal.includes(w));
    expect(ways.slice(0, first).every((w) => w.requests?.length === 1 && w.risk !== 'dangerous')).toBe(true);
    expect(ways.slice(0, first).length).toBeGreaterThan(0);
  });

  it("the namespace's own ways out start with the webhook's fix", () => {
    const s = scenario(dump);
    const ns = s.inventory.find('', 'Namespace', '', 'kyverno')!;
    const ways = waysOut(s.inventory, ns.uid, BUILTIN);
    expect(ways.map((w) => w.title)).toEqual([
      'Let requests through while its backend is down: set failurePolicy: Ignore on webhook validate.kyverno.svc-fail',
      'Delete ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg if its add-on is gone for good',
    ]);
    for (const w of ways) expect(w.outcome.deleted.map((d) => d.name)).toContain('kyverno');
  });
});

describe('a way out past a fail-closed webhook whose Service the input holds nothing of (R83)', () => {
  it('the webhook is not accused, but the finalizer PATCH it intercepts says it may be rejected', () => {
    const challenge = obj('acme.cert-manager.io/v1', 'Challenge', 'default', 'c1', {
      ...TERMINATING,
      finalizers: ['finalizer.acme.cert-manager.io'],
    });
    const hook = webhookConfiguration('Validating', 'cert-manager-webhook', [
      {
        name: 'webhook.cert-manager.io',
        service: { namespace: 'cert-manager', name: 'cert-manager-webhook' },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['acme.cert-manager.io'], apiVersions: ['*'], resources: ['*/*'] }],
      },
    ]);
    const s = scenario(manifests(challenge, hook));
    const removal = waysOut(s.inventory, challenge.uid, BUILTIN).find((w) => w.title.startsWith('Remove the finalizer'))!;
    expect(removal.outcome.deleted.map((d) => d.name)).toEqual(['c1']);
    expect(removal.warning).toContain(
      'webhook webhook.cert-manager.io of ValidatingWebhookConfiguration cert-manager-webhook (failurePolicy: Fail) intercepts this UPDATE, and the input holds nothing that tells whether its Service cert-manager/cert-manager-webhook answers',
    );
    expect(s.findings().filter((f) => f.code === 'blocking-webhook')).toEqual([]);
  });
});

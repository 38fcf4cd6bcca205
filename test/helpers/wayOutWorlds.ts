// Test helper: inputs whose stuck objects have a way out of every kind that prints a command (scale up, remove a
// finalizer or an ownerReference, force-delete a Pod, finalize a Namespace, an APIService's and a webhook's fixes,
// steps on one line and on several), every object named with a hostile string.

import { bref, cm, deploy, namespace, obj, pod, TERMINATING, workloadSpec, type ObjectSpec } from './manifests';
import { anyGroup, apiService, endpointSlice, service, webhookConfiguration } from './clusterBlockers';

export const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };
export const STRICT = { controllers: 'gc', finalizerOwners: [] };
const stuckNs = (name: string) =>
  namespace(name, { ...TERMINATING, phase: 'Terminating', extra: { spec: { finalizers: ['kubernetes'] } } });

/** The ways out of every kind, for objects named with `bad`: the stuck object's uid and the input. */
export function wayOutWorlds(bad: string): { docs: ObjectSpec[]; uid: string; options: typeof BUILTIN }[] {
  const ns = bad || 'ns';
  const kafka = obj('kafka.strimzi.io/v1beta2', 'Kafka', ns, `my${bad}`, { finalizers: [`kafka.strimzi.io/finalizer`], ...TERMINATING });
  const operator = deploy('strimzi-cluster-operator', ns, {
    extra: { spec: workloadSpec({ app: 'strimzi' }, [{ name: 'op', image: 'quay.io/strimzi/operator:0.40' }], { replicas: 0 }) },
  });
  const owner = cm(`owner${bad}`, ns, { finalizers: ['foregroundDeletion'], ...TERMINATING });
  const dependent = cm(`dep${bad}`, ns, { owners: [bref(owner)], finalizers: [`example.com/${bad}`], ...TERMINATING });
  const p = pod(`web${bad}`, ns, { nodeName: 'gone-node', deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 });
  const team = stuckNs(`team${bad}`);
  const held = cm(`held${bad}`, team.name, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  // Blockers outside ownership: an add-on APIService whose Service has no ready Pods (a Deployment named like it),
  // and a webhook that fails closed without a backend and rejects the finalizer's removal.
  const svc = { namespace: ns, name: `metrics${bad}` };
  const blockers = [
    apiService(`v1.x${bad}.example.com`, svc, { status: 'False', reason: 'MissingEndpoints' }),
    service(svc.name, svc.namespace),
    endpointSlice(svc.name, svc.namespace, 0),
    deploy(svc.name, svc.namespace),
    webhookConfiguration('Validating', `guard${bad}`, [
      { name: `hook${bad}`, service: { namespace: ns, name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
    ]),
    endpointSlice('other', ns, 1),
  ];
  const team2 = stuckNs(`blocked${bad}`);
  const held2 = cm(`held${bad}`, team2.name, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  // An APIService with no Deployment behind it, a webhook that rejects a finalizer's removal: each deleted.
  const api = stuckNs(`api${bad}`);
  const apiSvc = { namespace: ns, name: `api${bad}` };
  const lone = [
    apiService(`v1.y${bad}.example.com`, apiSvc, { status: 'False', reason: 'MissingEndpoints' }),
    service(apiSvc.name, apiSvc.namespace),
    endpointSlice(apiSvc.name, apiSvc.namespace, 0),
  ];
  const guarded = cm(`guarded${bad}`, ns, { finalizers: [`example.com/hold${bad}`], ...TERMINATING });
  const guard = webhookConfiguration('Mutating', `cfg${bad}`, [
    { name: `hook${bad}`, service: { namespace: ns, name: 'gone' }, rules: [anyGroup(['UPDATE'], ['configmaps'])] },
  ]);
  return [
    { docs: [api, ...lone], uid: api.uid, options: BUILTIN },
    { docs: [guarded, guard, endpointSlice('other', ns, 1)], uid: guarded.uid, options: BUILTIN },
    { docs: [namespace(ns), operator, kafka], uid: kafka.uid, options: BUILTIN },
    { docs: [owner, dependent], uid: owner.uid, options: STRICT },
    { docs: [p], uid: p.uid, options: STRICT },
    { docs: [team, held], uid: team.uid, options: BUILTIN },
    { docs: [team2, held2, ...blockers], uid: team2.uid, options: BUILTIN },
  ];
}

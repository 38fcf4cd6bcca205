// Divergences the differential check (docs/fidelity.md) found between the simulation and the real garbage
// collector, each minimised to the objects that matter and named after its rule and its seed. Pure engine: these
// run without a control plane. The seed replays the original on one: `npm run fidelity -- --seed N`.

import { describe, expect, it } from 'vitest';
import { del, names, scenario } from '../helpers/scenario';
import { HOLD, manifests, namespace, obj, pvc, pod, TERMINATING, type OwnerReference } from '../helpers/manifests';

describe('fidelity regressions (strict mode)', () => {
  it('R27, seed 221: dependents in two namespaces name one absent uid differently and cannot go: the simulation ends, as the real GC settles', () => {
    // The real GC alternates the virtual owner between the two identities every few ms forever, changing nothing;
    // the simulation used to do the same until its step bound.
    const absent = 'uid-absent-rc';
    const asPodSees: OwnerReference = { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: absent, blockOwnerDeletion: true };
    const asClaimSees: OwnerReference = { ...asPodSees, name: 'rc-x' };
    const unservable: OwnerReference = { apiVersion: 'nothere.example.com/v1', kind: 'Thing', name: 'thing', uid: 'uid-thing' };
    const s = scenario(manifests(
      namespace('ns0'), namespace('ns1'),
      pod('held', 'ns1', { owners: [asPodSees, unservable], finalizers: [HOLD] }),
      pvc('claim', 'ns0', { owners: [asClaimSees], finalizers: ['kubernetes.io/pvc-protection'], ...TERMINATING }),
      obj('v1', 'ConfigMap', 'ns0', 'bystander'),
    ));
    const r = s.simulate([del('v1', 'ConfigMap', 'ns0', 'bystander', 'Background')]);
    expect(r.aborted).toBeUndefined();
    expect(names(r.deleted)).toEqual(['ConfigMap/bystander']);
    expect(names(r.stuck)).toEqual(['PersistentVolumeClaim/claim']);
  });
});

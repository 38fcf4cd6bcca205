// The static ownership graph and the inventory: incremental add / update / remove of single objects.
import { describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/engine/inventory';
import type { KubeObject, OwnerReference } from '../../server/src/engine/model';

const obj = (
  apiVersion: string,
  kind: string,
  namespace: string,
  name: string,
  uid: string,
  extra: Partial<KubeObject> = {},
): KubeObject => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid,
  ownerReferences: [],
  finalizers: [],
  facts: {},
  ...extra,
});
const ref = (apiVersion: string, kind: string, name: string, uid: string, blockOwnerDeletion = true): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid,
  controller: true,
  blockOwnerDeletion,
});

function invariants(inv: ReturnType<typeof buildInventory>) {
  // R28: every dependent names its owner; every observed owner of a dependent lists it.
  for (const n of inv.graph.nodes.values()) {
    for (const d of n.dependents) expect(d.owners.some((r) => r.uid === n.identity.uid)).toBe(true);
    for (const r of n.owners) {
      const owner = inv.graph.get(r.uid);
      if (owner) expect(owner.dependents.has(n)).toBe(true);
    }
  }
}

describe('OwnershipGraph', () => {
  const base = () =>
    buildInventory([
      obj('apps/v1', 'Deployment', 'shop', 'web', 'd1'),
      obj('apps/v1', 'ReplicaSet', 'shop', 'web-1', 'rs1', { ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1')] }),
      obj('v1', 'Pod', 'shop', 'web-1-a', 'p1', { ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs1')] }),
      obj('v1', 'Pod', 'shop', 'stray', 'p2', { ownerReferences: [ref('apps/v1', 'ReplicaSet', 'gone', 'rs-gone')] }),
    ]);

  it('links owners and dependents by uid and keeps an unobserved owner as a virtual node (R22)', () => {
    const inv = base();
    expect([...inv.graph.get('d1')!.dependents].map((n) => n.identity.uid)).toEqual(['rs1']);
    const v = inv.graph.get('rs-gone')!;
    expect(v.virtual).toBe(true);
    expect(v.identity).toEqual({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'rs-gone', namespace: 'shop' });
    invariants(inv);
  });

  it('an update changes only the references that changed, without rebuilding', () => {
    const inv = base();
    const d1 = inv.graph.get('d1')!;
    inv.upsert({ ...inv.objects.get('p2')!, ownerReferences: [ref('apps/v1', 'ReplicaSet', 'web-1', 'rs1')] });
    expect(inv.graph.get('rs-gone')).toBeUndefined(); // nobody references it any more
    expect([...inv.graph.get('rs1')!.dependents].map((n) => n.identity.uid).sort()).toEqual(['p1', 'p2']);
    expect(inv.graph.get('d1')).toBe(d1); // untouched nodes are the same objects
    invariants(inv);
  });

  it('removing an owner that still has dependents leaves a virtual node, as the GC would see it', () => {
    const inv = base();
    inv.remove('rs1');
    const v = inv.graph.get('rs1')!;
    expect(v.virtual).toBe(true);
    expect(v.identity.name).toBe('web-1');
    expect(inv.graph.get('d1')!.dependents.size).toBe(0);
    inv.upsert(obj('apps/v1', 'ReplicaSet', 'shop', 'web-1', 'rs1', { ownerReferences: [ref('apps/v1', 'Deployment', 'web', 'd1')] }));
    expect(inv.graph.get('rs1')!.virtual).toBe(false);
    expect(inv.graph.get('d1')!.dependents.size).toBe(1);
    invariants(inv);
  });

  it('flags follow the object: terminating, and deleting dependents with foregroundDeletion', () => {
    const inv = base();
    inv.upsert({ ...inv.objects.get('d1')!, deletionTimestamp: '2025-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] });
    const n = inv.graph.get('d1')!;
    expect(n.beingDeleted).toBe(true);
    expect(n.deletingDependents).toBe(true);
  });

  it('snapshot is the debug dump: no lone nodes, sorted nodes and edges, --uid keeps the component', () => {
    const inv = buildInventory([
      obj('v1', 'ConfigMap', 'a', 'lonely', 'z-lonely'),
      obj('v1', 'Pod', 'a', 'p', 'b-pod', { ownerReferences: [ref('apps/v1', 'ReplicaSet', 'rs', 'a-rs')] }),
      obj('apps/v1', 'ReplicaSet', 'a', 'rs', 'a-rs'),
      obj('v1', 'Pod', 'a', 'q', 'c-pod', { ownerReferences: [ref('v1', 'Node', 'n', 'n1')] }),
    ]);
    const snap = inv.graph.snapshot();
    expect(snap.nodes.map((n) => n.uid)).toEqual(['a-rs', 'b-pod', 'c-pod', 'n1']);
    expect(snap.edges).toEqual([
      { from: 'b-pod', to: 'a-rs' },
      { from: 'c-pod', to: 'n1' },
    ]);
    expect(snap.nodes.find((n) => n.uid === 'n1')).toMatchObject({ virtual: true, kind: 'Node', group: '', version: 'v1' });
    const only = inv.graph.snapshot(inv.graph.component(['b-pod']));
    expect(only.nodes.map((n) => n.uid)).toEqual(['a-rs', 'b-pod']);
  });
});

describe('Inventory normalisation', () => {
  it('puts namespaced objects without a namespace in the default namespace and clears it on cluster-scoped kinds', () => {
    const inv = buildInventory([obj('apps/v1', 'Deployment', '', 'web', 'd1'), obj('v1', 'Namespace', 'oops', 'shop', 'ns1')], {
      defaultNamespace: 'team-a',
    });
    expect(inv.objects.get('d1')!.namespace).toBe('team-a');
    expect(inv.objects.get('ns1')!.namespace).toBe('');
  });

  it('gives hand-written objects a stable synthetic uid that uid-less references resolve to', () => {
    const inv = buildInventory([
      obj('apps/v1', 'Deployment', 'shop', 'web', ''),
      obj('apps/v1', 'ReplicaSet', 'shop', 'web-1', '', {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '' }],
      }),
    ]);
    const d = inv.find('apps', 'Deployment', 'shop', 'web')!;
    expect(d.uid).toBe('synthetic:apps/Deployment/shop/web');
    expect(d.syntheticUid).toBe(true);
    expect(inv.find('apps', 'ReplicaSet', 'shop', 'web-1')!.ownerReferences[0].uid).toBe(d.uid);
    expect(inv.graph.get(d.uid)!.dependents.size).toBe(1);
  });

  it('adds the finalizers the apiserver adds on create to hand-written objects only', () => {
    const inv = buildInventory([
      obj('v1', 'PersistentVolumeClaim', 'db', 'data', ''),
      obj('v1', 'PersistentVolumeClaim', 'db', 'exported', 'pvc-uid'),
      obj('v1', 'Namespace', '', 'db', ''),
    ]);
    expect(inv.find('', 'PersistentVolumeClaim', 'db', 'data')!.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(inv.objects.get('pvc-uid')!.finalizers).toEqual([]);
    expect(inv.find('', 'Namespace', '', 'db')!.facts.namespaceFinalizers).toEqual(['kubernetes']);
  });

  it('the same uid twice with different content is one object plus a conflict', () => {
    const a = obj('v1', 'ConfigMap', 'x', 'c', 'u1', { source: { file: 'a.yaml', docIndex: 0, itemPath: [] } });
    const b = obj('v1', 'ConfigMap', 'x', 'c', 'u1', {
      finalizers: ['example.com/f'],
      source: { file: 'b.yaml', docIndex: 0, itemPath: [] },
    });
    const same = obj('v1', 'ConfigMap', 'x', 'c', 'u1', { source: { file: 'c.yaml', docIndex: 0, itemPath: [] } });
    const inv = buildInventory([a, b, same]);
    expect(inv.objects.size).toBe(1);
    expect(inv.conflicts).toHaveLength(1);
    expect(inv.conflicts[0]).toMatchObject({ uid: 'u1', fields: ['metadata.finalizers'] });
  });

  it('learns custom kinds from CRDs and from objects (R54)', () => {
    const inv = buildInventory([
      obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', 'crd', {
        facts: {
          crd: {
            group: 'example.com',
            kind: 'Widget',
            plural: 'widgets',
            singular: 'widget',
            shortNames: ['wd'],
            namespaced: false,
            servedVersions: ['v2', 'v1'],
          },
        },
      }),
      obj('example.com/v1', 'Widget', 'ignored', 'w', 'w1'),
      obj('other.io/v1alpha1', 'Gadget', 'ns', 'g', 'g1'),
    ]);
    expect(inv.objects.get('w1')!.namespace).toBe(''); // the CRD says cluster-scoped
    expect(inv.kinds.restMapping('example.com/v2', 'Widget')?.kind).toBe('Widget');
    expect(inv.kinds.restMapping('other.io/v1alpha1', 'Gadget')?.namespaced).toBe(true);
    expect(inv.kinds.restMapping('other.io/v1', 'Gadget')).toBeUndefined();
    expect(inv.kinds.restMapping('extensions/v1beta1', 'Deployment')).toBeUndefined();
    expect(inv.kinds.restMapping('apps/v1', 'daemonset')).toBeUndefined();
    expect(inv.kinds.resolveType('wd')[0].kind).toBe('Widget');
    expect(inv.kinds.resolveType('deploy')[0].kind).toBe('Deployment');
    expect(inv.kinds.resolveType('deployments.apps')[0].kind).toBe('Deployment');
    expect(inv.kinds.resolveType('deployment.v1.apps')[0].kind).toBe('Deployment');
  });

  it('a CRD added later changes how the next object of its kind is stored and identified', () => {
    // The inventory remembers the last (apiVersion, kind) it resolved; a new CRD must invalidate that.
    const inv = buildInventory([obj('example.com/v1', 'Widget', 'team', 'w', 'w1')]);
    expect(inv.normalize(obj('example.com/v1', 'Widget', 'team', 'w2', 'w2')).namespace).toBe('team');
    inv.upsert(
      obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', 'widgets.example.com', 'crd', {
        facts: {
          crd: {
            group: 'example.com',
            kind: 'Widget',
            plural: 'widgets',
            singular: 'widget',
            shortNames: [],
            namespaced: false,
            servedVersions: ['v2', 'v1'],
          },
        },
      }),
    );
    const w2 = inv.normalize(obj('example.com/v1', 'Widget', 'team', 'w2', 'w2'));
    expect(w2.namespace).toBe(''); // cluster-scoped now
    inv.upsert(w2);
    expect(inv.graph.get('w2')!.identity.apiVersion).toBe('example.com/v2'); // the CRD's preferred version (R19)
  });

  it('finds objects by name whether the name index was built before or after a change', () => {
    for (const early of [false, true]) {
      const inv = buildInventory([obj('apps/v1', 'Deployment', 'shop', 'web', 'd1')]);
      if (early) expect(inv.find('apps', 'Deployment', 'shop', 'web')?.uid).toBe('d1'); // builds the index now
      inv.upsert(obj('v1', 'ConfigMap', 'shop', 'web', 'cm1')); // a second object named "web"
      expect(inv.find('apps', 'Deployment', 'shop', 'web')?.uid).toBe('d1');
      expect(inv.find('', 'ConfigMap', 'shop', 'web')?.uid).toBe('cm1');
      inv.remove('d1');
      inv.upsert(obj('v1', 'Secret', 'shop', 'web', 's1'));
      expect(inv.find('apps', 'Deployment', 'shop', 'web')).toBeUndefined();
      expect(inv.find('', 'ConfigMap', 'shop', 'web')?.uid).toBe('cm1');
      expect(inv.find('', 'Secret', 'shop', 'web')?.uid).toBe('s1');
    }
  });
});

// Properties of the simulation run itself: bounded, deterministic, incremental, cheap where nothing happens.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/engine/inventory';
import { simulate } from '../../server/src/engine/simulation/simulate';
import { Timeline } from '../../server/src/engine/simulation/timeline';
import { loadPaths } from '../../server/src/sources/files';
import { scenario, del, names } from '../helpers/scenario';

const tree = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: shop, uid: d1 }
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-1
  namespace: shop
  uid: rs1
  ownerReferences: [{ apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true, blockOwnerDeletion: true }]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1-a
  namespace: shop
  uid: p1
  ownerReferences: [{ apiVersion: apps/v1, kind: ReplicaSet, name: web-1, uid: rs1, controller: true, blockOwnerDeletion: true }]
spec: { nodeName: node-1 }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: unrelated, namespace: other, uid: cm1 }
`;

describe('the simulation run', () => {
  it('R53: a hard bound on work ends the run with a clear message, never a hang', () => {
    const s = scenario(tree);
    const r = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], { controllers: 'builtin', maxSteps: 3 });
    expect(r.aborted).toMatch(/stopped after 3 work items/);
    const full = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], { controllers: 'builtin' });
    expect(full.aborted).toBeUndefined();
    expect(names(full.deleted)).toEqual(['Pod/web-1-a', 'ReplicaSet/web-1', 'Deployment/web']);
  });

  it('is deterministic: the same input gives the same result, step for step', () => {
    const s = scenario(tree);
    const run = () => JSON.stringify(s.simulate([del('v1', 'Namespace', '', 'shop', null)], { controllers: 'builtin' }));
    expect(run()).toBe(run());
  });

  it('does not change the inventory it simulates on', () => {
    const s = scenario(tree);
    s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Background')], { controllers: 'builtin' });
    expect(s.inventory.objects.size).toBe(4);
    expect(s.inventory.objects.get('d1')!.deletionTimestamp).toBeUndefined();
    const again = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Background')], { controllers: 'builtin' });
    expect(names(again.deleted)).toEqual(['Deployment/web', 'ReplicaSet/web-1', 'Pod/web-1-a']);
  });

  it('follows incremental updates of the inventory', () => {
    const s = scenario(tree);
    const pod = s.inventory.objects.get('p1')!;
    s.inventory.upsert({ ...pod, finalizers: ['example.com/hold'] });
    const r = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], { controllers: 'builtin' });
    expect(r.stuck.map((x) => x.name)).toEqual(['web', 'web-1', 'web-1-a']);
    s.inventory.upsert(pod);
    expect(s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], { controllers: 'builtin' }).stuck).toEqual([]);
  });

  it('touches nothing outside what the deletion reaches, and lists every stored object as remaining', () => {
    const s = scenario(tree);
    const r = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Background')], { controllers: 'builtin' });
    expect(r.steps.every((st) => st.target.namespace === 'shop')).toBe(true);
    expect(r.remaining.map((x) => x.name)).toEqual(['unrelated']);
    expect(JSON.parse(JSON.stringify(r)).remaining).toHaveLength(1); // serialised like any other field
  });

  it('gives each object as the run left it: what a later request starts from, not serialised', () => {
    const held = tree.replace(
      'name: web-1-a\n  namespace: shop\n  uid: p1',
      'name: web-1-a\n  namespace: shop\n  uid: p1\n  finalizers: [example.com/hold]',
    );
    const s = scenario(held);
    const r = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')]);
    const web = r.finalObject!('d1')!;
    expect(web.finalizers).toEqual(['foregroundDeletion']);
    expect(web.deletionTimestamp).toBeDefined();
    expect(s.inventory.objects.get('d1')!.finalizers).toEqual([]);
    expect(r.finalObject!('cm1')).toBe(s.inventory.objects.get('cm1'));
    const gone = s.simulate([del('v1', 'ConfigMap', 'other', 'unrelated', 'Background')]);
    expect(gone.finalObject!('cm1')).toBeUndefined();
    expect(Object.keys(r)).not.toContain('finalObject');
  });

  it('explains a stuck chain link by link: foreground wait → blocking dependent → its finalizer', () => {
    const s = scenario(
      tree
        .replace('spec: { nodeName: node-1 }', 'spec: { nodeName: node-1 }\n# held\n')
        .replace(
          'name: web-1-a\n  namespace: shop\n  uid: p1',
          'name: web-1-a\n  namespace: shop\n  uid: p1\n  finalizers: [example.com/hold]',
        ),
    );
    const r = s.simulate([del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], { controllers: 'builtin' });
    const web = r.stuck.find((x) => x.name === 'web')!;
    expect(web.blockedBy[0]).toMatchObject({ type: 'waiting-for-dependents', object: { name: 'web-1' } });
    expect(web.blockedBy[0].blockedBy![0]).toMatchObject({ type: 'waiting-for-dependents', object: { name: 'web-1-a' } });
    expect(web.blockedBy[0].blockedBy![0].blockedBy![0]).toMatchObject({ type: 'finalizer', finalizer: 'example.com/hold' });
    expect(web.reason).toMatch(/foreground deletion waits for the blocking dependent ReplicaSet shop\/web-1/);
  });
});

describe('objects read metadata-only from a live cluster (facts.specUnread)', () => {
  // A live cluster is listed metadata-only: a Pod's spec.nodeName is unknown, not empty. Such a Pod is taken
  // to be scheduled, as almost every Pod is (R6: only never-scheduled Pods are deleted at once).
  const pod = `
apiVersion: v1
kind: Pod
metadata: { name: api-1, namespace: shop, uid: p1 }
`;
  const unread = () => {
    const s = scenario(pod);
    const p = s.inventory.objects.get('p1')!;
    s.inventory.upsert({ ...p, facts: { ...p.facts, specUnread: true } });
    return s;
  };

  it('R6: its DELETE starts graceful deletion (30 s) instead of removing it at once', () => {
    const r = unread().simulate([del('v1', 'Pod', 'shop', 'api-1')], { controllers: 'gc' });
    expect(r.deleted).toEqual([]);
    expect(r.remaining.find((o) => o.uid === 'p1')?.beingDeleted).toBe(true);
    // the same Pod with its spec read and no nodeName: never scheduled, removed at once
    expect(names(scenario(pod).simulate([del('v1', 'Pod', 'shop', 'api-1')], { controllers: 'gc' }).deleted)).toEqual(['Pod/api-1']);
  });

  it('builtin controllers: the kubelet finishes it', () => {
    const r = unread().simulate([del('v1', 'Pod', 'shop', 'api-1')], { controllers: 'builtin' });
    expect(names(r.deleted)).toEqual(['Pod/api-1']);
    expect(r.steps.some((st) => st.actor === 'kubelet' && st.detail.includes('its node'))).toBe(true);
  });

  it('without keeping its steps (the analysis) gives the same outcome, the steps counted but not kept', async () => {
    const root = path.join(__dirname, '../..');
    const dirs = readdirSync(path.join(root, 'examples'))
      .map((n) => path.join(root, 'examples', n))
      .filter((p) => statSync(p).isDirectory());
    let steps = 0;
    for (const dir of dirs) {
      const inventory = buildInventory((await loadPaths([dir])).objects, { defaultNamespace: 'default' });
      const namespaces = [...inventory.objects.values()].filter((o) => o.kind === 'Namespace').map((o) => o.name);
      for (const requests of [[], ...namespaces.map((n) => [del('v1', 'Namespace', '', n)])]) {
        const full = simulate(inventory, requests, { controllers: 'builtin' });
        const counted = simulate(inventory, requests, { controllers: 'builtin', keepSteps: false });
        steps += full.steps.length;
        expect(counted.steps).toStrictEqual([]);
        expect({ ...counted, steps: full.steps, remaining: full.remaining }).toStrictEqual(full);
        expect(counted.remaining).toStrictEqual(full.remaining);
      }
    }
    expect(steps).toBeGreaterThan(50);
  });

  it('without keeping its steps, no step text is built: a detail given as a function is called only for a kept step', () => {
    const target = { apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'a', uid: 'p1' };
    let built = 0;
    const detail = () => {
      built++;
      return 'removed at once';
    };
    const counted = new Timeline(false);
    expect([counted.record('apiserver', 'remove', target, detail), counted.record('apiserver', 'remove', target, detail)]).toEqual([1, 2]);
    expect(built).toBe(0);
    const kept = new Timeline(true);
    kept.record('apiserver', 'remove', target, detail);
    expect(built).toBe(1);
    expect(kept.steps).toStrictEqual([{ step: 1, actor: 'apiserver', action: 'remove', target, detail: 'removed at once' }]);
  });

  it("the GC's DELETE of a Pod whose owner is absent keeps its reason in the kept step", () => {
    const r = scenario(`
apiVersion: v1
kind: Pod
metadata:
  name: orphan
  namespace: shop
  uid: p9
  ownerReferences: [{ apiVersion: apps/v1, kind: ReplicaSet, name: gone, uid: rs9, controller: true }]
`).simulate([], { controllers: 'gc' });
    const deleteStep = r.steps.find((st) => st.action === 'delete' && st.target.uid === 'p9');
    expect(deleteStep?.detail).toContain('why: no solid owner left: owner ReplicaSet gone (uid rs9) is absent');
  });
});

// Workspace manifests against a live cluster's graph (engine/analysis/liveComparison.ts): R34's lookup by
// kind and name, then the uid, and R35's decision, as they will happen once the file is applied.
import { describe, expect, it } from 'vitest';
import { compareWithLive, type LiveView } from '../../server/src/engine/analysis/liveComparison';
import { FOREGROUND_FINALIZER } from '../../server/src/engine/model';
import { cm, ctl, deploy, manifests, pod, ref, rs, HOLD, type ObjectSpec } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

function live(objects: ObjectSpec[], covers: LiveView['covers'] = () => true, stuck: Record<string, string> = {}): LiveView {
  return { context: 'kind-test', inventory: scenario(manifests(...objects)).inventory, covers, stuckReason: (uid) => stuck[uid] };
}

function compare(workspace: ObjectSpec[], view: LiveView) {
  const ws = scenario(manifests(...workspace));
  return compareWithLive(ws.inventory.objects.values(), ws.inventory, view);
}

const web = deploy('web', 'shop', { uid: '9ab1c2d3-live-deployment' });
const oldWeb = deploy('web', 'shop', { uid: '3f2a4b5c-old-deployment' });

describe('compareWithLive', () => {
  it('says applying gets an object collected when its only owner has another uid live', () => {
    const found = compare([rs('web-1', 'shop', { owners: [ctl(oldWeb)] })], live([web]));
    expect(found.map((f) => f.code)).toEqual(['collected-on-apply']);
    const f = found[0];
    expect(f.severity).toBe('error');
    expect(f.message).toBe(
      "Applying this file gets it garbage-collected: owner uid 3f2a4b5c… is not the live Deployment shop/web's uid 9ab1c2d3….",
    );
    expect(f.location).toEqual({ kind: 'ownerReference', index: 0, field: 'uid' });
    expect(f.range).toBeDefined();
    expect(f.related.map((r) => r.object?.uid)).toEqual([web.uid]);
  });

  it('is silent when the owner is live with the same uid', () => {
    expect(compare([rs('web-1', 'shop', { owners: [ctl(web)] })], live([web]))).toEqual([]);
  });

  it('names an owner missing from the cluster when the object itself is live', () => {
    const replica = rs('web-1', 'shop', { owners: [ctl(oldWeb)] });
    const found = compare([replica], live([{ ...replica, owners: [] }]));
    expect(found.map((f) => f.message)).toEqual([
      'Applying this file gets it garbage-collected: no Deployment web exists in namespace shop in context kind-test.',
    ]);
  });

  it('leaves a workspace unrelated to the cluster alone: neither the object nor an owner it names is live', () => {
    expect(compare([rs('web-1', 'shop', { owners: [ctl(oldWeb)] })], live([cm('other', 'shop')]))).toEqual([]);
  });

  it('drops only the dangling reference when another owner is solid (R35 i)', () => {
    const keep = cm('keep', 'shop');
    const found = compare([pod('p', 'shop', { owners: [ref(keep), ref(oldWeb)] })], live([keep, web]));
    expect(found.map((f) => [f.code, f.location])).toEqual([['live-dangling-owner', { kind: 'ownerReference', index: 1, field: 'uid' }]]);
    expect(found[0].message).toContain('so the garbage collector removes this ownerReference (another owner exists, so the Pod stays).');
  });

  it('says the object goes with an owner being deleted in the foreground', () => {
    const deleting = deploy('web', 'shop', { uid: web.uid, deletionTimestamp: '2026-11-20T10:00:00Z', finalizers: [FOREGROUND_FINALIZER] });
    const found = compare([rs('web-1', 'shop', { owners: [ctl(web)] })], live([deleting]));
    expect(found.map((f) => f.code)).toEqual(['collected-on-apply']);
    expect(found[0].message).toContain(
      'the live owner Deployment shop/web is being deleted in the foreground, and takes this object with it',
    );
  });

  it('decides nothing where the connection cannot see: absence of an unlisted kind proves nothing (R34)', () => {
    const replica = rs('web-1', 'shop', { owners: [ctl(oldWeb)] });
    const noDeployments: LiveView['covers'] = (group, kind) => !(group === 'apps' && kind === 'Deployment');
    expect(compare([replica], live([{ ...replica, owners: [] }], noDeployments))).toEqual([]);
    // The object's own kind unlisted (or its namespace outside the scope): nothing at all.
    expect(
      compare(
        [replica],
        live([web, { ...replica, owners: [] }], (_g, kind) => kind !== 'ReplicaSet'),
      ),
    ).toEqual([]);
  });

  it('reports a live object being deleted, with why it cannot finish', () => {
    const held = cm('settings', 'shop', { deletionTimestamp: '2026-11-19T08:00:00Z', finalizers: [HOLD] });
    const found = compare(
      [cm('settings', 'shop')],
      live([held], () => true, { [held.uid]: 'example.com/hold is removed by nobody known' }),
    );
    expect(found.map((f) => [f.code, f.severity])).toEqual([['live-terminating', 'warning']]);
    expect(found[0].message).toBe(
      'The live ConfigMap shop/settings (context kind-test) is being deleted (since 2026-11-19T08:00:00Z, finalizers: example.com/hold): applying this file does not stop the deletion; it only updates an object that is going away. It cannot finish: example.com/hold is removed by nobody known.',
    );
  });

  it('reports a file that describes an earlier incarnation (its uid is not the live one)', () => {
    const found = compare([deploy('web', 'shop', { uid: oldWeb.uid })], live([web]));
    expect(found.map((f) => f.code)).toEqual(['live-uid-conflict']);
    expect(found[0].message).toContain(`has uid ${web.uid}, not ${oldWeb.uid}`);
  });

  it("ignores a hand-written manifest's synthetic uid", () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n';
    const ws = scenario(text);
    expect(compareWithLive(ws.inventory.objects.values(), ws.inventory, live([web]))).toEqual([]);
  });
});

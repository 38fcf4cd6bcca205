// The Stuck Objects tree while connected to a cluster: live roots (ages from deletionTimestamp to now, "still
// cleaning up", simulate on the live graph) and the two sections, workspace and live.

import { describe, expect, it } from 'vitest';
import type { ObjectIdentity } from '../../server/src/engine/model';
import type { ObjectSummary, StuckItem } from '../../shared/src/protocol';
import { childrenOf, sectionKey, sectionSummary, stuckRoots, stuckSections, type StuckTreeNode } from '../../client/src/logic/stuckTree';

const id = (kind: string, namespace: string, name: string, apiVersion = 'v1'): ObjectIdentity => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid: `uid-${name}`,
});
const summaryOf = (o: ObjectIdentity, extra: Partial<ObjectSummary> = {}): ObjectSummary => ({
  ...o,
  syntheticUid: false,
  beingDeleted: true,
  finalizers: [],
  ownerCount: 0,
  ...extra,
});

const NOW = Date.parse('2026-11-21T12:00:00Z');
const rs = id('ReplicaSet', 'shop', 'web-rs', 'apps/v1');

const held: StuckItem = {
  ...summaryOf(id('Pod', 'shop', 'held'), { finalizers: ['storage.acme.io/protect'] }),
  state: 'stuck',
  reason: 'Pod shop/held stays Terminating: nobody removes storage.acme.io/protect',
  since: '2026-11-20T09:00:00Z',
  ageSeconds: 5, // the server's age at its request time; the tree counts to now
  blockedBy: [
    {
      type: 'finalizer',
      finalizer: 'storage.acme.io/protect',
      message: 'nobody removes it',
      blockedBy: [{ type: 'waiting-for-dependents', object: rs, message: 'ReplicaSet shop/web-rs waits for it' }],
    },
  ],
};
const slow: StuckItem = {
  ...summaryOf(id('PersistentVolumeClaim', 'shop', 'data'), { finalizers: ['kubernetes.io/pvc-protection'] }),
  state: 'slow',
  reason:
    'terminating for 25 min and waits for finalizer kubernetes.io/pvc-protection: the controllers that should finish it are running, so it is still cleaning up or stuck for a reason not visible in the metadata',
  since: '2026-11-21T11:35:00Z',
  ageSeconds: 1500,
  blockedBy: [],
};

const shape = (n: StuckTreeNode) => ({
  id: n.id,
  label: n.label,
  description: n.description,
  icon: n.icon,
  contextValue: n.contextValue,
  live: n.live,
});

describe('live roots', () => {
  it("count the age from deletionTimestamp to now, keep ids apart from the workspace's, and simulate live", () => {
    const [root, cleaning] = stuckRoots([held, slow], { live: { now: NOW } });
    expect(shape(root)).toEqual({
      id: 'live/stuck:uid-held',
      label: 'Pod shop/held',
      description: 'stuck terminating · 1d 3h',
      icon: 'watch',
      contextValue: 'object.live',
      live: true,
    });
    expect(root.warning).toBe(true);
    expect(root.location).toBeUndefined();
    expect(root.tooltip).toContain('Terminating since 2026-11-20T09:00:00Z, 1d 3h ago');
    expect(root.tooltip).toContain('Finalizers: storage.acme.io/protect');
    expect(shape(cleaning)).toEqual({
      id: 'live/slow:uid-data',
      label: 'PersistentVolumeClaim shop/data',
      description: 'still cleaning up · 25m',
      icon: 'history',
      contextValue: 'object.live',
      live: true,
    });
    expect(cleaning.warning).toBe(false);
  });

  it("fall back to the server's age when the timestamp does not parse", () => {
    const [root] = stuckRoots([{ ...held, since: 'yesterday' }], { live: { now: NOW } });
    expect(root.description).toBe('stuck terminating · 5s');
  });

  it('make the objects of the why-chain live too (Simulate Delete on the live graph)', () => {
    const [root] = stuckRoots([held], { live: { now: NOW } });
    const [finalizer] = childrenOf(root);
    expect(shape(finalizer)).toMatchObject({ id: 'live/stuck:uid-held/0', contextValue: 'reason', live: true });
    const [owner] = childrenOf(finalizer);
    expect(shape(owner)).toMatchObject({ label: 'ReplicaSet shop/web-rs', contextValue: 'object.live', live: true });
    expect(owner.uid).toBe('uid-web-rs');
  });

  it('let live objects with a live document be revealed (the server fills in their locations)', () => {
    const location = {
      uri: 'kube-gc-lens-live:/ctx/shop/Pod/held.yaml?uid=uid-held',
      range: { start: { line: 5, character: 2 }, end: { line: 5, character: 12 } },
    };
    const ownerLoc = { ...location, uri: 'kube-gc-lens-live:/ctx/shop/ReplicaSet.apps/web-rs.yaml?uid=uid-web-rs' };
    const [root] = stuckRoots([{ ...held, location, locations: { 'uid-web-rs': ownerLoc } }], { live: { now: NOW } });
    expect(shape(root).contextValue).toBe('object.live.revealable');
    expect(root.location).toEqual(location);
    const [owner] = childrenOf(childrenOf(root)[0]);
    expect(shape(owner).contextValue).toBe('object.live.revealable');
    expect(owner.location).toEqual(ownerLoc);
  });

  it('leave workspace roots as they were', () => {
    const [root] = stuckRoots([held]);
    expect(shape(root)).toEqual({
      id: 'stuck:uid-held',
      label: 'Pod shop/held',
      description: 'stuck terminating · 5s',
      icon: 'watch',
      contextValue: 'object',
      live: undefined,
    });
    expect(childrenOf(childrenOf(root)[0])[0].contextValue).toBe('object');
  });
});

describe('sections', () => {
  const live = { context: 'kind-dev', now: NOW, stuckAfterMinutes: 10 };

  it('show the workspace and the live cluster side by side, expanded, each summarised', () => {
    const [ws, cluster] = stuckSections({ items: [held] }, { ...live, source: { items: [held, slow] } });
    expect(shape(ws)).toEqual({
      id: 'section:workspace',
      label: 'Workspace manifests',
      description: '1 stuck',
      icon: 'file-code',
      contextValue: 'section.workspace',
      live: undefined,
    });
    expect(shape(cluster)).toEqual({
      id: 'section:live',
      label: 'Live cluster (kind-dev)',
      description: '1 stuck · 1 still cleaning up',
      icon: 'cloud',
      contextValue: 'section.live',
      live: true,
    });
    expect([ws.expanded, cluster.expanded, ws.hasChildren, cluster.hasChildren]).toEqual([true, true, true, true]);
    expect(childrenOf(ws).map((n) => n.id)).toEqual(['stuck:uid-held']);
    expect(childrenOf(cluster).map((n) => n.id)).toEqual(['live/stuck:uid-held', 'live/slow:uid-data']);
    expect(cluster.tooltip).toContain('terminating for longer than 10 minutes');
  });

  it('say when nothing is stuck, when listing is not done, and when the request failed', () => {
    const [ws, cluster] = stuckSections({ error: 'server crashed' }, { ...live, source: { items: [] } });
    expect(ws.description).toBe('error');
    expect(childrenOf(ws).map((n) => [n.label, n.icon])).toEqual([['Could not list the stuck objects: server crashed', 'error']]);
    expect(cluster.description).toBe('nothing stuck');
    expect(childrenOf(cluster).map((n) => [n.label, n.icon, n.contextValue])).toEqual([
      ['Nothing is stuck: no live object is terminating without being able to finish, or for longer than 10 minutes.', 'check', 'reason'],
    ]);
    const [, listing] = stuckSections({ items: [] }, { ...live, source: { pending: 'Listing 12/48 resource types…' } });
    expect(childrenOf(listing).map((n) => [n.label, n.icon])).toEqual([['Listing 12/48 resource types…', 'loading~spin']]);
  });

  it('summarise by kind', () => {
    const deadlock: StuckItem = { ...held, state: 'finalizer-deadlock' };
    expect(sectionSummary([])).toBe('nothing stuck');
    expect(sectionSummary([held, held, slow, deadlock, { ...deadlock, state: 'foreground-deadlock' }])).toBe(
      '2 stuck · 1 still cleaning up · 2 predicted deadlocks',
    );
    expect(sectionSummary([deadlock])).toBe('1 predicted deadlock');
  });
});

describe('sectionKey: whether a refreshed live answer needs a redraw', () => {
  const item = (ageSeconds: number, reason = 'held') =>
    ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'team-a',
      name: 'held',
      uid: 'u1',
      finalizers: ['example.com/hold'],
      beingDeleted: true,
      ownerCount: 0,
      syntheticUid: false,
      state: 'stuck',
      reason,
      blockedBy: [],
      since: '2026-11-26T10:00:00Z',
      ageSeconds,
    }) as StuckItem;

  it('is the same when only the ages moved, and differs when the answer did', () => {
    expect(sectionKey({ items: [item(12)] })).toBe(sectionKey({ items: [item(13)] }));
    expect(sectionKey({ items: [item(12)] })).not.toBe(sectionKey({ items: [item(12, 'held by something else')] }));
    expect(sectionKey({ items: [item(12)] })).not.toBe(sectionKey({ items: [] }));
    expect(sectionKey({ error: 'gone' })).not.toBe(sectionKey({ pending: 'Connecting…' }));
    expect(sectionKey(undefined)).toBe('');
  });
});

// The Simulate Delete quick picks: objects (the one at the cursor first) and policies.

import { describe, expect, it } from 'vitest';
import type { ObjectSummary } from '../../shared/src/protocol';
import {
  escapeIcons,
  isPolicyChoice,
  matchingLiveObject,
  objectPickItems,
  parseSimulateTarget,
  POLICY_PICK_ITEMS,
  sourcePickItems,
} from '../../client/src/logic/pickItems';

const summary = (kind: string, namespace: string, name: string, extra: Partial<ObjectSummary> = {}): ObjectSummary => ({
  apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1',
  kind,
  namespace,
  name,
  uid: `uid-${name}`,
  syntheticUid: false,
  beingDeleted: false,
  finalizers: [],
  ownerCount: 0,
  ...extra,
});

describe('objectPickItems', () => {
  const objects = [
    summary('Namespace', '', 'shop'),
    summary('Deployment', 'shop', 'web', {
      location: { uri: 'file:///ws/my%20app/web.yaml', range: { start: { line: 11, character: 0 }, end: { line: 11, character: 3 } } },
    }),
    summary('Pod', 'shop', 'web-1', { beingDeleted: true }),
  ];

  it("lists every object in the server's order, with apiVersion, state and file:line", () => {
    expect(objectPickItems(objects)).toEqual([
      { label: 'Namespace shop', description: 'v1', uid: 'uid-shop' },
      { label: 'Deployment shop/web', description: 'apps/v1 · web.yaml:12', uid: 'uid-web' },
      { label: 'Pod shop/web-1', description: 'v1 · terminating', uid: 'uid-web-1' },
    ]);
  });

  it('puts the object at the cursor first, once', () => {
    expect(objectPickItems(objects, 'uid-web').map((i) => [i.label, i.description])).toEqual([
      ['Deployment shop/web', 'apps/v1 · at cursor · web.yaml:12'],
      ['Namespace shop', 'v1'],
      ['Pod shop/web-1', 'v1 · terminating'],
    ]);
    expect(objectPickItems(objects, 'uid-unknown').map((i) => i.uid)).toEqual(['uid-shop', 'uid-web', 'uid-web-1']);
  });

  it('shows icon syntax in names as text', () => {
    expect(escapeIcons('$(zap) a $(x~spin)')).toBe('\\$(zap) a \\$(x~spin)');
    const [item] = objectPickItems([summary('ConfigMap', 'ns', '$(alert)', { apiVersion: '$(v1)' })]);
    expect(item).toEqual({ label: 'ConfigMap ns/\\$(alert)', description: '\\$(v1)', uid: 'uid-$(alert)' });
  });
});

describe('POLICY_PICK_ITEMS', () => {
  it('offers the API default, then Background, Foreground and Orphan, each explained in one line', () => {
    expect(POLICY_PICK_ITEMS.map((p) => [p.policy, p.label, p.description])).toEqual([
      ['default', 'API default', 'no propagationPolicy'],
      ['Background', 'Background', 'kubectl delete --cascade=background'],
      ['Foreground', 'Foreground', 'kubectl delete --cascade=foreground'],
      ['Orphan', 'Orphan', 'kubectl delete --cascade=orphan'],
    ]);
    for (const p of POLICY_PICK_ITEMS) expect(p.detail).toMatch(/^[A-Z][^\n]+\.$/);
  });

  it('recognises a policy argument (code lenses pass "default")', () => {
    expect(['default', 'Background', 'Foreground', 'Orphan'].every(isPolicyChoice)).toBe(true);
    expect([undefined, 'background', '', {}, 1].some(isPolicyChoice)).toBe(false);
  });
});

describe('Simulate Delete on the live cluster', () => {
  it('reads the target argument: a workspace uid, or {source: "cluster", uid}', () => {
    expect(parseSimulateTarget('uid-web')).toEqual({ source: 'workspace', uid: 'uid-web' });
    expect(parseSimulateTarget({ source: 'cluster', uid: 'd-web' })).toEqual({ source: 'cluster', uid: 'd-web' });
    expect(parseSimulateTarget({ source: 'workspace', uid: 'u' })).toEqual({ source: 'workspace', uid: 'u' });
    // The editor's context menu passes the document's Uri: the user picks.
    for (const bad of [
      undefined,
      '',
      null,
      1,
      { source: 'cluster' },
      { source: 'cluster', uid: '' },
      { source: 'file', uid: 'u' },
      { scheme: 'file', path: '/a.yaml' },
    ]) {
      expect(parseSimulateTarget(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('asks first where: the workspace (naming the object at the cursor) or the live cluster', () => {
    expect(sourcePickItems('kind-dev', 'Deployment shop/web')).toEqual([
      { label: '$(file-code) Workspace manifests', description: 'at cursor: Deployment shop/web', source: 'workspace' },
      { label: '$(cloud) Live cluster (kind-dev)', description: 'the live ownership graph, as listed and watched', source: 'cluster' },
    ]);
    expect(sourcePickItems('$(x)')[0].description).toBe('the objects written in this workspace');
    expect(sourcePickItems('$(x)')[1].label).toBe('$(cloud) Live cluster (\\$(x))');
  });

  it('finds the live object a manifest describes: same uid, else same group, kind, namespace and name', () => {
    const live = [
      summary('Deployment', 'shop', 'web', { uid: 'live-web' }),
      summary('Deployment', 'shop', 'api', { uid: 'uid-api' }),
      summary('Pod', 'shop', 'web', { uid: 'live-pod' }),
    ];
    expect(matchingLiveObject(live, summary('Deployment', 'shop', 'api', { uid: 'uid-api' }))?.uid).toBe('uid-api');
    expect(matchingLiveObject(live, summary('Deployment', 'shop', 'web', { uid: 'synthetic:apps/Deployment/shop/web' }))?.uid).toBe(
      'live-web',
    );
    expect(matchingLiveObject(live, summary('Deployment', 'shop', 'web', { apiVersion: 'extensions/v1beta1', uid: 'x' }))).toBeUndefined();
    expect(matchingLiveObject(live, summary('Deployment', 'other', 'web', { uid: 'x' }))).toBeUndefined();
  });
});

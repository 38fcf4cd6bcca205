// Live documents without a server: the URI contract (shared/src/wire/liveDocuments.ts), the rendered text (name on LIVE_NAME_LINE, what
// the GC sees), the parsed copy that gives hover and lenses their positions, and live locations on results.
import { describe, expect, it } from 'vitest';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import {
  LIVE_NAME_LINE,
  liveObjectLocation,
  liveObjectUri,
  liveUidOf,
  type ObjectSummary,
  type StuckItem,
} from '../../shared/src/protocol';
import { LiveDocuments, deletionTimestampRange, renderLiveObject, withLiveLocations } from '../../server/src/lsp/liveDocuments';
import { cm, ctl, deploy, manifests, namespace, rs } from '../helpers/manifests';
import { scenario } from '../helpers/scenario';

const web = deploy('web', 'shop', { uid: 'uid-web' });
const replica = rs('web-1', 'shop', {
  uid: 'uid-web-1',
  owners: [ctl(web)],
  finalizers: ['example.com/hold'],
  deletionTimestamp: '2026-11-20T10:00:00Z',
  labels: { app: 'web' },
});
const live = scenario(manifests(web, replica, namespace('shop', { phase: 'Terminating' }), cm('settings', 'shop'))).inventory;

describe('live document URIs', () => {
  it('name the object and carry its uid, also once VS Code has re-encoded the URI', () => {
    const id = { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'shop', name: 'web-1', uid: 'uid-web-1' };
    const uri = liveObjectUri(id, 'arn:aws:eks:eu-west-1:123:cluster/prod');
    expect(uri).toBe('kube-gc-lens-live:/arn%3Aaws%3Aeks%3Aeu-west-1%3A123%3Acluster%2Fprod/shop/ReplicaSet.apps/web-1.yaml?uid=uid-web-1');
    expect(liveUidOf(uri)).toBe('uid-web-1');
    expect(liveUidOf('kube-gc-lens-live:/ctx/shop/ReplicaSet.apps/web-1.yaml?uid%3Duid-web-1')).toBe('uid-web-1');
    expect(liveObjectUri({ ...id, apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' }, 'kind')).toBe(
      'kube-gc-lens-live:/kind/_cluster/Namespace/shop.yaml?uid=uid-web-1',
    );
    expect(liveUidOf('file:///ws/web.yaml?uid=x')).toBeUndefined();
    expect(liveUidOf('kube-gc-lens-live:/ctx/shop/Pod/p.yaml')).toBeUndefined();
  });
});

describe('renderLiveObject', () => {
  it('writes what the GC sees, metadata.name on LIVE_NAME_LINE, and parses back to the same object', () => {
    const o = live.objects.get('uid-web-1')!;
    const text = renderLiveObject(o, o.uid, 'kind-dev');
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Live ReplicaSet shop/web-1 in context kind-dev (read-only: metadata and the fields the simulation reads).');
    expect(lines[LIVE_NAME_LINE]).toBe('  name: web-1');
    const parsed = parseManifestText(text, 'live').objects[0];
    // Where a stuck object's diagnostic goes, without parsing: exactly the parsed deletionTimestamp.
    expect(deletionTimestampRange(o)).toEqual(parsed.source?.ranges?.deletionTimestamp);
    expect(parsed).toMatchObject({
      uid: o.uid,
      finalizers: o.finalizers,
      deletionTimestamp: o.deletionTimestamp,
      ownerReferences: o.ownerReferences,
      labels: { app: 'web' },
    });
  });

  it("writes back a Namespace's spec.finalizers and phase, and a cluster-scoped object has its name on the same line", () => {
    const ns = live.find('', 'Namespace', '', 'shop')!;
    const text = renderLiveObject(ns, ns.uid, 'kind-dev');
    expect(text.split('\n')[LIVE_NAME_LINE]).toBe('  name: shop');
    expect(text).toContain('spec:\n  finalizers:\n    - kubernetes\nstatus:\n  phase: Terminating\n');
  });

  it("writes back a terminating Namespace's status conditions, as stored (the why-chain reads them)", () => {
    const conditions = [
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message: 'Some resources are remaining: configmaps. has 1 resource instances',
        lastTransitionTime: '2026-11-26T02:05:41Z',
      },
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
        lastTransitionTime: '2026-11-26T02:05:41Z',
      },
    ];
    const ns = scenario(
      manifests(
        namespace('team-a', { deletionTimestamp: '2026-11-26T02:05:36Z', extra: { status: { phase: 'Terminating', conditions } } }),
      ),
    ).inventory.find('', 'Namespace', '', 'team-a')!;
    const text = renderLiveObject(ns, ns.uid, 'kind-dev');
    expect(text).toContain('status:\n  phase: Terminating\n  conditions:\n    - type: NamespaceContentRemaining\n      status: "True"\n');
    expect(parseManifestText(text, 'live').objects[0].facts.namespaceConditions).toEqual(conditions);
  });

  it('says when the object is gone or nothing is connected', () => {
    expect(renderLiveObject(undefined, 'u-1', 'kind-dev')).toBe(
      '# uid u-1 is not in the live graph of context kind-dev: it was deleted, or it is outside what the connection lists.\n',
    );
    expect(renderLiveObject(undefined, 'u-1', undefined)).toMatch(/^# Not connected to a cluster/);
  });
});

describe('LiveDocuments', () => {
  it("gives the live object the open document's positions, and nothing once the document no longer matches", () => {
    const docs = new LiveDocuments();
    const o = live.objects.get('uid-web-1')!;
    const uri = liveObjectUri(o, 'kind-dev');
    docs.set(uri, renderLiveObject(o, o.uid, 'kind-dev'));
    const model = docs.model(live, 'kind-dev');
    const [shown] = model.objectsIn(uri);
    expect(shown.uid).toBe('uid-web-1');
    expect(shown.source?.ranges?.name?.start.line).toBe(LIVE_NAME_LINE);
    expect(model.objectAt(uri, { line: LIVE_NAME_LINE, character: 4 })?.uid).toBe('uid-web-1');
    expect(model.liveLocation?.(web as never)).toEqual(liveObjectLocation({ ...web, namespace: 'shop' }, 'kind-dev'));
    // A note (the object is gone) has no object; another uid's text under this URI is not trusted either.
    docs.set(uri, renderLiveObject(undefined, o.uid, 'kind-dev'));
    expect(model.objectsIn(uri)).toEqual([]);
    const other = live.objects.get('uid-web')!;
    docs.set(uri, renderLiveObject(other, other.uid, 'kind-dev'));
    expect(model.objectsIn(uri)).toEqual([]);
  });
});

describe('withLiveLocations', () => {
  it('points a live summary and every object of a why-chain at their live documents', () => {
    const summary: ObjectSummary = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'web-1',
      uid: 'uid-web-1',
      syntheticUid: false,
      beingDeleted: true,
      finalizers: [],
      ownerCount: 1,
    };
    expect(withLiveLocations(summary, 'kind-dev').location).toEqual(liveObjectLocation(summary, 'kind-dev'));
    expect(withLiveLocations(summary, undefined)).toBe(summary);
    const owner = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'uid-web' };
    const item: StuckItem = {
      ...summary,
      state: 'stuck',
      reason: 'held',
      since: null,
      blockedBy: [{ type: 'finalizer', message: 'x', blockedBy: [{ type: 'waiting-for-dependents', message: 'y', object: owner }] }],
    };
    const out = withLiveLocations(item, 'kind-dev');
    expect(out.location?.uri).toBe(liveObjectUri(summary, 'kind-dev'));
    expect(out.locations).toEqual({ 'uid-web': liveObjectLocation(owner, 'kind-dev') });
  });
});

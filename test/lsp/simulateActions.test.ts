// The "Simulate …" code actions (server/src/lsp/simulateActions.ts): which one the cursor gets where (a finalizer,
// an ownerReference, a workload's kind or name; nothing elsewhere), and the plan entries each one's command carries,
// on a manifest and on a live document.

import { describe, expect, it } from 'vitest';
import type { CodeAction } from 'vscode-languageserver';
import { liveObjectUri, SIMULATE_REQUESTS_COMMAND, type SimulateRequestsArgs } from '../../shared/src/protocol';
import { LiveDocuments, renderLiveObject } from '../../server/src/lsp/liveDocuments';
import { SIMULATE_ACTION_KIND, simulateActions } from '../../server/src/lsp/simulateActions';
import { WorkspaceModel } from '../../server/src/workspace/workspaceModel';
import { scenario } from '../helpers/scenario';
import { manifests, rs, deploy, ctl, HOLD } from '../helpers/manifests';

const URI = 'file:///work/shop.yaml';

const TEXT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  uid: d-1
spec:
  replicas: 0
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-1
  namespace: shop
  uid: rs-1
  finalizers:
    - example.com/hold
    - example.com/other
  ownerReferences:
    - apiVersion: apps/v1
      kind: Deployment
      name: web
      uid: d-1
      controller: true
    - apiVersion: apps/v1
      kind: Deployment
      name: web
      uid: d-stale
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  uid: cm-1
`;

function model(text = TEXT): WorkspaceModel {
  const m = new WorkspaceModel({ controllers: 'builtin', finalizerOwners: [] });
  m.loadAll([m.parse(URI, text)!]);
  return m;
}

/** The actions with the cursor on `line` (0-based) at `character`. */
function at(line: number, character: number, only?: string[], m = model(), uri = URI, source: 'workspace' | 'cluster' = 'workspace') {
  const p = { line, character };
  return simulateActions(m, uri, { start: p, end: p }, source, only);
}

const args = (a: CodeAction) => a.command!.arguments![0] as SimulateRequestsArgs;
const lineOf = (needle: string, from = 0) => TEXT.split('\n').findIndex((l, i) => i >= from && l.includes(needle));

describe('Simulate code actions on a manifest', () => {
  it('on a finalizer: removing that finalizer, as a plan entry', () => {
    const actions = at(lineOf('example.com/other'), 8);
    expect(actions.map((a) => a.title)).toEqual(['Simulate removing finalizer example.com/other']);
    expect(at(lineOf('example.com/other'), 4)).toEqual(actions); // on the list's dash
    expect(actions[0].kind).toBe(SIMULATE_ACTION_KIND);
    expect(actions[0].command?.command).toBe(SIMULATE_REQUESTS_COMMAND);
    expect(args(actions[0])).toEqual({
      source: 'workspace',
      requests: [
        {
          verb: 'remove-finalizer',
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          namespace: 'shop',
          name: 'web-1',
          finalizer: 'example.com/other',
        },
      ],
    });
  });

  it('on an ownerReference (any of its lines): removing it; on one whose owner has another uid, fixing it too', () => {
    const first = lineOf('ownerReferences:') + 1;
    for (const line of [first, first + 3, first + 4]) {
      expect(
        at(line, 8).map((a) => a.title),
        `line ${line}`,
      ).toEqual(['Simulate removing this ownerReference to Deployment web']);
    }
    expect(args(at(first, 8)[0])).toMatchObject({ requests: [{ verb: 'remove-owner-reference', name: 'web-1', ownerUid: 'd-1' }] });
    const stale = at(lineOf('uid: d-stale'), 10);
    expect(stale.map((a) => a.title)).toEqual([
      'Simulate removing this ownerReference to Deployment web',
      'Simulate fixing this ownerReference: the uid of the existing Deployment web',
    ]);
    expect(args(stale[1])).toEqual({
      source: 'workspace',
      requests: [
        {
          verb: 'set-owner-reference',
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          namespace: 'shop',
          name: 'web-1',
          ownerUid: 'd-stale',
          to: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-1' },
        },
      ],
    });
  });

  it("on a workload's kind or name: scaling it, suggesting 1 replica when it is at 0, else 0", () => {
    for (const line of [lineOf('kind: Deployment'), lineOf('name: web'), lineOf('apiVersion: apps/v1')]) {
      const actions = at(line, 4);
      expect(
        actions.map((a) => a.title),
        `line ${line}`,
      ).toEqual(['Simulate scaling Deployment shop/web…']);
      expect(args(actions[0])).toEqual({
        source: 'workspace',
        scale: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
        replicas: 1,
      });
    }
    const replicaSet = at(lineOf('kind: ReplicaSet'), 4);
    expect(args(replicaSet[0])).toMatchObject({ scale: { kind: 'ReplicaSet', name: 'web-1' }, replicas: 0 });
  });

  it('nothing elsewhere: spec, metadata keys, a ConfigMap, outside any object, or when only other kinds are asked for', () => {
    expect(at(lineOf('replicas: 0'), 4)).toEqual([]);
    expect(at(lineOf('namespace: shop'), 4)).toEqual([]);
    expect(at(lineOf('finalizers:'), 4)).toEqual([]);
    expect(at(lineOf('kind: ConfigMap'), 4)).toEqual([]);
    expect(at(lineOf('name: settings'), 4)).toEqual([]);
    expect(at(200, 0)).toEqual([]);
    const finalizer = lineOf('example.com/hold');
    expect(at(finalizer, 8, ['quickfix'])).toEqual([]);
    expect(at(finalizer, 8, ['source'])).toEqual([]);
    expect(at(finalizer, 8, ['refactor'])).toHaveLength(1);
    expect(at(finalizer, 8, [SIMULATE_ACTION_KIND])).toHaveLength(1);
  });

  it('a title is plain text of bounded length, whatever the finalizer is called', () => {
    const long = `example.com/${'x'.repeat(300)}`;
    const text = TEXT.replace('example.com/other', long);
    const [action] = at(lineOf('example.com/other'), 8, undefined, model(text));
    expect(action.title.length).toBeLessThanOrEqual(120);
    expect(args(action)).toMatchObject({ requests: [{ finalizer: long }] });
  });
});

describe('Simulate code actions on a live document', () => {
  it('offer the same actions, on the live cluster', () => {
    const web = deploy('web', 'shop', { uid: 'uid-web' });
    const replica = rs('web-1', 'shop', { uid: 'uid-web-1', owners: [ctl(web)], finalizers: [HOLD] });
    const live = scenario(manifests(web, replica)).inventory;
    const docs = new LiveDocuments();
    const o = live.objects.get('uid-web-1')!;
    const uri = liveObjectUri(o, 'kind-dev');
    const text = renderLiveObject(o, o.uid, 'kind-dev');
    docs.set(uri, text);
    const lines = text.split('\n');
    const finalizer = lines.findIndex((l) => l.includes(HOLD));
    const actions = at(finalizer, 8, undefined, docs.model(live, 'kind-dev') as WorkspaceModel, uri, 'cluster');
    expect(actions.map((a) => a.title)).toEqual([`Simulate removing finalizer ${HOLD}`]);
    expect(args(actions[0])).toMatchObject({ source: 'cluster', requests: [{ verb: 'remove-finalizer', name: 'web-1' }] });
    const kind = lines.findIndex((l) => l.startsWith('kind: ReplicaSet'));
    expect(at(kind, 2, undefined, docs.model(live, 'kind-dev') as WorkspaceModel, uri, 'cluster').map((a) => a.title)).toEqual([
      'Simulate scaling ReplicaSet shop/web-1…',
    ]);
  });
});

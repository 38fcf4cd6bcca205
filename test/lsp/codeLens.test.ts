// Code lenses (server/src/lsp/codeLens.ts) on a WorkspaceModel built from YAML: the cheap list (ranges, data, the
// owner lens resolved at once), and codeLens/resolve titles from the deletion simulation under the API default
// policy, counted against what the GC does anyway.

import { describe, expect, it } from 'vitest';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { codeLenses, resolveCodeLens } from '../../server/src/lsp/codeLens';
import type { WorkspaceModel } from '../../server/src/workspace/workspaceModel';
import { busybox, ctl, deploy, manifests, obj, pod, pvc, ref, rs } from '../helpers/manifests';
import { BUILTIN, exampleDocs, lineOf, positionOf, workspace } from './modelHelpers';

const SHOP = 'file:///ws/shop';

const web = deploy('web', 'shop', { uid: '6f1c2a8e-3b0d-4c55-9a61-0d2b7f4e9c11' });
const webRs = rs('web-7d9f8b6c5', 'shop', { uid: '0b7e4d2a-1c3f-4e8a-b5d6-9f0a1b2c3d4e', owners: [ctl(web)] });
const podA = pod('web-7d9f8b6c5-x7k2p', 'shop', {
  ...busybox('node-1'),
  uid: '1a2b3c4d-0000-4000-8000-000000000001',
  owners: [ctl(webRs)],
});
const podB = pod('web-7d9f8b6c5-q9m4z', 'shop', {
  ...busybox('node-1'),
  uid: '1a2b3c4d-0000-4000-8000-000000000002',
  owners: [ctl(webRs), ref(deploy('web-old', 'shop', { uid: '99999999-0000-4000-8000-000000000009' }))],
});
const DEPLOY_YAML = manifests(web);
const RS_YAML = manifests(webRs, podA, podB);

function shop(): WorkspaceModel {
  return workspace({ [`${SHOP}/deploy.yaml`]: DEPLOY_YAML, [`${SHOP}/replicasets.yaml`]: RS_YAML });
}

/** Every lens of a document, resolved as the editor would (only those without a command are sent to resolve). */
function titles(model: WorkspaceModel, uri: string): string[] {
  return codeLenses(model, uri).map((l) => (l.command ? l : resolveCodeLens(model, l, BUILTIN)).command!.title);
}

describe('code lenses of a document', () => {
  it('gives each object an impact lens (data only) and objects with owners a resolved owner lens', () => {
    const model = shop();
    const uri = `${SHOP}/replicasets.yaml`;
    const at = (nth: number) => {
      const p = positionOf(RS_YAML, 'apiVersion:', { nth });
      return { start: p, end: p };
    };
    const ownerName = positionOf(DEPLOY_YAML, 'name: web', { offset: 6 });
    const rsName = positionOf(RS_YAML, 'name: web-7d9f8b6c5\n', { offset: 6 });
    // apiVersion occurrences: 0 RS, 1 its owner reference, 2 Pod A, 3 its reference, 4 Pod B, 5 and 6 its references.
    expect(codeLenses(model, uri)).toEqual<CodeLens[]>([
      { range: at(0), data: { uri, uid: webRs.uid, kind: 'impact' } },
      {
        range: at(0),
        command: {
          title: 'Owned by Deployment web',
          command: 'kubeGcLens.revealLocation',
          arguments: [`${SHOP}/deploy.yaml`, { start: ownerName, end: { line: ownerName.line, character: ownerName.character + 3 } }],
        },
      },
      { range: at(2), data: { uri, uid: podA.uid, kind: 'impact' } },
      {
        range: at(2),
        command: {
          title: 'Owned by ReplicaSet web-7d9f8b6c5',
          command: 'kubeGcLens.revealLocation',
          arguments: [uri, { start: rsName, end: { line: rsName.line, character: rsName.character + 13 } }],
        },
      },
      { range: at(4), data: { uri, uid: podB.uid, kind: 'impact' } },
      {
        range: at(4),
        command: {
          title: 'Owned by ReplicaSet web-7d9f8b6c5 and 1 more',
          command: 'kubeGcLens.revealLocation',
          arguments: [uri, { start: rsName, end: { line: rsName.line, character: rsName.character + 13 } }],
        },
      },
    ]);
  });

  it('says when the owner is not in the workspace, with a no-op command so the lens still shows', () => {
    const orphan = pod('web-5b8c9d7f4-w9pzn', 'shop', { ...busybox('node-1'), owners: [ctl(rs('web-5b8c9d7f4', 'shop'))] });
    const yaml = manifests(orphan);
    const model = workspace({ 'file:///ws/orphan.yaml': yaml });
    const [, owner] = codeLenses(model, 'file:///ws/orphan.yaml');
    expect(owner.command).toEqual({ title: 'Owner ReplicaSet web-5b8c9d7f4 not found', command: '' });
  });

  it('points at the namesake when the owner has another uid (an export from another cluster)', () => {
    const docs = exampleDocs('deployment-export-from-another-cluster');
    const uri = 'file:///examples/deployment-export-from-another-cluster/checkout-export.yaml';
    const model = workspace(docs);
    const lens = codeLenses(model, uri).find((l) => l.command?.title.startsWith('Owner Deployment'));
    const name = positionOf(docs[uri], 'name: checkout\n', { offset: 6 });
    expect(lens?.command).toEqual({
      title: 'Owner Deployment checkout not found (uid differs)',
      command: 'kubeGcLens.revealLocation',
      arguments: [uri, { start: name, end: { line: name.line, character: name.character + 8 } }],
    });
  });

  it('points at the object holding the uid when the reference names it otherwise (kind: daemonset)', () => {
    const ds = obj('apps/v1', 'DaemonSet', 'openshift-ingress-canary', 'ingress-canary', { uid: 'c4d58cda-0000-4000-8000-000000000001' });
    const svc = obj('v1', 'Service', 'openshift-ingress-canary', 'ingress-canary', { owners: [ref(ds, { kind: 'daemonset' })] });
    const yaml = manifests(ds, svc);
    const model = workspace({ 'file:///ws/canary.yaml': yaml });
    const lens = codeLenses(model, 'file:///ws/canary.yaml').find((l) => l.command?.title.startsWith('Owner'));
    const name = positionOf(yaml, 'name: ingress-canary', { offset: 6 });
    expect(lens?.command).toEqual({
      title: "Owner daemonset ingress-canary not found (the uid is DaemonSet ingress-canary's)",
      command: 'kubeGcLens.revealLocation',
      arguments: ['file:///ws/canary.yaml', { start: name, end: { line: name.line, character: name.character + 14 } }],
    });
  });

  it('makes hostile names plain text in titles (no $(icon) syntax, one line)', () => {
    const owner = deploy('$(bug) web', 'shop', { uid: 'd00d0000-0000-4000-8000-000000000001' });
    const cm = obj('v1', 'ConfigMap', 'shop', 'web-config', { owners: [ref(owner)] });
    const model = workspace({ 'file:///ws/hostile.yaml': manifests(owner, cm) });
    expect(titles(model, 'file:///ws/hostile.yaml')).toContain('Owned by Deployment \\$(bug) web');
  });
});

describe('resolving the impact lens', () => {
  it('counts what deleting a Deployment takes with it, and opens Simulate Delete on click', () => {
    const model = shop();
    const [lens] = codeLenses(model, `${SHOP}/deploy.yaml`);
    const resolved = resolveCodeLens(model, lens, BUILTIN);
    expect(resolved.range).toEqual(lens.range);
    expect(resolved.command).toMatchObject({
      title: 'Delete: also 1 ReplicaSet, 2 Pods',
      command: 'kubeGcLens.simulateDelete',
      arguments: [web.uid, 'default'],
    });
    expect(titles(model, `${SHOP}/replicasets.yaml`)).toEqual([
      'Delete: also 2 Pods',
      'Owned by Deployment web',
      'Delete: only this Pod',
      'Owned by ReplicaSet web-7d9f8b6c5',
      'Delete: only this Pod',
      'Owned by ReplicaSet web-7d9f8b6c5 and 1 more',
    ]);
  });

  it('leaves out what the GC collects anyway, and says so on that object', () => {
    // A ConfigMap whose owner is gone is garbage whatever is deleted: it must not count for the Deployment.
    const garbage = obj('v1', 'ConfigMap', 'shop', 'web-config-old', {
      owners: [ref(deploy('web-old', 'shop', { uid: '99999999-0000-4000-8000-000000000009' }))],
    });
    const uri = 'file:///ws/garbage.yaml';
    const model = workspace({ [`${SHOP}/deploy.yaml`]: DEPLOY_YAML, [`${SHOP}/replicasets.yaml`]: RS_YAML, [uri]: manifests(garbage) });
    expect(titles(model, `${SHOP}/deploy.yaml`)).toEqual(['Delete: also 1 ReplicaSet, 2 Pods']);
    expect(titles(model, uri)).toEqual(['Delete: the GC deletes it anyway', 'Owner Deployment web-old not found']);
  });

  it('counts a claim that stays because another Pod still mounts it', () => {
    const sts = obj('apps/v1', 'StatefulSet', 'db', 'postgres', { uid: 'a93929a8-4e0d-4a8c-ab8d-f2b208373884' });
    const claim = pvc('data-postgres-0', 'db', { volumeName: 'pvc-fb0adb33', owners: [ref(sts)] });
    const member = pod('postgres-0', 'db', {
      ...busybox('node-1'),
      owners: [ctl(sts)],
      claims: [{ volume: 'data', claimName: 'data-postgres-0' }],
    });
    const backup = pod('pg-backup-28a7c', 'db', { ...busybox('node-2'), claims: [{ volume: 'data', claimName: 'data-postgres-0' }] });
    const model = workspace({ 'file:///ws/db.yaml': manifests(sts, claim, member, backup) });
    expect(titles(model, 'file:///ws/db.yaml')).toEqual([
      'Delete: also 1 Pod · 1 stuck (pvc-protection)',
      'Delete: stays Terminating (pvc-protection)',
      'Owned by StatefulSet postgres',
      'Delete: only this Pod',
      'Owned by StatefulSet postgres',
      'Delete: only this Pod',
    ]);
  });

  it('counts the dependents a bare DELETE orphans (batch/v1 Job, R5)', () => {
    const docs = exampleDocs('jobs-and-cronjobs');
    const model = workspace(docs);
    expect(titles(model, 'file:///examples/jobs-and-cronjobs/db-migrate-job.yaml')).toEqual([
      'Delete: only this Job · 1 orphaned',
      'Delete: only this Pod',
      'Owned by Job db-migrate',
    ]);
  });

  it('says a namespace deletion hangs on its operator finalizers', () => {
    const docs = exampleDocs('operator-finalizers-kafka');
    const model = workspace(docs);
    expect(titles(model, 'file:///examples/operator-finalizers-kafka/namespace.yaml')).toEqual([
      'Delete: stays Terminating (namespace content) · deletes 1 Deployment · 2 more stuck',
    ]);
  });

  it('turns a lens whose object is gone into "(outdated)" instead of failing', () => {
    const model = shop();
    const uri = `${SHOP}/replicasets.yaml`;
    const lenses = codeLenses(model, uri);
    // The user deletes both Pods from the file; the editor still resolves the lenses it listed before.
    const rsOnly = manifests(webRs);
    model.update(uri, model.parse(uri, rsOnly));
    expect(resolveCodeLens(model, lenses[2], BUILTIN).command).toEqual({ title: '(outdated)', command: '' });
    expect(resolveCodeLens(model, lenses[0], BUILTIN).command?.title).toBe('Delete: only this ReplicaSet');
    // Data that is not ours at all.
    expect(resolveCodeLens(model, { range: lenses[0].range, data: 'garbage' }, BUILTIN).command).toEqual({
      title: '(outdated)',
      command: '',
    });
    expect(resolveCodeLens(model, { range: lenses[0].range }, BUILTIN).command).toEqual({ title: '(outdated)', command: '' });
  });

  it('recomputes after an edit: the impact follows the text', () => {
    const model = shop();
    const uri = `${SHOP}/replicasets.yaml`;
    const [deployLens] = codeLenses(model, `${SHOP}/deploy.yaml`);
    expect(resolveCodeLens(model, deployLens, BUILTIN).command?.title).toBe('Delete: also 1 ReplicaSet, 2 Pods');
    // The ReplicaSet now names the Deployment with a stale uid: the Deployment takes nothing with it any more.
    const stale = RS_YAML.replace(`uid: ${web.uid}`, 'uid: 00000000-0000-4000-8000-000000000000');
    expect(stale).not.toBe(RS_YAML);
    model.update(uri, model.parse(uri, stale));
    expect(resolveCodeLens(model, deployLens, BUILTIN).command?.title).toBe('Delete: only this Deployment');
  });

  it('keeps an already resolved lens as it is', () => {
    const model = shop();
    const owner = codeLenses(model, `${SHOP}/replicasets.yaml`)[1];
    expect(resolveCodeLens(model, owner, BUILTIN)).toBe(owner);
  });

  it('puts each lens on the first line of its object, List items included', () => {
    const docs = exampleDocs('statefulset-with-volumes');
    const uri = 'file:///examples/statefulset-with-volumes/postgres-statefulset-and-pods.yaml';
    const lines = codeLenses(workspace(docs), uri).map((l) => l.range.start.line);
    const text = docs[uri];
    // Items of the top-level List (not the claim template inside the StatefulSet, also "- apiVersion: v1").
    const sts = lineOf(text, '\n- apiVersion: apps/v1\n') + 1;
    const pod0 = lineOf(text, '\n- apiVersion: v1\n') + 1;
    const pod1 = lineOf(text, '\n- apiVersion: v1\n', 1) + 1;
    expect(lines).toEqual([sts, pod0, pod0, pod1, pod1]);
  });
});

// `kubectl gc stuck -f` prints the usual real fixes as ways out: the finished Pods that keep a claim deleted (R87),
// a platform's entry of a Namespace's spec.finalizers removed through /finalize (R88).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cliProcess';

let dir: string;
const T = 'deletionTimestamp: "2026-01-01T10:00:00Z"';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kgl-release-'));
  writeFileSync(
    join(dir, 'claim.yaml'),
    [
      `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop, uid: u-data, ${T}, finalizers: [kubernetes.io/pvc-protection]}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\nstatus: {phase: Bound}`,
      'apiVersion: v1\nkind: Pod\nmetadata: {name: backup-1, namespace: shop, uid: u-backup}\nspec: {nodeName: node-1, containers: [{name: c, image: x}], volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}\nstatus: {phase: Succeeded}',
    ].join('\n---\n'),
  );
  writeFileSync(
    join(dir, 'ns.yaml'),
    `apiVersion: v1\nkind: Namespace\nmetadata: {name: legacy, uid: u-legacy, ${T}}\nspec: {finalizers: [openshift.io/origin]}\nstatus: {phase: Terminating}\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stuck(file: string): string {
  const r = spawnSync(process.execPath, [CLI, 'stuck', '-f', join(dir, file)], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('the real fixes among the ways out', () => {
  it('a claim kept by a finished Pod: deleting it comes first, removing pvc-protection after', () => {
    const text = stuck('claim.yaml');
    expect(text).toContain(
      '      1. [caution] Delete the finished Pod shop/backup-1 that still references PersistentVolumeClaim shop/data: pvc-protection counts a Pod that has ended (Succeeded or Failed) until it is deleted\n         $ kubectl delete pod/backup-1 -n shop\n',
    );
    expect(text).toContain('      2. [dangerous] Remove the finalizer kubernetes.io/pvc-protection from PersistentVolumeClaim shop/data\n');
  });

  it('a Namespace held by openshift.io/origin: that entry removed through /finalize', () => {
    expect(stuck('ns.yaml')).toContain(
      `      1. [dangerous] Remove openshift.io/origin from the spec.finalizers of namespace legacy (through /finalize): the controller of openshift.io has not removed it\n         $ kubectl get namespace/legacy -o json | jq '.spec.finalizers -= ["openshift.io/origin"]' | kubectl replace --raw /api/v1/namespaces/legacy/finalize -f -\n`,
    );
  });
});

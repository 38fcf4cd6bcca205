// The CLI against a real kube-apiserver and kube-controller-manager (test/controlplane: Kubernetes' own code, built
// from its Go modules), not the API test server: a namespace really stuck on a custom finalizer, RBAC's real 403s,
// the real admission refusing `default`'s deletion (R55), and the apiserver's own audit log counting what we send.
// The first build of the control plane takes about 6 minutes (later ones reuse Go's build cache). Skipped only where
// `go` is not on PATH (CI and the project's machines have it).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_PLANE_SKIP, type ControlPlane, startControlPlane, until } from '../../testkit/cluster/controlPlane';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
if (CONTROL_PLANE_SKIP) console.warn(`test/cluster/realServer.test.ts ${CONTROL_PLANE_SKIP}`);

const dir = mkdtempSync(path.join(tmpdir(), 'kgl-real-'));
const AUDIT_LOG = path.join(dir, 'audit.log');
const AUDIT_POLICY = path.join(dir, 'audit-policy.yaml');
let plane: ControlPlane;
let kubeconfig = '';
const kubectl = (args: string[], input?: string) => plane.kubectl(args, input);

function gc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args, '--kubeconfig', kubeconfig], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(CONTROL_PLANE_SKIP !== undefined)('the CLI on a real control plane', () => {
  beforeAll(async () => {
    writeFileSync(AUDIT_POLICY, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    plane = await startControlPlane({ apiserverArgs: [`--audit-policy-file=${AUDIT_POLICY}`, `--audit-log-path=${AUDIT_LOG}`] });
    kubeconfig = plane.kubeconfig;
  }, 900_000);

  afterAll(async () => {
    await plane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a namespace held by a custom finalizer: the real namespace controller leaves it Terminating, and stuck says why', async () => {
    expect(gc(['stuck']).stdout).toContain('Nothing is terminating.');
    kubectl(
      ['apply', '-f', '-'],
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: team-a, finalizers: [example.com/hold]}\n',
    );
    kubectl(['delete', 'namespace', 'team-a', '--wait=false']);
    // The namespace controller deletes the content it can: the ConfigMap gets its deletionTimestamp and stays.
    await until(
      'the ConfigMap is terminating',
      () => kubectl(['get', 'configmap', 'held', '-n', 'team-a', '-o', 'jsonpath={.metadata.deletionTimestamp}']) !== '',
    );
    const r = gc(['stuck', '-o', 'json']);
    expect(r.status).toBe(0);
    const stuck = (JSON.parse(r.stdout) as { stuck: { kind: string; name: string; reason: string }[] }).stuck;
    expect(stuck.map((s) => `${s.kind}/${s.name}`).sort()).toEqual(['ConfigMap/held', 'Namespace/team-a']);
    expect(stuck.find((s) => s.kind === 'ConfigMap')!.reason).toContain('example.com/hold');
  });

  it('R55: simulate predicts what the real server answers to DELETE namespace default (403, nothing changes)', () => {
    const real = plane.kubectlResult(['delete', 'namespace', 'default', '--dry-run=server']);
    expect(real.status).not.toBe(0);
    expect(real.stderr).toContain('this namespace may not be deleted');
    const r = gc(['simulate', 'ns/default', '-o', 'json']);
    const report = JSON.parse(r.stdout) as { steps: { action: string; detail: string }[]; deleted: unknown[] };
    expect(report.steps.map((s) => s.action)).toEqual(['reject']);
    expect(report.steps[0].detail).toContain('403: namespaces "default" is forbidden: this namespace may not be deleted');
    expect(report.deleted).toEqual([]);
  });

  it("the restricted user: RBAC's real 403s become the incomplete-preview notes, and the rest is answered", () => {
    const r = gc(['check', '--context', 'restricted', '-o', 'json']);
    expect(r.status).not.toBe(2);
    const json = JSON.parse(r.stdout) as { objects: number; incomplete?: string[] };
    expect(json.objects).toBeGreaterThan(0);
    expect((json.incomplete ?? []).join('\n')).toMatch(/cannot list secrets/);
  });

  it('the live graph (metadata-only LISTs) is the graph of the same cluster read in full by kubectl get -o json', () => {
    kubectl(['apply', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owner, namespace: default}\n');
    const ownerUid = kubectl(['get', 'configmap', 'owner', '-n', 'default', '-o', 'jsonpath={.metadata.uid}']);
    kubectl(
      ['apply', '-f', '-'],
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dependent\n  namespace: default\n  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: ${ownerUid}}]\n`,
    );
    // What the garbage collector watches: every resource that can be listed, watched and deleted, events excepted.
    const types = kubectl(['api-resources', '--verbs=list,watch,delete', '-o', 'name'])
      .split('\n')
      .filter((t) => t && !/^events(\.|$)/.test(t));
    const full = kubectl(['get', types.join(','), '-A', '-o', 'json']);
    const graph = (stdout: string) => {
      const g = JSON.parse(stdout) as { nodes: { uid: string; kind: string; name: string }[]; edges: { from: string; to: string }[] };
      return { nodes: g.nodes.map((n) => `${n.kind}/${n.name} ${n.uid}`).sort(), edges: g.edges.map((e) => `${e.from}->${e.to}`).sort() };
    };
    const fromDump = (command: string) =>
      spawnSync(process.execPath, [CLI, command, '-f', '-', '-o', 'json'], { input: full, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
    const live = graph(gc(['graph', '-o', 'json']).stdout);
    expect(live).toEqual(graph(fromDump('graph')));
    expect(live.edges).toContain(
      `${kubectl(['get', 'configmap', 'dependent', '-n', 'default', '-o', 'jsonpath={.metadata.uid}'])}->${ownerUid}`,
    );
    // Every object, not only those with owners: the same count and the same findings.
    const check = (stdout: string) => {
      const c = JSON.parse(stdout) as { objects: number; findings: { code: string; object: { kind: string; name: string } }[] };
      return { objects: c.objects, findings: c.findings.map((f) => `${f.code} ${f.object.kind}/${f.object.name}`).sort() };
    };
    const liveCheck = check(gc(['check', '-o', 'json']).stdout);
    expect(liveCheck.objects).toBeGreaterThan(50); // a fresh cluster's namespaces, RBAC objects, services, …
    expect(liveCheck).toEqual(check(fromDump('check')));
  });

  it("the apiserver's audit log: every request kubectl-gc sent was a GET (get, list or watch)", async () => {
    await until('the audit log has our requests', () => readFileSync(AUDIT_LOG, 'utf8').includes('kube-gc-lens (read-only)'));
    const ours = readFileSync(AUDIT_LOG, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { verb: string; userAgent?: string; stage: string })
      .filter((e) => e.userAgent === 'kube-gc-lens (read-only)' && e.stage === 'ResponseComplete');
    expect(ours.length).toBeGreaterThan(20);
    expect(ours.filter((e) => !['get', 'list', 'watch'].includes(e.verb))).toEqual([]);
  });
});

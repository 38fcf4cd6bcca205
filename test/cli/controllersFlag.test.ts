// kubectl-gc's --controllers in kube-controller-manager's own spelling, and --kube-version (issue 15): the built
// binary, spawned on the repository's examples/.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cliProcess';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const simulateJson = async (args: string[]) => {
  const r = await runCli(['simulate', '-f', EXAMPLES, ...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    controllers: string;
    kubernetesVersion: string;
    notes: string[];
    stuck: { kind: string; name: string; reason: string }[];
    deleted: { kind: string; name: string }[];
  };
};

describe('kubectl-gc --controllers', () => {
  it('takes a kube-controller-manager list, with * and -name as kube-controller-manager reads them', async () => {
    const r = await simulateJson(['namespace/kafka', '--controllers=*,-namespace-controller']);
    expect(r.controllers).toBe('*,-namespace-controller');
    expect(r.stuck.find((s) => s.kind === 'Namespace' && s.name === 'kafka')?.reason).toMatch(
      /no namespace controller runs with --controllers=\*,-namespace-controller/,
    );
    const text = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka', '--controllers=garbagecollector,namespace']);
    expect(text.stdout).toContain(
      "Controllers: garbagecollector,namespace (modelled here: garbage-collector-controller, namespace-controller, and the apiserver's CRD cleanup; no kubelet, no volume provisioner, no operator)",
    );
  });

  it('keeps builtin and gc, and refuses an unknown controller as kube-controller-manager does (exit 2)', async () => {
    expect((await simulateJson(['namespace/kafka', '--controllers=gc'])).controllers).toBe('gc');
    const bad = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka', '--controllers=garbage-collector-controller,red-controller']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'invalid --controllers value "garbage-collector-controller,red-controller": "red-controller" is not in the list of known controllers',
    );
  });

  it('in a controllers list no operator runs: the Kafka clusters keep their finalizer, and the custom-finalizer reason says why', async () => {
    const r = await simulateJson(['namespace/kafka', '--controllers=*']);
    expect(r.stuck.find((s) => s.kind === 'Kafka' && s.name === 'my-cluster')?.reason).toMatch(/does not run with --controllers=\*/);
  });
});

describe('kubectl-gc --kube-version', () => {
  it('defaults to the newest version the simulation follows, and says so', async () => {
    const text = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka']);
    expect(text.stdout).toContain('Kubernetes 1.37 behaviour (the newest the simulation follows; --kube-version to choose)');
    expect(text.stdout).toMatch(/finalizer-deadlock: Deleting namespace kafka deadlocks \(Kubernetes 1\.37\)/);
  });

  it('R57: before 1.33 the operator deadlock is a race, and the report says so', async () => {
    const r = await simulateJson(['namespace/kafka', '--kube-version', 'v1.32.4']);
    expect(r.kubernetesVersion).toBe('1.32');
    expect(r.notes.some((n) => n.startsWith('Timing-dependent (Kubernetes 1.32): '))).toBe(true);
    const text = await runCli(['simulate', '-f', EXAMPLES, 'namespace/kafka', '--kube-version=1.32']);
    expect(text.stdout).toContain('Kubernetes 1.32 behaviour (--kube-version)');
    expect(text.stdout).toMatch(/finalizer-deadlock: Deleting namespace kafka can deadlock \(Kubernetes 1\.32: a race\)/);
  });

  it('refuses a version that is not MAJOR.MINOR (exit 2)', async () => {
    const bad = await runCli(['check', '-f', EXAMPLES, '--kube-version', 'latest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid --kube-version value "latest"');
  });
});

describe("a plan's controllers and kubeVersion", () => {
  it('say who acts and which version, as the flags do; the flags override them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgl-plan-'));
    try {
      const plan = join(dir, 'plan.yaml');
      writeFileSync(
        plan,
        'controllers: "*,-namespace-controller"\nkubeVersion: "1.32"\ndeletes:\n- {apiVersion: v1, kind: Namespace, name: kafka}\n',
      );
      const r = await simulateJson(['--plan', plan]);
      expect({ controllers: r.controllers, kubernetesVersion: r.kubernetesVersion }).toEqual({
        controllers: '*,-namespace-controller',
        kubernetesVersion: '1.32',
      });
      const text = await runCli(['simulate', '-f', EXAMPLES, '--plan', plan]);
      expect(text.stdout).toContain("Kubernetes 1.32 behaviour (the plan's kubeVersion)");
      const flags = await simulateJson(['--plan', plan, '--controllers=gc', '--kube-version=1.34']);
      expect({ controllers: flags.controllers, kubernetesVersion: flags.kubernetesVersion }).toEqual({
        controllers: 'gc',
        kubernetesVersion: '1.34',
      });
      writeFileSync(plan, 'controllers: red-controller\ndeletes: []\n');
      const bad = await runCli(['simulate', '-f', EXAMPLES, '--plan', plan]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(
        'controllers must be builtin, gc or a kube-controller-manager --controllers list: "red-controller" is not in the list of known controllers',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

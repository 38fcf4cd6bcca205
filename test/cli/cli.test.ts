// kubectl-gc as users and scripts run it: the built binary, spawned, reading fixtures and stdin.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATE_JSON_KEYS } from '../helpers/jsonContracts';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIX = join(ROOT, 'test', 'fixtures', 'cli');

function cli(args: string[], input?: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, input, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const json = (args: string[], input?: string) => {
  const r = cli(args, input);
  expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
  return { ...r, data: JSON.parse(r.stdout) };
};

describe('kubectl-gc simulate', () => {
  it('prints the documented JSON contract', () => {
    const { code, data } = json([
      'simulate',
      '-f',
      join(FIX, 'shop'),
      'deployment/web',
      '-n',
      'shop',
      '--cascade=foreground',
      '-o',
      'json',
    ]);
    expect(code).toBe(0);
    // Version 2 (the Report every front end shows): version 1's fields where they were, and summary, targets, counts.
    expect(Object.keys(data).sort()).toEqual(SIMULATE_JSON_KEYS.filter((k) => k !== 'aborted'));
    expect(data.version).toBe(2);
    expect(data.summary).toBe(
      'Deleting Deployment shop/web: 5 objects deleted (1 Deployment, 1 ReplicaSet, 2 Pods, 1 Secret), 0 stuck, 0 orphaned',
    );
    expect(data.targets).toEqual([
      {
        request: 0,
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
        uid: expect.any(String),
        outcome: 'deleted',
        afterStep: 0, // nothing to settle before the request (additive to version 2)
      },
    ]);
    expect(data.counts).toEqual({ deletedByKind: { Secret: 1, Pod: 2, ReplicaSet: 1, Deployment: 1 }, orphaned: 0, stuck: 0 });
    expect({ controllers: data.controllers, kubernetesVersion: data.kubernetesVersion }).toEqual({
      controllers: 'builtin',
      kubernetesVersion: '1.37',
    });
    // The Secret's reference does not block (no blockOwnerDeletion), so the GC deletes it at once (R35 iii);
    // the ReplicaSet waits for its Pods, and the Deployment for the ReplicaSet.
    const order = data.deleted.map((d: { kind: string; name: string }) => `${d.kind}/${d.name}`);
    expect(order[0]).toBe('Secret/web-token');
    expect(order.slice(1, 3).sort()).toEqual(['Pod/web-7d4b9c-abcde', 'Pod/web-7d4b9c-fghij']); // siblings: any order
    expect(order.slice(3)).toEqual(['ReplicaSet/web-7d4b9c', 'Deployment/web']);
    for (const d of data.deleted)
      expect(Object.keys(d).sort()).toEqual(['apiVersion', 'cause', 'kind', 'name', 'namespace', 'step', 'uid']);
    expect(data.deleted.every((d: { cause: string }) => d.cause === 'request')).toBe(true);
    const steps = data.deleted.map((d: { step: number }) => d.step);
    expect([...steps].sort((a: number, b: number) => a - b)).toEqual(steps);
    expect(data.remaining.map((r: { name: string }) => r.name).sort()).toEqual(['settings', 'shop']);
    const ns = data.remaining.find((r: { kind: string }) => r.kind === 'Namespace');
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      namespace: '',
      name: 'shop',
      uid: '0b6c9a51-7c55-4f54-9a41-6f2d10c0a001',
      finalizers: [],
      beingDeleted: false,
      ownerReferences: [],
    });
    for (const s of data.steps)
      expect(Object.keys(s).sort()).toEqual(
        ['action', 'actor', 'detail', 'step', 'target', ...(s.request === undefined ? [] : ['request'])].sort(),
      );
    expect(data.steps[0]).toMatchObject({ actor: 'apiserver', action: 'delete', target: { kind: 'Deployment', name: 'web' }, request: 0 });
    expect(
      data.steps.filter((s: { actor: string }) => s.actor !== 'apiserver').every((s: { request?: number }) => s.request === undefined),
    ).toBe(true);
    expect(data.stuck).toEqual([]);
  });

  it('without --cascade sends no policy and says that kubectl would send background', () => {
    const r = cli(['simulate', '-f', join(FIX, 'shop'), 'deploy', 'web', '-n', 'shop']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no propagationPolicy');
    expect(r.stdout).toContain('kubectl delete always sends one');
    expect(r.stdout).not.toMatch(/\u001b\[/); // not a TTY: no colour
  });

  it('--controllers=gc leaves scheduled Pods Terminating and explains why', () => {
    const { data } = json(['simulate', '-f', join(FIX, 'shop'), 'deployments.apps/web', '-n', 'shop', '--controllers=gc', '-o', 'json']);
    expect(data.stuck.map((s: { name: string }) => s.name).sort()).toEqual(['web-7d4b9c-abcde', 'web-7d4b9c-fghij']);
    expect(data.stuck[0].blockedBy[0].type).toBe('graceful-termination');
  });

  it('runs a plan, each delete after the previous one settles', () => {
    const { code, data } = json(['simulate', '-f', join(FIX, 'shop'), '--plan', join(FIX, 'plan.yaml'), '-o', 'json']);
    expect(code).toBe(0);
    // The ReplicaSet is orphaned away first, so deleting the Deployment no longer reaches its Pods.
    expect(data.orphaned.map((o: { name: string }) => o.name).sort()).toEqual(['web-7d4b9c-abcde', 'web-7d4b9c-fghij']);
    expect(data.deleted.map((d: { name: string }) => d.name)).toEqual(['web-7d4b9c', 'web', 'web-token']);
  });

  it('R63: --arrival=back-to-back (or the plan\'s "arrival") sends every request before the GC acts: an Orphan DELETE of the ReplicaSet beats the Deployment\'s cascade', () => {
    const plan = join(FIX, 'plan-race.yaml');
    const settled = json(['simulate', '-f', join(FIX, 'shop'), '--plan', plan, '--arrival=settled', '-o', 'json']).data;
    expect(settled.deleted.map((d: { name: string }) => d.name)).toEqual([
      'web',
      'web-token',
      'web-7d4b9c',
      'web-7d4b9c-abcde',
      'web-7d4b9c-fghij',
    ]);
    for (const args of [
      ['--plan', plan],
      ['--plan', plan, '--arrival', 'back-to-back'],
    ]) {
      const { code, data } = json(['simulate', '-f', join(FIX, 'shop'), ...args, '-o', 'json']);
      expect(code).toBe(0);
      expect(data.deleted.map((d: { name: string }) => d.name).sort()).toEqual(['web', 'web-7d4b9c', 'web-token']);
      expect(data.orphaned.map((o: { name: string }) => o.name).sort()).toEqual(['web-7d4b9c-abcde', 'web-7d4b9c-fghij']);
    }
    expect(cli(['simulate', '-f', join(FIX, 'shop'), '--plan', plan, '--arrival=later']).stderr).toMatch(/arrival/);
  });

  it("the text timeline splits where the request starts by the steps' request marker, one heading per request", () => {
    const r = cli([
      'simulate',
      '-f',
      join(FIX, 'stale'),
      '-f',
      join(FIX, 'shop'),
      'deploy/web',
      'rs/web-7d4b9c',
      '-n',
      'shop',
      '--arrival=back-to-back',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Arrival: back to back: every request reaches the apiserver');
    const timeline = r.stdout.slice(r.stdout.indexOf('Timeline'), r.stdout.indexOf('Remaining'));
    const lines = timeline.split('\n');
    // The settling before the requests is one line, unless --show-settling.
    const before = lines.findIndex((l) => l.includes('Before the requests: 2 steps of the garbage collector settling the input as given'));
    const first = lines.findIndex((l) => l.trim() === 'Request 1, DELETE Deployment shop/web:');
    const second = lines.findIndex((l) => l.trim() === 'Request 2, DELETE ReplicaSet shop/web-7d4b9c:');
    expect(before).toBeGreaterThan(0);
    expect(first).toBe(before + 1);
    expect(lines[first + 1]).toMatch(/apiserver\s+delete Deployment shop\/web/);
    expect(second).toBeGreaterThan(first);
    expect(lines[second + 1]).toMatch(/apiserver\s+delete ReplicaSet shop\/web-7d4b9c/);
  });

  it('with no target runs the GC on the state as given', () => {
    const { data } = json(['simulate', '-f', join(FIX, 'stale'), '-o', 'json']);
    expect(data.deleted.map((d: { name: string }) => d.name)).toEqual(['api-5c6d']);
    expect(data.findings.map((f: { code: string }) => f.code)).toEqual(['owner-uid-mismatch']);
    expect(data.findings[0]).toMatchObject({ file: expect.stringContaining('export.yaml'), range: { start: { line: 17, character: 9 } } });
  });

  it('-o dot draws the touched objects coloured by fate', () => {
    const r = cli(['simulate', '-f', join(FIX, 'shop'), 'deployment/web', '-n', 'shop', '-o', 'dot']);
    expect(r.stdout.startsWith('digraph simulation {')).toBe(true);
    expect(r.stdout).toContain('"5f1d2c3b-3333-4a2b-8c3d-000000000003" -> "5f1d2c3b-2222-4a2b-8c3d-000000000002"');
  });

  it('reads stdin with -f -', () => {
    const text = readFileSync(join(FIX, 'shop', 'web.yaml'), 'utf8');
    const { code, data } = json(['simulate', '-f', '-', 'rs/web-7d4b9c', '-n', 'shop', '-o', 'json'], text);
    expect(code).toBe(0);
    expect(data.deleted[0]).toMatchObject({ kind: 'ReplicaSet', name: 'web-7d4b9c' });
  });
});

describe('kubectl-gc check', () => {
  it('exit 0 and a summary on clean input', () => {
    const r = cli(['check', '-f', join(FIX, 'shop')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/0 errors, 0 warnings in 7 objects from 3 files/);
  });

  it('exit 1 on an error finding, with file:line:col', () => {
    const r = cli(['check', '-f', join(FIX, 'stale')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/export\.yaml:18:10: error owner-uid-mismatch: /);
  });

  it('--fail-on decides the exit code', () => {
    expect(cli(['check', '-f', join(FIX, 'warn-only')]).code).toBe(0);
    expect(cli(['check', '-f', join(FIX, 'warn-only'), '--fail-on', 'warning']).code).toBe(1);
    expect(cli(['check', '-f', join(FIX, 'stale'), '--fail-on=none']).code).toBe(0);
  });

  it('-o json has objects, skipped and findings', () => {
    const { data, code } = json(['check', '-f', join(FIX, 'broken'), '-o', 'json']);
    expect(code).toBe(1); // documents that could not be loaded count as errors
    expect(data.objects).toBe(2);
    expect(data.skipped).toHaveLength(2);
    for (const s of data.skipped) {
      expect(s.file).toContain('mixed.yaml');
      expect(typeof s.reason).toBe('string');
    }
    expect(data.skipped.some((s: { code: string }) => s.code === 'template')).toBe(true);
    expect(data.problems.filter((p: { severity: string }) => p.severity === 'error')).toHaveLength(2);
    expect(data.findings).toEqual([]);
  });

  it('the summary counts what it lists: the documents not loaded are errors there too, as in the exit code', () => {
    const r = cli(['check', '-f', join(FIX, 'broken')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Not loaded or loaded with a warning (2):');
    expect(r.stdout.trim().split('\n').pop()).toBe(
      '2 errors, 0 warnings: 0 findings in 2 objects from 1 file, 2 about documents not loaded or loaded with a warning',
    );
  });

  it('-o sarif is SARIF 2.1.0 with 1-based regions', () => {
    const { data } = json(['check', '-f', join(FIX, 'stale'), '-o', 'sarif']);
    expect(data.version).toBe('2.1.0');
    const run = data.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toContain('owner-uid-mismatch');
    expect(run.results[0]).toMatchObject({ ruleId: 'owner-uid-mismatch', level: 'error' });
    expect(run.results[0].locations[0].physicalLocation.region).toMatchObject({ startLine: 18, startColumn: 10 });
  });
});

describe('kubectl-gc graph', () => {
  it('-o json is the debug dump as JSON; --uid keeps the component', () => {
    const { data } = json(['graph', '-f', join(FIX, 'shop'), '-o', 'json', '--uid', '5f1d2c3b-3333-4a2b-8c3d-000000000003']);
    expect(data.nodes.map((n: { name: string }) => n.name)).toEqual([
      'web',
      'web-7d4b9c',
      'web-7d4b9c-abcde',
      'web-7d4b9c-fghij',
      'web-token',
    ]);
    expect(data.nodes[0]).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
      uid: '5f1d2c3b-1111-4a2b-8c3d-000000000001',
      missing: false,
      beingDeleted: false,
      deletingDependents: false,
      virtual: false,
    });
    expect(data.edges).toContainEqual({ from: '5f1d2c3b-2222-4a2b-8c3d-000000000002', to: '5f1d2c3b-1111-4a2b-8c3d-000000000001' });
  });

  it("-o dot is kube-controller-manager's format", () => {
    const r = cli(['graph', '-f', join(FIX, 'shop')]);
    expect(r.stdout.split('\n')[0]).toBe('strict digraph full {');
    expect(r.stdout).toContain('  // Node definitions.');
    expect(r.stdout).toContain('    label="uid=5f1d2c3b-1111-4a2b-8c3d-000000000001\\nnamespace=shop\\nDeployment.v1.apps/web\\n"');
  });
});

describe('stuck', () => {
  it("stuck gives the editor's answer (version 2): each object's state, stuck or slow (--slow-after, measured to the newest timestamp of files)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgc-slow-'));
    try {
      // Scheduled and being deleted for an hour before the dump: the kubelet finishes it, so it is slow, not stuck.
      writeFileSync(
        join(dir, 'pods.yaml'),
        [
          'apiVersion: v1\nkind: Pod\nmetadata: {name: draining, namespace: shop, uid: u-draining, deletionTimestamp: "2026-01-01T10:00:00Z", deletionGracePeriodSeconds: 30}\nspec: {nodeName: node-1, containers: [{name: c, image: x}]}',
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: shop, uid: u-held, finalizers: [example.com/hold], deletionTimestamp: "2026-01-01T10:50:00Z"}',
          'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: new, namespace: shop, uid: u-new, creationTimestamp: "2026-01-01T11:00:00Z"}',
        ].join('\n---\n'),
      );
      const { code, data } = json(['stuck', '-f', dir, '-o', 'json']);
      expect(code).toBe(0);
      expect(data.version).toBe(2);
      expect(
        data.stuck.map((i: { name: string; state: string; since: string; ageSeconds: number }) => [i.name, i.state, i.since, i.ageSeconds]),
      ).toEqual([
        ['held', 'stuck', '2026-01-01T10:50:00Z', 600],
        ['draining', 'slow', '2026-01-01T10:00:00Z', 3600],
      ]);
      expect(json(['stuck', '-f', dir, '-o', 'json', '--slow-after', '2h']).data.stuck.map((i: { name: string }) => i.name)).toEqual([
        'held',
      ]);
      const text = cli(['stuck', '-f', dir]).stdout;
      expect(text).toContain(
        'Slow (1): terminating for longer than 10m, though nothing visible stops them\n  … Pod shop/draining  terminating since 2026-01-01T10:00:00Z\n',
      );
      expect(cli(['stuck', '-f', dir, '--slow-after', 'soon']).stderr).toContain('invalid value "soon" for --slow-after');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists what is terminating and cannot finish in the examples, with since and the why-chain', () => {
    const { code, data } = json(['stuck', '-f', join(ROOT, 'examples'), '-o', 'json']);
    expect(code).toBe(0);
    expect(data.stuck.map((s: { kind: string; name: string; since: string }) => `${s.kind}/${s.name} ${s.since}`)).toEqual([
      'Namespace/legacy-mq 2026-11-14T09:12:44Z',
      'RabbitmqCluster/orders 2026-11-14T09:12:46Z',
    ]);
    expect(data.stuck[0].blockedBy[0].type).toBe('namespace-content');
    expect(data.incomplete).toBeUndefined();
  });

  it('as text: a tree, and no age from files (a dump has no clock)', () => {
    const r = cli(['stuck', '-f', join(ROOT, 'examples')]);
    expect(r.stdout).toMatch(/^Stuck \(2 of 2 terminating; controllers: builtin\)/);
    expect(r.stdout).toContain('⧗ Namespace legacy-mq  terminating since 2026-11-14T09:12:44Z\n');
  });

  it('counts what terminates once the controllers have settled: content a terminating Namespace holds is part of it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgl-stuck-'));
    writeFileSync(
      join(dir, 'ns.yaml'),
      [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, uid: ns-uid, deletionTimestamp: "2026-01-01T00:00:00Z"}\nspec: {finalizers: [kubernetes]}',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: held, namespace: team-a, uid: cm-uid, finalizers: [example.com/hold]}',
      ].join('\n---\n'),
    );
    const r = cli(['stuck', '-f', dir]);
    rmSync(dir, { recursive: true, force: true });
    // Only the Namespace was terminating; the namespace controller deletes the ConfigMap, which its finalizer holds.
    expect(r.stdout).toMatch(/^Stuck \(2 of 2 terminating; controllers: builtin\)/);
  });
});

describe('bad usage and unreadable input: exit 2 with a clear message', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown command', ['explode'], /unknown command "explode"/],
    ['unknown flag', ['check', '-f', FIX, '--colour'], /unknown flag: --colour/],
    ['bad --cascade', ['simulate', '-f', FIX, 'deploy/web', '--cascade=sideways'], /invalid --cascade value "sideways"/],
    ['bad -o', ['check', '-f', FIX, '-o', 'yaml'], /invalid value "yaml" for --output/],
    ['missing file', ['check', '-f', join(FIX, 'does-not-exist.yaml')], /does-not-exist\.yaml/],
    ['unknown type', ['simulate', '-f', join(FIX, 'shop'), 'gizmo/web'], /doesn't have a resource type "gizmo"/],
    [
      'target not in input',
      ['simulate', '-f', join(FIX, 'shop'), 'deploy/nope', '-n', 'shop'],
      /deployments\.apps "nope" not found in namespace "shop"/,
    ],
    ['flag of another command', ['graph', '-f', FIX, '--cascade=orphan'], /--cascade is not used by "graph"/],
    ['plan without deletes', ['simulate', '-f', join(FIX, 'shop'), '--plan', join(FIX, 'shop', 'namespace.yaml')], /"deletes" is missing/],
    [
      'plan that is not one document',
      ['simulate', '-f', join(FIX, 'shop'), '--plan', join(FIX, 'shop', 'web.yaml')],
      /web\.yaml:8:1: a plan is one YAML document; a second one starts here, so the plan is refused/,
    ],
  ];
  it('no -f and no kubeconfig', () => {
    const r = cli(['check'], undefined, { KUBECONFIG: join(ROOT, 'no-such-kubeconfig') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no kubeconfig found: KUBECONFIG \(.*no-such-kubeconfig\) does not exist/);
  });
  for (const [name, args, message] of cases) {
    it(name, () => {
      const r = cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
});

describe('the examples workspace (examples/README.md lists these outcomes)', () => {
  const EX = join(ROOT, 'examples');

  it("tells what the request causes from what the GC does anyway: the summary first, each entry's cause, settling behind --show-settling", () => {
    const args = ['simulate', '-f', EX, 'deployment/checkout', '-n', 'storefront'];
    const { data } = json([...args, '-o', 'json']);
    expect(data.summary).toBe('Deleting Deployment storefront/checkout: 1 object deleted (1 Deployment), 0 stuck, 0 orphaned');
    const cause = (kind: string, name: string) =>
      [...data.deleted, ...data.stuck].find((x: { kind: string; name: string }) => x.kind === kind && x.name === name)?.cause;
    expect(cause('Deployment', 'checkout')).toBe('request');
    expect(cause('ReplicaSet', 'checkout-7d9f8b6c5d')).toBe('settling'); // its owner uid is absent already
    expect(cause('Namespace', 'legacy-mq')).toBe('settling'); // already stuck terminating
    expect(data.targets[0]).toMatchObject({ outcome: 'deleted', afterStep: 14 });
    const text = cli(args).stdout.split('\n');
    expect(text[0]).toBe(data.summary); // the same line leads the text
    expect(text).toContain('Deleted by the request (1)');
    expect(text).toContain('    ✗ Deployment storefront/checkout  step 16');
    expect(text).toContain(
      'Without the request too, the garbage collector settles the input as given: 5 deleted (1 ReplicaSet, 4 Pods), 2 stuck, 0 orphaned (--show-settling lists them).',
    );
    expect(text).toContain(
      '  Before the request: 14 steps of the garbage collector settling the input as given (--show-settling shows them)',
    );
    const consequences = text
      .slice(
        0,
        text.findIndex((l) => l.startsWith('Timeline')),
      )
      .join('\n');
    expect(consequences).not.toContain('checkout-7d9f8b6c5d');
    const shown = cli([...args, '--show-settling']).stdout.split('\n');
    expect(shown).toContain('Deleted anyway (5)');
    expect(shown).toContain('    ✗ ReplicaSet storefront/checkout-7d9f8b6c5d  step 2');
    expect(shown).toContain('Stuck anyway (2)');
    expect(shown).toContain('    ⧗ Namespace legacy-mq');
    expect(shown).toContain('  Before the request, the garbage collector settles the input as given:');
    expect(shown.indexOf('  The request:')).toBeGreaterThan(
      shown.indexOf('  Before the request, the garbage collector settles the input as given:'),
    );
  });

  it('a Namespace delete: its consequences by kind, the stuck cause in the summary, the timeline cut at the request', () => {
    const r = cli(['simulate', '-f', EX, 'namespace/kafka']);
    const text = r.stdout.split('\n');
    expect(text[0]).toBe(
      'Deleting Namespace kafka: it stays Terminating (finalizer deadlock: Deployment kafka/strimzi-cluster-operator, whose controller removes kafka.strimzi.io/finalizer, is deleted first), 1 object deleted (1 Deployment), 3 stuck, 0 orphaned',
    );
    const headings = text.filter((l) => /^  [A-Z]\w* \(\d+\)$/.test(l));
    expect(headings).toEqual(['  Deployment (1)', '  Namespace (1)', '  Kafkas (2)']);
    const before = text.indexOf(
      '  Before the request: 14 steps of the garbage collector settling the input as given (--show-settling shows them)',
    );
    expect(before).toBeGreaterThan(0);
    expect(text[before + 1]).toBe('  The request:');
    expect(text[before + 2]).toMatch(/^  15  apiserver  delete Namespace kafka /);
  });

  it('a Namespace already terminating: the request has no step, and says what the apiserver answered', () => {
    const text = cli(['simulate', '-f', EX, 'namespace/legacy-mq']).stdout.split('\n');
    const at = text.indexOf('  The request:');
    expect(at).toBeGreaterThan(0);
    expect(text[at + 1]).toMatch(/^\s+apiserver: .* \(no step\)$/);
  });

  it('check finds exactly the documented findings', () => {
    const { code, data } = json(['check', '-f', EX, '-o', 'json']);
    expect(code).toBe(1);
    expect(data.objects).toBe(29);
    const at = (f: { code: string; file: string; range: { start: { line: number; character: number } } }) =>
      `${f.code} ${f.file.split('/').slice(-1)[0]}:${f.range.start.line + 1}:${f.range.start.character + 1}`;
    expect(data.findings.map(at).sort()).toEqual([
      'dangling-owner checkout-export.yaml:584:12',
      'finalizer-deadlock kafka-clusters-export.yaml:10:7',
      'finalizer-deadlock kafka-clusters-export.yaml:77:7',
      'owner-uid-mismatch checkout-export.yaml:111:12',
      'stuck-terminating legacy-mq-namespace.yaml:7:22',
      'stuck-terminating orders-rabbitmqcluster.yaml:10:5',
    ]);
  });

  it("deleting the operator's namespace hangs on the operator's finalizer", () => {
    const { data } = json(['simulate', '-f', join(EX, 'operator-finalizers-kafka'), 'namespace/kafka', '-o', 'json']);
    expect(data.deleted.map((d: { kind: string; name: string }) => `${d.kind}/${d.name}`)).toEqual(['Deployment/strimzi-cluster-operator']);
    expect(data.stuck.map((s: { kind: string; name: string }) => `${s.kind}/${s.name}`).sort()).toEqual([
      'Kafka/audit-cluster',
      'Kafka/my-cluster',
      'Namespace/kafka',
    ]);
    const kafka = data.stuck.find((s: { name: string }) => s.name === 'my-cluster');
    expect(kafka.blockedBy[0]).toMatchObject({
      type: 'finalizer',
      finalizer: 'kafka.strimzi.io/finalizer',
      object: { kind: 'Deployment', name: 'strimzi-cluster-operator' },
    });
    const ns = data.stuck.find((s: { kind: string }) => s.kind === 'Namespace');
    expect(ns.blockedBy[0].type).toBe('namespace-content');
  });

  it('the safe order: the custom resources first, then the namespace', () => {
    const { data } = json([
      'simulate',
      '-f',
      join(EX, 'operator-finalizers-kafka'),
      '-n',
      'kafka',
      'kafka/my-cluster',
      'kafka/audit-cluster',
      'namespace/kafka',
      '--cascade=background',
      '-o',
      'json',
    ]);
    expect(data.stuck).toEqual([]);
    expect(data.deleted.map((d: { name: string }) => d.name)).toEqual(['my-cluster', 'audit-cluster', 'strimzi-cluster-operator', 'kafka']);
  });

  it("npm run demo's simulation prints the stuck chain as a tree", () => {
    const r = cli(['simulate', '-f', EX, 'namespace/kafka']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Left stuck by the request \(3\)$/m); // kafka: the Namespace and its 2 Kafkas
    // legacy-mq's Namespace and RabbitmqCluster are stuck without the request too: counted on one line.
    expect(r.stdout).toMatch(/^Without the request too, the garbage collector settles the input as given: .*, 2 stuck, /m);
    expect(r.stdout).toMatch(/└─ finalizer: its controller Deployment kafka\/strimzi-cluster-operator was deleted at step \d+/);
  });
});

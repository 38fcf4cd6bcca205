// Real data, end to end: install manifests used in production must load completely with no false findings, and
// real cluster dumps must give the graph their objects really form. The full corpus (../shared/corpus) is used
// when it is there; CI runs on a clean clone, so representative copies in test/fixtures always run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../../server/src/sources/files';
import { buildInventory } from '../../server/src/engine/inventory';
import { analyze } from '../../server/src/engine/analysis/analyze';
import { simulate } from '../../server/src/engine/simulation/simulate';

const ROOT = join(__dirname, '..', '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const haveCorpus = existsSync(join(CORPUS, 'real-manifests'));

async function load(path: string) {
  const loaded = await loadPaths([path]);
  return { ...loaded, inventory: buildInventory(loaded.objects, { defaultNamespace: 'default' }) };
}

/** Every ownerReference in a tree of JSON dumps, read with JSON.parse only (independent of our loader). */
function rawReferences(dir: string): { dependent: string; owner: string }[] {
  const out: { dependent: string; owner: string }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) {
        const data = JSON.parse(readFileSync(p, 'utf8')) as unknown;
        const items = Array.isArray(data) ? data : ((data as { items?: unknown[] }).items ?? [data]);
        for (const item of items as { metadata?: { uid?: string; ownerReferences?: { uid: string }[] } }[]) {
          for (const r of item.metadata?.ownerReferences ?? []) out.push({ dependent: item.metadata!.uid!, owner: r.uid });
        }
      }
    }
  };
  walk(dir);
  return out;
}

describe('real install manifests: complete load, no false findings', () => {
  const projects = haveCorpus
    ? readdirSync(join(CORPUS, 'real-manifests'))
        .filter((p) => statSync(join(CORPUS, 'real-manifests', p)).isDirectory())
        .map((p) => join(CORPUS, 'real-manifests', p))
    : [join(ROOT, 'test', 'fixtures', 'loader', 'real-manifests')];
  for (const project of projects) {
    it(`${project.split('/').slice(-1)[0]}${haveCorpus ? '' : ' (fixture copy; corpus not present)'}`, async () => {
      const { inventory, problems, objects } = await load(project);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(objects.length).toBeGreaterThan(0);
      expect(analyze(inventory)).toEqual([]);
      // Hand-written manifests: every object got a synthetic uid and nothing references anything.
      expect([...inventory.objects.values()].every((o) => o.syntheticUid)).toBe(true);
      expect(inventory.graph.snapshot().nodes).toEqual([]);
    });
  }
});

describe('real cluster dumps: the graph the objects really form', () => {
  it('sonobuoy testResultsOutput: every ownerReference becomes an edge to an observed owner', async () => {
    const dir = join(ROOT, 'test', 'fixtures', 'cluster-dumps', 'sonobuoy-testResultsOutput');
    const refs = rawReferences(dir);
    expect(refs.length).toBe(80);
    const { inventory, problems } = await load(dir);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const snap = inventory.graph.snapshot();
    const edges = new Set(snap.edges.map((e) => `${e.from}>${e.to}`));
    for (const r of refs) expect(edges.has(`${r.dependent}>${r.owner}`)).toBe(true);
    expect(snap.edges).toHaveLength(new Set(refs.map((r) => `${r.dependent}>${r.owner}`)).size);
    expect(snap.nodes.filter((n) => n.virtual)).toEqual([]);
    const kinds = new Set(snap.edges.map((e) => `${inventory.objects.get(e.from)!.kind}→${inventory.objects.get(e.to)!.kind}`));
    expect([...kinds].sort()).toEqual([
      'ControllerRevision→DaemonSet',
      'Lease→Node',
      'Pod→DaemonSet',
      'Pod→ReplicaSet',
      'ReplicaSet→Deployment',
    ]);
    // A healthy snapshot: nothing to report, and the GC has nothing to do.
    expect(analyze(inventory).filter((f) => f.severity === 'error')).toEqual([]);
    expect(simulate(inventory, [], { controllers: 'gc' }).steps).toEqual([]);
  });

  it('must-gather namespace: the lower-case "daemonset" reference written by an OpenShift operator is unresolvable', async () => {
    const { inventory } = await load(join(ROOT, 'test', 'fixtures', 'loader', 'must-gather', 'namespaces', 'openshift-ingress-canary'));
    const findings = analyze(inventory);
    const unresolvable = findings.filter((f) => f.code === 'unresolvable-owner-kind');
    expect(unresolvable.map((f) => `${f.object.kind}/${f.object.name}`).sort()).toEqual(['Route/canary', 'Service/ingress-canary']);
    // It names the DaemonSet that holds the uid, how the reference differs, and asks.
    expect(unresolvable[0].message).toMatch(
      /belongs to DaemonSet openshift-ingress-canary\/ingress-canary, which this reference names differently: kind daemonset, not DaemonSet \(kinds are case-sensitive\)\. Did you mean DaemonSet\?$/,
    );
    // The uid is the real DaemonSet's, so the graph links them; the GC never collects them (R46).
    const ds = [...inventory.ofKind('DaemonSet')][0];
    expect([...inventory.graph.get(ds.uid)!.dependents].map((d) => d.identity.kind).sort()).toEqual(
      expect.arrayContaining(['Route', 'Service']),
    );
    const r = simulate(
      inventory,
      [{ apiVersion: 'apps/v1', kind: 'DaemonSet', namespace: ds.namespace, name: ds.name, propagationPolicy: 'Background' }],
      { controllers: 'builtin' },
    );
    expect(r.remaining.map((o) => `${o.kind}/${o.name}`)).toEqual(expect.arrayContaining(['Route/canary', 'Service/ingress-canary']));
  });

  it.skipIf(!haveCorpus)(
    'the whole OpenShift must-gather (corpus): every reference resolves, duplicates are one object',
    async () => {
      const dir = join(CORPUS, 'cluster-dumps', 'openshift-must-gather-aws');
      const { inventory, problems } = await load(dir);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(inventory.objects.size).toBe(2951); // 3,023 objects with a uid, 72 of them listed twice
      expect(inventory.graph.snapshot().nodes.filter((n) => n.virtual)).toEqual([]);
      const findings = analyze(inventory);
      const codes = new Set(findings.map((f) => f.code));
      expect([...codes].sort()).toEqual(['finalizer-deadlock', 'unresolvable-owner-kind']);
      // The deadlock is on the cluster's Machines: never advise deleting a control-plane node to get out (issue 18).
      const machines = findings.filter((f) => f.code === 'finalizer-deadlock' && f.object.kind === 'Machine');
      expect(machines.map((f) => f.object.name)).toContain('ci-ln-5ylibmb-d5d6b-dfvr6-master-0');
      for (const f of machines) {
        expect(f.message).not.toMatch(/Delete Machine/);
        expect(f.message).toContain(`Do not delete Machine ${f.object.name} to get out`);
      }
    },
    120_000,
  );
});

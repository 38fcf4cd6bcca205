// The Report (server/src/app/report.ts), the one answer to "what does this DELETE do" that the CLI prints and the
// editor shows: causes told apart by the no-DELETE baseline, each target's outcome, and the summary line.

import { describe, expect, it } from 'vitest';
import { simulateDelete, simulateReport } from '../../server/src/app/report';
import { cm, ctl, deploy, HOLD, manifests, namespace, ref, rs, TERMINATING } from '../helpers/manifests';
import { del, scenario } from '../helpers/scenario';

const OPTIONS = { controllers: 'gc', finalizerOwners: [] };

// Deployment web → ReplicaSet web-1 → ConfigMap a; a ConfigMap whose owner is absent (collected anyway); a
// ConfigMap held by a finalizer nobody removes, already terminating (stuck anyway).
const web = deploy('web', 'shop');
const replicas = rs('web-1', 'shop', { owners: [ctl(web)] });
const world = () =>
  scenario(
    manifests(
      namespace('shop'),
      web,
      replicas,
      cm('a', 'shop', { owners: [ref(replicas)] }),
      cm('orphan-of-gone', 'shop', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone' }] }),
      cm('held', 'shop', { finalizers: [HOLD], ...TERMINATING }),
    ),
  );

describe('the Report', () => {
  it("marks what the request causes and what the GC does anyway, and leads with one line of the request's own effect", () => {
    const { report } = simulateReport(world().inventory, [del('apps/v1', 'Deployment', 'shop', 'web', 'Background')], OPTIONS);
    const causes = Object.fromEntries([...report.deleted, ...report.stuck].map((e) => [e.name, e.cause]));
    expect(causes).toEqual({ web: 'request', 'web-1': 'request', a: 'request', 'orphan-of-gone': 'settling', held: 'settling' });
    expect(report.summary).toBe(
      'Deleting Deployment shop/web: 3 objects deleted (1 Deployment, 1 ReplicaSet, 1 ConfigMap), 0 stuck, 0 orphaned',
    );
    expect(report.targets).toEqual([
      {
        request: 0,
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'web',
        uid: web.uid,
        outcome: 'deleted',
        afterStep: 2,
      },
    ]);
    // The request reached the apiserver after the two steps of the GC collecting orphan-of-gone.
    expect(report.steps.slice(0, 2).map((st) => [st.action, st.target.name, st.request])).toEqual([
      ['delete', 'orphan-of-gone', undefined],
      ['remove', 'orphan-of-gone', undefined],
    ]);
    expect(report.steps[2].request).toBe(0);
    expect(report.version).toBe(2);
  });

  it('says when the target is collected anyway, stays Terminating, or is refused', () => {
    const s = world();
    const collected = simulateReport(s.inventory, [del('v1', 'ConfigMap', 'shop', 'orphan-of-gone')], OPTIONS).report;
    expect(collected.targets[0].outcome).toBe('collected');
    expect(collected.summary).toBe(
      'Deleting ConfigMap shop/orphan-of-gone: the garbage collector deletes it anyway, 1 object deleted (1 ConfigMap), 0 stuck, 0 orphaned',
    );
    const stuck = simulateReport(s.inventory, [del('v1', 'ConfigMap', 'shop', 'held')], OPTIONS).report;
    expect(stuck.targets[0].outcome).toBe('stuck');
    expect(stuck.summary).toBe(
      `Deleting ConfigMap shop/held: it stays Terminating (nobody removes ${HOLD}), 0 objects deleted, 1 stuck, 0 orphaned`,
    );
    // Deleting what is already terminating changes nothing: no step, and the apiserver's answer says why.
    expect(stuck.targets[0]).toMatchObject({ afterStep: 2, unchanged: expect.stringContaining('already terminating') });
    expect(stuck.steps.some((st) => st.request === 0)).toBe(false);
    // NamespaceLifecycle refuses the DELETE of kube-system (R55): nothing is caused.
    const refused = simulateReport(
      scenario(manifests(namespace('kube-system'))).inventory,
      [del('v1', 'Namespace', '', 'kube-system')],
      OPTIONS,
    ).report;
    expect(refused.targets[0].outcome).toBe('rejected');
    expect(refused.summary).toBe('Deleting Namespace kube-system: rejected by the apiserver');
  });

  it('counts a plan as a whole, and with no DELETE everything is the GC settling the input', () => {
    const s = world();
    const plan = simulateReport(
      s.inventory,
      [del('v1', 'ConfigMap', 'shop', 'a'), del('apps/v1', 'ReplicaSet', 'shop', 'web-1', 'Orphan')],
      OPTIONS,
    ).report;
    expect(plan.summary).toBe('Deleting 2 objects: 2 objects deleted (1 ReplicaSet, 1 ConfigMap), 0 stuck, 0 orphaned');
    expect(plan.targets.map((t) => t.outcome)).toEqual(['deleted', 'deleted']);
    // Changes among the requests: up to three are said in order; more are counted.
    const held = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'held' };
    const changes = [
      { verb: 'scale' as const, target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }, replicas: 2 },
      del('v1', 'ConfigMap', 'shop', 'a'),
      { verb: 'remove-finalizer' as const, target: held, finalizer: HOLD },
    ];
    expect(simulateReport(s.inventory, changes, OPTIONS).report.summary).toBe(
      `Scaling Deployment shop/web to 2 replicas, then deleting ConfigMap shop/a, then removing finalizer ${HOLD} from ConfigMap shop/held: ` +
        '2 objects deleted (2 ConfigMaps), 0 stuck, 0 orphaned',
    );
    expect(simulateReport(s.inventory, [...changes, del('apps/v1', 'ReplicaSet', 'shop', 'web-1')], OPTIONS).report.summary).toMatch(
      /^Changing 4 objects: /,
    );
    // Objects are counted once however many requests name them (10,000 scales of one Deployment were "10000 objects").
    const web = changes[0];
    const scales = (n: number) => Array.from({ length: n }, (_, i) => ({ ...web, replicas: i % 3 }));
    expect(simulateReport(s.inventory, scales(5), OPTIONS).report.summary).toMatch(/^Changing Deployment shop\/web \(5 requests\): /);
    expect(simulateReport(s.inventory, [...scales(3), ...changes], OPTIONS).report.summary).toMatch(/^Changing 3 objects \(6 requests\): /);
    expect(
      simulateReport(s.inventory, [del('v1', 'ConfigMap', 'shop', 'a'), del('v1', 'ConfigMap', 'shop', 'a')], OPTIONS).report.summary,
    ).toMatch(/^Deleting ConfigMap shop\/a \(2 requests\): /);
    const none = simulateReport(s.inventory, [], OPTIONS).report;
    expect(none.targets).toEqual([]);
    expect([...none.deleted, ...none.stuck].every((e) => e.cause === 'settling')).toBe(true);
    expect(none.summary).toBe(
      'No DELETE, the garbage collector settling the input as given: 1 object deleted (1 ConfigMap), 1 stuck (nobody removes example.com/hold), 0 orphaned',
    );
  });

  it("is one answer: the editor's Simulate Delete and the CLI's report agree field by field", () => {
    const s = world();
    for (const policy of ['Background', 'Foreground', 'Orphan', 'default'] as const) {
      const editor = simulateDelete(s.inventory, web.uid!, policy, OPTIONS)!;
      const { report: cli } = simulateReport(
        s.inventory,
        [
          {
            ...del('apps/v1', 'Deployment', 'shop', 'web', policy === 'default' ? null : policy),
            preconditions: { uid: web.uid },
          },
        ],
        OPTIONS,
      );
      for (const field of [
        'version',
        'summary',
        'targets',
        'counts',
        'deleted',
        'orphaned',
        'stuck',
        'steps',
        'notes',
        'kubernetesVersion',
      ] as const) {
        expect(editor[field], `${policy}: ${field}`).toEqual(cli[field]);
      }
    }
  });
});

// How every front end lays the Report out (shared/src/reportLayout.ts): grouped by kind (workloads and volumes first,
// then configuration, then the rest), what the request causes apart from what the GC does anyway, and the timeline cut
// where each request reached the apiserver, for Namespace deletes too. Also the summary line's stuck cause.

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { simulateDelete, simulateReport } from '../../server/src/app/report';
import { loadInput } from '../../server/src/cli/input';
import { groupByKind, splitByCause, timelineSections, type Report } from '../../shared/src/protocol';
import { cm, ctl, deploy, HOLD, manifests, namespace, obj, ref, rs, TERMINATING } from '../helpers/manifests';
import { del, scenario } from '../helpers/scenario';

const GC = { controllers: 'gc', finalizerOwners: [] };
const BUILTIN = { controllers: 'builtin', finalizerOwners: [] };

// Namespace shop: a Deployment → ReplicaSet, a Secret, a ConfigMap, a Service; elsewhere a ConfigMap whose owner is
// absent (collected anyway) and one held by a finalizer nobody removes (stuck anyway).
const web = deploy('web', 'shop');
const world = () =>
  scenario(
    manifests(
      namespace('shop'),
      namespace('other'),
      obj('v1', 'Service', 'shop', 'web-svc'),
      cm('settings', 'shop'),
      obj('v1', 'Secret', 'shop', 'token'),
      web,
      rs('web-1', 'shop', { owners: [ctl(web)] }),
      cm('orphan-of-gone', 'other', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone' }] }),
      cm('held', 'other', { finalizers: [HOLD], ...TERMINATING }),
    ),
  );

const kindsOf = (report: Report, cause: 'request' | 'settling') => groupByKind(splitByCause(report)[cause].deleted).map((g) => g.kind);

describe('grouping by kind', () => {
  it('puts workloads and volumes first, then configuration, then other built-in kinds, then the rest as they come', () => {
    const entries = ['Widget', 'ConfigMap', 'Service', 'Pod', 'Secret', 'Deployment', 'Gadget', 'PersistentVolumeClaim', 'Pod'].map(
      (kind, i) => ({ kind, i }),
    );
    expect(groupByKind(entries).map((g) => [g.kind, g.entries.map((e) => e.i)])).toEqual([
      ['Deployment', [5]],
      ['Pod', [3, 8]],
      ['PersistentVolumeClaim', [7]],
      ['ConfigMap', [1]],
      ['Secret', [4]],
      ['Service', [2]],
      ['Widget', [0]],
      ['Gadget', [6]],
    ]);
  });
});

describe('a Namespace delete, laid out', () => {
  it("keeps the request's consequences apart from what the GC does anyway, grouped by kind", () => {
    const { report } = simulateReport(world().inventory, [del('v1', 'Namespace', '', 'shop')], BUILTIN);
    expect(kindsOf(report, 'request')).toEqual(['Deployment', 'ReplicaSet', 'ConfigMap', 'Secret', 'Service', 'Namespace']);
    expect(kindsOf(report, 'settling')).toEqual(['ConfigMap']);
    const { settling } = splitByCause(report);
    expect(settling.deleted.map((d) => d.name)).toEqual(['orphan-of-gone']);
    expect(settling.stuck.map((d) => d.name)).toEqual(['held']);
    expect(report.summary).toBe(
      'Deleting Namespace shop: 6 objects deleted (1 Deployment, 1 ReplicaSet, 1 ConfigMap, 1 Secret, 2 more), 0 stuck, 0 orphaned',
    );
  });

  it('cuts the timeline where the DELETE reached the apiserver, from the structure, in the CLI and the editor alike', () => {
    const s = world();
    const { report } = simulateReport(s.inventory, [del('v1', 'Namespace', '', 'shop')], BUILTIN);
    const sections = timelineSections(report);
    expect(sections.map((x) => x.type)).toEqual(['settling', 'request']);
    const [before, request] = sections;
    // Before: the GC collecting orphan-of-gone; the request: the apiserver's delete of the Namespace, then the namespace
    // controller emptying it (its steps carry no request index: the cut comes from where the request was sent).
    expect(before.steps.every((st) => st.target.name === 'orphan-of-gone')).toBe(true);
    expect(request.steps[0]).toMatchObject({
      actor: 'apiserver',
      action: 'delete',
      target: { kind: 'Namespace', name: 'shop' },
      request: 0,
    });
    expect(request.steps.slice(1).every((st) => st.request === undefined)).toBe(true);
    expect(before.steps.length + request.steps.length).toBe(report.steps.length);
    // The editor's report is the same Report: the same cut.
    const editor = simulateDelete(s.inventory, 'uid-ns-shop', 'default', BUILTIN)!;
    expect(timelineSections(editor)).toEqual(sections);
  });

  it('says so when the request itself changes nothing (a Namespace already terminating)', () => {
    const s = scenario(
      manifests(
        namespace('gone', { phase: 'Terminating', ...TERMINATING }),
        cm('held', 'gone', { finalizers: [HOLD], ...TERMINATING }),
        cm('orphan-of-gone', 'other', { owners: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: 'uid-gone' }] }),
      ),
    );
    const { report } = simulateReport(s.inventory, [del('v1', 'Namespace', '', 'gone')], GC);
    const sections = timelineSections(report);
    expect(sections.map((x) => x.type)).toEqual(['settling', 'request']);
    expect(sections[1]).toMatchObject({ type: 'request', request: 0, steps: [] });
    expect(sections[1].type === 'request' && sections[1].unchanged).toBeTruthy();
  });

  it('gives each request of a plan its own section, also with no settling before', () => {
    const s = scenario(manifests(namespace('a'), cm('x', 'a'), namespace('b'), cm('y', 'b')));
    const { report } = simulateReport(s.inventory, [del('v1', 'Namespace', '', 'a'), del('v1', 'Namespace', '', 'b')], BUILTIN);
    const sections = timelineSections(report);
    expect(sections.map((x) => (x.type === 'request' ? x.request : x.type))).toEqual([0, 1]);
    expect(sections.flatMap((x) => x.steps.map((st) => st.target.namespace || st.target.name))).toEqual(
      report.steps.map((st) => st.target.namespace || st.target.name),
    );
    expect(sections[0].steps.every((st) => [st.target.namespace, st.target.name].includes('a'))).toBe(true);
    expect(sections[1].steps.every((st) => [st.target.namespace, st.target.name].includes('b'))).toBe(true);
  });

  it('falls back to the first step of each request in a Report made without afterStep', () => {
    const { report } = simulateReport(world().inventory, [del('v1', 'Namespace', '', 'shop')], BUILTIN);
    const bare = { ...report, targets: report.targets.map(({ afterStep: _a, ...t }) => t) };
    expect(timelineSections(bare)).toEqual(timelineSections(report));
  });
});

describe('the summary line names the stuck cause from the why-chain', () => {
  it('a finalizer deadlock: the operator that removes the finalizer is deleted with the namespace first', async () => {
    const input = await loadInput(['examples/operator-finalizers-kafka'], { stdin: Readable.from([]) });
    const { report } = simulateReport(input.inventory, [del('v1', 'Namespace', '', 'kafka')], BUILTIN);
    expect(report.summary).toBe(
      'Deleting Namespace kafka: it stays Terminating (finalizer deadlock: Deployment kafka/strimzi-cluster-operator, whose controller removes kafka.strimzi.io/finalizer, is deleted first), 1 object deleted (1 Deployment), 3 stuck, 0 orphaned',
    );
  });

  it('a finalizer nobody removes, and a foreground wait on a blocking dependent', () => {
    const s = scenario(
      manifests(namespace('shop'), web, cm('cfg', 'shop', { owners: [ref(web, { blockOwnerDeletion: true })], finalizers: [HOLD] })),
    );
    const { report } = simulateReport(s.inventory, [del('apps/v1', 'Deployment', 'shop', 'web', 'Foreground')], GC);
    expect(report.summary).toBe(
      `Deleting Deployment shop/web: it stays Terminating (nobody removes ${HOLD}), 0 objects deleted, 2 stuck, 0 orphaned`,
    );
  });
});

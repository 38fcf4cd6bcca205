// Real data: the small copies in test/fixtures/loader always run; the whole corpus under /work/shared/corpus
// is read too when it is there (CI runs on a clean clone without it, and those tests are then skipped).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../../server/src/sources/files';
import { resolveRanges } from '../../server/src/sources/manifests/parseManifest';
import { CORPUS, errorsOf, textAt } from './helpers';

const FIX = join(__dirname, '../fixtures/loader');
const HAVE_CORPUS = existsSync(CORPUS);
if (!HAVE_CORPUS) console.warn(`[realData] ${CORPUS} is absent: the whole-corpus tests are skipped; the fixture copies still run.`);

describe('fixture copies of the corpus', () => {
  it('load with only the expected problems', async () => {
    const r = await loadPaths([FIX]);
    const notInfo = r.problems
      .filter((p) => p.severity !== 'info')
      .map((p) => `${p.code}:${p.severity} ${p.file.slice(FIX.length + 1)}:${p.line}:${p.column}`);
    expect(notInfo).toEqual([
      'duplicate-key:warning argo-cd/statefulset-ondelete.yaml:94:3',
      'not-kubernetes:warning insights-archive/config/alerts.json:1:1',
      // An OpenShift config.openshift.io Authentication stored without kind: nothing built in to infer it from.
      'not-kubernetes:error insights-archive/config/authentication.json:1:1',
    ]);
    expect(r.problems.filter((p) => p.severity === 'info').every((p) => p.code === 'kind-inferred')).toBe(true);
  });

  it('real manifests load with no error', async () => {
    const r = await loadPaths([join(FIX, 'real-manifests')]);
    expect(r.problems).toEqual([]);
    expect(r.objects.length).toBe(29);
    // `{{ $labels… }}` inside PrometheusRule strings is not a template.
    expect(r.objects.some((o) => o.kind === 'PrometheusRule')).toBe(true);
  });

  it('must-gather: kind: List expansion, and the lower-case `kind: daemonset` ownerReference kept as written', async () => {
    const r = await loadPaths([join(FIX, 'must-gather')]);
    expect(r.problems).toEqual([]);
    expect(r.objects.every((o) => o.uid !== '')).toBe(true);
    const route = r.objects.find((o) => o.kind === 'Route' && o.name === 'canary')!;
    expect(route.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'daemonset', name: 'ingress-canary', uid: 'c4d58cda-5c8a-4bcf-a679-c28e66f4f551', controller: true },
    ]);
    const ds = r.objects.find((o) => o.kind === 'DaemonSet')!;
    expect(ds.uid).toBe('c4d58cda-5c8a-4bcf-a679-c28e66f4f551');
    expect(ds.facts.images?.length).toBeGreaterThan(0);
    const ns = r.objects.find((o) => o.kind === 'Namespace')!;
    expect(ns.facts.namespaceFinalizers).toEqual(['kubernetes']);
    expect(ns.source!.ranges).toBeDefined();
  });

  it('sonobuoy bare arrays load with inferred kinds', async () => {
    const r = await loadPaths([join(FIX, 'sonobuoy')]);
    expect(errorsOf(r.problems)).toEqual([]);
    const by = (suffix: string) => r.objects.filter((o) => o.source!.file.endsWith(suffix));
    expect(new Set(by('ServiceAccounts.json').map((o) => `${o.apiVersion} ${o.kind}`))).toEqual(new Set(['v1 ServiceAccount']));
    expect(new Set(by('ReplicaSets.json').map((o) => `${o.apiVersion} ${o.kind}`))).toEqual(new Set(['apps/v1 ReplicaSet']));
    expect(new Set(by('core_v1_namespaces.json').map((o) => o.kind))).toEqual(new Set(['Namespace']));
    expect(new Set(by('storage.k8s.io_v1_storageclasses.json').map((o) => `${o.apiVersion} ${o.kind}`))).toEqual(
      new Set(['storage.k8s.io/v1 StorageClass']),
    );
    const terminating = r.objects.find((o) => o.kind === 'Namespace' && o.facts.phase === 'Terminating')!;
    expect(terminating.name).toBe('crd-publish-openapi-8311');
    expect(terminating.deletionTimestamp).toBeDefined();
    expect(terminating.facts.namespaceFinalizers).toEqual(['kubernetes']);
    // The healthsummary dump is a `kind: List` of pods whose owners are not in the dump.
    const hs = by('local-path-storage/core_v1_pods.json');
    expect(hs.length).toBeGreaterThan(0);
    expect(hs.every((o) => o.kind === 'Pod' && o.ownerReferences.length > 0)).toBe(true);
    for (const p of r.problems) expect(p.code).toBe('kind-inferred');
  });

  it('Insights archive: kinds inferred from folder names', async () => {
    const r = await loadPaths([join(FIX, 'insights-archive')]);
    const kinds = r.objects.map((o) => `${o.kind} ${o.source!.file.slice(FIX.length + 18)}`);
    expect(kinds).toEqual([
      'Pod conditional/namespaces/openshift-monitoring/pods/alertmanager-main-0/alertmanager-main-0.json',
      'Node config/node/master-0.imeixner20210707.lab.upshift.rdu2.redhat.com.json',
      'PersistentVolume config/persistentvolumes/monitoring-persistent-volume.json',
      'PersistentVolume config/persistentvolumes/task-pv-volume.json',
      'Pod config/pod/openshift-monitoring/cluster-monitoring-operator-6c785d75f6-t79zv.json',
    ]);
  });

  it('argo-cd: a duplicated key loads with a warning; go-yaml style quoted continuation lines load', async () => {
    const r = await loadPaths([join(FIX, 'argo-cd')]);
    expect(r.objects.map((o) => o.kind)).toEqual(['ClusterResourceBinding', 'StatefulSet']);
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['duplicate-key', 'warning']]);
    expect(r.problems[0].reason).toBe('spec has the key "updateStrategy" more than once; the last value is used, as Kubernetes does.');
    expect(r.objects[0].finalizers).toEqual(['karmada.io/binding-controller']);
  });

  it('k9s: positions in a CRLF JSON file are right', async () => {
    const file = join(FIX, 'k9s/po_sidecar.json');
    const r = await loadPaths([file]);
    const text = r.texts.get(file)!;
    expect(text.includes('\r\n')).toBe(true);
    resolveRanges(text, r.objects);
    const o = r.objects[0];
    const plain = text.replace(/\r/g, '');
    expect(textAt(plain, o.source!.ranges!.name)).toBe(JSON.stringify(o.name));
    expect(textAt(plain, o.source!.ranges!.uid)).toBe(JSON.stringify(o.uid));
    expect(textAt(plain, o.source!.ranges!.kind)).toBe('"Pod"');
    o.ownerReferences.forEach((ref, i) =>
      expect(textAt(plain, o.source!.ranges!.ownerReferenceEntries[i].uid)).toBe(JSON.stringify(ref.uid)),
    );
    const line = text.split('\n')[o.source!.ranges!.name!.start.line];
    expect(line.endsWith('\r')).toBe(true);
  });

  it('popeye hand-written manifests: ownerReferences without uid are kept with uid ""', async () => {
    const r = await loadPaths([join(FIX, 'popeye')]);
    expect(r.problems).toEqual([]);
    expect(r.objects.flatMap((o) => o.ownerReferences).some((ref) => ref.uid === '')).toBe(true);
  });
});

describe.skipIf(!HAVE_CORPUS)('the whole corpus (skipped: /work/shared/corpus is absent)', () => {
  it('every real manifest loads with no error problem', { timeout: 300_000 }, async () => {
    const r = await loadPaths([join(CORPUS, 'real-manifests')]);
    expect(errorsOf(r.problems)).toEqual([]);
    expect(r.files).toBe(181);
    expect(r.objects.length).toBe(739);
    expect(r.objects.filter((o) => o.kind === 'CustomResourceDefinition').every((o) => o.facts.crd !== undefined)).toBe(true);
  });

  it('the OpenShift must-gather loads whole, with kind: List expansion', { timeout: 300_000 }, async () => {
    const t0 = performance.now();
    const r = await loadPaths([join(CORPUS, 'cluster-dumps/openshift-must-gather-aws')]);
    const ms = performance.now() - t0;
    console.log(`[realData] must-gather: ${r.files} files, ${r.objects.length} objects in ${ms.toFixed(0)} ms`);
    expect(errorsOf(r.problems)).toEqual([]);
    // The corpus README counts 3,075 "objects": 3,023 real ones plus 52 empty `RouteList`s (items: null).
    expect(r.objects.length).toBe(3023);
    expect(r.objects.filter((o) => o.uid).length).toBe(3023);
    expect(new Set(r.objects.map((o) => o.uid)).size).toBe(2951); // 72 uids are in two files
    expect(r.objects.filter((o) => o.ownerReferences.length).length).toBeGreaterThanOrEqual(1072);
    // The only warnings are the etcd/monitoring JSON files that are not Kubernetes objects.
    expect(r.problems.map((p) => p.code)).toEqual(Array(5).fill('not-kubernetes'));
    const lowerCase = r.objects.filter((o) => o.ownerReferences.some((ref) => ref.kind === 'daemonset'));
    expect(lowerCase.map((o) => `${o.kind}/${o.name}`).sort()).toEqual(['Route/canary', 'Service/ingress-canary']);
  });

  it('sonobuoy results load with inferred kinds and no error', { timeout: 120_000 }, async () => {
    const r = await loadPaths([join(CORPUS, 'cluster-dumps/sonobuoy')]);
    expect(errorsOf(r.problems)).toEqual([]);
    expect(r.objects.length).toBe(2864);
    expect(r.objects.filter((o) => o.uid).length).toBe(2849);
    expect(r.problems.every((p) => p.code === 'kind-inferred')).toBe(true);
  });

  it('the other cluster dumps load; only non-objects and kindless OpenShift types are reported', { timeout: 120_000 }, async () => {
    for (const [dir, objects] of [
      ['argo-cd', 286],
      ['k9s', 48],
      ['kubescape-regolibrary', 3],
      ['popeye-handwritten', 23],
    ] as const) {
      const r = await loadPaths([join(CORPUS, 'cluster-dumps', dir)]);
      expect(errorsOf(r.problems), dir).toEqual([]);
      expect(r.objects.length, dir).toBe(objects);
    }
    const insights = await loadPaths([join(CORPUS, 'cluster-dumps/openshift-insights-archive-sample')]);
    for (const p of errorsOf(insights.problems)) {
      expect(p.code).toBe('not-kubernetes');
      const raw = JSON.parse(readFileSync(p.file, 'utf8')) as { kind?: string; metadata?: { selfLink?: string } };
      expect(raw.kind).toBeUndefined();
      // Only types that are not built into Kubernetes (or name nothing) stay unknown.
      expect(raw.metadata?.selfLink ?? '').not.toMatch(/^\/api\/v1\//);
    }
  });
});

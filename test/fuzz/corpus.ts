// The fuzz suite's documents: real YAML/JSON documents from test/fixtures (CI) and, for long runs, from the
// shared corpus when it is there. Each document is the text of one YAML document (no `---` line), ending with a
// line break, so that files can be composed from them with known line spans.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Doc {
  /** Where it came from, for failure messages. */
  origin: string;
  text: string;
}

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures');
export const SHARED_CORPUS = '/work/shared/corpus';

const withEol = (s: string) => (s.endsWith('\n') ? s : `${s}\n`);

/**
 * Items of a `kubectl get -o yaml` List, each as a document of its own: the `- ` line and the lines under it,
 * two spaces of indentation removed (what the item would be written as a top-level document). Returns the
 * whole text as one document when it is not laid out that way.
 */
export function splitList(text: string, origin: string): Doc[] {
  const lines = text.replace(/^---\r?\n/, '').split('\n');
  const itemsAt = lines.indexOf('items:');
  if (itemsAt < 0) return [{ origin, text: withEol(text.replace(/^---\r?\n/, '')) }];
  const out: Doc[] = [];
  let cur: string[] | undefined;
  const flush = () => {
    if (cur) out.push({ origin: `${origin}#${out.length}`, text: withEol(cur.join('\n')) });
    cur = undefined;
  };
  for (let i = itemsAt + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.startsWith('- ')) {
      flush();
      cur = [l.slice(2)];
    } else if (cur && (l.startsWith('  ') || l === '')) {
      cur.push(l.slice(2));
    } else {
      flush();
      if (l !== '' && !l.startsWith(' ')) break; // `kind: XList`: the List's own fields
    }
  }
  flush();
  return out;
}

/** The documents of a multi-document YAML file, split at its `---` lines. */
export function splitStream(text: string, origin: string): Doc[] {
  return text
    .split(/^---[^\n]*\n/m)
    .map((t, i) => ({ origin: `${origin}#${i}`, text: withEol(t) }))
    .filter((d) => /^(apiVersion|kind):/m.test(d.text));
}

/** A corpus path without the must-gather image folder (a 100-character hash). */
const short = (p: string) => p.replace(/\/quay-io-[^/]+\//, '/…/');

function read(rel: string): string {
  return readFileSync(join(FIXTURES, rel), 'utf8');
}

/**
 * The issue's reproduction (issue 13): ConfigMap `first`, and `third` owned by it. A broken document between
 * them must not make `first` vanish and `third` dangling.
 */
export const ISSUE_FIRST: Doc = {
  origin: 'issue-13/first',
  text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n  namespace: demo\n  uid: u-first\n',
};
export const ISSUE_THIRD: Doc = {
  origin: 'issue-13/third',
  text:
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: third\n  namespace: demo\n  uid: u-third\n  ownerReferences:\n' +
    '  - apiVersion: v1\n    kind: ConfigMap\n    name: first\n    uid: u-first\n',
};

/** Groups of documents that belong together (owners and their dependents in one group). */
export interface Pool {
  groups: { name: string; docs: Doc[] }[];
}

/** The CI pool: test/fixtures only. */
export function fixturePool(): Pool {
  const dns = 'fuzz/must-gather/openshift-dns-operator';
  const list = (rel: string) => splitList(read(rel), rel);
  const single = (rel: string) => [{ origin: rel, text: withEol(read(rel).replace(/^---\r?\n/, '')) }];
  const scheduler = list('fuzz/must-gather/openshift-kube-scheduler/core/configmaps.yaml');
  return {
    groups: [
      { name: 'issue-13', docs: [ISSUE_FIRST, ISSUE_THIRD] },
      {
        name: 'dns-operator',
        docs: [
          ...list(`${dns}/apps/deployments.yaml`),
          ...list(`${dns}/apps/replicasets.yaml`),
          ...list(`${dns}/core/pods.yaml`),
          ...list(`${dns}/core/services.yaml`),
          ...list(`${dns}/discovery.k8s.io/endpointslices.yaml`),
          ...list(`${dns}/core/endpoints.yaml`),
          ...list(`${dns}/core/configmaps.yaml`),
          ...single(`${dns}/openshift-dns-operator.yaml`),
          ...single(`${dns}/monitoring.coreos.com/servicemonitors/dns-operator.yaml`),
        ],
      },
      { name: 'kube-scheduler-configmaps', docs: scheduler },
      {
        name: 'argo-cd',
        docs: [
          'gitops-engine/pkg/health/testdata/pod-deletion.yaml',
          'resource_customizations/kafka.strimzi.io/KafkaConnector/testdata/degraded.yaml',
          'resource_customizations/astra.netapp.io/ResticVolumeBackup/testdata/degraded.yaml',
          'resource_customizations/services.cloud.sap.com/ServiceBinding/testdata/deleting.yaml',
          'resource_customizations/apiextensions.k8s.io/CustomResourceDefinition/testdata/crd-v1-terminating-timestamp-progressing.yaml',
        ].flatMap((p) => single(`fuzz/argo-cd/${p}`)),
      },
      {
        name: 'real-manifests',
        docs: [
          ...splitStream(read('loader/real-manifests/ingress-nginx/deploy.yaml'), 'loader/real-manifests/ingress-nginx/deploy.yaml'),
          ...['apiservice', 'deployment', 'rbac', 'service'].flatMap((n) =>
            splitStream(read(`loader/real-manifests/metrics-server/${n}.yaml`), `loader/real-manifests/metrics-server/${n}.yaml`),
          ),
          // Alerting rules: `{{ $labels… }}` inside strings, which must not be taken for a Helm template.
          ...single('loader/real-manifests/kube-prometheus/alertmanager-prometheusRule.yaml'),
          // Hand-written: ownerReferences without uids.
          ...single('loader/popeye/core/pod/3.yaml'),
        ],
      },
      {
        // JSON documents inside a YAML stream (flow style, one of them with CRLF line ends).
        name: 'json',
        docs: [...single('loader/k9s/po_sidecar.json'), ...single('loader/insights-archive/config/persistentvolumes/task-pv-volume.json')],
      },
    ],
  };
}

/** Whole JSON files (a bare array of objects, a List, single objects; one with CRLF line ends). */
export function jsonFiles(): Doc[] {
  return [
    'loader/sonobuoy/results-0.9/resources/ns/kube-system/ReplicaSets.json',
    'loader/sonobuoy/results-4-e2e-failures/resources/ns/projected-8046/core_v1_pods.json',
    'loader/sonobuoy/discovery-healthsummary/resources/ns/local-path-storage/core_v1_pods.json',
    'loader/k9s/po_sidecar.json',
    'loader/insights-archive/config/persistentvolumes/task-pv-volume.json',
    'cluster-dumps/sonobuoy-testResultsOutput/resources/ns/default/extensions_v1beta1_replicasets.json',
  ].map((rel) => ({ origin: rel, text: read(rel) }));
}

/** Every YAML file under `dir` (sorted, at most `limit`). */
function yamlFiles(dir: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      if (out.length >= limit) return;
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e) && statSync(p).size < 300_000) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/**
 * The long-run pool: the fixtures plus, when /work/shared/corpus is there, more of it (must-gather namespaces
 * split into documents, real install manifests). Never used by the CI seed set.
 */
export function widePool(): Pool {
  const pool = fixturePool();
  if (!existsSync(SHARED_CORPUS)) return pool;
  const mg = join(SHARED_CORPUS, 'cluster-dumps/openshift-must-gather-aws/must-gather-aws');
  const mgRoot = existsSync(mg) ? join(mg, readdirSync(mg)[0], 'namespaces') : '';
  for (const ns of ['openshift-ingress', 'openshift-console', 'openshift-dns', 'openshift-multus', 'openshift-etcd']) {
    const docs = yamlFiles(join(mgRoot, ns), 200)
      .filter((p) => !p.endsWith('secrets.yaml'))
      .flatMap((p) => splitList(readFileSync(p, 'utf8'), short(p.slice(SHARED_CORPUS.length + 1))));
    if (docs.length) pool.groups.push({ name: `must-gather/${ns}`, docs });
  }
  for (const proj of ['cert-manager', 'calico', 'knative-serving', 'argo-cd']) {
    const docs = yamlFiles(join(SHARED_CORPUS, 'real-manifests', proj), 40)
      .flatMap((p) => splitStream(readFileSync(p, 'utf8'), p.slice(SHARED_CORPUS.length + 1)))
      .filter((d) => d.text.length < 200_000);
    if (docs.length) pool.groups.push({ name: `real-manifests/${proj}`, docs });
  }
  const argo = yamlFiles(join(SHARED_CORPUS, 'cluster-dumps/argo-cd'), 300)
    .map((p) => ({ origin: p.slice(SHARED_CORPUS.length + 1), text: withEol(readFileSync(p, 'utf8').replace(/^---\r?\n/, '')) }))
    .filter((d) => !/^---/m.test(d.text));
  if (argo.length) pool.groups.push({ name: 'argo-cd (all)', docs: argo });
  return pool;
}

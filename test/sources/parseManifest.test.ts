import { describe, expect, it } from 'vitest';
import { parseManifestText, resolveRanges } from '../../server/src/sources/manifests/parseManifest';
import { brief, errorsOf, prng, textAt } from './helpers';

const RS = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-1
  namespace: shop
  uid: rs-uid
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
    uid: dep-uid
    controller: true
  - apiVersion: example.com/v1
    kind: Thing
    name: t
    uid: "thing-uid"
    blockOwnerDeletion: false
  finalizers:
  - a/b
  deletionTimestamp: "2024-01-01T00:00:00Z"
  deletionGracePeriodSeconds: 0
  creationTimestamp: 2018-07-20T08:23:04Z
  generation: 3
  labels:
    app: web
`;

describe('YAML objects', () => {
  it('extracts what the engine needs', () => {
    const { objects, problems } = parseManifestText(RS, 'rs.yaml');
    expect(problems).toEqual([]);
    expect(objects).toHaveLength(1);
    const { source, ...o } = objects[0];
    expect(o).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'web-1',
      namespace: 'shop',
      uid: 'rs-uid',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true },
        { apiVersion: 'example.com/v1', kind: 'Thing', name: 't', uid: 'thing-uid', blockOwnerDeletion: false },
      ],
      finalizers: ['a/b'],
      deletionTimestamp: '2024-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
      // YAML 1.2 core schema, as Kubernetes reads it: an unquoted timestamp is a string.
      creationTimestamp: '2018-07-20T08:23:04Z',
      generation: 3,
      labels: { app: 'web' },
      facts: {},
    });
    expect(source?.file).toBe('rs.yaml');
    expect(source?.docIndex).toBe(0);
    expect(source?.itemPath).toEqual([]);
  });

  it('gives exact 0-based ranges', () => {
    const r = parseManifestText(RS, 'rs.yaml').objects[0].source!.ranges!;
    // line 15 is `    uid: "thing-uid"`: the value starts at character 9 and ends after the closing quote.
    expect(r.ownerReferenceEntries[1].uid).toEqual({ start: { line: 15, character: 9 }, end: { line: 15, character: 20 } });
    expect(r.ownerReferenceEntries[0].uid).toEqual({ start: { line: 10, character: 9 }, end: { line: 10, character: 16 } });
    expect(r.ownerReferenceEntries[1].blockOwnerDeletion).toEqual({ start: { line: 16, character: 24 }, end: { line: 16, character: 29 } });
    expect(r.ownerReferenceEntries[1].entry.start).toEqual({ line: 12, character: 4 });
    expect(r.apiVersion).toEqual({ start: { line: 0, character: 12 }, end: { line: 0, character: 19 } });
    expect(r.kind).toEqual({ start: { line: 1, character: 6 }, end: { line: 1, character: 16 } });
    expect(r.name).toEqual({ start: { line: 3, character: 8 }, end: { line: 3, character: 13 } });
    expect(r.finalizerEntries).toEqual([{ start: { line: 18, character: 4 }, end: { line: 18, character: 7 } }]);
    expect(textAt(RS, r.deletionTimestamp)).toBe('"2024-01-01T00:00:00Z"');
    expect(textAt(RS, r.namespace)).toBe('shop');
    expect(textAt(RS, r.uid)).toBe('rs-uid');
    expect(textAt(RS, r.ownerReferenceEntries[0].kind)).toBe('Deployment');
    expect(textAt(RS, r.ownerReferenceEntries[0].controller)).toBe('true');
    expect(r.object.start).toEqual({ line: 0, character: 0 });
    expect(r.ownerReferences?.start).toEqual({ line: 7, character: 2 });
  });

  it('gives the same positions for CRLF line endings', () => {
    const crlf = RS.replace(/\n/g, '\r\n');
    const lf = parseManifestText(RS, 'a.yaml').objects[0];
    const cr = parseManifestText(crlf, 'a.yaml').objects[0];
    expect(cr.source!.ranges!.ownerReferenceEntries).toEqual(lf.source!.ranges!.ownerReferenceEntries);
    expect(cr.source!.ranges!.deletionTimestamp).toEqual(lf.source!.ranges!.deletionTimestamp);
    expect(cr.ownerReferences).toEqual(lf.ownerReferences);
    expect(cr.name).toBe('web-1'); // no stray \r in values
  });

  it('counts documents and ignores empty and comment-only ones', () => {
    const text = `# header\n---\n---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n...\n`;
    const { objects, problems } = parseManifestText(text, 'm.yaml');
    expect(problems).toEqual([]);
    expect(objects.map((o) => o.name)).toEqual(['a', 'b']);
    expect(objects[0].source!.docIndex).toBeLessThan(objects[1].source!.docIndex);
    expect(objects[0].namespace).toBe('');
    expect(objects[0].uid).toBe('');
  });

  it('uses generateName when there is no name', () => {
    const { objects } = parseManifestText('apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: cleanup-\n', 'j.yaml');
    expect(objects[0].name).toBe('cleanup-');
  });

  it('resolves aliases', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: &n cm\n    labels: &l\n      app: x\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: *n\n    labels: *l\n`;
    const { objects, problems } = parseManifestText(text, 'a.yaml');
    expect(problems).toEqual([]);
    expect(objects[1].name).toBe('cm');
    expect(objects[1].labels).toEqual({ app: 'x' });
    expect(textAt(text, objects[1].source!.ranges!.name)).toBe('*n');
    // Anchors do not reach across documents.
    const across = parseManifestText(
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: &n a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: *n}\n`,
      'x.yaml',
    );
    expect(across.objects.map((o) => o.name)).toEqual(['a']);
    expect(brief(across.problems)).toEqual(['yaml-syntax:error@7:18']);
    expect(across.problems[0].reason).toContain('the alias *n refers to an anchor that is not defined');
  });

  it('reads a multi-line quoted scalar indented like go-yaml writes it', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels:\n    a: 'first\n    second'\n    b: c\nstatus:\n  conditions:\n  - message: '0/3 nodes didn''t match the placement\n    constraint.'\n    reason: x\n  phase: Pending\n`;
    const { objects, problems } = parseManifestText(text, 'kubectl-output.yaml');
    expect(problems).toEqual([]);
    expect(objects[0].labels).toEqual({ a: 'first second', b: 'c' });
    expect(objects[0].facts.phase).toBe('Pending');
  });

  it('ends a quote that never closes at the next document marker, so later documents still load', () => {
    for (const q of ['"', "'"]) {
      const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typing\ndata:\n  key: ${q}half-typed\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n`;
      const { objects, problems } = parseManifestText(text, 'typing.yaml');
      expect(objects.map((o) => o.name)).toEqual(['web']);
      expect(brief(problems)).toEqual(['yaml-syntax:error@6:18']); // at the end of the line where the quote opened
      // CRLF line endings as well.
      const crlf = parseManifestText(text.replace(/\n/g, '\r\n'), 'typing.yaml');
      expect(crlf.objects.map((o) => o.name)).toEqual(['web']);
    }
  });
});

describe('YAML 1.2 semantics', () => {
  it('reads `- =` as the string "=" and keeps timestamps as strings', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\n  creationTimestamp: 2024-02-03T04:05:06Z\nspec:\n  group: example.com\n  names: {kind: Thing, plural: things}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        properties:\n          op:\n            enum:\n            - =\n            - "!="\n`;
    const { objects, problems } = parseManifestText(text, 'crd.yaml');
    expect(problems).toEqual([]);
    expect(objects[0].creationTimestamp).toBe('2024-02-03T04:05:06Z');
    expect(objects[0].facts.crd?.kind).toBe('Thing');
  });

  it('reads yes/no as strings (so a boolean field holding one is a wrong type, with a hint)', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences:\n  - {apiVersion: v1, kind: Node, name: n, uid: u, controller: yes}\n`;
    const { objects, problems } = parseManifestText(text, 'p.yaml');
    expect(objects).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0].code).toBe('wrong-type');
    expect(problems[0].reason).toContain('metadata.ownerReferences[0].controller must be a boolean, found a string');
    expect(problems[0].reason).toContain('write true or false');
    expect(textAt(text, problems[0].range)).toBe('yes');
  });
});

describe('Lists, typed lists, bare arrays', () => {
  it('expands kind: List with kinded items', () => {
    const text = `apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ""}\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, namespace: x, uid: u1}\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: d, namespace: x, uid: u2}\n`;
    const { objects, problems } = parseManifestText(text, 'list.yaml');
    expect(problems).toEqual([]);
    expect(objects.map((o) => `${o.kind}/${o.name}`)).toEqual(['ConfigMap/a', 'Deployment/d']);
    expect(objects.map((o) => o.source!.itemPath)).toEqual([[0], [1]]);
    expect(textAt(text, objects[1].source!.ranges!.name)).toBe('d');
  });

  it('derives the kind of typed-list items from the list kind, with a note', () => {
    const text = `apiVersion: apps/v1\nkind: DeploymentList\nitems:\n- metadata: {name: a, namespace: x, uid: u1}\n- metadata: {name: b, namespace: x, uid: u2}\n`;
    const { objects, problems } = parseManifestText(text, 'anything.yaml');
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}/${o.name}`)).toEqual(['apps/v1 Deployment/a', 'apps/v1 Deployment/b']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'kind-inferred', severity: 'info', line: 4, column: 3 });
    expect(problems[0].reason).toBe(
      '2 objects without apiVersion and kind were read as apps/v1 Deployment, inferred from the enclosing DeploymentList.',
    );
  });

  it('expands nested lists and empty ones', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: Pod\n    metadata: {name: deep, namespace: n}\n---\napiVersion: route.openshift.io/v1\nkind: RouteList\nitems: null\n---\napiVersion: v1\nkind: List\n`;
    const { objects, problems } = parseManifestText(text, 'nested.yaml');
    expect(problems).toEqual([]);
    expect(objects).toHaveLength(1);
    expect(objects[0].source!.itemPath).toEqual([0, 0]);
  });

  it('reports a non-object item and still loads the others', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n- just a string\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\n`;
    const { objects, problems } = parseManifestText(text, 'l.yaml');
    expect(objects.map((o) => o.name)).toEqual(['a', 'b']);
    expect(brief(problems)).toEqual(['not-kubernetes:error@7:3']);
    expect(problems[0].reason).toBe('items[1] is a string, not a Kubernetes object, so it was skipped.');
  });

  it('infers kinds of bare JSON arrays from sonobuoy file names', () => {
    const text = JSON.stringify([
      { metadata: { name: 'p1', namespace: 'ns', uid: 'u1' }, spec: { nodeName: 'n1' } },
      { metadata: { name: 'p2', namespace: 'ns', uid: 'u2' } },
    ]);
    const { objects, problems } = parseManifestText(text, 'results/resources/ns/ns/core_v1_pods.json');
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}/${o.name}`)).toEqual(['v1 Pod/p1', 'v1 Pod/p2']);
    expect(objects[0].facts.nodeName).toBe('n1');
    expect(objects[1].source!.itemPath).toEqual([1]);
    expect(problems).toHaveLength(1);
    expect(problems[0].code).toBe('kind-inferred');
    expect(problems[0].reason).toContain('the file name core_v1_pods.json');

    const apps = parseManifestText(JSON.stringify([{ metadata: { name: 'd', namespace: 'x' } }]), 'apps_v1_deployments.json');
    expect(apps.objects[0]).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const rbac = parseManifestText(JSON.stringify([{ metadata: { name: 'r' } }]), 'cluster/rbac.authorization.k8s.io_v1_clusterroles.json');
    expect(rbac.objects[0]).toMatchObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' });
  });

  it('infers kinds from sonobuoy 0.9 names, Insights paths and selfLinks', () => {
    const sa = parseManifestText(
      JSON.stringify([{ metadata: { name: 'default', namespace: 'kube-system' } }]),
      'ns/kube-system/ServiceAccounts.json',
    );
    expect(sa.objects[0]).toMatchObject({ apiVersion: 'v1', kind: 'ServiceAccount' });
    const node = parseManifestText(
      JSON.stringify({ metadata: { name: 'master-0.lab.example.com', uid: 'n1' } }),
      'archive/config/node/master-0.lab.example.com.json',
    );
    expect(node.objects[0]).toMatchObject({ apiVersion: 'v1', kind: 'Node', name: 'master-0.lab.example.com' });
    expect(node.problems[0].reason).toContain('the folder name node');
    const pod = parseManifestText(
      JSON.stringify({ metadata: { name: 'am-0', namespace: 'mon' } }),
      'archive/namespaces/mon/pods/am-0/am-0.json',
    );
    expect(pod.objects[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    const pv = parseManifestText(JSON.stringify({ metadata: { name: 'vol' } }), 'archive/config/persistentvolumes/vol.json');
    expect(pv.objects[0]).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolume' });
    // selfLink wins over the path, and picks the group: an old apps/v1beta2 link becomes the served apps/v1.
    const ds = parseManifestText(
      JSON.stringify([{ metadata: { name: 'x', namespace: 'k', selfLink: '/apis/apps/v1beta2/namespaces/k/daemonsets/x' } }]),
      'whatever.json',
    );
    expect(ds.objects[0]).toMatchObject({ apiVersion: 'apps/v1', kind: 'DaemonSet' });
    expect(ds.problems[0].reason).toContain('metadata.selfLink');
    // A selfLink naming a type that is not built in is not second-guessed from the path.
    const ing = parseManifestText(
      JSON.stringify({ metadata: { name: 'cluster', selfLink: '/apis/config.openshift.io/v1/ingresses/cluster' } }),
      'config/ingress.json',
    );
    expect(ing.objects).toEqual([]);
    expect(brief(ing.problems)).toEqual(['not-kubernetes:error@1:1']);
  });

  it('does not infer a cluster-scoped kind for a namespaced object (or the reverse)', () => {
    const r = parseManifestText(
      JSON.stringify({ metadata: { name: 'loki', namespace: 'logging' } }),
      'archive/namespaces/logging/loki.json',
    );
    expect(r.objects).toEqual([]);
    expect(r.problems[0]).toMatchObject({ code: 'not-kubernetes', severity: 'error' });
    expect(r.problems[0].reason).toContain('could not be inferred');
  });

  it('does not take folder short names (ns, cm) for kinds', () => {
    const r = parseManifestText(JSON.stringify([{ metadata: { name: 'x' } }]), 'resources/ns/x.json');
    expect(r.objects).toEqual([]);
    expect(r.problems[0].code).toBe('not-kubernetes');
  });
});

describe('bad documents are reported where they are and skipped; the rest loads', () => {
  const good = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

  it('YAML syntax errors', () => {
    const text = `${good('a')}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n  namespace: x\n---\n${good('c')}`;
    const { objects, problems } = parseManifestText(text, 'bad.yaml');
    expect(objects.map((o) => o.name)).toEqual(['a', 'c']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'yaml-syntax', severity: 'error', file: 'bad.yaml' });
    expect(problems[0].line).toBeGreaterThanOrEqual(9);
    expect(problems[0].line).toBeLessThanOrEqual(11);
    expect(problems[0].reason).toMatch(/^YAML syntax error: .+; the document was skipped\.$/);
    expect(problems[0].range!.start.line).toBe(problems[0].line - 1);
  });

  it('not Kubernetes objects', () => {
    const text = `just: data\nnothing: here\n---\n${good('a')}---\nmetadata:\n  name: no-kind\n---\nkind: Pod\nmetadata:\n  name: no-api-version\n---\napiVersion: v1\nmetadata:\n  name: no-kind-either\n---\nplain scalar\n---\n${good('b')}`;
    const { objects, problems } = parseManifestText(text, 'm.yaml');
    expect(objects.map((o) => o.name)).toEqual(['a', 'b']);
    expect(brief(problems)).toEqual([
      'not-kubernetes:warning@1:1',
      'not-kubernetes:error@9:1',
      'not-kubernetes:error@12:1',
      'not-kubernetes:error@16:1',
      'not-kubernetes:warning@20:1',
    ]);
    expect(problems[0].reason).toBe('This is not a Kubernetes object (it has no apiVersion, kind or metadata), so it was skipped.');
    expect(problems[2].reason).toBe('This object has kind Pod but no apiVersion (for Pod it is v1), so it was skipped.');
    expect(problems[3].reason).toBe('This object has apiVersion v1 but no kind, so it was skipped.');
    expect(problems[4].reason).toBe('This document is a string, not a Kubernetes object, so it was skipped.');
  });

  it('Helm templates', () => {
    const helm = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "x.fullname" . }}\n  labels:\n    {{- include "x.labels" . | nindent 4 }}\n`;
    const valid = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n`;
    const block = `{{- if .Values.enabled }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n{{- end }}\n`;
    const fine = `apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n  groups:\n  - rules:\n    - annotations:\n        description: "{{ $labels.instance }} is down"\n        summary: |\n          {{ $value }} of them\n`;
    // A real error in a document whose only `{{` are inside strings is not blamed on a template.
    const notTemplate = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 5\ndata:\n  msg: "{{ .x }}"\n`;
    const text = [good('a'), helm, valid, block, fine, notTemplate, good('b')].join('---\n');
    const { objects, problems } = parseManifestText(text, 'chart.yaml');
    expect(objects.map((o) => o.name)).toEqual(['a', 'r', 'b']);
    expect(problems.map((p) => p.code)).toEqual(['template', 'template', 'template', 'wrong-type']);
    expect(problems[0].reason).toContain('Helm/Go template');
    expect(textAt(text, problems[0].range)).toBe('{{');
    // Located at the template expression where the document breaks.
    expect(problems[0].line).toBe(11);
    expect(problems[0].column).toBe(5);
    expect(problems[1].line).toBe(16);
  });

  it('wrong types, each named by its field path', () => {
    const cases: [string, string, string][] = [
      ['ownerReferences: {a: 1}', 'metadata.ownerReferences must be a list, found a mapping.', '{a: 1}'],
      [
        'ownerReferences:\n  - {apiVersion: v1, kind: Node, name: n, uid: u}\n  - {apiVersion: v1, kind: Node, name: n, uid: 12}',
        'metadata.ownerReferences[1].uid must be a string, found a number.',
        '12',
      ],
      ['ownerReferences:\n  - just-a-string', 'metadata.ownerReferences[0] must be a mapping, found a string.', 'just-a-string'],
      [
        'ownerReferences:\n  - {apiVersion: v1, kind: Node, name: n, uid: u, blockOwnerDeletion: "true"}',
        'metadata.ownerReferences[0].blockOwnerDeletion must be a boolean, found a string.',
        '"true"',
      ],
      ['finalizers: [a, 3]', 'metadata.finalizers[1] must be a string, found a number.', '3'],
      ['finalizers: foo', 'metadata.finalizers must be a list, found a string.', 'foo'],
      ['uid: 42', 'metadata.uid must be a string, found a number.', '42'],
      ['name: [x]', 'metadata.name must be a string, found a list.', '[x]'],
      ['namespace: true', 'metadata.namespace must be a string, found a boolean.', 'true'],
      ['deletionGracePeriodSeconds: "30"', 'metadata.deletionGracePeriodSeconds must be a whole number, found a string.', '"30"'],
      ['deletionGracePeriodSeconds: 1.5', 'metadata.deletionGracePeriodSeconds must be a whole number, found 1.5.', '1.5'],
      ['deletionTimestamp: 5', 'metadata.deletionTimestamp must be a string, found a number.', '5'],
    ];
    for (const [field, message, at] of cases) {
      const bad = `apiVersion: v1\nkind: Pod\nmetadata:\n  ${field}\n`;
      const text = `${good('before')}---\n${bad}---\n${good('after')}`;
      const { objects, problems } = parseManifestText(text, 'w.yaml');
      expect(
        objects.map((o) => o.name),
        field,
      ).toEqual(['before', 'after']);
      expect(
        problems.map((p) => [p.code, p.severity, p.reason]),
        field,
      ).toEqual([['wrong-type', 'error', message]]);
      expect(textAt(text, problems[0].range), field).toBe(at);
    }
    for (const [doc, message] of [
      ['apiVersion: 1\nkind: Pod\nmetadata: {name: p}\n', 'apiVersion must be a string, found a number.'],
      ['apiVersion: v1\nkind: [Pod]\nmetadata: {name: p}\n', 'kind must be a string, found a list.'],
      ['apiVersion: v1\nkind: Pod\nmetadata: [name]\n', 'metadata must be a mapping, found a list.'],
      ['apiVersion: v1\nkind: List\nitems: {a: 1}\n', 'items must be a list, found a mapping.'],
    ]) {
      const { objects, problems } = parseManifestText(`${doc}---\n${good('ok')}`, 'w.yaml');
      expect(objects.map((o) => o.name)).toEqual(['ok']);
      expect(problems.map((p) => p.reason)).toEqual([message]);
    }
  });

  it('spec facts with a wrong type are warnings; the object still loads', () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: 7\n  containers:\n  - {name: c, image: nginx}\nstatus: {phase: Running}\n`;
    const { objects, problems } = parseManifestText(text, 'p.yaml');
    expect(objects).toHaveLength(1);
    expect(objects[0].facts).toEqual({ images: ['nginx'], phase: 'Running' });
    expect(brief(problems)).toEqual(['wrong-type:warning@5:13']);
    expect(problems[0].reason).toBe('spec.nodeName must be a string, found a number; it is ignored.');
  });

  it('duplicate keys: the last wins, with a warning at the repeated key', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n  name: second\n  labels: {a: "1", a: "2"}\ndata:\n  x: y\n  x: z\n`;
    const { objects, problems } = parseManifestText(text, 'd.yaml');
    expect(objects[0].name).toBe('second');
    expect(objects[0].labels).toEqual({ a: '2' });
    expect(textAt(text, objects[0].source!.ranges!.name)).toBe('second');
    expect(problems.map((p) => [p.code, p.severity, p.line, p.column])).toEqual([
      ['duplicate-key', 'warning', 5, 3],
      ['duplicate-key', 'warning', 6, 20],
      ['duplicate-key', 'warning', 9, 3],
    ]);
    expect(problems[0].reason).toBe('metadata has the key "name" more than once; the last value is used, as Kubernetes does.');
    expect(problems[2].reason).toBe('data has the key "x" more than once; the last value is used, as Kubernetes does.');
  });

  it('alias bombs are refused; other documents load', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      levels.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n  ${levels.join('\n  ')}\n`;
    const { objects, problems } = parseManifestText(`${bomb}---\n${good('ok')}`, 'bomb.yaml');
    expect(objects.map((o) => o.name)).toEqual(['ok']);
    expect(brief(problems)).toEqual(['alias-limit:error@1:1']);
    expect(problems[0].reason).toMatch(/alias bomb/);
  });

  it('deep nesting does not crash', () => {
    const deepFlow = '['.repeat(100_000) + ']'.repeat(100_000);
    const r1 = parseManifestText(`${deepFlow}\n---\n${good('after')}`, 'deep.yaml');
    expect(r1.objects.map((o) => o.name)).toEqual(['after']);
    expect(r1.problems.map((p) => p.code)).toEqual(['too-deep']);

    // Block mappings deep enough to exhaust the parser's own recursion (indentation grows by one per level).
    for (const levels of [1_000, 4_000]) {
      let deepMap = `${good('before')}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\ndata:\n`;
      for (let i = 1; i <= levels; i++) deepMap += ' '.repeat(i) + 'a:\n';
      const r2 = parseManifestText(`${deepMap}---\n${good('after')}`, 'deep.yaml');
      expect(
        r2.objects.map((o) => o.name),
        String(levels),
      ).toEqual(['before', 'after']);
      expect(
        r2.problems.map((p) => p.code),
        String(levels),
      ).toEqual(['too-deep']);
      expect(r2.objects[1].source!.docIndex).toBe(2);
    }
    const deepFlowMap =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: ' + '{a: '.repeat(100_000) + '1' + '}'.repeat(100_000) + '\n';
    const r5 = parseManifestText(`${deepFlowMap}---\n${good('after')}`, 'deep.yaml');
    expect(r5.objects.map((o) => o.name)).toEqual(['after']);
    expect(r5.problems.map((p) => p.code)).toEqual(['too-deep']);

    const r3 = parseManifestText(deepFlow, 'deep.json');
    expect(r3.objects).toEqual([]);
    expect(() => parseManifestText('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), 'deep.json')).not.toThrow();
    const r4 = parseManifestText(
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
      'deep.json',
    );
    expect(r4.objects.map((o) => o.name)).toEqual(['x']);
  });

  it('binary files', () => {
    const { objects, problems } = parseManifestText('apiVersion: v1\u0000\u0001\u0002kind: Pod', 'x.yaml');
    expect(objects).toEqual([]);
    expect(brief(problems)).toEqual(['binary:error@1:1']);
  });

  it('never throws, whatever the input', () => {
    const rnd = prng(42);
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      ':',
      ' ',
      '\n',
      '\r\n',
      '- ',
      '---\n',
      '"',
      "'",
      '&a ',
      '*a',
      '!!str ',
      '{{',
      '}}',
      '#',
      'apiVersion: v1\n',
      'kind: Pod\n',
      'metadata:\n',
      '  name: x\n',
      'items:\n',
      '\t',
      '\\',
      '\u00e9',
      '\ud83d',
      '?',
      '|\n',
      '>-\n',
      '%YAML 1.2\n',
      'ownerReferences:\n',
      '  - uid: 1\n',
      ',',
      '0x1F',
      'null',
      'true',
    ];
    for (let i = 0; i < 400; i++) {
      let s = '';
      const n = Math.floor(rnd() * 60);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(rnd() * pieces.length)];
      for (const name of ['f.yaml', 'f.json']) {
        let r;
        expect(() => (r = parseManifestText(s, name)), JSON.stringify(s)).not.toThrow();
        for (const p of r!.problems) {
          expect(p.line).toBeGreaterThanOrEqual(1);
          expect(p.column).toBeGreaterThanOrEqual(1);
          expect(p.reason.length).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe('facts', () => {
  it('Pod, Namespace, PVC, PV', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: n}
spec:
  nodeName: node-1
  terminationGracePeriodSeconds: 45
  initContainers: [{name: init, image: busybox}]
  containers: [{name: a, image: app:1}, {name: b, image: app:1}, {name: c, image: sidecar:2}]
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: data-0}
  - name: tmp
    emptyDir: {}
  - name: more
    persistentVolumeClaim: {claimName: data-1}
status: {phase: Running}
---
apiVersion: v1
kind: Namespace
metadata: {name: n}
spec: {finalizers: [kubernetes]}
status: {phase: Terminating}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-0, namespace: n}
spec: {volumeName: pv-1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  claimRef: {namespace: n, name: data-0, uid: c-uid, kind: PersistentVolumeClaim}
status: {phase: Bound}
`;
    const { objects, problems } = parseManifestText(text, 'f.yaml');
    expect(problems).toEqual([]);
    expect(objects.map((o) => o.facts)).toEqual([
      {
        nodeName: 'node-1',
        terminationGracePeriodSeconds: 45,
        claimNames: ['data-0', 'data-1'],
        images: ['busybox', 'app:1', 'sidecar:2'],
        phase: 'Running',
      },
      { namespaceFinalizers: ['kubernetes'], phase: 'Terminating' },
      { volumeName: 'pv-1' },
      { claimRef: { namespace: 'n', name: 'data-0', uid: 'c-uid' }, phase: 'Bound' },
    ]);
  });

  it('CustomResourceDefinitions (v1 and v1beta1)', () => {
    const text = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: Widget, plural: widgets, shortNames: [wd], listKind: WidgetList}
  versions:
  - {name: v1alpha1, served: true, storage: false}
  - {name: v1beta1, served: false, storage: false}
  - {name: v1, served: true, storage: true}
---
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: olds.example.com}
spec:
  group: example.com
  version: v1
  scope: Namespaced
  names: {kind: Old, plural: olds, singular: oldie}
`;
    const { objects, problems } = parseManifestText(text, 'crd.yaml');
    expect(problems).toEqual([]);
    expect(objects[0].facts.crd).toEqual({
      group: 'example.com',
      kind: 'Widget',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      listKind: 'WidgetList',
      namespaced: false,
      servedVersions: ['v1', 'v1alpha1'],
    });
    expect(objects[1].facts.crd).toEqual({
      group: 'example.com',
      kind: 'Old',
      plural: 'olds',
      singular: 'oldie',
      shortNames: [],
      namespaced: true,
      servedVersions: ['v1'],
    });
  });

  it('workload images', () => {
    const tpl = (kind: string, api: string) =>
      `apiVersion: ${api}\nkind: ${kind}\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n      initContainers: [{name: i, image: init:1}]\n      containers: [{name: c, image: main:1}]\n`;
    const docs = [
      tpl('Deployment', 'apps/v1'),
      tpl('StatefulSet', 'apps/v1'),
      tpl('DaemonSet', 'apps/v1'),
      tpl('ReplicaSet', 'apps/v1'),
      tpl('Job', 'batch/v1'),
      `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers: [{name: c, image: cron:1}]\n`,
      tpl('Widget', 'example.com/v1'),
    ];
    const { objects } = parseManifestText(docs.join('---\n'), 'w.yaml');
    expect(objects.map((o) => o.facts.images)).toEqual([
      ['init:1', 'main:1'],
      ['init:1', 'main:1'],
      ['init:1', 'main:1'],
      ['init:1', 'main:1'],
      ['init:1', 'main:1'],
      ['cron:1'],
      undefined,
    ]);
  });
});

describe('JSON', () => {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'a',
          namespace: 'n',
          uid: 'ua',
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'urs', controller: true }],
        },
      },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'n', uid: 'urs', finalizers: ['x/y'] } },
    ],
  };

  it('loads without positions, and resolveRanges fills them in from the same text', () => {
    const text = JSON.stringify(list, null, 2);
    const { objects, problems } = parseManifestText(text, 'l.json');
    expect(problems).toEqual([]);
    expect(objects.map((o) => o.source!.ranges)).toEqual([undefined, undefined]);
    resolveRanges(text, objects);
    const r0 = objects[0].source!.ranges!;
    expect(textAt(text, r0.name)).toBe('"a"');
    expect(textAt(text, r0.ownerReferenceEntries[0].uid)).toBe('"urs"');
    expect(textAt(text, r0.ownerReferenceEntries[0].controller)).toBe('true');
    expect(r0.ownerReferenceEntries[0].uid).toEqual({ start: { line: 16, character: 19 }, end: { line: 16, character: 24 } });
    expect(textAt(text, objects[1].source!.ranges!.finalizerEntries[0])).toBe('"x/y"');
    expect(textAt(text, objects[1].source!.ranges!.kind)).toBe('"ReplicaSet"');
  });

  it('resolves ranges of bare arrays, single objects, CRLF and escaped keys', () => {
    const arr = '[\r\n {"metadata": {"name": "p", "namespace": "n"}},\r\n {"metadata": {"n\\u0061me": "q", "namespace": "n"}}\r\n]';
    const r = parseManifestText(arr, 'x/core_v1_pods.json');
    resolveRanges(arr, r.objects);
    expect(textAt(arr.replace(/\r/g, ''), r.objects[1].source!.ranges!.name)).toBe('"q"');
    expect(r.objects[1].source!.ranges!.name).toEqual({ start: { line: 2, character: 28 }, end: { line: 2, character: 31 } });
    const single = '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}';
    const s = parseManifestText(single, 's.json');
    resolveRanges(single, s.objects);
    expect(s.objects[0].source!.ranges!.object).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: single.length } });
  });

  it('fills in ranges of YAML objects that lost them', () => {
    const { objects } = parseManifestText(RS, 'rs.yaml');
    const expected = objects[0].source!.ranges;
    delete objects[0].source!.ranges;
    resolveRanges(RS, objects);
    expect(objects[0].source!.ranges).toEqual(expected);
  });

  it('locates syntax errors', () => {
    const cases: [string, number, number, string][] = [
      ['{\n  "a": 1\n  "b": 2\n}', 3, 3, `expected ',' or '}', found "\\""`],
      ['{"a": [1, 2,]}', 1, 13, 'expected a value, found "]"'],
      ['{"a": "unterminated}', 1, 7, 'a string is not terminated'],
      ['[1, 2', 1, 6, 'the file ends before the array is closed'],
      ['{"a": tru}', 1, 7, 'expected a value, found "t"'],
      ['{"a": 1} x', 1, 10, 'unexpected "x" after the end of the JSON value'],
    ];
    for (const [text, line, column, msg] of cases) {
      const { objects, problems } = parseManifestText(text, 'bad.json');
      expect(objects).toEqual([]);
      expect(
        problems.map((p) => [p.code, p.line, p.column]),
        text,
      ).toEqual([['json-syntax', line, column]]);
      expect(problems[0].reason).toBe(`This file is not valid JSON: ${msg}.`);
    }
  });

  it('locates wrong types and still loads the other items', () => {
    const text = JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } },
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'b', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }, { uid: 7 }] },
          },
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c' } },
        ],
      },
      null,
      1,
    );
    const { objects, problems } = parseManifestText(text, 'w.json');
    expect(objects.map((o) => o.name)).toEqual(['a', 'c']);
    expect(problems.map((p) => p.reason)).toEqual(['metadata.ownerReferences[1].uid must be a string, found a number.']);
    expect(textAt(text, problems[0].range)).toBe('7');
  });

  it('reads a file starting with { that is not JSON as YAML', () => {
    const { objects, problems } = parseManifestText('{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n', 'flow.yaml');
    expect(problems).toEqual([]);
    expect(objects[0].name).toBe('flow');
    expect(objects[0].source!.ranges).toBeDefined();
  });

  it('accepts a byte-order mark', () => {
    expect(parseManifestText('\ufeff{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}', 'b.json').objects[0].name).toBe('p');
    expect(parseManifestText('\ufeffapiVersion: v1\nkind: Pod\nmetadata: {name: p}\n', 'b.yaml').objects[0].name).toBe('p');
  });

  it('reports non-Kubernetes JSON as a warning', () => {
    const r = parseManifestText('{"alerts": []}', 'alerts.json');
    expect(r.objects).toEqual([]);
    expect(brief(r.problems)).toEqual(['not-kubernetes:warning@1:1']);
    expect(errorsOf(parseManifestText('[{"labels": {}}, {"endsAt": 1}]', 'silenced.json').problems)).toEqual([]);
    expect(parseManifestText('', 'empty.json').problems).toEqual([]);
  });
});

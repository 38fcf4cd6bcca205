// A Namespace's status.conditions (a cluster dump, `kubectl get ns -o yaml`) become facts.namespaceConditions,
// the same from YAML, from JSON's fast path and from the general extractor; wrong types are warnings.

import { describe, expect, it } from 'vitest';
import { Extractor } from '../../server/src/sources/manifests/extract';
import { fastObject } from '../../server/src/sources/manifests/fastJson';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { plainReader } from '../../server/src/sources/manifests/reader';

const NAMESPACE = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'legacy-mq', uid: 'u-1', deletionTimestamp: '2026-11-14T09:12:44Z' },
  spec: { finalizers: ['kubernetes'] },
  status: {
    phase: 'Terminating',
    conditions: [
      {
        lastTransitionTime: '2026-11-14T09:12:50Z',
        message: 'All resources successfully discovered',
        reason: 'ResourcesDiscovered',
        status: 'False',
        type: 'NamespaceDeletionDiscoveryFailure',
      },
      {
        lastTransitionTime: '2026-11-14T09:12:50Z',
        message: 'Some resources are remaining: rabbitmqclusters.rabbitmq.com has 1 resource instances',
        reason: 'SomeResourcesRemain',
        status: 'True',
        type: 'NamespaceContentRemaining',
      },
      { status: 'True', type: 'NamespaceFinalizersRemaining' },
      { message: 'no type or status: left out' },
      'not a mapping: left out',
    ],
  },
};

const EXPECTED = [
  {
    type: 'NamespaceDeletionDiscoveryFailure',
    status: 'False',
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
    lastTransitionTime: '2026-11-14T09:12:50Z',
  },
  {
    type: 'NamespaceContentRemaining',
    status: 'True',
    reason: 'SomeResourcesRemain',
    message: 'Some resources are remaining: rabbitmqclusters.rabbitmq.com has 1 resource instances',
    lastTransitionTime: '2026-11-14T09:12:50Z',
  },
  { type: 'NamespaceFinalizersRemaining', status: 'True' },
];

describe('Namespace status.conditions', () => {
  it('YAML: every well-formed condition, in stored order, after the phase', () => {
    const text = `apiVersion: v1
kind: Namespace
metadata: {name: legacy-mq, uid: u-1, deletionTimestamp: "2026-11-14T09:12:44Z"}
spec: {finalizers: [kubernetes]}
status:
  conditions:
  - lastTransitionTime: "2026-11-14T09:12:50Z"
    message: All resources successfully discovered
    reason: ResourcesDiscovered
    status: "False"
    type: NamespaceDeletionDiscoveryFailure
  - lastTransitionTime: "2026-11-14T09:12:50Z"
    message: "Some resources are remaining: rabbitmqclusters.rabbitmq.com has 1 resource instances"
    reason: SomeResourcesRemain
    status: "True"
    type: NamespaceContentRemaining
  - {status: "True", type: NamespaceFinalizersRemaining}
  phase: Terminating
`;
    const { objects, problems } = parseManifestText(text, 'ns.yaml');
    expect(problems).toEqual([]);
    expect(objects[0].facts).toEqual({ namespaceFinalizers: ['kubernetes'], phase: 'Terminating', namespaceConditions: EXPECTED });
  });

  it('JSON: the fast path gives exactly what the general extractor gives', () => {
    const quick = fastObject(NAMESPACE);
    const ex = new Extractor(plainReader, 'ns.json');
    ex.document(NAMESPACE);
    expect(ex.problems).toEqual([]);
    expect(quick).toStrictEqual(ex.objects[0].object);
    expect(quick!.facts.namespaceConditions).toEqual(EXPECTED);
  });

  it('a condition field of the wrong type: the fast path declines, the extractor warns and keeps the rest', () => {
    const bad = { ...NAMESPACE, status: { conditions: [{ type: 'NamespaceContentRemaining', status: 'True', message: 3 }] } };
    expect(fastObject(bad)).toBeUndefined();
    const ex = new Extractor(plainReader, 'ns.json');
    ex.document(bad);
    expect(ex.problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'wrong-type', path: ['status', 'conditions', 0, 'message'] }),
    ]);
    expect(ex.objects[0].object.facts.namespaceConditions).toEqual([{ type: 'NamespaceContentRemaining', status: 'True' }]);
  });

  it('conditions: null, or an empty list: no fact', () => {
    for (const conditions of [null, []]) {
      expect(fastObject({ ...NAMESPACE, status: { phase: 'Active', conditions } })!.facts).toEqual({
        namespaceFinalizers: ['kubernetes'],
        phase: 'Active',
      });
    }
  });
});

// The facts of a dump made with `kubectl get apiservices,validatingwebhookconfigurations,
// mutatingwebhookconfigurations,endpointslices,endpoints -A -o yaml` (or -o json): what an APIService serves and
// whether it is Available, each webhook's rules, selectors, failure policy and Service, how many endpoints are ready.

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseManifestText } from '../../server/src/sources/manifests/parseManifest';
import { apiService, endpointSlice, endpoints, webhookConfiguration } from '../helpers/clusterBlockers';
import { objectYaml, type ObjectSpec } from '../helpers/manifests';
import { parse } from 'yaml';

const specs: ObjectSpec[] = [
  apiService(
    'v1beta1.metrics.k8s.io',
    { namespace: 'monitoring', name: 'prometheus-adapter' },
    { status: 'False', reason: 'MissingEndpoints' },
  ),
  apiService('v1.apps', undefined, { status: 'True' }),
  webhookConfiguration('Validating', 'guard', [
    {
      name: 'v.guard.example.com',
      service: { namespace: 'guard', name: 'guard-webhook' },
      rules: [
        {
          operations: ['UPDATE', 'DELETE'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['configmaps', 'namespaces/finalize'],
          scope: 'Namespaced',
        },
      ],
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
      objectSelector: { matchLabels: { guarded: 'yes' } },
    },
    {
      name: 'by-url.example.com',
      url: 'https://guard.example.com',
      failurePolicy: 'Ignore',
      rules: [],
      matchConditions: [{ name: 'x', expression: 'true' }],
    },
  ]),
  webhookConfiguration('Mutating', 'empty', []),
  endpointSlice('prometheus-adapter', 'monitoring', 0),
  endpointSlice('guard-webhook', 'guard', 2, 1),
  endpoints('guard-webhook', 'guard', 2),
  endpoints('idle', 'guard', 0),
];

/** As kubectl prints several kinds: one v1 List whose items carry their apiVersion and kind. */
const list = { apiVersion: 'v1', kind: 'List', items: specs.map((s) => parse(objectYaml(s))), metadata: { resourceVersion: '' } };

function facts(text: string, file: string) {
  const { objects, problems } = parseManifestText(text, file);
  expect(problems.filter((p) => p.severity !== 'info')).toEqual([]);
  return Object.fromEntries(objects.map((o) => [`${o.kind}/${o.name}`, o.facts]));
}

const expected = {
  'APIService/v1beta1.metrics.k8s.io': {
    apiService: {
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      service: { namespace: 'monitoring', name: 'prometheus-adapter' },
      available: { status: 'False', reason: 'MissingEndpoints' },
    },
  },
  'APIService/v1.apps': { apiService: { group: 'apps', version: 'v1', available: { status: 'True' } } },
  'ValidatingWebhookConfiguration/guard': {
    webhooks: [
      {
        name: 'v.guard.example.com',
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        rules: [
          {
            operations: ['UPDATE', 'DELETE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps', 'namespaces/finalize'],
            scope: 'Namespaced',
          },
        ],
        namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
        objectSelector: { matchLabels: { guarded: 'yes' } },
        service: { namespace: 'guard', name: 'guard-webhook' },
      },
      { name: 'by-url.example.com', failurePolicy: 'Ignore', matchPolicy: 'Equivalent', rules: [], matchConditions: 1 },
    ],
  },
  'MutatingWebhookConfiguration/empty': { webhooks: [] },
  'EndpointSlice/prometheus-adapter-abcde': { readyEndpoints: 0 },
  'EndpointSlice/guard-webhook-abcde': { readyEndpoints: 2 },
  'Endpoints/guard-webhook': { readyEndpoints: 2 },
  'Endpoints/idle': { readyEndpoints: 0 },
};

describe('a dump of the objects that block namespaces', () => {
  it('gives the same facts from YAML and from JSON', () => {
    expect(facts(stringify(list), 'dump.yaml')).toEqual(expected);
    expect(facts(JSON.stringify(list), 'dump.json')).toEqual(expected);
  });

  it('warns about a field of the wrong type and keeps the rest', () => {
    const bad = parse(objectYaml(specs[2]));
    bad.webhooks[0].failurePolicy = 3;
    const { objects, problems } = parseManifestText(stringify(bad), 'bad.yaml');
    expect(problems.map((p) => p.reason)).toEqual([expect.stringContaining('webhooks[0].failurePolicy must be a string')]);
    expect(objects[0].facts.webhooks![0]).toMatchObject({ name: 'v.guard.example.com', failurePolicy: 'Fail' });
  });
});

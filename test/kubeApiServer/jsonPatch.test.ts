// The API test server's JSON patch (RFC 6902) as a way out sends it: `test` before the change, `replace` of a member
// that must be there (a webhook's failurePolicy), and any failed operation failing the whole patch.
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from '../../testkit/kubeApiServer/jsonPatch';

const config = () => ({
  kind: 'ValidatingWebhookConfiguration',
  webhooks: [
    { name: 'a.example.com', failurePolicy: 'Ignore' },
    { name: 'b.example.com', failurePolicy: 'Fail' },
  ],
});
const ignoreB = [
  { op: 'test', path: '/webhooks/1/name', value: 'b.example.com' },
  { op: 'test', path: '/webhooks/1/failurePolicy', value: 'Fail' },
  { op: 'replace', path: '/webhooks/1/failurePolicy', value: 'Ignore' },
];

describe('JSON patch, as the API test server applies it', () => {
  it('test, then replace: the member is set, nothing else changes, the input is not touched', () => {
    const doc = config();
    expect(applyJsonPatch(doc, ignoreB)).toEqual({
      kind: 'ValidatingWebhookConfiguration',
      webhooks: [
        { name: 'a.example.com', failurePolicy: 'Ignore' },
        { name: 'b.example.com', failurePolicy: 'Ignore' },
      ],
    });
    expect(doc).toEqual(config());
  });

  it('a test that fails (reordered webhooks, a changed policy, an absent member) fails the whole patch', () => {
    const reordered = { ...config(), webhooks: [...config().webhooks].reverse() };
    expect(() => applyJsonPatch(reordered, ignoreB)).toThrow(new JsonPatchError('testing value /webhooks/1/name failed'));
    const changed = config();
    changed.webhooks[1].failurePolicy = 'Ignore';
    expect(() => applyJsonPatch(changed, ignoreB)).toThrow('testing value /webhooks/1/failurePolicy failed');
    const unset = { webhooks: [{ name: 'a.example.com' }, { name: 'b.example.com' }] };
    expect(() => applyJsonPatch(unset, ignoreB)).toThrow('testing value /webhooks/1/failurePolicy failed');
  });

  it('replace needs the member there (add would create it); on an array it replaces the element in place', () => {
    expect(() =>
      applyJsonPatch({ webhooks: [{ name: 'b' }] }, [{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }]),
    ).toThrow('replace operation does not apply: doc is missing key: /webhooks/0/failurePolicy');
    expect(applyJsonPatch({ webhooks: [{ name: 'b' }] }, [{ op: 'add', path: '/webhooks/0/failurePolicy', value: 'Ignore' }])).toEqual({
      webhooks: [{ name: 'b', failurePolicy: 'Ignore' }],
    });
    expect(applyJsonPatch({ list: ['x', 'y'] }, [{ op: 'replace', path: '/list/0', value: 'z' }])).toEqual({ list: ['z', 'y'] });
    expect(() => applyJsonPatch({ list: ['x'] }, [{ op: 'replace', path: '/list/1', value: 'z' }])).toThrow(JsonPatchError);
    expect(() => applyJsonPatch({ list: ['x'] }, [{ op: 'replace', path: '/list/-', value: 'z' }])).toThrow(JsonPatchError);
  });

  it('the test of an ownerReference uid, then replace of the reference, as fixing an owner would send it', () => {
    const child = { metadata: { ownerReferences: [{ kind: 'ConfigMap', name: 'old', uid: 'u-old' }] } };
    const to = { apiVersion: 'v1', kind: 'ConfigMap', name: 'new', uid: 'u-new' };
    const ops = [
      { op: 'test', path: '/metadata/ownerReferences/0/uid', value: 'u-old' },
      { op: 'replace', path: '/metadata/ownerReferences/0', value: to },
    ];
    expect(applyJsonPatch(child, ops)).toEqual({ metadata: { ownerReferences: [to] } });
    const moved = { metadata: { ownerReferences: [{ ...to }] } };
    expect(() => applyJsonPatch(moved, ops)).toThrow('testing value /metadata/ownerReferences/0/uid failed');
  });
});

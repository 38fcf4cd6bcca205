// Names, places, ages and counts as the client writes them.

import { describe, expect, it } from 'vitest';
import { countOf } from '../../shared/src/kinds';
import { describeObject, formatAge, locationLabel } from '../../client/src/logic/objects';

describe('objects', () => {
  it('names objects as the CLI does', () => {
    expect(describeObject({ kind: 'Deployment', namespace: 'shop', name: 'web' })).toBe('Deployment shop/web');
    expect(describeObject({ kind: 'Namespace', namespace: '', name: 'shop' })).toBe('Namespace shop');
  });

  it('labels a location with the file name and a 1-based line', () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    expect(locationLabel({ uri: 'file:///ws/my%20app/web.yaml', range })).toBe('web.yaml:1');
    expect(locationLabel({ uri: 'untitled:Untitled-1', range })).toBe('untitled:Untitled-1:1');
    expect(locationLabel({ uri: 'file:///ws/bad%zz.yaml', range })).toBe('bad%zz.yaml:1');
    // A live object's read-only document has no line worth naming.
    expect(locationLabel({ uri: 'kube-gc-lens-live:/kind-dev/shop/Pod/held.yaml?uid=u-1', range })).toBe('held.yaml (live, read-only)');
  });

  it('formats ages with the two largest units', () => {
    expect([0, 45, 60, 754, 3600, 18720, 86400, 273600, 90000].map(formatAge)).toEqual([
      '0s',
      '45s',
      '1m',
      '12m',
      '1h',
      '5h 12m',
      '1d',
      '3d 4h',
      '1d 1h',
    ]);
    expect(formatAge(-5)).toBe('0s');
  });

  it('counts kinds with their plural', () => {
    expect(['Pod', 'NetworkPolicy', 'Ingress', 'Endpoints', 'Gateway', 'StorageClass'].map((k) => countOf(k, 2))).toEqual([
      '2 Pods',
      '2 NetworkPolicies',
      '2 Ingresses',
      '2 Endpoints',
      '2 Gateways',
      '2 StorageClasses',
    ]);
    expect(countOf('Pod', 1)).toBe('1 Pod');
  });
});

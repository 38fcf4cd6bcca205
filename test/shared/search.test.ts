// Finding objects by what a person types (server/src/engine/objectSearch.ts): every word in `Kind namespace/name
// group` or a uid prefix, exact names first, then namespace/kind/name; the first `limit` and the total count.

import { describe, expect, it } from 'vitest';
import { matchesQuery, matchRank, queryWords, searchObjects, searchText, type Searchable } from '../../shared/src/search';

const obj = (kind: string, namespace: string, name: string, apiVersion = 'v1', uid = `uid-${kind}-${namespace}-${name}`): Searchable => ({
  apiVersion,
  kind,
  namespace,
  name,
  uid,
});
const label = (o: Searchable) => (o.namespace ? `${o.kind} ${o.namespace}/${o.name}` : `${o.kind} ${o.name}`);

const objects: Searchable[] = [
  obj('Pod', 'shop', 'web-7d9f-abcde'),
  obj('Deployment', 'shop', 'web', 'apps/v1', '3f2a4b5c-1111-4222-8333-444455556666'),
  obj('ReplicaSet', 'shop', 'web-7d9f', 'apps/v1'),
  obj('Service', 'shop', 'web'),
  obj('Namespace', '', 'shop'),
  obj('ConfigMap', 'shop', 'settings'),
  obj('Pod', 'frontend', 'webshop-1'),
  obj('Deployment', 'frontend', 'webshop', 'apps/v1'),
  obj('ClusterRole', '', 'web-reader', 'rbac.authorization.k8s.io/v1'),
  obj('Kafka', 'kafka', 'Events', 'kafka.strimzi.io/v1beta2'),
];
const find = (query: string, limit?: number) => {
  const r = searchObjects(objects, query, { limit });
  return { labels: r.items.map(label), total: r.total };
};

describe('queryWords and searchText', () => {
  it('lower-cases the words, drops duplicates and empty ones, longest first; splits `namespace/name`', () => {
    expect(queryWords('  Pod   SHOP/web pod ')).toEqual([{ text: 'shop/web', ns: 'shop', name: 'web' }, { text: 'pod' }]);
    expect(queryWords('')).toEqual([]);
    expect(queryWords(undefined)).toEqual([]);
    expect(queryWords('a/b/c')).toEqual([{ text: 'a/b/c' }]);
  });

  it('is `kind namespace/name group` in lower case', () => {
    expect(searchText(objects[1])).toBe('deployment shop/web apps');
    expect(searchText(objects[4])).toBe('namespace shop');
    expect(searchText(objects[9])).toBe('kafka kafka/events kafka.strimzi.io');
  });
});

describe('matching', () => {
  it('needs every word, case-insensitive, anywhere in kind, namespace, name or group', () => {
    expect(find('pod web').labels).toEqual(['Pod frontend/webshop-1', 'Pod shop/web-7d9f-abcde']);
    expect(find('web pod').labels).toEqual(find('pod web').labels); // word order does not matter
    expect(find('POD WEB').labels).toEqual(find('pod web').labels);
    expect(find('apps web').labels).toEqual(['Deployment shop/web', 'Deployment frontend/webshop', 'ReplicaSet shop/web-7d9f']);
    expect(find('rbac').labels).toEqual(['ClusterRole web-reader']);
    expect(find('strimzi events').labels).toEqual(['Kafka kafka/Events']);
    expect(find('nothing-like-this').labels).toEqual([]);
  });

  it('matches `namespace/name` across the slash, and a namespace or name part of it', () => {
    expect(find('shop/web').labels).toEqual([
      'Deployment shop/web',
      'Service shop/web',
      'Pod shop/web-7d9f-abcde',
      'ReplicaSet shop/web-7d9f',
    ]);
    expect(find('op/we').labels).toEqual([
      'Deployment shop/web',
      'Pod shop/web-7d9f-abcde',
      'ReplicaSet shop/web-7d9f',
      'Service shop/web',
    ]);
    expect(find('shop/').total).toBe(5); // everything in namespace shop, not Namespace shop (cluster-scoped: no slash)
    expect(find('/settings').labels).toEqual(['ConfigMap shop/settings']);
    expect(find('shop/web pod').labels).toEqual(['Pod shop/web-7d9f-abcde']);
    expect(find('a/b/c').labels).toEqual([]);
  });

  it('matches the start of a uid from 8 characters on', () => {
    expect(find('3f2a4b5c').labels).toEqual(['Deployment shop/web']);
    expect(find('3F2A4B5C-1111').labels).toEqual(['Deployment shop/web']);
    expect(find('3f2a4b5').labels).toEqual([]); // too short to be a uid
    expect(find('4b5c1111').labels).toEqual([]); // not its start
  });

  it('matchesQuery and matchRank agree with searchObjects; no words match everything', () => {
    for (const query of ['pod web', 'shop/web', 'apps', '3f2a4b5c', 'zzz', '']) {
      const expected = new Set(searchObjects(objects, query).items);
      for (const o of objects) expect(matchesQuery(o, query), `${query}: ${label(o)}`).toBe(expected.has(o));
    }
    expect(matchRank(objects[0], [])).toBe(2);
  });

  it('searches the text itself when a name or namespace holds a slash (not Kubernetes, but not lost)', () => {
    const odd = obj('Thing', 'a/b', 'c/d');
    expect(matchesQuery(odd, 'b/c')).toBe(true);
    expect(matchesQuery(odd, 'a/b/c/d')).toBe(true);
    expect(matchesQuery(odd, 'x/y')).toBe(false);
  });
});

describe('order, limit and total', () => {
  it('puts exact names first (name, namespace/name, uid), then names that start with a word, then the rest', () => {
    expect(find('web').labels).toEqual([
      'Deployment shop/web',
      'Service shop/web', // exact name
      'ClusterRole web-reader',
      'Deployment frontend/webshop',
      'Pod frontend/webshop-1',
      'Pod shop/web-7d9f-abcde',
      'ReplicaSet shop/web-7d9f', // starts with
    ]);
    expect(find('shop').labels.slice(0, 1)).toEqual(['Namespace shop']);
    expect(find('shop/web-7d9f').labels).toEqual(['ReplicaSet shop/web-7d9f', 'Pod shop/web-7d9f-abcde']);
  });

  it('orders by namespace (cluster-scoped first), kind and name without a query', () => {
    expect(find('').labels).toEqual([
      'ClusterRole web-reader',
      'Namespace shop',
      'Deployment frontend/webshop',
      'Pod frontend/webshop-1',
      'Kafka kafka/Events',
      'ConfigMap shop/settings',
      'Deployment shop/web',
      'Pod shop/web-7d9f-abcde',
      'ReplicaSet shop/web-7d9f',
      'Service shop/web',
    ]);
  });

  it('keeps the first `limit` in that order and counts every match', () => {
    expect(find('web', 3)).toEqual({ labels: ['Deployment shop/web', 'Service shop/web', 'ClusterRole web-reader'], total: 7 });
    expect(find('', 0)).toEqual({ labels: [], total: 10 });
    expect(find('', 2.7).labels).toEqual(['ClusterRole web-reader', 'Namespace shop']);
    expect(find('', -1)).toEqual({ labels: [], total: 10 });
    expect(find('', Infinity).total).toBe(10);
  });

  it('filters by namespace', () => {
    expect(searchObjects(objects, 'web', { namespace: 'frontend' }).items.map(label)).toEqual([
      'Deployment frontend/webshop',
      'Pod frontend/webshop-1',
    ]);
    expect(searchObjects(objects, '', { namespace: '' }).items.map(label)).toEqual(['ClusterRole web-reader', 'Namespace shop']);
  });

  it('gives the same first page as a full sort, on thousands of objects in any order', () => {
    const many: Searchable[] = [];
    for (let i = 0; i < 5000; i++) {
      const n = (i * 7919) % 5003;
      many.push(obj(['Pod', 'ReplicaSet', 'ConfigMap'][n % 3], `team-${n % 17}`, `app-${n % 101}-${n}`, 'v1', `uid-${n}`));
    }
    for (const query of ['', 'pod', 'app-1', 'team-3/app-4', 'uid']) {
      const all = searchObjects(many, query);
      const page = searchObjects(many, query, { limit: 50 });
      expect(page.total).toBe(all.total);
      expect(page.items).toEqual(all.items.slice(0, 50));
    }
  });

  it('answers on 100,000 objects with the right totals, capped', () => {
    const many: Searchable[] = [];
    for (let i = 0; i < 100_000; i++) many.push(obj(i % 2 ? 'Pod' : 'ConfigMap', `ns-${i % 300}`, `object-${i}`, 'v1', `uid-${i}`));
    // ns-12/object-12, …/object-1212, …/object-12012 and the other names that start with it.
    const slashTotal = many.filter((o) => `${o.namespace}/${o.name}`.includes('ns-12/object-12')).length;
    const totals: Record<string, number> = { '': 100_000, pod: 50_000, 'ns-12/object-12': slashTotal, zzz: 0 };
    for (const [query, total] of Object.entries(totals)) {
      const r = searchObjects(many, query, { limit: 200 });
      expect(r.total).toBe(total);
      expect(r.items.length).toBe(Math.min(200, total));
    }
    expect(searchObjects(many, 'ns-12/object-12', { limit: 200 }).items[0].name).toBe('object-12');
  });
});

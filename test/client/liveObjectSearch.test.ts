// The live-object pickers' state (client/src/logic/liveObjectSearch.ts): a small cluster is listed once and filtered
// by VS Code; a large one is searched on the server as the user types (debounced, stale answers ignored, busy while
// waiting), with at most `limit` items and a note when there are more; the live object at the cursor first.

import { describe, expect, it } from 'vitest';
import { searchObjects } from '../../shared/src/search';
import type { ClusterObjectSearchResult, ObjectSummary } from '../../shared/src/protocol';
import {
  formatCount,
  LiveObjectSearch,
  objectQuery,
  queryKey,
  searchNote,
  searchPickItems,
  type SearchRequest,
  type SearchView,
  type Timers,
} from '../../client/src/logic/liveObjectSearch';

const summary = (kind: string, namespace: string, name: string, extra: Partial<ObjectSummary> = {}): ObjectSummary => ({
  apiVersion: kind === 'Deployment' || kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
  kind,
  namespace,
  name,
  uid: `uid-${kind}-${namespace}-${name}`,
  syntheticUid: false,
  beingDeleted: false,
  finalizers: [],
  ownerCount: 0,
  ...extra,
});

/** Timers run by hand: `advance(ms)`. */
class FakeTimers implements Timers {
  now = 0;
  private next = 1;
  private readonly due = new Map<number, { at: number; fn: () => void }>();
  set(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, fn });
    return id;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  get pending(): number {
    return this.due.size;
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.due]) {
      if (t.at <= this.now) {
        this.due.delete(id);
        t.fn();
      }
    }
  }
}

interface Call {
  request: SearchRequest;
  signal: AbortSignal;
  answer: (r?: ClusterObjectSearchResult) => Promise<void>;
  fail: (e: Error) => Promise<void>;
}

/** A server holding `objects`, whose answers come when the test says so (`answer()`: what the real one would say). */
function fakeServer(objects: ObjectSummary[]) {
  const calls: Call[] = [];
  const search = (request: SearchRequest, signal: AbortSignal) =>
    new Promise<ClusterObjectSearchResult>((resolve, reject) => {
      calls.push({
        request,
        signal,
        answer: async (r) => {
          resolve(r ?? searchObjects(objects, request.query, { limit: request.limit }));
          await flush();
        },
        fail: async (e) => {
          reject(e);
          await flush();
        },
      });
    });
  return { calls, search };
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function setUp(objects: ObjectSummary[], options: { limit?: number; atCursor?: ObjectSummary } = {}) {
  const server = fakeServer(objects);
  const timers = new FakeTimers();
  const views: SearchView[] = [];
  const search = new LiveObjectSearch({
    search: server.search,
    render: (v) => views.push(v),
    timers,
    limit: options.limit ?? 3,
    debounceMs: 150,
    atCursor: options.atCursor,
  });
  const last = () => views[views.length - 1];
  const labels = () => last().items.map((i) => i.label);
  return { server, timers, views, search, last, labels };
}

const shop = [
  summary('Namespace', '', 'shop'),
  summary('Deployment', 'shop', 'web'),
  summary('ReplicaSet', 'shop', 'web-7d9f'),
  summary('Pod', 'shop', 'web-7d9f-abcde'),
  summary('Pod', 'shop', 'web-7d9f-fghij'),
  summary('ConfigMap', 'shop', 'settings'),
  summary('Service', 'shop', 'web'),
];

describe('helpers', () => {
  it('formats counts and notes', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(searchNote({ items: new Array(200).fill(shop[0]), total: 12345 }, '')).toBe('200 of 12,345 objects: type to narrow');
    expect(searchNote({ items: new Array(200).fill(shop[0]), total: 1000 }, 'pod ')).toBe('200 of 1,000 matches: type more to narrow');
    expect(searchNote({ items: [shop[0]], total: 1 }, 'shop')).toBe('');
    expect(searchNote({ items: [], total: 0 }, ' xyz ')).toBe('no live object matches "xyz"');
    expect(searchNote({ items: [], total: 0 }, '')).toBe('no live objects');
  });

  it('keys queries by their words, whatever the case, spacing and order', () => {
    expect(queryKey('  Pod  shop/web ')).toBe(queryKey('shop/web pod'));
    expect(queryKey('   ')).toBe('');
  });

  it('names an object as a query that finds it first', () => {
    expect(objectQuery(summary('Deployment', 'shop', 'web'))).toBe('Deployment shop/web');
    expect(objectQuery(summary('Namespace', '', 'shop'))).toBe('Namespace shop');
    const first = searchObjects(shop, objectQuery(shop[1]), { limit: 1 }).items[0];
    expect(first).toBe(shop[1]);
  });

  it("builds today's items, the pinned object first while it matches, alwaysShow when asked", () => {
    const items = searchPickItems(shop.slice(1, 3), '', shop[2], true);
    expect(items).toEqual([
      { label: 'ReplicaSet shop/web-7d9f', description: 'apps/v1 · at cursor', uid: shop[2].uid, alwaysShow: true },
      { label: 'Deployment shop/web', description: 'apps/v1', uid: shop[1].uid, alwaysShow: true },
    ]);
    expect(searchPickItems(shop.slice(1, 3), 'settings', shop[5], false).map((i) => i.label)).toEqual([
      'ConfigMap shop/settings',
      'Deployment shop/web',
      'ReplicaSet shop/web-7d9f',
    ]);
    expect(searchPickItems(shop.slice(1, 3), 'deploy', shop[5], false).map((i) => i.label)).toEqual([
      'Deployment shop/web',
      'ReplicaSet shop/web-7d9f',
    ]);
  });
});

describe('a small cluster: listed once, filtered by VS Code', () => {
  it('shows every object without alwaysShow, and never asks the server again', async () => {
    const t = setUp(shop.slice(0, 3));
    const started = t.search.start();
    expect(t.last()).toMatchObject({ items: [], busy: true, complete: false });
    await t.server.calls[0].answer();
    expect(await started).toMatchObject({ total: 3 });
    expect(t.server.calls[0].request).toEqual({ query: '', limit: 3 });
    expect(t.last()).toMatchObject({ busy: false, note: '', complete: true });
    expect(t.labels()).toEqual(['Namespace shop', 'Deployment shop/web', 'ReplicaSet shop/web-7d9f']);
    expect(t.last().items.every((i) => i.alwaysShow === undefined)).toBe(true);
    const renders = t.views.length;
    t.search.setQuery('web');
    t.timers.advance(1000);
    expect(t.server.calls).toHaveLength(1);
    expect(t.views).toHaveLength(renders);
    expect(t.search.object(shop[1].uid)).toBe(shop[1]);
  });

  it('puts the live object of the manifest at the cursor first, found in the list itself', async () => {
    const manifest = summary('Deployment', 'shop', 'web', { uid: 'synthetic:apps/Deployment/shop/web', syntheticUid: true });
    const t = setUp(shop.slice(0, 3), { atCursor: manifest });
    void t.search.start();
    await t.server.calls[0].answer();
    expect(t.server.calls).toHaveLength(1);
    expect(t.last().pinned).toBe(shop[1]);
    expect(t.last().items[0]).toMatchObject({ label: 'Deployment shop/web', description: 'apps/v1 · at cursor' });
  });

  it('an empty cluster answers total 0 (the picker then says so and closes)', async () => {
    const t = setUp([]);
    const started = t.search.start();
    await t.server.calls[0].answer();
    expect(await started).toEqual({ items: [], total: 0 });
  });

  it('a failing first request rejects start()', async () => {
    const t = setUp(shop);
    const started = t.search.start();
    await t.server.calls[0].fail(new Error('not connected to a cluster'));
    await expect(started).rejects.toThrow('not connected to a cluster');
  });
});

describe('a large cluster: searched on the server as the user types', () => {
  async function started(atCursor?: ObjectSummary) {
    const t = setUp(shop, { atCursor });
    void t.search.start();
    await t.server.calls[0].answer();
    return t;
  }

  it('shows the first page with alwaysShow items and says how many there are', async () => {
    const t = await started();
    expect(t.last()).toMatchObject({ busy: false, complete: false, note: '3 of 7 objects: type to narrow' });
    expect(t.labels()).toEqual(['Namespace shop', 'ConfigMap shop/settings', 'Deployment shop/web']);
    expect(t.last().items.every((i) => i.alwaysShow === true)).toBe(true);
  });

  it('asks once the typing pauses (150 ms), keeping the items shown until the answer', async () => {
    const t = await started();
    const before = t.last().items;
    t.search.setQuery('w');
    t.timers.advance(100);
    t.search.setQuery('we');
    t.timers.advance(100);
    t.search.setQuery('web');
    expect(t.server.calls).toHaveLength(1);
    // Meanwhile: busy, the same items (VS Code names an accepted item by its index: no replacement per keystroke).
    expect(t.last()).toMatchObject({ busy: true });
    expect(t.last().items).toEqual(before);
    t.timers.advance(150);
    expect(t.server.calls).toHaveLength(2);
    expect(t.server.calls[1].request).toEqual({ query: 'web', limit: 3 });
    expect(t.last().busy).toBe(true);
    await t.server.calls[1].answer();
    expect(t.last()).toMatchObject({ busy: false, note: '3 of 5 matches: type more to narrow' });
    expect(t.labels()).toEqual(['Deployment shop/web', 'Service shop/web', 'Pod shop/web-7d9f-abcde']);
  });

  it("finds what VS Code's fuzzy filter alone would not (words in any order, `namespace/name`)", async () => {
    const t = await started();
    t.search.setQuery('abcde pod');
    t.timers.advance(150);
    await t.server.calls[1].answer();
    expect(t.labels()).toEqual(['Pod shop/web-7d9f-abcde']);
    expect(t.last().items[0].alwaysShow).toBe(true);
    t.search.setQuery('shop/settings');
    t.timers.advance(150);
    await t.server.calls[2].answer();
    expect(t.labels()).toEqual(['ConfigMap shop/settings']);
    expect(t.last().note).toBe('');
  });

  it('ignores a late answer to an older text, and cancels its request', async () => {
    const t = await started();
    t.search.setQuery('pod');
    t.timers.advance(150);
    const older = t.server.calls[1];
    t.search.setQuery('settings');
    expect(older.signal.aborted).toBe(true);
    t.timers.advance(150);
    const newer = t.server.calls[2];
    await newer.answer();
    expect(t.labels()).toEqual(['ConfigMap shop/settings']);
    await older.answer();
    expect(t.labels()).toEqual(['ConfigMap shop/settings']);
    expect(t.last().busy).toBe(false);
  });

  it('does not ask again for the text already shown (case, spaces), and goes back to it at once', async () => {
    const t = await started();
    t.search.setQuery('web');
    t.timers.advance(150);
    await t.server.calls[1].answer();
    t.search.setQuery('WEB  ');
    t.timers.advance(1000);
    expect(t.server.calls).toHaveLength(2);
    t.search.setQuery('web p');
    t.search.setQuery('web');
    expect(t.last()).toMatchObject({ busy: false });
    expect(t.timers.pending).toBe(0);
    expect(t.labels()).toEqual(['Deployment shop/web', 'Service shop/web', 'Pod shop/web-7d9f-abcde']);
  });

  it('says when nothing matches, and when the server fails (keeping what it showed)', async () => {
    const t = await started();
    t.search.setQuery('nothing');
    t.timers.advance(150);
    await t.server.calls[1].answer();
    expect(t.last()).toMatchObject({ items: [], note: 'no live object matches "nothing"' });
    t.search.setQuery('');
    t.timers.advance(150);
    await t.server.calls[2].fail(new Error('not connected'));
    expect(t.last()).toMatchObject({ busy: false, note: 'cannot search: not connected' });
  });

  it('searches text typed before the first answer once it arrives', async () => {
    const t = setUp(shop);
    void t.search.start();
    t.search.setQuery('settings');
    expect(t.timers.pending).toBe(0);
    await t.server.calls[0].answer();
    t.timers.advance(150);
    expect(t.server.calls[1].request.query).toBe('settings');
    await t.server.calls[1].answer();
    expect(t.labels()).toEqual(['ConfigMap shop/settings']);
  });

  it('looks up the live object of the manifest at the cursor and keeps it first while it matches', async () => {
    const manifest = summary('Pod', 'shop', 'web-7d9f-fghij', { uid: 'from-another-cluster' });
    const t = await started(manifest);
    const lookup = t.server.calls[1];
    expect(lookup.request).toEqual({ query: 'Pod shop/web-7d9f-fghij', limit: 20 });
    expect(t.last().busy).toBe(true);
    await lookup.answer();
    expect(t.last()).toMatchObject({ busy: false, pinned: shop[4] });
    expect(t.last().items[0]).toMatchObject({ label: 'Pod shop/web-7d9f-fghij', description: 'v1 · at cursor', alwaysShow: true });
    expect(t.last().items).toHaveLength(4);
    t.search.setQuery('settings');
    t.timers.advance(150);
    await t.server.calls[2].answer();
    expect(t.labels()).toEqual(['ConfigMap shop/settings']); // the pinned one does not match
    t.search.setQuery('fghij');
    t.timers.advance(150);
    await t.server.calls[3].answer();
    expect(t.labels()).toEqual(['Pod shop/web-7d9f-fghij']);
    expect(t.last().items[0].description).toBe('v1 · at cursor');
    expect(t.search.object(shop[4].uid)).toBe(shop[4]);
  });

  it("accepts only an object that matches the text typed (an older answer's item, or a replaced list's, is refused)", async () => {
    const t = await started();
    expect(t.search.accepts(shop[0].uid)).toBe(true);
    expect(t.search.accepts('unknown-uid')).toBe(false);
    t.search.setQuery('namespace shop');
    // Before the answer: the items shown are the first page's; Enter on the one that matches is fine.
    expect(t.search.accepts(shop[0].uid)).toBe(true);
    expect(t.search.accepts(shop[5].uid)).toBe(false);
    t.timers.advance(150);
    await t.server.calls[1].answer();
    expect(t.labels()).toEqual(['Namespace shop']);
    expect(t.search.accepts(shop[5].uid)).toBe(false);
  });

  it('a small cluster accepts whatever VS Code shows', async () => {
    const t = setUp(shop.slice(0, 3));
    void t.search.start();
    await t.server.calls[0].answer();
    t.search.setQuery('dpl web'); // VS Code's fuzzy filter matches Deployment shop/web; ours would not
    expect(t.search.accepts(shop[1].uid)).toBe(true);
  });

  it('dispose() cancels what is pending and renders nothing more', async () => {
    const t = await started();
    t.search.setQuery('pod');
    t.timers.advance(150);
    const call = t.server.calls[1];
    const renders = t.views.length;
    t.search.dispose();
    expect(call.signal.aborted).toBe(true);
    await call.answer();
    t.search.setQuery('web');
    t.timers.advance(1000);
    expect(t.views).toHaveLength(renders);
    expect(t.server.calls).toHaveLength(2);
  });
});

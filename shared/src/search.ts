// Finding objects by what a person types (the editor's live-object pickers, kubeGcLens/cluster/searchObjects).
// Every whitespace-separated word of the query, case-insensitive, must occur in `Kind namespace/name group` (so
// `pod web`, `shop/web`, `apps` all work), or be the start of the object's uid (a word of 8 characters or more:
// the findings print uids as `3f2a4b5c…`). Order: a word that names the object exactly (its name, `namespace/name`
// or a uid prefix) first, then a word its name starts with, then the rest; within each, by namespace, kind, name.
//
// One pass over the objects: the best `limit` matches are kept in a bounded heap while `total` counts them all, so a
// query on 100,000 objects costs O(n log limit), never a sort of everything. Pure: shared by the language server and
// the VS Code client (which filters locally what it already holds, with the same answers).

import type { ObjectIdentity } from './wire/objects';

export type Searchable = Pick<ObjectIdentity, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'uid'>;

export interface SearchOptions {
  /** Only the objects of this namespace (`""`: cluster-scoped ones). */
  namespace?: string;
  /** At most this many items (the first in the order above); every match when absent. */
  limit?: number;
}

export interface SearchResult<T> {
  items: T[];
  /** How many objects match in all (`items` holds the first `limit` of them). */
  total: number;
}

/** A word this long or longer also matches the start of a uid. */
export const UID_PREFIX_MIN = 8;

/** One word of a query, lower case; `ns`/`name`: its two sides when it holds one `/` (`shop/web`). */
export interface QueryWord {
  text: string;
  ns?: string;
  name?: string;
}

/** The query's words: lower case, without duplicates, longest first (the most selective is tried first). */
export function queryWords(query: string | undefined): QueryWord[] {
  const words = [
    ...new Set(
      (query ?? '')
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== ''),
    ),
  ].sort((a, b) => b.length - a.length);
  return words.map((text) => {
    const slash = text.indexOf('/');
    return slash >= 0 && text.indexOf('/', slash + 1) < 0 ? { text, ns: text.slice(0, slash), name: text.slice(slash + 1) } : { text };
  });
}

/** `deployment shop/web apps`, `namespace shop`: what the words are looked for in. */
export function searchText(o: Searchable): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}${groupOf(o.apiVersion) ? ` ${groupOf(o.apiVersion)}` : ''}`.toLowerCase();
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash > 0 ? apiVersion.slice(0, slash) : '';
}

// Kinds, namespaces and groups are few: their lower-case forms are remembered (bounded), so that a query over
// 100,000 objects lower-cases only names, and builds no string per object.
const MEMO_MAX = 50_000;
const lowerKind = new Map<string, string>();
const lowerNamespace = new Map<string, string>();
const lowerGroup = new Map<string, string>();

function lower(memo: Map<string, string>, s: string, make: (s: string) => string = (x) => x.toLowerCase()): string {
  let l = memo.get(s);
  if (l === undefined) {
    l = make(s);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(s, l);
  }
  return l;
}

const uidHas = (o: Searchable, w: string): boolean =>
  w.length >= UID_PREFIX_MIN && o.uid.length >= w.length && o.uid.slice(0, w.length).toLowerCase() === w;

/**
 * How well `o` matches the words (from queryWords): -1 not at all, 0 a word names it exactly (name, namespace/name,
 * uid prefix), 1 its name (or namespace/name) starts with a word, 2 otherwise. No words: everything matches, 2.
 * The same as looking for each word in searchText(o), without building that text.
 */
export function matchRank(o: Searchable, words: readonly QueryWord[]): number {
  if (words.length === 0) return 2;
  const kind = lower(lowerKind, o.kind);
  const ns = lower(lowerNamespace, o.namespace);
  const group = lower(lowerGroup, o.apiVersion, (v) => groupOf(v).toLowerCase());
  const name = o.name.toLowerCase();
  // Kubernetes names hold no `/`; if these do, the text itself is searched.
  const odd = ns.includes('/') || name.includes('/');
  for (const w of words) {
    const t = w.text;
    let found: boolean;
    if (odd) found = searchText(o).includes(t);
    else if (w.ns !== undefined) found = ns !== '' && ns.endsWith(w.ns) && name.startsWith(w.name!);
    else found = name.includes(t) || ns.includes(t) || kind.includes(t) || group.includes(t);
    if (!found && !uidHas(o, t)) return -1;
  }
  let rank = 2;
  for (const w of words) {
    if (w.text === name || (ns !== '' && w.ns === ns && w.name === name) || uidHas(o, w.text)) return 0;
    if (name.startsWith(w.text) || (ns !== '' && w.ns === ns && name.startsWith(w.name!))) rank = 1;
  }
  return rank;
}

/** Does `o` match the query (as searchObjects decides)? */
export function matchesQuery(o: Searchable, query: string | undefined): boolean {
  return matchRank(o, queryWords(query)) >= 0;
}

interface Ranked<T> {
  o: T;
  rank: number;
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** The result order: rank, then namespace, kind, name (and uid, so that it is total and deterministic). */
function compareRanked<T extends Searchable>(a: Ranked<T>, b: Ranked<T>): number {
  return (
    a.rank - b.rank || cmp(a.o.namespace, b.o.namespace) || cmp(a.o.kind, b.o.kind) || cmp(a.o.name, b.o.name) || cmp(a.o.uid, b.o.uid)
  );
}

/** The objects that match `query`, best first, at most `limit` of them, and how many match in all. */
export function searchObjects<T extends Searchable>(
  objects: Iterable<T>,
  query: string | undefined,
  options: SearchOptions = {},
): SearchResult<T> {
  const words = queryWords(query);
  const limit = options.limit === undefined || !Number.isFinite(options.limit) ? Infinity : Math.max(0, Math.floor(options.limit));
  const { namespace } = options;
  // A max-heap on the order: its root is the worst item kept, which a better match replaces.
  const kept: Ranked<T>[] = [];
  let total = 0;
  for (const o of objects) {
    if (namespace !== undefined && o.namespace !== namespace) continue;
    const rank = matchRank(o, words);
    if (rank < 0) continue;
    total++;
    if (limit === 0) continue;
    const r = { o, rank };
    if (limit === Infinity) kept.push(r);
    else if (kept.length < limit) heapPush(kept, r);
    else if (compareRanked(r, kept[0]) < 0) heapReplaceRoot(kept, r);
  }
  kept.sort(compareRanked);
  return { items: kept.map((r) => r.o), total };
}

function heapPush<T extends Searchable>(heap: Ranked<T>[], r: Ranked<T>): void {
  heap.push(r);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compareRanked(heap[i], heap[parent]) <= 0) break;
    [heap[i], heap[parent]] = [heap[parent], heap[i]];
    i = parent;
  }
}

function heapReplaceRoot<T extends Searchable>(heap: Ranked<T>[], r: Ranked<T>): void {
  heap[0] = r;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let largest = i;
    if (left < heap.length && compareRanked(heap[left], heap[largest]) > 0) largest = left;
    if (right < heap.length && compareRanked(heap[right], heap[largest]) > 0) largest = right;
    if (largest === i) return;
    [heap[i], heap[largest]] = [heap[largest], heap[i]];
    i = largest;
  }
}

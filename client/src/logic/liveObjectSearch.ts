// The live-object pickers (Open Live Object…, Simulate Delete… on the live cluster) on a cluster of any size: the
// server searches (kubeGcLens/cluster/searchObjects) and answers at most PICK_LIMIT objects with the number of
// matches, so a 100,000-object cluster is never sent whole. This is the picker's state, without VS Code: the first
// answer decides the mode, and the vscode module around it (client/src/liveObjectPicker.ts) only shows `SearchView`s.
//
// - Complete: the first answer holds every object in scope (a small cluster). The items are set once and VS Code's
//   own filter narrows them as the user types, as a plain quick pick does; the server is not asked again.
// - Search: each change of the text asks the server again, DEBOUNCE_MS after the last keystroke; the request before
//   it is cancelled and a late answer to it ignored; `busy` meanwhile. Items carry `alwaysShow`, so that VS Code's
//   fuzzy filter never hides what the server found (`web pod` finds Pod shop/web, which VS Code alone would not).
//   The items change only when an answer arrives, never per keystroke: VS Code names an accepted item by its index
//   in the list the extension last set, so every replacement is a moment where Enter could pick the wrong object.
//   For the same reason an accepted item that does not match the text typed is refused (`accepts`).
//
// With `atCursor` (Simulate Delete from a manifest), the live object that manifest describes (same uid, or same group,
// kind, namespace and name) comes first, marked "at cursor", for as long as it matches the text.

import { matchRank, queryWords } from '../../../shared/src/search';
import type { ClusterObjectSearchResult, ObjectSummary } from '../../../shared/src/protocol';
import { matchingLiveObject, objectPickItems, type ObjectPickItem } from './pickItems';

/** At most this many objects are shown (and asked for). */
export const PICK_LIMIT = 200;
/** Quiet time after a keystroke before the server is asked. */
export const DEBOUNCE_MS = 150;
/** How many objects the search for the one at the cursor asks for (its exact name sorts first). */
const AT_CURSOR_LIMIT = 20;

export interface SearchPickItem extends ObjectPickItem {
  /** Shown whatever VS Code's own filter thinks (the server already matched it). */
  alwaysShow?: boolean;
}

export interface SearchRequest {
  query: string;
  limit: number;
}

/** Asks the server; `signal` aborts when the answer is no longer wanted (the vscode side cancels the request). */
export type SearchFunction = (request: SearchRequest, signal: AbortSignal) => Promise<ClusterObjectSearchResult>;

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SearchView {
  items: SearchPickItem[];
  busy: boolean;
  /** For the title: "200 of 12,345 objects: type to narrow", "no live object matches …", "cannot search: …"; or ''. */
  note: string;
  /** The live object of the manifest at the cursor, once found. */
  pinned?: ObjectSummary;
  /** The first answer held every object: VS Code filters, the server is not asked again. */
  complete: boolean;
}

export interface LiveObjectSearchOptions {
  search: SearchFunction;
  render: (view: SearchView) => void;
  /** The object of the manifest at the cursor: its live counterpart goes first. */
  atCursor?: ObjectSummary | null;
  limit?: number;
  debounceMs?: number;
  timers?: Timers;
}

/** `12,345` */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The title's note for an answer to `query`. */
export function searchNote(result: ClusterObjectSearchResult, query: string): string {
  const words = query.trim() !== '';
  if (result.total === 0) return words ? `no live object matches "${query.trim()}"` : 'no live objects';
  if (result.total <= result.items.length) return '';
  const shown = formatCount(result.items.length);
  return words
    ? `${shown} of ${formatCount(result.total)} matches: type more to narrow`
    : `${shown} of ${formatCount(result.total)} objects: type to narrow`;
}

/** `Deployment shop/web`: a query whose first answers include that object (its exact name ranks first). */
export function objectQuery(o: Pick<ObjectSummary, 'kind' | 'namespace' | 'name'>): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

/** The same text typed differently (case, spaces, word order) is the same query. */
export function queryKey(query: string): string {
  return queryWords(query)
    .map((w) => w.text)
    .sort()
    .join(' ');
}

/** The items for `objects`: the pinned object first if it matches `query`, once; every item `alwaysShow` if asked. */
export function searchPickItems(
  objects: readonly ObjectSummary[],
  query: string,
  pinned: ObjectSummary | undefined,
  alwaysShow: boolean,
): SearchPickItem[] {
  const words = queryWords(query);
  const first = pinned && matchRank(pinned, words) >= 0 ? pinned : undefined;
  const list = first ? [first, ...objects.filter((o) => o.uid !== first.uid)] : [...objects];
  const items: SearchPickItem[] = objectPickItems(list, first?.uid);
  return alwaysShow ? items.map((i) => ({ ...i, alwaysShow: true })) : items;
}

interface Answer {
  key: string;
  query: string;
  result: ClusterObjectSearchResult;
}

export class LiveObjectSearch {
  private readonly limit: number;
  private readonly debounceMs: number;
  private readonly timers: Timers;
  /** Every object an answer named, by uid (what an accepted item stands for). */
  private readonly known = new Map<string, ObjectSummary>();
  private value = '';
  private shown: Answer | undefined;
  private mode: 'starting' | 'complete' | 'search' = 'starting';
  private timer: unknown;
  private pending: { seq: number; abort: AbortController } | undefined;
  private seq = 0;
  private error: string | undefined;
  private pinned: ObjectSummary | undefined;
  private lookingUp: AbortController | undefined;
  private disposed = false;

  constructor(private readonly options: LiveObjectSearchOptions) {
    this.limit = options.limit ?? PICK_LIMIT;
    this.debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.timers = options.timers ?? realTimers;
  }

  /**
   * Asks for the first page (no text) and shows it; resolves with that answer (total 0: nothing in scope), rejects
   * when it fails. Text typed meanwhile is searched once the mode is known.
   */
  async start(): Promise<ClusterObjectSearchResult> {
    const abort = new AbortController();
    this.pending = { seq: ++this.seq, abort };
    this.render();
    let result: ClusterObjectSearchResult;
    try {
      result = await this.options.search({ query: '', limit: this.limit }, abort.signal);
    } finally {
      this.pending = undefined;
    }
    if (this.disposed) return result;
    this.remember(result);
    this.shown = { key: '', query: '', result };
    this.mode = result.total <= result.items.length ? 'complete' : 'search';
    const atCursor = this.options.atCursor;
    if (atCursor && this.mode === 'complete') this.pinned = matchingLiveObject(result.items, atCursor);
    else if (atCursor) void this.lookUp(atCursor);
    if (this.mode === 'search' && queryKey(this.value) !== '') this.schedule();
    this.render();
    return result;
  }

  /** The text of the quick pick changed. */
  setQuery(value: string): void {
    if (this.disposed) return;
    this.value = value;
    if (this.mode !== 'search') return; // starting: searched once the first answer is in; complete: VS Code filters
    this.cancelPending();
    if (this.shown && queryKey(value) === this.shown.key) this.error = undefined;
    else this.schedule();
    this.render();
  }

  /** The object an item stands for. */
  object(uid: string): ObjectSummary | undefined {
    return this.known.get(uid);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPending();
    this.lookingUp?.abort();
    this.lookingUp = undefined;
  }

  /** What to show now. */
  view(): SearchView {
    const complete = this.mode === 'complete';
    const busy = this.pending !== undefined || this.timer !== undefined || this.lookingUp !== undefined;
    if (!this.shown) return { items: [], busy, note: '', complete };
    if (complete)
      return { items: searchPickItems(this.shown.result.items, '', this.pinned, false), busy, note: '', pinned: this.pinned, complete };
    // The items are the last answer's until the next one arrives (VS Code's filter leaves them all shown, matches first).
    const note = this.error !== undefined ? `cannot search: ${this.error}` : searchNote(this.shown.result, this.shown.query);
    return {
      items: searchPickItems(this.shown.result.items, this.shown.query, this.pinned, true),
      busy,
      note,
      pinned: this.pinned,
      complete,
    };
  }

  /**
   * May Enter pick this item now? In search mode only an object that matches the text typed: an item of an older
   * answer that does not (still shown until the new answer arrives), or the wrong object VS Code names when the
   * items were replaced just as Enter was pressed, is refused.
   */
  accepts(uid: string): boolean {
    const o = this.known.get(uid);
    if (!o) return false;
    return this.mode !== 'search' || matchRank(o, queryWords(this.value)) >= 0;
  }

  private render(): void {
    if (!this.disposed) this.options.render(this.view());
  }

  private schedule(): void {
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      void this.fetch(this.value);
    }, this.debounceMs);
  }

  private cancelPending(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.pending?.abort.abort();
    this.pending = undefined;
  }

  private async fetch(value: string): Promise<void> {
    const seq = ++this.seq;
    const abort = new AbortController();
    this.pending = { seq, abort };
    this.render();
    try {
      const result = await this.options.search({ query: value.trim(), limit: this.limit }, abort.signal);
      if (this.disposed || this.pending?.seq !== seq) return; // a newer text was typed: this answer is stale
      this.pending = undefined;
      this.remember(result);
      this.shown = { key: queryKey(value), query: value, result };
      this.error = undefined;
    } catch (e) {
      if (this.disposed || this.pending?.seq !== seq) return;
      this.pending = undefined;
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.render();
  }

  /** Finds the live counterpart of the manifest at the cursor (a search by its kind, namespace and name). */
  private async lookUp(atCursor: ObjectSummary): Promise<void> {
    const abort = new AbortController();
    this.lookingUp = abort;
    try {
      const result = await this.options.search({ query: objectQuery(atCursor), limit: AT_CURSOR_LIMIT }, abort.signal);
      if (this.disposed || abort.signal.aborted) return;
      this.remember(result);
      this.pinned = matchingLiveObject(result.items, atCursor);
    } catch {
      // No pin: the list is still there.
    } finally {
      if (this.lookingUp === abort) this.lookingUp = undefined;
    }
    this.render();
  }

  private remember(result: ClusterObjectSearchResult): void {
    for (const o of result.items) this.known.set(o.uid, o);
  }
}

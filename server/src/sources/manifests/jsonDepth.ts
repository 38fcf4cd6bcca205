// One pass over a large JSON text before JSON.parse, which keeps every open level on its own stack (5 MB of `[`
// took 400 MB before failing; 256 MB would take gigabytes). It finds where nesting passes Kubernetes' limit and, for a
// List (`kubectl get -o json`), where each item's text is, so that the items can be parsed one at a time: the whole
// tree of a 500 MB dump is never held at once, and the smaller heap makes parsing faster. Only quotes and brackets are
// looked at, each found by indexOf; strings are skipped whole.

/** Kubernetes' JSON decoder refuses deeper documents ("exceeded max depth"). */
export const MAX_JSON_DEPTH = 10_000;
/** Below this size JSON.parse's own stack stays small (at most a few hundred MB), so no scan is needed. */
export const JSON_DEPTH_SCAN_ABOVE = 4 * 1024 * 1024;

export interface JsonScan {
  /** The offset of the first `[` or `{` that opens a level past the limit, or -1. */
  tooDeepAt: number;
  /** The root object's `items` array, when it holds only objects: its brackets and each item's [start, end). */
  items?: { open: number; close: number; spans: [number, number][] };
}

const ITEMS_KEY = '"items"';

export function scanJsonStructure(text: string, maxDepth: number): JsonScan {
  const n = text.length;
  const next = (ch: string, from: number) => {
    const at = text.indexOf(ch, from);
    return at < 0 ? n : at;
  };
  let quote = next('"', 0);
  let openList = next('[', 0);
  let openMap = next('{', 0);
  let closeList = next(']', 0);
  let closeMap = next('}', 0);
  let depth = 0;
  let rootIsMap = false;
  let lastKeyAt = -1; // the last string at depth 1 (a key of the root object)
  let items: JsonScan['items'];
  let itemsOk = true; // the `items` array holds only objects, and appears once
  let itemStart = -1;
  for (;;) {
    const at = Math.min(quote, openList, openMap, closeList, closeMap);
    if (at >= n) break;
    if (at === quote) {
      let end = text.indexOf('"', at + 1);
      while (end > 0) {
        let k = end - 1;
        while (text.charCodeAt(k) === 92 /* \ */) k--;
        if ((end - 1 - k) % 2 === 0) break; // not escaped
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) break; // an unclosed string: JSON.parse reports it
      if (depth === 1) lastKeyAt = at;
      else if (depth === 2 && items && !items.close) itemsOk = false; // a string item
      quote = next('"', end + 1);
      if (openList < end) openList = next('[', end);
      if (openMap < end) openMap = next('{', end);
      if (closeList < end) closeList = next(']', end);
      if (closeMap < end) closeMap = next('}', end);
      continue;
    }
    if (at === openList || at === openMap) {
      if (depth === 0) rootIsMap = at === openMap;
      if (depth === 1 && at === openList && rootIsMap && text.startsWith(ITEMS_KEY, lastKeyAt)) {
        if (items)
          itemsOk = false; // `items` twice: JSON.parse keeps the last; not worth following
        else items = { open: at, close: 0, spans: [] };
      }
      if (depth === 2 && items && !items.close) {
        if (at === openList) itemsOk = false;
        else itemStart = at;
      }
      if (++depth > maxDepth) return { tooDeepAt: at };
      if (at === openList) openList = next('[', at + 1);
      else openMap = next('{', at + 1);
      continue;
    }
    depth--;
    if (depth === 2 && items && !items.close && at === closeMap) items.spans.push([itemStart, at + 1]);
    if (depth === 1 && items && !items.close && at === closeList) items.close = at;
    if (at === closeList) closeList = next(']', at + 1);
    else closeMap = next('}', at + 1);
  }
  if (!items || !items.close || !itemsOk || !onlyCommasBetween(text, items)) return { tooDeepAt: -1 };
  return { tooDeepAt: -1, items };
}

/** Whether nothing but the items and their commas is in the array (no `null`, number or `true` item). */
function onlyCommasBetween(text: string, items: NonNullable<JsonScan['items']>): boolean {
  let from = items.open + 1;
  for (let i = 0; i <= items.spans.length; i++) {
    const to = i < items.spans.length ? items.spans[i][0] : items.close;
    const gap = text.slice(from, to);
    if (!(i === 0 || i === items.spans.length ? /^\s*$/ : /^\s*,\s*$/).test(gap)) return false;
    if (i < items.spans.length) from = items.spans[i][1];
  }
  return true;
}

/**
 * The items of a List as `kubectl get -o json` prints it (indented, one item after another), found without a scan:
 * a JSON string cannot hold a raw line break, so `\n<indent>},\n<indent>{` between lines can only be structure. The
 * spans are candidates: the caller parses each one and checks that together they were the root's `items`.
 * Undefined when the text is not laid out that way.
 */
export function prettyListItems(text: string): JsonScan['items'] {
  const key = /\n( +)"items": \[\n( +)\{\n/g;
  const m = key.exec(text);
  if (!m || m[2].length <= m[1].length) return undefined;
  const [rootIndent, indent] = [m[1], m[2]];
  const open = m.index + m[0].indexOf('[');
  // Searched from the end (kubectl prints kind and metadata after the items), and by its short `},\n` tail: a long
  // pattern of spaces makes indexOf slow.
  const end = `\n${indent}}\n${rootIndent}]`;
  const close = text.lastIndexOf(end);
  if (close < open) return undefined;
  const spans: [number, number][] = [];
  let start = m.index + m[0].length - 2; // the first item's `{`
  for (let at = text.indexOf('},\n', start); at >= 0 && at < close; at = text.indexOf('},\n', at + 3)) {
    const itemEnd =
      text.charCodeAt(at - indent.length - 1) === 10 &&
      text.startsWith(indent, at - indent.length) &&
      text.startsWith(`${indent}{\n`, at + 3);
    if (!itemEnd) continue;
    spans.push([start, at + 1]);
    start = at + 3 + indent.length;
  }
  spans.push([start, close + indent.length + 2]);
  return { open, close: close + end.length - 1, spans };
}

// A YAML List too large to parse at once (`kubectl get -A -o yaml` of a big cluster), read item by item. The `yaml`
// package holds about 50 bytes per byte of a document it reads, so a 73 MB List took 3 GB; its items are small. Only
// the layout kubectl (go-yaml) writes is recognised, with the top-level keys at column 0:
//
//   apiVersion: v1
//   items:
//   - apiVersion: v1      ← each item starts with `- ` at one column (0 as kubectl writes it, or indented)
//     kind: Pod
//   kind: List
//   metadata: …
//
// Anything else is left to the caller (the document is then refused as too large, with its reason).

export interface LargeList {
  apiVersion?: string;
  kind: string;
  /** [start, end) of each item's text (of one or a few items, if the layout is unusual inside), in order. */
  items: [number, number][];
}

/** A top-level `key: value` line whose value is a plain or quoted scalar on that line. */
const TOP_SCALAR = /^(apiVersion|kind):[ \t]+(?:"([^"\\]*)"|'([^']*)'|([^\s#'"&*!|>{[][^#\r\n]*?))[ \t]*(?:#.*)?\r?$/;

export function splitLargeList(text: string, start: number, end: number): LargeList | undefined {
  let apiVersion: string | undefined;
  let kind: string | undefined;
  const items: [number, number][] = [];
  let itemColumn = -1; // the column of the items' dashes, once `items:` has been seen
  let inItems = false;
  let itemStart = -1;
  let sawItems = false;
  for (let lineStart = start; lineStart < end; ) {
    let eol = text.indexOf('\n', lineStart);
    if (eol < 0 || eol >= end) eol = end;
    const next = eol + 1;
    let i = lineStart;
    while (i < eol && text.charCodeAt(i) === 32) i++;
    const column = i - lineStart;
    const c = text.charCodeAt(i);
    const blank = i >= eol || c === 13 || c === 35; /* # */
    if (blank) {
      lineStart = next;
      continue;
    }
    if (column === 0 && text.startsWith('---', i)) {
      if (!/^---[ \t]*(?:#.*)?\r?$/.test(text.slice(i, eol))) return undefined; // content after the marker
      lineStart = next;
      continue;
    }
    const dash = c === 45 && (i + 1 >= eol || text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 13);
    if (inItems) {
      if (itemColumn < 0) {
        if (!dash) return undefined; // `items:` followed by something other than a block sequence
        itemColumn = column;
      }
      if (dash && column === itemColumn) {
        if (itemStart >= 0) items.push([itemStart, lineStart]);
        itemStart = lineStart;
        lineStart = next;
        continue;
      }
      if (column > itemColumn) {
        lineStart = next; // inside the current item
        continue;
      }
      if (column > 0 || itemStart < 0) return undefined;
      items.push([itemStart, lineStart]); // the items end at the next top-level key
      itemStart = -1;
      inItems = false;
    }
    if (column !== 0) {
      lineStart = next; // inside a top-level key's value (metadata)
      continue;
    }
    const line = text.slice(lineStart, eol);
    if (/^items:[ \t]*(?:#.*)?\r?$/.test(line)) {
      if (sawItems) return undefined;
      sawItems = inItems = true;
    } else {
      const m = TOP_SCALAR.exec(line);
      if (m) {
        const value = m[2] ?? m[3] ?? m[4];
        if (m[1] === 'kind') kind = value;
        else apiVersion = value;
      } else if (!/^[A-Za-z_][\w.-]*:(?:[ \t]|\r?$)/.test(line)) {
        return undefined; // not a plain top-level key: not the layout this reads
      }
    }
    lineStart = next;
  }
  if (itemStart >= 0) items.push([itemStart, end]);
  if (!sawItems || !kind?.endsWith('List') || !items.length) return undefined;
  return { apiVersion, kind, items };
}

// metadata.managedFields cut out of a served JSON text before it is parsed. A real apiserver sends every object's
// managedFields (server-side apply's field ownership) in every form, the metadata-only one included; on a Pod they are
// most of its metadata. Nothing here reads them (the garbage collector's graph and the simulation need none of it),
// so they are skipped in the bytes rather than parsed into objects and collected: same result, a fraction of the work.
//
// Only ObjectMeta's managedFields are cut: an array value under the key "managedFields" right after `{` or `,` (a key,
// never text inside a string, where every quote is escaped). Callers use it only on responses whose schema has no
// other array-valued "managedFields" key: metadata-only ones (PartialObjectMetadata[List]) and built-in kinds.
// Anything unexpected (no array, unbalanced brackets) leaves the text as it was: JSON.parse then reads it whole.

const KEY_BYTES = Buffer.from('"managedFields":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Where the array starting at `i` ends (the index after its `]`), or -1: brackets and braces counted outside strings. */
function skipArray(b: Buffer, i: number): number {
  let depth = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c === QUOTE) {
      i++;
      while (i < n) {
        const d = b[i];
        if (d === BACKSLASH) i += 2;
        else if (d === QUOTE) break;
        else i++;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth++;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      if (--depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** The JSON bytes without any ObjectMeta managedFields (the same buffer when there are none). */
export function withoutManagedFields(buf: Buffer): Buffer {
  let key = buf.indexOf(KEY_BYTES);
  if (key < 0) return buf;
  const kept: Buffer[] = [];
  let from = 0;
  while (key >= 0) {
    const value = key + KEY_BYTES.length;
    const before = key > 0 ? buf[key - 1] : -1;
    if ((before === COMMA || before === OPEN_BRACE) && buf[value] === OPEN_BRACKET) {
      const end = skipArray(buf, value);
      if (end < 0) return buf;
      let cutFrom = key;
      let cutTo = end;
      if (before === COMMA) cutFrom = key - 1;
      else if (buf[end] === COMMA) cutTo = end + 1;
      kept.push(buf.subarray(from, cutFrom));
      from = cutTo;
      key = buf.indexOf(KEY_BYTES, cutTo);
    } else {
      key = buf.indexOf(KEY_BYTES, value);
    }
  }
  if (kept.length === 0) return buf;
  kept.push(buf.subarray(from));
  return Buffer.concat(kept);
}

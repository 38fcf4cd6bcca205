// A pre-scan of JSON nesting before JSON.parse, which keeps every open level on its own stack: 5 MB of `[` took
// 400 MB before failing, 256 MB would take gigabytes. Strings are skipped with indexOf, so the scan costs about a
// third of JSON.parse's time; it only runs on texts large enough for the stack to matter.

/** Kubernetes' JSON decoder refuses deeper documents ("exceeded max depth"). */
export const MAX_JSON_DEPTH = 10_000;
/** Below this size JSON.parse's own stack stays small (at most a few hundred MB), so no scan is needed. */
export const JSON_DEPTH_SCAN_ABOVE = 4 * 1024 * 1024;

/** The offset of the first `[` or `{` that opens level `maxDepth + 1`, or -1. */
export function findTooDeepJson(text: string, maxDepth: number): number {
  let depth = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let j = text.indexOf('"', i + 1);
      while (j > 0) {
        let k = j - 1;
        while (text.charCodeAt(k) === 92 /* \ */) k--;
        if ((j - 1 - k) % 2 === 0) break; // not escaped
        j = text.indexOf('"', j + 1);
      }
      if (j < 0) return -1; // an unclosed string: JSON.parse reports it
      i = j;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return -1;
}

// Multi-document YAML split into its documents' text before anything is parsed, as kubectl's YAML reader does
// (k8s.io/apimachinery/pkg/util/yaml): an error can then only skip the document that holds it. Parsed as one
// stream, the `yaml` package attaches some errors (a stray `]` in a document of its own) to the previous document.

/** A document marker at the start of a line: `---` (a document starts) or `...` (a document ends). */
const MARKER = /(^|\r\n|\n|\r)(---|\.\.\.)(?=[ \t\r\n]|$)/g;

/**
 * [start, end) of each document of the text, in order, covering all of it. A document starts at its `---` line (or
 * at the start of the text, or after a `...` line); a span that holds only blank, comment or directive lines is
 * joined to the next, so headers and `%YAML` directives stay with the document they precede.
 */
export function yamlDocumentSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  let pendingFrom = -1; // a span without content waiting to be joined to the next
  const push = (from: number, to: number, opened: boolean) => {
    if (pendingFrom >= 0) from = pendingFrom;
    if (!opened && !hasContent(text, from, to)) {
      pendingFrom = from;
      return;
    }
    pendingFrom = -1;
    if (to > from) spans.push([from, to]);
  };
  let opened = false; // the current span starts with `---`
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(text); m; m = MARKER.exec(text)) {
    const at = m.index + m[1].length;
    if (m[2] === '---') {
      if (at > start) push(start, at, opened);
      start = at;
      opened = true;
      MARKER.lastIndex = at + 3;
    } else {
      const nl = text.indexOf('\n', at);
      const eol = nl < 0 ? text.length : nl + 1;
      push(start, eol, opened);
      start = eol;
      opened = false;
      MARKER.lastIndex = nl < 0 ? eol : nl; // the next marker's line break is this line's
    }
  }
  if (start < text.length || pendingFrom >= 0) {
    const from = pendingFrom >= 0 ? pendingFrom : start;
    if (text.length > from) spans.push([from, text.length]);
  }
  return spans;
}

/** Whether [from, to) has a line that is not blank, a comment or a directive. */
function hasContent(text: string, from: number, to: number): boolean {
  let lineStart = true;
  let skipLine = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      lineStart = true;
      skipLine = false;
      continue;
    }
    if (skipLine) continue;
    if (c === 32 || c === 9 || c === 0xfeff) continue;
    if (c === 35 /* # */ || (lineStart && c === 37) /* % */) {
      skipLine = true;
      continue;
    }
    return true;
  }
  return false;
}

// Markdown built from text we do not control: every name, finalizer, message and detail in a report comes from
// the user's files (or from the engine quoting them). Two safe forms, both tested with hostile input:
// - `text()` backslash-escapes ASCII punctuation. CommonMark lets any ASCII punctuation be escaped, so no
//   emphasis, link, image, HTML tag, entity, table pipe, math `$` or autolink can start inside it.
// - `code()` wraps an identifier in a code span, which markdown-it renders literally (HTML-escaped, not linkified).
// Both flatten line breaks, control and bidi-override characters: a value is always one line that reads as written.

/** Every ASCII punctuation character except `-` and `/`, which start nothing mid-line and keep names readable. */
const MARKDOWN_METACHARACTERS = /[!"#$%&'()*+,.:;<=>?@[\\\]^_`{|}~]/g;
/** C0/C1 controls (line breaks included), Unicode line/paragraph separators, bidi embeddings and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of plain text, whatever the input held. */
export function oneLine(s: string): string {
  return s.replace(UNPRINTABLE, ' ');
}

/** Plain text that renders exactly as written (modulo line breaks, which become spaces). */
export function text(s: string): string {
  return oneLine(s).replace(MARKDOWN_METACHARACTERS, '\\$&');
}

/** An identifier in a code span; the fence is longer than any backtick run inside it. Not for table cells. */
export function code(s: string): string {
  const t = oneLine(s);
  if (t.trim() === '') return text(JSON.stringify(t));
  const longestRun = Math.max(0, ...(t.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  // CommonMark strips one space from each side when both are present: pad when the content would lose a
  // space of its own or would merge its edge backtick with the fence.
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/**
 * A command as a fenced code block, each line after `indent` (a list item's content column): rendered literally, a
 * line per line of the command (a way out of several steps); the fence is longer than any backtick run inside it, so
 * nothing in it can close the block.
 */
export function codeBlock(s: string, indent = ''): string[] {
  const lines = s.split(/\r\n|\r|\n/).map(oneLine);
  const longestRun = Math.max(2, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return [`${indent}${fence}`, ...lines.map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/**
 * A `command:` URI carrying JSON arguments. VS Code decodes the query once or twice depending on the route
 * (webview link, editor link), so the JSON must read the same either way: a `%` inside a JSON string is
 * written as the escape `\u0025`, leaving no `%` to be decoded twice. `(`, `)`, `!`, `'` and `*` are
 * percent-encoded too, so the URI is always a valid markdown link destination.
 */
export function commandUri(command: string, args: unknown[]): string {
  const json = JSON.stringify(args).replace(/%/g, '\\u0025');
  const query = encodeURIComponent(json).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${query}`;
}

/** A link whose label is already markdown (escaped by the caller). */
export function link(labelMarkdown: string, destination: string): string {
  return `[${labelMarkdown}](${destination})`;
}

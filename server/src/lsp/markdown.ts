// Safe text for hovers and lens titles. Everything read from a manifest (names, kinds, finalizers, uids,
// finding messages that quote them) is hostile: a name like `*[x](command:foo)*` must not become a link
// that runs a command, and `<img src=x onerror=…>` must not become HTML. Interpolate only through these.

/** Longest text taken from a manifest before it is cut (a Kubernetes name is at most 253 characters). */
const MAX_TEXT = 300;

/**
 * C0/C1 controls and bidirectional overrides (they can make text read differently from what it is,
 * "Trojan source"). Line breaks are controls too: a name never spans lines in a hover.
 */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of plain text: controls replaced by a space, cut to `max` characters. */
export function plainText(text: string, max = MAX_TEXT): string {
  const t = String(text).replace(UNSAFE_CHARS, ' ');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/**
 * Text that renders literally in Markdown: every ASCII punctuation character is backslash-escaped (CommonMark
 * allows that for all of them), except `<`, `>` and `&`, which become entities so that no HTML survives even in
 * a renderer that looks for tags before it applies escapes.
 */
export function escapeMarkdown(text: string, max = MAX_TEXT): string {
  return plainText(text, max).replace(/[!-/:-@[-`{-~]/g, (c) => {
    if (c === '<') return '&lt;';
    if (c === '>') return '&gt;';
    if (c === '&') return '&amp;';
    return `\\${c}`;
  });
}

/**
 * An inline code span holding `text` literally. Backslash escapes do not work inside code spans, so the fence is
 * made longer than any run of backticks in the text (CommonMark), padded when the text starts or ends with one.
 */
export function codeSpan(text: string, max = MAX_TEXT): string {
  const t = plainText(text, max);
  let longest = 0;
  for (const run of t.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ')) || t === '' ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Schemes a hover link may use: documents, never commands or scripts. */
const LINKABLE = /^(file|untitled|vscode-vfs|vscode-remote|vscode-userdata|vscode-notebook-cell|https?):/i;

/**
 * A Markdown link to a document location, `label` escaped. Targets with another scheme (command:, javascript:…)
 * are not linked: the label is returned as plain text.
 */
export function markdownLink(label: string, target: string): string {
  const text = escapeMarkdown(label);
  if (!LINKABLE.test(target)) return text;
  return `[${text}](${safeTarget(target)})`;
}

/** A code span (a finding code) linked to its documentation; the code span alone when the target is not a document. */
export function codeLink(code: string, target: string): string {
  const span = codeSpan(code);
  return LINKABLE.test(target) ? `[${span}](${safeTarget(target)})` : span;
}

function safeTarget(target: string): string {
  return target.replace(/[\s()<>\\"'`[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The last path segment of a URI, decoded for display ("file:///repo/web%20app.yaml" → "web app.yaml"). */
export function fileLabel(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1) || path;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * A title for a code lens: plain text, one line, short, and with VS Code's `$(icon)` syntax disarmed (a lens
 * title renders `$(name)` as an icon).
 */
export function lensText(text: string, max = 80): string {
  return plainText(text, max).replace(/\$\(/g, '\\$(');
}

/**
 * A link that runs one of the client's commands with JSON arguments (`command:NAME?ARGS`). The label is ours (never
 * manifest text); the arguments are JSON, percent-encoded (a `%` inside them written as the JSON escape `\u0025`,
 * so a second decoding reads the same), so nothing in them can end the link. The client must trust the command
 * (VS Code: the language client's `markdown.isTrusted.enabledCommands`), or the link does nothing.
 */
export function commandLink(label: string, command: string, args: unknown[]): string {
  const json = JSON.stringify(args).replace(/%/g, '\\u0025');
  const query = encodeURIComponent(json).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${escapeMarkdown(label)}](command:${command}?${query})`;
}

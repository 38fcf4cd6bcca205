// Text output that the input cannot forge. Every value a text renderer prints (names, finalizers, messages,
// file names, what a server said) goes through safeText before it is styled, so it can neither act on the
// terminal (escape sequences, BEL, NUL, bidi overrides) nor start a line of its own (a fake `file:line:col`
// finding), nor flood the terminal. The convention (docs/reliability.md):
//   LF, CR, TAB          \n \r \t (a backslash and a letter)
//   other C0, DEL, C1    \xHH (ESC is \x1b, NUL \x00, BEL \x07, NEL \x85)
//   U+2028, U+2029, U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069 (line breaks, bidi marks and overrides)
//                        \uHHHH (\u202e)
// A backslash is printed as it is (Windows paths stay readable); the JSON outputs hold the exact values.
// A run of more than MAX_WORD characters without a space (no name, uid or path is that long) and a value longer
// than MAX_TEXT are cut, ending in `…(N more characters)`.

import { describe } from '../../engine/model';

/** Longer than any Kubernetes name (253), finalizer (316), synthetic uid or usual path. */
export const MAX_WORD = 1000;
/** Longer than any message the engine writes about ordinary input (the corpus' longest is under 600). */
export const MAX_TEXT = 10_000;

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const UNSAFE_TEST = new RegExp(UNSAFE.source);
const LONG_WORD = new RegExp(`\\S{${MAX_WORD + 1},}`, 'gu');
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  const cp = ch.charCodeAt(0);
  return NAMED[ch] ?? (cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`);
}

/** The first `max` code points, then how many were left out. */
function cut(s: string, max: number): string {
  const points = Array.from(s);
  return points.length <= max ? s : `${points.slice(0, max).join('')}…(${points.length - max} more characters)`;
}

/** One value as it may be printed: escaped, cut when very long. */
export function safeText(s: string): string {
  if (s.length <= MAX_WORD && !UNSAFE_TEST.test(s)) return s;
  let out = s.length > MAX_WORD ? s.replace(LONG_WORD, (w) => cut(w, MAX_WORD)) : s;
  if (out.length > MAX_TEXT) out = cut(out, MAX_TEXT);
  return out.replace(UNSAFE, escapeChar);
}

/** `Kind namespace/name`, escaped. */
export const safeDescribe = (id: { kind: string; namespace: string; name: string }): string => safeText(describe(id));

/**
 * JSON whose bytes show no control character either: JSON.stringify escapes C0 but writes DEL, C1, the line and
 * paragraph separators and bidi overrides raw. They can only occur inside strings, so \u escapes keep every
 * value exactly.
 */
export function safeJson(value: unknown): string {
  return escapeJson(JSON.stringify(value, null, 2));
}

const escapeJson = (json: string): string =>
  json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * safeJson of an object, in pieces whose concatenation is exactly its text: the array under `streamed` is written
 * `batch` items at a time, each made JSON when its piece is, so 200,000 findings are never one string (nor their
 * JSON objects all at once). `toJson` turns an item into what is written.
 */
export function* safeJsonChunks<T>(
  value: Record<string, unknown>,
  streamed: string,
  items: readonly T[],
  toJson: (item: T) => unknown,
  batch = 1000,
): Generator<string> {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (!entries.length) {
    yield '{}';
    return;
  }
  for (const [i, [key, v]] of entries.entries()) {
    const head = `${i === 0 ? '{\n' : ',\n'}  ${JSON.stringify(key)}: `;
    if (key !== streamed) {
      yield escapeJson(head + JSON.stringify(v, null, 2).replace(/\n/g, '\n  '));
      continue;
    }
    if (!items.length) {
      yield head + '[]';
      continue;
    }
    for (let start = 0; start < items.length; start += batch) {
      const parts = items
        .slice(start, start + batch)
        .map((item) => '    ' + JSON.stringify(toJson(item), null, 2).replace(/\n/g, '\n    '));
      yield escapeJson((start === 0 ? head + '[\n' : ',\n') + parts.join(',\n'));
    }
    yield '\n  ]';
  }
  yield '\n}';
}

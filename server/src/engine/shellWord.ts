// Commands the product prints for a user to paste (ways out, blocker fixes) carry names read from files and clusters:
// hostile text. Every interpolated value goes through shellWord, so that it stays one word, read back exactly by
// bash and zsh (docs/reliability.md, "Printed commands"), and shows as it pastes: no character in a printed command is
// one a terminal would not show as itself, so the CLI's escaping (cli/output/safeText.ts) leaves it as it is.

/**
 * What a terminal does not show as itself: control and format characters (bidi controls, zero-width ones), separators
 * other than the space, private-use, default-ignorable and non-characters, lone UTF-16 surrogates.
 */
const UNSHOWN = /(?! )[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;
const UNSHOWN_ALL = new RegExp(UNSHOWN.source, 'gu');
/** No command line can carry these: argv strings end at NUL, and UTF-8 has no lone surrogate. */
const UNCARRIED = /[\0\p{Cs}]/u;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', "'": "\\'" };

/**
 * One shell word: as is when plainly safe (not `=`-first: zsh expands `=cmd`), single-quoted when every character
 * shows as itself (a `'` inside closes, escapes and reopens the quote), else ANSI-C quoted (`$'…'`), every unshown
 * character written as the `\xHH` escapes of its UTF-8 bytes (always two digits, so no next character is taken in).
 * NUL and lone surrogates stay raw in that word: `pasteable` withholds a command that holds one.
 */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9._/:@-][A-Za-z0-9._/:=@-]*$/.test(s)) return s;
  if (!UNSHOWN.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  return `$'${s.replace(/[\\']/g, (c) => NAMED[c]).replace(UNSHOWN_ALL, escapeUnshown)}'`;
}

function escapeUnshown(ch: string): string {
  if (NAMED[ch]) return NAMED[ch];
  if (UNCARRIED.test(ch)) return ch;
  return utf8(ch.codePointAt(0)!)
    .map((b) => `\\x${b.toString(16).padStart(2, '0')}`)
    .join('');
}

/** The UTF-8 bytes of a code point (the engine has no TextEncoder). */
function utf8(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

/** `value` as JSON in one shell word: unshown characters as JSON `\u` escapes, so it stays single-quoted. */
export function shellJson(value: unknown): string {
  const json = JSON.stringify(value).replace(UNSHOWN_ALL, (ch) =>
    Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
  return shellWord(json);
}

/** One segment of a URL path (`kubectl get --raw`, `replace --raw`), percent-encoded; `.` and `..` too. */
export function urlPathSegment(s: string): string {
  // encodeURIComponent throws on a lone surrogate: that stays raw, for `pasteable` to withhold the command.
  const encoded = s.replace(/[^\p{Cs}]+/gu, (run) => encodeURIComponent(run).replace(/[!'()*]/g, percent));
  return /^\.{1,2}$/.test(s) ? encoded.replace(/\./g, percent) : encoded;
}

const percent = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * `command`, unless a word of it holds what no command line can carry (NUL, a lone surrogate): then a comment that
 * says so, showing the command with those escaped (so each withheld command stays distinct from the others).
 */
export function pasteable(command: string): string {
  if (!UNCARRIED.test(command)) return command;
  const shown = command.replace(new RegExp(UNCARRIED.source, 'gu'), (ch) =>
    ch === '\0' ? '\\x00' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shellComment(
    `not printed as a command: a name in it holds a NUL or a lone UTF-16 surrogate, which no command line can carry: ${shown}`,
  );
}

/**
 * A line the shell ignores: every unshown character in `text` (a line break, a control) becomes `?`, so it stays one
 * line. Its text is single-quoted unless plainly inert: zsh reads `#` as a comment only with interactive_comments set
 * (off by default), else as a command, whose words it expands (`$(…)`, globs and their qualifiers); quoted, it is a
 * command not found.
 */
export function shellComment(text: string): string {
  const shown = text.replace(UNSHOWN_ALL, '?');
  return `# ${/^[A-Za-z0-9 ,.:/_@+-]*$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`}`;
}

/**
 * The steps of a command of several lines. No printed word, comment or JSON holds a raw line break (shellWord
 * escapes it, shellComment replaces it), so each line is a step.
 */
export function commandLines(command: string): string[] {
  return command.split('\n');
}

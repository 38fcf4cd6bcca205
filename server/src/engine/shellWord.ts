// Commands the product prints for a user to paste (ways out, blocker fixes) carry names read from files and clusters:
// hostile text. Every interpolated value goes through shellWord, so that it stays one word of a POSIX shell.

/** One shell word: as is when plainly safe, else single-quoted (a `'` inside closes, escapes and reopens the quote). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9._/:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A line the shell ignores: any line break or control character in `text` becomes `?`, so it stays one comment. */
export function shellComment(text: string): string {
  return `# ${text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '?')}`;
}

/**
 * The steps of a command of several lines: split at line breaks outside single quotes (inside one, it is a name's);
 * a comment step runs to its line's end, quotes and all, as the shell reads it.
 */
export function commandLines(command: string): string[] {
  const lines: string[] = [];
  for (let start = 0; start <= command.length; ) {
    let end = start;
    if (command[start] === '#') end = command.includes('\n', start) ? command.indexOf('\n', start) : command.length;
    else
      for (let quoted = false; end < command.length && (quoted || command[end] !== '\n'); end++) if (command[end] === "'") quoted = !quoted;
    lines.push(command.slice(start, end));
    start = end + 1;
  }
  return lines;
}

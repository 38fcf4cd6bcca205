// Commands the product prints for a user to paste (ways out, blocker fixes) carry names read from files and clusters:
// hostile text. Every interpolated value goes through shellWord, so that it stays one word of a POSIX shell.

/** One shell word: as is when plainly safe, else single-quoted (a `'` inside closes, escapes and reopens the quote). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9._/:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

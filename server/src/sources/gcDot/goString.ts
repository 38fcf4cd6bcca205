// Go-style unquoting of the DOT dump's strings. The current dump writes every string with Go's %q
// (\" \\ \n \t \xHH \uHHHH \UHHHHHHHH); the gonum-era dump used Go quoting for re-quoted labels and kept raw
// newlines elsewhere. Unknown escapes (DOT's own \l, \N…) are kept as written; nothing here throws.

const SIMPLE: Record<string, string> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};
const utf8 = new TextDecoder('utf-8', { fatal: false });

const hexAt = (s: string, i: number, n: number): number | undefined => {
  const h = s.slice(i, i + n);
  return h.length === n && /^[0-9a-fA-F]+$/.test(h) ? parseInt(h, 16) : undefined;
};

/** The value of a quoted string's content (without the surrounding quotes). */
export function goUnquote(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length) {
      out += utf8.decode(Uint8Array.from(bytes));
      bytes = [];
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\' || i + 1 >= raw.length) {
      flush();
      out += c;
      continue;
    }
    const e = raw[i + 1];
    if (e === 'x') {
      const v = hexAt(raw, i + 2, 2);
      if (v !== undefined) {
        bytes.push(v);
        i += 3;
        continue;
      }
    } else if (e >= '0' && e <= '7') {
      const o = raw.slice(i + 1, i + 4);
      if (/^[0-7]{3}$/.test(o) && parseInt(o, 8) < 256) {
        bytes.push(parseInt(o, 8));
        i += 3;
        continue;
      }
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      const v = hexAt(raw, i + 2, n);
      if (v !== undefined && v <= 0x10ffff) {
        flush();
        out += e === 'u' ? String.fromCharCode(v) : String.fromCodePoint(v);
        i += 1 + n;
        continue;
      }
    } else if (e === '\n') {
      // DOT line continuation
      flush();
      i += 1;
      continue;
    } else if (e === '\r' && raw[i + 2] === '\n') {
      flush();
      i += 2;
      continue;
    } else if (SIMPLE[e] !== undefined) {
      flush();
      out += SIMPLE[e];
      i += 1;
      continue;
    }
    // Not a Go escape: keep it as written.
    flush();
    out += c;
  }
  flush();
  return out;
}

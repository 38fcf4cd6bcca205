// Offsets (UTF-16 code units into the text) to 0-based LSP positions. A position's `character` is
// counted from the last '\n', so a '\r' of a CRLF line ending is simply the last character of its line.

import type { Position, Range } from '../../engine/model';

export class LineIndex {
  private constructor(
    private readonly starts: ArrayLike<number>,
    private readonly length = Number.POSITIVE_INFINITY,
  ) {}

  /** Every line start of `text` (scans it once). */
  static of(text: string): LineIndex {
    // Typed: 4 bytes a line, where a number[] grown by push holds up to 8 and a half-empty tail (2 million lines of a
    // 40 MB file).
    let starts = new Uint32Array(Math.max(16, text.length >> 5));
    let n = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (n === starts.length) {
        const grown = new Uint32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[n++] = i + 1;
    }
    return new LineIndex(n === starts.length ? starts : starts.slice(0, n), text.length);
  }

  /** Reuses line starts collected elsewhere (the `yaml` package's LineCounter), which must begin with 0. */
  static fromLineStarts(starts: readonly number[]): LineIndex {
    return new LineIndex(starts);
  }

  /** The offset of a position, or undefined when it is outside the text (past its line's end included). */
  offset(p: Position): number | undefined {
    const s = this.starts;
    if (p.line < 0 || p.line >= s.length || p.character < 0) return undefined;
    const lineEnd = p.line + 1 < s.length ? s[p.line + 1] - 1 : this.length;
    const off = s[p.line] + p.character;
    return off <= lineEnd ? off : undefined;
  }

  position(offset: number): Position {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: Math.max(0, offset - s[lo]) };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }
}

export const ZERO_RANGE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

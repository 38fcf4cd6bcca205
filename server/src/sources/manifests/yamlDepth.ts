// A cheap pre-scan of one YAML document's nesting, run before the `yaml` package builds anything: that package
// recurses once per level (it overflows the stack at about 800) and spends super-linear time and memory on deep
// flow collections (1 MB of `[` took 10 s and 954 MB). One linear pass over the characters, no allocation per
// character. It follows YAML's own rules where they decide what nests (a `[` or `{` opens a collection only where a
// node starts; quoted scalars, block scalars and a plain scalar's continuation lines nest nothing; comments are
// skipped), so a real manifest is never refused: on every document of the corpus its count is within 0–4 levels of
// the parser's (test/sources/loaderIsolation.test.ts).

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

/**
 * The open block collections, by the column their entries start at: a mapping's keys, or a sequence's dashes. A
 * sequence may sit at its parent key's column (`items:` then `- a: 1`), so a column can hold a mapping and, above it,
 * a sequence; a line at that column without a dash ends the sequence.
 */
class BlockLevels {
  private readonly columns: number[] = [];
  private readonly isSequence: boolean[] = [];

  get depth(): number {
    return this.columns.length;
  }

  /** A line whose first entry starts at `column`, as a `- ` entry or not. */
  line(column: number, dash: boolean): void {
    const top = () => this.columns[this.columns.length - 1];
    while (this.columns.length && top() > column) this.pop();
    if (this.columns.length && top() === column) {
      const seq = this.isSequence[this.isSequence.length - 1];
      if (dash === seq) return; // the next entry of the same collection
      if (seq) {
        this.pop(); // the sequence under a key ended; the key's mapping goes on if it is at this column
        if (this.columns.length && top() === column) return;
      }
    }
    this.push(column, dash);
  }

  /** A collection that starts inside the line (after a `- `). */
  push(column: number, sequence: boolean): void {
    this.columns.push(column);
    this.isSequence.push(sequence);
  }

  private pop(): void {
    this.columns.pop();
    this.isSequence.pop();
  }
}

const isBlank = (c: number) => c === SPACE || c === TAB;
const isBreakOrEnd = (c: number) => Number.isNaN(c) || c === CR || c === LF;

/**
 * The offset in [start, end) where the document's nesting first goes beyond `maxDepth` levels, or -1 when it never
 * does. Levels are mappings and sequences, block or flow.
 */
export function findTooDeep(text: string, start: number, end: number, maxDepth: number): number {
  const block = new BlockLevels();
  let flow = 0; // open flow collections
  let flowBase = 0; // block depth under the outermost open flow collection
  let quote = 0; // the open quoted scalar's quote character, 0 when none
  let blockScalarAbove = -2; // a block scalar's content is the lines indented more than this; -2 when none
  let plainAbove = -2; // the same for a plain scalar that ended a line: its continuation lines
  let lineStart = start;
  while (lineStart < end) {
    let eol = text.indexOf('\n', lineStart);
    if (eol < 0 || eol > end) eol = end;
    let i = lineStart;
    while (i < eol && text.charCodeAt(i) === SPACE) i++;
    const indent = i - lineStart;

    if (blockScalarAbove > -2) {
      if (isBreakOrEnd(text.charCodeAt(i)) || i === eol || indent > blockScalarAbove) {
        lineStart = eol + 1;
        continue;
      }
      blockScalarAbove = -2;
    }
    if (plainAbove > -2 && !quote && !flow) {
      if (isBreakOrEnd(text.charCodeAt(i)) || i === eol || indent > plainAbove) {
        lineStart = eol + 1;
        continue;
      }
      plainAbove = -2;
    }

    let nodeStart = true; // the next character may start a node
    let keyColumn = indent; // column of the node whose value comes after the next `:`
    let valueOwner = indent - 1; // column of the node that owns a value starting here (a key's, a dash's)
    let plainOwner = -2; // that column, while the line's last token is a plain scalar value; -2 otherwise
    if (!quote && !flow) {
      const c = text.charCodeAt(i);
      if (i === eol || isBreakOrEnd(c) || c === 35 /* # */) {
        lineStart = eol + 1;
        continue;
      }
      if (
        indent === 0 &&
        (text.startsWith('---', i) || text.startsWith('...', i)) &&
        (i + 3 >= eol || isBreakOrEnd(text.charCodeAt(i + 3)) || isBlank(text.charCodeAt(i + 3)))
      ) {
        i += 3; // a document marker; what follows it on the line is the root node
        keyColumn = -1;
        valueOwner = -1;
      } else {
        // `- ` and `? ` entries at the start of the line: each opens a collection at its column
        let first = true;
        let dashColumn = -1;
        for (;;) {
          const d = text.charCodeAt(i);
          if (
            (d !== 45 /* - */ && d !== 63) /* ? */ ||
            !(isBlank(text.charCodeAt(i + 1)) || i + 1 >= eol || isBreakOrEnd(text.charCodeAt(i + 1)))
          )
            break;
          dashColumn = i - lineStart;
          if (first) block.line(dashColumn, true);
          else block.push(dashColumn, true);
          first = false;
          i++;
          while (i < eol && isBlank(text.charCodeAt(i))) i++;
        }
        const content = i < eol && !isBreakOrEnd(text.charCodeAt(i)) && text.charCodeAt(i) !== 35;
        if (content) {
          if (first) block.line(i - lineStart, false);
          else block.push(i - lineStart, false);
        }
        if (block.depth > maxDepth) return i < eol ? i : lineStart + indent;
        keyColumn = i - lineStart;
        if (dashColumn >= 0 && (!content || text.charCodeAt(i) === 124 || text.charCodeAt(i) === 62)) keyColumn = dashColumn; // `- |`
        if (dashColumn >= 0) valueOwner = dashColumn;
      }
    }

    for (; i < eol; i++) {
      const c = text.charCodeAt(i);
      if (quote) {
        if (c === 92 /* \ */ && quote === 34) {
          i++;
          continue;
        }
        if (c !== quote) continue;
        if (quote === 39 && text.charCodeAt(i + 1) === 39) {
          i++; // '' inside a single-quoted scalar
          continue;
        }
        quote = 0;
        nodeStart = false;
        continue;
      }
      if (isBlank(c) || c === CR) continue;
      if (c === 35 /* # */ && (i === lineStart || isBlank(text.charCodeAt(i - 1)))) break; // a comment
      if (flow) {
        if (c === 91 /* [ */ || c === 123 /* { */) {
          if (!nodeStart) continue;
          flow++;
          if (flowBase + flow > maxDepth) return i;
          continue;
        }
        if (c === 93 /* ] */ || c === 125 /* } */) {
          flow--;
          nodeStart = false;
          continue;
        }
        if (c === 44 /* , */ || c === 58 /* : */ || c === 63 /* ? */) {
          nodeStart = true;
          continue;
        }
        if (nodeStart && (c === 34 || c === 39)) {
          quote = c;
          continue;
        }
        if (nodeStart && (c === 38 /* & */ || c === 33) /* ! */) {
          while (i + 1 < eol && !isBlank(text.charCodeAt(i + 1)) && !isBreakOrEnd(text.charCodeAt(i + 1)) && !'[]{},'.includes(text[i + 1]))
            i++;
          continue;
        }
        nodeStart = false; // a plain scalar: in flow context it cannot hold [ ] { } ,
        continue;
      }
      // block context, inside a line
      if (c === 58 /* : */ && (i + 1 >= eol || isBlank(text.charCodeAt(i + 1)) || isBreakOrEnd(text.charCodeAt(i + 1)))) {
        nodeStart = true;
        plainOwner = -2; // what came before was a key
        valueOwner = keyColumn;
        continue;
      }
      if (!nodeStart) continue;
      plainOwner = -2;
      if (c === 91 || c === 123) {
        flow = 1;
        flowBase = block.depth;
        if (flowBase + flow > maxDepth) return i;
        continue;
      }
      if (c === 34 || c === 39) {
        keyColumn = i - lineStart;
        quote = c;
        continue;
      }
      if (c === 124 /* | */ || c === 62 /* > */) {
        blockScalarAbove = keyColumn;
        break;
      }
      if (c === 38 || c === 33) {
        while (i + 1 < eol && !isBlank(text.charCodeAt(i + 1)) && !isBreakOrEnd(text.charCodeAt(i + 1))) i++;
        continue;
      }
      if (c === 42 /* * */) {
        nodeStart = false;
        continue;
      }
      keyColumn = i - lineStart; // a plain scalar (a key, or a value) starts here
      plainOwner = valueOwner;
      nodeStart = false;
    }
    // A plain scalar ends the line: more indented lines after it continue it (they nest nothing).
    if (plainOwner > -2 && !quote && !flow && blockScalarAbove === -2) plainAbove = plainOwner;
    lineStart = eol + 1;
  }
  return -1;
}

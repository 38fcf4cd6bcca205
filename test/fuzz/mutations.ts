// Mutations of ONE document's text: what a half-typed edit, a bad merge, a wrong tool or a hostile file does.
// Each is deterministic for a given PRNG state. `detail` says exactly what was done, for the failure report.

export type Rnd = () => number;

export const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
export const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)];

export interface Mutated {
  text: string;
  detail: string;
}

export interface Mutation {
  name: string;
  /** The result is still valid YAML holding the same objects: it must load exactly as before, without an error. */
  inert?: true;
  apply(text: string, rnd: Rnd, other: string): Mutated;
}

/** Text that looks like structure (brackets, markers, directives, anchors) but sits where YAML reads it as text. */
function junk(rnd: Rnd, plainSafe: boolean): string {
  const run = (c: string) => c.repeat(1 + int(rnd, 600));
  const all = [
    run('['),
    run('{'),
    run(']'),
    run('}'),
    `a ${run('[')}`,
    '---',
    '...',
    '- - -',
    '%YAML 1.1',
    '&a *b !tag',
    '"quoted"',
    "it's",
    '[a, {b: c}]',
    '? x',
    '|',
    '>',
    '\t tab',
    '{{ .Values.x }}',
  ];
  const ok = all.filter((j) => !plainSafe || (!/: |:$| #|^#|^\{\{/.test(j) && !/^[|>?"'&*!%@`]/.test(j)));
  return pick(rnd, ok);
}

const lineStarts = (t: string) => {
  const s = [0];
  for (let i = t.indexOf('\n'); i >= 0 && i + 1 < t.length; i = t.indexOf('\n', i + 1)) s.push(i + 1);
  return s;
};
const insertAt = (t: string, at: number, s: string) => t.slice(0, at) + s + t.slice(at);
const show = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
/** 1-based line of an offset, for details. */
const lineOf = (t: string, at: number) => t.slice(0, at).split('\n').length;

function splitLines(t: string): string[] {
  const lines = t.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
const joinLines = (lines: string[]) => `${lines.join('\n')}\n`;

/** Lines `key:` with nothing after the colon (a block map or list follows), with the extent of that block. */
function blockKeys(lines: string[]): { at: number; end: number; indent: string; key: string; list: boolean }[] {
  const out: { at: number; end: number; indent: string; key: string; list: boolean }[] = [];
  lines.forEach((l, at) => {
    const m = /^(\s*)(?:- )?([A-Za-z][\w.\-/]*):\s*$/.exec(l);
    if (!m) return;
    const indent = m[1];
    let end = at + 1;
    while (
      end < lines.length &&
      (lines[end].trim() === '' ||
        lines[end].length - lines[end].trimStart().length > indent.length ||
        lines[end].startsWith(`${indent}- `))
    )
      end++;
    if (end === at + 1) return;
    out.push({ at, end, indent, key: m[2], list: lines[at + 1].trimStart().startsWith('- ') });
  });
  return out;
}

/** Lines `key: value` with a plain scalar value. */
function scalarKeys(lines: string[]): number[] {
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (/^\s*(?:- )?[A-Za-z][\w.\-/]*: [^\s|>&*!{[][^#]*$/.test(l)) out.push(i);
  });
  return out;
}

export const MUTATIONS: readonly Mutation[] = [
  {
    name: 'byte-flip',
    apply(t, rnd) {
      let out = t;
      const notes: string[] = [];
      for (let k = 1 + int(rnd, 3); k > 0; k--) {
        const at = int(rnd, out.length);
        const c = out.charCodeAt(at);
        let flipped = c ^ (1 << int(rnd, 7));
        if (flipped >= 0xd800 && flipped <= 0xdfff) flipped = 0x3f;
        out = out.slice(0, at) + String.fromCharCode(flipped) + out.slice(at + 1);
        notes.push(`${show(String.fromCharCode(c))}→${show(String.fromCharCode(flipped))} at line ${lineOf(out, at)}`);
      }
      return { text: out, detail: notes.join(', ') };
    },
  },
  {
    name: 'truncate',
    apply(t, rnd) {
      const at = int(rnd, t.length);
      return { text: t.slice(0, at), detail: `cut after ${at} of ${t.length} characters (line ${lineOf(t, at)})` };
    },
  },
  {
    name: 'stray-bracket',
    apply(t, rnd) {
      const b = pick(rnd, [']', '}', '[', '{']);
      const where = int(rnd, 4);
      if (where === 0) return { text: `${b}\n`, detail: `the whole document replaced by ${show(b)}` };
      const starts = lineStarts(t);
      const line = int(rnd, starts.length);
      if (where === 1) return { text: insertAt(t, starts[line], `${b}\n`), detail: `a line ${show(b)} inserted before line ${line + 1}` };
      if (where === 2) {
        const eol = t.indexOf('\n', starts[line]);
        return { text: insertAt(t, eol < 0 ? t.length : eol, b), detail: `${show(b)} appended to line ${line + 1}` };
      }
      const at = int(rnd, t.length);
      return { text: insertAt(t, at, b), detail: `${show(b)} inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'indent-shift',
    apply(t, rnd) {
      const lines = splitLines(t);
      const from = int(rnd, lines.length);
      const to = Math.min(lines.length, from + 1 + (rnd() < 0.5 ? 0 : int(rnd, 6)));
      const by = pick(rnd, [-4, -2, -1, 1, 2, 3, 4]);
      for (let i = from; i < to; i++) {
        lines[i] = by > 0 ? ' '.repeat(by) + lines[i] : lines[i].replace(new RegExp(`^ {0,${-by}}`), '');
      }
      return { text: joinLines(lines), detail: `lines ${from + 1}–${to} shifted by ${by}` };
    },
  },
  {
    name: 'type-swap',
    apply(t, rnd) {
      const lines = splitLines(t);
      const blocks = blockKeys(lines);
      if (blocks.length && rnd() < 0.7) {
        const b = pick(rnd, blocks);
        const value = b.list ? pick(rnd, ['{a: b}', '"text"', '{}', '42']) : pick(rnd, ['[a, b]', '"text"', '42', 'null', '[]', 'true']);
        const keep = rnd() < 0.3; // keep the children too: a scalar followed by an indented block
        const head = lines[b.at].replace(/:\s*$/, `: ${value}`);
        const next = [...lines.slice(0, b.at), head, ...(keep ? lines.slice(b.at + 1, b.end) : []), ...lines.slice(b.end)];
        return {
          text: joinLines(next),
          detail: `${b.key} (line ${b.at + 1}, a ${b.list ? 'list' : 'map'}) became ${value}${keep ? ' (children kept)' : ''}`,
        };
      }
      const scalars = scalarKeys(lines);
      if (!scalars.length) return { text: t, detail: 'nothing to swap' };
      const i = pick(rnd, scalars);
      const m = /^(\s*(?:- )?[A-Za-z][\w.\-/]*): ([\s\S]*)$/.exec(lines[i]);
      if (!m) return { text: t, detail: 'nothing to swap' };
      const value = pick(rnd, [
        `[${m[2]}]`,
        `{x: ${m[2]}}`,
        '[]',
        '{}',
        `\n${' '.repeat(m[1].length - m[1].trimStart().length + 2)}- ${m[2]}`,
      ]);
      lines[i] = `${m[1]}: ${value}`;
      return { text: joinLines(lines), detail: `the value of line ${i + 1} became ${show(value)}` };
    },
  },
  {
    name: 'nul',
    apply(t, rnd) {
      const at = int(rnd, t.length + 1);
      return { text: insertAt(t, at, '\u0000'), detail: `a NUL inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'bom',
    apply(t, rnd) {
      const starts = lineStarts(t);
      const at = rnd() < 0.5 ? starts[int(rnd, starts.length)] : int(rnd, t.length + 1);
      return { text: insertAt(t, at, '\ufeff'), detail: `a BOM (U+FEFF) inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'line-ends',
    apply(t, rnd) {
      const v = int(rnd, 3);
      if (v === 0) return { text: t.replace(/\r?\n/g, '\r\n'), detail: 'CRLF line ends' };
      if (v === 1) {
        const lines = splitLines(t);
        const from = int(rnd, lines.length);
        return {
          text: lines.map((l, i) => (i >= from && i < from + 5 ? `${l}\r` : l)).join('\n') + '\n',
          detail: `CRLF on lines ${from + 1}–${from + 5}`,
        };
      }
      const starts = lineStarts(t);
      const line = 1 + int(rnd, Math.max(1, starts.length - 1));
      if (line >= starts.length) return { text: t, detail: 'no line to join' };
      const at = starts[line] - 1;
      return { text: `${t.slice(0, at)}\r${t.slice(at + 1)}`, detail: `line ${line} ends with a lone CR (old Mac)` };
    },
  },
  {
    name: 'anchors',
    apply(t, rnd) {
      const lines = splitLines(t);
      const v = int(rnd, 5);
      const scalars = scalarKeys(lines);
      const topLevel = /^[A-Za-z]/.test(lines[0] ?? '');
      if (v === 0 && scalars.length >= 2) {
        // an anchor on one value and an alias to it elsewhere (valid YAML)
        const [a, b] = [pick(rnd, scalars), pick(rnd, scalars)];
        lines[a] = lines[a].replace(/: /, ': &fz ');
        if (b !== a) lines[b] = lines[b].replace(/: .*$/, ': *fz');
        return { text: joinLines(lines), detail: `anchor &fz on line ${a + 1}, alias *fz on line ${b + 1}` };
      }
      if (v === 1 && scalars.length) {
        const i = pick(rnd, scalars);
        lines[i] = lines[i].replace(/: .*$/, ': *undefinedAnchor');
        return { text: joinLines(lines), detail: `an alias to an undefined anchor on line ${i + 1}` };
      }
      if (v === 2 && topLevel) {
        // a small alias bomb (9^6 values) as an extra top-level key
        const bomb = ['fzBomb:', '  a: &a [x, x, x, x, x, x, x, x, x]'];
        for (const [n, p] of [
          ['b', 'a'],
          ['c', 'b'],
          ['d', 'c'],
          ['e', 'd'],
          ['f', 'e'],
        ])
          bomb.push(`  ${n}: &${n} [${Array(9).fill(`*${p}`).join(', ')}]`);
        return { text: joinLines([...lines, ...bomb]), detail: 'an alias bomb appended' };
      }
      if (v === 3 && topLevel) {
        return {
          text: joinLines([...lines, 'fzBase: &base {a: 1}', 'fzMerged:', '  <<: *base', '  b: 2']),
          detail: 'a merge key (<<: *base) appended',
        };
      }
      // an anchor on the document's root
      return { text: topLevel ? `&root\n${t}` : `&root ${t}`, detail: 'an anchor on the root node' };
    },
  },
  {
    name: 'template',
    apply(t, rnd) {
      const lines = splitLines(t);
      const v = int(rnd, 3);
      const scalars = scalarKeys(lines);
      if (v === 0 && scalars.length) {
        const i = pick(rnd, scalars);
        lines[i] = lines[i].replace(/: .*$/, ': {{ .Values.x }}');
        return { text: joinLines(lines), detail: `the value of line ${i + 1} became {{ .Values.x }}` };
      }
      const at = int(rnd, lines.length + 1);
      const tpl = v === 1 ? '{{- if .Values.enabled }}' : '  {{- include "chart.labels" . | nindent 4 }}';
      lines.splice(at, 0, tpl);
      if (v === 1) lines.push('{{- end }}');
      return { text: joinLines(lines), detail: `${show(tpl)} inserted before line ${at + 1}` };
    },
  },
  {
    name: 'marker-in-block-scalar',
    apply(t, rnd) {
      // `---` inside a block scalar: indented it is content; at column 0 it starts a new document (the one
      // mutation here that changes document boundaries, on purpose).
      const col0 = rnd() < 0.5;
      const topLevel = /^[A-Za-z]/.test(t);
      const block = ['fzNote: |', '  before', col0 ? '---' : '  ---', '  after'];
      const lines = splitLines(t);
      const at = topLevel ? int(rnd, lines.length + 1) : lines.length;
      // insert only between top-level keys, so that the scalar is a value of the root map
      let pos = at;
      while (topLevel && pos < lines.length && !/^[A-Za-z]/.test(lines[pos])) pos++;
      lines.splice(pos, 0, ...block);
      return {
        text: joinLines(lines),
        detail: `a block scalar holding ${col0 ? 'a column-0' : 'an indented'} --- inserted before line ${pos + 1}`,
      };
    },
  },
  {
    name: 'tabs',
    apply(t, rnd) {
      const lines = splitLines(t);
      const i = int(rnd, lines.length);
      if (rnd() < 0.5) {
        lines[i] = lines[i].replace(/^( +)/, (s) => '\t'.repeat(Math.max(1, s.length >> 1)));
        return { text: joinLines(lines), detail: `line ${i + 1} indented with tabs` };
      }
      const at = int(rnd, t.length + 1);
      return { text: insertAt(t, at, '\t'), detail: `a tab inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'delete-lines',
    apply(t, rnd) {
      const lines = splitLines(t);
      const from = int(rnd, lines.length);
      const n = 1 + int(rnd, 8);
      lines.splice(from, n);
      return { text: joinLines(lines), detail: `lines ${from + 1}–${from + n} deleted` };
    },
  },
  {
    name: 'duplicate-lines',
    apply(t, rnd) {
      const lines = splitLines(t);
      const from = int(rnd, lines.length);
      const n = 1 + int(rnd, 4);
      lines.splice(from + n, 0, ...lines.slice(from, from + n));
      return { text: joinLines(lines), detail: `lines ${from + 1}–${from + n} duplicated` };
    },
  },
  {
    name: 'quotes',
    apply(t, rnd) {
      const q = pick(rnd, ['"', "'", '"\\', '`']);
      const at = int(rnd, t.length + 1);
      return { text: insertAt(t, at, q), detail: `${show(q)} inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'odd-characters',
    apply(t, rnd) {
      const c = pick(rnd, ['\u2028', '\u0085', '\ud800', '\udfff', '\u202e', '\u0007', '\u001b[31m', '😀', '\u00a0', '\uffff', '\r']);
      const at = int(rnd, t.length + 1);
      return { text: insertAt(t, at, c), detail: `${show(c)} inserted at line ${lineOf(t, at)}` };
    },
  },
  {
    name: 'splice',
    apply(t, rnd, other) {
      // lines of another real document, at another indentation
      const src = splitLines(other);
      const from = int(rnd, src.length);
      const chunk = src.slice(from, from + 1 + int(rnd, 12));
      const shift = pick(rnd, [-2, 0, 0, 2, 4]);
      const moved = chunk.map((l) => (shift >= 0 ? ' '.repeat(shift) + l : l.replace(/^ {0,2}/, '')));
      const lines = splitLines(t);
      const at = int(rnd, lines.length + 1);
      lines.splice(at, 0, ...moved);
      return {
        text: joinLines(lines),
        detail: `${moved.length} lines of another document inserted before line ${at + 1} (shift ${shift})`,
      };
    },
  },
  {
    name: 'directive',
    apply(t, rnd) {
      const lines = splitLines(t);
      const at = int(rnd, lines.length + 1);
      const d = pick(rnd, ['%YAML 1.1', '%TAG ! tag:example.com,2000:', '%FOO bar']);
      lines.splice(at, 0, d);
      return { text: joinLines(lines), detail: `${show(d)} inserted before line ${at + 1}` };
    },
  },
  {
    name: 'inert',
    inert: true,
    apply(t, rnd) {
      // Valid YAML the loader must not refuse: structure-like text in a comment, a quoted string, a block scalar or
      // a multi-line plain scalar (its continuation lines), added as a new top-level key.
      const lines = splitLines(t);
      const topLevel = /^[A-Za-z]/.test(lines[0] ?? '');
      const keys = lines.map((l, i) => (i > 0 && /^[A-Za-z]/.test(l) ? i : -1)).filter((i) => i > 0);
      const at = keys.length && rnd() < 0.7 ? pick(rnd, keys) : lines.length;
      const v = topLevel ? int(rnd, 5) : 0;
      let add: string[];
      if (v === 0) add = [`# ${junk(rnd, false)}`];
      else if (v === 1) add = [`fzNote: "${junk(rnd, false).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`];
      else if (v === 2) add = ['fzNote: |', ...Array.from({ length: 1 + int(rnd, 3) }, () => `  ${junk(rnd, false)}`)];
      else if (v === 3) add = ['fzNote: a', ...Array.from({ length: 1 + int(rnd, 3) }, () => `  ${junk(rnd, true)}`)];
      else add = ['fzNote: a', ...Array.from({ length: 1 + int(rnd, 400) }, (_, i) => `${' '.repeat(2 + i)}b`)];
      lines.splice(at, 0, ...add);
      return { text: joinLines(lines), detail: `${add.length} line(s) inserted before line ${at + 1}: ${show(add.join('\n'))}` };
    },
  },
  {
    name: 'stacked',
    apply(t, rnd, other) {
      // several of the above on the same document (a bad merge rarely breaks one thing only)
      let text = t;
      const notes: string[] = [];
      for (let k = 2 + int(rnd, 3); k > 0; k--) {
        const m = pick(
          rnd,
          MUTATIONS.filter((x) => x.name !== 'stacked' && x.name !== 'inert'),
        );
        const r = m.apply(text, rnd, other);
        text = r.text;
        notes.push(`${m.name}: ${r.detail}`);
      }
      return { text, detail: notes.join('; then ') };
    },
  },
];

/** Document markers and directives at column 0: a mutation that adds or removes one changes document boundaries. */
export function boundaryLines(text: string): number {
  return (text.match(/^(?:---|\.\.\.)(?=[ \t\r\n]|$)|^%/gm) ?? []).length;
}

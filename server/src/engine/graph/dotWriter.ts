// Writes a GraphSnapshot in the exact text format of kube-controller-manager's garbage-collector graph dump
// (Kubernetes ≥ 1.26): `strict digraph full {`, section comments only when the section has entries, 2/4-space
// indentation, the fixed attribute order, Go %q quoting, nodes sorted by uid and edges by (from, to) as
// byte-wise (UTF-8) strings, and nodes without owners or dependents left out. Pure: no I/O.

import type { GraphSnapshot, GraphSnapshotNode } from './graphSnapshot';

/** Compares as Go compares strings: by UTF-8 bytes, which is code point order (not UTF-16 unit order). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    // A surrogate (part of a code point ≥ U+10000) sorts after any BMP character above the surrogate block.
    if (xs !== ys && (xs ? y >= 0xe000 : x >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const PLAIN_ASCII = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

const hex = (v: number, width: number) => v.toString(16).padStart(width, '0');

/** Go's strconv.Quote (what %q prints for a string). */
export function goQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') {
      out += '\\' + ch;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '\ufffd'; // a lone surrogate has no UTF-8 form; it would be sent as U+FFFD
    } else if (PRINTABLE.test(ch)) {
      out += ch;
    } else {
      switch (ch) {
        case '\u0007':
          out += '\\a';
          break;
        case '\b':
          out += '\\b';
          break;
        case '\f':
          out += '\\f';
          break;
        case '\n':
          out += '\\n';
          break;
        case '\r':
          out += '\\r';
          break;
        case '\t':
          out += '\\t';
          break;
        case '\v':
          out += '\\v';
          break;
        default:
          if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
          else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
          else out += '\\U' + hex(cp, 8);
      }
    }
  }
  return out + '"';
}

function label(n: GraphSnapshotNode): string {
  const kind = `${n.kind}.${n.version}${n.group ? '.' + n.group : ''}`;
  let s = `uid=${n.uid}\nnamespace=${n.namespace}\n${kind}/${n.name}\n`;
  const flags: string[] = [];
  if (n.beingDeleted) flags.push('beingDeleted');
  if (n.deletingDependents) flags.push('deletingDependents');
  if (n.virtual) flags.push('virtual');
  if (n.missing) flags.push('missingFromGraph');
  if (flags.length) s += flags.join(',') + '\n';
  return s;
}

export function writeGcDot(snapshot: GraphSnapshot): string {
  const linked = new Set<string>();
  for (const e of snapshot.edges) {
    linked.add(e.from);
    linked.add(e.to);
  }
  const nodes = snapshot.nodes.filter((n) => linked.has(n.uid)).sort((a, b) => compareUtf8(a.uid, b.uid));
  const edges = [...snapshot.edges].sort((a, b) => compareUtf8(a.from, b.from) || compareUtf8(a.to, b.to));
  const out: string[] = ['strict digraph full {\n'];
  if (nodes.length) out.push('  // Node definitions.\n');
  for (const n of nodes) {
    const attrs: [string, string][] = [
      ['label', label(n)],
      ['group', n.group],
      ['version', n.version],
      ['kind', n.kind],
      ['namespace', n.namespace],
      ['name', n.name],
      ['uid', n.uid],
      ['missing', String(n.missing)],
      ['beingDeleted', String(n.beingDeleted)],
      ['deletingDependents', String(n.deletingDependents)],
      ['virtual', String(n.virtual)],
    ];
    out.push(`  ${goQuote(n.uid)} [\n`);
    for (const [k, v] of attrs) out.push(`    ${k}=${goQuote(v)}\n`);
    out.push('  ];\n');
  }
  if (edges.length) out.push('  // Edge definitions.\n');
  for (const e of edges) out.push(`  ${goQuote(e.from)} -> ${goQuote(e.to)};\n`);
  out.push('}\n');
  return out.join('');
}

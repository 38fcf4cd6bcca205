// Shared helpers for the loader tests.
import type { Range } from '../../server/src/engine/model';
import type { LoadProblem } from '../../server/src/sources/manifests/loadProblem';

/** The text a 0-based range covers (single- or multi-line). */
export function textAt(text: string, range: Range | undefined): string | undefined {
  if (!range) return undefined;
  const lines = text.split('\n');
  if (range.start.line === range.end.line) return lines[range.start.line].slice(range.start.character, range.end.character);
  const parts = [lines[range.start.line].slice(range.start.character)];
  for (let l = range.start.line + 1; l < range.end.line; l++) parts.push(lines[l]);
  parts.push(lines[range.end.line].slice(0, range.end.character));
  return parts.join('\n');
}

export const errorsOf = (problems: LoadProblem[]) => problems.filter((p) => p.severity === 'error');

/** Problems in a compact form for expectations: "code:severity@line:column". */
export const brief = (problems: LoadProblem[]) => problems.map((p) => `${p.code}:${p.severity}@${p.line}:${p.column}`);

/** A small deterministic PRNG (mulberry32) for fuzz-style tests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CORPUS = '/work/shared/corpus';

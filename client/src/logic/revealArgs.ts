// kubeGcLens.revealLocation(uri, range): the arguments come from code lenses, report links and the tree, as
// JSON. They are checked before use: a bad link must give a clear message, not a half-opened editor.

import type { Range } from '../../../shared/src/protocol';

export interface RevealTarget {
  uri: string;
  range: Range;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function position(v: unknown): Range['start'] | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { line, character } = v as Record<string, unknown>;
  return isCount(line) && isCount(character) ? { line, character } : undefined;
}

export function parseRevealArgs(uri: unknown, range: unknown): RevealTarget | undefined {
  if (typeof uri !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(uri)) return undefined;
  if (typeof range !== 'object' || range === null) return undefined;
  const start = position((range as Record<string, unknown>).start);
  const end = position((range as Record<string, unknown>).end);
  if (!start || !end) return undefined;
  return { uri, range: { start, end } };
}

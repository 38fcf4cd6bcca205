// What a source reports about input it could not read (or read only in part): a located problem with a stable code.
// Every reader of input (manifests, the extractor, graph dumps, files) makes its problems here.

import type { Range } from '../../engine/model';
import { ZERO_RANGE } from './lineIndex';

export interface LoadProblem {
  file: string;
  /** 1-based, for humans. */
  line: number;
  /** 1-based (UTF-16 code units), for humans. */
  column: number;
  severity: 'error' | 'warning' | 'info';
  code: LoadProblemCode;
  /** One clear sentence. */
  reason: string;
  /** 0-based, for the editor. */
  range?: Range;
}

export type LoadProblemCode =
  | 'yaml-syntax'
  | 'json-syntax'
  | 'not-kubernetes'
  | 'template'
  | 'wrong-type'
  | 'binary'
  | 'too-large'
  | 'too-deep'
  | 'alias-limit'
  | 'duplicate-key'
  | 'kind-inferred'
  | 'unreadable'
  /** A malformed garbage-collector graph dump (sources/gcDot). */
  | 'dot-syntax';

export function makeProblem(
  file: string,
  severity: LoadProblem['severity'],
  code: LoadProblemCode,
  reason: string,
  range: Range = ZERO_RANGE,
): LoadProblem {
  return { file, line: range.start.line + 1, column: range.start.character + 1, severity, code, reason, range };
}
